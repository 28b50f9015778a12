/// @file compute_units_spec.h
/// @brief Compute units on the mesh as data (spec/compute_units.yaml): the CU
/// wrapper's steering, retirement rules, fault-result layout, own faults and
/// build parameters; the orchestrator's AXI4-Lite register map, staging
/// slots, mover window, channel states, kick errors and build parameters;
/// the units tpugen builds with their buffers, read tags, constraints,
/// CU_INST opcodes and payload fields, status selects and faults. Read
/// strictly and validated whole against noc.yaml (types, signals) and
/// system_node.yaml (the mover's registers fit the window); the models, the
/// RTL and docs/compute_units.md derive from it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/expr.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"
#include "util/diag.h"

namespace tpugen {

/// Where the wrapper sends a flit of one type (`other`: every type not listed).
struct CuSteering {
  std::string type;
  std::string to;  ///< inst_fifo, wrapper or recv_fifo
  std::string role;
  SourceLoc loc;
};

/// One row of the retirement table: the first row whose `when` holds picks the signal.
struct CuRetirement {
  std::string when;    ///< fault, last or otherwise
  std::string signal;  ///< a signal of noc.yaml
  std::string arg;     ///< exec_result or txn
  std::string role;
  SourceLoc loc;
};

struct CuBaseSpec {
  std::vector<CuSteering> steering;
  std::vector<CuRetirement> retirement;
  NocLayout fault_result;          ///< fields of a fault's 32-bit exec_result (code, detail)
  std::vector<NocCode> faults;     ///< the wrapper's own
  NocRange wrapper_codes;          ///< fault codes only the wrapper uses
  std::string data_flits;          ///< CU_DATA: data flits after a descriptor, as an expression over len
  std::vector<NocParameter> parameters;
  [[nodiscard]] const NocCode& require_fault(std::string_view name) const;
  /// The steering target of a type name (the `other` row's for an unlisted one).
  [[nodiscard]] const std::string& steer(std::string_view type) const;
};

/// How the host accesses a register field.
enum class CuAccess { Rw, Ro, Strobe, W1c };
[[nodiscard]] std::string_view access_name(CuAccess a);

struct CuRegField {
  std::string name;
  int msb = 0, lsb = 0;
  CuAccess access = CuAccess::Ro;
  std::string role;
  SourceLoc loc;
  [[nodiscard]] int width() const { return msb - lsb + 1; }
  [[nodiscard]] std::uint64_t get(std::uint64_t reg) const;
  [[nodiscard]] std::uint64_t with(std::uint64_t reg, std::uint64_t v) const;  ///< v masked to the width
};

struct CuRegister {
  std::string name;
  std::uint32_t offset = 0;
  std::string role;
  std::vector<CuRegField> fields;
  SourceLoc loc;
  [[nodiscard]] const CuRegField* field(std::string_view name) const;
  [[nodiscard]] const CuRegField& require_field(std::string_view name) const;
};

struct OrchestratorSpec {
  int data_bits = 64;
  std::uint32_t staging_offset = 0x1000;
  std::uint32_t slot_bytes = 64;
  int payload_words = 4;
  int header_word = 4;
  std::uint32_t window_offset = 0x800;
  std::uint32_t window_bytes = 0x80;
  std::vector<CuRegister> registers;          ///< in offset order
  std::uint32_t channel_stride = 0x10;
  std::vector<CuRegister> channel_registers;  ///< channel 0's offsets
  std::vector<NocCode> channel_states;
  std::vector<NocCode> kick_errors;
  std::vector<NocParameter> parameters;
  [[nodiscard]] const CuRegister& require_register(std::string_view name) const;
  [[nodiscard]] const CuRegister& require_channel_register(std::string_view name) const;
  [[nodiscard]] const NocCode& require_state(std::string_view name) const;
  [[nodiscard]] const NocCode& require_kick_error(std::string_view name) const;
  /// The first byte past the register file, the window and PROG_FLITS slots.
  [[nodiscard]] std::uint64_t address_span(std::int64_t prog_flits, std::int64_t channels) const;
};

/// A field of a unit's CU_INST payload: bits [msb, lsb] of the 256.
struct UnitField {
  std::string name;
  int msb = 0, lsb = 0;
  std::optional<Expr> zero_means;  ///< a value of 0 means this (over the unit's constants)
  int repeat = 1;
  std::vector<NocSubfield> element;
  std::string role;
  SourceLoc loc;
  [[nodiscard]] int width() const { return msb - lsb + 1; }
  [[nodiscard]] int element_width() const { return width() / repeat; }
  [[nodiscard]] const NocSubfield* subfield(std::string_view name) const;
};

struct UnitOpcode {
  std::string name;
  std::uint32_t code = 0;
  std::string role;
  std::string result;  ///< what SIG_INST_COMPLETE's argument carries
  std::vector<UnitField> fields;
  SourceLoc loc;
  [[nodiscard]] const UnitField* field(std::string_view name) const;
  [[nodiscard]] const UnitField& require_field(std::string_view name) const;
};

struct UnitBuffer {
  std::string name;
  std::uint32_t id = 0;
  Expr granules;
  std::string role;
  SourceLoc loc;
};

/// A named expression over the core's parameters and the unit's earlier constants.
struct UnitConstant {
  std::string name;
  Expr value;
  std::string role;
  SourceLoc loc;
};

struct UnitTag {
  std::string name;
  Expr first, count;
  std::string role;
  SourceLoc loc;
};

struct UnitConstraint {
  Expr expr;
  std::string rule;
  SourceLoc loc;
};

struct UnitSpec {
  std::string name;
  std::uint32_t type = 0;
  std::uint32_t version = 0;
  std::string role;
  int opcode_msb = 255, opcode_lsb = 252;
  std::vector<UnitBuffer> buffers;
  std::vector<UnitConstant> derived;
  std::vector<UnitTag> tags;
  std::vector<UnitConstraint> constraints;
  std::vector<UnitOpcode> opcodes;
  std::vector<NocCode> status_selects;
  std::vector<NocCode> faults;
  SourceLoc loc;
  [[nodiscard]] int opcode_width() const { return opcode_msb - opcode_lsb + 1; }
  [[nodiscard]] const UnitOpcode* opcode_of(std::uint32_t code) const;
  [[nodiscard]] const UnitOpcode& require_opcode(std::string_view name) const;
  [[nodiscard]] const NocCode& require_fault(std::string_view name) const;
  [[nodiscard]] const NocCode& require_select(std::string_view name) const;
  [[nodiscard]] const UnitBuffer& require_buffer(std::string_view name) const;
  [[nodiscard]] const UnitTag& require_tag(std::string_view name) const;
};

/// A unit's constants for one build of its datapath: the derived values,
/// each tag range and each buffer's granules, evaluated over `scope` (the
/// core's parameters); the constraints checked.
struct UnitConstants {
  std::map<std::string, std::int64_t, std::less<>> values;  ///< the derived constants
  struct Range {
    std::int64_t first = 0, count = 0;
  };
  std::map<std::string, Range, std::less<>> tags;
  std::map<std::string, std::int64_t, std::less<>> granules;  ///< by buffer name
  Scope scope;  ///< the derived constants and the core parameters the unit names (a copy: it outlives the core scope)
  [[nodiscard]] std::int64_t operator[](std::string_view name) const;
  [[nodiscard]] const Range& tag(std::string_view name) const;
};

/// Throws Error("cu.constraint") naming the rule and the spec line when a
/// constraint fails over `core` (e.g. MAXDIM past the tags' room).
UnitConstants evaluate_unit(const UnitSpec& unit, const Scope& core);

struct ComputeUnitsSpec {
  std::string path;
  std::string sha256;
  std::string name;
  CuBaseSpec cu_base;
  OrchestratorSpec orchestrator;
  std::vector<UnitSpec> units;
  std::map<std::string, SourceLoc, std::less<>> sections;
  [[nodiscard]] SourceLoc section(std::string_view key) const;
  [[nodiscard]] const UnitSpec& require_unit(std::string_view name) const;
};

/// Where it sits: compute_units.yaml beside the ISA spec file.
[[nodiscard]] std::string compute_units_spec_path(const std::string& isa_spec_path);

/// Read and validate against the NoC and system-node specs beside it.
/// Errors: "cu.io", "cu.yaml", "cu.spec" (and the strict reader's
/// spec.type / spec.missing_key / spec.unknown_key) with file:line.
ComputeUnitsSpec load_compute_units_spec(const std::string& path, const NocSpec& noc, const SystemNodeSpec& sysnode);
ComputeUnitsSpec load_compute_units_spec_text(const std::string& text, const std::string& path, const NocSpec& noc,
                                              const SystemNodeSpec& sysnode);

/// The wrapper's and the orchestrator's build parameters, resolved as the fabric's are.
NocParams resolve_cu_base_params(const ComputeUnitsSpec& spec, const std::map<std::string, std::string>& overrides = {});
NocParams resolve_orchestrator_params(const ComputeUnitsSpec& spec,
                                      const std::map<std::string, std::string>& overrides = {});

}  // namespace tpugen
