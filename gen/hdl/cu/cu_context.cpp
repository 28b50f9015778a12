#include "hdl/cu/cu_context.h"

#include <fmt/format.h>

#include "hdl/file_header.h"
#include "util/diag.h"

namespace tpugen::hdl {

CuContext::CuContext(const NocSpec& noc, const SystemNodeSpec& sysnode, const ComputeUnitsSpec& spec,
                     NocParams cu_base_params, NocParams orch_params, UnitConstants unit, std::string core_params,
                     std::map<std::string, std::int64_t> core)
    : noc_(&noc),
      sysnode_(&sysnode),
      spec_(&spec),
      cu_base_params_(std::move(cu_base_params)),
      orch_params_(std::move(orch_params)),
      unit_(std::move(unit)),
      core_params_(std::move(core_params)),
      core_(std::move(core)) {}

std::string CuContext::file_header(std::string_view module, std::string_view description) const {
  std::string params;
  for (const auto& [name, v] : cu_base_params_.listing()) params += fmt::format(" cu.{}={}", name, v);
  for (const auto& [name, v] : orch_params_.listing()) params += fmt::format(" orch.{}={}", name, v);
  params += core_params_;
  return generated_file_header({module, description, spec_->path, spec_->sha256, params, {}, {}});
}

int CuContext::orch_addr_bits() const {
  const auto span = static_cast<std::int64_t>(
      spec_->orchestrator.address_span(orch_params_["PROG_FLITS"], orch_params_["CHANNELS"]));
  int w = 1;
  while ((std::int64_t{1} << w) < span) ++w;
  return w;
}

CuContext make_cu_context(const NocSpec& noc, const SystemNodeSpec& sysnode, const ComputeUnitsSpec& spec,
                          const Isa& isa, const std::map<std::string, std::string>& cu,
                          const std::map<std::string, std::string>& orch) {
  // A fault's detail parts hold what they carry whole: CORE's the core's
  // fault_o, fault_unit_o and fault_pc_o, MEMORY's rule an ERROR flit's rule.
  const UnitSpec& unit = spec.require_unit("tinytpu");
  const NocLayout& error = noc.require_payload("error");
  const NocField* rule = error.field("rule");
  if (rule == nullptr) throw Error("gen.cu", "the error payload has no field rule", error.loc);
  struct Need {
    const char* fault;
    const char* part;
    int bits;
    const char* from;
  };
  const Need needs[] = {{"CORE", "code", isa.spec().fault_width, "spec/tinytpu_isa.yaml faults"},
                        {"CORE", "unit", isa.spec().fault_unit_width, "spec/tinytpu_isa.yaml faults"},
                        {"CORE", "pc", isa.spec().fault_pc_width, "spec/tinytpu_isa.yaml faults"},
                        {"MEMORY", "rule", rule->width(), "spec/noc.yaml error.rule"}};
  for (const Need& n : needs) {
    const NocCode& fault = unit.require_fault(n.fault);
    if (fault.require_detail(n.part).width() < n.bits)
      throw Error("gen.cu",
                  fmt::format("the {} fault's detail {} has {} bits; what it carries needs {} ({})", n.fault, n.part,
                              fault.require_detail(n.part).width(), n.bits, n.from),
                  fault.loc);
  }
  std::map<std::string, std::int64_t> core;
  std::string listing;
  for (const char* n : {"T", "MAXDIM", "IMEM_SIZE", "DMA_WORDS"}) {
    core[n] = isa.param(n);
    listing += fmt::format(" core.{}={}", n, isa.param(n));
  }
  return CuContext(noc, sysnode, spec, resolve_cu_base_params(spec, cu), resolve_orchestrator_params(spec, orch),
                   evaluate_unit(spec.require_unit("tinytpu"), isa.params().scope()), listing, core);
}

}  // namespace tpugen::hdl
