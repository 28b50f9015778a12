/// @file noc_spec.h
/// @brief The NoC fabric as data (spec/noc.yaml): the 288-bit flit and its
/// header, the message types, the payload layouts (memory descriptors,
/// signals, CU_DATA, CU_CTRL, ERROR), the control registers, the address
/// map, the ownership rules, the endpoint's error rules, the router's ports,
/// the routing functions and the fabric's build parameters. Read strictly
/// and validated whole; the flit codec (gen/noc), tpu_noc_pkg, the models
/// and docs/noc.md derive from it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/diag.h"

namespace tpugen {

/// A named bit of a field (a flag): `bit` counts from the field's lsb.
struct NocFlag {
  std::string name;
  int bit = 0;
  bool reserved_ignored = false;  ///< reserved: the receiver ignores it
  std::string role;
  SourceLoc loc;
};

/// A sub-field of one element of a repeated field (bits within the element).
struct NocSubfield {
  std::string name;
  int msb = 0, lsb = 0;
  [[nodiscard]] int width() const { return msb - lsb + 1; }
  [[nodiscard]] std::uint64_t mask() const {
    return width() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width()) - 1;
  }
  /// This sub-field of `word`.
  [[nodiscard]] std::uint64_t get(std::uint64_t word) const { return (word >> lsb) & mask(); }
  /// `word` with this sub-field set to the low bits of `value`.
  [[nodiscard]] std::uint64_t with(std::uint64_t word, std::uint64_t value) const {
    return (word & ~(mask() << lsb)) | ((value & mask()) << lsb);
  }
};

/// A field: bits [msb, lsb] of its frame (the flit for the header and the
/// payloads, the 64-bit register for a control register, the address for
/// the address map).
struct NocField {
  std::string name;
  int msb = 0, lsb = 0;
  std::string role;
  std::optional<std::uint64_t> zero_means;  ///< a value of 0 means this
  std::optional<std::uint64_t> above_max;   ///< a value above this ...
  std::uint64_t above_means = 0;            ///< ... means this
  std::vector<NocFlag> flags;
  int repeat = 1;                     ///< elements, lowest first
  std::vector<NocSubfield> element;   ///< each element's sub-fields (repeat > 1)
  SourceLoc loc;

  [[nodiscard]] int width() const { return msb - lsb + 1; }
  [[nodiscard]] int element_width() const { return width() / repeat; }
  [[nodiscard]] const NocFlag* flag(std::string_view name) const;
  [[nodiscard]] const NocSubfield* subfield(std::string_view name) const;
  /// What a raw value means after zero_means and above: entry_words 0 and 9 mean 4.
  [[nodiscard]] std::uint64_t effective(std::uint64_t raw) const;
};

/// A named set of fields within one frame.
struct NocLayout {
  std::string name;
  std::string role;
  std::vector<NocField> fields;  ///< in the file's order
  SourceLoc loc;
  [[nodiscard]] const NocField* field(std::string_view name) const;
};

/// A name with a code: a message type, a signal, an error rule, a CU_CTRL op.
struct NocCode {
  std::string name;
  std::uint32_t code = 0;
  std::string role;
  std::string payload;     ///< message types: the payload layout's name
  std::string arg;         ///< signals: what the argument carries
  bool generated = true;   ///< signals: false for an allocated code no unit sends
  /// faults: the sub-fields of the fault result's detail, bits within it
  /// (empty: the role says what the detail is, or it is 0).
  std::vector<NocSubfield> detail;
  SourceLoc loc;
  [[nodiscard]] const NocSubfield* detail_field(std::string_view name) const;
  /// Throws Error("cu.spec") naming the code when it has no detail sub-field `name`.
  [[nodiscard]] const NocSubfield& require_detail(std::string_view name) const;
};

struct NocRange {
  std::uint32_t from = 0, to = 0;
  [[nodiscard]] bool contains(std::uint32_t v) const { return v >= from && v <= to; }
};

/// A compute unit's 64-bit control register.
struct NocRegister {
  std::string name;
  int index = 0;
  std::string role;
  std::vector<NocField> fields;
  SourceLoc loc;
};

/// Who reads one header field of a message class, and the rule on it.
struct NocOwnershipRule {
  std::string field, reads, rule;
};
struct NocOwnership {
  std::string type;  ///< a message type's name, or "any"
  std::vector<NocOwnershipRule> fields;
  SourceLoc loc;
};

/// One router port: a neighbour at (dx, dy), or the local endpoint.
struct NocPort {
  std::string name;
  int dx = 0, dy = 0;
  bool local = false;
  std::string role;
  SourceLoc loc;
};

/// A build parameter: an integer in [min, max], or a choice among the names
/// of a list of the spec (ROUTING: routings).
struct NocParameter {
  std::string name;
  std::int64_t default_value = 0;  ///< integer parameters
  std::string default_choice;      ///< choice parameters
  std::int64_t min = 0, max = 0;
  std::string choices;             ///< the spec list it chooses from ("routings"); empty for an integer
  std::string role;
  SourceLoc loc;
  [[nodiscard]] bool is_choice() const { return !choices.empty(); }
};

