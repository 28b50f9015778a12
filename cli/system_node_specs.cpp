#include "cli/system_node_specs.h"

namespace tpugen::cli {

std::shared_ptr<SystemNodeSpecs> load_system_node_specs(const Context& ctx) {
  auto loaded = std::make_shared<SystemNodeSpecs>();
  try {
    loaded->noc = load_noc_spec(noc_spec_path(ctx.spec.path));
    loaded->spec = load_system_node_spec(system_node_spec_path(ctx.spec.path), *loaded->noc);
  } catch (const Error& e) {
    loaded->error = e.what();
  }
  return loaded;
}

}  // namespace tpugen::cli
