// The compute units' hand-written RTL (rtl/cu: the CU wrapper
// tpu_noc_cu_base and the orchestrator tpu_noc_orchestrator with its AXI4-Lite
// slave tpu_orch_axil) as hdl::generate_cu writes its configuration into
// build/rtl_cu/<name>, in the default configuration and a small one
// (PROG_FLITS 4, CHANNELS 1, INST_DEPTH 1):
//   gates      Verilator --lint-only -Wall with and without TPU_ASSERT, Icarus
//              -g2012 with and without it, Yosys' front end (hierarchy -check,
//              proc, check -assert, no latch), for both tops
//   behaviour  tests/hdl/tb_cu_base.sv and tb_orchestrator.sv (the directed
//              cases their headers list) under Verilator --binary --timing
//              with --assert and TPU_ASSERT, and under Icarus
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "hdl/cu/cu_generate.h"
#include "spec/params.h"
#include "test_support.h"

using namespace tpugen;

namespace {

using Overrides = std::map<std::string, std::string>;

/// A configuration generated into build/rtl_cu/<name> (emptied first).
std::filesystem::path generate(const std::string& name, const Overrides& cu = {}, const Overrides& orch = {},
                               const Overrides& noc = {}) {
  const hdl::CuContext ctx = hdl::make_cu_context(test::shipped_noc_spec(), test::shipped_system_node_spec(),
                                                  test::shipped_compute_units_spec(), test::isa_at(), cu, orch);
  const hdl::NocContext nctx(test::shipped_noc_spec(), resolve_noc_params(test::shipped_noc_spec(), noc));
  const std::filesystem::path dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_cu" / name;
  std::filesystem::remove_all(dir);
  (void)hdl::generate_cu(nctx, ctx, "tpu_noc_cu_base", dir.string());
  return dir;
}

test::ShellRun run_in(const std::filesystem::path& dir, const std::string& cmd, const std::string& log) {
  return test::run_shell(fmt::format("cd '{}' && ( {} )", dir.string(), cmd), dir / log);
}


/// Yosys' front end on `top`: every file read, the hierarchy checked,
/// processes made, the netlist checked, no latch cell anywhere.
std::string yosys_script(const std::string& files, const std::string& top) {
  std::string s;
  std::size_t at = 0;
  while (at < files.size()) {
    const std::size_t sp = files.find(' ', at);
    s += "read_verilog -sv " + files.substr(at, sp == std::string::npos ? std::string::npos : sp - at) + "\n";
    if (sp == std::string::npos) break;
    at = sp + 1;
  }
  s += fmt::format("hierarchy -check -top {}\nproc\ncheck -assert\n", top);
  s += "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*\n";
  return s;
}

/// Icarus' output without the notes every configuration has (as
/// agent_rtl_tests.cpp filters them): `unique` ignored, $error in always_ff.
std::string icarus_rest(const std::string& output) {
  std::string rest;
  for (std::size_t at = 0; at < output.size();) {
    const std::size_t nl = output.find('\n', at);
    const std::string line = output.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (!line.empty() && line.find("Case unique/unique0 qualities are ignored") == std::string::npos &&
        line.find("cannot be synthesized in an always_ff process") == std::string::npos)
      rest += line + "\n";
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return rest;
}

const Overrides kSmallCu = {{"INST_DEPTH", "1"}};
const Overrides kSmallOrch = {{"PROG_FLITS", "4"}, {"CHANNELS", "1"}};

/// The configurations: name, the wrapper's overrides, the orchestrator's.
const std::vector<std::tuple<std::string, Overrides, Overrides>>& configs() {
  static const std::vector<std::tuple<std::string, Overrides, Overrides>> c = {{"default", {}, {}},
                                                                               {"small", kSmallCu, kSmallOrch}};
  return c;
}

constexpr const char* kTops[] = {"tpu_noc_cu_base", "tpu_noc_orchestrator"};

/// A testbench of tests/hdl run under Verilator (with --assert) and Icarus
/// in `dir`; both must print PASS and no failure or assertion message.
void run_testbench(const std::filesystem::path& dir, const std::string& tb) {
  const std::string files = test::configuration_sources(dir);
  const std::string src = fmt::format("{}/tests/hdl/{}.sv", TPUGEN_SOURCE_DIR, tb);
  const test::ShellRun build =
      run_in(dir,
             fmt::format("verilator --binary --timing -j 2 --assert +define+TPU_ASSERT -Wno-fatal -Wno-lint -Wno-style "
                         "--x-assign unique --x-initial unique --top-module {0} -Mdir obj_{0} -o {0} {1} {2}",
                         tb, files, src),
             tb + "_verilator_build.log");
  {
    INFO(build.output);
    REQUIRE(build.code == 0);
  }
  const test::ShellRun sim =
      run_in(dir, fmt::format("timeout 300 ./obj_{0}/{0} +verilator+rand+reset+2", tb), tb + "_verilator.log");
  {
    INFO("verilator: " << sim.output);
    CHECK(sim.code == 0);
    CHECK(sim.output.find("PASS " + tb) != std::string::npos);
    CHECK(sim.output.find("FAIL") == std::string::npos);
    CHECK(sim.output.find("%Error") == std::string::npos);
  }
  const test::ShellRun ivl =
      run_in(dir, fmt::format("iverilog -g2012 -DTPU_ASSERT -o {0}.vvp -s {0} {1} {2} && timeout 300 vvp -n {0}.vvp", tb,
                              files, src),
             tb + "_icarus.log");
  INFO("icarus: " << ivl.output);
  CHECK(ivl.code == 0);
  CHECK(ivl.output.find("PASS " + tb) != std::string::npos);
  CHECK(ivl.output.find("FAIL") == std::string::npos);
  CHECK(ivl.output.find("ERROR") == std::string::npos);
}

}  // namespace

TEST_CASE("cu rtl: the wrapper and the orchestrator are clean under Verilator -Wall, Icarus and Yosys' front end",
          "[hdl][cu]") {
  for (const auto& [name, cu, orch] : configs()) {
    INFO("configuration " << name);
    const std::filesystem::path dir = generate("gates_" + name, cu, orch);
    INFO(dir.string());
    const std::string files = test::configuration_sources(dir);
    // The configuration holds rtl/cu unchanged (but the TinyTPU unit and its
    // node, which need the core's configuration: tests/hdl/cu_unit_rtl_tests.cpp).
    for (const auto& e : std::filesystem::directory_iterator(TPUGEN_SOURCE_DIR "/rtl/cu")) {
      INFO(e.path());
      if (hdl::cu_file_needs_core(e.path().stem().string())) continue;
      REQUIRE(std::filesystem::exists(dir / e.path().filename()));
      CHECK(test::read_text((dir / e.path().filename()).string()) == test::read_text(e.path().string()));
    }
    for (const std::string top : kTops) {
      INFO("top " << top);
      for (const char* define : {"", " +define+TPU_ASSERT"}) {
        const test::ShellRun lint =
            run_in(dir, fmt::format("verilator --lint-only -Wall{} --top-module {} {}", define, top, files),
                   fmt::format("{}_lint{}.log", top, std::string(define).empty() ? "" : "_assert"));
        INFO(lint.output);
        CHECK(lint.code == 0);
        CHECK(lint.output.find("Warning") == std::string::npos);
      }
      for (const char* define : {"", " -DTPU_ASSERT"}) {
        const test::ShellRun ivl =
            run_in(dir, fmt::format("iverilog -g2012{} -o /dev/null -s {} {}", define, top, files), top + "_iverilog.log");
        INFO(ivl.output);
        CHECK(ivl.code == 0);
        CHECK(icarus_rest(ivl.output).empty());
      }
      test::write_text(dir / (top + "_front.ys"), yosys_script(files, top));
      const test::ShellRun yosys = run_in(
          dir, fmt::format("yosys -q -s {0}_front.ys -l {0}_yosys_front.log", top), top + "_yosys_front.out");
      INFO(yosys.output);
      CHECK(yosys.code == 0);
      CHECK(yosys.output.find("Warning") == std::string::npos);
    }
  }
}

TEST_CASE("cu rtl: the wrapper retires, answers CU_CTRL, writes CU_DATA and steers its traffic (directed cases a-f)",
          "[hdl][cu][sim]") {
  for (const auto& [name, cu, orch] : configs()) {
    INFO("configuration " << name);
    run_testbench(generate("cu_base_" + name, cu, orch), "tb_cu_base");
  }
}

TEST_CASE("cu rtl: the orchestrator stages, dispatches with credits, counts retirements and reaches the mover (g-k)",
          "[hdl][cu][sim]") {
  for (const auto& [name, cu, orch] : configs()) {
    INFO("configuration " << name);
    run_testbench(generate("orchestrator_" + name, cu, orch), "tb_orchestrator");
  }
}
