// The retirement stress (tb/fuzz/cu/cu_stress.h) without a simulator: its
// cases are a pure function of the seed and fit the system; the system
// model's own run of a case holds every retirement rule; and the verdict
// catches each way a run can break them (a flit lost, a txn retired twice, a
// wrong signal, a credit kept, a channel's end that its flits contradict,
// memory or a fault's detail that differs between the engines).
#include <fmt/format.h>

#include <set>

#include <catch2/catch.hpp>

#include "cu_test_support.h"
#include "fuzz/cu/cu_stress.h"
#include "model/mover/memory.h"

using namespace tpugen;
using namespace tpugen::cu;

namespace {

const noc::Codec& codec() { return test::shipped_codec(); }

/// A system of four units on a 3 x 2 mesh at T = 4, MAXDIM = 16, its model,
/// and a host on it.
struct StressRig {
  Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  SystemSpecs specs = test::shipped_system_specs(isa, {{"WAIT_LIMIT", "64"}});
  StressShape shape;

  StressRig() {
    shape.isa = &isa;
    shape.cu = specs.cu;
    shape.codec = &codec();
    shape.layout = noc::make_layout(3, 2, 4, {}, 1);
    shape.inst_depth = static_cast<int>(specs.cu_base["INST_DEPTH"]);
    shape.prog_flits = static_cast<int>(specs.orchestrator["PROG_FLITS"]);
  }

  [[nodiscard]] StressCase draw(std::uint64_t seed) const {
    Rng rng(seed);
    return random_stress_case(rng, shape, seed);
  }

  [[nodiscard]] StressRun run(const StressCase& c) const {
    mover::MoverMemory mem(0, c.memory);
    SystemModel system(specs, shape.layout, mem);
    HostPort port = model_port(system);
    StressRun r;
    r.ends =
        host_dispatch(test::shipped_compute_units_spec().orchestrator, codec(), port, c.programs, shape.layout.cores,
                      c.credits, shape.prog_flits, static_cast<int>(specs.orchestrator["CHANNELS"]));
    r.rx = system.to_orchestrator();
    r.memory = mem.bytes();
    return r;
  }
};

/// The first case from `seed` on that is not over-credited and whose first
/// unit has at least `min_len` instructions.
std::uint64_t plain_case(const StressRig& rig, std::uint64_t seed, std::size_t min_len) {
  for (;; ++seed) {
    const StressCase c = rig.draw(seed);
    if (!c.over_credit && c.programs[0].size() >= min_len) return seed;
  }
}

/// The index in `run.rx` of unit 0's `i`-th retirement flit.
std::size_t flit_of(const StressRig& rig, const StressRun& run, std::size_t i) {
  for (std::size_t k = 0; k < run.rx.size(); ++k)
    if (codec().header(run.rx[k]).src() == rig.shape.layout.cores[0] && i-- == 0) return k;
  FAIL("no such flit");
  return 0;
}

}  // namespace

TEST_CASE("cu stress: a case is a pure function of its seed, and fits the staging slots", "[cu][stress]") {
  const StressRig rig;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const StressCase a = rig.draw(seed), b = rig.draw(seed);
    CHECK(a.programs == b.programs);
    CHECK(a.memory == b.memory);
    CHECK(a.credits == b.credits);
    REQUIRE(a.programs.size() == rig.shape.layout.cores.size());
    CHECK(a.instructions() <= static_cast<std::size_t>(rig.shape.prog_flits));
    for (const auto& p : a.programs) CHECK((!p.empty() && p.size() <= static_cast<std::size_t>(kMaxProgram)));
    if (a.over_credit)
      CHECK(a.credits > rig.shape.inst_depth);
    else
      CHECK(a.credits == rig.shape.inst_depth);
  }
  CHECK(rig.draw(1).programs != rig.draw(2).programs);
}

TEST_CASE("cu stress: the memories drawn are those the campaign's WAIT_LIMIT is sized for", "[cu][stress]") {
  // A one-word read in the slowest memory drawn takes stress_word_cycles(),
  // stalls aside; a memory slower than that made the core's watchdog fire on
  // a legal RUN (cli/cmd_noc_cu_fuzz.cpp).
  const StressRig rig;
  std::set<unsigned> reads;
  bool latency = false, few_at_latency = false;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const StressConditions k = rig.draw(seed).conditions;
    INFO("seed " << seed << ": latency " << k.latency << ", " << k.max_reads << " reads");
    reads.insert(k.max_reads);
    CHECK(k.latency <= kMaxLatency);
    CHECK((k.latency + 2 + k.max_reads - 1) / k.max_reads <= stress_word_cycles());
    latency = latency || k.latency > kFewReadsLatency;
    few_at_latency = few_at_latency || (k.max_reads < 8 && k.latency > 0);
  }
  CHECK(reads == std::set<unsigned>{1, 2, 3, 8, 64});
  CHECK(latency);
  CHECK(few_at_latency);
  CHECK(stress_wait_limit(16, 32, 4) == 2 * 4 * 16 * stress_word_cycles());
  CHECK(stress_wait_limit(4, 32, 1) == 64);
}

