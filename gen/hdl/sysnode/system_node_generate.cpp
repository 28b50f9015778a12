#include "hdl/sysnode/system_node_generate.h"

#include <fmt/format.h>

#include <filesystem>
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

std::vector<ConfigFile> system_node_config_files(const SysnodeContext& ctx) {
  std::vector<ConfigFile> files = hand_written_configs(ctx, system_node_rtl_files());
  files.insert(files.begin(), {{"tpu_mover_pkg.sv", emit_tpu_mover_pkg(ctx), "tpu_mover_pkg.sv (generated)"},
                               {"tpu_agent_pkg.sv", emit_tpu_agent_pkg(ctx), "tpu_agent_pkg.sv (generated)"}});
  return files;
}

std::vector<std::string> generate_system_node(const SysnodeContext& ctx, const std::string& out_dir) {
  return write_configuration(out_dir, {"tpu_mover_pkg", "tpu_agent_pkg"}, system_node_config_files(ctx),
                             sysnode_params_json(ctx, kSystemNodeTop, true, true));
}

}  // namespace tpugen::hdl
