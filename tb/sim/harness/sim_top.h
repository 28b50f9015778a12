/// @file sim_top.h
/// @brief What both harnesses of tpu_sim do with their top (SimTop,
/// verilated_top.h; clk_i for tpu_top, ap_clk for tpu_axi_top) (HarnessBase): the reset, the runs back to
/// back, the clock loop of a run with its watchdog (max cycles) and the
/// protocol checks, and the noise on a data bus whose valid is low.
/// Compiled by Verilator's build only (tb/sim/harness/sim_main.cpp).
#pragma once

#include <verilated.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/harness/sim_common.h"
#include "sim/harness/verilated_top.h"

namespace tpusim::sim {

/// The part of a harness that is not about its top's ports: the top itself,
/// the reset, opt.runs runs back to back, the clock loop of one run and the
/// data buses' noise.
/// `Derived` (CRTP) provides
///   void drive_idle();                                    the inputs during reset
///   Outcome run_once(std::uint64_t& cycle, bool first);   one run from `cycle`,
///                                                         which it leaves past the run
///   bool has_errors() const;                              a protocol error so far
/// and may provide
///   void finish_runs(std::uint64_t cycle, Outcome& out);  after the last run, if done
template <typename Derived, typename Top>
class HarnessBase {
 public:
  using Port = typename SimTop<Top>::ClockPort;

  HarnessBase(const HarnessBase&) = delete;
  HarnessBase& operator=(const HarnessBase&) = delete;

  /// Reset, then opt_.runs runs back to back; the outcome is the last run's,
  /// or the first that did not reach done.
  Outcome run() {
    reset();
#if VM_COVERAGE
    // Count what the runs exercise, not the random initial state settling
    // through reset (every bit of it would count as toggled).
    ctx_.coveragep()->zero();
#endif
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t cycle = 0;
    Outcome out;
    std::vector<std::uint64_t> run_cycles;
    for (unsigned r = 0; r < opt_.runs; ++r) {
      out = self().run_once(cycle, r == 0);
      run_cycles.push_back(out.cycles);
      if (out.status != "done") break;
      out.runs_done = r + 1;
    }
    if (out.status == "done") self().finish_runs(cycle, out);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.total_cycles = cycle;
    out.run_cycles = std::move(run_cycles);
    return out;
  }

 protected:
  /// `clock` and `reset` name the top's clock and active-low reset ports.
  HarnessBase(const Options& o, VerilatedContext& ctx, Port clock, Port reset)
      : opt_(o), ctx_(ctx), top_(ctx, clock, o.trace), reset_(reset), noise_rng_(o.seed ^ 0x9e3779b97f4a7c15ULL) {}
  ~HarnessBase() = default;

  void finish_runs(std::uint64_t /*cycle*/, Outcome& /*out*/) {}

  void half(bool clk) { top_.half(clk); }

  /// `n` bytes for a data bus to carry while its valid is low, in `buf`:
  /// noise, so a core that uses data without valid shows it. One generator,
  /// seeded from opt.seed, serves every bus of the harness.
  const tpusim::Bytes& noise(tpusim::Bytes& buf, std::size_t n) {
    buf.resize(n);
    for (std::size_t k = 0; k < n; k += 8) {
      const std::uint64_t r = noise_rng_();
      for (std::size_t b = k; b < n && b < k + 8; ++b) buf[b] = static_cast<std::uint8_t>(r >> (8 * (b - k)));
    }
    return buf;
  }

  /// The inputs idle, reset low for kResetCycles cycles, then two cycles out of reset.
  void reset() {
    self().drive_idle();
    reset_(*top_) = 0;
    for (unsigned i = 0; i < kResetCycles; ++i) {
      half(false);
      half(true);
    }
    reset_(*top_) = 1;
    for (unsigned i = 0; i < 2; ++i) {
      half(false);
      half(true);
    }
  }

  /// The clock loop of one run that began in cycle `begin` (`cycle` is
  /// `begin` on entry, the run's last cycle on return). Each cycle:
  /// `step(cycle)` clocks it; `stop(cycle)` may end the run; then a protocol
  /// error ends it (status protocol_error), and so do opt_.max_cycles cycles
  /// or $finish (status as it was); then `next(cycle)` may end it. Returns
  /// whether `stop` or `next` ended the run.
  template <typename Step, typename Stop, typename Next>
  bool clock_run(std::uint64_t& cycle, std::uint64_t begin, Outcome& out, Step&& step, Stop&& stop, Next&& next) {
    for (;; ++cycle) {
      step(cycle);
      if (stop(cycle)) return true;
      if (self().has_errors()) {
        out.status = "protocol_error";
        return false;
      }
      if (cycle + 1 - begin >= opt_.max_cycles || ctx_.gotFinish()) return false;
      if (next(cycle)) return true;
    }
  }

  static constexpr unsigned kResetCycles = 5;

  const Options& opt_;
  VerilatedContext& ctx_;
  SimTop<Top> top_;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }

  Port reset_;
  std::mt19937_64 noise_rng_;
};

}  // namespace tpusim::sim
