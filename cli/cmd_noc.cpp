// tpugen noc: the NoC fabric of spec/noc.yaml. `noc gen` writes a mesh;
// `noc run` sends traffic through the RTL, the delivery model or both and
// scores every flit; `noc fuzz` runs random cases on both and shrinks a
// failing one; `noc bench` sweeps the offered load and prints the figures;
// `noc synth` synthesizes the mesh or one router of it (tpugen synth's flow).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "cli/cli.h"
#include "cli/noc_commands.h"
#include "hdl/noc/noc_generate.h"
#include "model/noc/traffic.h"
#include "spec/compute_units_spec.h"
#include "spec/noc_spec.h"
#include "util/names.h"

namespace tpugen::cli {

namespace {

void add_noc_param_flags(CLI::App& cmd, NocOpts& o, const NocSpec& spec) {
  cmd.add_option("--noc-spec", o.spec, "the NoC spec (default: noc.yaml beside the ISA spec)");
  add_build_param_flags(cmd, o.params, spec.parameters, "");
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

/// --sim-opt: the C++ optimisation level of the mesh's simulator (each level
/// is a simulator of its own in the cache).
void add_sim_opt_flag(CLI::App& cmd, int& level) {
  cmd.add_option("--sim-opt", level,
                 "the C++ optimisation level of the RTL simulator: 1 builds in about three quarters of 3's time "
                 "and runs about a fifth slower")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
}

}  // namespace

noc::Coord parse_node(const std::string& text, std::string_view flag) {
  const auto comma = text.find(',');
  const auto number = [&](std::string_view part, int& v) {
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string_view::npos) return false;
    v = std::stoi(std::string(part));
    return true;
  };
  noc::Coord c;
  if (comma == std::string::npos || !number(std::string_view(text).substr(0, comma), c.x) ||
      !number(std::string_view(text).substr(comma + 1), c.y))
    throw Error("cli.node", fmt::format("{} takes X,Y (a column and a row, e.g. 1,1), not '{}'", flag, text));
  return c;
}

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
            // The compute units' specs, for the flags of dispatch and gemm.
            auto cu_spec = std::make_shared<std::optional<ComputeUnitsSpec>>();
            auto sysnode_spec = std::make_shared<std::optional<SystemNodeSpec>>();
            if (spec->has_value()) {
              try {
                *sysnode_spec = load_system_node_spec(system_node_spec_path(ctx.spec.path), **spec);
                *cu_spec = load_compute_units_spec(compute_units_spec_path(ctx.spec.path), **spec, **sysnode_spec);
              } catch (const Error& e) {
                *load_error = e.what();
              }
            }
            auto o = std::make_shared<NocOpts>();
            sub.require_subcommand(1);
            CLI::App* gen = sub.add_subcommand("gen", "write a mesh's SystemVerilog (tpu_noc_pkg, the router, "
                                                      "tpu_noc_mesh, files.f, params.json), or with --cores K a "
                                                      "system of compute units on it (tpu_noc_cu_system)");
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
            bench->add_flag("--compute-units", b->compute_units,
                            "instead of the sweep: one GEMM over 1, 2 and 4 TinyTPU units (T = 8, MAXDIM = 64) beside "
                            "the standalone core, on the RTL");
            bench->add_option("--latency", b->rtl.latency,
                              "--compute-units: memory latency, cycles beyond the next one")
                ->capture_default_str();

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

