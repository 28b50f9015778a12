#include "model/noc/mesh_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <limits>

#include "model/noc/eject_busy.h"
#include "noc/codec.h"
#include "noc/endpoint.h"
#include "noc/routing.h"
#include "util/diag.h"

namespace tpugen::noc {

namespace {

// A router's sets of ports (its full output registers, held grants, the
// outputs asked for, an output's requesters, a FIFO's crossbar row) are bit
// masks: port p is bit p.
constexpr int kMaxPorts = 8;

/// A flit on its way: its id (its index in the traffic list) and its
/// destination node (the admitted flit's), all a router reads of it. The
/// FIFOs, the output registers and the links move these 8 bytes, not the 64
/// of the flit, which is read again only when it is ejected.
struct Token {
  std::uint32_t id = 0;
  std::uint32_t dst = 0;
};

/// One input FIFO (tpu_fifo): a ring of `depth` tokens in the mesh's store.
struct Fifo {
  std::uint32_t base = 0;             ///< its ring's first token in the store
  std::uint32_t route_row = 0;        ///< its router's row of the route table
  std::uint32_t built = 0;            ///< the outputs the crossbar connects it to
  std::uint32_t rd = 0, count = 0;
  std::uint64_t popped_at = kNever;   ///< the last cycle a head left
};

/// One output: its register (tpu_out_reg), its arbiter (tpu_rr_arb) and,
/// for a neighbour output, the FIFO its link feeds.
struct Output {
  Token flit;                 ///< the register's flit (valid: the router's `full`)
  int last = 0, gnt_q = 0;    ///< last_q, and gnt_q as an index (read only while held)
  std::uint32_t to = 0;       ///< the fed FIFO's index (node * ports + port)
  int to_node = 0, to_port = 0;
};

/// tpu_rr_arb's fairness counter (passed_q) of one output, kept when asked
/// for: the grants it made, and per input the count when its head began to
/// ask; their difference is how many grants that input has waited.
struct Fairness {
  std::uint64_t grants = 0;
  std::array<std::uint64_t, kMaxPorts> since{};
};

/// One router's registered state besides its FIFOs and outputs, and what
/// its FIFO heads ask for (kept up to date as the heads change).
struct Router {
  std::uint32_t full = 0;   ///< output registers holding a flit (valid_o)
  std::uint32_t held = 0;   ///< arbiters holding a grant (hold_q)
  std::uint32_t asked = 0;  ///< outputs some head asks for
  std::array<std::uint32_t, kMaxPorts> requests{};  ///< per output: the inputs whose head asks for it
};

/// A flit in a node's source queue: offered from `cycle` on.
struct Queued {
  std::uint64_t cycle = 0;
  Token flit;  ///< as admitted
};

/// A flit that enters a FIFO at the end of the cycle (step() says when).
struct Push {
  std::uint32_t fifo = 0;
  int node = 0, port = 0;
  Token flit;
};

/// The whole mesh's registered state and the one cycle that updates it.
/// FIFOs and outputs are numbered node * ports + port.
class MeshSim {
 public:
  MeshSim(const NocSpec& spec, const NocParams& params, const std::vector<Injection>& traffic,
          const RunConditions& cond, bool fairness);

  RunLog run(MeshModelStats* stats);

 private:
  void build_routers(const NocSpec& spec, const std::string& routing);
  [[nodiscard]] std::vector<Token> admit_all();
  void build_sources(const std::vector<Token>& admitted);

  /// One cycle; true when a flit was taken in, crossed a link or was ejected.
  bool step(std::uint64_t t);
  void hand_over(int node, std::uint64_t t);
  void arbitrate(int node, std::uint64_t t);
  void inject(int node, std::uint64_t t);

  /// A FIFO's count at the start of cycle t: a pop of this cycle (its router
  /// may come first) is added back.
  [[nodiscard]] static std::uint32_t count_at_start(const Fifo& f, std::uint64_t t) {
    return f.count + (f.popped_at == t ? 1U : 0U);
  }
  void push(std::uint32_t fifo, int node, int port, Token flit);
  /// Output `out` takes input `port`'s head.
  Token pop(int node, int port, int out, std::uint64_t t);
  /// A FIFO's head is now `flit`: what it asks for.
  void new_head(Fifo& f, int node, int port, Token flit);
  /// The most grants any input has waited, those still waiting included.
  [[nodiscard]] std::uint64_t max_grants_waited() const;

