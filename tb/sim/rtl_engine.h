/// @file rtl_engine.h
/// @brief The RTL engine: the generated core, verilated with the harness
/// (tb/sim/harness/sim_main.cpp) into one simulator per configuration, cached, and
/// run on a program image and operands.
///
/// Cache layout: `<build_root>/rtl/<key>/` holds the generated RTL, the
/// harness sources, `sim_config.h`, `key.txt` (what the key hashes),
/// `verilate.log`, the executable `tpu_sim`, and `stamp`, written last: a
/// directory without `stamp` is not a finished build. Builds run in a
/// private `.tmp-*` directory beside it and are renamed into place, so
/// concurrent invocations never see (or corrupt) a half-built cache entry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "isa/programs.h"
#include "model/core/gemm_job.h"
#include "model/core/model.h"
#include "hdl/rtl_context.h"

namespace tpugen::sim {

/// Receives one short line of build progress ("verilating ...").
using BuildProgress = std::function<void(const std::string&)>;

/// The harness configuration header (sim_config.h) for a configuration:
/// widths, the progress counters with their header slices, unit and fault
/// names, all derived from the spec and the generated package.
std::string sim_config_header(const hdl::RtlContext& ctx);

/// The fault names of fault_o, by code (the spec's faults, which tpu_pkg's
/// FAULT_* constants are written from).
std::vector<std::string> fault_names(const hdl::RtlContext& ctx);

/// The Verilator arguments that shape the model itself (X handling, the
/// RTL's assertions on: --assert -DTPU_ASSERT, optimisation), as the harness build (verilator_args) uses them: what the
/// cocotb build (`gen --vpi`) adds to cocotb's own. Without `assertions`,
/// the RTL's assertions are left out (a faster simulator for throughput
/// runs, which then checks only what its harness and scoreboard check).
std::vector<std::string> verilator_model_args(bool assertions = true);

/// The C++ compiler Verilator's makefile compiles and links a simulator
/// with: TPUGEN_SIM_CXX as CMake found or was given it (clang++ where there
/// is one), or empty for the compiler Verilator was configured with (g++).
/// On the NoC's 4 x 4 mesh with assertions clang++ 14 builds the model in
/// 39 CPU s against g++ 12's 103 and it runs 1.7 times as fast; without
/// them 16-19% faster (docs/noc.md). The cocotb builds (cocotb_build) keep
/// cocotb's own makefiles and compiler.
std::string sim_compiler();

/// The Verilator arguments for the simulator's C++: the standard the
/// harnesses are written in (-CFLAGS -std=c++20) and, unless sim_compiler()
/// is empty, the compiler its makefile uses (-MAKEFLAGS CXX=... LINK=...).
std::vector<std::string> sim_compiler_args();

/// The harness sources copied into every build (sim_main.cpp and the headers
/// it includes: the harnesses of both tops and their memory models).
std::vector<std::filesystem::path> harness_sources();

/// The C++ a simulator is compiled with: its main and every file it
/// includes, each copied from `from` (a path under the source tree) to `to`
/// (relative to the build directory, where the main's includes find them).
struct HarnessFile {
  std::filesystem::path from, to;
};
struct Harness {
  std::filesystem::path main;        ///< relative to the build directory
  std::vector<HarnessFile> files;    ///< the main included
  /// What the harness needs of Verilator besides the model: the core's
  /// harness writes waveforms and reads state through VPI. (Tracing compiled
  /// in costs a wide design such as a NoC mesh a factor of three in speed,
  /// so the NoC builds it only when a waveform is asked for.)
  std::vector<std::string> flags = {"--trace-fst", "--vpi"};
};
/// The core's harness (tb/sim/harness/sim_main.cpp and harness_sources()).
Harness core_harness();

/// A cached Verilator build of whatever `populate` writes into a directory
/// (sources and `files.f`, compiled with the harness into `tpu_sim`).
struct SimBuildSpec {
  std::function<void(const std::filesystem::path& dir)> populate;
  std::string key_text;                   ///< what identifies the build besides the files' contents
  std::vector<std::string> extra_flags;   ///< extra Verilator arguments (e.g. -G overrides)
  std::string description;                ///< for the progress line, e.g. "T=4 MAXDIM=16"
  std::string top = "tpu_top";            ///< the top module (sim_config.h must include its V<top>.h)
  Harness harness = core_harness();       ///< the C++ compiled with the model
  bool assertions = true;                 ///< the RTL's assertions compiled in (verilator_model_args)
};

/// The Verilator command line (arguments after `verilator`) for a build dir.
std::vector<std::string> verilator_args(const std::filesystem::path& dir, const std::vector<std::string>& extra,
                                       const std::string& top = "tpu_top", const Harness& harness = core_harness(),
                                       bool assertions = true);

/// Populate a private directory, hash the key text with every file's
/// contents, and verilate into `<root>/rtl/<key>/` unless a finished build
/// is there. Returns the path of `tpu_sim`. Throws Error("rtl.verilator")
/// with the log's tail when the build fails.
std::filesystem::path cached_sim_build(const std::filesystem::path& build_root, const SimBuildSpec& spec,
                                       const BuildProgress& progress);

/// Generate the configuration's RTL (hdl::generate) and build its simulator,
/// cached by (spec sha256, build parameters, generator options, tpugen
/// version, and the contents of the generated RTL, primitives and harness).
/// With `coverage`, Verilator instruments the RTL (--coverage: line, toggle
/// and branch points) and tpu_sim --coverage FILE writes the counts.
std::filesystem::path ensure_simulator(const hdl::RtlContext& ctx, const std::filesystem::path& build_root,
                                       const BuildProgress& progress, bool coverage = false);

/// A run's working directory: `work_dir` when one is given (created, and kept
/// for inspection), else a fresh private temporary directory named from
/// `stem`, removed with everything in it when the RunDir goes.
class RunDir {
 public:
  RunDir(const std::string& work_dir, const std::string& stem);
  ~RunDir();
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
  bool keep_;
};

/// The default cache root: $TPUGEN_RTL_CACHE, else the build tree tpugen was
/// compiled in.
std::filesystem::path default_build_root();

struct RtlRunOptions {
  unsigned latency = 0;        ///< per memory, cycles beyond the next one
  double backpressure = 0.0;   ///< 0..1
  std::uint64_t seed = 1;      ///< backpressure and the random initial state
  std::uint64_t max_cycles = 2000000;  ///< per run
  unsigned runs = 1;                   ///< back-to-back runs without a reset between them
  std::string trace;           ///< an FST file to write, or empty
  std::string coverage;        ///< a coverage.dat to write (a simulator built with coverage), or empty
  std::string work_dir;        ///< keep the run's files here (default: a temporary directory, removed)
};

struct RtlCounter {
  std::string name, unit;
  std::int64_t done = 0, count = 0;
};

struct RtlFault {
  int code = 0;
  std::string name;
  int pc = 0;
  int unit = 0;
  std::string unit_name;
};

struct RtlRunResult {
  std::string status;  ///< done, fault, timeout or protocol_error
  std::uint64_t cycles = 0;
  std::uint64_t dut_cycles = 0;  ///< the core's cycles_o
  unsigned runs_done = 0;        ///< runs that reached done (of RtlRunOptions::runs)
  std::vector<std::uint64_t> run_cycles;  ///< cycles of each run, in order
  RtlFault fault;
  std::vector<RtlCounter> progress;
  std::vector<std::string> protocol_errors;  ///< "cycle N, port: message"
  std::vector<std::int8_t> c_full;           ///< C after the run, MAXDIM x MAXDIM
  double sim_seconds = 0.0;
  double cycles_per_second = 0.0;
  /// The on-chip memories after the run (spad, vr, ar): hex rows by memory name.
  std::map<std::string, std::vector<std::string>> state;
  std::string output;  ///< what tpu_sim printed
  int exit_code = 0;

