// tb/model/noc: the mesh's cycle-accurate delivery model (mesh_model.h):
// latencies, delivery and order under load, the ERROR flit, backpressure,
// the arbiters' fairness and the mesh's edge cases.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <deque>
#include <map>
#include <regex>
#include <string>
#include <utility>

#include "model/noc/eject_busy.h"
#include "model/noc/mesh_model.h"
#include "noc/codec.h"
#include "noc/endpoint.h"
#include "noc/routing.h"
#include "spec/noc_spec.h"
#include "test_support.h"
#include "util/rng.h"

using namespace tpugen;
using namespace tpugen::noc;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

const Codec& codec() {
  static const Codec c(spec());
  return c;
}

NocParams params(int nx, int ny, int depth = 32, const std::string& routing = "xy") {
  return resolve_noc_params(spec(), {{"NX", std::to_string(nx)},
                                     {"NY", std::to_string(ny)},
                                     {"DEPTH", std::to_string(depth)},
                                     {"ROUTING", routing}});
}

int hops(Coord a, Coord b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

/// A well-formed data flit from src to dst whose payload's low 64 bits are `id`.
Flit data_flit(Coord src, Coord dst, std::uint64_t id) {
  Header h;
  h.src_x = static_cast<std::uint32_t>(src.x);
  h.src_y = static_cast<std::uint32_t>(src.y);
  h.dst_x = static_cast<std::uint32_t>(dst.x);
  h.dst_y = static_cast<std::uint32_t>(dst.y);
  h.type = codec().type_code("MEM_WR_DATA");
  h.txn = static_cast<std::uint32_t>(id & 0xFF);
  h.last = 1;
  Flit f;
  codec().set_header(f, h);
  f.set_bits(0, 64, id);
  return f;
}

std::uint64_t id_of(const Flit& f) { return f.bits(0, 64); }

/// Every node sends `per_node` flits, one created every cycle from cycle 0,
/// to a destination `dst_of` picks.
template <class DstOf>
std::vector<Injection> flood(const Mesh& m, int per_node, DstOf dst_of) {
  std::vector<Injection> t;
  for (int n = 0; n < m.nodes(); ++n)
    for (int k = 0; k < per_node; ++k)
      t.push_back({static_cast<std::uint64_t>(k), n, data_flit(m.coord(n), dst_of(n), t.size())});
  return t;
}

std::vector<Injection> uniform_flood(const Mesh& m, int per_node, std::uint64_t seed) {
  Rng rng(seed);
  return flood(m, per_node, [&](int) { return m.coord(static_cast<int>(rng.uniform(0, m.nodes() - 1))); });
}

/// Every flit taken in, ejected exactly once, unmodified, at its destination,
/// no sooner than its zero-load latency, and in order per (source, destination).
void check_delivery(const Mesh& m, const std::vector<Injection>& traffic, const RunLog& log) {
  REQUIRE(log.status == "done");
  REQUIRE(log.ejections.size() == traffic.size());
  std::vector<int> seen(traffic.size(), 0);
  std::map<std::pair<int, int>, std::uint64_t> last_of_pair;
  std::uint64_t cycle = 0;
  for (const Ejection& e : log.ejections) {
    REQUIRE(e.cycle >= cycle);  // the log is in cycle order
    cycle = e.cycle;
    const std::uint64_t id = id_of(e.flit);
    REQUIRE(id < traffic.size());
    const Injection& in = traffic[id];
    CHECK(++seen[id] == 1);
    CHECK(e.flit == in.flit);
    const Coord src = m.coord(in.node), dst = codec().header(in.flit).dst();
    CHECK(e.node == m.index(dst));
    REQUIRE(log.accepted[id] != kNever);
    CHECK(log.accepted[id] >= in.cycle);
    CHECK(e.cycle >= log.accepted[id] + 2 + 2 * static_cast<std::uint64_t>(hops(src, dst)));
    const auto pair = std::make_pair(in.node, m.index(dst));
    if (last_of_pair.contains(pair)) CHECK(id > last_of_pair[pair]);  // ids grow in each node's list
    last_of_pair[pair] = id;
  }
}

/// The RTL transcribed signal by signal, as plainly and slowly as it reads:
/// each cycle reads a copy of the registered state (q) and writes the next
/// (st); every router's every port is evaluated, whole flits move, and a
/// head's route is computed from its header. It shares no code with the
/// model beyond the spec's helpers (admit, the routing, its turns), so the
/// model's shortcuts (tokens, masks, skipped routers, one pass) are checked
/// against it cycle for cycle.
RunLog reference_run(const NocParams& p, const std::vector<Injection>& traffic, const RunConditions& cond,
                     std::uint64_t cycles) {
  const Mesh m{p.nx(), p.ny()};
  const int np = static_cast<int>(spec().ports.size()), local = spec().port_index("L");
  const auto depth = static_cast<std::size_t>(p.depth());
  const RouteFn route = routing_function(spec(), p.routing());
  const auto turns = turns_used(spec(), m, route);
  const std::uint64_t busy = busy_threshold(cond.eject_busy);
  struct Port {
    std::deque<Flit> fifo;
    bool valid = false;  // the output register
    Flit data;
    int last = 0, gnt_q = 0;  // the output's arbiter
    bool hold = false;
  };
  const auto idx = [&](int n, int port) { return static_cast<std::size_t>(n * np + port); };
  const auto linked = [&](int n, int port) {
    return port == local || m.contains(neighbour(spec(), m.coord(n), port));
  };
  std::vector<Port> st(idx(m.nodes(), 0));
  std::vector<std::deque<std::size_t>> source(static_cast<std::size_t>(m.nodes()));
  for (std::size_t i = 0; i < traffic.size(); ++i) source[static_cast<std::size_t>(traffic[i].node)].push_back(i);
  RunLog log;
  log.accepted.assign(traffic.size(), kNever);
  for (std::uint64_t t = 0; t < cycles; ++t) {
    const std::vector<Port> q = st;
    const auto ready_in = [&](int n, int port) { return linked(n, port) && q[idx(n, port)].fifo.size() != depth; };
    for (int n = 0; n < m.nodes(); ++n) {
      for (int o = 0; o < np; ++o) {
        if (!linked(n, o)) continue;
        const Port& out = q[idx(n, o)];
        Port& next = st[idx(n, o)];
        const Coord nb = neighbour(spec(), m.coord(n), o);
        const bool ready = o == local ? !eject_busy(cond.seed, n, t, busy)
                                      : ready_in(m.index(nb), opposite_port(spec(), o));
        if (out.valid && ready) {
          if (o == local) log.ejections.push_back({t, n, out.data});
          else st[idx(m.index(nb), opposite_port(spec(), o))].fifo.push_back(out.data);
        }
        std::vector<bool> req(static_cast<std::size_t>(np), false);
        for (int i = 0; i < np; ++i) {
          const Port& in = q[idx(n, i)];
          if (!linked(n, i) || in.fifo.empty()) continue;
          const int want = route(m.coord(n), i, codec().header(in.fifo.front()).dst());
          req[static_cast<std::size_t>(i)] =
              want == o && turns[static_cast<std::size_t>(i)][static_cast<std::size_t>(o)];
        }
        int pick = -1;
        for (int k = 1; k <= np && pick < 0; ++k)
          if (req[static_cast<std::size_t>((out.last + k) % np)]) pick = (out.last + k) % np;
        const int gnt = out.hold ? out.gnt_q : pick;
        const bool arb_valid = gnt >= 0 && req[static_cast<std::size_t>(gnt)];
        const bool room = !out.valid || ready;
        next.hold = arb_valid && !room;
        next.gnt_q = gnt;
        if (arb_valid && room) {
          next.last = gnt;
          next.valid = true;
          next.data = q[idx(n, gnt)].fifo.front();
          st[idx(n, gnt)].fifo.pop_front();
        } else if (out.valid && ready) {
          next.valid = false;
        }
      }
      auto& src = source[static_cast<std::size_t>(n)];
      if (!src.empty() && traffic[src.front()].cycle <= t && ready_in(n, local)) {
        log.accepted[src.front()] = t;
        st[idx(n, local)].fifo.push_back(admit(codec(), traffic[src.front()].flit, Endpoint{m.nx, m.ny, m.coord(n)}));
        src.pop_front();
      }
    }
  }
  log.cycles = cycles;
  return log;
}

/// Each node creates a flit in a cycle with probability rate (Bernoulli),
/// to a uniform random node; one in `bad_den` (0: none) is malformed.
std::vector<Injection> bernoulli(const Mesh& m, int per_node, std::uint64_t rate_percent, std::uint64_t bad_den,
                                 std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Injection> t;
  for (int n = 0; n < m.nodes(); ++n) {
    std::uint64_t cycle = 0;
    for (int k = 0; k < per_node; ++k) {
      while (!rng.chance(rate_percent, 100)) ++cycle;
      Coord dst = m.coord(static_cast<int>(rng.uniform(0, m.nodes() - 1)));
      if (bad_den != 0 && rng.chance(1, bad_den)) dst.x = m.nx;  // outside the mesh
      t.push_back({cycle++, n, data_flit(m.coord(n), dst, t.size())});
    }
  }
  return t;
}

}  // namespace

