/// @file mover_commands.h
/// @brief `tpugen mover fuzz`: random moves (tb/fuzz/mover) on tpu_noc_mover
/// under Verilator and on the reference model, compared as mover-notes §4
/// allows; each failure shrunk into a reproducer with its replay command,
/// and the coverage the campaign reached. `tpugen mover bench`: the bench
/// moves' cycles and bus utilization on the RTL. `tpugen mover synth`: the
/// synthesis flow on the mover.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cli/rtl_engine_flags.h"
#include "cli/synth_flags.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"

namespace tpugen::cli {

struct MoverFuzzOpts {
  std::uint64_t count = 200, seed = 1;
  unsigned jobs = 0;  ///< simulations at once (0: the machine's cores)
  std::string out = "mover_fuzz_out", json, inject_bug;
  bool keep_going = false, no_shrink = false, coverage = false;
  bool system_node = false;  ///< the mover inside the whole system node
  std::size_t max_repros = 3;
  std::map<std::string, std::string> params;  ///< the mover's build parameters
  RtlEngineFlags rtl;                         ///< --rtl-cache (and --max-cycles: a run's limit)
};

/// Add the subcommand `fuzz` to `mover`, its flags writing into `o`
/// (the build parameters' flags from `parameters` when the spec loaded).
CLI::App* add_mover_fuzz_command(CLI::App& mover, MoverFuzzOpts& o, const std::vector<NocParameter>* parameters);

/// Run the campaign. kOk when every case agreed, kFail otherwise.
int run_mover_fuzz(const NocSpec& noc, const SystemNodeSpec& spec, const MoverFuzzOpts& o);

struct MoverBenchOpts {
  std::vector<unsigned> latencies = {0, 50};
  std::int64_t burst = 16;  ///< the burst cap of every move
  std::string json;
  bool no_assert = false;
  std::map<std::string, std::string> params;
  RtlEngineFlags rtl;
};

/// Add the subcommand `bench` to `mover`.
CLI::App* add_mover_bench_command(CLI::App& mover, MoverBenchOpts& o, const std::vector<NocParameter>* parameters);

/// Run the bench moves; kOk (a goal missed is reported, not an error).
int run_mover_bench(const NocSpec& noc, const SystemNodeSpec& spec, const MoverBenchOpts& o);

struct MoverSynthOpts {
  std::string out;
  std::map<std::string, std::string> params;
  SynthTargetFlags flags;
};

/// Add the subcommand `synth` to `mover`: tpugen synth's flow on tpu_noc_mover.
CLI::App* add_mover_synth_command(CLI::App& mover, MoverSynthOpts& o, const std::vector<NocParameter>* parameters);
int run_mover_synth(const NocSpec& noc, const SystemNodeSpec& spec, const MoverSynthOpts& o);

}  // namespace tpugen::cli
