// The data-moving units (dma_ld, spm, vru, dma_st): emitted at several
// configurations with the package and the primitives, linted by Verilator,
// synthesized by Yosys (no latches) and compiled by Icarus; then each one
// simulated by Icarus against its testbench in tests/hdl/, which drives
// random gaps and backpressure, models the DRAM with latency, checks every
// row and prints PASS and the throughput it measured.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "hdl/emitters.h"
#include "hdl_runner.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::hdl;

namespace {

struct Module {
  const char* name;
  std::function<std::string(const RtlContext&)> emit;
  std::vector<const char*> prims;  ///< hand-written modules it instantiates (rtl/prim, rtl/core)
};

const std::vector<Module>& movers() {
  static const std::vector<Module> table = {
      {"tpu_dma_ld", emit_tpu_dma_ld, {"tpu_fifo.sv", "tpu_out_reg.sv", "tpu_counter.sv", "tpu_reg.sv", "tpu_instr_slot.sv", "tpu_dma_rd.sv"}},
      {"tpu_spm", emit_tpu_spm, {"tpu_fifo.sv", "tpu_skid.sv", "tpu_reg.sv", "tpu_counter.sv", "tpu_ram_1r1w.sv", "tpu_mem_queue.sv"}},
      {"tpu_vru", emit_tpu_vru, {"tpu_fifo.sv", "tpu_skid.sv", "tpu_reg.sv", "tpu_counter.sv", "tpu_ram_1r1w.sv", "tpu_mem_queue.sv"}},
      {"tpu_dma_st", emit_tpu_dma_st, {"tpu_out_reg.sv", "tpu_counter.sv", "tpu_reg.sv", "tpu_instr_slot.sv", "tpu_dma_wr.sv"}}};
  return table;
}

/// The package, the primitives and the four units of one configuration,
/// emitted once (a test case's own: CTest runs test cases side by side).
const test::RtlDir& emit_config(const std::string& name, const ParamOverrides& params) {
  std::vector<test::Emitted> units;
  for (const auto& m : movers()) units.push_back({m.name, m.emit});
  return test::generated("movers", name, params, units);
}

std::string sources(const Module& m) {
  std::string s = "tpu_pkg.sv";
  for (const char* p : m.prims) s += std::string(" ") + p;
  return s + " " + m.name + ".sv";
}

/// The Yosys script: the module synthesized whole, the RAM primitive too
/// unless `ram_lib` (then read as a blackbox: at MAXDIM = 64 its 512 or
/// 1024 rows would take Yosys ~20 s to map into flip-flops, and the
/// primitive is the same file synthesized whole at MAXDIM = 16).
std::string yosys_script(const Module& m, bool ram_lib) {
  std::string reads = "tpu_pkg.sv";
  std::string lib;
  for (const char* p : m.prims) {
    if (ram_lib && std::string_view(p) == "tpu_ram_1r1w.sv")
      lib = fmt::format("read_verilog -sv -lib {}\n", p);
    else
      reads += std::string(" ") + p;
  }
  return fmt::format(
      "read_verilog -sv {0} {1}.sv\n{2}hierarchy -check -top {1}\nproc\ncheck -assert\nsynth -top {1}\n"
      "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*\n",
      reads, m.name, lib);
}

void lint_synth_compile(const test::RtlDir& rtl, const Module& m, bool ram_lib) {
  INFO(m.name << " in " << rtl.dir().string());
  const test::ShellRun lint = rtl.lint(m.name, sources(m), std::string(m.name) + ".lint.log");
  INFO(lint.output);
  CHECK(lint.code == 0);
  CHECK(lint.output.find("Warning") == std::string::npos);

  const test::ShellRun synth = rtl.synth(yosys_script(m, ram_lib), std::string(m.name) + ".yosys.log");
  INFO(synth.output);
  CHECK(synth.code == 0);
  CHECK(synth.output.find("Warning") == std::string::npos);

  const test::ShellRun ivl =
      rtl.compile(m.name, sources(m), {}, std::string(m.name) + ".vvp", std::string(m.name) + ".iverilog.log");
  INFO(ivl.output);
  CHECK(ivl.code == 0);
  CHECK(ivl.output.find("arning") == std::string::npos);
}

/// The rates of the testbench's "THROUGHPUT ...: <items> ... in <cycles>
/// cycles" lines (items per cycle, from the first instruction's handshake to
/// the last step, pipeline fill included).
std::vector<double> rates(const std::string& out) {
  std::vector<double> r;
  std::size_t at = 0;
  while ((at = out.find("THROUGHPUT", at)) != std::string::npos) {
    const std::size_t colon = out.find(": ", at), in = out.find(" in ", at), eol = out.find('\n', at);
    at = eol;
    if (colon == std::string::npos || in == std::string::npos || in > eol) continue;
    const double items = std::stod(out.substr(colon + 2)), cycles = std::stod(out.substr(in + 4));
    r.push_back(items / cycles);
  }
  return r;
}

/// Compile and run a testbench of tests/hdl/ against the emitted module;
/// the simulation must say PASS, and every full-speed phase must move at
/// least `min_rate` items a cycle.
std::string simulate(const test::RtlDir& rtl, const Module& m, const std::string& tag, const test::HdlParams& params,
                     double min_rate = 0.9) {
  const test::ShellRun r = rtl.testbench(fmt::format("tb_{}", m.name), sources(m), params, tag, 0);
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK(r.output.find("PASS") != std::string::npos);
  CHECK(r.output.find("FAIL") == std::string::npos);
  const auto rs = rates(r.output);
  CHECK(!rs.empty());
  for (const double rate : rs) CHECK(rate >= min_rate);
  std::string summary;
  for (const char* key : {"THROUGHPUT", "LATENCY", "PASS"})
    for (std::size_t at = r.output.find(key); at != std::string::npos; at = r.output.find(key, at + 1))
      summary += r.output.substr(at, r.output.find('\n', at) - at) + "\n";
  WARN(summary);
  return r.output;
}

const Module& mover(std::string_view name) {
  for (const auto& m : movers())
    if (m.name == name) return m;
  throw std::runtime_error("no mover " + std::string(name));
}

}  // namespace

