// tpugen agent: the system node's memory agent (tpu_noc_mem_agent).
// `agent gen` writes its SystemVerilog; `agent fuzz` runs random request
// mixes on the RTL under Verilator (tb/sim/agent_engine.h) against one
// reference model a port (tb/model/agent), flit by flit as the comparison
// contract allows, and shrinks a disagreement into a reproducer that
// `agent fuzz --replay` runs again; `agent bench` (cmd_agent_bench.cpp)
// prints the bench mixes' cycles and utilization.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cli/agent_commands.h"
#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "cli/synth_flags.h"
#include "cli/sysnode_synth.h"
#include "cli/system_node_specs.h"
#include "fuzz/agent/agent_campaign.h"
#include "fuzz/seed_campaign.h"
#include "hdl/sysnode/agent_generate.h"
#include "model/agent/agent_run.h"
#include "sim/agent_engine.h"
#include "spec/system_node_spec.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

int run_agent_gen(const NocSpec& noc, const SystemNodeSpec& spec, const std::map<std::string, std::string>& params,
                  const std::string& out, const std::string& inject_bug) {
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec), resolve_agent_params(spec, params), inject_bug);
  const auto files = hdl::generate_agent(ctx, out);
  std::string text;
  for (const auto& [name, v] : ctx.agent_params().listing()) text += fmt::format(" {}={}", name, v);
  print_written_files("agent gen", text, files, out);
  return kOk;
}

struct AgentFuzzOpts {
  std::uint64_t count = 200, seed = 1;
  unsigned jobs = 0;  ///< simulations at once (0: the machine's cores)
  std::string out = "agent_fuzz_out", json, inject_bug, replay, work_dir, trace;
  bool keep_going = false, no_shrink = false, coverage = false, no_assert = false;
  bool system_node = false;  ///< the agent inside the whole system node
  std::size_t max_repros = 3;
  std::map<std::string, std::string> params;  ///< the agent's build parameters
  RtlEngineFlags rtl;                         ///< --rtl-cache and --max-cycles (a run's limit)
};

/// What one case's RTL run and its comparison say.
struct Verdict {
  std::string failure;  ///< empty: the RTL agreed with the model
  std::uint64_t flits_out = 0, cycles = 0;
};

Verdict judge_case(const SystemNodeSpec& spec, const noc::Codec& codec, const NocParams& params,
                   const std::filesystem::path& sim, const agent::AgentCase& c, std::uint64_t max_cycles,
                   const sim::AgentRtlOptions& options = {}) {
  Verdict v;
  const agent::AgentExpectation model = agent::expect_agent_run(spec, codec, params, c.stimulus);
  sim::AgentRunConditions rc;
  rc.latency = c.conditions.latency;
  rc.ready_stall = c.conditions.stall;
  rc.valid_stall = c.conditions.stall;
  rc.backpressure = c.conditions.backpressure;
  rc.seed = c.conditions.seed;
  rc.max_cycles = max_cycles;
  const sim::AgentRtlResult rtl = sim::run_agent_rtl(sim, codec, c.stimulus, rc, options);
  v.flits_out = rtl.sent.size();
  v.cycles = rtl.cycles;
  if (!rtl.clean()) {
    v.failure = fmt::format("rtl {}", rtl.status);
    if (!rtl.checker_errors.empty())
      v.failure += ": " + rtl.checker_errors.front();
    else if (!rtl.harness_errors.empty())
      v.failure += ": " + rtl.harness_errors.front();
    else if (!rtl.notes.empty()) {
      // An assertion's own line names the rule broken; else what the harness saw.
      std::string note = rtl.notes.front();
      for (const auto& n : rtl.notes)
        if (rtl.status == "assertion" && n.find("%Error") != std::string::npos) {
          note = n;
          break;
        }
      v.failure += ": " + note;
    }
    return v;
  }
  const sim::AgentComparison cmp = sim::compare_agent_runs(codec, c.stimulus, model, rtl);
  if (!cmp.match())
    v.failure = cmp.differences.size() == 1 ? "rtl != model: " + cmp.differences.front()
                                            : fmt::format("rtl != model: {} (and {} more)", cmp.differences.front(),
                                                          cmp.differences.size() - 1);
  return v;
}

