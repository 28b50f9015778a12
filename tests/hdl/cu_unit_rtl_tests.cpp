// The TinyTPU unit's RTL (rtl/cu/tpu_noc_tinytpu_unit.sv) with the core it
// wraps: the core's configuration (hdl::generate) and the compute units'
// (hdl::generate_cu) side by side, the unit linted by Verilator -Wall with
// and without the simulation-only assertions, and read by Yosys and Icarus;
// and the whole system of units on the mesh (hdl::generate_cu_system, top
// tpu_noc_cu_system, as `tpugen noc gen --cores K` writes it) through the
// same gates at two layouts.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "hdl/cu/cu_generate.h"
#include "hdl/cu/cu_system_generate.h"
#include "hdl/generate.h"
#include "hdl/rtl_context.h"
#include "test_support.h"

using namespace tpugen;

namespace {

/// The core at `core` and the compute units' RTL over it, one file list.
std::string unit_sources(const std::string& name, const ParamOverrides& core) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "rtl_cu_unit" / name;
  fs::remove_all(dir);
  const Isa isa = test::isa_at(core);
  const hdl::RtlContext core_ctx(isa, {});
  const hdl::CuContext ctx = hdl::make_cu_context(test::shipped_noc_spec(), test::shipped_system_node_spec(),
                                                  test::shipped_compute_units_spec(), isa);
  const hdl::NocContext noc(test::shipped_noc_spec(), resolve_noc_params(test::shipped_noc_spec()));
  (void)hdl::generate_cu(noc, ctx, "tpu_noc_tinytpu_unit", dir.string(), &core_ctx);
  return test::configuration_sources(dir, true);
}

/// Verilator -Wall (with and without TPU_ASSERT), Icarus and Yosys' front end
/// (hierarchy -check, proc, check -assert) on `top` over `files` (absolute);
/// with `top_only`, Yosys' proc and check on the top module alone (its parts
/// pass them in their own gates, and proc over every core of a system takes
/// minutes).
void check_gates(const std::filesystem::path& dir, const std::string& files, std::string_view top,
                 bool top_only = false) {
  for (const char* defs : {"", "+define+TPU_ASSERT"}) {
    const auto lint = test::run_shell(fmt::format("verilator --lint-only -Wall {} --top-module {} {}", defs, top, files),
                                      dir / "lint.log");
    INFO(lint.output);
    CHECK(lint.code == 0);
  }
  const auto icarus =
      test::run_shell(fmt::format("iverilog -g2012 -s {} -o {}/top.vvp {}", top, dir.string(), files), dir / "icarus.log");
  INFO(icarus.output);
  CHECK(icarus.code == 0);
  const auto yosys = test::run_shell(
      fmt::format("yosys -q -p 'read_verilog -sv {}; hierarchy -check -top {}; proc {}; check -assert {}'", files, top,
                  top_only ? top : "", top_only ? top : ""),
      dir / "yosys.log");
  INFO(yosys.output);
  CHECK(yosys.code == 0);
}

}  // namespace

// The system's gate below covers the unit at T = 4, MAXDIM = 64 and 16; this one, at
// a second parameter set, takes two minutes and is long (left out of CI).
TEST_CASE("cu rtl: the TinyTPU unit is clean under verilator -Wall, Yosys and Icarus", "[hdl][cu][long]") {
  for (const auto& [name, core] : std::vector<std::pair<std::string, ParamOverrides>>{
           // T = 4, MAXDIM = 64 is the system's below; one other, both changed
           {"t8_m32", {{"T", 8}, {"MAXDIM", 32}}}}) {
    INFO(name);
    const std::string files = unit_sources(name, core);
    check_gates(std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_cu_unit" / name, files, "tpu_noc_tinytpu_unit");
  }
}

TEST_CASE("cu rtl: the system of units on the mesh is clean under verilator -Wall, Yosys and Icarus", "[hdl][cu]") {
  namespace fs = std::filesystem;
  struct Layout {
    std::string name;
    int nx, ny, cores;
    std::vector<noc::Coord> nodes;
    std::string mem_ports;
    ParamOverrides core;  ///< the core's parameters: a row of A is one mesh word at MAXDIM 16, two at 64
  };
  for (const Layout& l : std::vector<Layout>{{"k2_3x2_m16", 3, 2, 2, {}, "1", {{"T", 4}, {"MAXDIM", 16}}},
                                             {"k4_3x3_nodes", 3, 3, 4, {{0, 0}, {2, 0}, {0, 2}, {2, 2}}, "2", {}}}) {
    INFO(l.name);
    const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "rtl_cu_system" / l.name;
    fs::remove_all(dir);
    const NocSpec& noc = test::shipped_noc_spec();
    const SystemNodeSpec& sn = test::shipped_system_node_spec();
    const Isa isa = test::isa_at(l.core);
    const hdl::RtlContext core(isa, {});
    const hdl::NocContext fabric(noc, resolve_noc_params(noc, {{"NX", std::to_string(l.nx)}, {"NY", std::to_string(l.ny)}}));
    const NocParams agent = resolve_agent_params(sn, {{"MEM_PORTS", l.mem_ports}});
    const hdl::SysnodeContext sysnode(noc, sn, resolve_mover_params(sn), agent);
    const hdl::CuContext cu =
        hdl::make_cu_context(noc, sn, test::shipped_compute_units_spec(), isa, {}, {{"CHANNELS", "4"}});
    const noc::SystemLayout layout =
        noc::make_layout(l.nx, l.ny, l.cores, l.nodes, static_cast<int>(agent["MEM_PORTS"]));
    const auto written = hdl::generate_cu_system({core, fabric, sysnode, cu, layout}, dir.string());
    REQUIRE(fs::exists(dir / "tpu_noc_cu_system.sv"));
    // One tpu_noc_tinytpu_cu a unit, at its node.
    const std::string top = test::read_text((dir / "tpu_noc_cu_system.sv").string());
    for (const auto& c : layout.cores) CHECK(top.find(fmt::format("u_unit_{}_{}", c.x, c.y)) != std::string::npos);
    check_gates(dir, test::configuration_sources(dir, true), hdl::kCuSystemTop, true);
  }
}
