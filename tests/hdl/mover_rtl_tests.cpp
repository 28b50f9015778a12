// The mover's top (tpu_noc_mover) under Verilator through its engine
// (tb/sim/mover_engine.h): the shipped configuration built once into
// build/rtl-cache, each move run over a memory image behind the AXI4 memory
// model with the protocol checker on the master port, and held against the
// reference model (compare_mover_runs): every example of examples/mover at
// latency 0 and at latency 20 with stalls and both register ports, a
// GO-time fault that reads and writes nothing, SLVERR and DECERR ending a
// move with fault 3, and the GO race (GOs and another move's registers
// written from the other port while a move runs change nothing).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "memory_image_support.h"
#include "model/mover/move_file.h"
#include "model/mover/mover_model.h"
#include "sim/mover_engine.h"
#include "test_support.h"

using namespace tpugen;
namespace fs = std::filesystem;

namespace {

/// The shipped mover's simulator, built once (cached across test processes).
const fs::path& simulator() {
  static const fs::path sim = [] {
    const SystemNodeSpec& spec = test::shipped_system_node_spec();
    static const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec),
                                         resolve_agent_params(spec));
    return sim::ensure_mover_simulator(ctx, TPUGEN_BINARY_DIR "/rtl-cache",
                                       [](const std::string& line) { WARN(line); });
  }();
  return sim;
}

mover::MoveDescriptor example(const std::string& name) {
  return mover::read_move_file(test::shipped_system_node_spec(), TPUGEN_SOURCE_DIR "/examples/mover/" + name);
}

/// The patterned image; for GATHER, its 16 indices (below 64) at 0x10000 first.
mover::MoverMemory image_for(const std::string& name) {
  mover::MoverMemory m = test::patterned_image();
  if (name != "gather.json") return m;
  std::vector<std::uint8_t> bytes = m.bytes();
  std::mt19937 rng(14);
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t v = rng() % 64;
    for (int b = 0; b < 4; ++b) bytes[static_cast<std::size_t>(4 * i + b)] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  return mover::MoverMemory(m.base(), bytes);
}

/// What a failed run or comparison shows.
std::string describe(const sim::MoverRtlResult& r, const sim::MoverComparison& cmp) {
  std::string s = fmt::format("status {}, fault {}, moves_done {}, {} words read, {} written, {} cycles", r.status,
                              r.fault, r.moves_done, r.words_read, r.words_written, r.cycles);
  for (const auto& e : r.checker_errors) s += "\n  checker: " + e;
  for (const auto& e : r.harness_errors) s += "\n  harness: " + e;
  for (const auto& e : r.notes) s += "\n  note: " + e;
  for (const auto& e : cmp.differences) s += "\n  rtl vs model: " + e;
  return s;
}

struct Both {
  mover::MoveResult model;
  mover::MoverMemory model_memory;
  sim::MoverRtlResult rtl;
  sim::MoverComparison cmp;
};

/// The move on the model and on the RTL, compared.
Both run_both(const mover::MoveDescriptor& d, const mover::MoverMemory& image, const sim::MoverRunConditions& c) {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  Both b{{}, image, {}, {}};
  b.model = mover::run_move(spec, d, b.model_memory);
  b.rtl = sim::run_mover_rtl(simulator(), spec, d, image, c);
  b.cmp = sim::compare_mover_runs(spec, b.model, b.model_memory, b.rtl);
  return b;
}

sim::MoverRunConditions quiet() { return {}; }

sim::MoverRunConditions stalled(std::uint64_t seed) {
  sim::MoverRunConditions c;
  c.latency = 20;
  c.ready_stall = 0.3;
  c.valid_stall = 0.3;
  c.reorder = true;
  c.interleave = true;
  c.port = "random";
  c.seed = seed;
  return c;
}

}  // namespace

TEST_CASE("mover rtl: every example move matches the model at latency 0 and at latency 20 with stalls",
          "[hdl][mover][sim]") {
  const std::vector<std::string> names = {"copy_2d.json", "pad_row.json", "gather.json", "generate.json",
                                          "quantise.json"};
  for (const auto& name : names) {
    for (const int k : {0, 1}) {
      const sim::MoverRunConditions c = k == 0 ? quiet() : stalled(static_cast<std::uint64_t>(3 + name.size()));
      INFO(name << (k == 0 ? " at latency 0, no stalls, the host port" : " at latency 20, stalls 0.3, random ports"));
      const Both b = run_both(example(name), image_for(name), c);
      INFO(describe(b.rtl, b.cmp));
      CHECK(b.rtl.clean());
      CHECK(b.cmp.match());
      CHECK(b.model.fault == 0);
      CHECK(b.cmp.memory_compared);
      CHECK(b.rtl.moves_done == 1);
      CHECK(b.rtl.words_read == b.model.words_read);
      CHECK(b.rtl.words_written == b.model.words_written);
      CHECK(b.rtl.cycles > 0);
      CHECK(b.rtl.bus_utilization > 0.0);
      CHECK(b.rtl.bus_utilization <= 1.0);
    }
  }
}

