// tpugen noc run: traffic through the RTL, the delivery model or both, every
// flit scored, the two compared cycle for cycle.
#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/noc_commands.h"
#include "hdl/noc/noc_context.h"
#include "model/noc/mesh_model.h"
#include "model/noc/scoreboard.h"
#include "sim/noc_engine.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

nlohmann::ordered_json score_json(const noc::Score& s, const noc::RunLog& log) {
  nlohmann::ordered_json j;
  j["status"] = log.status;
  j["injected"] = s.injected;
  j["accepted"] = s.accepted;
  j["delivered"] = s.delivered;
  j["lost"] = s.lost;
  j["duplicated"] = s.duplicated;
  j["reordered"] = s.reordered;
  j["corrupted"] = s.corrupted;
  j["too_fast"] = s.too_fast;
  j["errors"] = s.errors;
  j["latency_avg"] = s.latency_avg;
  j["latency_p99"] = s.latency_p99;
  j["latency_max"] = s.latency_max;
  j["throughput"] = s.throughput;
  j["cycles"] = s.cycles;
  j["cycles_per_second"] = log.cycles_per_second;
  j["stuck"] = log.stuck;
  j["problems"] = s.problems;
  return j;
}

void print_score(std::string_view engine, const noc::Score& s, const noc::RunLog& log) {
  fmt::print("  {:<5} {} after {} cycles: injected {}, delivered {}, lost {}, duplicated {}, reordered {}, corrupted {}"
             "{}\n",
             engine, log.status, log.cycles, s.injected, s.delivered, s.lost, s.duplicated, s.reordered, s.corrupted,
             s.too_fast ? fmt::format(", too fast {}", s.too_fast) : "");
  fmt::print("        latency avg {:.2f}, p99 {}, max {} cycles; throughput {:.4f} flits/node/cycle; {} ERROR "
             "flit(s); {:.0f} simulated cycles/s\n",
             s.latency_avg, s.latency_p99, s.latency_max, s.throughput, s.errors, log.cycles_per_second);
  for (const auto& st : log.stuck) fmt::print("        stuck: {}\n", st);
  for (const auto& p : s.problems) fmt::print("        {}\n", p);
}

void write_trace(const std::string& path, const std::vector<noc::FlitTrace>& trace) {
  std::string out;
  for (const auto& t : trace) {
    nlohmann::ordered_json j;
    j["id"] = t.id;
    j["src"] = {t.src.x, t.src.y};
    j["dst"] = {t.dst.x, t.dst.y};
    j["txn"] = t.txn;
    j["inject"] = t.inject == noc::kNever ? nlohmann::ordered_json() : nlohmann::ordered_json(t.inject);
    j["eject"] = t.eject == noc::kNever ? nlohmann::ordered_json() : nlohmann::ordered_json(t.eject);
    out += j.dump() + "\n";
  }
  write_file(path, out, "cli.io");
}

}  // namespace

int run_noc_run(const NocSpec& spec, const NocOpts& o, const NocRunOpts& r) {
  const NocParams params = resolve_noc_params(spec, o.params);
  const hdl::NocContext nctx(spec, params, o.inject_bug);
  const noc::Mesh mesh = nctx.mesh();
  const noc::Codec& codec = nctx.codec();
  const bool use_model = r.engine != "rtl", use_rtl = r.engine != "model";
  const std::vector<noc::Injection> traffic = r.inject.empty() ? noc::generate_traffic(codec, mesh, r.traffic)
                                                                : noc::read_injections(codec, mesh, r.inject);
  noc::RunConditions cond;
  cond.eject_busy = r.backpressure;
  cond.seed = r.traffic.seed;
  cond.max_cycles = r.rtl.max_cycles;
  cond.watchdog = r.watchdog;
  std::string what = r.inject.empty()
                         ? fmt::format("{} at {} flits/node/cycle, {} packets, seed {}", r.traffic.pattern,
                                       r.traffic.rate, r.traffic.packets, r.traffic.seed)
                         : fmt::format("{} flit(s) from {}", traffic.size(), r.inject);
  fmt::print("tpugen noc run: {}x{} mesh (DEPTH {}, {} routing), {}, ejection busy {}, engine {}\n", mesh.nx, mesh.ny,
             params.depth(), params.routing(), what, r.backpressure, r.engine);

  std::optional<noc::RunLog> rtl_log, model_log;
  if (use_rtl) {
    const auto sim = sim::ensure_noc_simulator(nctx, r.rtl.cache_root(), print_build_progress,
                                               {.waveform = !r.wave.empty(), .assertions = !r.no_assert, .opt_level = r.sim_opt});
    rtl_log = sim::run_noc_rtl(sim, codec, mesh, traffic, cond, {r.wave, r.work_dir});
  }
  if (use_model) model_log = noc::run_mesh_model(spec, params, traffic, cond);

  int status = kOk;
  nlohmann::ordered_json j;
  j["mesh"] = {{"nx", mesh.nx}, {"ny", mesh.ny}, {"depth", params.depth()}, {"routing", params.routing()}};
  j["engine"] = r.engine;
  j["pattern"] = r.inject.empty() ? r.traffic.pattern : "inject";
  j["rate"] = r.traffic.rate;
  j["seed"] = r.traffic.seed;
  j["backpressure"] = r.backpressure;
  std::vector<noc::FlitTrace> trace;
  auto score = [&](std::string_view name, const noc::RunLog& log, bool primary) {
    const noc::Score s = noc::score_run(codec, mesh, traffic, log, primary ? &trace : nullptr);
    print_score(name, s, log);
    if (!s.clean() || log.status != "done") status = kFail;
    return score_json(s, log);
  };
  if (rtl_log) {
    const auto sj = score("rtl", *rtl_log, true);
    for (const auto& [k, v] : sj.items()) j[k] = v;
  }
  if (model_log) {
    const auto sj = score("model", *model_log, !rtl_log);
    if (rtl_log) j["model"] = sj;
    else
      for (const auto& [k, v] : sj.items()) j[k] = v;
  }
  if (rtl_log && model_log) {
    const std::string diff = noc::compare_runs(codec, *rtl_log, *model_log, "rtl", "model");
    fmt::print("  rtl vs model: {}\n", diff.empty() ? "every flit taken in and handed over in the same cycle" : diff);
    j["rtl_model_match"] = diff.empty();
    if (!diff.empty()) status = kFail;
  }
  if (!r.inject.empty()) {
    const noc::RunLog& log = rtl_log ? *rtl_log : *model_log;
    fmt::print("  every flit the local ports handed over:\n");
    for (const auto& e : log.ejections)
      fmt::print("    cycle {:>6} node ({},{}): {}\n", e.cycle, mesh.coord(e.node).x, mesh.coord(e.node).y,
                 codec.describe(e.flit));
  }
  if (!r.json.empty()) write_file(r.json, j.dump(2) + "\n", "cli.io");
  if (!r.trace.empty()) write_trace(r.trace, trace);
  fmt::print("result:  {}\n", status == kOk ? "PASS  every flit arrived once, unmodified, in order per pair"
                                            : "FAIL");
  return status;
}

}  // namespace tpugen::cli
