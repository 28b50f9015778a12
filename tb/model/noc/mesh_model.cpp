#include "model/noc/mesh_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>

#include "model/noc/eject_busy.h"
#include "noc/codec.h"
#include "noc/endpoint.h"
#include "noc/routing.h"
#include "util/diag.h"

namespace tpugen::noc {

namespace {

// A router's sets of ports (linked ones, non-empty FIFOs, full output
// registers, an arbiter's requests) are bit masks: port p is bit p.
constexpr int kMaxPorts = 8;

/// A flit on its way: its id (its index in the traffic list) and its
/// destination node (from the admitted flit), all a router reads of it. The
/// FIFOs, the output registers and the pushes of a cycle move these 8 bytes,
/// not the 64 of the flit, which is read once more when it is ejected.
struct Token {
  std::uint32_t id = 0;
  std::uint32_t dst = 0;
};

/// One input FIFO (tpu_fifo) as a ring of `depth` tokens, and what its head asks for.
struct Fifo {
  std::uint32_t rd = 0, count = 0;
  int head_out = -1;                  ///< the output the head asks for; -1: empty, or the turn is not built
  std::uint64_t popped_at = kNever;   ///< the last cycle a head left
};

/// One output: its register (tpu_out_reg), its arbiter (tpu_rr_arb) and where its link leads.
struct Output {
  Token flit;                   ///< the register's flit (valid: the node's out mask)
  int last = 0, gnt_q = 0;      ///< last_q and gnt_q (as an index)
  bool hold = false;            ///< hold_q
  int to_node = 0, to_port = 0; ///< a linked neighbour output: the FIFO it feeds
};

/// A flit that enters a FIFO at the end of the cycle: over a link, or from
/// the node's source queue.
struct Push {
  int node = 0, port = 0;
  Token flit;
};

/// The whole mesh's registered state and the one cycle that updates it.
class MeshSim {
 public:
  MeshSim(const NocSpec& spec, const NocParams& params, const std::vector<Injection>& traffic,
          const RunConditions& cond);

  RunLog run(MeshModelStats* stats);

 private:
  [[nodiscard]] std::size_t slot(int node, int port) const {
    return static_cast<std::size_t>(node) * static_cast<std::size_t>(ports_) + static_cast<std::size_t>(port);
  }
  void build_routes(const NocSpec& spec, const std::string& routing);
  void build_sources();

  /// One cycle; true when a flit was taken in, crossed a link or was ejected.
  bool step(std::uint64_t t);
  void hand_over(int node, std::uint64_t t, bool& moved);
  void inject(int node, std::uint64_t t, bool& moved);
  void arbitrate(int node, std::uint64_t t);
  void note_grant(std::size_t out_slot, std::uint32_t requests, int granted);

  /// A FIFO's count at the start of cycle t: pushes wait for the cycle's
  /// end, and a pop of this cycle (its router may come first) is added back.
  [[nodiscard]] std::uint32_t count_at_start(const Fifo& f, std::uint64_t t) const {
    return f.count + (f.popped_at == t ? 1U : 0U);
  }
  void push(int node, int port, Token flit);
  Token pop(int node, int port, std::uint64_t t);
  /// The output a FIFO's head asks for: -1 when the crossbar lacks the turn.
  [[nodiscard]] int route_of(std::size_t fifo, Token flit) const {
    return route_[fifo * static_cast<std::size_t>(nodes_) + flit.dst];
  }

  Token admit_flit(int node, std::uint32_t id);
  [[nodiscard]] const Flit& flit_of(std::uint32_t id) const {
    const std::int32_t e = error_of_[id];
    return e < 0 ? traffic_[id].flit : errors_[static_cast<std::size_t>(e)];
  }
  [[nodiscard]] bool finished() const { return accepted_ == traffic_.size() && ejected_ == accepted_; }
  [[nodiscard]] bool in_flight() const { return accepted_ > ejected_; }
  [[nodiscard]] std::vector<std::string> stuck() const;