int run_agent_fuzz(const NocSpec& noc, const SystemNodeSpec& spec, const AgentFuzzOpts& o) {
  const NocParams params = resolve_agent_params(spec, o.params);
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec), params, o.inject_bug);
  const noc::Codec codec(noc);
  sim::AgentSimOptions so;
  so.assertions = !o.no_assert;
  so.waveform = !o.trace.empty();
  so.system_node = o.system_node;
  if (!o.replay.empty()) {
    const agent::AgentCase c = agent::read_case(codec, o.replay);  // before any build: a bad case is bad input
    const std::filesystem::path sim = sim::ensure_agent_simulator(ctx, o.rtl.cache_root(), print_build_progress, so);
    sim::AgentRtlOptions ro;
    ro.work_dir = o.work_dir;
    ro.trace = o.trace;
    const Verdict v = judge_case(spec, codec, params, sim, c, o.rtl.max_cycles, ro);
    fmt::print("tpugen agent fuzz --replay {}: {} flit(s) in, {} out, {} cycles: {}\n", o.replay, agent::case_flits(c),
               v.flits_out, v.cycles, v.failure.empty() ? "PASS" : "FAIL " + v.failure);
    return v.failure.empty() ? kOk : kFail;
  }
  const std::filesystem::path sim = sim::ensure_agent_simulator(ctx, o.rtl.cache_root(), print_build_progress, so);
  const agent::AgentCaseShape shape = agent::case_shape(params);

  /// One case: its stimulus and the RTL's verdict.
  struct Outcome {
    agent::AgentCase c;
    Verdict v;
    std::string failure;
  };
  agent::AgentCoverage coverage(spec, shape);
  std::uint64_t flits_in = 0, flits_out = 0, cycles = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const fuzz::SeedCampaignResult campaign = fuzz::run_seed_campaign(
      {o.seed, o.count, o.jobs, o.keep_going, o.max_repros, "cli.agent"}, coverage,
      [&] { return agent::AgentCoverage(spec, shape); },
      [&](std::uint64_t seed, agent::AgentCoverage& mine) {
        Rng rng(seed);
        Outcome out{agent::random_case(rng, spec, codec, shape), {}, {}};
        mine.add(codec, out.c, agent::expect_agent_run(spec, codec, params, out.c.stimulus));
        out.v = judge_case(spec, codec, params, sim, out.c, o.rtl.max_cycles);
        out.failure = out.v.failure;
        return out;
      },
      [&](const Outcome& out) {
        flits_in += agent::case_flits(out.c);
        flits_out += out.v.flits_out;
        cycles += out.v.cycles;
      },
      [&](std::uint64_t seed, const Outcome& out, bool reproduce) {
        fmt::print("case {} ({} flit(s) on {} port(s)): FAIL {}\n", seed, agent::case_flits(out.c),
                   out.c.stimulus.ports.size(), out.failure);
        if (!reproduce) return;
        agent::AgentShrunk s{out.c, out.failure, 0};
        if (!o.no_shrink)
          s = agent::shrink_case(out.c, out.failure, [&](const agent::AgentCase& y) {
            return judge_case(spec, codec, params, sim, y, o.rtl.max_cycles).failure;
          });
        const std::string dir = (std::filesystem::path(o.out) / fmt::format("case_{}", seed)).string();
        agent::write_reproducer(codec, s.c, s.failure, dir, params, o.inject_bug);
        fmt::print("  shrunk in {} runs to {} flit(s): {}\n  reproducer: {}\n  replay: {}\n", s.runs,
                   agent::case_flits(s.c), s.failure, dir, agent::replay_command(dir, params, o.inject_bug));
      });
  const std::uint64_t ran = campaign.ran;
  const std::vector<std::uint64_t>& failed = campaign.failed;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::string text;
  for (const auto& [name, v] : params.listing()) text += fmt::format(" {}={}", name, v);
  fmt::print(
      "tpugen agent fuzz:{}: {} case(s) from seed {}{}: {} failure(s); coverage {} of {} bins; {} flit(s) in, {} out, "
      "{} cycles, {:.1f} s\n",
      text, ran, o.seed, o.inject_bug.empty() ? "" : fmt::format(" (with defect {})", o.inject_bug), failed.size(),
      coverage.reached(), coverage.bins().size(), flits_in, flits_out, cycles, seconds);
  if (o.coverage) fmt::print("{}", coverage.table());
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["cases"] = ran;
    j["first_seed"] = o.seed;
    j["failures"] = failed.size();
    j["failed_seeds"] = failed;
    j["inject_bug"] = o.inject_bug;
    j["flits_in"] = flits_in;
    j["flits_out"] = flits_out;
    j["cycles"] = cycles;
    j["coverage"] = {{"reached", coverage.reached()}, {"bins", coverage.bins()}, {"missing", coverage.missing()}};
    write_file(o.json, j.dump(2) + "\n", "cli.io");
  }
  return failed.empty() ? kOk : kFail;
}

}  // namespace

