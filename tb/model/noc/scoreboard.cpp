#include "model/noc/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "noc/endpoint.h"

namespace tpugen::noc {

namespace {

constexpr std::size_t kMaxProblems = 10;

struct FlitHash {
  std::size_t operator()(const Flit& f) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const auto w : f.words()) h = (h ^ w) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h);
  }
};

}  // namespace

Score score_run(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic, const RunLog& log,
                std::vector<FlitTrace>* trace) {
  Score s;
  s.injected = traffic.size();
  s.cycles = log.cycles;
  auto problem = [&s](std::string text) {
    if (s.problems.size() < kMaxProblems) s.problems.push_back(std::move(text));
  };
  // What each accepted flit must arrive as, and where: the local port's
  // admission (an ERROR flit for a malformed one, to its sender).
  const std::uint32_t error_type = codec.type_code("ERROR");
  std::vector<Flit> expect(traffic.size());
  std::vector<int> expect_node(traffic.size(), -1);
  std::unordered_map<Flit, std::vector<std::uint64_t>, FlitHash> waiting;  // content -> ids, in acceptance order
  std::vector<std::uint64_t> order(traffic.size());
  for (std::size_t i = 0; i < traffic.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&log](std::uint64_t a, std::uint64_t b) { return log.accepted[a] < log.accepted[b]; });
  for (const std::uint64_t i : order) {
    if (log.accepted[i] == kNever) continue;
    ++s.accepted;
    const Coord at = mesh.coord(traffic[i].node);
    expect[i] = admit(codec, traffic[i].flit, Endpoint{mesh.nx, mesh.ny, at});
    expect_node[i] = mesh.index(codec.header(expect[i]).dst());
    waiting[expect[i]].push_back(i);
  }
  if (trace) {
    trace->assign(traffic.size(), FlitTrace{});
    for (std::size_t i = 0; i < traffic.size(); ++i) {
      const Header h = codec.header(traffic[i].flit);
      (*trace)[i] = {i, mesh.coord(traffic[i].node), h.dst(), h.txn, log.accepted[i], kNever};
      if (expect_node[i] >= 0) (*trace)[i].dst = mesh.coord(expect_node[i]);
    }
  }
  std::unordered_map<Flit, std::size_t, FlitHash> taken;  // content -> how many of `waiting` were delivered
  std::map<std::pair<int, int>, std::uint64_t> last_of_pair;  // (src node, dst node) -> accept cycle of the last delivered
  std::vector<bool> delivered(traffic.size(), false);
  std::vector<std::uint64_t> latencies;
  for (const Ejection& e : log.ejections) {
    const auto it = waiting.find(e.flit);
    if (it == waiting.end()) {
      ++s.corrupted;
      problem(fmt::format("cycle {}: node ({},{}) handed over a flit nobody sent: {}", e.cycle, mesh.coord(e.node).x,
                          mesh.coord(e.node).y, codec.describe(e.flit)));
      continue;
    }
    std::size_t& n = taken[e.flit];
    if (n == it->second.size()) {
      ++s.duplicated;
      problem(fmt::format("cycle {}: flit {} handed over again at node ({},{})", e.cycle, it->second.back(),
                          mesh.coord(e.node).x, mesh.coord(e.node).y));
      continue;
    }
    const std::uint64_t id = it->second[n++];
    delivered[id] = true;
    if (expect_node[id] != e.node) {
      ++s.corrupted;
      problem(fmt::format("cycle {}: flit {} for node ({},{}) handed over at ({},{})", e.cycle, id,
                          mesh.coord(expect_node[id]).x, mesh.coord(expect_node[id]).y, mesh.coord(e.node).x,
                          mesh.coord(e.node).y));
      continue;
    }
    const std::uint64_t latency = e.cycle - log.accepted[id];
    const Coord src = mesh.coord(traffic[id].node), dst = mesh.coord(e.node);
    const std::uint64_t hops = static_cast<std::uint64_t>(std::abs(src.x - dst.x) + std::abs(src.y - dst.y));
    if (e.cycle < log.accepted[id] || latency < hops + 1) {
      ++s.too_fast;
      problem(fmt::format("flit {}: {} cycles from ({},{}) to ({},{}), fewer than its {} hops allow", id, latency,
                          src.x, src.y, dst.x, dst.y, hops));
    }
    auto& last = last_of_pair[{traffic[id].node, e.node}];
    if (last != 0 && log.accepted[id] + 1 < last) {
      ++s.reordered;
      problem(fmt::format("cycle {}: flit {} of ({},{})->({},{}) handed over after a later one", e.cycle, id, src.x,
                          src.y, dst.x, dst.y));
    }
    last = std::max(last, log.accepted[id] + 1);
    if (codec.header(e.flit).type == error_type && codec.header(traffic[id].flit).type != error_type) ++s.errors;
    ++s.delivered;
    latencies.push_back(latency);
    if (trace) (*trace)[id].eject = e.cycle;
  }
  for (std::size_t i = 0; i < traffic.size(); ++i)
    if (log.accepted[i] != kNever && !delivered[i]) {
      ++s.lost;
      problem(fmt::format("flit {} from ({},{}) taken in at cycle {} never handed over: {}", i,
                          mesh.coord(traffic[i].node).x, mesh.coord(traffic[i].node).y, log.accepted[i],
                          codec.describe(traffic[i].flit)));
    }
  if (!latencies.empty()) {
    std::sort(latencies.begin(), latencies.end());
    double sum = 0;
    for (const auto l : latencies) sum += static_cast<double>(l);
    s.latency_avg = sum / static_cast<double>(latencies.size());
    s.latency_max = latencies.back();
    s.latency_p99 = latencies[std::min(latencies.size() - 1, (latencies.size() * 99 + 99) / 100 - 1)];
  }
  if (log.cycles > 0)
    s.throughput = static_cast<double>(s.delivered) / (static_cast<double>(mesh.nodes()) * static_cast<double>(log.cycles));
  return s;
}

std::string compare_runs(const Codec& codec, const RunLog& a, const RunLog& b, std::string_view a_name,
                         std::string_view b_name) {
  const std::size_t n = std::min(a.ejections.size(), b.ejections.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Ejection &x = a.ejections[i], &y = b.ejections[i];
    if (x.cycle != y.cycle || x.node != y.node || !(x.flit == y.flit))
      return fmt::format("hand-over {} differs: {} cycle {} node {} {}; {} cycle {} node {} {}", i, a_name, x.cycle,
                         x.node, codec.describe(x.flit), b_name, y.cycle, y.node, codec.describe(y.flit));
  }
  if (a.ejections.size() != b.ejections.size())
    return fmt::format("{} handed over {} flits, {} {}", a_name, a.ejections.size(), b_name, b.ejections.size());
  for (std::size_t i = 0; i < a.accepted.size() && i < b.accepted.size(); ++i)
    if (a.accepted[i] != b.accepted[i])
      return fmt::format("flit {} was taken in at cycle {} by {}, at {} by {}", i, a.accepted[i], a_name,
                         b.accepted[i], b_name);
  return {};
}

}  // namespace tpugen::noc
