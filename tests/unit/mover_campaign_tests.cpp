// The mover's fuzz campaign without a simulator (tb/fuzz/mover): the random
// cases are a pure function of the seed and programmable, they reach every
// bin of the coverage model against the reference model, each aimed fault
// comes out as that fault most of the time, and shrinking keeps a failure
// while it makes the case smaller.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "fuzz/mover/mover_campaign.h"
#include "model/mover/walker.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::mover;

namespace {

std::string fault_name(const MoverSpec& m, std::uint32_t code) {
  for (const auto& f : m.faults)
    if (f.code == code) return f.name;
  return "none";
}

}  // namespace

TEST_CASE("mover campaign: a case is a pure function of its seed and its registers can be written", "[mover][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const MoverRegisterFile regs(spec);
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng a(seed), b(seed);
    const MoverCase x = random_case(a, spec), y = random_case(b, spec);
    INFO("seed " << seed);
    CHECK(x.move == y.move);
    CHECK(x.image == y.image);
    CHECK(x.conditions == y.conditions);
    CHECK(x.mem_base % 32 == 0);
    CHECK_NOTHROW(regs.writes_for(x.move, true));
  }
}

TEST_CASE("mover campaign: 3000 cases reach every coverage bin on the model", "[mover][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  MoverCoverage cov(spec);
  std::map<std::string, std::pair<int, int>> aimed;  // aim -> (cases, cases that gave that fault)
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    Rng rng(seed);
    const MoverCase c = random_case(rng, spec);
    MoverMemory mem = c.memory();
    const MoveResult r = run_move(spec, c.move, mem);
    cov.add(c, r);
    auto& a = aimed[c.aim];
    ++a.first;
    if (fault_name(spec.mover, r.fault) == c.aim) ++a.second;
  }
  INFO(cov.table());
  CHECK(cov.missing().empty());
  CHECK(cov.cases() == 3000);
  // A fault-free aim is fault-free mostly; each fault aimed at comes out as
  // that fault in at least a third of its cases (an earlier check may win).
  REQUIRE(aimed.count("none") == 1);
  CHECK(aimed["none"].second >= aimed["none"].first * 9 / 10);
  for (const auto& f : spec.mover.faults) {
    INFO("fault " << f.name);
    REQUIRE(aimed.count(f.name) == 1);
    CHECK(aimed[f.name].second * 3 >= aimed[f.name].first);
  }
}

TEST_CASE("mover campaign: shrinking keeps the failure and makes the case smaller", "[mover][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  // A stand-in for a defective RTL: it fails every COPY of more than 3
  // destination elements.
  const MoverJudge judge = [&](const MoverCase& c) -> std::string {
    const Walk dst(c.move.walkers[1], spec.mover);
    return c.move.mode == 0 && dst.elements() > 3 ? "more than 3" : "";
  };
  int shrunk = 0;
  for (std::uint64_t seed = 1; seed <= 400 && shrunk < 5; ++seed) {
    Rng rng(seed);
    const MoverCase c = random_case(rng, spec);
    if (judge(c).empty() || Walk(c.move.walkers[1], spec.mover).elements() < 20) continue;
    const MoverShrunk s = shrink_case(spec, c, judge(c), judge);
    INFO("seed " << seed);
    CHECK(s.failure == "more than 3");
    CHECK(!judge(s.c).empty());
    CHECK(Walk(s.c.move.walkers[1], spec.mover).elements() < Walk(c.move.walkers[1], spec.mover).elements());
    CHECK(s.c.conditions == MoverConditions{});
    CHECK(s.runs > 0);
    ++shrunk;
  }
  CHECK(shrunk == 5);
}

TEST_CASE("mover campaign: the replay command names the case's files, memory and conditions", "[mover][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  Rng rng(7);
  MoverCase c = random_case(rng, spec);
  c.slverr = {0x1000};
  const std::string cmd = replay_command(c, "out/case_7", "mover_walker_off_by_one");
  CHECK(cmd.find("--move out/case_7/move.json") != std::string::npos);
  CHECK(cmd.find("--mem-in out/case_7/mem.bin") != std::string::npos);
  CHECK(cmd.find("--engine both") != std::string::npos);
  CHECK(cmd.find("--slverr 0x1000") != std::string::npos);
  CHECK(cmd.find("--inject-bug mover_walker_off_by_one") != std::string::npos);
}