TEST_CASE("cu stress: the model's own runs hold every retirement rule", "[cu][stress]") {
  const StressRig rig;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    INFO("seed " << seed);
    const StressCase c = rig.draw(seed);
    const StressRun r = rig.run(c);
    CHECK(judge_stress(rig.shape, c, r, r).empty());
  }
}

TEST_CASE("cu stress: the verdict names each broken rule", "[cu][stress]") {
  // Drawn and run once: Catch runs the body again for each section.
  static const StressRig rig;
  static const StressCase c = rig.draw(plain_case(rig, 1, 3));
  static const StressRun good = rig.run(c);
  REQUIRE(judge_stress(rig.shape, c, good, good).empty());
  const std::string node = fmt::format("node ({},{})", rig.shape.layout.cores[0].x, rig.shape.layout.cores[0].y);
  const auto verdict = [&](const std::function<void(StressRun&)>& damage, bool on_rtl = true) {
    StressRun bad = good;
    damage(bad);
    return on_rtl ? judge_stress(rig.shape, c, good, bad) : judge_stress(rig.shape, c, bad, good);
  };
  SECTION("a retirement flit lost") {
    const auto why = verdict([&](StressRun& r) { r.rx.erase(r.rx.begin() + static_cast<long>(flit_of(rig, r, 1))); });
    CHECK_THAT(why, Catch::Contains("RTL: " + node) && Catch::Contains("retirement flit(s) for"));
  }
  SECTION("an instruction retired twice, another never") {
    const auto why = verdict([&](StressRun& r) { r.rx[flit_of(rig, r, 1)] = r.rx[flit_of(rig, r, 0)]; }, false);
    CHECK_THAT(why, Catch::StartsWith("model: " + node) && Catch::Contains("retired by a flit of txn"));
  }
  SECTION("a wrong signal") {
    const auto why = verdict([&](StressRun& r) {
      noc::Flit& f = r.rx[flit_of(rig, r, 0)];
      const auto code = codec().get(f, "cu_signal.code");
      codec().set(f, "cu_signal.code",
                  code == test::shipped_noc_spec().require_signal("SIG_FAULT").code
                      ? test::shipped_noc_spec().require_signal("SIG_INST_COMPLETE").code
                      : test::shipped_noc_spec().require_signal("SIG_FAULT").code);
    });
    CHECK_FALSE(why.empty());
  }
  SECTION("a credit kept") {
    const auto why = verdict([&](StressRun& r) { --r.ends[0].credits; });
    CHECK_THAT(why, Catch::Contains("credit(s) of"));
  }
  SECTION("an end the flits contradict") {
    const auto why = verdict([&](StressRun& r) { r.ends[0].state = r.ends[0].state == "DONE" ? "ENDED" : "DONE"; });
    CHECK_THAT(why, Catch::Contains("the channel ended"));
  }
  SECTION("a stray flit") {
    const auto why = verdict([&](StressRun& r) {
      noc::Flit f = r.rx.front();
      noc::Header h = codec().header(f);
      h.src_x = static_cast<std::uint32_t>(rig.shape.layout.orchestrator.x);
      h.src_y = static_cast<std::uint32_t>(rig.shape.layout.orchestrator.y);
      codec().set_header(f, h);
      r.rx.push_back(f);
    });
    CHECK_THAT(why, Catch::Contains("a stray flit"));
  }
  SECTION("memory that differs") {
    const auto why = verdict([&](StressRun& r) { r.memory[100] ^= 1; });
    CHECK_THAT(why, Catch::Contains("memory after the run differs first at 0x64"));
  }
  SECTION("a fault's detail that differs") {
    const auto why = verdict([&](StressRun& r) {
      // Every retirement's argument but a batch completion's (whose {24'd0,
      // txn} is a rule of its own).
      const auto batch = test::shipped_noc_spec().require_signal("SIG_BATCH_COMPLETE").code;
      for (std::size_t i = 0; i < c.programs[0].size(); ++i) {
        noc::Flit& f = r.rx[flit_of(rig, r, i)];
        if (codec().get(f, "cu_signal.code") != batch)
          codec().set(f, "cu_signal.arg", codec().get(f, "cu_signal.arg") ^ 0x100);
      }
    });
    CHECK_THAT(why, Catch::Contains("the RTL retires it with"));
  }
  SECTION("an error of the run's own") {
    const auto why = verdict([&](StressRun& r) { r.errors.push_back("assertion u_x failed"); });
    CHECK(why == "RTL: assertion u_x failed");
  }
}
