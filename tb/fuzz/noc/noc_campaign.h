/// @file noc_campaign.h
/// @brief The NoC's fuzz campaign without a simulator: random traffic cases
/// (pattern, rate, size, ejection busy), the verdict of a case run on the RTL
/// and on the delivery model (every flit whole, in order, the run done, and
/// the two runs identical), shrinking a failing case's flits, and its
/// reproducer (a --inject file and the command that replays it). The RTL is
/// the caller's to run (`tpugen noc fuzz`: tb/sim/noc_engine.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "model/noc/noc_run.h"
#include "model/noc/traffic.h"
#include "noc/codec.h"
#include "noc/routing.h"
#include "util/rng.h"

namespace tpugen::noc {

/// One random case on a fabric.
struct NocCase {
  TrafficSpec traffic;
  RunConditions conditions;
};

/// A case drawn from `rng`: a pattern the mesh has, an offered load from
/// light to saturated, 20 .. `max_packets` flits, ejection busy 0 half the
/// time (else up to 0.6), its own seed.
[[nodiscard]] NocCase random_case(Rng& rng, const Mesh& mesh, std::uint64_t max_packets);

/// How a case went: empty `failure` when the RTL delivered every flit whole
/// and in order, finished, and matched the model flit for flit and cycle for cycle.
struct NocVerdict {
  std::string failure;  ///< "lost 3", "stalled: router (1,1) input S", "rtl != model: ..."
  [[nodiscard]] bool failed() const { return !failure.empty(); }
};

/// Runs a list of flits under conditions on one engine.
using NocEngine = std::function<RunLog(const std::vector<Injection>&, const RunConditions&)>;

/// Run the flits on the RTL and the model and judge.
[[nodiscard]] NocVerdict judge(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& flits,
                               const RunConditions& conditions, const NocEngine& rtl, const NocEngine& model);

struct NocShrunk {
  std::vector<Injection> flits;
  RunConditions conditions;
  NocVerdict verdict;
  int runs = 0;  ///< candidates tried
};

/// Make a failing list of flits smaller while it still fails: the shortest
/// failing prefix (halving), then each flit dropped in turn, then the
/// ejection busy removed, then the flits moved as early as their order allows.
/// At most `budget` candidates.
[[nodiscard]] NocShrunk shrink_flits(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& flits,
                                     const RunConditions& conditions, const NocEngine& rtl, const NocEngine& model,
                                     int budget = 200);

/// The flits as `tpugen noc run --inject` reads them (traffic.h:
/// read_injections), one JSON object a line.
[[nodiscard]] std::string injections_jsonl(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& flits);

}  // namespace tpugen::noc
