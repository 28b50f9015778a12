/// @file rtl_engine_flags.h
/// @brief The RTL engine's flags that `run`, `fuzz` and `bench` share (the
/// memories' latency and backpressure, the cycle limit, the simulator cache)
/// and what they name: the cached simulator and the run options.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

#include "hdl/rtl_context.h"
#include "sim/rtl_engine.h"

namespace tpugen::cli {

struct RtlEngineFlags {
  unsigned latency = 0;                                   ///< --latency: cycles beyond the next one, per memory
  double backpressure = 0.0;                              ///< --backpressure: 0..1
  std::uint64_t max_cycles = sim::RtlRunOptions{}.max_cycles;  ///< --max-cycles: per run
  std::string rtl_cache;                                  ///< --rtl-cache; empty: sim::default_build_root()

  /// Where verilated simulators are cached.
  [[nodiscard]] std::filesystem::path cache_root() const;
  /// The configuration's simulator (instrumented for coverage with
  /// `coverage`), built once into cache_root(), its progress on stderr.
  [[nodiscard]] std::filesystem::path simulator(const hdl::RtlContext& ctx, bool coverage = false) const;
  /// The options of a run at `seed`: the latency, backpressure and cycle
  /// limit; trace, coverage and runs as RtlRunOptions leaves them.
  [[nodiscard]] sim::RtlRunOptions run_options(std::uint64_t seed) const;
};

/// Adds --latency, --backpressure, --max-cycles and --rtl-cache to `cmd`,
/// writing into `flags` (whose values are the defaults shown), in the option
/// group `group`.
void add_rtl_engine_flags(CLI::App& cmd, RtlEngineFlags& flags, const std::string& group);

/// Adds only --max-cycles and --rtl-cache (the NoC's runs have no memories).
void add_rtl_cache_flags(CLI::App& cmd, RtlEngineFlags& flags, const std::string& group);

/// A simulator build's progress line, on stderr: "tpugen: building the RTL simulator ...".
void print_build_progress(const std::string& line);

}  // namespace tpugen::cli
