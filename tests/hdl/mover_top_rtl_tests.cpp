// The memory mover's top (tpu_noc_mover with its register file, walkers,
// Philox and quantiser pipelines, buffers and AXI adapters) through the
// three tools' gates, as the mover configuration `tpugen mover gen` writes
// it: Verilator -Wall lint with and without the assertions, an Icarus
// compile, and Yosys's elaboration with no latch and no broken net (the full
// synthesis, minutes long for the 2048-index buffer and the read-ahead
// memories, is `tpugen mover synth`: the long-labelled test synth.mover).
// The same gates for the whole system node (tpu_noc_system_node: the agent
// and the mover joined by tpu_axi_mux), with one memory port and with two.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "hdl/sysnode/sysnode_generate.h"
#include "hdl/sysnode/system_node_generate.h"
#include "test_support.h"

using namespace tpugen;

namespace {

test::ShellRun run_in(const std::filesystem::path& dir, const std::string& cmd, const std::string& log) {
  return test::run_shell(fmt::format("cd '{}' && ( {} )", dir.string(), cmd), dir / log);
}

using Params = std::map<std::string, std::string>;

/// The mover's configuration, or with `system_node` the whole node's, in
/// build/rtl_mover_top/<name> (emptied first).
std::filesystem::path generate(const std::string& name, const Params& mover = {}, bool system_node = false,
                               const Params& agent = {}) {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec, mover),
                                resolve_agent_params(spec, agent));
  const std::filesystem::path dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_mover_top" / name;
  std::filesystem::remove_all(dir);
  if (system_node)
    (void)hdl::generate_system_node(ctx, dir.string());
  else
    (void)hdl::generate_mover(ctx, dir.string());
  return dir;
}

/// Verilator -Wall (with and without the assertions), Icarus, and Yosys's
/// elaboration with no latch and no broken net, of `top` in `dir`.
void gates(const std::filesystem::path& dir, const std::string& top) {
  INFO(dir.string());
  const std::string files = "$(cat files.f)";
  for (const char* define : {"", " +define+TPU_ASSERT"}) {
    const test::ShellRun lint =
        run_in(dir, fmt::format("verilator --lint-only -Wall{} --top-module {} {}", define, top, files),
               std::string(define).empty() ? "lint.log" : "lint_assert.log");
    INFO(lint.output);
    CHECK(lint.code == 0);
    CHECK(lint.output.find("Warning") == std::string::npos);
  }
  const test::ShellRun ivl =
      run_in(dir, fmt::format("iverilog -g2012 -o /dev/null -s {} {}", top, files), "iverilog.log");
  INFO(ivl.output);
  CHECK(ivl.code == 0);
  CHECK(ivl.output.find("arning") == std::string::npos);
  CHECK(ivl.output.find("error") == std::string::npos);
  std::string sources = test::read_text((dir / "files.f").string());
  std::replace(sources.begin(), sources.end(), '\n', ' ');
  test::write_text(dir / "elab.ys", fmt::format("read_verilog -sv {}\nhierarchy -check -top {}\nproc\ncheck -assert\n"
                                                "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr\nstat\n",
                                                sources, top));
  const test::ShellRun ys = run_in(dir, "yosys -q -s elab.ys -l elab.stat.log", "elab.log");
  INFO(ys.output);
  CHECK(ys.code == 0);
  CHECK(ys.output.find("Warning") == std::string::npos);
}


}  // namespace

TEST_CASE("mover rtl: tpu_noc_mover passes Verilator -Wall, Icarus and Yosys elaboration with no latch",
          "[hdl][mover]") {
  // The default build and the smallest one the parameters allow.
  gates(generate("default"), "tpu_noc_mover");
  gates(generate("small", {{"RD_BURSTS", "1"}, {"WR_BURSTS", "1"}, {"READ_AHEAD", "16"}}), "tpu_noc_mover");
}

TEST_CASE("system node rtl: tpu_noc_system_node passes Verilator -Wall, Icarus and Yosys elaboration with no latch",
          "[hdl][mover]") {
  const std::filesystem::path dir = generate("system_node", {}, true);
  // Each hand-written file once; the multiplexer and the node's top among them.
  const std::string files = test::read_text((dir / "files.f").string());
  CHECK(files.find("tpu_axi_mux.sv\n") != std::string::npos);
  CHECK(files.find("tpu_noc_system_node.sv\n") != std::string::npos);
  const std::size_t fifo = files.find("tpu_fifo.sv\n");
  CHECK(fifo != std::string::npos);
  CHECK(fifo == files.rfind("tpu_fifo.sv\n"));
  gates(dir, "tpu_noc_system_node");
  gates(generate("system_node_2ports", {}, true, {{"MEM_PORTS", "2"}}), "tpu_noc_system_node");
}
