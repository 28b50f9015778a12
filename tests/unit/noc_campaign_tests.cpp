// tb/fuzz/noc: random cases, verdicts and shrinking, on engines made for the
// test (the delivery model, and the model with a deliberate flaw).
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "fuzz/noc/noc_campaign.h"
#include "model/noc/mesh_model.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::noc;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

}  // namespace

TEST_CASE("noc campaign: cases are random but legal, and a sound engine passes them", "[noc][campaign]") {
  const Codec c(spec());
  const NocParams p = resolve_noc_params(spec(), {{"NX", "3"}, {"NY", "3"}, {"DEPTH", "2"}});
  const Mesh m{3, 3};
  const NocEngine model = [&](const std::vector<Injection>& t, const RunConditions& cond) {
    return run_mesh_model(spec(), p, t, cond);
  };
  std::set<std::string> patterns;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    Rng rng(seed);
    const NocCase k = random_case(rng, m, 200);
    patterns.insert(k.traffic.pattern);
    CHECK_NOTHROW(check_pattern(k.traffic.pattern, m));
    CHECK(k.traffic.packets >= 20);
    CHECK(k.traffic.packets <= 200);
    CHECK(k.conditions.eject_busy <= 0.6);
    const auto t = generate_traffic(c, m, k.traffic);
    const NocVerdict v = judge(c, m, t, k.conditions, model, model);
    INFO(v.failure);
    CHECK_FALSE(v.failed());
  }
  CHECK(patterns.count("bitrev") == 0);  // 9 nodes: not a power of two
  CHECK(patterns.size() >= 3);
}

TEST_CASE("noc campaign: a flawed engine's failure is found and shrunk to the flit that shows it",
          "[noc][campaign]") {
  const Codec c(spec());
  const NocParams p = resolve_noc_params(spec(), {{"NX", "3"}, {"NY", "3"}});
  const Mesh m{3, 3};
  const NocEngine model = [&](const std::vector<Injection>& t, const RunConditions& cond) {
    return run_mesh_model(spec(), p, t, cond);
  };
  // An "RTL" that loses every flit handed over at node (2, 2).
  const NocEngine lossy = [&](const std::vector<Injection>& t, const RunConditions& cond) {
    RunLog log = run_mesh_model(spec(), p, t, cond);
    std::erase_if(log.ejections, [&](const Ejection& e) { return e.node == m.index({2, 2}); });
    return log;
  };
  TrafficSpec ts;
  ts.pattern = "uniform";
  ts.rate = 0.5;
  ts.packets = 300;
  const auto t = generate_traffic(c, m, ts);
  RunConditions cond;
  cond.eject_busy = 0.3;
  const NocVerdict v = judge(c, m, t, cond, lossy, model);
  REQUIRE(v.failed());
  CHECK_THAT(v.failure, Catch::Contains("lost"));
  const NocShrunk s = shrink_flits(c, m, t, cond, lossy, model);
  REQUIRE(s.flits.size() == 1);
  CHECK(c.header(s.flits[0].flit).dst() == Coord{2, 2});
  CHECK(s.conditions.eject_busy == 0.0);
  CHECK(s.flits[0].cycle == 0);
  CHECK(s.verdict.failed());
  CHECK(s.runs <= 200);
  // An engine that differs from the model only in timing is caught by the comparison.
  const NocEngine late = [&](const std::vector<Injection>& f, const RunConditions& k) {
    RunLog log = run_mesh_model(spec(), p, f, k);
    for (auto& e : log.ejections) e.cycle += 1;
    log.cycles += 1;
    return log;
  };
  CHECK_THAT(judge(c, m, t, RunConditions{}, late, model).failure, Catch::Contains("rtl != model"));
}

TEST_CASE("noc campaign: a reproducer's flits read back as they were", "[noc][campaign]") {
  const Codec c(spec());
  const Mesh m{4, 2};
  TrafficSpec ts;
  ts.pattern = "neighbor";
  ts.rate = 0.3;
  ts.packets = 40;
  const auto t = generate_traffic(c, m, ts);
  const auto path = std::filesystem::path(TPUGEN_BINARY_DIR) / "test_noc_repro.jsonl";
  test::write_text(path, injections_jsonl(c, m, t));
  CHECK(read_injections(c, m, path.string()) == t);
}
