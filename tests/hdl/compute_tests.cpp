// The compute path's emitters (tpu_pe, tpu_array, tpu_accu): what they
// derive from the spec and refuse, lint and synthesis of the generated files
// in three configurations (Verilator, Yosys, Icarus; the testbenches rerun
// on Yosys's gates at T=4/MAXDIM=16), and the functional
// testbenches tests/hdl/tb_tpu_array.sv and tests/hdl/tb_tpu_accu.sv under
// Icarus (results, backpressure, throughput across mm boundaries, the
// accumulator's read-after-write distance and its mvout/mm overlap).
#include <catch2/catch.hpp>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "hdl/emitters.h"
#include "hdl/generate.h"
#include "hdl/rtl_context.h"
#include "hdl_runner.h"
#include "spec/params.h"
#include "test_support.h"

namespace {

using namespace tpugen;

struct Config {
  int t, maxdim;
};
const Config kConfigs[] = {{4, 16}, {4, 64}, {8, 64}};

/// A generated configuration: the package, the primitives and the three
/// compute modules in one directory under the build tree, emitted once for
/// each test case (`use` names it: CTest runs test cases side by side).
struct Generated {
  const test::RtlDir& rtl;
  int t = 0;
  std::int64_t nar = 0;
};

Generated generate_config(const Config& c, const std::string& use) {
  const ParamOverrides params = {{"T", c.t}, {"MAXDIM", c.maxdim}};
  const auto& rtl = test::generated("compute", use + "_t" + std::to_string(c.t) + "_m" + std::to_string(c.maxdim), params,
                                    {{"tpu_array", hdl::emit_tpu_array},
                                     {"tpu_accu", hdl::emit_tpu_accu}});
  return {rtl, c.t, hdl::RtlContext(test::isa_at(params), {}).param("NAR")};
}

/// The files each module compiles with (tpu_pkg first).
std::string files_of(const std::string& module) {
  if (module == "tpu_pe") return "tpu_pkg.sv tpu_pe.sv";
  if (module == "tpu_array") return "tpu_pkg.sv tpu_pe.sv tpu_counter.sv tpu_array.sv";
  return "tpu_pkg.sv tpu_fifo.sv tpu_ram_1r1w.sv tpu_accu.sv";
}

/// Icarus 11 notes two features it simplifies, both harmless here: a
/// constant select read in an always_comb (a struct member, a fixed slice)
/// widens the sensitivity to the whole signal, and `unique` on a case is
/// not checked. Anything else it prints is a finding.
bool only_icarus_sorry(const std::string& out) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.find("sorry: constant selects in always_* processes") != std::string::npos ||
        line.find("sorry: Case unique/unique0 qualities are ignored") != std::string::npos)
      continue;
    return false;
  }
  return true;
}

bool has_latch_cell(const std::string& yosys_log) {
  return yosys_log.find("$_DLATCH") != std::string::npos || yosys_log.find("$dlatch") != std::string::npos ||
         yosys_log.find("$adlatch") != std::string::npos;
}

/// Yosys's result simulates like the RTL: the module's testbench on the
/// synthesised gates (Yosys's simcells.v; the accu's ar RAM stays the RTL
/// primitive, so its contents are still compared).
void check_netlist(const Generated& g, const std::string& m) {
  const std::string tb = m == "tpu_array" ? "tb_tpu_array" : "tb_tpu_accu";
  test::HdlParams params = {{"T", g.t}};
  if (m == "tpu_accu") params.emplace_back("NAR", g.nar);
  const std::string cells = "$(dirname $(command -v yosys))/../share/yosys/simcells.v";
  const test::ShellRun s = g.rtl.testbench(
      tb, std::string("tpu_pkg.sv ") + (m == "tpu_accu" ? "tpu_ram_1r1w.sv " : "") + "netlist_" + m + ".v " + cells,
      params, "netlist");
  INFO(s.output);
  CHECK(s.code == 0);
  CHECK(s.output.find("PASS") != std::string::npos);
  CHECK(s.output.find("FAIL") == std::string::npos);
}

