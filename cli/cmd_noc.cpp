// tpugen noc: the NoC fabric of spec/noc.yaml. `noc gen` writes a mesh;
// `noc run` sends traffic through the RTL, the delivery model or both and
// scores every flit; `noc fuzz` runs random cases on both and shrinks a
// failing one; `noc bench` sweeps the offered load and prints the figures;
// `noc synth` synthesizes the mesh or one router of it (tpugen synth's flow).
#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "cli/synth_flags.h"
#include "fuzz/noc/noc_campaign.h"
#include "hdl/noc/noc_generate.h"
#include "model/noc/load_figures.h"
#include "model/noc/mesh_model.h"
#include "model/noc/scoreboard.h"
#include "model/noc/traffic.h"
#include "sim/noc_engine.h"
#include "spec/noc_spec.h"
#include "util/file_io.h"
#include "util/names.h"
#include "util/process.h"
#include "util/rng.h"

namespace tpugen::cli {

namespace {

/// What every `noc` subcommand shares: the NoC spec and the fabric's
/// build-parameter flags (one per parameter of the spec: --nx, --ny, --depth,
/// --routing).
struct NocOpts {
  std::string spec;  ///< the NoC spec; empty: noc.yaml beside the ISA spec
  std::map<std::string, std::string> params;
  std::string out;
  std::string inject_bug;
};

void add_noc_param_flags(CLI::App& cmd, NocOpts& o, const NocSpec& spec) {
  cmd.add_option("--noc-spec", o.spec, "the NoC spec (default: noc.yaml beside the ISA spec)");
  for (const auto& p : spec.parameters) {
    const std::string name = p.name;
    const std::string help =
        p.is_choice() ? fmt::format("{} (default {})", p.role, p.default_choice)
                      : fmt::format("{} ({} .. {}, default {})", p.role, p.min, p.max, p.default_value);
    cmd.add_option_function<std::string>(
           "--" + kebab(p.name), [&o, name](const std::string& v) { o.params[name] = v; }, help)
        ->type_name(p.is_choice() ? "NAME" : "INT");
  }
}

std::string describe(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  if (stem == "tpu_noc_pkg") return "the NoC's constants, from the spec";
  for (const auto& m : hdl::noc_modules())
    if (stem == m.module) return std::string(m.description);
  if (stem == "tpu_noc_router") return "hand-written: the router";
  if (stem == "files") return "compile order";
  if (stem == "params") return "the resolved parameters";
  return "hand-written primitive";
}

int run_noc_gen(const NocSpec& spec, const NocOpts& o) {
  const NocParams params = resolve_noc_params(spec, o.params);
  const hdl::NocContext nctx(spec, params, o.inject_bug);
  const auto files = hdl::generate_noc(nctx, o.out);
  std::string text;
  for (const auto& [name, v] : params.listing()) text += fmt::format(" {}={}", name, v);
  fmt::print("tpugen noc gen:{}\nwrote {} files to {}:\n", text, files.size(), o.out);
  for (const auto& f : files)
    fmt::print("  {:<22} {:>8} bytes  {}\n", std::filesystem::path(f).lexically_relative(o.out).string(),
               std::filesystem::file_size(f), describe(f));
  return kOk;
}

/// The C++ optimisation level of the simulator `noc run` and `noc fuzz`
/// build: -O1 compiles in about a third of -O3's time and runs about a
/// quarter slower (sim::NocSimOptions::opt_level), the better trade for the
/// short runs most of them are; `noc bench`, which measures the simulation's
/// speed, builds at -O3.
constexpr int kNocRunSimOpt = 1;

/// --sim-opt: the C++ optimisation level of the mesh's simulator (each level
/// is a simulator of its own in the cache).
void add_sim_opt_flag(CLI::App& cmd, int& level) {
  cmd.add_option("--sim-opt", level,
                 "the C++ optimisation level of the RTL simulator: 1 builds about three times faster than 3 and "
                 "runs about a quarter slower")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
}

/// `noc run`'s own options.
struct NocRunOpts {
  noc::TrafficSpec traffic;
  std::string engine = "rtl";
  std::string json, trace, inject, wave, work_dir;
  double backpressure = 0.0;
  std::uint64_t watchdog = noc::RunConditions{}.watchdog;
  bool no_assert = false;
  int sim_opt = kNocRunSimOpt;
  RtlEngineFlags rtl;
};

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

/// `noc bench`'s own options.
struct NocBenchOpts {
  std::string engine = "rtl";
  std::string json, plot;
  std::uint64_t seed = 1;
  std::uint64_t warmup = 500, window = 2000;  ///< cycles before measuring, and measured
  std::uint64_t speed_cycles = 20000;         ///< the simulation-speed run: full uniform load this long
  bool no_assert = false;
  int sim_opt = 3;  ///< the bench measures simulation speed: the fastest simulator
  RtlEngineFlags rtl;
};

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

/// `noc fuzz`'s own options.
struct NocFuzzOpts {
  std::uint64_t count = 100, seed = 1, max_packets = 400;
  int configs = 0;  ///< random fabrics instead of the one the flags give
  std::string out = "noc_fuzz_out";
  bool keep_going = false, no_shrink = false;
  int sim_opt = kNocRunSimOpt;
  RtlEngineFlags rtl;
};

/// One fabric's share of a campaign. Returns the failures found.
int fuzz_fabric(const NocSpec& spec, const NocParams& params, const std::string& inject_bug, const NocFuzzOpts& f,
                std::uint64_t first_seed, std::uint64_t count, const std::string& command) {
  const hdl::NocContext nctx(spec, params, inject_bug);
  const noc::Mesh mesh = nctx.mesh();
  const noc::Codec& codec = nctx.codec();
  const auto sim = sim::ensure_noc_simulator(nctx, f.rtl.cache_root(), print_build_progress, {.opt_level = f.sim_opt});
  const noc::NocEngine rtl = [&](const std::vector<noc::Injection>& t, const noc::RunConditions& c) {
    return sim::run_noc_rtl(sim, codec, mesh, t, c, {});
  };
  const noc::NocEngine model = [&](const std::vector<noc::Injection>& t, const noc::RunConditions& c) {
    return noc::run_mesh_model(spec, params, t, c);
  };
  std::string fabric;
  for (const auto& [name, v] : params.listing()) fabric += fmt::format(" --{} {}", kebab(name), v);
  int failures = 0;
  std::uint64_t flits = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    Rng rng(first_seed + i);
    noc::NocCase c = noc::random_case(rng, mesh, f.max_packets);
    c.conditions.max_cycles = f.rtl.max_cycles;
    const auto traffic = noc::generate_traffic(codec, mesh, c.traffic);
    flits += traffic.size();
    const noc::NocVerdict v = noc::judge(codec, mesh, traffic, c.conditions, rtl, model);
    if (!v.failed()) continue;
    ++failures;
    fmt::print("case {} ({}x{}, {} at {}, {} flits, ejection busy {}): FAIL {}\n", first_seed + i, mesh.nx, mesh.ny,
               c.traffic.pattern, c.traffic.rate, traffic.size(), c.conditions.eject_busy, v.failure);
    noc::NocShrunk s{traffic, c.conditions, v, 0};
    if (!f.no_shrink) s = noc::shrink_flits(codec, mesh, traffic, c.conditions, rtl, model);
    const std::filesystem::path dir = std::filesystem::path(f.out) / fmt::format("case_{}", first_seed + i);
    std::filesystem::create_directories(dir);
    write_file(dir / "flits.jsonl", noc::injections_jsonl(codec, mesh, s.flits), "cli.io");
    const std::string replay =
        fmt::format("tpugen noc run{} --inject {} --backpressure {} --seed {} --engine both{}", fabric,
                    (dir / "flits.jsonl").string(), s.conditions.eject_busy, s.conditions.seed,
                    inject_bug.empty() ? "" : " --inject-bug " + inject_bug);
    nlohmann::ordered_json j;
    j["command"] = command;
    j["case_seed"] = first_seed + i;
    j["pattern"] = c.traffic.pattern;
    j["rate"] = c.traffic.rate;
    j["flits"] = traffic.size();
    j["failure"] = v.failure;
    j["shrunk_flits"] = s.flits.size();
    j["shrunk_failure"] = s.verdict.failure;
    j["shrink_runs"] = s.runs;
    j["replay"] = replay;
    write_file(dir / "case.json", j.dump(2) + "\n", "cli.io");
    write_file(dir / "replay.sh", "#!/bin/sh\n" + replay + "\n", "cli.io");
    fmt::print("  shrunk to {} flit(s) in {} runs: {}\n  reproducer: {}\n  replay: {}\n", s.flits.size(), s.runs,
               s.verdict.failure, dir.string(), replay);
    if (!f.keep_going) break;
  }
  fmt::print("tpugen noc fuzz: {}x{} mesh (DEPTH {}, {}): {} case(s), {} flits, {} failure(s)\n", mesh.nx, mesh.ny,
             params.depth(), params.routing(), count, flits, failures);
  return failures;
}

int run_noc_fuzz(const NocSpec& spec, const NocOpts& o, const NocFuzzOpts& f, const std::string& command) {
  int failures = 0;
  if (f.configs <= 0) {
    failures = fuzz_fabric(spec, resolve_noc_params(spec, o.params), o.inject_bug, f, f.seed, f.count, command);
  } else {
    // Random fabrics: small meshes of every shape (lines included) and FIFO
    // depths from the shallowest up, each built once and given its share of the cases.
    Rng rng(f.seed ^ 0x6e6f63ULL);
    static const std::vector<std::string> depths = {"2", "3", "4", "8", "32"};
    for (int k = 0; k < f.configs && (failures == 0 || f.keep_going); ++k) {
      std::map<std::string, std::string> p = o.params;
      p["NX"] = std::to_string(rng.uniform(1, 5));
      p["NY"] = std::to_string(rng.uniform(1, 5));
      p["DEPTH"] = rng.pick(depths);
      const std::uint64_t share = f.count / static_cast<std::uint64_t>(f.configs) + 1;
      failures += fuzz_fabric(spec, resolve_noc_params(spec, p), o.inject_bug, f, f.seed + share * k, share, command);
    }
  }
  fmt::print("result:  {}\n", failures == 0 ? "PASS  every case delivered whole, in order, and RTL == model"
                                            : fmt::format("FAIL  {} failing case(s); reproducers under {}", failures, f.out));
  return failures == 0 ? kOk : kFail;
}

/// `noc synth`'s own options.
struct NocSynthOpts {
  std::string router;  ///< "X,Y": that router alone; empty: the whole mesh
  SynthTargetFlags flags;
};

/// --router's "X,Y": a column and a row.
noc::Coord parse_router(const std::string& text) {
  const auto comma = text.find(',');
  const auto number = [&](std::string_view part, int& v) {
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string_view::npos) return false;
    v = std::stoi(std::string(part));
    return true;
  };
  noc::Coord c;
  if (comma == std::string::npos || !number(std::string_view(text).substr(0, comma), c.x) ||
      !number(std::string_view(text).substr(comma + 1), c.y))
    throw Error("noc.router", fmt::format("--router takes X,Y (a column and a row, e.g. 1,1), not '{}'", text));
  return c;
}

