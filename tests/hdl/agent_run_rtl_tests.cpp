// The memory agent's top (tpu_noc_mem_agent) under Verilator through its
// engine (tb/sim/agent_engine.h) on directed stimuli, held against the
// reference model (compare_agent_runs) and against the contract's answers
// written out: a port whose every write slot is open refuses one more write
// (WRITE_SLOTS_FULL) instead of waiting for a slot at the head of its queue,
// where the open write's data, queued behind the request, would never reach
// it (mover-notes §6: "no input may hang the agent").
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "agent_flits_support.h"
#include "memory_image_support.h"
#include "model/agent/agent_run.h"
#include "sim/agent_engine.h"
#include "test_support.h"

using namespace tpugen;
using noc::Coord;
using noc::Flit;

namespace {

const noc::Codec& codec() {
  static const noc::Codec c(test::shipped_noc_spec());
  return c;
}

constexpr Coord kPort{0, 0}, kA{2, 3}, kB{3, 1};

}  // namespace

TEST_CASE("agent rtl: a write finding every slot open is refused WRITE_SLOTS_FULL and the port does not hang",
          "[hdl][agent]") {
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const NocParams params = resolve_agent_params(spec, {{"WR_SLOTS", "1"}, {"INTAKE_DEPTH", "2"}});
  const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec), params);
  const std::filesystem::path sim = sim::ensure_agent_simulator(ctx, TPUGEN_BINARY_DIR "/rtl-cache",
                                                                [](const std::string& line) { WARN(line); });
  const std::uint64_t base = test::kImageBase;
  // A opens the one slot; B's request comes before A's data; then B's data,
  // stray; B again, once A's write has closed.
  const Flit a_req = test::request_flit(codec(), kPort, {test::kWrReq, kA, 1, base + 0x100, 1});
  const Flit b_req = test::request_flit(codec(), kPort, {test::kWrReq, kB, 2, base + 0x200, 0});
  const Flit b_again = test::request_flit(codec(), kPort, {test::kWrReq, kB, 3, base + 0x200, 0});
  agent::AgentStimulus s;
  s.mem_base = base;
  s.image = test::patterned_image().bytes();
  s.ports.push_back({kPort,
                     {{0, a_req},
                      {0, b_req},
                      {0, test::data_flit(codec(), kPort, kA, test::word_of_seed(1), false)},
                      {0, test::data_flit(codec(), kPort, kA, test::word_of_seed(2), true)},
                      {0, test::data_flit(codec(), kPort, kB, test::word_of_seed(3), true)},
                      {0, b_again},
                      {0, test::data_flit(codec(), kPort, kB, test::word_of_seed(4), true)}}});
  const agent::AgentExpectation model = agent::expect_agent_run(spec, codec(), params, s);
  REQUIRE(model.counters.size() == 1);
  CHECK(model.counters[0].stray_data_flits == 1);

  for (const unsigned latency : {0U, 20U}) {
    INFO("latency " << latency);
    sim::AgentRunConditions rc;
    rc.latency = latency;
    rc.backpressure = {latency ? 0.5 : 0.0};
    rc.max_cycles = 20000;
    const sim::AgentRtlResult rtl = sim::run_agent_rtl(sim, codec(), s, rc);
    INFO(rtl.output);
    REQUIRE(rtl.status == "done");
    CHECK(rtl.clean());
    const sim::AgentComparison cmp = sim::compare_agent_runs(codec(), s, model, rtl);
    for (const std::string& d : cmp.differences) UNSCOPED_INFO(d);
    CHECK(cmp.match());
    // The contract's answers, written out: per requester, in order.
    std::vector<Flit> to_a, to_b;
    for (const sim::AgentSent& f : rtl.sent) (f.requester == kA ? to_a : to_b).push_back(f.flit);
    CHECK(to_a == std::vector<Flit>{test::wr_ack_flit(codec(), kPort, kA, 1)});
    CHECK(to_b == std::vector<Flit>{test::error_flit_to(codec(), kPort, kB, b_req, test::kWriteSlotsFull),
                                    test::wr_ack_flit(codec(), kPort, kB, 3)});
    CHECK(rtl.counters.at(0)[0] == 1);  // the refused write's data flit: stray
    const mover::MoverMemory after(base, rtl.memory);
    CHECK(test::image_word(after, base + 0x100) == test::word_of_seed(1));
    CHECK(test::image_word(after, base + 0x120) == test::word_of_seed(2));
    CHECK(test::image_word(after, base + 0x200) == test::word_of_seed(4));
  }
}
