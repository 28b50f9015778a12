// The memory agent's campaign without a simulator (tb/fuzz/agent): random
// cases (reproducible, within the slots' capacity, every port writing its own
// region), the comparison of a run with the model (tb/sim/agent_engine.h:
// compare_agent_runs, on results made up here), shrinking, and reproducers.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz/agent/agent_campaign.h"
#include "model/agent/agent_run.h"
#include "sim/agent_engine.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const noc::Codec& codec() {
  static const noc::Codec c(test::shipped_noc_spec());
  return c;
}

NocParams params(int ports, int slots) {
  return resolve_agent_params(test::shipped_system_node_spec(),
                              {{"MEM_PORTS", std::to_string(ports)}, {"WR_SLOTS", std::to_string(slots)}});
}

/// What an RTL run that sends exactly the model's flits would report.
sim::AgentRtlResult as_model(const agent::AgentStimulus& s, const agent::AgentExpectation& e) {
  sim::AgentRtlResult r;
  r.status = "done";
  for (std::size_t p = 0; p < e.streams.size(); ++p) {
    for (const auto& [key, flits] : e.streams[p])
      for (const auto& f : flits) r.sent.push_back({static_cast<unsigned>(p), key.first, f});
    const auto& c = e.counters[p];
    r.counters.push_back({c.stray_data_flits & 0xFFFF, c.discarded_data_flits & 0xFFFF, c.errors_dropped & 0xFFFF,
                          c.data_last_mismatches & 0xFFFF});
  }
  r.memory = e.memory.bytes();
  (void)s;
  return r;
}

}  // namespace

TEST_CASE("agent campaign: cases are reproducible and write disjoint regions", "[agent][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  for (const auto& [ports, slots] : std::vector<std::pair<int, int>>{{1, 4}, {2, 1}, {4, 2}}) {
    INFO("ports " << ports << " slots " << slots);
    const NocParams p = params(ports, slots);
    const agent::AgentCaseShape shape = agent::case_shape(p);
    std::size_t flits = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      INFO("seed " << seed);
      Rng a(seed), b(seed);
      const agent::AgentCase x = agent::random_case(a, spec, codec(), shape);
      const agent::AgentCase y = agent::random_case(b, spec, codec(), shape);
      CHECK(x.stimulus.ports == y.stimulus.ports);
      CHECK(x.stimulus.image == y.stimulus.image);
      CHECK(x.conditions == y.conditions);
      REQUIRE(static_cast<int>(x.stimulus.ports.size()) == ports);
      flits += agent::case_flits(x);
      // Each port's served writes stay in a region no other port writes, and
      // no read names a word any write names.
      const agent::AgentExpectation e = agent::expect_agent_run(spec, codec(), p, x.stimulus);
      CHECK(e.streams.size() == static_cast<std::size_t>(ports));
    }
    CHECK(flits > 40u * static_cast<std::size_t>(ports));
  }
}

TEST_CASE("agent campaign: the comparison holds a run to the model per (requester, destination)", "[agent][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const NocParams p = params(2, 2);
  // A case with flits to compare on both ports.
  agent::AgentCase c;
  for (std::uint64_t seed = 1;; ++seed) {
    Rng rng(seed);
    c = agent::random_case(rng, spec, codec(), agent::case_shape(p));
    const agent::AgentExpectation e = agent::expect_agent_run(spec, codec(), p, c.stimulus);
    if (e.flits_out[0] >= 10 && e.flits_out[1] >= 10 && e.streams[0].size() >= 2) break;
  }
  const agent::AgentExpectation e = agent::expect_agent_run(spec, codec(), p, c.stimulus);
  sim::AgentRtlResult r = as_model(c.stimulus, e);
  CHECK(sim::compare_agent_runs(codec(), c.stimulus, e, r).match());

  // Another interleaving of different pairs' flits is allowed ...
  sim::AgentRtlResult rev = r;
  for (std::size_t p0 = 0; p0 < 2; ++p0) {  // (the pairs in reverse order, each pair's own order kept)
    rev.sent.clear();
    for (auto it = e.streams[p0].rbegin(); it != e.streams[p0].rend(); ++it)
      for (const auto& f : it->second) rev.sent.push_back({static_cast<unsigned>(p0), it->first.first, f});
    for (const auto& [key, flits] : e.streams[1 - p0])
      for (const auto& f : flits) rev.sent.push_back({static_cast<unsigned>(1 - p0), key.first, f});
    CHECK(sim::compare_agent_runs(codec(), c.stimulus, e, rev).match());
  }
  // Two flits of one pair swapped, one lost, one more, a wrong requester, a counter, a word.
  std::size_t at = 0;
  while (at + 1 < r.sent.size() &&
         !(r.sent[at].port == r.sent[at + 1].port && r.sent[at].requester == r.sent[at + 1].requester &&
           codec().header(r.sent[at].flit).dst() == codec().header(r.sent[at + 1].flit).dst() &&
           !(r.sent[at].flit == r.sent[at + 1].flit)))
    ++at;
  REQUIRE(at + 1 < r.sent.size());
  sim::AgentRtlResult bad = r;
  std::swap(bad.sent[at], bad.sent[at + 1]);
  CHECK_FALSE(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match());
  bad = r;
  bad.sent.erase(bad.sent.begin() + static_cast<std::ptrdiff_t>(at));
  CHECK_FALSE(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match());
  bad = r;
  bad.sent.push_back(r.sent.back());
  CHECK_FALSE(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match());
  bad = r;
  bad.sent[at].requester = {15, 15};
  CHECK_FALSE(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match());
  bad = r;
  bad.counters[1][0] += 1;
  CHECK_FALSE(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match());
  bad = r;
  bad.status = "hang";
  CHECK_FALSE(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match());
  bad = r;
  bad.memory[0] ^= 1;
  const bool settled = e.unsettled.count(c.stimulus.mem_base) == 0;
  CHECK(sim::compare_agent_runs(codec(), c.stimulus, e, bad).match() == !settled);
}

