/// @file spec.h
/// @brief The ISA specification as a validated, immutable model.
///
/// `load_spec()` reads `spec/tinytpu_isa.yaml` strictly (unknown keys and
/// wrong types are errors with file, line and column) and validates the
/// whole model before anything downstream sees it. Every other part of
/// tpugen reads the ISA only through this model.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/diag.h"
#include "spec/expr.h"

namespace tpugen {

/// One field of an instruction word (or one subfield of an AGU term).
struct Field {
  std::string name;
  int lsb = 0;
  int width = 0;
  std::string role;
  int agu_target = 0;  ///< the AGU target number that names this field; 0 = none
  std::int64_t usable_max = 0;  ///< from the encoding rule
  SourceLoc loc;

  [[nodiscard]] int msb() const { return lsb + width - 1; }
};

/// Instruction word 1: AGU_TERMS terms of `width` bits, each with subfields.
struct TermLayout {
  int count = 0;
  int width = 0;
  std::vector<Field> subfields;  ///< target, level, stride
  [[nodiscard]] const Field& subfield(std::string_view name) const;
};

/// Which values an operand may take, when it is restricted.
struct Legal {
  std::optional<Expr> min, max;     ///< an inclusive range
  std::vector<std::int64_t> values; ///< or an explicit set
  [[nodiscard]] bool is_set() const { return !values.empty(); }
  [[nodiscard]] bool admits(std::int64_t v, const Scope& params) const;
  [[nodiscard]] std::string describe() const;
};

struct Operand {
  std::string name;
  std::string field;  ///< the word-0 field it travels in (f0..f3)
  std::optional<Legal> legal;
  std::string meaning;
};

enum class NrKind { None, Rows, Trip };

struct Opcode {
  std::int64_t value = 0;
  std::string name;
  NrKind nr = NrKind::None;
  std::string nr_meaning;
  std::vector<Operand> operands;
  std::optional<std::string> retired;  ///< why, when the opcode is retired
  SourceLoc loc;

  [[nodiscard]] const Operand* operand(std::string_view name) const;
  [[nodiscard]] const Operand* operand_in_field(std::string_view field) const;
};

struct Port {
  std::string name;
  std::int64_t rate = 1;          ///< items per cycle
  std::int64_t header_items = 0;  ///< leading items that are a header word, not data
};

struct Unit {
  std::string name;
  int ii = 1;
  bool elastic = true;
  std::string instructions_from;  ///< "dispatch", "imem", or a port carrying a header word
  std::vector<Port> ports;
  std::vector<std::vector<std::string>> serial;  ///< port groups that share one step stream
  SourceLoc loc;

  [[nodiscard]] const Port* port(std::string_view name) const;
  [[nodiscard]] bool dispatched() const { return instructions_from == "dispatch"; }
};

struct Compute {
  std::string name;
  bool copy = false;     ///< passes a row through unchanged (validity propagates)
  bool control = false;  ///< sequencer control flow, no data
  std::string role;
};

enum class ActionKind { Read, Write, Compute, Emit, Receive };
std::string_view to_string(ActionKind k);

struct Action {
  std::string opcode;
  std::string unit;
  std::string port;
  ActionKind kind = ActionKind::Compute;
  std::string state;  ///< memory name (read/write) or compute name (compute)
  std::string base;   ///< operand name giving the first row (read/write)
  Expr items;
  std::optional<Expr> only_if;
  SourceLoc loc;
};

/// How a header count is computed from a program.
struct HeaderCount {
  enum Kind { Static, UnitSteps, PortItems, StateSpan } kind = Static;
  std::string unit;   ///< UnitSteps, PortItems
  std::string port;   ///< PortItems
  std::string state;  ///< StateSpan
};

struct HeaderEntry {
  int word = 0;
  int lsb = 0;
  int width = 0;
  std::string name;
  HeaderCount count;
  std::string consumer;
  std::string meaning;
  std::int64_t usable_max = 0;
};

struct Memory {
  std::string name;
  std::string owner;
  Expr depth;
  Expr row_bits;
  std::string format;  ///< "operand", "accumulator", or empty for raw words
  bool cleared = false;
  std::string host;    ///< "written", "read", or empty
  struct Dram {
    Expr rows;
    std::string packed_word;  ///< operand selecting the packed word within a row
  };
  std::optional<Dram> dram;
};

struct Contract {
  std::string id;
  std::string rule;
  std::string memory;                ///< the memory a distance contract is about
  std::optional<Expr> min_distance;  ///< in steps of the memory's owner unit
};

struct Parameter {
  std::string name;
  std::string env;
  Expr default_value;
  std::optional<std::int64_t> min, max;
  std::string role;
};

struct Constant {
  std::string name;
  Expr value;
  std::string role;
};

struct Constraint {
  Expr expr;
  std::string rule;
  std::string ceiling;  ///< the MAXDIM ceiling this constraint is, if any
};

struct Ceiling {
  std::string name;
  Expr predicate;
  std::string question;
  std::string refused_by;
};

struct NumericStage {
  std::string stage, operation, exactness, where;
};

struct Numerics {
  std::string name;
  bool operand_signed = true;
  int operand_bits = 8;
  bool accumulator_signed = true;
  int accumulator_bits = 32;
  int product_bits = 16;
  std::vector<NumericStage> stages;
};

struct ProgramLimit {
  std::string name;
  std::optional<Expr> check;  ///< a predicate over M, K, N and the parameters
  std::string measure;        ///< max_nr, max_field, header_count, program_words, memory_rows
  std::optional<Expr> max;
  std::string rule;
  std::string alternative;
};

/// One code of the core's fault_o.
struct FaultCode {
  std::string name;     ///< FAULT_<name> in tpu_pkg
  int code = 0;
  std::string meaning;  ///< what raised it
};

/// One port of a core interface. Its direction is its name's suffix (_i in,
/// _o out); `bits` is its width as SystemVerilog over tpu_pkg and the
/// module's parameters ("1" for one bit).
struct InterfacePort {
  std::string name;
  std::string bits;
  std::string role;
  [[nodiscard]] bool input() const { return name.ends_with("_i"); }
};

/// One interface of the core (spec: interfaces): the ports tpu_top has for
/// it and the sequencer or unit that owns it passes on.
struct Interface {
  std::string name;
  std::string role;
  std::vector<InterfacePort> ports;
};

/// The whole, validated ISA.
struct Spec {
  std::string name;
  int version = 0;
  std::string path;   ///< the file it was loaded from
  std::string sha256; ///< hex digest of the file's bytes

