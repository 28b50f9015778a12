/// @file load_figures.h
/// @brief What a NoC benchmark reads off a run (the model's or the RTL's):
/// the accepted throughput and the latency of the flits created in a
/// measurement window after a warm-up, and the zero-load latency as a
/// straight line over the hop count.
#pragma once

#include <cstdint>
#include <vector>

#include "model/noc/noc_run.h"
#include "noc/codec.h"
#include "noc/routing.h"

namespace tpugen::noc {

struct WindowFigures {
  double accepted = 0.0;     ///< flits handed over in the window, per node per cycle
  double latency_avg = 0.0;  ///< cycles from creation (queueing at the source included) to hand-over, of the
                             ///< flits created in the window and delivered
  std::uint64_t measured = 0;  ///< those flits
};

/// Figures of the window [from, to) of a run of `traffic` (flits matched to
/// their hand-overs in order, per destination node and content).
[[nodiscard]] WindowFigures window_figures(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic,
                                           const RunLog& log, std::uint64_t from, std::uint64_t to);

/// The zero-load line: latency (acceptance to hand-over) = intercept + slope * hops,
/// fitted by least squares over the delivered flits.
struct ZeroLoadLine {
  double intercept = 0.0, slope = 0.0;
  double latency_avg = 0.0, hops_avg = 0.0;
};
[[nodiscard]] ZeroLoadLine zero_load_line(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic,
                                          const RunLog& log);

/// The bisection bound of uniform random traffic on the mesh: 4 / max(NX, NY)
/// flits per node per cycle (1.0 at 4 x 4, 0.5 at 8 x 8), at most the
/// injection port's 1.0.
[[nodiscard]] double uniform_bisection_bound(const Mesh& mesh);

}  // namespace tpugen::noc
