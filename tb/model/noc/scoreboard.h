/// @file scoreboard.h
/// @brief The NoC's scoreboard: every flit a run took in arrives exactly
/// once, at its destination, unmodified, in order for its (source,
/// destination) pair, and no sooner than its hops allow; and the run's
/// figures (latency, throughput). The same for the model's runs and the
/// RTL's (a RunLog from either).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/noc/noc_run.h"
#include "noc/codec.h"
#include "noc/routing.h"

namespace tpugen::noc {

/// One flit's life, for --trace.
struct FlitTrace {
  std::uint64_t id = 0;  ///< its index in the traffic
  Coord src, dst;        ///< the sending node, and where it was delivered (the ERROR flit's: the sender)
  std::uint32_t txn = 0;
  std::uint64_t inject = kNever, eject = kNever;
};

struct Score {
  std::uint64_t injected = 0;   ///< flits in the traffic
  std::uint64_t accepted = 0;   ///< taken in by their local ports
  std::uint64_t delivered = 0;  ///< handed over once, unmodified, where they belong
  std::uint64_t lost = 0;       ///< taken in and never handed over
  std::uint64_t duplicated = 0; ///< handed over again
  std::uint64_t reordered = 0;  ///< handed over before an earlier flit of their pair
  std::uint64_t corrupted = 0;  ///< handed over modified, or at a node it was not for
  std::uint64_t too_fast = 0;   ///< delivered in fewer cycles than it has hops (+1)
  std::uint64_t errors = 0;     ///< ERROR flits delivered (the answers to malformed flits)
  double latency_avg = 0.0;     ///< cycles from acceptance to hand-over, of the delivered
  std::uint64_t latency_p99 = 0, latency_max = 0;
  double throughput = 0.0;      ///< delivered flits per node per cycle over the run
  std::uint64_t cycles = 0;
  std::vector<std::string> problems;  ///< the first few, described

  /// Nothing lost, duplicated, reordered, corrupted or too fast, and the run done.
  [[nodiscard]] bool clean() const {
    return lost == 0 && duplicated == 0 && reordered == 0 && corrupted == 0 && too_fast == 0;
  }
};

/// Score a run of `traffic`. `trace`, when given, receives one entry per flit.
[[nodiscard]] Score score_run(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic,
                              const RunLog& log, std::vector<FlitTrace>* trace = nullptr);

/// The ejections of two runs of the same traffic, compared: empty when they
/// hand over the same flits at the same nodes in the same cycles, else the
/// first difference.
[[nodiscard]] std::string compare_runs(const Codec& codec, const RunLog& a, const RunLog& b, std::string_view a_name,
                                       std::string_view b_name);

}  // namespace tpugen::noc
