/// @file sysnode_synth.h
/// @brief What `mover synth`, `agent synth` and `sysnode synth` share: tpugen
/// synth's flow on one of the system node's configurations, its parameters
/// (the mover's, the agent's as AGENT_*) in the report and the handoff.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "cli/synth_flags.h"
#include "hdl/sysnode/sysnode_context.h"

namespace tpugen::cli {

struct SysnodeSynthUnit {
  std::string_view command;                         ///< "mover synth", for the progress line
  std::string_view top;                             ///< the top module
  std::string_view description;                     ///< what the report says the design is
  std::string_view config;                          ///< the configuration name's stem ("mover")
  bool mover_params = false, agent_params = false;  ///< whose parameters it has
  /// Writes the configuration's RTL into the directory given.
  std::function<void(const hdl::SysnodeContext&, const std::string&)> generate;
};

/// Run the flow into `out`; kOk when every gate passed.
int run_sysnode_synth(const SysnodeSynthUnit& unit, const hdl::SysnodeContext& ctx, const SynthTargetFlags& flags,
                      const std::string& out);

}  // namespace tpugen::cli
