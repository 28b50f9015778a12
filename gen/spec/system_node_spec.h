/// @file system_node_spec.h
/// @brief The system node as data (spec/system_node.yaml): the memory
/// mover's command registers, modes, element widths, flags, walker geometry,
/// fault codes in check order, GATHER's index buffer, GENERATE's Philox
/// constants, the transform slot and its occupants, the quantiser's
/// constants; the memory agent's limits, served addresses and error rules;
/// the node's AXI master; the build parameters of both. Read strictly and
/// validated whole, against the NoC spec it sits beside (the agent's
/// descriptor and the ERROR payload are noc.yaml's); the models, the RTL and
/// docs/system_node.md derive from it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/noc_spec.h"
#include "util/diag.h"

namespace tpugen {

/// How a mover register field takes part in a write.
enum class MoverFieldKind {
  Value,   ///< stored by the write, kept across moves
  Select,  ///< picks the walker, dimension or axis the write's values go to
  Strobe,  ///< acts on the write (GO), stores nothing
  Status,  ///< read-only, driven by the mover
};

/// The YAML word of a field kind ("value", "select", "strobe", "status").
[[nodiscard]] std::string_view field_kind_name(MoverFieldKind k);

/// A field of a 64-bit mover register: bits [msb, lsb].
struct MoverField {
  std::string name;
  int msb = 0, lsb = 0;
  MoverFieldKind kind = MoverFieldKind::Value;
  bool is_signed = false;
  std::int64_t reset = 0;                   ///< value fields: after reset
  std::optional<std::uint64_t> zero_means;  ///< a value of 0 means this
  std::string role;
  SourceLoc loc;

  [[nodiscard]] int width() const { return msb - lsb + 1; }
  /// The field's raw bits in a register value.
  [[nodiscard]] std::uint64_t raw(std::uint64_t reg) const;
  /// Its value: sign-extended when signed.
  [[nodiscard]] std::int64_t value(std::uint64_t reg) const;
  /// `reg` with the field set to the low `width` bits of v.
  [[nodiscard]] std::uint64_t with(std::uint64_t reg, std::int64_t v) const;
  /// Whether v is a value of the field (signed: -2^(w-1) .. 2^(w-1)-1; else 0 .. 2^w-1).
  [[nodiscard]] bool fits(std::int64_t v) const;
};

struct MoverRegister {
  std::string name;
  std::uint32_t offset = 0;
  std::string role;
  bool stages = false;  ///< holds its values until `commits` of another register names it
  std::string commits;  ///< the staging register this write commits (empty: none)
  std::vector<MoverField> fields;
  SourceLoc loc;
  [[nodiscard]] const MoverField* field(std::string_view name) const;
  [[nodiscard]] bool read_only() const;  ///< every field a status field
};

/// A name with a code: a mode, a fault, a walker, an agent error rule.
struct SysCode {
  std::string name;
  std::uint32_t code = 0;
  std::string role;
  bool implemented = true;  ///< modes: false faults MODE at GO
  bool at_go = true;        ///< faults: checked at GO (false: while running)
  SourceLoc loc;
};

struct MoverElemWidth {
  std::uint32_t code = 0;
  int bits = 8;
  SourceLoc loc;
};

/// A flag of MOVE.flags: bits within the field; `values` maps a multi-bit code to what it means.
struct MoverFlag {
  std::string name;
  int msb = 0, lsb = 0;
  std::vector<std::int64_t> values;
  std::string role;
  SourceLoc loc;
  [[nodiscard]] int width() const { return msb - lsb + 1; }
};

struct BoundSelector {
  std::uint32_t code = 0;
  int axis = -1;  ///< -1: feeds no axis
};

struct OccupantModeFlag {
  std::string name;
  int bit = 0;
  std::string role;
};

/// An occupant of the transform slot and the geometry it declares.
struct TransformOccupant {
  std::string name;
  std::uint32_t id = 0;
  int in_bits = 256;
  int out_words = 1;
  std::string role;
  std::vector<OccupantModeFlag> mode_flags;
  SourceLoc loc;
  [[nodiscard]] const OccupantModeFlag* mode_flag(std::string_view name) const;
};

struct PhiloxSpec {
  int rounds = 10;
  std::array<std::uint32_t, 2> multipliers{};
  std::array<std::uint32_t, 2> weyl{};
  SourceLoc loc;
};

struct QuantiserSpec {
  int lanes = 4, lane_elems = 32, code_bits = 7;
  int scale_bias = 20, sexp_min = -20, sexp_max = 11;
  std::map<int, std::uint32_t> reciprocal;  ///< R[m8]
  SourceLoc loc;
};

struct MoverSpec {
  int register_bits = 64;
  std::vector<MoverRegister> registers;  ///< in offset order
  std::vector<SysCode> modes;
  std::vector<MoverElemWidth> elem_widths;
  std::vector<MoverFlag> flags;
  std::vector<SysCode> walkers;
  int dimensions = 6;
  int bound_axes = 2;
  std::vector<BoundSelector> bound_selectors;  ///< one per code of DIM_BOUND.bound_sel
  std::vector<SysCode> faults;                 ///< GO-time checks in check order, then the run-time ones
  int index_entries = 2048;
  int index_bits = 32;
  PhiloxSpec generate;
  std::string xform_id_field, xform_mode_field;
  std::vector<TransformOccupant> occupants;
  QuantiserSpec quantiser;
  std::vector<NocParameter> parameters;

