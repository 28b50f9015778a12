#include "cli/rtl_engine_flags.h"

#include <fmt/format.h>

namespace tpugen::cli {

std::filesystem::path RtlEngineFlags::cache_root() const {
  return rtl_cache.empty() ? sim::default_build_root() : std::filesystem::path(rtl_cache);
}

std::filesystem::path RtlEngineFlags::simulator(const hdl::RtlContext& ctx, bool coverage) const {
  return sim::ensure_simulator(ctx, cache_root(), print_build_progress, coverage);
}

sim::RtlRunOptions RtlEngineFlags::run_options(std::uint64_t seed) const {
  sim::RtlRunOptions r;
  r.latency = latency;
  r.backpressure = backpressure;
  r.seed = seed;
  r.max_cycles = max_cycles;
  return r;
}

void add_rtl_engine_flags(CLI::App& cmd, RtlEngineFlags& flags, const std::string& group) {
  cmd.add_option("--latency", flags.latency,
                 "memory latency: cycles from request handshake to response valid, beyond the next cycle")
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--backpressure", flags.backpressure, "0..1: probability that a memory withholds a ready or valid in a cycle")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.99))
      ->group(group);
  add_rtl_cache_flags(cmd, flags, group);
}

void add_rtl_cache_flags(CLI::App& cmd, RtlEngineFlags& flags, const std::string& group) {
  cmd.add_option("--max-cycles", flags.max_cycles, "give up on a run after this many cycles")
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--rtl-cache", flags.rtl_cache,
                 "where verilated simulators are cached (default $TPUGEN_RTL_CACHE, else the build tree)")
      ->group(group);
}

void print_build_progress(const std::string& line) { fmt::print(stderr, "tpugen: {}\n", line); }

}  // namespace tpugen::cli
