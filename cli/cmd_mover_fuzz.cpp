// tpugen mover fuzz: random moves on tpu_noc_mover and the reference model,
// which must agree; a failing case shrinks to a reproducer with its replay
// command (tpugen mover run --engine both).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli/cli.h"
#include "cli/mover_commands.h"
#include "fuzz/mover/mover_campaign.h"
#include "fuzz/seed_campaign.h"
#include "hdl/sysnode/sysnode_context.h"
#include "model/mover/mover_model.h"
#include "sim/mover_engine.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

/// What one case says: empty when the RTL and the model agree.
std::string judge_case(const SystemNodeSpec& spec, const std::filesystem::path& sim, const mover::MoverCase& c,
                       std::uint64_t max_cycles) {
  mover::MoverMemory model_mem = c.memory();
  const mover::MoveResult model = mover::run_move(spec, c.move, model_mem);
  sim::MoverRunConditions rc;
  rc.latency = c.conditions.latency;
  rc.ready_stall = c.conditions.stall;
  rc.valid_stall = c.conditions.stall;
  rc.port = c.conditions.port;
  rc.seed = c.conditions.seed;
  rc.max_cycles = max_cycles;
  const sim::MoverRtlResult rtl = sim::run_mover_rtl(sim, spec, c.move, c.memory(), rc);
  if (!rtl.clean()) {
    std::string why = fmt::format("rtl {}", rtl.status);
    if (!rtl.checker_errors.empty())
      why += ": " + rtl.checker_errors.front();
    else if (!rtl.harness_errors.empty())
      why += ": " + rtl.harness_errors.front();
    else if (!rtl.notes.empty())
      why += ": " + rtl.notes.front();
    return why;
  }
  const sim::MoverComparison cmp = sim::compare_mover_runs(spec, model, model_mem, rtl);
  if (cmp.match()) return {};
  return cmp.differences.size() == 1
             ? cmp.differences.front()
             : fmt::format("{} (and {} more)", cmp.differences.front(), cmp.differences.size() - 1);
}

}  // namespace

CLI::App* add_mover_fuzz_command(CLI::App& mover, MoverFuzzOpts& o, const std::vector<NocParameter>* parameters) {
  CLI::App* fuzz = mover.add_subcommand(
      "fuzz",
      "run random moves on the RTL and the reference model, compare them (the fault, moves_done, the memory image) "
      "and shrink each disagreement into a reproducer; report the coverage reached");
  fuzz->add_option("--count", o.count, "moves to run")->capture_default_str();
  fuzz->add_option("--seed", o.seed, "the first seed (move i has seed S + i)")->capture_default_str();
  fuzz->add_option("-j,--jobs", o.jobs, "simulations at once (default: the machine's cores)");
  fuzz->add_option("--out", o.out, "where reproducers go (one directory per seed)")->capture_default_str();
  fuzz->add_option("--json", o.json, "write the campaign's report as JSON (cases, failures, coverage bins)");
  fuzz->add_option("--max-repros", o.max_repros, "shrink and write at most this many reproducers")
      ->capture_default_str();
  fuzz->add_flag("--keep-going", o.keep_going, "run every case even after failures (default: stop after the first)");
  fuzz->add_flag("--no-shrink", o.no_shrink, "write reproducers as found, unshrunk");
  fuzz->add_flag("--coverage", o.coverage, "print the coverage table");
  fuzz->add_flag("--system-node", o.system_node,
                 "run the moves inside the whole system node (the agent idle), through its AXI4 multiplexer");
  fuzz->add_option("--inject-bug", o.inject_bug)->group("");
  add_rtl_cache_flags(*fuzz, o.rtl, "RTL engine");
  if (parameters) add_build_param_flags(*fuzz, o.params, *parameters, "");
  return fuzz;
}

int run_mover_fuzz(const NocSpec& noc, const SystemNodeSpec& spec, const MoverFuzzOpts& o) {
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec, o.params), resolve_agent_params(spec),
                                o.inject_bug);
  const std::filesystem::path sim =
      sim::ensure_mover_simulator(ctx, o.rtl.cache_root(), print_build_progress, {.system_node = o.system_node});
  /// One case and the RTL's verdict on it.
  struct Outcome {
    mover::MoverCase c;
    std::string failure;
  };
  mover::MoverCoverage coverage(spec);
  const fuzz::SeedCampaignResult campaign = fuzz::run_seed_campaign(
      {o.seed, o.count, o.jobs, o.keep_going, o.max_repros, "cli.mover"}, coverage,
      [&] { return mover::MoverCoverage(spec); },
      [&](std::uint64_t seed, mover::MoverCoverage& mine) {
        Rng rng(seed);
        Outcome out{mover::random_case(rng, spec), {}};
        mover::MoverMemory mem = out.c.memory();
        mine.add(out.c, mover::run_move(spec, out.c.move, mem));
        out.failure = judge_case(spec, sim, out.c, o.rtl.max_cycles);
        return out;
      },
      [](const Outcome&) {},
      [&](std::uint64_t seed, const Outcome& out, bool reproduce) {
        const mover::MoverCase& c = out.c;
        fmt::print("case {} ({} aiming at {}): FAIL {}\n", seed,
                   spec.mover.mode_of(c.move.mode) ? spec.mover.mode_of(c.move.mode)->name
                                                   : fmt::format("mode {}", c.move.mode),
                   c.aim, out.failure);
        if (!reproduce) return;
        mover::MoverShrunk s{c, out.failure, 0};
        if (!o.no_shrink)
          s = mover::shrink_case(spec, c, out.failure,
                                 [&](const mover::MoverCase& y) { return judge_case(spec, sim, y, o.rtl.max_cycles); });
        const std::string dir = (std::filesystem::path(o.out) / fmt::format("case_{}", seed)).string();
        mover::write_reproducer(spec, s.c, s.failure, dir, o.inject_bug);
        fmt::print("  shrunk in {} runs: {}\n  reproducer: {}\n  replay: {}\n", s.runs, s.failure, dir,
                   mover::replay_command(s.c, dir, o.inject_bug));
      });
  const std::uint64_t ran = campaign.ran;
  const std::vector<std::uint64_t>& failed = campaign.failed;
  fmt::print("tpugen mover fuzz: {} case(s) from seed {}{}: {} failure(s); coverage {} of {} bins\n", ran, o.seed,
             o.inject_bug.empty() ? "" : fmt::format(" (with defect {})", o.inject_bug), failed.size(),
             coverage.reached(), coverage.bins().size());
  if (o.coverage) fmt::print("{}", coverage.table());
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["cases"] = ran;
    j["first_seed"] = o.seed;
    j["failures"] = failed.size();
    j["failed_seeds"] = failed;
    j["inject_bug"] = o.inject_bug;
    j["coverage"] = {{"reached", coverage.reached()}, {"bins", coverage.bins()}, {"missing", coverage.missing()}};
    write_file(o.json, j.dump(2) + "\n", "cli.io");
  }
  return failed.empty() ? kOk : kFail;
}

}  // namespace tpugen::cli