  const NocSpec& spec_;
  const std::vector<Injection>& traffic_;
  const RunConditions& cond_;
  Codec codec_;
  Mesh mesh_;
  int nodes_ = 0, ports_ = 0, local_ = 0;
  std::uint32_t depth_ = 0;
  std::uint64_t busy_ = 0;  ///< the eject busy threshold

  // The wiring, fixed at build.
  std::vector<std::uint32_t> linked_;  ///< per node: its linked ports
  std::vector<std::int8_t> route_;     ///< per (node, input, destination node): the output, -1 not built
  std::vector<std::int8_t> pick_;      ///< per (last, requests): the round robin's pick

  // The source queues: per node, its injection ids in list order, and the
  // cycle its head is offered from (kNever when the queue is empty).
  std::vector<std::uint32_t> src_order_;
  std::vector<std::size_t> src_next_, src_end_;
  std::vector<std::uint64_t> src_from_;

  // What each flit became at its local input: its ERROR flit in errors_, or
  // -1 when admitted unchanged.
  std::vector<std::int32_t> error_of_;
  std::vector<Flit> errors_;

  // The registered state: per (node, port) a FIFO and an output, per node
  // the masks of its non-empty FIFOs and full output registers.
  std::vector<Fifo> fifo_;
  std::vector<Token> mem_;             ///< the FIFOs' rings, depth_ tokens each
  std::vector<Output> out_;
  std::vector<std::uint32_t> in_mask_, out_mask_;
  std::vector<std::uint32_t> passed_;  ///< per (node, output, input): grants to others while it waits

