#include "sim/system_node_harness.h"

#include <fmt/format.h>

#include <string>

#include "hdl/sysnode/system_node_generate.h"
#include "util/file_io.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

void populate_system_node(const hdl::SysnodeContext& ctx, const fs::path& dir, std::string_view top) {
  (void)hdl::generate_system_node(ctx, dir.string());
  const fs::path file = fs::path(TPUGEN_TB_DIR) / "sim/sysnode" / (std::string(top) + ".sv");
  write_file(dir / file.filename(), read_file(file, "rtl.io"), "rtl.io");
  write_file(dir / "files.f", read_file(dir / "files.f", "rtl.io") + file.filename().string() + "\n", "rtl.io");
}

fs::path build_unit_simulator(const hdl::SysnodeContext& ctx, const fs::path& build_root, const BuildProgress& progress,
                              const UnitSimBuild& unit) {
  SimBuildSpec spec;
  spec.populate = [&ctx, &unit](const fs::path& dir) {
    write_file(dir / unit.config_file, unit.config(unit.system_node), "rtl.io");
    if (unit.system_node)
      populate_system_node(ctx, dir, unit.sysnode_top);
    else
      unit.generate(dir);
  };
  spec.key_text = unit.key_text + fmt::format("inject_bug={}\nwaveform={}\nassertions={}\nsystem_node={}\n",
                                              ctx.inject_bug(), unit.waveform, unit.assertions, unit.system_node);
  spec.top = std::string(unit.system_node ? unit.sysnode_top : unit.unit_top);
  spec.harness = unit.harness;
  spec.assertions = unit.assertions;
  spec.description =
      unit.description + (ctx.inject_bug().empty() ? "" : fmt::format(" with defect {}", ctx.inject_bug()));
  if (unit.system_node) spec.description += ", inside the system node";
  if (unit.waveform) spec.description += ", with waveforms";
  if (!unit.assertions) spec.description += ", without assertions";
  // Absolute: the build's -I names the build directory, and make compiles in obj_dir below it.
  return cached_sim_build(fs::absolute(build_root), spec, progress);
}

}  // namespace tpugen::sim
