// tpugen noc: the NoC fabric of spec/noc.yaml. `noc gen` writes a mesh;
// `noc run` sends traffic through the RTL, the delivery model or both and
// scores every flit.
#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "hdl/noc/noc_generate.h"
#include "model/noc/mesh_model.h"
#include "model/noc/scoreboard.h"
#include "model/noc/traffic.h"
#include "sim/noc_engine.h"
#include "spec/noc_spec.h"
#include "util/file_io.h"
#include "util/names.h"

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


/// `noc run`'s own options.
struct NocRunOpts {
  noc::TrafficSpec traffic;
  std::string engine = "rtl";
  std::string json, trace, inject, wave, work_dir;
  double backpressure = 0.0;
  std::uint64_t watchdog = noc::RunConditions{}.watchdog;
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
    const auto sim = sim::ensure_noc_simulator(nctx, r.rtl.cache_root(), print_build_progress, !r.wave.empty());
    rtl_log = sim::run_noc_rtl(sim, codec, traffic, cond, {r.wave, r.work_dir});
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
            run->add_option("--work-dir", r->work_dir,
                            "keep the RTL run's files here (the traffic, the simulator's log of every event)");
            add_rtl_cache_flags(*run, r->rtl, "RTL engine");
            run->add_option("--inject-bug", o->inject_bug)->group("");
            return [gen, run, spec, load_error, o, r]() {
              if (!load_error->empty()) {
                fmt::print(stderr, "tpugen: {}\n", *load_error);
                return kBadInput;
              }
              const NocSpec s = o->spec.empty() ? **spec : load_noc_spec(o->spec);
              if (gen->parsed()) return run_noc_gen(s, *o);
              if (run->parsed()) return run_noc_run(s, *o, *r);
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
