/// @file noc_commands.h
/// @brief `tpugen noc`'s subcommands: the options each takes, which the flags
/// cmd_noc.cpp registers fill in, and the function that runs it, each in a
/// file of its own (cmd_noc_run.cpp, cmd_noc_bench.cpp, cmd_noc_fuzz.cpp,
/// cmd_noc_synth.cpp; `noc gen` is in cmd_noc.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "cli/synth_flags.h"
#include "model/noc/noc_run.h"
#include "model/noc/traffic.h"
#include "spec/noc_spec.h"

namespace tpugen::cli {

/// What every `noc` subcommand shares: the NoC spec and the fabric's
/// build-parameter flags (one per parameter of the spec: --nx, --ny, --depth,
/// --routing).
struct NocOpts {
  std::string spec;  ///< the NoC spec; empty: noc.yaml beside the ISA spec
  std::map<std::string, std::string> params;
  std::string out;
  std::string inject_bug;
};

/// The C++ optimisation level of the simulator `noc run` and `noc fuzz`
/// build: -O1 compiles in about a third of -O3's time and runs about a
/// quarter slower (sim::NocSimOptions::opt_level), the better trade for the
/// short runs most of them are; `noc bench`, which measures the simulation's
/// speed, builds at -O3.
constexpr int kNocRunSimOpt = 1;

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

/// `noc bench`'s own options.
struct NocBenchOpts {
  std::string engine = "rtl";
  std::string json, plot;
  std::uint64_t seed = 1;
  std::uint64_t warmup = 500, window = 2000;  ///< cycles before measuring, and measured
  std::uint64_t speed_cycles = 20000;         ///< the simulation-speed run: full uniform load this long
  bool no_assert = false;
  bool compute_units = false;  ///< the multi-core GEMM table instead of the sweep
  int sim_opt = 3;  ///< the bench measures simulation speed: the fastest simulator
  RtlEngineFlags rtl;
};

/// `noc fuzz`'s own options.
struct NocFuzzOpts {
  std::uint64_t count = 100, seed = 1, max_packets = 400;
  int configs = 0;  ///< random fabrics instead of the one the flags give
  std::string out = "noc_fuzz_out";
  bool keep_going = false, no_shrink = false;
  int sim_opt = kNocRunSimOpt;
  RtlEngineFlags rtl;
};

/// `noc synth`'s own options.
struct NocSynthOpts {
  std::string router;  ///< "X,Y": that router alone; empty: the whole mesh
  SynthTargetFlags flags;
};

/// `noc dispatch`'s and `noc gemm`'s options: the system's (the core's build
/// parameters are the Context's flags; the fabric's are NocOpts').
struct NocCuOpts {
  int cores = 1;
  std::string nodes;  ///< "X,Y;X,Y;..." or empty: the first `cores` nodes in row-major order
  std::map<std::string, std::string> cu_params, orch_params, agent_params, mover_params;
  std::string engine = "model";
  std::uint64_t timeout = 1000000;  ///< cycles
  std::string json;
  std::string trace;  ///< an FST waveform of the RTL run, or empty
  RtlEngineFlags rtl;
};
struct NocDispatchOpts {
  std::string node;   ///< X,Y
  std::string flits;  ///< FILE.jsonl
  std::uint64_t memory_bytes = 1 << 16;
  std::string memory;      ///< FILE.bin: the memory's bytes (instead of memory_bytes of zeros)
  std::string memory_out;  ///< FILE.bin: memory after the run (the RTL's, when it ran)
  std::optional<std::uint64_t> memory_seed;  ///< memory_bytes of pseudo-random bytes (std::mt19937_64) instead of zeros
  std::vector<std::string> place;            ///< ADDR=FILE: a file's bytes placed at ADDR, after the above
};
/// `noc cu-fuzz`'s own options (the system's are NocCuOpts').
struct NocCuFuzzOpts {
  std::uint64_t count = 50, seed = 1;
  unsigned jobs = 0;
  bool keep_going = false, coverage = false;
  std::string json;
  std::string out = "cu_fuzz_out";  ///< where failing cases are written
  std::size_t max_cases = 3;
};
struct NocGemmOpts {
  std::string gemm = "128x64x128";
  std::string a, b, c_out;
  std::uint64_t seed = 1;
};

/// "X,Y" (a column and a row); throws Error("cli.node") naming `flag`.
noc::Coord parse_node(const std::string& text, std::string_view flag);

/// Each subcommand: its exit status (kOk, kFail); bad input throws Error.
int run_noc_run(const NocSpec& spec, const NocOpts& o, const NocRunOpts& r);
int run_noc_bench(const NocSpec& spec, const NocOpts& o, const NocBenchOpts& b);
/// `noc bench --compute-units` (cmd_noc_bench_cu.cpp): the multi-core GEMM table.
int run_noc_bench_cu(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocBenchOpts& b);
/// `command`: the command line, recorded in each reproducer's case.json.
int run_noc_fuzz(const NocSpec& spec, const NocOpts& o, const NocFuzzOpts& f, const std::string& command);
int run_noc_synth(const NocSpec& spec, const NocOpts& o, const NocSynthOpts& so);
int run_noc_dispatch(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c,
                     const NocDispatchOpts& d);
/// `noc gen --cores K`: the system top and every part of it.
int run_noc_gen_system(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c);
/// `command`: the command line, for the line that runs a failing case again.
int run_noc_cu_fuzz(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c,
                    const NocCuFuzzOpts& f, const std::string& command);
int run_noc_gemm(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocCuOpts& c, const NocGemmOpts& g);

}  // namespace tpugen::cli
