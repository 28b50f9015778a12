// The mover's RTL engine without a simulator (tb/sim/mover_engine.h): the
// harness's configuration header, its files, the GO race's writes, the
// checker's burst cap, and the comparison of an RTL run with the model's
// (mover-notes §4: the fault always, the image unless AXI_RESPONSE or a
// read after a write).
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "memory_image_support.h"
#include "model/mover/descriptor.h"
#include "model/mover/mover_model.h"
#include "sim/mover_engine.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const SystemNodeSpec& spec() { return test::shipped_system_node_spec(); }

mover::MoveDescriptor fill_move() {
  mover::MoveDescriptor d;
  d.mode = spec().mover.require_mode("FILL").code;
  d.imm = 0x1234ABCD;
  d.walkers[1].base = test::kImageBase + 0x1000;
  d.walkers[1].dims[0] = {8, 32, 0, 0};
  return d;
}

/// An RTL result that agrees with `model` run over `mem`.
sim::MoverRtlResult agreeing(const mover::MoveResult& model, const mover::MoverMemory& mem) {
  sim::MoverRtlResult r;
  r.status = "done";
  r.fault = model.fault;
  r.moves_done = model.fault == 0 ? 1 : 0;
  r.memory = mem.bytes();
  return r;
}

}  // namespace

TEST_CASE("mover engine: the harness's configuration header comes from the spec", "[mover][engine]") {
  const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec(), resolve_mover_params(spec()),
                                resolve_agent_params(spec()));
  const std::string h = sim::mover_config_header(ctx);
  CHECK(h.find("#include \"Vtpu_noc_mover.h\"") != std::string::npos);
  CHECK(h.find("using Dut = Vtpu_noc_mover;") != std::string::npos);
  CHECK(h.find("kDataBytes = 32;") != std::string::npos);
  CHECK(h.find("kAddrBits = 40;") != std::string::npos);
  CHECK(h.find("kRegOffsetW = 7;") != std::string::npos);
  CHECK(h.find("kGoOffset = 0x0;") != std::string::npos);
  CHECK(h.find("kGoLsb = 16;") != std::string::npos);
  CHECK(h.find("kStatusOffset = 0x78;") != std::string::npos);
  CHECK(h.find("kFaultLsb = 4, kFaultW = 4;") != std::string::npos);
  CHECK(h.find("kMovesDoneLsb = 40, kMovesDoneW = 24;") != std::string::npos);
  CHECK(h.find("RD_BURSTS=32") != std::string::npos);
}

TEST_CASE("mover engine: the harness's files exist and the waveform build alone traces", "[mover][engine]") {
  const sim::Harness plain = sim::mover_harness(false), wave = sim::mover_harness(true);
  CHECK(plain.main == "sim/mover/mover_main.cpp");
  CHECK(plain.flags.empty());
  CHECK(wave.flags == std::vector<std::string>{"--trace-fst"});
  std::set<std::string> to;
  for (const auto& f : plain.files) {
    INFO(f.from.string());
    CHECK(std::filesystem::exists(f.from));
    to.insert(f.to.generic_string());
  }
  for (const char* f :
       {"sim/mover/mover_main.cpp", "sim/mover/mover_wire.h", "sim/axi/axi_memory.h", "sim/axi/axi_checker.h",
        "sim/axi/axi_types.h", "sim/harness/memory_models.h", "sim/harness/ports.h"})
    CHECK(to.count(f) == 1);
}