TEST_CASE("the movers pass Verilator -Wall, Yosys synth and Icarus at every configuration", "[rtl][movers][hdl]") {
  struct Config {
    const char* name;
    ParamOverrides params;
    bool all;      ///< every unit, or dma_ld only (a DMA_WORDS / QD variant)
    bool ram_lib;  ///< the RAM primitive read as a blackbox by Yosys
  };
  const std::vector<Config> configs = {
      {"t4_m16", {{"T", 4}, {"MAXDIM", 16}}, true, false},
      {"t4_m64", {{"T", 4}, {"MAXDIM", 64}}, true, true},
      {"t8_m64", {{"T", 8}, {"MAXDIM", 64}}, true, true},
      {"t4_m16_w2", {{"T", 4}, {"MAXDIM", 16}, {"DMA_WORDS", 2}}, false, false},
      {"t4_m64_w4_qd2", {{"T", 4}, {"MAXDIM", 64}, {"DMA_WORDS", 4}, {"QD", 2}}, false, false}};
  for (const auto& c : configs) {
    const test::RtlDir& rtl = emit_config(c.name, c.params);
    for (const auto& m : movers())
      if (c.all || std::string_view(m.name) == "tpu_dma_ld") lint_synth_compile(rtl, m, c.ram_lib);
  }
}

TEST_CASE("the movers are emitted byte-identically and name no opcode number", "[rtl][movers]") {
  const RtlContext ctx(test::isa_at({{"T", 8}, {"MAXDIM", 64}}), RtlOptions{});
  for (const auto& m : movers()) {
    INFO(m.name);
    const std::string a = m.emit(ctx);
    CHECK(a == m.emit(ctx));
    CHECK(a.find("tpu_pkg::OP_") != std::string::npos);
    CHECK(a.find("6'd") == std::string::npos);
    CHECK(a.find("endmodule") != std::string::npos);
  }
}

