#include "model/noc/load_figures.h"

#include <algorithm>
#include <cstdlib>

#include "model/noc/scoreboard.h"

namespace tpugen::noc {

namespace {

/// For each flit, the cycle it was handed over (kNever if not): the
/// scoreboard's matching, which the trace carries.
std::vector<FlitTrace> lives(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic,
                             const RunLog& log) {
  std::vector<FlitTrace> trace;
  (void)score_run(codec, mesh, traffic, log, &trace);
  return trace;
}

}  // namespace

WindowFigures window_figures(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic,
                             const RunLog& log, std::uint64_t from, std::uint64_t to) {
  WindowFigures w;
  if (to <= from) return w;
  std::uint64_t out = 0;
  for (const auto& e : log.ejections) out += e.cycle >= from && e.cycle < to;
  w.accepted = static_cast<double>(out) / (static_cast<double>(mesh.nodes()) * static_cast<double>(to - from));
  const auto trace = lives(codec, mesh, traffic, log);
  double sum = 0;
  for (std::size_t i = 0; i < traffic.size(); ++i) {
    if (traffic[i].cycle < from || traffic[i].cycle >= to || trace[i].eject == kNever) continue;
    sum += static_cast<double>(trace[i].eject - traffic[i].cycle);
    ++w.measured;
  }
  if (w.measured) w.latency_avg = sum / static_cast<double>(w.measured);
  return w;
}

ZeroLoadLine zero_load_line(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& traffic,
                            const RunLog& log) {
  const auto trace = lives(codec, mesh, traffic, log);
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& t : trace) {
    if (t.eject == kNever || t.inject == kNever) continue;
    const double h = std::abs(t.src.x - t.dst.x) + std::abs(t.src.y - t.dst.y);
    const double l = static_cast<double>(t.eject - t.inject);
    n += 1;
    sx += h;
    sy += l;
    sxx += h * h;
    sxy += h * l;
  }
  ZeroLoadLine z;
  if (n == 0) return z;
  z.latency_avg = sy / n;
  z.hops_avg = sx / n;
  const double den = n * sxx - sx * sx;
  z.slope = den != 0 ? (n * sxy - sx * sy) / den : 0.0;
  z.intercept = (sy - z.slope * sx) / n;
  return z;
}

double uniform_bisection_bound(const Mesh& mesh) {
  return std::min(1.0, 4.0 / static_cast<double>(std::max(mesh.nx, mesh.ny)));
}

}  // namespace tpugen::noc