TEST_CASE("mover engine: the GO race starts with a GO and programs a move that differs in every register",
          "[mover][engine]") {
  const mover::MoveDescriptor d = fill_move();
  const auto race = sim::go_race_writes(spec(), d);
  const mover::MoverRegisterFile regs(spec());
  const auto own = regs.writes_for(d, true);
  REQUIRE(race.size() == own.size() + 1);
  const MoverRegister* move = spec().mover.reg("MOVE");
  REQUIRE(move != nullptr);
  const MoverField& go = spec().mover.require_field("go", "test");
  CHECK(race.front().offset == move->offset);
  CHECK(go.raw(race.front().value) == 1);
  CHECK(race.front() == race.back());
  // Apply the race's writes after the move's: every field differs.
  mover::MoverRegisterFile a(spec()), b(spec());
  for (const auto& w : own) (void)a.write(w.offset, w.value);
  for (const auto& w : own) (void)b.write(w.offset, w.value);
  for (const auto& w : race) (void)b.write(w.offset, w.value);
  const mover::MoveDescriptor &x = a.descriptor(), &y = b.descriptor();
  CHECK(x == d);
  CHECK(y.mode != x.mode);
  CHECK(y.elem_width != x.elem_width);
  CHECK(y.flags != x.flags);
  CHECK(y.imm != x.imm);
  CHECK(y.seed != x.seed);
  CHECK(y.index_base != x.index_base);
  CHECK(y.pitch != x.pitch);
  for (int w = 0; w < 2; ++w) {
    CHECK(y.walkers[w].base != x.walkers[w].base);
    CHECK(y.walkers[w].ndim != x.walkers[w].ndim);
    for (int i = 0; i < mover::kDims; ++i) {
      CHECK(y.walkers[w].dims[i].count != x.walkers[w].dims[i].count);
      CHECK(y.walkers[w].dims[i].stride != x.walkers[w].dims[i].stride);
    }
  }
}

TEST_CASE("mover engine: the checker's longest burst is the move's burst cap", "[mover][engine]") {
  mover::MoveDescriptor d = fill_move();
  const MoverFlag& cap = spec().mover.require_flag("burst_cap");
  for (std::uint32_t code = 0; code < cap.values.size(); ++code) {
    d.flags = code << cap.lsb;
    CHECK(sim::burst_cap(spec(), d) == static_cast<unsigned>(cap.values[code]));
  }
}

TEST_CASE("mover engine: the comparison holds the fault, moves_done and the image as mover-notes allows",
          "[mover][engine]") {
  const mover::MoverMemory image = test::patterned_image();
  mover::MoverMemory mem = image;
  const mover::MoveResult model = mover::run_move(spec(), fill_move(), mem);
  REQUIRE(model.fault == 0);

  CHECK(sim::compare_mover_runs(spec(), model, mem, agreeing(model, mem)).match());

  sim::MoverRtlResult r = agreeing(model, mem);
  r.memory[0x1000 + 32 + 3] ^= 0x40;
  r.memory[0x1000 + 96] ^= 0x01;
  const auto c = sim::compare_mover_runs(spec(), model, mem, r);
  REQUIRE(!c.match());
  CHECK(c.memory_compared);
  CHECK(c.words_differing == 2);
  INFO(c.differences.front());
  CHECK(c.differences.front().find("2 word(s) differ; the first at 0x11020: byte 0x11023") != std::string::npos);

  r = agreeing(model, mem);
  r.fault = 3;
  r.moves_done = 0;
  const auto f = sim::compare_mover_runs(spec(), model, mem, r);
  CHECK(f.differences.size() == 2);
  CHECK(f.differences.front() == "fault: model 0 (none), RTL 3 (AXI_RESPONSE)");

  r = agreeing(model, mem);
  r.status = "hang";
  CHECK(!sim::compare_mover_runs(spec(), model, mem, r).match());

  // AXI_RESPONSE: only the fault (and moves_done) are held.
  mover::MoverMemory bad = image;
  bad.inject_slverr(test::kImageBase + 0x1000 + 64);
  const mover::MoveResult m3 = mover::run_move(spec(), fill_move(), bad);
  REQUIRE(m3.fault == 3);
  r = agreeing(m3, bad);
  r.memory = image.bytes();  // whatever the RTL wrote before the error
  const auto a = sim::compare_mover_runs(spec(), m3, bad, r);
  CHECK(a.match());
  CHECK(!a.memory_compared);
}
