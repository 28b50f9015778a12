// tpugen noc synth: tpugen synth's flow on the mesh, or on one router with
// the parameters its node has in the mesh.
#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string_view>

#include "cli/cli.h"
#include "cli/noc_commands.h"
#include "hdl/noc/noc_context.h"
#include "hdl/noc/noc_generate.h"
#include "noc/routing.h"

namespace tpugen::cli {


int run_noc_synth(const NocSpec& spec, const NocOpts& o, const NocSynthOpts& so) {
  const NocParams params = resolve_noc_params(spec, o.params);
  const hdl::NocContext nctx(spec, params);
  const noc::Mesh mesh = nctx.mesh();
  std::optional<noc::Coord> router;
  std::uint64_t links = 0;
  if (!so.router.empty()) {
    router = parse_node(so.router, "--router");
    links = noc::port_links(spec, mesh, *router);  // refuses a node outside the mesh, before anything is written
  }
  synth::FlowOptions f = so.flags.flow_options(o.out);
  hdl::generate_noc(nctx, f.rtl_dir.string());
  for (const auto& [name, v] : params.listing()) f.parameters.emplace_back(name, v);
  f.config_name = fmt::format("{}x{}_d{}_{}", mesh.nx, mesh.ny, params.depth(), params.routing());
  f.spec_name = std::filesystem::path(spec.path).filename().string();
  f.spec_sha256 = spec.sha256;
  if (!router) {
    f.top = "tpu_noc_mesh";
    f.core_description = "tpugen NoC fabric, the whole mesh";
  } else {
    f.top = "tpu_noc_router";
    f.top_parameters = {{"X", std::to_string(router->x)}, {"Y", std::to_string(router->y)},
                        {"Links", std::to_string(links)}};
    f.parameters.insert(f.parameters.end(), f.top_parameters.begin(), f.top_parameters.end());
    f.config_name += fmt::format("_x{}y{}", router->x, router->y);
    f.core_description = fmt::format("tpugen NoC router ({},{}) alone", router->x, router->y);
    std::string ports;
    for (std::size_t i = 0; i < spec.ports.size(); ++i)
      if ((links >> i & 1U) != 0) ports += (ports.empty() ? "" : " ") + spec.ports[i].name;
    fmt::print("tpugen noc synth: router ({},{}) of the {}x{} mesh: X={} Y={} Links={} (ports {}; the others are "
               "at the mesh's edge)\n",
               router->x, router->y, mesh.nx, mesh.ny, router->x, router->y, links, ports);
  }
  return run_synth_flow("noc synth", f);
}

}  // namespace tpugen::cli
