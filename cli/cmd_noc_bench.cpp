// tpugen noc bench: the offered-load sweep of every pattern (zero-load
// latency, saturation, the latency curves, the plot) and the simulation's
// speed at full load.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/noc_commands.h"
#include "hdl/noc/noc_context.h"
#include "model/noc/load_figures.h"
#include "model/noc/mesh_model.h"
#include "model/noc/scoreboard.h"
#include "sim/noc_engine.h"
#include "util/file_io.h"
#include "util/process.h"

namespace tpugen::cli {

int run_noc_bench(const NocSpec& spec, const NocOpts& o, const NocBenchOpts& b) {
  const NocParams params = resolve_noc_params(spec, o.params);
  const hdl::NocContext nctx(spec, params, o.inject_bug);
  const noc::Mesh mesh = nctx.mesh();
  const noc::Codec& codec = nctx.codec();
  fmt::print("tpugen noc bench: {}x{} mesh (DEPTH {}, {} routing), engine {}; every figure measured after {} cycles "
             "of warm-up over {} cycles\n",
             mesh.nx, mesh.ny, params.depth(), params.routing(), b.engine, b.warmup, b.window);
  std::filesystem::path sim;
  if (b.engine == "rtl")
    sim = sim::ensure_noc_simulator(nctx, b.rtl.cache_root(), print_build_progress,
                                     {.assertions = !b.no_assert, .opt_level = b.sim_opt});
  noc::RunConditions cond;
  cond.seed = b.seed;
  cond.max_cycles = b.rtl.max_cycles;
  double sim_cycles = 0, sim_seconds = 0;
  auto run = [&](const std::vector<noc::Injection>& traffic) {
    noc::RunLog log = b.engine == "rtl" ? sim::run_noc_rtl(sim, codec, mesh, traffic, cond, {})
                                        : noc::run_mesh_model(spec, params, traffic, cond);
    const noc::Score s = noc::score_run(codec, mesh, traffic, log);
    if (!s.clean() || log.status != "done")
      throw Error("noc.bench", fmt::format("a bench run did not deliver every flit whole ({}; {})", log.status,
                                           s.problems.empty() ? "" : s.problems.front()));
    sim_cycles += static_cast<double>(log.cycles);
    sim_seconds += log.sim_seconds;
    return log;
  };

  // Zero load: one flit in a hundred cycles per node, uniform.
  noc::TrafficSpec zero;
  zero.pattern = "uniform";
  zero.rate = 0.01;
  zero.seed = b.seed;
  zero.packets = static_cast<std::uint64_t>(std::max(200, mesh.nodes() * 20));
  const auto zero_traffic = noc::generate_traffic(codec, mesh, zero);
  const noc::ZeroLoadLine z = noc::zero_load_line(codec, mesh, zero_traffic, run(zero_traffic));
  fmt::print("zero load: {:.2f} cycles over {:.2f} hops on average: {:.2f} cycles per hop + {:.2f}\n", z.latency_avg,
             z.hops_avg, z.slope, z.intercept);

  const std::vector<double> rates = {0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  nlohmann::ordered_json curves = nlohmann::ordered_json::object(), saturation = nlohmann::ordered_json::object();
  fmt::print("{:<10} {:>10}  latency (cycles, source queue included) at offered load\n", "pattern", "saturation");
  std::string header;
  for (const double r : rates) header += fmt::format("{:>7.2f}", r);
  fmt::print("{:<10} {:>10}  {}\n", "", "(accepted)", header);
  double uniform_sat = 0;
  for (const auto pattern : noc::pattern_names()) {
    try {
      noc::check_pattern(pattern, mesh);
    } catch (const Error&) {
      continue;  // not defined on this mesh
    }
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    std::string line;
    double sat = 0;
    for (const double r : rates) {
      noc::TrafficSpec t;
      t.pattern = std::string(pattern);
      t.rate = r;
      t.seed = b.seed;
      t.packets = static_cast<std::uint64_t>(r * mesh.nodes() * static_cast<double>(b.warmup + b.window)) + 1;
      const auto traffic = noc::generate_traffic(codec, mesh, t);
      const noc::RunLog log = run(traffic);
      const noc::WindowFigures w = noc::window_figures(codec, mesh, traffic, log, b.warmup, b.warmup + b.window);
      points.push_back({{"offered", r}, {"accepted", w.accepted}, {"latency_avg", w.latency_avg}});
      line += fmt::format("{:>7.1f}", w.latency_avg);
      if (r == rates.back()) sat = w.accepted;
    }
    if (pattern == "uniform") uniform_sat = sat;
    curves[std::string(pattern)] = points;
    saturation[std::string(pattern)] = sat;
    fmt::print("{:<10} {:>10.3f}  {}\n", pattern, sat, line);
  }
  const double bound = noc::uniform_bisection_bound(mesh);
  fmt::print("uniform saturation {:.3f} flits/node/cycle = {:.1f}% of the bisection bound {:.3f} (4 / max(NX, NY))\n",
             uniform_sat, 100.0 * uniform_sat / bound, bound);
  // Simulation speed: a run long enough that the cycles before the caches
  // are warm do not count (the sweep's runs are a few thousand cycles each).
  noc::TrafficSpec full;
  full.pattern = "uniform";
  full.rate = 1.0;
  full.seed = b.seed;
  // Every node offers a flit each cycle for speed_cycles cycles, at most
  // 400,000 flits in all (a 16 x 16 mesh drains them in about 6,000 cycles).
  full.packets = std::min<std::uint64_t>(static_cast<std::uint64_t>(mesh.nodes()) * b.speed_cycles, 400000);
  const noc::RunLog speed = run(noc::generate_traffic(codec, mesh, full));
  const double full_load_cps = speed.cycles_per_second;
  const std::string engine = b.engine == "rtl" ? fmt::format("rtl, assertions {}, C++ -O{}", b.no_assert ? "off" : "on", b.sim_opt)
                                               : b.engine;
  fmt::print("simulation: {:.0f} cycles/s at full uniform load ({} cycles), {:.0f} cycles/s over the whole bench ({})\n",
             full_load_cps, speed.cycles, sim_seconds > 0 ? sim_cycles / sim_seconds : 0.0, engine);

  nlohmann::ordered_json j;
  j["mesh"] = {{"nx", mesh.nx}, {"ny", mesh.ny}, {"depth", params.depth()}, {"routing", params.routing()}};
  j["engine"] = b.engine;
  if (b.engine == "rtl") {
    j["assertions"] = !b.no_assert;
    j["sim_opt"] = b.sim_opt;
  }
  j["warmup"] = b.warmup;
  j["window"] = b.window;
  j["zero_load_latency_per_hop"] = z.slope;
  j["zero_load_latency_intercept"] = z.intercept;
  j["zero_load_latency_avg"] = z.latency_avg;
  j["saturation"] = saturation;
  j["bisection_bound"] = bound;
  j["uniform_saturation_over_bisection_bound"] = uniform_sat / bound;
  j["cycles_per_second_full_load"] = full_load_cps;
  j["curves"] = curves;
  const std::string text = j.dump(2) + "\n";
  if (!b.json.empty()) write_file(b.json, text, "cli.io");
  if (!b.plot.empty()) {
    const sim::RunDir dir("", "tpugen-noc-plot-");
    write_file(dir.path() / "bench.json", text, "cli.io");
    ProcessSpec plot;
    plot.argv = {TPUGEN_PYTHON3, TPUGEN_NOC_PLOT, (dir.path() / "bench.json").string(), b.plot};
    plot.capture = true;
    const ProcessResult rc = run_process(plot);
    if (!rc.ok())
      throw Error("noc.plot", fmt::format("the plot failed ({}; Debian's python3-matplotlib is needed):\n{}",
                                          rc.describe(), rc.output));
    fmt::print("wrote {}\n", b.plot);
  }
  return kOk;
}

}  // namespace tpugen::cli
