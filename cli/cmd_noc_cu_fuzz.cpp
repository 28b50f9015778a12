// tpugen noc cu-fuzz: retirement under stress. Random CU_INST programs for
// every TinyTPU unit of a system at once (tb/fuzz/cu/cu_stress.h), each case
// dispatched by the same host to the system model and to the RTL, the two
// runs judged on their own (every instruction retires exactly once, every
// credit comes back) and against each other.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/cu_system.h"
#include "cli/noc_commands.h"
#include "fuzz/cu/cu_stress.h"
#include "fuzz/seed_campaign.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

cu::StressShape stress_shape(const CuSystem& sys) {
  cu::StressShape s;
  s.isa = &sys.isa;
  s.cu = &sys.cu;
  s.codec = &sys.codec;
  s.layout = sys.layout;
  s.inst_depth = static_cast<int>(sys.specs.cu_base["INST_DEPTH"]);
  s.prog_flits = static_cast<int>(sys.specs.orchestrator["PROG_FLITS"]);
  return s;
}

// The campaign's WAIT_LIMIT (cu::stress_wait_limit): 640 at T = 4 /
// MAXDIM = 16 on four units, 10240 at MAXDIM = 64. Shorter ones made the
// core's watchdog fire on a legal RUN (CORE HANG where the model completes):
// 64 under latency, 2048 (two cycles a word) under a memory taking one read
// at a time at latency 18.
std::int64_t wait_limit(const CuSystem& sys) {
  return cu::stress_wait_limit(sys.isa.param("MAXDIM"), sys.sysnode.word_bytes(), sys.layout.cores.size());
}

cu::StressRun run_model(const CuSystem& sys, const cu::StressCase& c) {
  mover::MoverMemory mem(0, c.memory);
  cu::SystemModel system(sys.specs, sys.layout, mem);
  cu::HostPort port = cu::model_port(system);
  cu::StressRun r;
  r.ends = sys.dispatch(port, c.programs, sys.layout.cores, c.credits);
  r.rx = system.to_orchestrator();
  r.memory = mem.bytes();
  return r;
}

cu::StressRun run_rtl(const CuSystem& sys, const std::filesystem::path& sim, const cu::StressCase& c,
                      const NocCuOpts& o, std::uint64_t& cycles) {
  sim::CuSystemConditions k;
  k.latency = c.conditions.latency;
  k.ready_stall = c.conditions.ready_stall;
  k.valid_stall = c.conditions.valid_stall;
  k.max_reads = c.conditions.max_reads;
  k.host_delay = c.conditions.host_delay;
  k.host_stall = c.conditions.host_stall;
  k.seed = c.conditions.seed;
  k.timeout = o.timeout;
  k.trace = o.trace;
  sim::CuSystemRun run(sim, c.memory, k);
  cu::HostPort port = run.port();
  cu::StressRun r;
  r.ends = sys.dispatch(port, c.programs, sys.layout.cores, c.credits);
  const sim::CuSystemRtlResult res = run.finish();
  for (const auto& x : res.rx) r.rx.push_back(x.flit);
  r.memory = res.memory;
  // The memory's DECERR answers are the cases' own (reads and writes past
  // memory), not failures.
  r.errors = rtl_run_errors(res, false);
  cycles = res.cycles;
  return r;
}

}  // namespace

int run_noc_cu_fuzz(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& copts,
                    const NocCuFuzzOpts& f, const std::string& command) {
  NocCuOpts c = copts;
  if (!c.trace.empty() && f.count != 1)
    throw Error("cli.usage",
                fmt::format("noc cu-fuzz: --trace writes one case's waveform; give --count 1 (not {})", f.count));
  if (!c.cu_params.count("WAIT_LIMIT"))
    c.cu_params["WAIT_LIMIT"] = std::to_string(wait_limit(CuSystem(ctx, spec, o, c)));
  const CuSystem sys(ctx, spec, o, c);
  const std::filesystem::path sim = CuSystemRtl(sys, c).sim;
  const cu::StressShape shape = stress_shape(sys);

  struct Outcome {
    cu::StressCase c;
    std::string failure;
    std::uint64_t cycles = 0;
  };
  cu::StressCoverage coverage(shape);
  std::uint64_t instructions = 0, cycles = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const fuzz::SeedCampaignResult campaign = fuzz::run_seed_campaign(
      {f.seed, f.count, f.jobs, f.keep_going, f.max_cases, "cli.cu_fuzz"}, coverage,
      [&] { return cu::StressCoverage(shape); },
      [&](std::uint64_t seed, cu::StressCoverage& mine) {
        Rng rng(seed);
        Outcome out{cu::random_stress_case(rng, shape, seed), {}, 0};
        const cu::StressRun model = run_model(sys, out.c);
        const cu::StressRun rtl = run_rtl(sys, sim, out.c, c, out.cycles);
        mine.add(shape, out.c, rtl);
        out.failure = cu::judge_stress(shape, out.c, model, rtl);
        return out;
      },
      [&](const Outcome& out) {
        instructions += out.c.instructions();
        cycles += out.cycles;
      },
      [&](std::uint64_t seed, const Outcome& out, bool reproduce) {
        if (reproduce) {
          const std::string dir = (std::filesystem::path(f.out) / fmt::format("case_{}", seed)).string();
          cu::write_stress_case(shape, out.c, out.failure, dir);
          fmt::print("  the case: {}\n", dir);
        }
        fmt::print(
            "case {} ({} instruction(s) on {} unit(s){}): FAIL {}\n  again: the same flags with --seed {} "
            "--count 1 (of: {})\n",
            seed, out.c.instructions(), out.c.programs.size(), out.c.over_credit ? ", over-credit" : "", out.failure,
            seed, command);
      });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print(
      "tpugen noc cu-fuzz: {} case(s) from seed {} on {} unit(s) of a {} x {} mesh (T = {}, MAXDIM = {}): {} "
      "failure(s); {} instruction(s), {} cycles, {:.1f} s; coverage {} of {} bins\n",
      campaign.ran, f.seed, sys.layout.cores.size(), sys.layout.nx, sys.layout.ny, sys.isa.param("T"),
      sys.isa.param("MAXDIM"), campaign.failed.size(), instructions, cycles, seconds, coverage.reached(),
      coverage.bins().size());
  if (f.coverage) fmt::print("{}", coverage.table());
  if (!f.json.empty()) {
    nlohmann::ordered_json j;
    j["cases"] = campaign.ran;
    j["first_seed"] = f.seed;
    j["failures"] = campaign.failed.size();
    j["failed_seeds"] = campaign.failed;
    j["instructions"] = instructions;
    j["cycles"] = cycles;
    j["coverage"] = {{"reached", coverage.reached()}, {"bins", coverage.bins()}, {"missing", coverage.missing()}};
    write_file(f.json, j.dump(2) + "\n", "cli.io");
  }
  return campaign.failed.empty() ? kOk : kFail;
}

}  // namespace tpugen::cli