TEST_CASE("noc model: zero-load latency is 2 cycles a hop plus 2, for every pair of a 3x5 mesh", "[noc][model]") {
  const Mesh m{3, 5};
  // One flit at a time: 32 cycles apart, far more than the longest path takes.
  std::vector<Injection> traffic;
  for (int s = 0; s < m.nodes(); ++s)
    for (int d = 0; d < m.nodes(); ++d)
      traffic.push_back({32 * traffic.size(), s, data_flit(m.coord(s), m.coord(d), traffic.size())});
  const RunLog log = run_mesh_model(spec(), params(3, 5), traffic, {});
  check_delivery(m, traffic, log);
  for (const Ejection& e : log.ejections) {
    const std::uint64_t id = id_of(e.flit);
    const Injection& in = traffic[id];
    INFO("flit " << id << " from node " << in.node << " to node " << e.node);
    CHECK(log.accepted[id] == in.cycle);
    CHECK(e.cycle == in.cycle + 2 + 2 * static_cast<std::uint64_t>(hops(m.coord(in.node), m.coord(e.node))));
  }
  CHECK(log.cycles == log.ejections.back().cycle + 1);
}

TEST_CASE("noc model: a flit to its own node is ejected 2 cycles after it is taken in", "[noc][model]") {
  const Coord at{1, 2};
  const std::vector<Injection> traffic{{5, 7, data_flit(at, at, 0)}};
  const RunLog log = run_mesh_model(spec(), params(3, 5), traffic, {});
  REQUIRE(log.status == "done");
  CHECK(log.accepted == std::vector<std::uint64_t>{5});
  REQUIRE(log.ejections.size() == 1);
  CHECK(log.ejections[0].cycle == 7);
  CHECK(log.ejections[0].node == 7);
  CHECK(log.ejections[0].flit == traffic[0].flit);
  CHECK(log.cycles == 8);
  CHECK(log.stuck.empty());
}

