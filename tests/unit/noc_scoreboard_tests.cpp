// tb/model/noc/scoreboard: every way a run can go wrong is counted, on
// run logs built by hand; and two runs are compared hand-over by hand-over.
#include <catch2/catch.hpp>

#include <utility>

#include "model/noc/scoreboard.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::noc;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

const Mesh kMesh{3, 3};

/// A flit from `src` to `dst` with a unique payload.
Injection flit(const Codec& c, Coord src, Coord dst, std::uint64_t id, std::uint64_t cycle = 0) {
  Injection in;
  in.cycle = cycle;
  in.node = kMesh.index(src);
  Header h;
  h.dst_x = static_cast<std::uint32_t>(dst.x);
  h.dst_y = static_cast<std::uint32_t>(dst.y);
  h.src_x = static_cast<std::uint32_t>(src.x);
  h.src_y = static_cast<std::uint32_t>(src.y);
  h.type = c.type_code("MEM_WR_DATA");
  c.set_header(in.flit, h);
  in.flit.set_bits(0, 64, id);
  return in;
}

/// The run a perfect mesh would log: each flit accepted at its cycle and
/// handed over 2 + 2 * hops later at its destination.
RunLog perfect(const std::vector<Injection>& t) {
  RunLog log;
  log.status = "done";
  for (const auto& in : t) {
    log.accepted.push_back(in.cycle);
    const Codec c(spec());
    const Coord s = kMesh.coord(in.node), d = c.header(in.flit).dst();
    const auto hops = static_cast<std::uint64_t>(std::abs(s.x - d.x) + std::abs(s.y - d.y));
    log.ejections.push_back({in.cycle + 2 + 2 * hops, kMesh.index(d), in.flit});
  }
  std::stable_sort(log.ejections.begin(), log.ejections.end(),
                   [](const Ejection& a, const Ejection& b) { return a.cycle < b.cycle; });
  log.cycles = log.ejections.empty() ? 0 : log.ejections.back().cycle + 1;
  return log;
}

}  // namespace

TEST_CASE("noc scoreboard: a perfect run is clean, with its latencies", "[noc][scoreboard]") {
  const Codec c(spec());
  const std::vector<Injection> t = {flit(c, {0, 0}, {2, 2}, 0), flit(c, {0, 0}, {2, 2}, 1, 1),
                                    flit(c, {1, 1}, {1, 1}, 2, 3), flit(c, {2, 0}, {0, 0}, 3, 5)};
  std::vector<FlitTrace> trace;
  const Score s = score_run(c, kMesh, t, perfect(t), &trace);
  CHECK(s.clean());
  CHECK(s.delivered == 4);
  CHECK(s.latency_max == 10);
  CHECK(s.latency_avg == Approx((10 + 10 + 2 + 6) / 4.0));
  CHECK(s.latency_p99 == 10);
  REQUIRE(trace.size() == 4);
  CHECK(trace[1].inject == 1);
  CHECK(trace[1].eject == 11);
  CHECK(trace[3].dst == Coord{0, 0});
}

TEST_CASE("noc scoreboard: lost, duplicated, reordered, corrupted, misdelivered and too fast are each counted",
          "[noc][scoreboard]") {
  const Codec c(spec());
  const std::vector<Injection> t = {flit(c, {0, 0}, {2, 1}, 0), flit(c, {0, 0}, {2, 1}, 1, 1),
                                    flit(c, {1, 2}, {0, 0}, 2, 2)};
  {
    RunLog log = perfect(t);
    log.ejections.pop_back();
    const Score s = score_run(c, kMesh, t, log);
    CHECK(s.lost == 1);
    CHECK_FALSE(s.clean());
  }
  {
    RunLog log = perfect(t);
    log.ejections.push_back(log.ejections.front());
    CHECK(score_run(c, kMesh, t, log).duplicated == 1);
  }
  {
    RunLog log = perfect(t);
    std::swap(log.ejections[0].flit, log.ejections[1].flit);  // the pair's second flit first
    const Score s = score_run(c, kMesh, t, log);
    CHECK(s.reordered == 1);
    CHECK(s.lost == 0);
  }
  {
    RunLog log = perfect(t);
    log.ejections[0].flit.set_bits(100, 1, 1);  // a payload bit flipped
    const Score s = score_run(c, kMesh, t, log);
    CHECK(s.corrupted == 1);
    CHECK(s.lost == 1);
  }
  {
    RunLog log = perfect(t);
    log.ejections[0].node = kMesh.index({1, 1});  // handed over at the wrong node
    CHECK(score_run(c, kMesh, t, log).corrupted == 1);
  }
  {
    RunLog log = perfect(t);
    log.ejections[2].cycle = t[2].cycle + 2;  // 3 hops in 2 cycles
    CHECK(score_run(c, kMesh, t, log).too_fast == 1);
  }
  {
    RunLog log = perfect(t);
    log.accepted[2] = kNever;  // never taken in: not lost, just not sent
    log.ejections.erase(log.ejections.begin() + 2);
    const Score s = score_run(c, kMesh, t, log);
    CHECK(s.accepted == 2);
    CHECK(s.lost == 0);
    CHECK(s.clean());
  }
}

TEST_CASE("noc scoreboard: a malformed flit is expected back at its sender as its ERROR flit", "[noc][scoreboard]") {
  const Codec c(spec());
  const std::vector<Injection> t = {flit(c, {1, 0}, {5, 0}, 0)};  // x = 5 is outside the 3 x 3 mesh
  RunLog log;
  log.status = "done";
  log.accepted = {0};
  Flit error = t[0].flit;
  log.ejections.push_back({2, kMesh.index({1, 0}), t[0].flit});  // handed over as it was: wrong
  CHECK(score_run(c, kMesh, t, log).corrupted == 1);
  Header h{1, 0, 1, 0, c.type_code("ERROR"), 0, 1, 0};
  error = Flit{};
  c.set_header(error, h);
  c.set(error, "error.rule", spec().require_error_rule("DST_OUTSIDE_MESH").code);
  c.set(error, "error.header", c.header_bits(t[0].flit));
  log.ejections[0].flit = error;
  const Score s = score_run(c, kMesh, t, log);
  CHECK(s.clean());
  CHECK(s.errors == 1);
}

TEST_CASE("noc scoreboard: two runs compared hand-over by hand-over", "[noc][scoreboard]") {
  const Codec c(spec());
  const std::vector<Injection> t = {flit(c, {0, 0}, {2, 2}, 0), flit(c, {2, 2}, {0, 0}, 1)};
  const RunLog a = perfect(t);
  CHECK(compare_runs(c, a, a, "rtl", "model").empty());
  RunLog b = a;
  b.ejections[1].cycle += 1;
  CHECK_THAT(compare_runs(c, a, b, "rtl", "model"), Catch::Contains("hand-over 1 differs"));
  b = a;
  b.ejections.pop_back();
  CHECK_THAT(compare_runs(c, a, b, "rtl", "model"), Catch::Contains("rtl handed over 2 flits, model 1"));
  b = a;
  b.accepted[0] = 3;
  CHECK_THAT(compare_runs(c, a, b, "rtl", "model"), Catch::Contains("flit 0 was taken in at cycle 0 by rtl, at 3"));
}
