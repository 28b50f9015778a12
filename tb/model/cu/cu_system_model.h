/// @file cu_system_model.h
/// @brief A whole system of compute units on the mesh, as a reference model:
/// the orchestrator (host port and mover window), the TinyTPU units behind
/// their CU wrappers, the system node's memory-agent ports and mover over one
/// memory, and the mesh between them as an untimed, order-keeping delivery
/// (per (source, destination) pair in order, as the mesh guarantees). What
/// `tpugen noc dispatch|gemm --engine model` runs and the RTL is held to.
///
/// Placement: noc/placement.h (docs/compute_units.md).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "isa/instr.h"
#include "model/agent/agent_model.h"
#include "model/cu/cu_base_model.h"
#include "model/cu/orchestrator_model.h"
#include "model/cu/tinytpu_unit_model.h"
#include "model/mover/mover_model.h"
#include "noc/placement.h"

namespace tpugen::cu {

/// Everything a system is built from; every reference must outlive it.
struct SystemSpecs {
  const Isa* isa = nullptr;
  const ComputeUnitsSpec* cu = nullptr;
  const SystemNodeSpec* sysnode = nullptr;
  const noc::Codec* codec = nullptr;
  NocParams cu_base, orchestrator, agent;
};

class SystemModel {
 public:
  SystemModel(const SystemSpecs& specs, noc::SystemLayout layout, mover::MoverMemory& mem);
  SystemModel(const SystemModel&) = delete;
  SystemModel& operator=(const SystemModel&) = delete;

  [[nodiscard]] OrchestratorModel& orchestrator() { return *orch_; }
  [[nodiscard]] const noc::SystemLayout& layout() const { return layout_; }

  /// Move flits until nothing moves: the orchestrator's sends while a credit
  /// is in hand, every answer, every unit as far as it can go.
  void run();
  /// The units' wait limits run out: every unit waiting for a peer's rows
  /// that nothing will bring faults (ROWS_MISSING), and the system runs on.
  /// True when one did.
  bool expire_waits();

  /// Every flit that reached the orchestrator, in arrival order.
  [[nodiscard]] const std::vector<noc::Flit>& to_orchestrator() const { return to_orch_; }
  /// Flits delivered between nodes in all.
  [[nodiscard]] std::uint64_t flits() const { return flits_; }
  /// The units that wait for a flit that will not come, and why.
  [[nodiscard]] std::vector<std::string> stuck() const;
  [[nodiscard]] const TinyTpuUnitModel& unit(int i) const { return *units_.at(static_cast<std::size_t>(i)); }
  [[nodiscard]] const CuBaseModel& wrapper(int i) const { return *wrappers_.at(static_cast<std::size_t>(i)); }

 private:
  void deliver(const noc::Flit& f);

  SystemSpecs specs_;
  noc::SystemLayout layout_;
  std::unique_ptr<mover::MoverModel> mover_;
  std::unique_ptr<OrchestratorModel> orch_;
  std::vector<std::unique_ptr<TinyTpuUnitModel>> units_;
  std::vector<std::unique_ptr<CuBaseModel>> wrappers_;
  std::vector<std::unique_ptr<agent::AgentModel>> agents_;
  std::deque<noc::Flit> queue_;
  std::vector<noc::Flit> to_orch_;
  std::uint64_t flits_ = 0;
  std::uint64_t dropped_ = 0;  ///< flits to a node with nothing on it
};

}  // namespace tpugen::cu