  [[nodiscard]] std::size_t slot(int node, int port) const {
    return static_cast<std::size_t>(node) * static_cast<std::size_t>(ports_) + static_cast<std::size_t>(port);
  }
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
  Mesh mesh_;
  int nodes_ = 0, ports_ = 0, local_ = 0;
  std::uint32_t depth_ = 0;
  std::uint64_t busy_ = 0;  ///< the eject busy threshold

  std::vector<Router> routers_;
  std::vector<Fifo> fifos_;
  std::vector<Output> outs_;
  std::vector<Fairness> fair_;       ///< per output; empty when fairness is not asked for
  std::vector<Token> store_;         ///< every FIFO's ring
  std::vector<std::int8_t> route_;   ///< per router a row: per destination node, the output (tpu_noc_route)
  std::vector<std::int8_t> pick_;    ///< per (last, requests): the round robin's pick

  // The source queues, one after the other: per node its flits in list
  // order, the next one and the end, and the cycle its head is offered from
  // (kNever when the queue is empty).
  std::vector<Queued> queued_;
  std::vector<std::size_t> src_next_, src_end_;
  std::vector<std::uint64_t> src_from_;

  // Per flit: its ERROR flit in errors_ (-1: admitted unchanged).
  std::vector<std::int32_t> error_of_;
  std::vector<Flit> errors_;

