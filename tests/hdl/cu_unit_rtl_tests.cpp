// The TinyTPU unit's RTL (rtl/cu/tpu_noc_tinytpu_unit.sv) with the core it
// wraps: the core's configuration (hdl::generate) and the compute units'
// (hdl::generate_cu) side by side, the unit linted by Verilator -Wall with
// and without the simulation-only assertions, and read by Yosys and Icarus.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "hdl/cu/cu_generate.h"
#include "hdl/generate.h"
#include "hdl/rtl_context.h"
#include "test_support.h"

using namespace tpugen;

namespace {

/// Every file of a configuration, in files.f's order, as absolute paths.
std::vector<std::string> listed(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  std::istringstream in(test::read_text((dir / "files.f").string()));
  for (std::string f; std::getline(in, f);)
    if (!f.empty()) out.push_back((dir / f).string());
  return out;
}

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
  std::string out;
  for (const auto& f : listed(dir)) out += " " + f;
  return out;
}

}  // namespace

TEST_CASE("cu rtl: the TinyTPU unit is clean under verilator -Wall, Yosys and Icarus", "[hdl][cu]") {
  for (const auto& [name, core] : std::vector<std::pair<std::string, ParamOverrides>>{
           {"t4_m64", {{"T", 4}, {"MAXDIM", 64}}}, {"t8_m64", {{"T", 8}, {"MAXDIM", 64}}}, {"t4_m32", {{"T", 4}, {"MAXDIM", 32}}}}) {
    INFO(name);
    const std::string files = unit_sources(name, core);
    const auto dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_cu_unit" / name;
    for (const char* defs : {"", "+define+TPU_ASSERT"}) {
      const auto lint = test::run_shell(
          fmt::format("verilator --lint-only -Wall {} --top-module tpu_noc_tinytpu_unit {}", defs, files),
          dir / "lint.log");
      INFO(lint.output);
      CHECK(lint.code == 0);
    }
    const auto icarus = test::run_shell(fmt::format("iverilog -g2012 -s tpu_noc_tinytpu_unit -o {}/unit.vvp {}",
                                                    dir.string(), files),
                                        dir / "icarus.log");
    INFO(icarus.output);
    CHECK(icarus.code == 0);
    const auto yosys = test::run_shell(
        fmt::format("yosys -q -p 'read_verilog -sv {}; hierarchy -check -top tpu_noc_tinytpu_unit; proc; check -assert'",
                    files),
        dir / "yosys.log");
    INFO(yosys.output);
    CHECK(yosys.code == 0);
  }
}
