// tpugen mover synth: tpugen synth's flow (gates, resources, handoff) on the
// memory mover's top, tpu_noc_mover, at the build parameters given.
#include <fmt/format.h>

#include <filesystem>

#include "cli/cli.h"
#include "cli/mover_commands.h"
#include "cli/sysnode_synth.h"
#include "hdl/sysnode/sysnode_context.h"
#include "hdl/sysnode/sysnode_generate.h"

namespace tpugen::cli {

CLI::App* add_mover_synth_command(CLI::App& mover, MoverSynthOpts& o, const std::vector<NocParameter>* parameters) {
  CLI::App* synth = mover.add_subcommand(
      "synth",
      "synthesize the mover (tpu_noc_mover) as `tpugen synth` does: the gates, the resources (LUT, FF, "
      "RAM), the handoff");
  synth->add_option("--out", o.out, "the output directory (created if needed)")->required();
  add_synth_target_flags(*synth, o.flags);
  if (parameters) add_build_param_flags(*synth, o.params, *parameters, "");
  return synth;
}

int run_mover_synth(const NocSpec& noc, const SystemNodeSpec& spec, const MoverSynthOpts& o) {
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec, o.params), resolve_agent_params(spec));
  const SysnodeSynthUnit unit{
      "mover synth",
      hdl::kMoverTop,
      "tpugen memory mover (system node)",
      "mover",
      true,
      false,
      [](const hdl::SysnodeContext& c, const std::string& dir) { (void)hdl::generate_mover(c, dir); }};
  return run_sysnode_synth(unit, ctx, o.flags, o.out);
}

}  // namespace tpugen::cli