TEST_CASE("noc model: one node streams at one flit a cycle, nothing at all is done at once", "[noc][model]") {
  const Mesh m{3, 1};
  std::vector<Injection> traffic;
  for (std::uint64_t k = 0; k < 20; ++k) traffic.push_back({k, 0, data_flit({0, 0}, {2, 0}, k)});
  const RunLog log = run_mesh_model(spec(), params(3, 1, 2), traffic, {});
  check_delivery(m, traffic, log);
  for (std::uint64_t k = 0; k < 20; ++k) {
    CHECK(log.accepted[k] == k);
    CHECK(log.ejections[k].cycle == k + 6);
  }
  const RunLog none = run_mesh_model(spec(), params(3, 1), {}, {});
  CHECK(none.status == "done");
  CHECK(none.cycles == 0);
}

TEST_CASE("noc model: after reset, each output's round robin serves the first requester after port 0", "[noc][model]") {
  // Nodes 0 and 2 of a 3x1 row both send to node 1 in cycle 0: the flits
  // reach node 1's W and E FIFOs together, and its local output takes E
  // (port 1, the first after last_q = 0) first, then W (port 3).
  const std::vector<Injection> traffic{{0, 0, data_flit({0, 0}, {1, 0}, 0)}, {0, 2, data_flit({2, 0}, {1, 0}, 1)}};
  const RunLog log = run_mesh_model(spec(), params(3, 1), traffic, {});
  REQUIRE(log.status == "done");
  REQUIRE(log.ejections.size() == 2);
  CHECK(id_of(log.ejections[0].flit) == 1);
  CHECK(log.ejections[0].cycle == 4);
  CHECK(id_of(log.ejections[1].flit) == 0);
  CHECK(log.ejections[1].cycle == 5);
}

