/// @file run_bench.h
/// @brief The run of a run-file harness (agent_main.cpp, mover_main.cpp)
/// around its bench, which holds what is its own (its DUT's ports, its
/// checks, its result's lines): what every run ends with (RunOutcome), the
/// clock loop with its cycle limit (clock_loop), and the harness's run from
/// the command line to the exit code (run_bench). Compiled by Verilator's
/// build only.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/harness/clocked_dut.h"
#include "sim/harness/harness_main.h"
#include "sim/harness/run_file.h"

namespace tpusim::sim {

/// What every run ends with; a harness's result adds its own counts.
struct RunOutcome {
  std::string status = "timeout";    ///< done, timeout, hang, assertion or the harness's own
  double seconds = 0.0;              ///< wall time of the clock loop
  std::vector<std::string> harness;  ///< "CYCLE TEXT": the harness's own checks that failed
  std::vector<std::string> notes;    ///< what the harness saw when it stopped
};

/// The clock loop of a run: `step(cycle)` for cycle 0, 1, ... until
/// `finished()`, or `step` returns false (the run stopped in that cycle), or
/// `max_cycles` cycles ran (then `timeout(cycle)`). Returns the cycles run;
/// `seconds` receives the loop's wall time.
template <typename Finished, typename Step, typename Timeout>
std::uint64_t clock_loop(std::uint64_t max_cycles, Finished&& finished, Step&& step, Timeout&& timeout,
                         double& seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t cycle = 0;
  for (; !finished(); ++cycle) {
    if (cycle >= max_cycles) {
      timeout(cycle);
      break;
    }
    if (!step(cycle)) break;
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return cycle;
}

/// A run-file harness's run: its options, its run description
/// (`read_run(path)`: a value with a `seed`), a context seeded from it, the
/// bench (`Bench(run, trace, context)`) and its run (`bench.run()`: a
/// RunOutcome and the harness's counts), the result file (`result_magic`,
/// the harness's own lines by `write_lines(std::ostream&, result, bench)`,
/// the AXI memory's and the checker's errors, the harness and note lines)
/// and, with --mem-out, the image after the run. `bench.axi()` is its
/// AxiMasterPort. kExitDone when the run is done, with no harness check
/// failed and no error of the AXI checker, else kExitFail.
template <typename Bench, typename ReadRun, typename WriteLines>
int run_bench(int argc, char** argv, const char* result_magic, ReadRun&& read_run, WriteLines&& write_lines) {
  const RunFileOptions o = parse_run_file_options(argc, argv);
  const auto run = read_run(o.run);
  const auto ctx = make_run_context(argc, argv, run.seed);
  Bench bench(run, o.trace, *ctx);
  const auto result = bench.run();
  write_result_file(
      o.result, result_magic,
      [&](std::ostream& f) {
        write_lines(f, result, static_cast<const Bench&>(bench));
        bench.axi().write_errors(f);
      },
      result.harness, result.notes);
  if (!o.mem_out.empty()) write_bytes_file(o.mem_out, bench.axi().image());
  const bool clean = result.status == "done" && result.harness.empty() && bench.axi().checker().errors().empty();
  return clean ? kExitDone : kExitFail;
}

}  // namespace tpusim::sim
