/// @file noc_run.h
/// @brief What a NoC run takes and gives, the same for the delivery model
/// (mesh_model.h) and the RTL (tb/sim/noc_engine.h): the flits each node
/// offers its local port, the conditions of the run, and what happened (when
/// each flit was taken in, every flit each local port handed over).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "noc/flit.h"

namespace tpugen::noc {

/// One flit a node offers its local port, from `cycle` on. Each node has an
/// unbounded source queue: its flits are offered in the order of this list,
/// the head while the local input is not ready.
struct Injection {
  std::uint64_t cycle = 0;  ///< the flit exists from this cycle on (Bernoulli creation time)
  int node = 0;             ///< y * NX + x
  Flit flit;
  bool operator==(const Injection&) const = default;
};

/// The run's conditions besides the traffic.
struct RunConditions {
  double eject_busy = 0.0;            ///< probability that an ejection port is busy in a cycle (eject_busy.h)
  std::uint64_t seed = 1;             ///< of the busy pattern
  std::uint64_t max_cycles = 1000000; ///< the run stops here ("timeout")
  std::uint64_t watchdog = 2000;      ///< cycles with flits in flight and none moving: "stalled"
};

inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

/// A flit a local port handed over (valid and ready in `cycle`).
struct Ejection {
  std::uint64_t cycle = 0;
  int node = 0;
  Flit flit;
};

/// What a run did.
struct RunLog {
  /// Per injection, in the list's order: the cycle its node's local input
  /// took it (valid and ready), or kNever.
  std::vector<std::uint64_t> accepted;
  /// Every flit every local port handed over, in cycle order (node order within a cycle).
  std::vector<Ejection> ejections;
  std::uint64_t cycles = 0;  ///< cycles run
  /// "done": every flit taken in and as many handed over as taken in;
  /// "stalled": the watchdog fired (flits in flight, none moved);
  /// "timeout": max_cycles; "assertion": the RTL's assertion stopped it.
  std::string status;
  /// "stalled": where flits wait and do not move ("router (1,2) input W"), or
  /// empty when nothing waits (the flits in flight were lost). "assertion": its message.
  std::vector<std::string> stuck;
  double sim_seconds = 0.0;
  double cycles_per_second = 0.0;
};

}  // namespace tpugen::noc