  std::vector<Push> pushes_;
  bool moved_ = false;  ///< in this cycle a flit was taken in, crossed a link or was ejected
  std::size_t accepted_ = 0, ejected_ = 0;
  RunLog log_;
  MeshModelStats stats_;
};

MeshSim::MeshSim(const NocSpec& spec, const NocParams& params, const std::vector<Injection>& traffic,
                 const RunConditions& cond, bool fairness)
    : spec_(spec), traffic_(traffic), cond_(cond), mesh_{params.nx(), params.ny()} {
  nodes_ = mesh_.nodes();
  ports_ = static_cast<int>(spec.ports.size());
  if (ports_ > kMaxPorts)
    throw Error("noc.spec", fmt::format("the delivery model holds routers of at most {} ports; the spec has {}",
                                        kMaxPorts, ports_),
                spec.section("ports"));
  local_ = port_of_step(spec, 0, 0);
  depth_ = static_cast<std::uint32_t>(params.depth());
  busy_ = busy_threshold(cond.eject_busy);
  build_routers(spec, params.routing());
  if (fairness) fair_.assign(outs_.size(), Fairness{});
  build_sources(admit_all());
  log_.accepted.assign(traffic.size(), kNever);
  // Room for every ejection, written now so that the cycles do not page the
  // log in (a flit is ejected at most once); cut to size at the end.
  log_.ejections.resize(traffic.size());
  pushes_.reserve(outs_.size());  // one a link at most
}

void MeshSim::build_routers(const NocSpec& spec, const std::string& routing) {
  const RouteFn route = routing_function(spec, routing);
  const auto turns = turns_used(spec, mesh_, route);
  const std::size_t ports = slot(nodes_, 0);
  routers_.assign(static_cast<std::size_t>(nodes_), Router{});
  fifos_.assign(ports, Fifo{});
  outs_.assign(ports, Output{});
  store_.assign(ports * depth_, Token{});
  route_.assign(static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(nodes_), -1);
  for (int n = 0; n < nodes_; ++n) {
    const Coord here = mesh_.coord(n);
    // The ports that lead somewhere: the local one and the neighbours inside the mesh.
    const auto links = static_cast<std::uint32_t>(port_links(spec, mesh_, here));
    for (int p = 0; p < ports_; ++p) {
      if (p == local_ || (links >> p & 1U) == 0) continue;
      Output& out = outs_[slot(n, p)];
      out.to_node = mesh_.index(neighbour(spec, here, p));
      out.to_port = opposite_port(spec, p);
      out.to = static_cast<std::uint32_t>(slot(out.to_node, out.to_port));
    }
    const auto row = static_cast<std::uint32_t>(n) * static_cast<std::uint32_t>(nodes_);
    for (int in = 0; in < ports_; ++in) {
      Fifo& f = fifos_[slot(n, in)];
      f.base = static_cast<std::uint32_t>(slot(n, in)) * depth_;
      f.route_row = row;
      if ((links >> in & 1U) == 0) continue;  // an edge port takes nothing in
      // tpu_noc_router's `built`: a head asks for an output only through a
      // turn the routing takes somewhere (TURNS) between two linked ports; a
      // head that wants any other would wait forever, and so it does here.
      for (int o = 0; o < ports_; ++o)
        if (turns[static_cast<std::size_t>(in)][static_cast<std::size_t>(o)] && (links >> o & 1U) != 0)
          f.built |= 1U << o;
    }
    // tpu_noc_route reads the destination alone: the routing's output at a
    // node may not depend on the input port.
    for (int d = 0; d < nodes_; ++d) {
      const int out = route(here, local_, mesh_.coord(d));
      for (int in = 0; in < ports_; ++in)
        if ((links >> in & 1U) != 0 && route(here, in, mesh_.coord(d)) != out)
          throw Error("noc.spec",
                      fmt::format("routing {} at ({},{}) sends a flit for ({},{}) by the port it came in on; the "
                                  "router's tpu_noc_route reads the destination alone",
                                  routing, here.x, here.y, mesh_.coord(d).x, mesh_.coord(d).y),
                      spec.section("routings"));
      route_[row + static_cast<std::size_t>(d)] = static_cast<std::int8_t>(out);
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

void MeshSim::build_sources(const std::vector<Token>& admitted) {
  // A stable counting sort by node: each node's flits in the list's order.
  std::vector<std::size_t> per_node(static_cast<std::size_t>(nodes_) + 1, 0);
  for (const Injection& in : traffic_) ++per_node[static_cast<std::size_t>(in.node) + 1];
  for (std::size_t n = 1; n < per_node.size(); ++n) per_node[n] += per_node[n - 1];
  src_next_.assign(per_node.begin(), per_node.end() - 1);
  src_end_.assign(per_node.begin() + 1, per_node.end());
  queued_.assign(traffic_.size(), Queued{});
  std::vector<std::size_t> fill = src_next_;
  for (std::size_t i = 0; i < traffic_.size(); ++i)
    queued_[fill[static_cast<std::size_t>(traffic_[i].node)]++] = {traffic_[i].cycle, admitted[i]};
  src_from_.assign(static_cast<std::size_t>(nodes_), kNever);
  for (std::size_t n = 0; n < src_from_.size(); ++n)
    if (src_next_[n] != src_end_[n]) src_from_[n] = queued_[src_next_[n]].cycle;
}

// tpu_noc_check: the local FIFO holds the admitted flit (an ERROR flit for a
// malformed one), and routers route it by the admitted flit's destination.
// What a flit becomes is a function of the flit and its node alone, so every
// flit is admitted here, once, before the cycles run.
std::vector<Token> MeshSim::admit_all() {
  const Codec codec(spec_);
  if (traffic_.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error("noc.traffic", fmt::format("{} injections; the model numbers at most 2^32 - 1", traffic_.size()));
  std::vector<Token> tokens(traffic_.size());
  error_of_.assign(traffic_.size(), -1);
  for (std::size_t i = 0; i < traffic_.size(); ++i) {
    const Injection& in = traffic_[i];
    if (in.node < 0 || in.node >= nodes_)
      throw Error("noc.traffic", fmt::format("injection {} is at node {}; a {}x{} mesh has nodes 0 .. {}", i, in.node,
                                             mesh_.nx, mesh_.ny, nodes_ - 1));
    const Flit admitted = admit(codec, in.flit, Endpoint{mesh_.nx, mesh_.ny, mesh_.coord(in.node)});
    if (!(admitted == in.flit)) {
      error_of_[i] = static_cast<std::int32_t>(errors_.size());
      errors_.push_back(admitted);
    }
    const Coord dst = codec.header(admitted).dst();
    if (!mesh_.contains(dst))
      throw Error("noc.spec",
                  fmt::format("injection {} at node {} is admitted for ({},{}), outside the {}x{} mesh: the spec's "
                              "error rules must refuse a destination outside the mesh",
                              i, in.node, dst.x, dst.y, mesh_.nx, mesh_.ny),
                  spec_.section("error_rules"));
    tokens[i] = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(mesh_.index(dst))};
  }
  return tokens;
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
  log_.ejections.resize(ejected_);
  log_.sim_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log_.cycles_per_second = log_.sim_seconds > 0.0 ? static_cast<double>(t) / log_.sim_seconds : 0.0;
  if (stats) {
    *stats = stats_;
    stats->max_grants_waited = max_grants_waited();
  }
  return std::move(log_);
}

// One pass over the routers in node order, every decision read from the
// state at the cycle's start. A router's FIFOs are popped only by its own
// arbiters, after all of their decisions, and the one other reader of a
// FIFO, its sender, adds that cycle's pop back (count_at_start). A flit a
// FIFO takes in joins it at once, behind its head, where nothing reads it
// before the next cycle; but into an empty FIFO of a router still to come,
// whose arbiters would see it as a head, it waits for the end of the cycle,
// and a node's own injection comes after its arbiters. So the order of the
// routers does not matter, as in the RTL. A router skips what it has no
// flit for (no register to hand over, no head asking): nothing there changes.
bool MeshSim::step(std::uint64_t t) {
  moved_ = false;
  pushes_.clear();
  for (int n = 0; n < nodes_; ++n) {
    const Router& r = routers_[static_cast<std::size_t>(n)];
    if (r.full != 0) hand_over(n, t);
    if (r.asked != 0) arbitrate(n, t);
    if (src_from_[static_cast<std::size_t>(n)] <= t) inject(n, t);
  }
  for (const Push& p : pushes_) push(p.fifo, p.node, p.port, p.flit);
  return moved_;
}

// tpu_out_reg: a full register whose receiver is ready hands its flit over
// (and is empty unless the arbiter loads it again below). A link's ready is
// the receiving FIFO not full; the local port's is the endpoint not busy.
void MeshSim::hand_over(int n, std::uint64_t t) {
  Router& r = routers_[static_cast<std::size_t>(n)];
  const Output* outs = &outs_[slot(n, 0)];
  const std::uint32_t local = 1U << local_, depth = depth_;
  std::uint32_t handed = 0;
  if ((r.full & local) != 0 && !eject_busy(cond_.seed, n, t, busy_)) {
    log_.ejections[ejected_++] = {t, n, flit_of(outs[local_].flit.id)};
    handed = local;
  }
  for (std::uint32_t m = r.full & ~local; m != 0; m &= m - 1) {
    const int o = std::countr_zero(m);
    const Output& out = outs[o];
    const Fifo& to = fifos_[out.to];
    if (count_at_start(to, t) == depth) continue;
    if (to.count == 0 && out.to_node > n) pushes_.push_back({out.to, out.to_node, out.to_port, out.flit});
    else push(out.to, out.to_node, out.to_port, out.flit);
    ++stats_.link_transfers;
    handed |= 1U << o;
  }
  r.full &= ~handed;
  moved_ = moved_ || handed != 0;
}

// tpu_rr_arb per output, then tpu_out_reg's load. An output with requests
// but no room holds its grant (hold_q; gnt_q is the pick of the first such
// cycle, kept while held); one with room takes its grant's head. A held
// grant's requester still asks: only this output could take its head. Every
// grant is decided before the first pop, from the heads at the cycle's
// start: a head that moves up behind a popped one asks from the next cycle.
void MeshSim::arbitrate(int n, std::uint64_t t) {
  Router& r = routers_[static_cast<std::size_t>(n)];
  Output* outs = &outs_[slot(n, 0)];
  const std::array<std::uint32_t, kMaxPorts>& req = r.requests;  // changed by the pops below only
  const int shift = ports_;  // pick_ holds a row of 2^ports entries per last_q
  const std::uint32_t blocked = r.asked & r.full, open = r.asked & ~r.full, held = r.held;
  for (std::uint32_t m = blocked & ~held; m != 0; m &= m - 1) {
    const int o = std::countr_zero(m);
    outs[o].gnt_q = pick_[(static_cast<std::size_t>(outs[o].last) << shift) + req[static_cast<std::size_t>(o)]];
  }
  r.held = blocked;
  std::array<int, kMaxPorts> grant{};
  for (std::uint32_t m = open; m != 0; m &= m - 1) {
    const int o = std::countr_zero(m);
    Output& out = outs[o];
    const int g = (held >> o & 1U) != 0 ? out.gnt_q
                                        : pick_[(static_cast<std::size_t>(out.last) << shift) +
                                                req[static_cast<std::size_t>(o)]];
    grant[static_cast<std::size_t>(o)] = g;
    out.last = g;
    if (!fair_.empty()) {
      Fairness& f = fair_[slot(n, o)];
      stats_.max_grants_waited = std::max(stats_.max_grants_waited, f.grants - f.since[static_cast<std::size_t>(g)]);
      ++f.grants;
    }
  }
  for (std::uint32_t m = open; m != 0; m &= m - 1) {
    const int o = std::countr_zero(m);
    outs[o].flit = pop(n, grant[static_cast<std::size_t>(o)], o, t);
    // The flit itself is read when it is ejected, a cycle or more from
    // now; fetch it meanwhile (the traffic is large and cold).
    if (o == local_) {
      const auto* bytes = reinterpret_cast<const char*>(&flit_of(outs[o].flit.id));
      __builtin_prefetch(bytes);
      __builtin_prefetch(bytes + sizeof(Flit) - 1);
    }
  }
  r.full |= open;
}

// The source queue's head is offered from its cycle on; the local FIFO takes
// it when not full at the start of the cycle.
void MeshSim::inject(int n, std::uint64_t t) {
  const auto node = static_cast<std::size_t>(n);
  const std::size_t q = slot(n, local_);
  if (count_at_start(fifos_[q], t) == depth_) return;
  const Token flit = queued_[src_next_[node]].flit;
  push(static_cast<std::uint32_t>(q), n, local_, flit);
  log_.accepted[flit.id] = t;
  ++accepted_;
  moved_ = true;
  src_from_[node] = ++src_next_[node] == src_end_[node] ? kNever : queued_[src_next_[node]].cycle;
}

// tpu_fifo: a push is only ever made into a FIFO that was not full at the
// start of the cycle, so depth_ entries always suffice.
void MeshSim::push(std::uint32_t fifo, int n, int port, Token flit) {
  Fifo& f = fifos_[fifo];
  const std::uint32_t depth = depth_;
  std::uint32_t w = f.rd + f.count;
  if (w >= depth) w -= depth;
  store_[f.base + w] = flit;
  if (f.count++ == 0) new_head(f, n, port, flit);
}

Token MeshSim::pop(int n, int port, int out, std::uint64_t t) {
  Fifo& f = fifos_[slot(n, port)];
  Router& r = routers_[static_cast<std::size_t>(n)];
  const Token flit = store_[f.base + f.rd];
  f.rd = f.rd + 1 == depth_ ? 0 : f.rd + 1;
  f.popped_at = t;
  std::uint32_t& req = r.requests[static_cast<std::size_t>(out)];
  req &= ~(1U << port);
  if (req == 0) r.asked &= ~(1U << out);
  if (--f.count != 0) new_head(f, n, port, store_[f.base + f.rd]);
  return flit;
}

// A head begins to ask: from here its fairness count runs (the router's
// grants of this cycle are all made before any head changes).
void MeshSim::new_head(Fifo& f, int n, int port, Token flit) {
  const int out = route_[f.route_row + flit.dst];
  if ((f.built >> out & 1U) == 0) return;  // a turn the crossbar lacks: it never asks
  Router& r = routers_[static_cast<std::size_t>(n)];
  r.requests[static_cast<std::size_t>(out)] |= 1U << port;
  r.asked |= 1U << out;
  if (fair_.empty()) return;
  Fairness& fair = fair_[slot(n, out)];
  fair.since[static_cast<std::size_t>(port)] = fair.grants;
}

std::uint64_t MeshSim::max_grants_waited() const {
  std::uint64_t most = stats_.max_grants_waited;
  if (fair_.empty()) return most;
  for (int n = 0; n < nodes_; ++n) {
    const Router& r = routers_[static_cast<std::size_t>(n)];
    for (std::uint32_t m = r.asked; m != 0; m &= m - 1) {
      const int o = std::countr_zero(m);
      const Fairness& f = fair_[slot(n, o)];
      for (std::uint32_t w = r.requests[static_cast<std::size_t>(o)]; w != 0; w &= w - 1)
        most = std::max(most, f.grants - f.since[static_cast<std::size_t>(std::countr_zero(w))]);
    }
  }
  return most;
}

std::vector<std::string> MeshSim::stuck() const {
  std::vector<std::string> out;
  for (int n = 0; n < nodes_; ++n) {
    const Coord here = mesh_.coord(n);
    auto name = [&](int p, std::string_view what, std::string_view holds, std::uint32_t dst_node) {
      const Coord dst = mesh_.coord(static_cast<int>(dst_node));
      out.push_back(fmt::format("router ({},{}) {} {} ({} for ({},{}))", here.x, here.y, what,
                                spec_.ports[static_cast<std::size_t>(p)].name, holds, dst.x, dst.y));
    };
    for (int p = 0; p < ports_; ++p) {
      const Fifo& f = fifos_[slot(n, p)];
      if (f.count != 0) name(p, "input", "head", store_[f.base + f.rd].dst);  // an edge port's FIFO is never pushed
    }
    const std::uint32_t full = routers_[static_cast<std::size_t>(n)].full;
    for (int p = 0; p < ports_; ++p)
      if ((full >> p) & 1U) name(p, "output", "a flit", outs_[slot(n, p)].flit.dst);
  }
  return out;
}

}  // namespace

RunLog run_mesh_model(const NocSpec& spec, const NocParams& params, const std::vector<Injection>& traffic,
                      const RunConditions& cond, MeshModelStats* stats) {
  MeshSim sim(spec, params, traffic, cond, stats != nullptr);
  return sim.run(stats);
}

}  // namespace tpugen::noc
