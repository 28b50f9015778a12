/// @file synth_flags.h
/// @brief What `synth` and `noc synth` share: the target flags (--target,
/// --clock-mhz, --family, --part, --device, --package, --units, --seed), the
/// flow's options they make, and the run of synth::run_flow with its
/// progress line and report.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>

#include "synth/synth_flow.h"

namespace tpugen::cli {

struct SynthTargetFlags {
  std::string target = "generic";  ///< --target: generic, xilinx, ice40
  std::string units = "auto";      ///< --units: ice40's per-unit place and route
  /// --clock-mhz, --family, --part, --device, --package and --seed write here;
  /// its other fields keep FlowOptions' defaults.
  synth::FlowOptions flow;

  /// The flow's options for a run into `out`: the flags', with the target and
  /// the per-unit mode parsed, the output directory, its rtl/ (emptied and
  /// created: the caller writes the sources and files.f there), the
  /// templates and the version. The caller sets the top and what the report
  /// says the design is.
  [[nodiscard]] synth::FlowOptions flow_options(const std::string& out) const;
};

/// Adds --target, --clock-mhz, --family, --part, --device, --package, --units
/// and --seed to `cmd`, writing into `flags` (whose values are the defaults
/// shown).
void add_synth_target_flags(CLI::App& cmd, SynthTargetFlags& flags);

/// Runs the flow: the progress line ("tpugen COMMAND: target T, top M:
/// running yosys (log: ...)"), the report on stdout, the failing gate on
/// stderr. Returns kOk when every gate passed, else kFail.
int run_synth_flow(std::string_view command, const synth::FlowOptions& flow);

}  // namespace tpugen::cli
