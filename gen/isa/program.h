/// @file program.h
/// @brief A static program, and its dynamic issue stream (`expand`).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/instr.h"

namespace tpugen {

/// A static program: instructions in imem order. `source` names where it
/// came from (an assembly file, "gemm 16x16x16"), for error messages.
struct Program {
  std::vector<Instr> instrs;
  std::string source;
};

/// One dynamic issue: what the sequencer hands its units, with every AGU
/// term resolved (field[target] += iv[level] * stride, in term order).
struct Issue {
  std::size_t pc = 0;  ///< static instruction index
  const Opcode* opcode = nullptr;
  std::vector<std::int64_t> fields;  ///< resolved, one per spec.word0 field
  int line = 0;                      ///< source line of the static instruction
};

/// Upper bound on the issues expand() produces before it refuses a program.
inline constexpr std::size_t kMaxIssues = 4'000'000;

/// Walk the program's control flow exactly as the sequencer does, calling
/// `visit` for every issue (loop and endloop included). Throws
/// tpugen::Error("expand.*") naming the instruction for control flow the
/// sequencer could not follow: an unknown opcode, a loop deeper than
/// LOOP_DEPTH, an endloop without a loop, an unclosed loop, a term on a
/// level that is not open, or more than `max_issues` issues (a caller that
/// must answer quickly, such as a fuzz harness, passes a smaller bound).
void for_each_issue(const Isa& isa, const Program& program,
                    const std::function<void(const Issue&)>& visit, std::size_t max_issues = kMaxIssues);

/// The whole issue stream.
std::vector<Issue> expand(const Isa& isa, const Program& program, std::size_t max_issues = kMaxIssues);

/// "instruction 3 (line 12, mm)" — how every diagnostic names an instruction.
std::string describe_instr(const Isa& isa, const Program& program, std::size_t pc);

}  // namespace tpugen
