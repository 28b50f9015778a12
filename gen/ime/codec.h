/// @file codec.h
/// @brief The smt.* instructions by field name, from spec/ime.yaml: encode an
/// instruction's operands into its word, decode a word back, and write and
/// read one instruction's text in the seed's syntax
/// (`smt.vmadot.hp v16, v2, v8, v0, 3, i4`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spec/ime_spec.h"

namespace tpugen::ime {

/// One instruction and its operands' values, in its format's syntax order.
struct Decoded {
  const ImeInstruction* instr = nullptr;
  std::vector<std::pair<std::string, std::uint32_t>> operands;
  [[nodiscard]] std::uint32_t operand(std::string_view name) const;
  friend bool operator==(const Decoded& a, const Decoded& b) { return a.instr == b.instr && a.operands == b.operands; }
};

/// The word; Error("ime.range") for an operand that does not fit, an odd
/// register in an even field, or an operand missing or extra.
[[nodiscard]] std::uint32_t encode(const ImeSpec& spec, const Decoded& d);

/// The instruction a word is, or nothing (no MATCH/MASK takes it: another
/// opcode, a reserved DT or slide code, an unassigned function field).
[[nodiscard]] std::optional<Decoded> decode(const ImeSpec& spec, std::uint32_t word);

/// The seed's syntax: the mnemonic, the operands in order (registers as vN,
/// immediates in decimal) and, on an integer instruction, its type operand.
[[nodiscard]] std::string disassemble(const ImeSpec& spec, const Decoded& d);

/// One instruction's text: Error("ime.asm") naming the rule broken (an
/// unknown mnemonic, a wrong operand count, a register out of range or odd
/// where the field holds only even ones, an immediate that does not fit, a
/// type the mnemonic has no form for). The type operand of an integer
/// instruction may be left out for the default type (i8).
[[nodiscard]] Decoded parse(const ImeSpec& spec, std::string_view text);

}  // namespace tpugen::ime