struct NocSpec {
  std::string path;
  std::string sha256;
  std::string name;
  int header_bits = 32;
  int payload_bits = 256;
  int pos_width = 4;
  NocLayout header;                       ///< the header fields, bits of the flit
  std::vector<std::string> routing_fields;
  std::vector<NocCode> types;
  NocRange reserved_types;
  std::vector<NocLayout> payloads;
  std::vector<NocCode> cu_ctrl_ops;
  std::vector<NocCode> signals;
  NocRange unit_defined_signals;
  std::vector<NocRegister> cu_ctrl_registers;
  int address_bits = 40;
  NocLayout address_map;
  std::vector<NocOwnership> ownership;
  std::vector<NocCode> error_rules;
  std::vector<NocPort> ports;
  std::vector<NocCode> routings;
  std::vector<NocParameter> parameters;

  /// Where each top-level key of the file is (for errors about a whole list).
  std::map<std::string, SourceLoc, std::less<>> sections;

  [[nodiscard]] int flit_bits() const { return header_bits + payload_bits; }
  /// Where a top-level key is; the file alone when it has none.
  [[nodiscard]] SourceLoc section(std::string_view key) const;
  /// Lookups by name; the `require_` forms throw Error("noc.spec") naming
  /// what needed the name, so code that relies on a spec name says so.
  [[nodiscard]] const NocCode* type(std::string_view name) const;
  [[nodiscard]] const NocCode* type_of(std::uint32_t code) const;
  [[nodiscard]] const NocCode* routing(std::string_view name) const;
  [[nodiscard]] const NocCode& require_type(std::string_view name) const;
  [[nodiscard]] const NocLayout* payload(std::string_view name) const;
  [[nodiscard]] const NocLayout& require_payload(std::string_view name) const;
  [[nodiscard]] const NocField& require_header(std::string_view field) const;
  [[nodiscard]] const NocCode& require_error_rule(std::string_view name) const;
  [[nodiscard]] const NocCode& require_signal(std::string_view name) const;
  [[nodiscard]] const NocParameter& require_parameter(std::string_view name) const;
  [[nodiscard]] const NocPort& require_port(std::string_view name) const;
  /// The index of a port in `ports` (the router's port numbering).
  [[nodiscard]] int port_index(std::string_view name) const;
};

/// Where the NoC spec sits: noc.yaml beside the ISA spec file.
[[nodiscard]] std::string noc_spec_path(const std::string& isa_spec_path);

/// Read and validate. Errors: "noc.io", "noc.yaml", "noc.spec" (and the
/// strict reader's spec.type / spec.missing_key / spec.unknown_key) with file:line.
NocSpec load_noc_spec(const std::string& path);
NocSpec load_noc_spec_text(const std::string& text, const std::string& path);

/// The spec list a choice parameter chooses from: its key ("routings") and its entries.
struct ChoiceList {
  std::string_view key;
  const std::vector<NocCode>* names = nullptr;
};

/// A fabric's (or the system node's) build parameters, resolved against the
/// spec: every integer parameter by name, and the choice parameters by name.
class NocParams {
 public:
  [[nodiscard]] std::int64_t operator[](std::string_view name) const;
  [[nodiscard]] const std::string& choice(std::string_view name) const;
  [[nodiscard]] int nx() const { return static_cast<int>((*this)["NX"]); }
  [[nodiscard]] int ny() const { return static_cast<int>((*this)["NY"]); }
  [[nodiscard]] int depth() const { return static_cast<int>((*this)["DEPTH"]); }
  [[nodiscard]] const std::string& routing() const { return choice("ROUTING"); }
  /// Every parameter in spec order: its name and its value as text.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> listing() const;

 private:
  friend NocParams resolve_build_params(const std::vector<NocParameter>&, const ChoiceList&, const std::string&,
                                        const std::map<std::string, std::string>&, std::string_view);
  std::vector<std::pair<std::string, std::string>> order_;
  std::map<std::string, std::int64_t, std::less<>> ints_;
  std::map<std::string, std::string, std::less<>> choices_;
};

/// Build parameters of a spec file of the NoC family (the fabric's in
/// noc.yaml, the system node's in system_node.yaml; `what` names whose in
/// errors): the defaults with `overrides` applied, checked as below.
NocParams resolve_build_params(const std::vector<NocParameter>& parameters, const ChoiceList& choices,
                               const std::string& path, const std::map<std::string, std::string>& overrides,
                               std::string_view what);

/// The spec's defaults with `overrides` (by parameter name, as text) applied.
/// Throws Error("noc.param") for an unknown name, a value that is not an
/// integer or not one of the choices, or one outside its range, naming the
/// range and the spec line that sets it.
NocParams resolve_noc_params(const NocSpec& spec, const std::map<std::string, std::string>& overrides = {});

}  // namespace tpugen
