/// @file placement.h
/// @brief Where a system of compute units sits on an nx x ny mesh: the units'
/// nodes, the memory agent's ports and the orchestrator on free edge nodes,
/// and the agent port each unit sends to. The reference model
/// (model/cu/cu_system_model.h) and the generated system top
/// (tpu_noc_cu_system) place from the same function.
#pragma once

#include <vector>

#include "noc/codec.h"

namespace tpugen::noc {

/// Where everything sits on an nx x ny mesh.
struct SystemLayout {
  int nx = 1, ny = 1;
  std::vector<Coord> cores;       ///< the compute units' nodes
  std::vector<Coord> agents;      ///< the memory agent's ports
  Coord orchestrator;
  std::vector<int> core_agent;         ///< the agent port each unit sends to (the nearest; between ports as near, the one with fewer units)
  [[nodiscard]] int core_index(Coord c) const;  ///< -1: not a unit
};

/// The layout of `k` units (on `nodes` when given, else the first k nodes in
/// row-major order) with `mem_ports` agent ports and the orchestrator on the
/// free edge nodes, the last ones in row-major order first. Throws
/// Error("cu.layout") naming the node or the count for a node outside the
/// mesh, a node named twice, k of 0, or more units than the mesh has room for
/// beside the agent's ports and the orchestrator.
SystemLayout make_layout(int nx, int ny, int k, const std::vector<Coord>& nodes, int mem_ports);

}  // namespace tpugen::noc
