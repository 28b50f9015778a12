// The compute path's emitters (tpu_pe, tpu_array, tpu_accu): what they
// derive from the spec and refuse, lint and synthesis of the generated files
// in three configurations (Verilator, Yosys, Icarus; the testbenches rerun
// on Yosys's gates at T=4/MAXDIM=16), and the functional
// testbenches tests/hdl/tb_tpu_array.sv and tests/hdl/tb_tpu_accu.sv under
// Icarus (results, backpressure, throughput across mm boundaries, the
// accumulator's read-after-write distance and its mvout/mm overlap).
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "hdl/emitters.h"
#include "hdl/generate.h"
#include "hdl/rtl_context.h"
#include "spec/params.h"
#include "test_support.h"

namespace {

using namespace tpugen;
namespace fs = std::filesystem;

struct Config {
  int t, maxdim;
};
const Config kConfigs[] = {{4, 16}, {4, 64}, {8, 64}};

/// The exit code and the combined output of a shell command.
using test::run_shell;
using test::write_text;

/// A generated configuration: the package, the primitives and the three
/// compute modules in one directory under the build tree.
struct Generated {
  fs::path dir;
  int t = 0;
  std::int64_t nar = 0;
};

Generated generate_config(const Config& c) {
  const Isa isa = test::isa_at({{"T", c.t}, {"MAXDIM", c.maxdim}});
  const hdl::RtlContext ctx(isa, {});
  Generated g;
  g.dir = fs::path(TPUGEN_BINARY_DIR) / "rtl_compute" / ("t" + std::to_string(c.t) + "_m" + std::to_string(c.maxdim));
  g.t = c.t;
  g.nar = ctx.param("NAR");
  fs::create_directories(g.dir);
  write_text(g.dir / "tpu_pkg.sv", hdl::emit_tpu_pkg(ctx));
  write_text(g.dir / "tpu_pe.sv", hdl::module_text(ctx, "tpu_pe"));  // hand-written: rtl/core/tpu_pe.sv
  write_text(g.dir / "tpu_array.sv", hdl::emit_tpu_array(ctx));
  write_text(g.dir / "tpu_accu.sv", hdl::emit_tpu_accu(ctx));
  for (const char* prim : {"tpu_fifo.sv", "tpu_ram_1r1w.sv"})
    fs::copy_file(fs::path(TPUGEN_SOURCE_DIR) / "rtl" / "prim" / prim, g.dir / prim, fs::copy_options::overwrite_existing);
  return g;
}

/// The files each module compiles with (tpu_pkg first).
std::string files_of(const std::string& module) {
  if (module == "tpu_pe") return "tpu_pkg.sv tpu_pe.sv";
  if (module == "tpu_array") return "tpu_pkg.sv tpu_pe.sv tpu_array.sv";
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
  std::string params = " -P " + tb + ".T=" + std::to_string(g.t);
  if (m == "tpu_accu") params += " -P " + tb + ".NAR=" + std::to_string(g.nar);
  const std::string cells = "$(dirname $(command -v yosys))/../share/yosys/simcells.v";
  const std::string cd = "cd " + g.dir.string() + " && ";
  const test::ShellRun b = run_shell(cd + "iverilog -g2012 -o netlist_" + m + ".vvp -s " + tb + params + " tpu_pkg.sv " +
                        (m == "tpu_accu" ? "tpu_ram_1r1w.sv " : "") + "netlist_" + m + ".v " + cells + " " +
                        TPUGEN_SOURCE_DIR "/tests/hdl/" + tb + ".sv",
                    g.dir / ("netlist_" + m + "_build.log"));
  INFO(b.output);
  REQUIRE(b.code == 0);
  const test::ShellRun s = run_shell(cd + "timeout 60 vvp -n netlist_" + m + ".vvp", g.dir / ("netlist_" + m + ".log"));
  INFO(s.output);
  CHECK(s.code == 0);
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
  CHECK(array.find("progress_o[0*CntW +: CntW] = mm_count_q;") != std::string::npos);
  CHECK(array.find("progress_o[1*CntW +: CntW] = mm_rows_q;") != std::string::npos);
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
    const Generated g = generate_config(c);
    for (const std::string m : {"tpu_pe", "tpu_array", "tpu_accu"}) {
      INFO("T=" << c.t << " MAXDIM=" << c.maxdim << " " << m);
      const std::string cd = "cd " + g.dir.string() + " && ";
      const test::ShellRun v = run_shell(cd + "verilator --lint-only -Wall --top-module " + m + " " + files_of(m),
                        g.dir / ("verilator_" + m + ".log"));
      INFO(v.output);
      CHECK(v.code == 0);
      CHECK(v.output.find("Warning") == std::string::npos);

      const test::ShellRun i =
          run_shell(cd + "iverilog -g2012 -o /dev/null -s " + m + " " + files_of(m), g.dir / ("iverilog_" + m + ".log"));
      INFO(i.output);
      CHECK(i.code == 0);
      CHECK(only_icarus_sorry(i.output));

      // The accu's ar RAM is the shared primitive, read as a black box here
      // (its own checks cover it; synthesised as flops it takes 10-20 s).
      std::string read = "read_verilog -sv " + files_of(m) + "; ";
      if (m == "tpu_accu")
        read = "read_verilog -sv tpu_pkg.sv tpu_fifo.sv tpu_accu.sv; read_verilog -sv -lib tpu_ram_1r1w.sv; ";
      const bool netlist = c.t == 4 && c.maxdim == 16 && m != "tpu_pe";
      const test::ShellRun y =
          run_shell(cd + "yosys -p \"" + read + "hierarchy -check -top " + m + "; proc; check -assert; synth -top " + m +
                  "; stat" + (netlist ? "; write_verilog -noattr netlist_" + m + ".v" : "") + "\"",
              g.dir / ("yosys_" + m + ".log"));
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
    const Generated g = generate_config(c);
    for (int seed : {1, 2}) {
      INFO("T=" << c.t << " seed " << seed);
      const std::string cd = "cd " + g.dir.string() + " && ";
      const std::string vvp = "tb_array_" + std::to_string(seed) + ".vvp";
      const test::ShellRun b = run_shell(cd + "iverilog -g2012 -o " + vvp + " -s tb_tpu_array -P tb_tpu_array.T=" + std::to_string(g.t) +
                            " -P tb_tpu_array.Seed=" + std::to_string(seed) + " " + files_of("tpu_array") + " " +
                            TPUGEN_SOURCE_DIR "/tests/hdl/tb_tpu_array.sv",
                        g.dir / "tb_array_build.log");
      INFO(b.output);
      REQUIRE(b.code == 0);
      const test::ShellRun s = run_shell(cd + "timeout 60 vvp -n " + vvp, g.dir / ("tb_array_" + std::to_string(seed) + ".log"));
      INFO(s.output);
      CHECK(s.code == 0);
      CHECK(s.output.find("1.00 rows/cycle") != std::string::npos);
      CHECK(s.output.find("PASS") != std::string::npos);
      CHECK(s.output.find("FAIL") == std::string::npos);
    }
  }
}

TEST_CASE("tpu_accu matches the sequential model at any distance and overlaps mvout with mm",
          "[rtl][compute][sim][hdl]") {
  for (const Config& c : kConfigs) {
    const Generated g = generate_config(c);
    const std::vector<int> seeds = c.maxdim == 16 ? std::vector<int>{1, 2} : std::vector<int>{3};
    for (int seed : seeds) {
      INFO("T=" << c.t << " MAXDIM=" << c.maxdim << " seed " << seed);
      const std::string cd = "cd " + g.dir.string() + " && ";
      const std::string vvp = "tb_accu_" + std::to_string(seed) + ".vvp";
      const test::ShellRun b =
          run_shell(cd + "iverilog -g2012 -o " + vvp + " -s tb_tpu_accu -P tb_tpu_accu.T=" + std::to_string(g.t) +
                  " -P tb_tpu_accu.NAR=" + std::to_string(g.nar) + " -P tb_tpu_accu.Seed=" + std::to_string(seed) +
                  " " + files_of("tpu_accu") + " " + TPUGEN_SOURCE_DIR "/tests/hdl/tb_tpu_accu.sv",
              g.dir / "tb_accu_build.log");
      INFO(b.output);
      REQUIRE(b.code == 0);
      const test::ShellRun s = run_shell(cd + "timeout 60 vvp -n " + vvp, g.dir / ("tb_accu_" + std::to_string(seed) + ".log"));
      INFO(s.output);
      CHECK(s.code == 0);
      CHECK(s.output.find("mvout then mm acc=0 (same rows): 32 + 32 steps in 33 cycles") != std::string::npos);
      CHECK(s.output.find("mm acc=0 then mvout (same rows): 32 + 32 steps in 34 cycles") != std::string::npos);
      CHECK(s.output.find("PASS") != std::string::npos);
      CHECK(s.output.find("FAIL") == std::string::npos);
    }
  }
}
