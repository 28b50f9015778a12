#include "model/cu/cu_system_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "util/diag.h"

namespace tpugen::cu {

int SystemLayout::core_index(noc::Coord c) const {
  for (std::size_t i = 0; i < cores.size(); ++i)
    if (cores[i] == c) return static_cast<int>(i);
  return -1;
}

SystemLayout make_layout(int nx, int ny, int k, const std::vector<noc::Coord>& nodes, int mem_ports) {
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
  std::set<noc::Coord> taken;
  for (int i = 0; i < k; ++i) {
    const noc::Coord c = nodes.empty() ? noc::Coord{i % nx, i / nx} : nodes[static_cast<std::size_t>(i)];
    if (c.x < 0 || c.y < 0 || c.x >= nx || c.y >= ny)
      throw Error("cu.layout", fmt::format("node ({},{}) is outside the {} x {} mesh", c.x, c.y, nx, ny));
    if (!taken.insert(c).second) throw Error("cu.layout", fmt::format("node ({},{}) is named twice", c.x, c.y));
    l.cores.push_back(c);
  }
  // The agent's ports and the orchestrator: free nodes, edge ones first,
  // from the last in row-major order.
  std::vector<noc::Coord> free;
  for (int edge = 1; edge >= 0; --edge)
    for (int i = nx * ny - 1; i >= 0; --i) {
      const noc::Coord c{i % nx, i / nx};
      const bool on_edge = c.x == 0 || c.y == 0 || c.x == nx - 1 || c.y == ny - 1;
      if (on_edge == (edge == 1) && !taken.count(c)) free.push_back(c);
    }
  for (int p = 0; p < mem_ports; ++p) l.agents.push_back(free[static_cast<std::size_t>(p)]);
  l.orchestrator = free[static_cast<std::size_t>(mem_ports)];
  for (const auto& c : l.cores) {
    int best = 0;
    for (int p = 1; p < mem_ports; ++p) {
      auto dist = [&](int q) {
        return std::abs(l.agents[static_cast<std::size_t>(q)].x - c.x) + std::abs(l.agents[static_cast<std::size_t>(q)].y - c.y);
      };
      if (dist(p) < dist(best)) best = p;
    }
    l.core_agent.push_back(best);
  }
  return l;
}

SystemModel::SystemModel(const SystemSpecs& specs, SystemLayout layout, mover::MoverMemory& mem)
    : specs_(specs), layout_(std::move(layout)) {
  mover_ = std::make_unique<mover::MoverModel>(*specs.sysnode, mem);
  MoverWindow window;
  window.write = [this](std::uint32_t o, std::uint64_t v) { (void)mover_->write(o, v); };
  window.read = [this](std::uint32_t o) { return mover_->read(o); };
  orch_ = std::make_unique<OrchestratorModel>(*specs.cu, *specs.codec, layout_.orchestrator, layout_.nx, layout_.ny,
                                              specs.orchestrator, window);
  const UnitSpec& caps = specs.cu->require_unit("tinytpu");
  for (std::size_t i = 0; i < layout_.cores.size(); ++i) {
    const noc::Coord agent = layout_.agents[static_cast<std::size_t>(layout_.core_agent[i])];
    units_.push_back(std::make_unique<TinyTpuUnitModel>(*specs.isa, *specs.cu, *specs.sysnode, *specs.codec,
                                                        layout_.cores[i], agent));
    wrappers_.push_back(
        std::make_unique<CuBaseModel>(*specs.cu, *specs.codec, layout_.cores[i], specs.cu_base, caps, *units_.back()));
  }
  for (const auto& a : layout_.agents)
    agents_.push_back(std::make_unique<agent::AgentModel>(*specs.sysnode, *specs.codec, a, mem, specs.agent));
}

void SystemModel::deliver(const noc::Flit& f) {
  ++flits_;
  const noc::Coord dst = specs_.codec->header(f).dst();
  std::vector<noc::Flit> out;
  if (dst == layout_.orchestrator) {
    to_orch_.push_back(f);
    orch_->accept(f);
  } else if (const int i = layout_.core_index(dst); i >= 0) {
    out = wrappers_[static_cast<std::size_t>(i)]->accept(f);
  } else {
    bool found = false;
    for (auto& a : agents_)
      if (a->at() == dst) {
        out = a->accept(f);
        found = true;
      }
    if (!found) ++dropped_;
  }
  for (auto& o : out) queue_.push_back(std::move(o));
}

void SystemModel::run() {
  for (;;) {
    while (!queue_.empty()) {
      const noc::Flit f = queue_.front();
      queue_.pop_front();
      deliver(f);
    }
    bool moved = false;
    for (auto& w : wrappers_)
      for (auto& o : w->poll()) queue_.push_back(std::move(o)), moved = true;
    if (moved) continue;
    if (auto f = orch_->next()) {
      queue_.push_back(*f);
      continue;
    }
    return;
  }
}

bool SystemModel::expire_waits() {
  bool any = false;
  for (auto& u : units_) any = u->expire() || any;
  if (any) run();
  return any;
}

std::vector<std::string> SystemModel::stuck() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < wrappers_.size(); ++i)
    if (wrappers_[i]->waiting())
      out.push_back(fmt::format("unit ({},{}) waits in its instruction of txn {} for {}", layout_.cores[i].x,
                                layout_.cores[i].y, wrappers_[i]->current_txn(), units_[i]->waiting_for()));
  return out;
}

}  // namespace tpugen::cu
