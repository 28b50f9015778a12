// The memory mover's top (tpu_noc_mover with its register file, walkers,
// Philox and quantiser pipelines, buffers and AXI adapters) through the
// three tools' gates, as the mover configuration `tpugen mover gen` writes
// it: Verilator -Wall lint with and without the assertions, an Icarus
// compile, and Yosys's elaboration with no latch and no broken net (the full
// synthesis, minutes long for the 2048-index buffer and the read-ahead
// memories, is `tpugen mover synth`: the long-labelled test synth.mover).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "hdl/sysnode/sysnode_generate.h"
#include "test_support.h"

using namespace tpugen;

namespace {

std::filesystem::path generate(const std::string& name, const std::map<std::string, std::string>& params = {}) {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec, params),
                                resolve_agent_params(spec));
  const std::filesystem::path dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_mover_top" / name;
  std::filesystem::remove_all(dir);
  (void)hdl::generate_mover(ctx, dir.string());
  return dir;
}

test::ShellRun run_in(const std::filesystem::path& dir, const std::string& cmd, const std::string& log) {
  return test::run_shell(fmt::format("cd '{}' && ( {} )", dir.string(), cmd), dir / log);
}

}  // namespace

TEST_CASE("mover rtl: tpu_noc_mover passes Verilator -Wall, Icarus and Yosys elaboration with no latch",
          "[hdl][mover]") {
  // The default build and the smallest one the parameters allow.
  for (const auto& [name, params] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
           {"default", {}}, {"small", {{"RD_BURSTS", "1"}, {"WR_BURSTS", "1"}, {"READ_AHEAD", "16"}}}}) {
    const std::filesystem::path dir = generate(name, params);
    INFO(dir.string());
    const std::string files = "$(cat files.f)";
    for (const char* define : {"", " +define+TPU_ASSERT"}) {
      const test::ShellRun lint =
          run_in(dir, fmt::format("verilator --lint-only -Wall{} --top-module tpu_noc_mover {}", define, files),
                 std::string(define).empty() ? "lint.log" : "lint_assert.log");
      INFO(lint.output);
      CHECK(lint.code == 0);
      CHECK(lint.output.find("Warning") == std::string::npos);
    }
    const test::ShellRun ivl =
        run_in(dir, fmt::format("iverilog -g2012 -o /dev/null -s tpu_noc_mover {}", files), "iverilog.log");
    INFO(ivl.output);
    CHECK(ivl.code == 0);
    CHECK(ivl.output.find("arning") == std::string::npos);
    CHECK(ivl.output.find("error") == std::string::npos);
    std::string sources = test::read_text((dir / "files.f").string());
    std::replace(sources.begin(), sources.end(), '\n', ' ');
    test::write_text(dir / "elab.ys", "read_verilog -sv " + sources +
                                          "\nhierarchy -check -top tpu_noc_mover\nproc\ncheck -assert\n"
                                          "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr\nstat\n");
    const test::ShellRun ys = run_in(dir, "yosys -q -s elab.ys -l elab.stat.log", "elab.log");
    INFO(ys.output);
    CHECK(ys.code == 0);
    CHECK(ys.output.find("Warning") == std::string::npos);
  }
}
