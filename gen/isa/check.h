/// @file check.h
/// @brief check_program: every contract of the seed, over the static program
/// and its dynamic issue stream; and assemble(), which refuses a program
/// that breaks one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tpugen {

/// One broken contract. `rule` is the contract id from the spec
/// (spec.contracts[].id, e.g. "ar_raw_dist", "loop_balance"); tests assert it.
struct Violation {
  std::string rule;
  std::size_t pc = 0;  ///< static instruction index
  int line = 0;        ///< its source line, 0 when none
  std::string message; ///< names the instruction, the operand and the values
  std::string opcode;  ///< the opcode's name ("mm"), or "opcode 40" when the spec has none
};

struct CheckResult {
  std::vector<Violation> violations;
  std::vector<Issue> issues;         ///< the expanded stream, when control flow allowed expanding
  std::vector<std::int64_t> header;  ///< header counts, in spec.header order, when computed
  [[nodiscard]] bool ok() const { return violations.empty(); }
  /// "<source>:<line>: instruction 3 (mm): [ar_raw_dist] ..." one per line.
  [[nodiscard]] std::string report(const std::string& source) const;
};

/// Check every contract. Never throws for a bad program: each problem is a
/// Violation naming the instruction index, its source line and the rule.
/// A program issuing more than `max_issues` instructions breaks issue_bound.
CheckResult check_program(const Isa& isa, const Program& program, std::size_t max_issues = kMaxIssues);

/// An image against its own instructions, after check_program (`checked`
/// is its result on `program`, which was decoded from `words`). Appends a
/// Violation for every header count that differs from the count the program
/// needs (rule "image.header": the units would wait for work that never
/// comes, or stop short), when the program expanded; and for every
/// instruction word with a bit set outside every field (rule
/// "image.unused_bits": the encoder never sets one, so the image was not
/// written by it).
void check_image(const Isa& isa, std::span<const std::uint64_t> words, const Program& program, CheckResult& checked);

/// check_program, then encode_image. Throws tpugen::Error with rule
/// "check.<contract id>" of the first violation and every violation listed
/// in the message.
std::vector<std::uint64_t> assemble(const Isa& isa, const Program& program);

}  // namespace tpugen