int run_noc_synth(const NocSpec& spec, const NocOpts& o, const NocSynthOpts& so) {
  const NocParams params = resolve_noc_params(spec, o.params);
  const hdl::NocContext nctx(spec, params);
  const noc::Mesh mesh = nctx.mesh();
  std::optional<noc::Coord> router;
  std::uint64_t links = 0;
  if (!so.router.empty()) {
    router = parse_router(so.router);
    links = noc::port_links(spec, mesh, *router);  // refuses a node outside the mesh, before anything is written
  }
  synth::FlowOptions f = so.flags.flow_options(o.out);
  hdl::generate_noc(nctx, f.rtl_dir.string());
  for (const auto& [name, v] : params.listing()) f.parameters.emplace_back(name, v);
  f.config_name = fmt::format("{}x{}_d{}_{}", mesh.nx, mesh.ny, params.depth(), params.routing());
  f.spec_name = std::filesystem::path(spec.path).filename().string();
  f.spec_sha256 = spec.sha256;
  if (!router) {
    f.top = "tpu_noc_mesh";
    f.core_description = "tpugen NoC fabric, the whole mesh";
  } else {
    f.top = "tpu_noc_router";
    f.top_parameters = {{"X", std::to_string(router->x)}, {"Y", std::to_string(router->y)},
                        {"Links", std::to_string(links)}};
    f.parameters.insert(f.parameters.end(), f.top_parameters.begin(), f.top_parameters.end());
    f.config_name += fmt::format("_x{}y{}", router->x, router->y);
    f.core_description = fmt::format("tpugen NoC router ({},{}) alone", router->x, router->y);
    std::string ports;
    for (std::size_t i = 0; i < spec.ports.size(); ++i)
      if ((links >> i & 1U) != 0) ports += (ports.empty() ? "" : " ") + spec.ports[i].name;
    fmt::print("tpugen noc synth: router ({},{}) of the {}x{} mesh: X={} Y={} Links={} (ports {}; the others are "
               "at the mesh's edge)\n",
               router->x, router->y, mesh.nx, mesh.ny, router->x, router->y, links, ports);
  }
  return run_synth_flow("noc synth", f);
}

}  // namespace

