#include "noc/placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "util/diag.h"

namespace tpugen::noc {

int SystemLayout::core_index(Coord c) const {
  for (std::size_t i = 0; i < cores.size(); ++i)
    if (cores[i] == c) return static_cast<int>(i);
  return -1;
}

SystemLayout make_layout(int nx, int ny, int k, const std::vector<Coord>& nodes, int mem_ports) {
  SystemLayout l;
  l.nx = nx;
  l.ny = ny;
  const int room = nx * ny - mem_ports - 1;
  if (k < 1) throw Error("cu.layout", fmt::format("--cores {}: a system has at least one compute unit", k));
  if (k > room)
    throw Error("cu.layout", fmt::format("--cores {}: a {} x {} mesh has {} nodes, and {} of them are the memory "
                                         "agent's port(s) and the orchestrator, so it holds at most {} units",
                                         k, nx, ny, nx * ny, mem_ports + 1, std::max(room, 0)));
  if (!nodes.empty() && static_cast<int>(nodes.size()) != k)
    throw Error("cu.layout", fmt::format("--nodes names {} node(s) for {} core(s)", nodes.size(), k));
  std::set<Coord> taken;
  for (int i = 0; i < k; ++i) {
    const Coord c = nodes.empty() ? Coord{i % nx, i / nx} : nodes[static_cast<std::size_t>(i)];
    if (c.x < 0 || c.y < 0 || c.x >= nx || c.y >= ny)
      throw Error("cu.layout", fmt::format("node ({},{}) is outside the {} x {} mesh", c.x, c.y, nx, ny));
    if (!taken.insert(c).second) throw Error("cu.layout", fmt::format("node ({},{}) is named twice", c.x, c.y));
    l.cores.push_back(c);
  }
  // The agent's ports and the orchestrator: free nodes, edge ones first,
  // from the last in row-major order.
  std::vector<Coord> free;
  for (int edge = 1; edge >= 0; --edge)
    for (int i = nx * ny - 1; i >= 0; --i) {
      const Coord c{i % nx, i / nx};
      const bool on_edge = c.x == 0 || c.y == 0 || c.x == nx - 1 || c.y == ny - 1;
      if (on_edge == (edge == 1) && !taken.count(c)) free.push_back(c);
    }
  for (int p = 0; p < mem_ports; ++p) l.agents.push_back(free[static_cast<std::size_t>(p)]);
  l.orchestrator = free[static_cast<std::size_t>(mem_ports)];
  // Each unit to its nearest port; between ports as near, the one fewer
  // units send to (a port sends one flit a cycle: its units share that).
  std::vector<int> load(static_cast<std::size_t>(mem_ports), 0);
  for (const auto& c : l.cores) {
    auto dist = [&](int q) {
      return std::abs(l.agents[static_cast<std::size_t>(q)].x - c.x) +
             std::abs(l.agents[static_cast<std::size_t>(q)].y - c.y);
    };
    int best = 0;
    for (int p = 1; p < mem_ports; ++p)
      if (dist(p) < dist(best) ||
          (dist(p) == dist(best) && load[static_cast<std::size_t>(p)] < load[static_cast<std::size_t>(best)]))
        best = p;
    ++load[static_cast<std::size_t>(best)];
    l.core_agent.push_back(best);
  }
  return l;
}

}  // namespace tpugen::noc