TEST_CASE("noc model: a 4x4 flood to random nodes delivers every flit once, unmodified, in order per pair",
          "[noc][model]") {
  const Mesh m{4, 4};
  const auto traffic = uniform_flood(m, 200, 11);
  for (const double busy : {0.0, 0.3}) {
    INFO("eject busy " << busy);
    RunConditions cond;
    cond.eject_busy = busy;
    cond.seed = 5;
    MeshModelStats stats;
    const RunLog log = run_mesh_model(spec(), params(4, 4), traffic, cond, &stats);
    check_delivery(m, traffic, log);
    CHECK(stats.link_transfers > 0);
    CHECK(stats.max_grants_waited <= spec().ports.size() - 1);
    // The same run again is the same run, cycle for cycle.
    const RunLog again = run_mesh_model(spec(), params(4, 4), traffic, cond);
    CHECK(again.accepted == log.accepted);
    CHECK(again.cycles == log.cycles);
  }
}

TEST_CASE("noc model: a malformed flit comes back to its sender as the ERROR flit of the local check",
          "[noc][model]") {
  const Mesh m{3, 3};
  const Coord at{1, 1};
  const Flit outside = data_flit(at, {3, 0}, 1);   // dst_x == NX
  const Flit not_mine = data_flit({0, 2}, {2, 2}, 2);  // src is not the sender
  const std::vector<Injection> traffic{{0, m.index(at), outside}, {10, m.index(at), not_mine}};
  const RunLog log = run_mesh_model(spec(), params(3, 3), traffic, {});
  REQUIRE(log.status == "done");
  REQUIRE(log.ejections.size() == 2);
  const Endpoint ep{3, 3, at};
  CHECK(log.ejections[0].flit == admit(codec(), outside, ep));
  CHECK(log.ejections[1].flit == admit(codec(), not_mine, ep));
  for (const Ejection& e : log.ejections) {
    CHECK(e.node == m.index(at));
    CHECK(codec().header(e.flit).type == codec().type_code("ERROR"));
  }
  CHECK(codec().get(log.ejections[0].flit, "error.rule") == spec().require_error_rule("DST_OUTSIDE_MESH").code);
  CHECK(codec().get(log.ejections[1].flit, "error.rule") == spec().require_error_rule("SRC_NOT_SENDER").code);
  CHECK(log.ejections[0].cycle == 2);
  CHECK(log.ejections[1].cycle == 12);
}

TEST_CASE("noc model: ejection ports that are always busy stall the run, naming where flits wait", "[noc][model]") {
  const Mesh m{3, 3};
  const auto traffic = uniform_flood(m, 100, 3);
  RunConditions cond;
  cond.eject_busy = 1.0;
  cond.watchdog = 100;
  const RunLog log = run_mesh_model(spec(), params(3, 3, 4), traffic, cond);
  CHECK(log.status == "stalled");
  CHECK(log.ejections.empty());
  CHECK(log.cycles < cond.max_cycles);
  REQUIRE_FALSE(log.stuck.empty());
  const std::regex line(R"(router \([0-2],[0-2]\) (input [NESWL] \(head|output [NESWL] \(a flit) for \([0-2],[0-2]\)\))");
  for (const auto& s : log.stuck) CHECK(std::regex_match(s, line));
  // Every local FIFO is full behind its blocked flits, and every local output
  // register holds a flit its endpoint does not take.
  for (int n = 0; n < m.nodes(); ++n) {
    const Coord c = m.coord(n);
    const std::string router = "router (" + std::to_string(c.x) + "," + std::to_string(c.y) + ") ";
    for (const std::string& prefix : {router + "input L", router + "output L"}) {
      bool named = false;
      for (const auto& s : log.stuck) named = named || s.starts_with(prefix);
      INFO(prefix);
      CHECK(named);
    }
  }

  // One flit, waiting in its local output register: no FIFO holds it, the
  // register is named.
  const RunLog alone = run_mesh_model(spec(), params(1, 1), {{0, 0, data_flit({0, 0}, {0, 0}, 0)}}, cond);
  CHECK(alone.status == "stalled");
  REQUIRE(alone.stuck.size() == 1);
  CHECK(alone.stuck[0] == "router (0,0) output L (a flit for (0,0))");
  // Taken in at cycle 0; its step into the register (cycle 1) moves it
  // between no routers, so the watchdog counts from cycle 1.
  CHECK(alone.cycles == 1 + cond.watchdog);

  RunConditions short_run;
  short_run.max_cycles = 5;
  const RunLog cut = run_mesh_model(spec(), params(3, 3), traffic, short_run);
  CHECK(cut.status == "timeout");
  CHECK(cut.cycles == 5);
}

