// The memory agent's RTL (rtl/agent, top tpu_noc_mem_agent) as `tpugen agent
// gen` writes it (hdl::generate_agent), through the portability gates: the
// default configuration and the corners of the build parameters (one port,
// four ports, one slot, the shallowest intake, one read burst in flight, the
// largest of each) linted by Verilator -Wall with and without the
// simulation-only assertions, compiled by Icarus -g2012 and read by Yosys
// (hierarchy -check, proc, check -assert, no latch); the default one
// synthesized by Yosys in full, its cells and flip-flops reported.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "hdl/sysnode/agent_generate.h"
#include "test_support.h"

using namespace tpugen;

namespace {

constexpr const char* kTop = "tpu_noc_mem_agent";

/// A configuration generated into build/rtl_agent/<name> (emptied first).
std::filesystem::path generate(const std::string& name, const std::map<std::string, std::string>& params) {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec),
                                resolve_agent_params(spec, params));
  const std::filesystem::path dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_agent" / name;
  std::filesystem::remove_all(dir);
  (void)hdl::generate_agent(ctx, dir.string());
  return dir;
}

test::ShellRun run_in(const std::filesystem::path& dir, const std::string& cmd, const std::string& log) {
  return test::run_shell(fmt::format("cd '{}' && ( {} )", dir.string(), cmd), dir / log);
}


/// Yosys' script: every file read, the hierarchy checked, processes made
/// (where a latch would appear), the netlist checked, then `synth` if asked,
/// and no latch cell anywhere.
std::string yosys_script(const std::string& files, bool synth) {
  std::string s;
  std::size_t at = 0;
  while (at < files.size()) {
    const std::size_t sp = files.find(' ', at);
    s += "read_verilog -sv " + files.substr(at, sp == std::string::npos ? std::string::npos : sp - at) + "\n";
    if (sp == std::string::npos) break;
    at = sp + 1;
  }
  s += fmt::format("hierarchy -check -top {0}\nproc\ncheck -assert\n{1}", kTop,
                   synth ? fmt::format("synth -top {}\n", kTop) : "");
  s += "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*\nstat\n";
  return s;
}

}  // namespace

TEST_CASE("agent rtl: every corner configuration is clean under Verilator -Wall, Icarus and Yosys' front end",
          "[hdl][agent]") {
  const std::map<std::string, std::map<std::string, std::string>> configs = {
      {"default", {}},
      {"ports2", {{"MEM_PORTS", "2"}, {"WR_SLOTS", "2"}, {"INTAKE_DEPTH", "4"}}},
      {"small",
       {{"MEM_PORTS", "3"},
        {"WR_SLOTS", "1"},
        {"INTAKE_DEPTH", "2"},
        {"RD_BURSTS", "1"},
        {"RD_BURST_CAP", "1"},
        {"RD_WORDS", "8"},
        {"JOB_DEPTH", "2"},
        {"WR_BURSTS", "1"}}},
      {"large",
       {{"MEM_PORTS", "4"},
        {"WR_SLOTS", "16"},
        {"INTAKE_DEPTH", "64"},
        {"RD_BURSTS", "64"},
        {"RD_BURST_CAP", "256"},
        {"RD_WORDS", "1024"},
        {"JOB_DEPTH", "64"},
        {"WR_BURSTS", "64"}}},
  };
  for (const auto& [name, params] : configs) {
    INFO("configuration " << name);
    const std::filesystem::path dir = generate("gates_" + name, params);
    INFO(dir.string());
    const std::string files = test::configuration_sources(dir);
    // The configuration holds the hand-written agent unchanged.
    for (const auto& e : std::filesystem::directory_iterator(TPUGEN_SOURCE_DIR "/rtl/agent")) {
      INFO(e.path());
      REQUIRE(std::filesystem::exists(dir / e.path().filename()));
      CHECK(test::read_text((dir / e.path().filename()).string()) == test::read_text(e.path().string()));
    }
    for (const char* define : {"", " +define+TPU_ASSERT"}) {
      const test::ShellRun lint =
          run_in(dir, fmt::format("verilator --lint-only -Wall{} --top-module {} {}", define, kTop, files),
                 std::string(define).empty() ? "lint.log" : "lint_assert.log");
      INFO(lint.output);
      CHECK(lint.code == 0);
      CHECK(lint.output.find("Warning") == std::string::npos);
    }
    // Icarus: only the note about `unique` (which it ignores) and the one
    // about constant selects in tpu_axi_wr's always_comb (both as gates.sh).
    for (const char* define : {"", " -DTPU_ASSERT"}) {
      const test::ShellRun ivl =
          run_in(dir, fmt::format("iverilog -g2012{} -o /dev/null -s {} {}", define, kTop, files), "iverilog.log");
      INFO(ivl.output);
      CHECK(ivl.code == 0);
      std::string rest;
      for (std::size_t at = 0; at < ivl.output.size();) {
        const std::size_t nl = ivl.output.find('\n', at);
        const std::string line = ivl.output.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
        if (!line.empty() && line.find("Case unique/unique0 qualities are ignored") == std::string::npos &&
            line.find("constant selects in always_* processes") == std::string::npos &&
            line.find("cannot be synthesized in an always_ff process") == std::string::npos)
          rest += line + "\n";
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
      CHECK(rest.empty());
    }
    test::write_text(dir / "front.ys", yosys_script(files, false));
    const test::ShellRun yosys = run_in(dir, "yosys -q -s front.ys -l yosys_front.log", "yosys_front.out");
    INFO(yosys.output);
    CHECK(yosys.code == 0);
    CHECK(yosys.output.find("Warning") == std::string::npos);
  }
}

// Generic synthesis with its cell and flip-flop counts: long (a minute and a
// half), as synth.agent synthesizes the same configuration in CI (the Xilinx
// flow, with the latch gate).
TEST_CASE("agent rtl: the default configuration synthesizes in Yosys with no latch", "[hdl][agent][long]") {
  const std::filesystem::path dir = generate("synth", {});
  test::write_text(dir / "synth.ys", yosys_script(test::configuration_sources(dir), true));
  const test::ShellRun synth = run_in(dir, "yosys -q -s synth.ys -l synth.log", "synth.out");
  INFO(synth.output);
  CHECK(synth.code == 0);
  CHECK(synth.output.find("Warning") == std::string::npos);
  // The whole design's figures: the totals after the design hierarchy.
  const std::string log = test::read_text((dir / "synth.log").string());
  const std::size_t at = log.rfind("=== design hierarchy ===");
  REQUIRE(at != std::string::npos);
  const std::string stat = log.substr(at, log.find("End of script", at) - at);
  CHECK(stat.find("LATCH") == std::string::npos);
  long cells = -1, ffs = 0;
  std::istringstream lines(stat);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream w(line);
    std::string a, b, c;
    w >> a;
    if (a == "Number") {
      w >> b >> c;
      if (b == "of" && c == "cells:") w >> cells;
    } else if (a.rfind("$_DFF", 0) == 0 || a.rfind("$_SDFF", 0) == 0) {
      long n = 0;
      w >> n;
      ffs += n;
    }
  }
  WARN("tpu_noc_mem_agent, default configuration: " << cells << " cells, " << ffs << " flip-flops (Yosys synth)");
  CHECK(cells > 0);
  CHECK(ffs > 0);
}