            // Compute units on the mesh: the core's, the fabric's, the CU
            // wrapper's, the orchestrator's and the agent's parameters.
            auto cu_opts = std::make_shared<NocCuOpts>();
            // The system's flags (gen, dispatch, gemm); false when the specs
            // did not load (the command reports it when it runs).
            auto add_system_flags = [&](CLI::App& cmd, NocCuOpts& c, const std::string& cores_help) {
              if (!cu_spec->has_value()) {
                cmd.allow_extras();
                return false;
              }
              add_param_flags(cmd, ctx);
              add_build_param_flags(cmd, c.cu_params, (*cu_spec)->cu_base.parameters, "");
              add_build_param_flags(cmd, c.orch_params, (*cu_spec)->orchestrator.parameters, "");
              add_build_param_flags(cmd, c.agent_params, (*sysnode_spec)->agent.parameters, "agent-");
              add_build_param_flags(cmd, c.mover_params, (*sysnode_spec)->mover.parameters, "mover-");
              cmd.add_option("--cores", c.cores, cores_help)->capture_default_str();
              cmd.add_option("--nodes", c.nodes,
                             "the units' nodes, X,Y;X,Y;... (default: the first --cores nodes in row-major order)")
                  ->type_name("X,Y;...");
              return true;
            };
            auto gen_cu = std::make_shared<NocCuOpts>();
            gen_cu->cores = 0;
            add_system_flags(*gen, *gen_cu,
                             "with K > 0, a system: K TinyTPU compute units, the system node and the orchestrator "
                             "on the mesh (tpu_noc_cu_system); 0: the mesh alone");
            auto add_cu_flags = [&, cu_opts](CLI::App& cmd) {
              if (cu_spec->has_value()) add_noc_param_flags(cmd, *o, **spec);
              if (!add_system_flags(cmd, *cu_opts, "compute units (TinyTPU cores) on the mesh")) return;
              cmd.add_option("--engine", cu_opts->engine, "the reference model, the RTL under Verilator, or both")
                  ->check(CLI::IsMember({"model", "rtl", "both"}))
                  ->capture_default_str();
              cmd.add_option("--timeout", cu_opts->timeout, "cycles the host waits for every program to end")
                  ->capture_default_str();
              cmd.add_option("--json", cu_opts->json, "write the result as JSON");
              cmd.add_option("--latency", cu_opts->rtl.latency,
                             "the RTL's memory: cycles from AR / the last W to R / B, beyond the next")
                  ->capture_default_str();
              cmd.add_option("--trace", cu_opts->trace, "write an FST waveform of the RTL run (its own simulator)");
              add_rtl_cache_flags(cmd, cu_opts->rtl, "RTL engine");
            };
            auto dsp = std::make_shared<NocDispatchOpts>();
            CLI::App* dispatch = sub.add_subcommand(
                "dispatch",
                "stage CU_INST flits (JSON lines: txn, last, and payload hex or op and fields by name) through the "
                "orchestrator to one node and print every retirement flit that comes back; exit 1 when the program "
                "does not complete, naming the node, the txn and the credits outstanding");
            add_cu_flags(*dispatch);
            dispatch->add_option("--node", dsp->node, "the unit's node X,Y")->required()->type_name("X,Y");
            dispatch->add_option("--flits", dsp->flits, "the program: one CU_INST a line")->required();
            dispatch->add_option("--memory-bytes", dsp->memory_bytes, "bytes of memory (zeros) behind the agent")
                ->capture_default_str();
            dispatch->add_option("--memory", dsp->memory,
                                 "the memory behind the agent, byte 0 first (a cu-fuzz case's memory.bin; instead "
                                 "of --memory-bytes of zeros)");
            dispatch->add_option("--memory-out", dsp->memory_out,
                                 "write the memory after the run, byte 0 first (the RTL's, when it ran)");
            dispatch
                ->add_option("--memory-seed", dsp->memory_seed,
                             "--memory-bytes of pseudo-random bytes (std::mt19937_64 from this seed) instead of "
                             "zeros")
                ->excludes("--memory");
            dispatch
                ->add_option("--place", dsp->place,
                             "ADDR=FILE: FILE's bytes into the memory from byte ADDR (a program image for a "
                             "LOAD, an operand), after --memory or --memory-seed; repeatable")
                ->type_name("ADDR=FILE");
            auto gm = std::make_shared<NocGemmOpts>();
            CLI::App* gemm = sub.add_subcommand(
                "gemm", "split a GEMM over the mesh's TinyTPU units (blocks of at most MAXDIM x MAXDIM, shared operands "
                        "multicast), dispatch it through the orchestrator, and check C against clip(A @ B) and the "
                        "memory around it");
            add_cu_flags(*gemm);
            gemm->add_option("--gemm", gm->gemm, "the shape MxKxN")->capture_default_str();
            gemm->add_option("--a", gm->a, "A (M x K int8 .npy; default random)");
            gemm->add_option("--b", gm->b, "B (K x N int8 .npy; default random)");
            gemm->add_option("--c-out", gm->c_out, "write C (M x N int8 .npy)");
            gemm->add_option("--seed", gm->seed, "of the random operands")->capture_default_str();
            auto cf = std::make_shared<NocCuFuzzOpts>();
            CLI::App* cu_fuzz = sub.add_subcommand(
                "cu-fuzz", "retirement under stress: random CU_INST programs (unknown opcodes, faults, random core "
                           "programs, more credits than INST_DEPTH) on every unit at once, on the RTL and the model; "
                           "every instruction must retire exactly once, every credit come back, the two agree");
            if (cu_spec->has_value()) add_noc_param_flags(*cu_fuzz, *o, **spec);
            if (add_system_flags(*cu_fuzz, *cu_opts, "compute units (TinyTPU cores) on the mesh")) {
              cu_fuzz->add_option("--count", cf->count, "cases to run")->capture_default_str();
              cu_fuzz->add_option("--seed", cf->seed, "the first seed (case i has seed S + i)")->capture_default_str();
              cu_fuzz->add_option("-j,--jobs", cf->jobs, "simulations at once (default: the machine's cores)");
              cu_fuzz->add_option("--timeout", cu_opts->timeout, "cycles a case's host waits on the RTL")
                  ->capture_default_str();
              cu_fuzz->add_flag("--keep-going", cf->keep_going, "go on after a failing case");
              cu_fuzz->add_flag("--coverage", cf->coverage, "print the coverage table");
              cu_fuzz->add_option("--out", cf->out, "where failing cases are written (one directory per seed)")
                  ->capture_default_str();
              cu_fuzz->add_option("--max-cases", cf->max_cases, "write at most this many failing cases")
                  ->capture_default_str();
              cu_fuzz->add_option("--json", cf->json, "write the campaign's report as JSON (cases, failures, coverage)");
              cu_fuzz->add_option("--trace", cu_opts->trace,
                                  "write an FST waveform of the case's RTL run (its own simulator; with --count 1)");
              add_rtl_cache_flags(*cu_fuzz, cu_opts->rtl, "RTL engine");
            }
            return [gen, run, bench, fuzz, synth, dispatch, gemm, cu_fuzz, spec, load_error, o, r, b, fz, sy, cu_opts,
                    gen_cu, dsp, gm, cf, &ctx]() {
              if (!load_error->empty()) {
                fmt::print(stderr, "tpugen: {}\n", *load_error);
                return kBadInput;
              }
              const NocSpec s = o->spec.empty() ? **spec : load_noc_spec(o->spec);
              if (gen->parsed()) {
                if (gen_cu->cores > 0) return run_noc_gen_system(ctx, s, *o, *gen_cu);
                const NocCuOpts& c = *gen_cu;
                if (!c.nodes.empty() || !c.cu_params.empty() || !c.orch_params.empty() || !c.agent_params.empty() ||
                    !c.mover_params.empty() || !ctx.flags.empty())
                  throw Error("cli.usage", "noc gen: --nodes and the compute units', the core's, the agent's and the "
                                           "mover's parameters shape a system; give --cores K (K > 0) with them");
                return run_noc_gen(s, *o);
              }
              if (run->parsed()) return run_noc_run(s, *o, *r);
              if (bench->parsed())
                return b->compute_units ? run_noc_bench_cu(ctx, s, *o, *b) : run_noc_bench(s, *o, *b);
              if (fuzz->parsed()) return run_noc_fuzz(s, *o, *fz, ctx.command_line);
              if (synth->parsed()) return run_noc_synth(s, *o, *sy);
              if (dispatch->parsed()) return run_noc_dispatch(ctx, s, *o, *cu_opts, *dsp);
              if (gemm->parsed()) return run_noc_gemm(ctx, s, *o, *cu_opts, *gm);
              if (cu_fuzz->parsed()) return run_noc_cu_fuzz(ctx, s, *o, *cu_opts, *cf, ctx.command_line);
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
