// tpugen sysnode: the whole system node (tpu_noc_system_node: the memory
// agent and the memory mover on one AXI4 master port). `sysnode gen` writes
// its SystemVerilog; `sysnode synth` runs tpugen synth's flow on it.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>

#include "cli/cli.h"
#include "cli/synth_flags.h"
#include "cli/sysnode_synth.h"
#include "cli/system_node_specs.h"
#include "hdl/sysnode/sysnode_context.h"
#include "hdl/sysnode/system_node_generate.h"

namespace tpugen::cli {

namespace {

/// The build parameters: the mover's flags as `mover gen` names them, the
/// agent's with the prefix agent- (both have an RD_BURSTS).
struct SysnodeParams {
  std::map<std::string, std::string> mover, agent;
};

void add_sysnode_param_flags(CLI::App& cmd, SysnodeParams& p, const SystemNodeSpecs& loaded) {
  if (!loaded.spec) {
    cmd.allow_extras();
    return;
  }
  add_build_param_flags(cmd, p.mover, loaded.spec->mover.parameters, "");
  add_build_param_flags(cmd, p.agent, loaded.spec->agent.parameters, "agent-");
}

hdl::SysnodeContext sysnode_context(const SystemNodeSpecs& loaded, const SysnodeParams& p,
                                    const std::string& inject_bug = {}) {
  return hdl::SysnodeContext(*loaded.noc, *loaded.spec, resolve_mover_params(*loaded.spec, p.mover),
                             resolve_agent_params(*loaded.spec, p.agent), inject_bug);
}

int run_sysnode_gen(const hdl::SysnodeContext& ctx, const std::string& out) {
  const auto files = hdl::generate_system_node(ctx, out);
  std::string text;
  for (const auto& [name, v] : ctx.mover_params().listing()) text += fmt::format(" {}={}", name, v);
  for (const auto& [name, v] : ctx.agent_params().listing()) text += fmt::format(" agent {}={}", name, v);
  print_written_files("sysnode gen", text, files, out);
  return kOk;
}

}  // namespace

Command sysnode_command() {
  return {"sysnode", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            const auto loaded = load_system_node_specs(ctx);
            sub.require_subcommand(1);
            auto params = std::make_shared<SysnodeParams>();
            auto out = std::make_shared<std::string>();
            auto inject_bug = std::make_shared<std::string>();
            CLI::App* gen = sub.add_subcommand(
                "gen",
                "write the system node's SystemVerilog: tpu_mover_pkg, tpu_agent_pkg, the agent, the mover, "
                "the AXI multiplexer joining them, their primitives, files.f, params.json");
            add_sysnode_param_flags(*gen, *params, *loaded);
            gen->add_option("--out", *out, "the output directory")->required();
            gen->add_option("--inject-bug", *inject_bug)->group("");

            auto sparams = std::make_shared<SysnodeParams>();
            auto sout = std::make_shared<std::string>();
            auto sflags = std::make_shared<SynthTargetFlags>();
            CLI::App* synth = sub.add_subcommand(
                "synth",
                "synthesize the system node (tpu_noc_system_node) as `tpugen synth` does: the gates, the "
                "resources, the handoff");
            add_sysnode_param_flags(*synth, *sparams, *loaded);
            synth->add_option("--out", *sout, "the output directory (created if needed)")->required();
            add_synth_target_flags(*synth, *sflags);
            return [gen, synth, loaded, params, out, inject_bug, sparams, sout, sflags]() {
              if (!loaded->error.empty()) {
                fmt::print(stderr, "tpugen: {}\n", loaded->error);
                return kBadInput;
              }
              if (gen->parsed()) return run_sysnode_gen(sysnode_context(*loaded, *params, *inject_bug), *out);
              if (synth->parsed()) {
                const SysnodeSynthUnit unit{"sysnode synth",
                                            hdl::kSystemNodeTop,
                                            "tpugen system node (memory agent and memory mover)",
                                            "sysnode",
                                            true,
                                            true,
                                            [](const hdl::SysnodeContext& c, const std::string& dir) {
                                              (void)hdl::generate_system_node(c, dir);
                                            }};
                return run_sysnode_synth(unit, sysnode_context(*loaded, *sparams), *sflags, *sout);
              }
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