  [[nodiscard]] const MoverRegister* reg(std::string_view name) const;
  [[nodiscard]] const MoverRegister* reg_at(std::uint32_t offset) const;
  /// The field and, through `reg`, its register; the require_ form throws
  /// Error("sysnode.spec") naming what needed it.
  [[nodiscard]] const MoverField* field(std::string_view name, const MoverRegister** reg = nullptr) const;
  [[nodiscard]] const MoverField& require_field(std::string_view name, std::string_view needed_by) const;
  [[nodiscard]] const SysCode* mode(std::string_view name) const;
  [[nodiscard]] const SysCode* mode_of(std::uint32_t code) const;
  [[nodiscard]] const SysCode& require_mode(std::string_view name) const;
  [[nodiscard]] const SysCode& require_fault(std::string_view name) const;
  [[nodiscard]] const SysCode& require_walker(std::string_view name) const;
  [[nodiscard]] const MoverFlag& require_flag(std::string_view name) const;
  [[nodiscard]] const MoverElemWidth* elem_width_of(std::uint32_t code) const;
  [[nodiscard]] const TransformOccupant* occupant_of(std::uint32_t id) const;
  [[nodiscard]] const TransformOccupant& require_occupant(std::string_view name) const;
  /// The bound axis a DIM_BOUND.bound_sel code feeds (-1: none).
  [[nodiscard]] int bound_axis_of(std::uint32_t code) const;
};

struct AgentServes {
  std::string field;  ///< a field of noc.yaml's address_map
  std::uint64_t value = 0;
  SourceLoc loc;
};

struct AgentSpec {
  int write_max_len = 7;
  std::vector<AgentServes> serves;
  std::vector<SysCode> error_rules;  ///< in check order
  std::vector<NocParameter> parameters;
  [[nodiscard]] const SysCode& require_error_rule(std::string_view name) const;
};

struct SysAxiMaster {
  std::string name;
  std::uint32_t id = 0;
  SourceLoc loc;
};

struct SysAxiSpec {
  int boundary_bytes = 4096;
  int max_burst_beats = 256;
  std::vector<SysAxiMaster> masters;
};

struct SystemNodeSpec {
  std::string path;
  std::string sha256;
  std::string name;
  int word_bits = 256;
  int address_bits = 40;
  MoverSpec mover;
  AgentSpec agent;
  SysAxiSpec axi;
  std::map<std::string, SourceLoc, std::less<>> sections;  ///< where each top-level key is

  [[nodiscard]] int word_bytes() const { return word_bits / 8; }
  [[nodiscard]] SourceLoc section(std::string_view key) const;
};

/// Where the system node's spec sits: system_node.yaml beside the ISA spec file.
[[nodiscard]] std::string system_node_spec_path(const std::string& isa_spec_path);

/// Read and validate against the NoC spec beside it. Errors: "sysnode.io",
/// "sysnode.yaml", "sysnode.spec" (and the strict reader's spec.type /
/// spec.missing_key / spec.unknown_key) with file:line.
SystemNodeSpec load_system_node_spec(const std::string& path, const NocSpec& noc);
SystemNodeSpec load_system_node_spec_text(const std::string& text, const std::string& path, const NocSpec& noc);

/// The mover's and the agent's build parameters, resolved as the fabric's are.
NocParams resolve_mover_params(const SystemNodeSpec& spec, const std::map<std::string, std::string>& overrides = {});
NocParams resolve_agent_params(const SystemNodeSpec& spec, const std::map<std::string, std::string>& overrides = {});

}  // namespace tpugen