  Expr usable_max_rule;  ///< over `width`
  std::string encoding_rule_name;
  std::string encoding_rationale;
  int word_bits = 64;
  int iwords = 0;  ///< instruction words (derived from `words`)
  std::vector<Field> word0;
  TermLayout term;
  std::string agu_semantics;
  int unused_target = 0;
  std::vector<Constant> isa_constants;
  std::vector<Opcode> opcodes;
  std::vector<Unit> units;
  std::vector<Compute> computes;
  std::vector<Action> actions;
  int count_slice_width = 16;
  std::vector<HeaderEntry> header;
  int nhdr = 0;  ///< header words (derived from the header table)
  std::vector<Memory> memories;
  std::vector<Contract> contracts;
  std::vector<Parameter> parameters;
  std::vector<Constant> derived_constants;
  std::vector<Constraint> constraints;
  std::vector<Ceiling> ceilings;
  Numerics numerics;
  std::string limits_program;
  std::vector<ProgramLimit> program_limits;
  int fault_width = 0;           ///< bits of fault_o
  int fault_pc_width = 0;        ///< bits of fault_pc_o (the static instruction index)
  int fault_unit_width = 0;      ///< bits of fault_unit_o (a unit's index in `units`)
  std::vector<FaultCode> faults;  ///< in code order; faults[0] is NONE, code 0
  std::string split_operand_load;
  std::vector<Interface> interfaces;  ///< the core's ports, by interface

  // Lookups. The pointer forms return nullptr when absent; the reference
  // forms throw tpugen::Error("spec.unknown_*").
  [[nodiscard]] const Field* field(std::string_view name) const;
  [[nodiscard]] const Field* field_by_target(int target) const;
  [[nodiscard]] const Opcode* opcode(std::string_view name) const;
  [[nodiscard]] const Opcode* opcode(std::int64_t value) const;
  [[nodiscard]] const Opcode& opcode_named(std::string_view name) const;
  [[nodiscard]] const Unit* unit(std::string_view name) const;
  [[nodiscard]] const Memory* memory(std::string_view name) const;
  [[nodiscard]] const Compute* compute(std::string_view name) const;
  [[nodiscard]] const Contract* contract(std::string_view id) const;
  [[nodiscard]] const Parameter* parameter(std::string_view name) const;
  [[nodiscard]] std::int64_t isa_constant(std::string_view name) const;
  [[nodiscard]] const FaultCode* fault(std::string_view name) const;
  [[nodiscard]] const Interface& interface(std::string_view name) const;
  /// The actions of one opcode, in table order.
  [[nodiscard]] std::vector<const Action*> actions_of(std::string_view opcode) const;
  /// The names the loader provides to expressions: fields.<f>.usable_max,
  /// fields.<f>.width, imem.count_slice_width, NHDR, IWORDS, ISA constants.
  [[nodiscard]] std::optional<std::int64_t> builtin(std::string_view name) const;
};

/// Load and validate a spec file. Throws tpugen::Error naming file:line:col.
Spec load_spec(const std::string& path);
/// Load from text (for tests); `path` names it in errors.
Spec load_spec_text(const std::string& text, const std::string& path);

/// The spec shipped with this build (its path is compiled in, and can be
/// overridden with the TPUGEN_SPEC environment variable).
std::string default_spec_path();

}  // namespace tpugen