/// A testbench's run: it finished and said PASS, no FAIL, and each of `says`.
void check_sim(const test::ShellRun& s, const std::vector<std::string>& says) {
  INFO(s.output);
  CHECK(s.code == 0);
  for (const auto& line : says) CHECK(s.output.find(line) != std::string::npos);
  CHECK(s.output.find("PASS") != std::string::npos);
  CHECK(s.output.find("FAIL") == std::string::npos);
}

const hdl::RtlContext& default_ctx() {
  static const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  static const hdl::RtlContext ctx(isa, {});
  return ctx;
}

}  // namespace

TEST_CASE("compute emitters are deterministic and read their decode off the actions", "[rtl][compute]") {
  const auto& ctx = default_ctx();
  CHECK(hdl::emit_tpu_array(ctx) == hdl::emit_tpu_array(ctx));
  CHECK(hdl::emit_tpu_accu(ctx) == hdl::emit_tpu_accu(ctx));
  const std::string accu = hdl::emit_tpu_accu(ctx);
  // The pairing rule is derived from the ports, and printed for the reader.
  CHECK(accu.find("//   mvout, then mm with not (acc == 1)") != std::string::npos);
  CHECK(accu.find("//   mm with not (acc == 1), then mvout") != std::string::npos);
  CHECK(accu.find("dec.rd0                = (instr.f2 == 1);") != std::string::npos);
  CHECK(accu.find("tpu_pkg::OP_VADDRELU") != std::string::npos);
  const std::string array = hdl::emit_tpu_array(ctx);
  // Each header count's counter (a tpu_counter) drives its PROGRESS_* slot.
  const auto count = array.find(") u_mm_count (");
  const auto rows = array.find(") u_mm_rows (");
  REQUIRE(count != std::string::npos);
  REQUIRE(rows != std::string::npos);
  CHECK(array.find(".count_o(progress_o[0*CntW +: CntW])", count) < rows);
  CHECK(array.find(".count_o(progress_o[1*CntW +: CntW])", rows) != std::string::npos);
}

TEST_CASE("compute emitters refuse action patterns they do not implement", "[rtl][compute]") {
  auto refused = [](Spec s, const std::function<std::string(const hdl::RtlContext&)>& emit) {
    const Isa isa(s, legal_params(s, {{"T", 4}, {"MAXDIM", 16}}));
    const hdl::RtlContext ctx(isa, {});
    try {
      emit(ctx);
    } catch (const Error& e) {
      return e.rule();
    }
    return std::string("accepted");
  };
  const Spec& base = test::shipped_spec();

  SECTION("a second write on an accu opcode") {
    Spec s = base;
    for (const auto& a : base.actions)
      if (a.opcode == "vrelu" && a.kind == ActionKind::Write) s.actions.push_back(a);
    CHECK(refused(s, hdl::emit_tpu_accu) == "rtl.unsupported");
  }
  SECTION("a compute the accu ALU does not have") {
    Spec s = base;
    for (auto& a : s.actions)
      if (a.opcode == "vrelu" && a.kind == ActionKind::Compute) a.state = "select";
    CHECK(refused(s, hdl::emit_tpu_accu) == "rtl.unsupported");
  }
  SECTION("saturation on the way into ar") {
    Spec s = base;
    for (auto& a : s.actions)
      if (a.opcode == "vrelu" && a.kind == ActionKind::Compute) a.state = "to_operand";
    CHECK(refused(s, hdl::emit_tpu_accu) == "rtl.unsupported");
  }
  SECTION("a second opcode reaching the array") {
    Spec s = base;
    for (const auto& a : base.actions) {
      if (a.opcode != "mm" || a.unit != "array") continue;
      Action b = a;
      b.opcode = "vld";
      s.actions.push_back(b);
    }
    CHECK(refused(s, hdl::emit_tpu_array) == "rtl.unsupported");
  }
  SECTION("the shipped spec is accepted") {
    CHECK(refused(base, hdl::emit_tpu_array) == "accepted");
    CHECK(refused(base, hdl::emit_tpu_accu) == "accepted");
  }
}

