/// @file rtl_target.h
/// @brief The RTL as a fuzz target: a case on the Verilated core and on the
/// model, compared (the whole of C after the run and every on-chip row the
/// model wrote: spad, vr, ar; the RTL must reach done).
#pragma once

#include <filesystem>

#include "fuzz/core/campaign.h"
#include "sim/rtl_engine.h"

namespace tpugen::fuzz {

/// The simulator and how to run it.
struct RtlSetup {
  std::filesystem::path sim;
  sim::RtlRunOptions run;
};

/// Run a case on the model and the RTL and compare. `model_run`, when
/// given, receives the model's run (for coverage) of a valid case.
Verdict run_both(const Isa& isa, const FuzzCase& c, const RtlSetup& rtl, ModelRun* model_run = nullptr);

/// run_both as a CaseRunner (for shrink). `isa` must outlive the runner.
CaseRunner rtl_runner(const Isa& isa, const RtlSetup& rtl);

}  // namespace tpugen::fuzz
