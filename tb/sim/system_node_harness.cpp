#include "sim/system_node_harness.h"

#include <string>

#include "hdl/sysnode/system_node_generate.h"
#include "util/file_io.h"

namespace tpugen::sim {

void populate_system_node(const hdl::SysnodeContext& ctx, const std::filesystem::path& dir, std::string_view top) {
  (void)hdl::generate_system_node(ctx, dir.string());
  const std::filesystem::path file = std::filesystem::path(TPUGEN_TB_DIR) / "sim/sysnode" / (std::string(top) + ".sv");
  write_file(dir / file.filename(), read_file(file, "rtl.io"), "rtl.io");
  write_file(dir / "files.f", read_file(dir / "files.f", "rtl.io") + file.filename().string() + "\n", "rtl.io");
}

}  // namespace tpugen::sim