TEST_CASE("a unit pattern the movers do not implement is refused, naming it", "[rtl][movers]") {
  const std::string text = test::read_text(test::spec_path());
  struct Case {
    const char* from;
    const char* to;
    std::function<std::string(const RtlContext&)> emit;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"{opcode: vld, unit: spm, port: sp2vr, kind: emit, items: nr}",
       "{opcode: vld, unit: spm, port: sp2vr, kind: emit, items: nr, only_if: spad0 == 0}", emit_tpu_spm, "opcode vld"},
      {"{opcode: mm, unit: vru, port: vr.read, kind: read, state: vr, base: vr_a, items: nr}",
       "{opcode: mm, unit: vru, port: vr.read, kind: read, state: vr, base: vr_a, items: nr}\n"
       "  - {opcode: mm, unit: vru, port: vr.write, kind: write, state: vr, base: vr_a, items: nr}",
       emit_tpu_vru, "opcode mm"},
      {"port: dram.read, kind: read, state: B, base: dram_row0",
       "port: dram.read, kind: read, state: B, base: dst_row0", emit_tpu_dma_ld, "different operands"},
      {"{opcode: mvout, unit: dma_st, port: dram.write, kind: write, state: C, base: dram_row0, items: nr}",
       "{opcode: mvout, unit: dma_st, port: dram.write, kind: write, state: C, base: dram_row0, items: nr + 1}",
       emit_tpu_dma_st, "opcode mvout"}};
  for (const auto& c : cases) {
    INFO(c.to);
    std::string t = text;
    const auto at = t.find(c.from);
    REQUIRE(at != std::string::npos);
    t.replace(at, std::string(c.from).size(), c.to);
    const Spec spec = load_spec_text(t, "modified.yaml");
    const RtlContext ctx(Isa(spec, legal_params(spec)), RtlOptions{});
    try {
      (void)c.emit(ctx);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.rule() == "rtl.unsupported");
      CHECK_THAT(e.message(), Catch::Contains(c.says));
    }
  }
}

TEST_CASE("the movers simulate correctly under random gaps, backpressure and DRAM latency", "[rtl][movers][sim][hdl]") {
  const test::RtlDir& small = emit_config("sim_t4_m16", {{"T", 4}, {"MAXDIM", 16}});
  const test::RtlDir& wide = emit_config("sim_t8_m32_w2", {{"T", 8}, {"MAXDIM", 32}, {"DMA_WORDS", 2}, {"QD", 5}});
  const test::RtlDir& words4 = emit_config("sim_t4_m32_w4", {{"T", 4}, {"MAXDIM", 32}, {"DMA_WORDS", 4}, {"QD", 8}});

  simulate(small, mover("tpu_spm"), "t4", {{"T", 4}, {"SPAD_ROWS", 64}});
  simulate(wide, mover("tpu_spm"), "t8", {{"T", 8}, {"SPAD_ROWS", 128}});
  simulate(small, mover("tpu_vru"), "t4", {{"T", 4}, {"NVR", 64}});
  simulate(wide, mover("tpu_vru"), "t8", {{"T", 8}, {"NVR", 128}});
  // Two pending instructions per engine: the queues fill and dispatch stalls.
  simulate(small, mover("tpu_spm"), "qd2", {{"T", 4}, {"SPAD_ROWS", 64}, {"QD", 2}});
  simulate(small, mover("tpu_vru"), "qd2", {{"T", 4}, {"NVR", 64}, {"QD", 2}});
  for (const int lat : {0, 3}) {
    simulate(small, mover("tpu_dma_ld"), fmt::format("l{}", lat),
             {{"T", 4}, {"MAXDIM", 16}, {"DMA_WORDS", 1}, {"QD", 16}, {"Latency", lat}});
    simulate(small, mover("tpu_dma_st"), fmt::format("l{}", lat), {{"T", 4}, {"MAXDIM", 16}, {"Latency", lat}});
  }
  // C write beats of several packed words, the row in its strobed slot.
  simulate(small, mover("tpu_dma_st"), "beat4", {{"T", 4}, {"MAXDIM", 16}, {"CBeat", 4}, {"Latency", 1}});
  simulate(wide, mover("tpu_dma_st"), "beat8", {{"T", 8}, {"MAXDIM", 32}, {"CBeat", 8}, {"Latency", 2}});
  // QD = 2 cannot cover the round trip (QD >= latency + 3): two rows every three cycles.
  simulate(small, mover("tpu_dma_ld"), "qd2", {{"T", 4}, {"MAXDIM", 16}, {"DMA_WORDS", 1}, {"QD", 2}, {"Latency", 0}},
           0.6);
  simulate(wide, mover("tpu_dma_ld"), "w2", {{"T", 8}, {"MAXDIM", 32}, {"DMA_WORDS", 2}, {"QD", 5}, {"Latency", 2}});
  simulate(words4, mover("tpu_dma_ld"), "w4", {{"T", 4}, {"MAXDIM", 32}, {"DMA_WORDS", 4}, {"QD", 8}, {"Latency", 5}});
}
