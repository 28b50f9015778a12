/// @file cu_test_support.h
/// @brief Fixtures of the compute units' tests: the shipped codec and what a
/// model of a system of units is built from.
#pragma once

#include <map>
#include <string>

#include "model/cu/cu_system_model.h"
#include "noc/codec.h"
#include "test_support.h"

namespace tpugen::test {

/// The codec of spec/noc.yaml, made once.
inline const noc::Codec& shipped_codec() {
  static const noc::Codec c(shipped_noc_spec());
  return c;
}

/// What a model of a system of compute units at `isa` is built from: the
/// shipped specs, the wrapper's and the orchestrator's parameters with
/// these overrides, the agent's defaults.
inline cu::SystemSpecs shipped_system_specs(const Isa& isa, const std::map<std::string, std::string>& cu_base = {},
                                            const std::map<std::string, std::string>& orchestrator = {}) {
  const ComputeUnitsSpec& cu = shipped_compute_units_spec();
  cu::SystemSpecs specs;
  specs.isa = &isa;
  specs.cu = &cu;
  specs.sysnode = &shipped_system_node_spec();
  specs.codec = &shipped_codec();
  specs.cu_base = resolve_cu_base_params(cu, cu_base);
  specs.orchestrator = resolve_orchestrator_params(cu, orchestrator);
  specs.agent = resolve_agent_params(*specs.sysnode);
  return specs;
}

}  // namespace tpugen::test