TEST_CASE("noc model: under a hotspot flood no input waits more than PORTS - 1 grants", "[noc][model]") {
  const Mesh m{4, 4};
  const Coord hot{1, 2};
  const auto traffic = flood(m, 100, [&](int) { return hot; });
  MeshModelStats stats;
  const RunLog log = run_mesh_model(spec(), params(4, 4), traffic, {}, &stats);
  check_delivery(m, traffic, log);
  // The hotspot's local output has five requesters (N, E, S, W and its own
  // node): round robin makes the one just served wait for the other four.
  CHECK(stats.max_grants_waited == spec().ports.size() - 1);
  // The hotspot's ejection port is the bottleneck: one flit a cycle.
  CHECK(log.cycles < traffic.size() + 40);
}

TEST_CASE("noc model: FIFOs of depth 2, YX routing, and 1x1 and 1x6 meshes deliver everything", "[noc][model]") {
  SECTION("4x4, DEPTH 2") {
    const Mesh m{4, 4};
    const auto traffic = uniform_flood(m, 200, 21);
    RunConditions cond;
    cond.eject_busy = 0.3;
    check_delivery(m, traffic, run_mesh_model(spec(), params(4, 4, 2), traffic, cond));
  }
  SECTION("4x4, YX") {
    const Mesh m{4, 4};
    const auto traffic = uniform_flood(m, 100, 22);
    check_delivery(m, traffic, run_mesh_model(spec(), params(4, 4, 32, "yx"), traffic, {}));
  }
  SECTION("1x1") {
    const Mesh m{1, 1};
    const auto traffic = uniform_flood(m, 50, 23);
    const RunLog log = run_mesh_model(spec(), params(1, 1), traffic, {});
    check_delivery(m, traffic, log);
    for (std::size_t k = 0; k < traffic.size(); ++k) CHECK(log.ejections[k].cycle == k + 2);
  }
  SECTION("1x6") {
    const Mesh m{1, 6};
    const auto traffic = uniform_flood(m, 100, 24);
    RunConditions cond;
    cond.eject_busy = 0.3;
    check_delivery(m, traffic, run_mesh_model(spec(), params(1, 6, 2), traffic, cond));
  }
}

TEST_CASE("noc model: an injection at a node outside the mesh is refused", "[noc][model]") {
  const std::vector<Injection> traffic{{0, 6, data_flit({0, 0}, {0, 0}, 0)}};
  CHECK_THROWS_WITH(run_mesh_model(spec(), params(3, 2), traffic, {}), Catch::Contains("injection 0 is at node 6"));
}

TEST_CASE("noc model: equals the RTL transcribed signal by signal, cycle for cycle", "[noc][model]") {
  struct Case {
    int nx, ny, depth;
    const char* routing;
    int per_node;
    std::uint64_t rate, bad_den;
    double busy;
  };
  const Case cases[] = {
      {4, 4, 2, "xy", 60, 100, 0, 0.0}, {4, 4, 4, "xy", 60, 50, 9, 0.3}, {3, 5, 3, "yx", 40, 70, 0, 0.5},
      {1, 6, 2, "xy", 50, 100, 7, 0.2}, {1, 1, 2, "xy", 30, 60, 5, 0.4}, {5, 2, 8, "yx", 40, 30, 0, 0.1},
  };
  std::uint64_t seed = 100;
  for (const Case& c : cases) {
    INFO(c.nx << "x" << c.ny << " DEPTH " << c.depth << " " << c.routing << " rate " << c.rate << "% busy " << c.busy);
    const Mesh m{c.nx, c.ny};
    const auto traffic = bernoulli(m, c.per_node, c.rate, c.bad_den, ++seed);
    RunConditions cond;
    cond.eject_busy = c.busy;
    cond.seed = seed;
    const NocParams p = params(c.nx, c.ny, c.depth, c.routing);
    const RunLog log = run_mesh_model(spec(), p, traffic, cond);
    REQUIRE(log.status == "done");
    const RunLog ref = reference_run(p, traffic, cond, log.cycles);
    CHECK(log.accepted == ref.accepted);
    REQUIRE(log.ejections.size() == ref.ejections.size());
    for (std::size_t k = 0; k < ref.ejections.size(); ++k) {
      INFO("ejection " << k);
      CHECK(log.ejections[k].cycle == ref.ejections[k].cycle);
      CHECK(log.ejections[k].node == ref.ejections[k].node);
      CHECK(log.ejections[k].flit == ref.ejections[k].flit);
    }
  }
}
