#include "model/cu/cu_system_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "util/diag.h"

namespace tpugen::cu {

SystemModel::SystemModel(const SystemSpecs& specs, noc::SystemLayout layout, mover::MoverMemory& mem)
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
