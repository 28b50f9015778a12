/// @file codec.h
/// @brief The instructions of spec/ime.yaml by field name, the smt.* ones
/// and the host's (RV64I and the RVV subset): encode an instruction's
/// operands into its word, decode a word back, and write and read one
/// instruction's text in the seed's syntax (`smt.vmadot.hp v16, v2, v8, v0,
/// 3, i4`, `vsetvli t0, zero, e8, m1, ta, ma`, `vle8.v v0, (a0)`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spec/expr.h"
#include "spec/ime_spec.h"

namespace tpugen::ime {

/// One instruction (an smt.* one: `Instr` ImeInstruction; the host's:
/// HostInstruction) and its operands' values, in its format's syntax
/// order. A signed immediate's value is its field's two's complement bits.
template <class Instr>
struct DecodedOf {
  const Instr* instr = nullptr;
  std::vector<std::pair<std::string, std::uint32_t>> operands;
  [[nodiscard]] std::uint32_t operand(std::string_view name) const;
  friend bool operator==(const DecodedOf& a, const DecodedOf& b) {
    return a.instr == b.instr && a.operands == b.operands;
  }
};
using Decoded = DecodedOf<ImeInstruction>;
using HostDecoded = DecodedOf<HostInstruction>;

/// The word; Error("ime.range") for an operand that does not fit, an odd
/// register in an even field, or an operand missing or extra.
[[nodiscard]] std::uint32_t encode(const ImeSpec& spec, const Decoded& d);
[[nodiscard]] std::uint32_t encode(const ImeSpec& spec, const HostDecoded& d);

/// The instruction a word is, or nothing (no MATCH/MASK takes it: another
/// opcode, a reserved DT or slide code, an unassigned function field).
[[nodiscard]] std::optional<Decoded> decode(const ImeSpec& spec, std::uint32_t word);
[[nodiscard]] std::optional<HostDecoded> decode_host(const ImeSpec& spec, std::uint32_t word);

/// The seed's syntax: the mnemonic, the operands in order (vector registers
/// as vN, scalar ones by their ABI names, immediates in decimal, a CSR by
/// name, vtype as `e8, m1, tu, mu`) and, on an integer smt.* instruction,
/// its type operand.
[[nodiscard]] std::string disassemble(const ImeSpec& spec, const Decoded& d);
[[nodiscard]] std::string disassemble(const ImeSpec& spec, const HostDecoded& d);

/// One instruction's text: Error("ime.asm") naming the rule broken (an
/// unknown mnemonic, a wrong operand count, a register out of range or odd
/// where the field holds only even ones, an immediate that does not fit, a
/// type the mnemonic has no form for). The type operand of an integer
/// instruction may be left out for the default type (i8). An immediate is
/// an expression (spec/expr.h: `4*8`, `0x7C0`) over `symbols`.
[[nodiscard]] Decoded parse(const ImeSpec& spec, std::string_view text, const Scope& symbols = {});
[[nodiscard]] HostDecoded parse_host(const ImeSpec& spec, std::string_view text, const Scope& symbols = {});

/// A line's mnemonic and its comma-separated operands, trimmed.
struct Statement {
  std::string mnemonic;
  std::vector<std::string> args;
};
[[nodiscard]] Statement split_statement(std::string_view text);

}  // namespace tpugen::ime