TEST_CASE("mover rtl: the control processor's port programs a move as the host's does", "[hdl][mover][sim]") {
  sim::MoverRunConditions c = quiet();
  c.port = "cp";
  const Both b = run_both(example("copy_2d.json"), image_for("copy_2d.json"), c);
  INFO(describe(b.rtl, b.cmp));
  CHECK(b.rtl.clean());
  CHECK(b.cmp.match());
  CHECK(b.rtl.moves_done == 1);
}

TEST_CASE("mover rtl: an element width of 3 is fault 5 at GO and nothing is read or written", "[hdl][mover][sim]") {
  for (const char* name : {"copy_2d.json", "generate.json"}) {
    mover::MoveDescriptor d = example(name);
    d.elem_width = 3;
    const mover::MoverMemory image = image_for(name);
    for (const int k : {0, 1}) {
      INFO(name << (k == 0 ? " quiet" : " stalled"));
      const Both b = run_both(d, image, k == 0 ? quiet() : stalled(11));
      INFO(describe(b.rtl, b.cmp));
      CHECK(b.rtl.clean());
      CHECK(b.cmp.match());
      CHECK(b.rtl.fault == 5);
      CHECK(b.rtl.fault_o == 5);
      CHECK(b.rtl.moves_done == 0);
      CHECK(b.rtl.words_read == 0);
      CHECK(b.rtl.w_beats == 0);
      CHECK(b.rtl.read_bursts + b.rtl.write_bursts == 0);
      CHECK(b.rtl.memory == image.bytes());
    }
  }
}

TEST_CASE("mover rtl: an injected SLVERR or an address outside the image ends the move with fault 3",
          "[hdl][mover][sim]") {
  const mover::MoveDescriptor d = example("copy_2d.json");
  SECTION("SLVERR on a destination word") {
    mover::MoverMemory image = image_for("copy_2d.json");
    image.inject_slverr(0x18000 + 256);
    const Both b = run_both(d, image, stalled(21));
    INFO(describe(b.rtl, b.cmp));
    CHECK(b.rtl.clean());
    CHECK(b.cmp.match());
    CHECK(b.rtl.fault == 3);
    CHECK(b.rtl.moves_done == 0);
    CHECK(!b.cmp.memory_compared);  // what was written before it is implementation-dependent
    CHECK(!b.rtl.axi_responses.empty());
  }
  SECTION("SLVERR on a source word") {
    mover::MoverMemory image = image_for("copy_2d.json");
    image.inject_slverr(0x10000 + 32 * 5);
    const Both b = run_both(d, image, quiet());
    INFO(describe(b.rtl, b.cmp));
    CHECK(b.rtl.clean());
    CHECK(b.cmp.match());
    CHECK(b.rtl.fault == 3);
    CHECK(b.rtl.fault_o == 3);
  }
  SECTION("DECERR: the destination outside a 2 KiB image") {
    const mover::MoverMemory full = image_for("copy_2d.json");
    const mover::MoverMemory image(full.base(),
                                   std::vector<std::uint8_t>(full.bytes().begin(), full.bytes().begin() + 0x800));
    const Both b = run_both(d, image, quiet());
    INFO(describe(b.rtl, b.cmp));
    CHECK(b.rtl.clean());
    CHECK(b.cmp.match());
    CHECK(b.rtl.fault == 3);
  }
}

TEST_CASE("mover rtl: GO cannot be lost or doubled - GOs and registers written while busy change nothing",
          "[hdl][mover][sim]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  for (const char* port : {"host", "cp"}) {
    // GENERATE of 256 words at latency 20: long enough for the whole race.
    sim::MoverRunConditions c = stalled(31);
    c.port = port;
    c.go_race = true;
    const mover::MoveDescriptor d = example("generate.json");
    const Both b = run_both(d, image_for("generate.json"), c);
    INFO("the move's GO from the " << port << " port; " << describe(b.rtl, b.cmp));
    CHECK(b.rtl.clean());
    CHECK(b.cmp.match());
    CHECK(b.cmp.memory_compared);
    CHECK(b.rtl.moves_done == 1);
    // Every race write went in while the move ran, both GOs among them ignored.
    CHECK(b.rtl.race_writes == sim::go_race_writes(spec, d).size());
    CHECK(b.rtl.race_gos == 2);
    CHECK(b.rtl.race_gos_ignored == 2);
  }
}
