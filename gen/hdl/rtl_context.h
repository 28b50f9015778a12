/// @file rtl_context.h
/// @brief What every SystemVerilog emitter reads: the Isa (spec + legal
/// parameters), the spec facts rendered as SystemVerilog names and
/// expressions, and the per-unit decode derived from the actions table.
///
/// Emitters never type a bit position or an opcode number: they name
/// package constants (tpu_pkg::OP_MM, tpu_pkg::F0_LSB, ...) that the package
/// emitter writes from the spec, and they render spec expressions
/// (only_if conditions, item counts, rewrites) with `sv_of`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/derive.h"
#include "isa/instr.h"
#include "hdl/rtl_options.h"
#include "spec/axi_spec.h"

namespace tpugen::hdl {

/// One channel between two units: the port an action emits on and another
/// unit receives from (dma2sp, dma2vr, sp2vr, wcol, acol, cw, ac2sp).
struct Channel {
  std::string port;
  std::string from, to;  ///< unit names
  int width = 0;         ///< bits of one item: a packed operand or accumulator row
  int header_items = 0;  ///< leading header items (wcol: 1)
};

/// How one opcode uses one unit, read off its actions.
struct UnitUse {
  const Opcode* opcode = nullptr;
  std::vector<const Action*> actions;  ///< this unit's actions of the opcode, in table order
  /// The SystemVerilog condition under which the unit takes part: the
  /// disjunction of its actions' only_if conditions, "1'b1" when one has none.
  std::string when_sv;
};

class RtlContext {
 public:
  /// Throws Error("rtl.options") for an option out of its range.
  RtlContext(const Isa& isa, RtlOptions options);

  [[nodiscard]] const Isa& isa() const { return isa_; }
  [[nodiscard]] const Spec& spec() const { return isa_.spec(); }
  [[nodiscard]] const RtlOptions& options() const { return options_; }
  [[nodiscard]] std::int64_t param(std::string_view name) const { return isa_.param(name); }
  /// The AXI top's host interface (TopKind::Axi only; Error("rtl.axi") otherwise).
  [[nodiscard]] const AxiTopSpec& axi() const;
  /// Bytes of the AXI data bus: the AXI spec's data_bytes over the build parameters.
  [[nodiscard]] int axi_data_bytes() const { return axi_data_bytes_; }
  /// True when the options ask for the named deliberate defect.
  [[nodiscard]] bool injected(std::string_view bug) const { return options_.inject_bug == bug; }

  /// "tpu_pkg::OP_MM" for an opcode name.
  [[nodiscard]] std::string op_const(std::string_view opcode) const;
  /// The SystemVerilog name of an operand of a dispatched instruction:
  /// `<instr>.f1` for mm's ar0 (instr is the struct signal's name).
  [[nodiscard]] std::string operand_sv(const Opcode& op, std::string_view operand, std::string_view instr) const;
  /// Render a spec expression for an opcode: operands as their instruction
  /// fields, nr as `<instr>.nr`, parameters by name.
  [[nodiscard]] std::string sv_of(const Expr& e, const Opcode& op, std::string_view instr) const;

  /// The units the sequencer dispatches to, in spec order.
  [[nodiscard]] std::vector<const Unit*> dispatched_units() const;
  /// Every opcode that reaches a unit, with the actions it has there.
  [[nodiscard]] std::vector<UnitUse> uses(std::string_view unit, std::string_view instr) const;
  /// The channels, from the emit/receive pairs of the actions.
  [[nodiscard]] const std::vector<Channel>& channels() const { return channels_; }
  [[nodiscard]] const Channel& channel(std::string_view port) const;

  /// Widths: an operand row (VW), an accumulator row (AW), an operand
  /// field, nr, a header count, the opcode.
  [[nodiscard]] int field_width() const;
  [[nodiscard]] int nr_width() const;
  [[nodiscard]] int count_width() const;
  [[nodiscard]] int op_width() const;

  /// The comment every generated file starts with: tool, version, spec
  /// file and hash, every build parameter, "do not edit". No timestamp.
  [[nodiscard]] std::string file_header(std::string_view module, std::string_view description) const;

 private:
  Isa isa_;
  RtlOptions options_;
  std::vector<Channel> channels_;
  void load_axi();
  std::optional<AxiTopSpec> axi_;
  int axi_data_bytes_ = 0;
};

}  // namespace tpugen::hdl
