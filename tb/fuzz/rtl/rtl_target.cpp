#include "fuzz/rtl/rtl_target.h"

#include <fmt/format.h>

#include "isa/check.h"
#include "model/core/c_compare.h"

namespace tpugen::fuzz {

Verdict run_both(const Isa& isa, const FuzzCase& c, const RtlSetup& rtl, ModelRun* model_run) {
  Verdict v;
  const ModelOutcome m = run_model_checked(isa, c);
  if (!m.run) {
    v.kind = Verdict::Invalid;
    v.detail = m.invalid;
    return v;
  }
  if (model_run) *model_run = *m.run;
  const Model& model = *m.run->model;
  const auto image = assemble(isa, c.program);
  const sim::RtlRunResult r = sim::run_rtl(rtl.sim, image, c.a, c.b, c.c, isa.param("MAXDIM"), rtl.run);
  v.rtl_cycles = r.cycles;
  if (!r.done()) {
    v.kind = Verdict::Status;
    v.detail = r.status == "fault" ? fmt::format("the RTL ended in fault {} at instruction {} (unit {})", r.fault.name,
                                                 r.fault.pc, r.fault.unit_name)
                                   : fmt::format("the RTL ended in {} after {} cycles", r.status, r.cycles);
    return v;
  }
  if (std::string c_diff = first_c_difference(r.c_full, model.dram("C"), isa.param("MAXDIM")); !c_diff.empty()) {
    v.kind = Verdict::C;
    v.detail = std::move(c_diff);
    return v;
  }
  const std::string diff = sim::compare_state(isa, model, r, /*allow_none=*/true);
  if (!diff.empty()) {
    v.kind = Verdict::State;
    v.detail = diff;
  }
  return v;
}

CaseRunner rtl_runner(const Isa& isa, const RtlSetup& rtl) {
  return [&isa, rtl](const FuzzCase& c) { return run_both(isa, c, rtl); };
}

}  // namespace tpugen::fuzz
