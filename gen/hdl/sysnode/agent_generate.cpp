#include "hdl/sysnode/agent_generate.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "hdl/generate.h"
#include "hdl/injected_bugs.h"
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
  std::vector<ConfigFile> files;
  files.push_back({std::string(kPackage) + ".sv", emit_tpu_agent_pkg(ctx), fmt::format("{}.sv (generated)", kPackage)});
  for (const auto& p : rtl) {
    const std::filesystem::path path(p);
    files.push_back({path.filename().string(), hand_written_file(path, path.stem().string(), ctx.inject_bug()),
                     "rtl/" + path.parent_path().filename().string() + "/" + path.filename().string()});
  }
  nlohmann::ordered_json j;
  j["top"] = kAgentTop;
  j["spec"] = std::filesystem::path(ctx.spec().path).filename().string();
  j["spec_sha256"] = ctx.spec().sha256;
  j["noc_spec"] = std::filesystem::path(ctx.noc().path).filename().string();
  j["noc_spec_sha256"] = ctx.noc().sha256;
  j["generator"] = fmt::format("tpugen {}", TPUGEN_VERSION);
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& p : ctx.spec().agent.parameters) params[p.name] = ctx.agent_params()[p.name];
  j["parameters"] = params;
  j["derived"] = {
      {"FLIT_W", ctx.noc().flit_bits()}, {"WORD_W", ctx.spec().word_bits}, {"ADDR_W", ctx.spec().address_bits}};
  j["options"] = {{"inject_bug", ctx.inject_bug()}};
  return write_configuration(out_dir, {kPackage}, files, j.dump(2) + "\n");
}

}  // namespace tpugen::hdl