Command agent_command() {
  return {"agent", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            const auto loaded = load_system_node_specs(ctx);
            sub.require_subcommand(1);
            auto gen_flags = std::make_shared<UnitGenFlags>();
            CLI::App* gen = add_unit_gen_command(sub,
                                                 "write the agent's SystemVerilog: tpu_agent_pkg, the hand-written "
                                                 "agent, its primitives and AXI adapters, files.f, params.json",
                                                 loaded->spec ? &loaded->spec->agent.parameters : nullptr, *gen_flags);

            auto f = std::make_shared<AgentFuzzOpts>();
            f->rtl.max_cycles = sim::AgentRunConditions{}.max_cycles;
            CLI::App* fuzz = sub.add_subcommand(
                "fuzz",
                "run random request mixes on the RTL and one reference model a port, compare them flit by flit (per "
                "requesting source and destination), the counters and the memory image, and shrink each "
                "disagreement into a reproducer; report the coverage reached");
            fuzz->add_option("--count", f->count, "cases to run")->capture_default_str();
            fuzz->add_option("--seed", f->seed, "the first seed (case i has seed S + i)")->capture_default_str();
            fuzz->add_option("-j,--jobs", f->jobs, "simulations at once (default: the machine's cores)");
            fuzz->add_option("--out", f->out, "where reproducers go (one directory per seed)")->capture_default_str();
            fuzz->add_option("--json", f->json, "write the campaign's report as JSON (cases, failures, coverage bins)");
            fuzz->add_option("--max-repros", f->max_repros, "shrink and write at most this many reproducers")
                ->capture_default_str();
            fuzz->add_option("--replay", f->replay,
                             "run one reproducer (its directory or case.json) instead of a campaign: exit 1 when the "
                             "RTL disagrees with the model");
            fuzz->add_option("--work-dir", f->work_dir,
                             "with --replay: keep the RTL run's files (run.txt, result.txt, sim.log) here");
            fuzz->add_option("--trace", f->trace,
                             "with --replay: write an FST waveform of the RTL run (a separate simulator build)");
            fuzz->add_flag("--keep-going", f->keep_going,
                           "run every case even after failures (default: stop after the first)");
            fuzz->add_flag("--no-shrink", f->no_shrink, "write reproducers as found, unshrunk");
            fuzz->add_flag("--coverage", f->coverage, "print the coverage table");
            fuzz->add_flag("--system-node", f->system_node,
                           "run the cases inside the whole system node (the mover idle), through its AXI4 "
                           "multiplexer");
            fuzz->add_flag("--no-assert", f->no_assert,
                           "build the simulator without the RTL's assertions (the protocol checker, the harness and "
                           "the comparison still check)");
            fuzz->add_option("--inject-bug", f->inject_bug)->group("");
            add_rtl_cache_flags(*fuzz, f->rtl, "RTL engine");
            if (loaded->spec) add_build_param_flags(*fuzz, f->params, loaded->spec->agent.parameters, "");
            auto bench_opts = std::make_shared<AgentBenchOpts>();
            bench_opts->rtl.max_cycles = sim::AgentRunConditions{}.max_cycles;
            CLI::App* bench =
                add_agent_bench_command(sub, *bench_opts, loaded->spec ? &loaded->spec->agent.parameters : nullptr);
            auto sparams = std::make_shared<std::map<std::string, std::string>>();
            auto sout = std::make_shared<std::string>();
            auto sflags = std::make_shared<SynthTargetFlags>();
            CLI::App* synth = sub.add_subcommand(
                "synth",
                "synthesize the agent (tpu_noc_mem_agent) as `tpugen synth` does: the gates, the resources "
                "(LUT, FF, RAM), the handoff");
            synth->add_option("--out", *sout, "the output directory (created if needed)")->required();
            add_synth_target_flags(*synth, *sflags);
            if (loaded->spec) add_build_param_flags(*synth, *sparams, loaded->spec->agent.parameters, "");
            return [gen, fuzz, bench, synth, f, bench_opts, loaded, gen_flags, sparams, sout, sflags]() {
              if (!loaded->error.empty()) {
                fmt::print(stderr, "tpugen: {}\n", loaded->error);
                return kBadInput;
              }
              if (gen->parsed())
                return run_agent_gen(*loaded->noc, *loaded->spec, gen_flags->params, gen_flags->out,
                                     gen_flags->inject_bug);
              if (fuzz->parsed()) return run_agent_fuzz(*loaded->noc, *loaded->spec, *f);
              if (bench->parsed()) return run_agent_bench(*loaded->noc, *loaded->spec, *bench_opts);
              if (synth->parsed()) {
                const hdl::SysnodeContext sctx(*loaded->noc, *loaded->spec, resolve_mover_params(*loaded->spec),
                                               resolve_agent_params(*loaded->spec, *sparams));
                const SysnodeSynthUnit unit{
                    "agent synth",
                    hdl::kAgentTop,
                    "tpugen memory agent (system node)",
                    "agent",
                    false,
                    true,
                    [](const hdl::SysnodeContext& c, const std::string& dir) { (void)hdl::generate_agent(c, dir); }};
                return run_sysnode_synth(unit, sctx, *sflags, *sout);
              }
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