TEST_CASE("agent campaign: a failing case shrinks to the flits that fail it, and its reproducer reads back",
          "[agent][fuzz]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const NocParams p = params(2, 2);
  const std::uint32_t rd = codec().type_code("MEM_RD_REQ");
  const noc::FieldRef stream = codec().field("mem_req.flags.STREAM");
  // The judge fails any case holding a stream read.
  auto judge = [&](const agent::AgentCase& x) -> std::string {
    for (const auto& port : x.stimulus.ports)
      for (const auto& f : port.flits)
        if (codec().header(f.flit).type == rd && stream.get(f.flit) != 0) return "a stream";
    return {};
  };
  agent::AgentCase c;
  for (std::uint64_t seed = 1;; ++seed) {
    Rng rng(seed);
    c = agent::random_case(rng, spec, codec(), agent::case_shape(p));
    if (!judge(c).empty() && agent::case_flits(c) > 30) break;
  }
  const agent::AgentShrunk s = agent::shrink_case(c, "a stream", judge, 400);
  CHECK(agent::case_flits(s.c) == 1);
  CHECK(s.failure == "a stream");
  CHECK(s.c.conditions.latency == 0);

  const std::filesystem::path dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "test_agent_repro";
  std::filesystem::remove_all(dir);
  agent::write_reproducer(codec(), c, "a stream", dir.string(), p, "agent_stream_txn");
  const agent::AgentCase back = agent::read_case(codec(), dir.string());
  CHECK(back.stimulus.ports == c.stimulus.ports);
  CHECK(back.stimulus.image == c.stimulus.image);
  CHECK(back.stimulus.slverr == c.stimulus.slverr);
  CHECK(back.stimulus.mem_base == c.stimulus.mem_base);
  CHECK(back.conditions == c.conditions);
  const std::string replay = test::read_text((dir / "replay.sh").string());
  CHECK(replay.find("tpugen agent fuzz --replay " + dir.string()) != std::string::npos);
  CHECK(replay.find("--mem-ports 2") != std::string::npos);
  CHECK(replay.find("--inject-bug agent_stream_txn") != std::string::npos);
  // A number as a string is whole decimal or 0x hex, and fits 64 bits.
  const nlohmann::json good = nlohmann::json::parse(test::read_text((dir / "case.json").string()));
  for (const char* bad : {"12abc", "99999999999999999999", "-1"}) {
    nlohmann::json j = good;
    j["seed"] = bad;
    test::write_text(dir / "case.json", j.dump());
    CHECK(test::rule_of([&] { (void)agent::read_case(codec(), dir.string()); }) == "fuzz.case");
  }
  nlohmann::json hex = good;
  hex["seed"] = fmt::format("0x{:x}", c.conditions.seed);
  test::write_text(dir / "case.json", hex.dump());
  CHECK(agent::read_case(codec(), dir.string()).conditions == c.conditions);
  test::write_text(dir / "case.json", "{\"latency\": 0");
  CHECK(test::rule_of([&] { (void)agent::read_case(codec(), dir.string()); }) == "fuzz.case");
}