  std::vector<Push> pushes_;
  std::size_t accepted_ = 0, ejected_ = 0;
  RunLog log_;
  MeshModelStats stats_;
};

MeshSim::MeshSim(const NocSpec& spec, const NocParams& params, const std::vector<Injection>& traffic,
                 const RunConditions& cond)
    : spec_(spec), traffic_(traffic), cond_(cond), codec_(spec), mesh_{params.nx(), params.ny()} {
  nodes_ = mesh_.nodes();
  ports_ = static_cast<int>(spec.ports.size());
  if (ports_ > kMaxPorts)
    throw Error("noc.spec", fmt::format("the delivery model holds routers of at most {} ports; the spec has {}",
                                        kMaxPorts, ports_),
                spec.section("ports"));
  local_ = port_of_step(spec, 0, 0);
  depth_ = static_cast<std::uint32_t>(params.depth());
  busy_ = busy_threshold(cond.eject_busy);
  const std::size_t ports = slot(nodes_, 0);
  fifo_.assign(ports, Fifo{});
  mem_.assign(ports * depth_, Token{});
  out_.assign(ports, Output{});
  in_mask_.assign(static_cast<std::size_t>(nodes_), 0);
  out_mask_.assign(static_cast<std::size_t>(nodes_), 0);
  passed_.assign(ports * static_cast<std::size_t>(ports_), 0);
  build_routes(spec, params.routing());
  build_sources();
  error_of_.assign(traffic.size(), -1);
  log_.accepted.assign(traffic.size(), kNever);
  log_.ejections.reserve(traffic.size());
}

void MeshSim::build_routes(const NocSpec& spec, const std::string& routing) {
  const RouteFn route = routing_function(spec, routing);
  const auto turns = turns_used(spec, mesh_, route);
  linked_.assign(static_cast<std::size_t>(nodes_), 0);
  for (int n = 0; n < nodes_; ++n) {
    const Coord here = mesh_.coord(n);
    for (int p = 0; p < ports_; ++p) {
      if (p == local_) {
        linked_[static_cast<std::size_t>(n)] |= 1U << p;
        continue;
      }
      const Coord there = neighbour(spec, here, p);
      if (!mesh_.contains(there)) continue;
      linked_[static_cast<std::size_t>(n)] |= 1U << p;
      out_[slot(n, p)].to_node = mesh_.index(there);
      out_[slot(n, p)].to_port = opposite_port(spec, p);
    }
  }
  // tpu_noc_router's `built`: a head asks for an output only through a turn
  // the routing takes somewhere (TURNS) between two linked ports; a head
  // that wants any other would wait forever, and so it does here.
  route_.assign(slot(nodes_, 0) * static_cast<std::size_t>(nodes_), -1);
  for (int n = 0; n < nodes_; ++n) {
    const std::uint32_t links = linked_[static_cast<std::size_t>(n)];
    for (int in = 0; in < ports_; ++in) {
      if ((links >> in & 1U) == 0) continue;
      for (int d = 0; d < nodes_; ++d) {
        const int out = route(mesh_.coord(n), in, mesh_.coord(d));
        const bool built = turns[static_cast<std::size_t>(in)][static_cast<std::size_t>(out)] && (links >> out & 1U);
        route_[slot(n, in) * static_cast<std::size_t>(nodes_) + static_cast<std::size_t>(d)] =
            static_cast<std::int8_t>(built ? out : -1);
      }
    }
  }
  // tpu_rr_arb's pick: the first requester after last_q, cyclically, last_q itself last.
  const std::uint32_t masks = 1U << ports_;
  pick_.assign(static_cast<std::size_t>(ports_) * masks, -1);
  for (int last = 0; last < ports_; ++last)
    for (std::uint32_t m = 1; m < masks; ++m)
      for (int k = 1; k <= ports_; ++k) {
        const int cand = (last + k) % ports_;
        if ((m >> cand & 1U) != 0) {
          pick_[static_cast<std::size_t>(last) * masks + m] = static_cast<std::int8_t>(cand);
          break;
        }
      }
}

void MeshSim::build_sources() {
  // A stable counting sort by node: each node's ids in the list's order.
  std::vector<std::size_t> per_node(static_cast<std::size_t>(nodes_) + 1, 0);
  for (std::size_t i = 0; i < traffic_.size(); ++i) {
    const int n = traffic_[i].node;
    if (n < 0 || n >= nodes_)
      throw Error("noc.traffic", fmt::format("injection {} is at node {}; a {}x{} mesh has nodes 0 .. {}", i, n,
                                             mesh_.nx, mesh_.ny, nodes_ - 1));
    ++per_node[static_cast<std::size_t>(n) + 1];
  }
  for (std::size_t n = 1; n < per_node.size(); ++n) per_node[n] += per_node[n - 1];
  src_next_.assign(per_node.begin(), per_node.end() - 1);
  src_end_.assign(per_node.begin() + 1, per_node.end());
  src_order_.assign(traffic_.size(), 0);
  std::vector<std::size_t> fill = src_next_;
  for (std::size_t i = 0; i < traffic_.size(); ++i)
    src_order_[fill[static_cast<std::size_t>(traffic_[i].node)]++] = static_cast<std::uint32_t>(i);
  src_from_.assign(static_cast<std::size_t>(nodes_), kNever);
  for (std::size_t n = 0; n < src_from_.size(); ++n)
    if (src_next_[n] != src_end_[n]) src_from_[n] = traffic_[src_order_[src_next_[n]]].cycle;
}

RunLog MeshSim::run(MeshModelStats* stats) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t t = 0, idle = 0;
  while (true) {
    if (finished()) {
      log_.status = "done";
      break;
    }
    if (t >= cond_.max_cycles) {
      log_.status = "timeout";
      break;
    }
    const bool moved = step(t++);
    idle = (moved || !in_flight()) ? 0 : idle + 1;
    if (cond_.watchdog != 0 && idle >= cond_.watchdog) {
      log_.status = "stalled";
      log_.stuck = stuck();
      break;
    }
  }
  log_.cycles = t;
  log_.sim_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log_.cycles_per_second = log_.sim_seconds > 0.0 ? static_cast<double>(t) / log_.sim_seconds : 0.0;
  if (stats) *stats = stats_;
  return std::move(log_);
}

// Two phases in one pass over the routers: everything the cycle decides is
// read from the state at its start, and the FIFOs take their pushes at its
// end. A router's FIFOs are popped only by the router itself, after its own
// decisions; what a later router reads of an earlier one (the count of the
// FIFO its output feeds) has that cycle's pop added back. So no router sees
// another's update of the same cycle, and their order does not matter.
bool MeshSim::step(std::uint64_t t) {
  bool moved = false;
  pushes_.clear();
  for (int n = 0; n < nodes_; ++n) {
    if (out_mask_[static_cast<std::size_t>(n)] != 0) hand_over(n, t, moved);
    if (src_from_[static_cast<std::size_t>(n)] <= t) inject(n, t, moved);
    if (in_mask_[static_cast<std::size_t>(n)] != 0) arbitrate(n, t);
  }
  for (const Push& p : pushes_) push(p.node, p.port, p.flit);
  return moved;
}

// tpu_out_reg: a full register whose receiver is ready hands its flit over
// (and is empty unless the arbiter loads it again below). A link's ready is
// the receiving FIFO not full; the local port's is the endpoint not busy.
void MeshSim::hand_over(int n, std::uint64_t t, bool& moved) {
  std::uint32_t& full = out_mask_[static_cast<std::size_t>(n)];
  for (std::uint32_t m = full; m != 0; m &= m - 1) {
    const int o = std::countr_zero(m);
    const Output& out = out_[slot(n, o)];
    if (o == local_) {
      if (eject_busy(cond_.seed, n, t, busy_)) continue;
      log_.ejections.push_back({t, n, flit_of(out.flit.id)});
      ++ejected_;
    } else {
      if (count_at_start(fifo_[slot(out.to_node, out.to_port)], t) == depth_) continue;
      pushes_.push_back({out.to_node, out.to_port, out.flit});
      ++stats_.link_transfers;
    }
    full &= ~(1U << o);
    moved = true;
  }
}

// The source queue's head is offered from its cycle on; the local FIFO takes
// it when not full at the start of the cycle, through the endpoint check.
void MeshSim::inject(int n, std::uint64_t t, bool& moved) {
  const auto node = static_cast<std::size_t>(n);
  if (count_at_start(fifo_[slot(n, local_)], t) == depth_) return;
  const std::uint32_t id = src_order_[src_next_[node]];
  pushes_.push_back({n, local_, admit_flit(n, id)});
  log_.accepted[id] = t;
  ++accepted_;
  moved = true;
  src_from_[node] = ++src_next_[node] == src_end_[node] ? kNever : traffic_[src_order_[src_next_[node]]].cycle;
}

// tpu_rr_arb per output, then tpu_out_reg's load. The requests are all
// gathered before the first pop, so a head that moves up behind a popped one
// asks for nothing until the next cycle.
void MeshSim::arbitrate(int n, std::uint64_t t) {
  std::array<std::uint32_t, kMaxPorts> requests{};
  std::uint32_t outs = 0;
  for (std::uint32_t m = in_mask_[static_cast<std::size_t>(n)]; m != 0; m &= m - 1) {
    const int i = std::countr_zero(m);
    const int o = fifo_[slot(n, i)].head_out;
    if (o < 0) continue;
    requests[static_cast<std::size_t>(o)] |= 1U << i;
    outs |= 1U << o;
  }
  const std::uint32_t masks = 1U << ports_;
  std::uint32_t& full = out_mask_[static_cast<std::size_t>(n)];
  for (; outs != 0; outs &= outs - 1) {
    const int o = std::countr_zero(outs);
    const std::size_t q = slot(n, o);
    Output& out = out_[q];
    const std::uint32_t req = requests[static_cast<std::size_t>(o)];
    // A held grant's requester still asks: its head did not leave (only this
    // output could take it), so arb_valid holds whenever hold_q does.
    const int g = out.hold ? out.gnt_q : pick_[static_cast<std::size_t>(out.last) * masks + req];
    if ((full >> o & 1U) != 0) {  // no room: the register keeps a flit its receiver did not take
      out.hold = true;
      out.gnt_q = g;
      continue;
    }
    out.flit = pop(n, g, t);
    full |= 1U << o;
    out.last = g;
    out.hold = false;
    note_grant(q, req, g);
  }
}

// tpu_rr_arb's fairness counter: a grant counts for every other requester;
// the granted one's count restarts. A requester stops asking for this output
// only when this output takes its head, so no other reset is needed.
void MeshSim::note_grant(std::size_t out_slot, std::uint32_t requests, int granted) {
  std::uint32_t* passed = &passed_[out_slot * static_cast<std::size_t>(ports_)];
  passed[granted] = 0;
  for (std::uint32_t m = requests & ~(1U << granted); m != 0; m &= m - 1) {
    const std::uint32_t waited = ++passed[std::countr_zero(m)];
    stats_.max_grants_waited = std::max<std::uint64_t>(stats_.max_grants_waited, waited);
  }
}

// tpu_fifo: a push is only ever made into a FIFO that was not full at the
// start of the cycle, so depth_ entries always suffice.
void MeshSim::push(int n, int port, Token flit) {
  const std::size_t q = slot(n, port);
  Fifo& f = fifo_[q];
  std::uint32_t w = f.rd + f.count;
  if (w >= depth_) w -= depth_;
  mem_[q * depth_ + w] = flit;
  if (f.count++ == 0) {
    f.head_out = route_of(q, flit);
    in_mask_[static_cast<std::size_t>(n)] |= 1U << port;
  }
}

Token MeshSim::pop(int n, int port, std::uint64_t t) {
  const std::size_t q = slot(n, port);
  Fifo& f = fifo_[q];
  const Token flit = mem_[q * depth_ + f.rd];
  f.rd = f.rd + 1 == depth_ ? 0 : f.rd + 1;
  f.popped_at = t;
  if (--f.count == 0) {
    f.head_out = -1;
    in_mask_[static_cast<std::size_t>(n)] &= ~(1U << port);
  } else {
    f.head_out = route_of(q, mem_[q * depth_ + f.rd]);
  }
  return flit;
}

// tpu_noc_check: the FIFO holds the admitted flit (an ERROR flit for a
// malformed one), and a router routes it by the admitted flit's destination.
Token MeshSim::admit_flit(int node, std::uint32_t id) {
  const Flit& offered = traffic_[id].flit;
  const Flit admitted = admit(codec_, offered, Endpoint{mesh_.nx, mesh_.ny, mesh_.coord(node)});
  if (!(admitted == offered)) {
    error_of_[id] = static_cast<std::int32_t>(errors_.size());
    errors_.push_back(admitted);
  }
  const Coord dst = codec_.header(admitted).dst();
  if (!mesh_.contains(dst))
    throw Error("noc.spec",
                fmt::format("injection {} at node {} is admitted for ({},{}), outside the {}x{} mesh: the spec's "
                            "error rules must refuse a destination outside the mesh",
                            id, node, dst.x, dst.y, mesh_.nx, mesh_.ny),
                spec_.section("error_rules"));
  return {id, static_cast<std::uint32_t>(mesh_.index(dst))};
}

std::vector<std::string> MeshSim::stuck() const {
  std::vector<std::string> out;
  for (int n = 0; n < nodes_; ++n)
    for (int p = 0; p < ports_; ++p) {
      const std::size_t q = slot(n, p);
      const Fifo& f = fifo_[q];
      if ((linked_[static_cast<std::size_t>(n)] >> p & 1U) == 0 || f.count == 0) continue;
      const Coord here = mesh_.coord(n), dst = mesh_.coord(static_cast<int>(mem_[q * depth_ + f.rd].dst));
      out.push_back(fmt::format("router ({},{}) input {} (head for ({},{}))", here.x, here.y,
                                spec_.ports[static_cast<std::size_t>(p)].name, dst.x, dst.y));
    }
  return out;
}

}  // namespace

RunLog run_mesh_model(const NocSpec& spec, const NocParams& params, const std::vector<Injection>& traffic,
                      const RunConditions& cond, MeshModelStats* stats) {
  MeshSim sim(spec, params, traffic, cond);
  return sim.run(stats);
}

}  // namespace tpugen::noc
