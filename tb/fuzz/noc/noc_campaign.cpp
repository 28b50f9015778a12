#include "fuzz/noc/noc_campaign.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "model/noc/scoreboard.h"

namespace tpugen::noc {

NocCase random_case(Rng& rng, const Mesh& mesh, std::uint64_t max_packets) {
  std::vector<std::string_view> patterns;
  for (const auto p : pattern_names()) {
    try {
      check_pattern(p, mesh);
      patterns.push_back(p);
    } catch (const Error&) {
    }
  }
  NocCase c;
  c.traffic.pattern = patterns.empty() ? "uniform" : std::string(rng.pick(patterns));
  static const std::vector<double> rates = {0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0};
  c.traffic.rate = rng.pick(rates);
  c.traffic.packets = static_cast<std::uint64_t>(rng.uniform(20, static_cast<std::int64_t>(std::max<std::uint64_t>(20, max_packets))));
  c.traffic.seed = rng.next();
  c.conditions.seed = c.traffic.seed;
  c.conditions.eject_busy = rng.chance(1, 2) ? 0.0 : static_cast<double>(rng.uniform(1, 6)) / 10.0;
  return c;
}

NocVerdict judge(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& flits,
                 const RunConditions& conditions, const NocEngine& rtl, const NocEngine& model) {
  const RunLog r = rtl(flits, conditions);
  const Score s = score_run(codec, mesh, flits, r);
  NocVerdict v;
  if (r.status != "done") {
    v.failure = r.status;
    for (std::size_t i = 0; i < r.stuck.size() && i < 3; ++i) v.failure += (i ? "; " : ": ") + r.stuck[i];
    return v;
  }
  if (!s.clean()) {
    v.failure = fmt::format("lost {}, duplicated {}, reordered {}, corrupted {}, too fast {}", s.lost, s.duplicated,
                            s.reordered, s.corrupted, s.too_fast);
    if (!s.problems.empty()) v.failure += ": " + s.problems.front();
    return v;
  }
  const RunLog m = model(flits, conditions);
  if (const std::string diff = compare_runs(codec, r, m, "rtl", "model"); !diff.empty()) v.failure = "rtl != model: " + diff;
  return v;
}

NocShrunk shrink_flits(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& flits,
                       const RunConditions& conditions, const NocEngine& rtl, const NocEngine& model, int budget) {
  NocShrunk best{flits, conditions, judge(codec, mesh, flits, conditions, rtl, model), 1};
  auto still_fails = [&](const std::vector<Injection>& f, const RunConditions& c) {
    if (best.runs >= budget || f.empty()) return false;
    ++best.runs;
    NocVerdict v = judge(codec, mesh, f, c, rtl, model);
    if (!v.failed()) return false;
    best.flits = f;
    best.conditions = c;
    best.verdict = std::move(v);
    return true;
  };
  if (!best.verdict.failed()) return best;
  // The shortest failing prefix, by halving.
  for (std::size_t keep = best.flits.size() / 2; keep >= 1; keep = best.flits.size() / 2) {
    const std::vector<Injection> prefix(best.flits.begin(), best.flits.begin() + static_cast<std::ptrdiff_t>(keep));
    if (!still_fails(prefix, best.conditions)) break;
  }
  // Each flit dropped in turn (from the end: the late ones matter least).
  for (std::size_t i = best.flits.size(); i-- > 0 && best.flits.size() > 1;) {
    std::vector<Injection> fewer = best.flits;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
    (void)still_fails(fewer, best.conditions);
  }
  if (best.conditions.eject_busy > 0) {
    RunConditions calm = best.conditions;
    calm.eject_busy = 0;
    (void)still_fails(best.flits, calm);
  }
  // Every flit offered from cycle 0 (each node's still in its order).
  std::vector<Injection> early = best.flits;
  for (auto& in : early) in.cycle = 0;
  if (early != best.flits) (void)still_fails(early, best.conditions);
  return best;
}

std::string injections_jsonl(const Codec& codec, const Mesh& mesh, const std::vector<Injection>& flits) {
  std::string out;
  for (const auto& in : flits) {
    nlohmann::ordered_json j;
    j["cycle"] = in.cycle;
    const Coord c = mesh.coord(in.node);
    j["node"] = {c.x, c.y};
    for (const auto& f : codec.spec().header.fields) j[f.name] = codec.get(in.flit, f.name);
    const FieldRef payload = codec.payload();
    j["payload"] = "0x" + in.flit.hex_range(payload.lsb, payload.width);
    out += j.dump() + "\n";
  }
  return out;
}

}  // namespace tpugen::noc