  [[nodiscard]] bool done() const { return status == "done"; }
};

/// Run tpu_sim on an image and the three MAXDIM x MAXDIM DRAM images.
/// Throws Error("rtl.run") when the simulator cannot run or writes no report,
/// Error("rtl.interrupted") when SIGINT (Ctrl-C) killed it.
RtlRunResult run_rtl(const std::filesystem::path& sim, std::span<const std::uint64_t> image,
                     const std::vector<std::int8_t>& a, const std::vector<std::int8_t>& b,
                     const std::vector<std::int8_t>& c, std::int64_t maxdim, const RtlRunOptions& options);

/// Compare every on-chip row the model wrote (Model::written) with the RTL's
/// final state; empty when they agree, else the first difference.
/// A model that wrote no on-chip row is itself a difference ("no written
/// on-chip row to compare": a test must not pass on nothing) unless
/// `allow_none` (a fuzz case, or a shrunk one, may write none).
std::string compare_state(const Isa& isa, const Model& model, const RtlRunResult& rtl, bool allow_none = false);

/// The shipped GEMM of a job on the RTL: assemble it (checked), place A and
/// B, prefill C with job.c_init, run. `image` receives the program image.
RtlRunResult run_gemm_rtl(const std::filesystem::path& sim, const Isa& isa, const GemmJob& job,
                          const RtlRunOptions& options, std::vector<std::uint64_t>* image = nullptr);

}  // namespace tpugen::sim
