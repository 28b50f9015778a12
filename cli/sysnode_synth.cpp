#include "cli/sysnode_synth.h"

#include <fmt/format.h>

#include <filesystem>

#include "cli/cli.h"

namespace tpugen::cli {

int run_sysnode_synth(const SysnodeSynthUnit& unit, const hdl::SysnodeContext& ctx, const SynthTargetFlags& flags,
                      const std::string& out) {
  synth::FlowOptions f = flags.flow_options(out);
  unit.generate(ctx, f.rtl_dir.string());
  std::string name(unit.config);
  if (unit.mover_params)
    for (const auto& [param, v] : ctx.mover_params().listing()) {
      f.parameters.emplace_back(param, v);
      name += fmt::format("_{}", v);
    }
  if (unit.agent_params)
    for (const auto& [param, v] : ctx.agent_params().listing()) {
      f.parameters.emplace_back(unit.mover_params ? "AGENT_" + param : param, v);
      name += fmt::format("_{}", v);
    }
  f.config_name = name;
  f.spec_name = std::filesystem::path(ctx.spec().path).filename().string();
  f.spec_sha256 = ctx.spec().sha256;
  f.top = std::string(unit.top);
  f.core_description = std::string(unit.description);
  return run_synth_flow(unit.command, f);
}

}  // namespace tpugen::cli
