/// @file clocked_dut.h
/// @brief The Verilated top of a run-file harness (agent_main.cpp,
/// mover_main.cpp) and its context: the context seeded from the run (random
/// initial state, an assertion ends the run instead of aborting it), the top
/// with its clk_i and active-low rst_ni, its optional FST trace (one time
/// step a half cycle, from 0; the context's own time stands still), its reset
/// and its two half cycles. Compiled by Verilator's build only.
#pragma once

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <cstdint>
#include <memory>
#include <string>

#include "sim/harness/harness_main.h"

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
/// without --trace-fst).
template <typename Dut>
class ClockedDut {
 public:
  ClockedDut(VerilatedContext& ctx, const std::string& trace) : ctx_(ctx), dut_(std::make_unique<Dut>(&ctx)) {
#if VM_TRACE_FST
    if (!trace.empty()) {
      ctx.traceEverOn(true);
      fst_ = std::make_unique<VerilatedFstC>();
      dut_->trace(fst_.get(), 99);
      fst_->open(trace.c_str());
    }
#else
    if (!trace.empty()) throw Usage{"this simulator was built without --trace-fst"};
#endif
  }
  ClockedDut(const ClockedDut&) = delete;
  ClockedDut& operator=(const ClockedDut&) = delete;
  ~ClockedDut() {
#if VM_TRACE_FST
    if (fst_) fst_->close();
#endif
    dut_->final();
  }

  Dut& operator*() { return *dut_; }
  const Dut& operator*() const { return *dut_; }
  Dut* operator->() { return dut_.get(); }
  const Dut* operator->() const { return dut_.get(); }

  /// rst_ni low for `cycles` cycles on the inputs as driven, then high
  /// (evaluated at the next fall).
  void reset(unsigned cycles) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    for (unsigned i = 0; i < cycles; ++i) {
      eval();
      rise();
    }
    dut_->rst_ni = 1;
  }

  /// The first half of a cycle: the clock low, the top evaluated on the
  /// inputs as driven. False when an RTL assertion failed or $finish ran.
  [[nodiscard]] bool fall() {
    dut_->clk_i = 0;
    eval();
    return !(ctx_.gotError() || ctx_.gotFinish());
  }

  /// The rising edge, then the clock low again (evaluated at the next fall).
  void rise() {
    dut_->clk_i = 1;
    eval();
    dut_->clk_i = 0;
  }

 private:
  void eval() {
    dut_->eval();
#if VM_TRACE_FST
    if (fst_) fst_->dump(time_);
#endif
    ++time_;
  }

  VerilatedContext& ctx_;
  std::unique_ptr<Dut> dut_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst_;
#endif
  std::uint64_t time_ = 0;
};

}  // namespace tpusim::sim
