/// @file verilated_top.h
/// @brief The Verilated model of a top as every harness holds it (tpu_sim's
/// core and AXI harnesses through HarnessBase, sim_top.h; the run-file
/// harnesses through ClockedDut, clocked_dut.h): built in a context, an
/// optional FST trace, and half clock cycles on the top's clock port, each
/// advancing the context's time by one. Compiled by Verilator's build only.
#pragma once

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <memory>
#include <string>

namespace tpusim::sim {

template <typename Top>
class SimTop {
 public:
  /// The top's clock port (Verilator's ports are reference members, so a
  /// function, not a pointer to member).
  using ClockPort = CData& (*)(Top&);

  /// `clock` names the top's clock port; `trace` an FST file to write, or empty.
  SimTop(VerilatedContext& ctx, ClockPort clock, const std::string& trace)
      : ctx_(ctx), top_(std::make_unique<Top>(&ctx, "TOP")), clock_(clock) {
#if VM_TRACE_FST
    if (!trace.empty()) {
      ctx.traceEverOn(true);
      trace_ = std::make_unique<VerilatedFstC>();
      top_->trace(trace_.get(), 99);
      trace_->open(trace.c_str());
    }
#else
    (void)trace;
#endif
  }

  ~SimTop() {
#if VM_TRACE_FST
    if (trace_) trace_->close();
#endif
    top_->final();
  }

  SimTop(const SimTop&) = delete;
  SimTop& operator=(const SimTop&) = delete;

  Top& operator*() { return *top_; }
  const Top& operator*() const { return *top_; }
  Top* operator->() { return top_.get(); }
  const Top* operator->() const { return top_.get(); }

  /// Half a clock cycle: the clock at `level`, the model evaluated, time
  /// advanced, the trace written.
  void half(bool level) {
    clock_(*top_) = static_cast<CData>(level);
    top_->eval();
    ctx_.timeInc(1);
#if VM_TRACE_FST
    if (trace_) trace_->dump(ctx_.time());
#endif
  }

 private:
  VerilatedContext& ctx_;
  std::unique_ptr<Top> top_;
  ClockPort clock_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
};

}  // namespace tpusim::sim
