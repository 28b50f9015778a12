#include "hdl/sysnode/sysnode_generate.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "hdl/generate.h"
#include "hdl/sysnode/sysnode_emitters.h"
#include "util/diag.h"

namespace tpugen::hdl {

namespace {
constexpr std::string_view kPackage = "tpu_mover_pkg";
}  // namespace

const std::vector<std::string_view>& mover_rtl_dirs() {
  static const std::vector<std::string_view> dirs = {"prim", "mover"};
  return dirs;
}

std::vector<std::string> mover_rtl_files() {
  std::vector<std::string> files;
  // The AXI pieces the mover is built from (its writes form bursts themselves,
  // with tpu_axi_burst and tpu_axi_beats, rather than through tpu_axi_wr).
  for (const char* shared : {"axi/tpu_axi_beats.sv", "axi/tpu_axi_burst.sv", "axi/tpu_axi_rd.sv"})
    files.push_back((std::filesystem::path(TPUGEN_RTL_PRIMITIVES) / shared).string());
  const auto own = primitive_files(mover_rtl_dirs());
  files.insert(files.end(), own.begin(), own.end());
  return files;
}

std::string mover_module_text(const SysnodeContext& ctx, std::string_view module) {
  if (module == kPackage) return emit_tpu_mover_pkg(ctx);
  for (const auto& p : mover_rtl_files()) {
    const std::filesystem::path path(p);
    if (path.stem() == module) return hand_written_file(path, module, ctx.inject_bug());
  }
  throw Error("gen.module", fmt::format("the mover has no module '{}'", module));
}

std::vector<ConfigFile> hand_written_configs(const SysnodeContext& ctx, const std::vector<std::string>& paths) {
  std::vector<ConfigFile> files;
  for (const auto& p : paths) {
    const std::filesystem::path path(p);
    files.push_back({path.filename().string(), hand_written_file(path, path.stem().string(), ctx.inject_bug()),
                     "rtl/" + path.parent_path().filename().string() + "/" + path.filename().string()});
  }
  return files;
}

std::string sysnode_params_json(const SysnodeContext& ctx, std::string_view top, bool mover, bool agent) {
  nlohmann::ordered_json j;
  j["top"] = top;
  j["spec"] = std::filesystem::path(ctx.spec().path).filename().string();
  j["spec_sha256"] = ctx.spec().sha256;
  j["noc_spec"] = std::filesystem::path(ctx.noc().path).filename().string();
  j["noc_spec_sha256"] = ctx.noc().sha256;
  j["generator"] = fmt::format("tpugen {}", TPUGEN_VERSION);
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  if (mover)
    for (const auto& p : ctx.spec().mover.parameters) params[p.name] = ctx.mover_params()[p.name];
  if (agent)
    for (const auto& p : ctx.spec().agent.parameters)
      params[(mover ? "AGENT_" : "") + p.name] = ctx.agent_params()[p.name];
  j["parameters"] = params;
  j["derived"] = {
      {"FLIT_W", ctx.noc().flit_bits()}, {"WORD_W", ctx.spec().word_bits}, {"ADDR_W", ctx.spec().address_bits}};
  j["options"] = {{"inject_bug", ctx.inject_bug()}};
  return j.dump(2) + "\n";
}

std::vector<std::string> generate_mover(const SysnodeContext& ctx, const std::string& out_dir) {
  std::vector<ConfigFile> files = hand_written_configs(ctx, mover_rtl_files());
  files.insert(files.begin(),
               {std::string(kPackage) + ".sv", emit_tpu_mover_pkg(ctx), fmt::format("{}.sv (generated)", kPackage)});
  return write_configuration(out_dir, {kPackage}, files, sysnode_params_json(ctx, kMoverTop, true, false));
}

}  // namespace tpugen::hdl
