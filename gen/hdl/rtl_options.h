/// @file rtl_options.h
/// @brief The generator options that are not build parameters (RtlOptions)
/// and their one table: each knob's names, help, range and accessors. Every
/// place that shows, records or reads the options (the CLI flags,
/// params.json, the file header, sim_config.h, the simulator cache key, the
/// cocotb config, the synth report, a fuzz reproducer) iterates the table,
/// so a new knob is one member and one row.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace tpugen::hdl {

/// Which module is the top of a generated configuration.
enum class TopKind {
  Core,  ///< tpu_top: the core with its valid/ready memory ports
  Axi,   ///< tpu_axi_top: the core behind AXI4 masters and an AXI4-Lite ap_ctrl_hs slave
};

/// "core" or "axi" (the --top flag's words).
[[nodiscard]] std::string_view top_kind_name(TopKind kind);
/// The top module's name: tpu_top or tpu_axi_top.
[[nodiscard]] std::string_view top_module(TopKind kind);

/// Generator options that are not build parameters (RtlContext resolves and
/// checks them: RtlContext::options() holds the values the RTL is built with).
struct RtlOptions {
  TopKind top = TopKind::Core;  ///< which module the configuration's top is
  int imem_beat_words = 0;     ///< 64-bit words per imem beat (ImemBeat); 0: BUS_BYTES / 8
  int c_beat_words = 1;        ///< packed operand words per C write beat (CBeat), a power of two
  int watchdog_cycles = 4096;  ///< cycles without progress before FAULT_HANG
  /// For testing the fuzzer only: a deliberate defect by name
  /// (rtl/injected_bugs.h); empty builds the correct core.
  std::string inject_bug;
  /// The AXI top's spec (spec/axi_top.yaml); empty: axi_top.yaml beside the ISA spec. Read only for TopKind::Axi.
  std::string axi_spec_path;
};

/// One generator option: a row of rtl_option_fields().
struct RtlOptionField {
  enum class Kind {
    Integer,  ///< an int in min .. max
    Text,     ///< any string
    Choice,   ///< one of `choices`
  };
  /// Its name in every file that records it (params.json, tpu_config.json,
  /// the file header, the simulator cache key, a reproducer): "imem_beat_words".
  std::string_view key{};
  /// The top's SystemVerilog parameter it sets ("ImemBeat"); empty for a
  /// knob that is none. The parameter knobs are the ones sim_config.h, the
  /// synth report, tpu_config.json's "options" and the file header list.
  std::string_view param{};
  /// The command-line flag ("--imem-beat"); empty: set only by a caller
  /// (and recorded nowhere: axi_spec_path, whose file's content is).
  std::string_view flag{};
  std::string_view what{};  ///< what it counts or picks, for the help and the range error
  std::string_view note{};  ///< more help after the parameter's name ("default BUS_BYTES / 8")
  Kind kind = Kind::Integer;
  int min = 0, max = 0;       ///< Integer: the legal range (a default outside it means "derived")
  bool power_of_two = false;  ///< Integer: powers of two only
  std::string_view choices{};  ///< Choice: the words, '|'-separated ("core|axi")
  bool hidden = false;        ///< a testing knob: no --help line, not in the synth report
  /// The value as text ("8", "core", "").
  std::string (*get)(const RtlOptions&) = nullptr;
  /// Set it from text. Throws Error("rtl.options") for a value of the wrong
  /// kind (the range is RtlContext's to check: check()).
  void (*set)(RtlOptions&, std::string_view) = nullptr;

  /// A knob a user sets (it has a flag): the simulator cache key, params.json
  /// and a reproducer record it.
  [[nodiscard]] bool recorded() const { return !flag.empty(); }
  /// The parameter's name, or the key for a knob that is no parameter.
  [[nodiscard]] std::string_view name() const { return param.empty() ? key : param; }
  /// The --help line: "64-bit words per imem beat (ImemBeat; default BUS_BYTES / 8)".
  [[nodiscard]] std::string help() const;
  /// The value as a JSON value: 8, "core".
  [[nodiscard]] std::string json(const RtlOptions& o) const;
  /// Integer knobs: throws Error("rtl.options") when the value is outside
  /// min .. max (or not a power of two); others: nothing.
  void check(const RtlOptions& o) const;
};

/// Every generator option, in the order every output lists them.
[[nodiscard]] std::span<const RtlOptionField> rtl_option_fields();

/// "name=value" for each parameter knob, space-separated: "ImemBeat=8
/// CBeat=1 Watchdog=4096" (by_key: "imem_beat_words=8 ...").
[[nodiscard]] std::string rtl_parameter_options_text(const RtlOptions& o, bool by_key = false);

}  // namespace tpugen::hdl