Command noc_command() {
  return {"noc", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            // The NoC spec's parameters make the flags, so it is read now (from
            // beside the ISA spec; --noc-spec names another for the run). A spec
            // that does not load is reported when a noc command runs, so that
            // it never stops the other commands.
            auto spec = std::make_shared<std::optional<NocSpec>>();
            auto load_error = std::make_shared<std::string>();
            try {
              *spec = load_noc_spec(noc_spec_path(ctx.spec.path));
            } catch (const Error& e) {
              *load_error = e.what();
            }
            auto o = std::make_shared<NocOpts>();
            sub.require_subcommand(1);
            CLI::App* gen = sub.add_subcommand("gen", "write a mesh's SystemVerilog: tpu_noc_pkg, the router, "
                                                      "tpu_noc_mesh, files.f, params.json");
            if (spec->has_value()) {
              add_noc_param_flags(*gen, *o, **spec);
            } else {
              gen->allow_extras();
            }
            gen->add_option("--out", o->out, "the output directory")->required();
            gen->add_option("--inject-bug", o->inject_bug)->group("");

            auto r = std::make_shared<NocRunOpts>();
            CLI::App* run = sub.add_subcommand("run", "send traffic through the mesh (RTL, delivery model or both) "
                                                      "and score every flit");
            if (spec->has_value()) add_noc_param_flags(*run, *o, **spec);
            else run->allow_extras();
            std::string patterns;
            for (const auto p : noc::pattern_names()) patterns += (patterns.empty() ? "" : "|") + std::string(p);
            run->add_option("--pattern", r->traffic.pattern, "the traffic pattern")
                ->type_name(patterns)
                ->capture_default_str();
            run->add_option("--rate", r->traffic.rate, "offered load: flits per node per cycle (Bernoulli), 0 < R <= 1")
                ->capture_default_str();
            run->add_option("--packets", r->traffic.packets, "single-flit packets over all nodes")->capture_default_str();
            run->add_option("--seed", r->traffic.seed, "of the traffic and the ejection ports' busy")
                ->capture_default_str();
            run->add_option("--hotspot-fraction", r->traffic.hotspot_fraction,
                            "hotspot: the share of flits sent to the centre node")
                ->capture_default_str();
            run->add_option("--engine", r->engine, "the RTL under Verilator, the delivery model, or both, compared")
                ->check(CLI::IsMember({"rtl", "model", "both"}))
                ->capture_default_str();
            run->add_option("--backpressure", r->backpressure,
                            "0..1: probability that an ejection port is busy in a cycle")
                ->check(CLI::Range(0.0, 0.99))
                ->capture_default_str();
            run->add_option("--watchdog", r->watchdog, "stop after this many cycles with flits in flight and none moving")
                ->capture_default_str();
            run->add_option("--json", r->json, "write the figures as JSON");
            run->add_option("--trace", r->trace, "write one JSON line per flit: id, src, dst, txn, inject, eject");
            run->add_option("--inject", r->inject,
                            "send these flits instead (JSON lines: cycle, node [x, y], header fields, payload hex)");
            run->add_option("--wave", r->wave, "write an FST waveform of the RTL run");
            run->add_flag("--no-assert", r->no_assert,
                          "build the RTL simulator without the RTL's assertions (faster; the scoreboard still "
                          "checks every flit)");
            add_sim_opt_flag(*run, r->sim_opt);
            run->add_option("--work-dir", r->work_dir,
                            "keep the RTL run's files here (the traffic, the simulator's log of every event)");
            add_rtl_cache_flags(*run, r->rtl, "RTL engine");
            run->add_option("--inject-bug", o->inject_bug)->group("");

            auto b = std::make_shared<NocBenchOpts>();
            CLI::App* bench = sub.add_subcommand(
                "bench", "sweep the offered load of every pattern: zero-load latency, saturation, latency curves");
            if (spec->has_value()) add_noc_param_flags(*bench, *o, **spec);
            else bench->allow_extras();
            bench->add_option("--engine", b->engine, "the RTL under Verilator (the figures the docs quote) or the model")
                ->check(CLI::IsMember({"rtl", "model"}))
                ->capture_default_str();
            bench->add_option("--seed", b->seed, "of the traffic")->capture_default_str();
            bench->add_option("--warmup", b->warmup, "cycles before the measurement window")->capture_default_str();
            bench->add_option("--window", b->window, "cycles measured")->capture_default_str();
            bench->add_option("--speed-cycles", b->speed_cycles,
                              "the simulation-speed run: cycles of full uniform load (at most 400,000 flits)")
                ->capture_default_str();
            bench->add_option("--json", b->json, "write the figures as JSON");
            bench->add_option("--plot", b->plot, "draw the latency-versus-offered-load curves (PNG, matplotlib)");
            bench->add_flag("--no-assert", b->no_assert,
                            "build the RTL simulator without the RTL's assertions (faster; every run is still scored)");
            add_sim_opt_flag(*bench, b->sim_opt);
            add_rtl_cache_flags(*bench, b->rtl, "RTL engine");

            auto fz = std::make_shared<NocFuzzOpts>();
            CLI::App* fuzz = sub.add_subcommand(
                "fuzz", "random traffic on the RTL against the delivery model; a failing case shrinks to a reproducer");
            if (spec->has_value()) add_noc_param_flags(*fuzz, *o, **spec);
            else fuzz->allow_extras();
            fuzz->add_option("--count", fz->count, "cases")->capture_default_str();
            fuzz->add_option("--seed", fz->seed, "the first case's seed (case i is seed + i)")->capture_default_str();
            fuzz->add_option("--max-packets", fz->max_packets, "the most flits a case sends")->capture_default_str();
            fuzz->add_option("--configs", fz->configs,
                             "random fabrics (NX, NY 1 .. 5, DEPTH 2 .. 32), each built once, instead of the flags'")
                ->capture_default_str();
            fuzz->add_option("--out", fz->out, "where reproducers go")->capture_default_str();
            fuzz->add_flag("--keep-going", fz->keep_going, "go on after a failing case");
            fuzz->add_flag("--no-shrink", fz->no_shrink, "keep a failing case whole");
            add_sim_opt_flag(*fuzz, fz->sim_opt);
            add_rtl_cache_flags(*fuzz, fz->rtl, "RTL engine");
            fuzz->add_option("--inject-bug", o->inject_bug)->group("");
            auto sy = std::make_shared<NocSynthOpts>();
            CLI::App* synth = sub.add_subcommand(
                "synth", "synthesize the mesh (tpu_noc_mesh), or with --router X,Y one router with that node's "
                         "parameters, as `tpugen synth` does: the gates, the resources, ice40's Fmax, the handoff");
            if (spec->has_value()) add_noc_param_flags(*synth, *o, **spec);
            else synth->allow_extras();
            synth->add_option("--out", o->out, "the output directory (created if needed)")->required();
            synth->add_option("--router", sy->router,
                              "X,Y: synthesize only the router at column X, row Y, with the parameters it has in "
                              "the mesh (X, Y, Links: its ports that lead somewhere); an interior node (1,1 on a 3x3 "
                              "or larger mesh) has all five ports. Default: the whole mesh")
                ->type_name("X,Y");
            add_synth_target_flags(*synth, sy->flags);
            return [gen, run, bench, fuzz, synth, spec, load_error, o, r, b, fz, sy, &ctx]() {
              if (!load_error->empty()) {
                fmt::print(stderr, "tpugen: {}\n", *load_error);
                return kBadInput;
              }
              const NocSpec s = o->spec.empty() ? **spec : load_noc_spec(o->spec);
              if (gen->parsed()) return run_noc_gen(s, *o);
              if (run->parsed()) return run_noc_run(s, *o, *r);
              if (bench->parsed()) return run_noc_bench(s, *o, *b);
              if (fuzz->parsed()) return run_noc_fuzz(s, *o, *fz, ctx.command_line);
              if (synth->parsed()) return run_noc_synth(s, *o, *sy);
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
