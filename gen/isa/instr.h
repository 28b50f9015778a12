/// @file instr.h
/// @brief One instruction, its encoding, and the spec-driven view of it.
///
/// An `Instr` holds the value of every word-0 field in spec order plus its
/// AGU terms. `Isa` binds a spec and a resolved parameter set and answers
/// every question about fields and operands by name, so no code outside the
/// spec names a bit position or an opcode number.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "spec/params.h"
#include "spec/spec.h"

namespace tpugen {

struct AguTerm {
  std::int64_t target = 0;  ///< 0 = unused; else the field whose agu_target this is
  std::int64_t level = 0;   ///< loop level, 0 = outermost
  std::int64_t stride = 0;
  bool operator==(const AguTerm&) const = default;
};

struct Instr {
  std::vector<std::int64_t> fields;  ///< one per spec.word0 field, in spec order
  std::vector<AguTerm> terms;        ///< at most AGU_TERMS, all with target != 0
  int line = 0;                      ///< source line, 0 when the instruction has none
  bool operator==(const Instr& o) const { return fields == o.fields && terms == o.terms; }
};

/// The spec and one legal parameter set; the lens every layer uses.
class Isa {
 public:
  Isa(const Spec& spec, Params params);

  [[nodiscard]] const Spec& spec() const { return *spec_; }
  [[nodiscard]] const Params& params() const { return params_; }
  [[nodiscard]] std::int64_t param(std::string_view name) const { return params_[name]; }

  // Fields.
  [[nodiscard]] std::size_t field_index(std::string_view field) const;
  [[nodiscard]] std::size_t op_index() const { return op_index_; }
  [[nodiscard]] std::size_t nr_index() const { return nr_index_; }
  /// Index into Instr::fields of the field an AGU target names; throws for 0
  /// or an unknown target.
  [[nodiscard]] std::size_t target_index(std::int64_t target) const;
  [[nodiscard]] Instr make(const Opcode& op) const;  ///< all fields zero but op

  // Opcodes and operands.
  [[nodiscard]] const Opcode* opcode_of(const Instr& i) const;
  [[nodiscard]] std::int64_t nr(const Instr& i) const { return i.fields[nr_index_]; }
  /// The index of the field carrying `operand` of `op`; throws if none.
  [[nodiscard]] std::size_t operand_index(const Opcode& op, std::string_view operand) const;
  [[nodiscard]] std::int64_t operand(const Instr& i, const Opcode& op, std::string_view name) const {
    return i.fields[operand_index(op, name)];
  }
  /// A scope naming nr, the opcode's operands (from `fields`) and the parameters.
  [[nodiscard]] Scope operand_scope(const Opcode& op, const std::vector<std::int64_t>& fields) const;

  // Encoding: IWORDS 64-bit words per instruction. encode() asserts the
  // encoding rule on every field and subfield (tpugen::Error "encode.range").
  [[nodiscard]] std::vector<std::uint64_t> encode(const Instr& i) const;
  [[nodiscard]] Instr decode(std::span<const std::uint64_t> words) const;
  /// Words that are set but belong to no field (the spare bits above the fields).
  [[nodiscard]] std::vector<std::uint64_t> unused_masks() const;

 private:
  const Spec* spec_;
  Params params_;
  std::size_t op_index_ = 0, nr_index_ = 0;
};

}  // namespace tpugen
