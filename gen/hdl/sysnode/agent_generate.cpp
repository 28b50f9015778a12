#include "hdl/sysnode/agent_generate.h"

#include <fmt/format.h>

#include <filesystem>

#include "hdl/generate.h"
#include "hdl/injected_bugs.h"
#include "hdl/sysnode/sysnode_generate.h"
#include "util/diag.h"

namespace tpugen::hdl {

namespace {
constexpr std::string_view kPackage = "tpu_agent_pkg";
}  // namespace

std::vector<std::string> agent_rtl_files() {
  std::vector<std::string> files;
  for (const char* shared : {"axi/tpu_axi_beats.sv", "axi/tpu_axi_burst.sv", "axi/tpu_axi_rd.sv", "axi/tpu_axi_wr.sv"})
    files.push_back((std::filesystem::path(TPUGEN_RTL_PRIMITIVES) / shared).string());
  const auto own = primitive_files(std::vector<std::string_view>{"prim", "agent"});
  files.insert(files.end(), own.begin(), own.end());
  return files;
}

std::string agent_module_text(const SysnodeContext& ctx, std::string_view module) {
  if (module == kPackage) return emit_tpu_agent_pkg(ctx);
  for (const auto& p : agent_rtl_files()) {
    const std::filesystem::path path(p);
    if (path.stem() == module) return hand_written_file(path, module, ctx.inject_bug());
  }
  throw Error("gen.module", fmt::format("the memory agent has no module '{}'", module));
}

std::vector<std::string> generate_agent(const SysnodeContext& ctx, const std::string& out_dir) {
  const std::vector<std::string> rtl = agent_rtl_files();
  if (!ctx.inject_bug().empty()) {
    const InjectedBug& bug = injected_bug(ctx.inject_bug(), BugTarget::SystemNode);
    bool ours = false;
    for (const auto& p : rtl) ours = ours || std::filesystem::path(p).stem() == bug.module;
    if (!ours)
      throw Error("rtl.inject", fmt::format("'{}' is a defect of {}, which the memory agent does not hold",
                                            ctx.inject_bug(), bug.module));
  }
  std::vector<ConfigFile> files = hand_written_configs(ctx, rtl);
  files.insert(files.begin(),
               {std::string(kPackage) + ".sv", emit_tpu_agent_pkg(ctx), fmt::format("{}.sv (generated)", kPackage)});
  return write_configuration(out_dir, {kPackage}, files, sysnode_params_json(ctx, kAgentTop, false, true));
}

}  // namespace tpugen::hdl
