#include "hdl/sysnode/system_node_generate.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "hdl/generate.h"
#include "hdl/sysnode/agent_generate.h"
#include "hdl/sysnode/sysnode_emitters.h"
#include "hdl/sysnode/sysnode_generate.h"

namespace tpugen::hdl {

std::vector<std::string> system_node_rtl_files() {
  std::vector<std::string> files;
  std::set<std::string> names;
  auto add = [&](const std::string& path) {
    if (names.insert(std::filesystem::path(path).filename().string()).second) files.push_back(path);
  };
  const std::filesystem::path rtl(TPUGEN_RTL_PRIMITIVES);
  for (const auto& p : agent_rtl_files())  // the AXI adapters, rtl/prim, rtl/agent
    add(p);
  for (const auto& p : mover_rtl_files()) add(p);
  add((rtl / "axi/tpu_axi_mux.sv").string());
  for (const auto& p : primitive_files(std::vector<std::string_view>{"sysnode"})) add(p);
  return files;
}

std::vector<std::string> generate_system_node(const SysnodeContext& ctx, const std::string& out_dir) {
  std::vector<ConfigFile> files;
  files.push_back({"tpu_mover_pkg.sv", emit_tpu_mover_pkg(ctx), "tpu_mover_pkg.sv (generated)"});
  files.push_back({"tpu_agent_pkg.sv", emit_tpu_agent_pkg(ctx), "tpu_agent_pkg.sv (generated)"});
  for (const auto& p : system_node_rtl_files()) {
    const std::filesystem::path path(p);
    files.push_back({path.filename().string(), hand_written_file(path, path.stem().string(), ctx.inject_bug()),
                     "rtl/" + path.parent_path().filename().string() + "/" + path.filename().string()});
  }
  nlohmann::ordered_json j;
  j["top"] = kSystemNodeTop;
  j["spec"] = std::filesystem::path(ctx.spec().path).filename().string();
  j["spec_sha256"] = ctx.spec().sha256;
  j["noc_spec"] = std::filesystem::path(ctx.noc().path).filename().string();
  j["noc_spec_sha256"] = ctx.noc().sha256;
  j["generator"] = fmt::format("tpugen {}", TPUGEN_VERSION);
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& p : ctx.spec().mover.parameters) params[p.name] = ctx.mover_params()[p.name];
  for (const auto& p : ctx.spec().agent.parameters) params["AGENT_" + p.name] = ctx.agent_params()[p.name];
  j["parameters"] = params;
  j["derived"] = {
      {"FLIT_W", ctx.noc().flit_bits()}, {"WORD_W", ctx.spec().word_bits}, {"ADDR_W", ctx.spec().address_bits}};
  j["options"] = {{"inject_bug", ctx.inject_bug()}};
  return write_configuration(out_dir, {"tpu_mover_pkg", "tpu_agent_pkg"}, files, j.dump(2) + "\n");
}

}  // namespace tpugen::hdl
