/// @file clocked_dut.h
/// @brief The Verilated top of a run-file harness (agent_main.cpp,
/// mover_main.cpp) and its context: the context seeded from the run (random
/// initial state, an assertion ends the run instead of aborting it), the top
/// with its clk_i and active-low rst_ni on SimTop (verilated_top.h: its
/// optional FST trace, one time step a half cycle), its reset and its two
/// half cycles. Compiled by Verilator's build only.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <memory>
#include <string>

#include "sim/harness/harness_main.h"
#include "sim/harness/verilated_top.h"

namespace tpusim::sim {

/// A context for a run seeded with `seed`: Verilator's arguments from the
/// command line, every register and memory random from the seed, and an
/// RTL assertion that the harness sees (gotError) rather than an abort.
inline std::unique_ptr<VerilatedContext> make_run_context(int argc, char** argv, std::uint64_t seed) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed % 2147483646ULL) + 1);
  ctx->fatalOnError(false);  // an assertion ends the run with its status, not an abort
  return ctx;
}

/// A Verilated top clocked on clk_i and reset by rst_ni (low active), with
/// an FST trace when one is asked for (Usage when the simulator was built
/// without --trace-fst): SimTop, with a run-file harness's reset and its two
/// half cycles.
template <typename Dut>
class ClockedDut {
 public:
  ClockedDut(VerilatedContext& ctx, const std::string& trace)
      : ctx_(ctx),
        top_(
            ctx, [](Dut& d) -> CData& { return d.clk_i; }, checked(trace)) {}
  ClockedDut(const ClockedDut&) = delete;
  ClockedDut& operator=(const ClockedDut&) = delete;

  Dut& operator*() { return *top_; }
  const Dut& operator*() const { return *top_; }
  Dut* operator->() { return &*top_; }
  const Dut* operator->() const { return &*top_; }

  /// rst_ni low for `cycles` cycles on the inputs as driven, then high
  /// (evaluated at the next fall).
  void reset(unsigned cycles) {
    top_->rst_ni = 0;
    for (unsigned i = 0; i < cycles; ++i) {
      top_.half(false);
      rise();
    }
    top_->rst_ni = 1;
  }

  /// The first half of a cycle: the clock low, the top evaluated on the
  /// inputs as driven. False when an RTL assertion failed or $finish ran.
  [[nodiscard]] bool fall() {
    top_.half(false);
    return !(ctx_.gotError() || ctx_.gotFinish());
  }

  /// The rising edge, then the clock low again (evaluated at the next fall).
  void rise() {
    top_.half(true);
    top_->clk_i = 0;
  }

 private:
  static const std::string& checked(const std::string& trace) {
#if !VM_TRACE_FST
    if (!trace.empty()) throw Usage{"this simulator was built without --trace-fst"};
#endif
    return trace;
  }

  VerilatedContext& ctx_;
  SimTop<Dut> top_;
};

}  // namespace tpusim::sim