TEST_CASE("compute modules pass Verilator, Yosys and Icarus, and Yosys's gates simulate",
          "[rtl][compute][tools][hdl]") {
  for (const Config& c : kConfigs) {
    const Generated g = generate_config(c, "tools");
    for (const std::string m : {"tpu_pe", "tpu_array", "tpu_accu"}) {
      INFO("T=" << c.t << " MAXDIM=" << c.maxdim << " " << m);
      const test::ShellRun v = g.rtl.lint(m, files_of(m), "verilator_" + m + ".log");
      INFO(v.output);
      CHECK(v.code == 0);
      CHECK(v.output.find("Warning") == std::string::npos);

      const test::ShellRun i = g.rtl.compile(m, files_of(m), {}, "/dev/null", "iverilog_" + m + ".log");
      INFO(i.output);
      CHECK(i.code == 0);
      CHECK(only_icarus_sorry(i.output));

      // The accu's ar RAM is the shared primitive, read as a black box here
      // (its own checks cover it; synthesised as flops it takes 10-20 s).
      std::string read = "read_verilog -sv " + files_of(m) + "; ";
      if (m == "tpu_accu")
        read = "read_verilog -sv tpu_pkg.sv tpu_fifo.sv tpu_accu.sv; read_verilog -sv -lib tpu_ram_1r1w.sv; ";
      const bool netlist = c.t == 4 && c.maxdim == 16 && m != "tpu_pe";
      const test::ShellRun y = g.rtl.synth(read + "hierarchy -check -top " + m + "; proc; check -assert; synth -top " +
                                               m + "; stat" + (netlist ? "; write_verilog -noattr netlist_" + m + ".v" : ""),
                                           "yosys_" + m + ".log", true);
      INFO(y.output.substr(y.output.size() > 4000 ? y.output.size() - 4000 : 0));
      CHECK(y.code == 0);
      CHECK(y.output.find("Warning") == std::string::npos);
      CHECK(!has_latch_cell(y.output));
      if (netlist && y.code == 0) check_netlist(g, m);
    }
  }
}

TEST_CASE("tpu_array computes, stalls and streams one row per cycle across mms", "[rtl][compute][sim][hdl]") {
  for (const Config& c : kConfigs) {
    if (c.maxdim == 64 && c.t == 4) continue;  // the array does not depend on MAXDIM
    const Generated g = generate_config(c, "array");
    for (int seed : {1, 2}) {
      INFO("T=" << c.t << " seed " << seed);
      check_sim(g.rtl.testbench("tb_tpu_array", files_of("tpu_array"), {{"T", g.t}, {"Seed", seed}},
                                "seed" + std::to_string(seed)),
                {"1.00 rows/cycle"});
    }
  }
}

TEST_CASE("tpu_accu matches the sequential model at any distance and overlaps mvout with mm",
          "[rtl][compute][sim][hdl]") {
  for (const Config& c : kConfigs) {
    const Generated g = generate_config(c, "accu");
    const std::vector<int> seeds = c.maxdim == 16 ? std::vector<int>{1, 2} : std::vector<int>{3};
    for (int seed : seeds) {
      INFO("T=" << c.t << " MAXDIM=" << c.maxdim << " seed " << seed);
      check_sim(g.rtl.testbench("tb_tpu_accu", files_of("tpu_accu"), {{"T", g.t}, {"NAR", g.nar}, {"Seed", seed}},
                                "seed" + std::to_string(seed)),
                {"mvout then mm acc=0 (same rows): 32 + 32 steps in 33 cycles",
                 "mm acc=0 then mvout (same rows): 32 + 32 steps in 34 cycles"});
    }
  }
}
