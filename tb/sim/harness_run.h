/// @file harness_run.h
/// @brief The engine's side of a run-file harness (tb/sim/harness/run_file.h:
/// the memory agent's agent_sim, the mover's mover_sim): the C++ its
/// simulator is built with, what every result holds (the status, the AXI
/// memory's counts, the checker's, the memory's and the harness's errors,
/// the notes, the image after the run), and one run: the memory image and
/// the run description written to a run directory, the simulator run on
/// them, its result read back. What each harness's run description and
/// result say beyond that is its engine's (agent_engine.cpp,
/// mover_engine.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/rtl_engine.h"
#include "util/diag.h"

namespace tpugen::sim {

/// A run-file harness: `main` (relative to tb/, e.g. "sim/agent/agent_main.cpp"),
/// its wire header and the shared headers they include; with `waveform`,
/// built with FST tracing (a separate simulator); `more` are further
/// headers it includes (relative to tb/).
Harness run_file_harness(std::string_view main, std::string_view wire, bool waveform,
                         std::vector<std::string_view> more = {});

/// What every run-file harness's result gives.
struct HarnessRunResult {
  std::string status;  ///< done, hang, timeout, assertion, or a status of the harness's own
  std::uint64_t read_bursts = 0, write_bursts = 0, longest_burst = 0;
  std::uint64_t max_reads_out = 0, max_writes_out = 0;
  std::vector<std::string> checker_errors;  ///< "cycle N: [axi.rule] ..."
  std::vector<std::string> harness_errors;  ///< "cycle N: ..." the harness's own checks
  std::vector<std::string> axi_responses;   ///< bursts the memory answered DECERR or SLVERR
  std::vector<std::string> notes;           ///< what the harness saw at a hang or timeout, the RTL's assertions
  std::vector<std::uint8_t> memory;         ///< the image after the run, the same extent
  double sim_seconds = 0.0;
  std::string output;  ///< what the simulator printed
  int exit_code = 0;

  /// Finished, no checker or harness error.
  [[nodiscard]] bool clean() const { return status == "done" && checker_errors.empty() && harness_errors.empty(); }
};

/// One line of a result: its key, the rest of the line and its words.
struct ResultLine {
  std::string key, rest;
  std::vector<std::string> words;
  std::filesystem::path path;  ///< the result file, for the errors
  int number = 0;              ///< the line's number

  /// The error of a malformed line (Error("rtl.run")).
  [[nodiscard]] Error bad(std::string_view why) const;
  /// `s` (decimal or 0x hex), or rest, as a number (else bad()).
  [[nodiscard]] std::uint64_t num(const std::string& s) const;
  [[nodiscard]] std::uint64_t num() const { return num(rest); }
};

/// One run of a run-file harness.
struct HarnessRunSpec {
  std::string_view stem;                  ///< names the temporary run directory ("tpugen-agent-")
  std::string_view result_magic;          ///< the result's first line
  std::span<const char* const> statuses;  ///< the statuses a result may name
  /// Exit 2 is the harness refusing its run description: an error naming
  /// the tail of its output, whether or not it wrote a result.
  bool exit_2_refuses = false;
  std::vector<std::string_view> assertion_markers;  ///< output lines holding one tell of a failing RTL assertion
  std::string trace;     ///< an FST file to write (a simulator built with the waveform), or empty
  std::string work_dir;  ///< keep the run's files here (default: a temporary directory, removed)
  /// The run description, given where the image is.
  std::function<std::string(const std::filesystem::path& image)> describe;
  /// A result line that is not one of HarnessRunResult's (unknown keys included).
  std::function<void(const ResultLine&)> read;
};

/// Write a memory image for a harness's run (Error("rtl.io") when it cannot).
void write_image(const std::filesystem::path& path, std::span<const std::uint8_t> image);

/// Read a result file: its magic, the lines of HarnessRunResult into `r`, the
/// others to `spec.read`, up to the end line; its status one of
/// `spec.statuses` (else Error("rtl.run")). What run_harness reads; a
/// harness run otherwise (cu_system_engine.cpp) reads its result so.
void read_harness_result(const std::filesystem::path& path, const HarnessRunSpec& spec, HarnessRunResult& r);

/// Run `sim` on `image` and the run description (image.bin and run.txt in
/// the run directory) with --run, --result, --mem-out and --trace (with a
/// trace), and read what it gave into `r`: its output and exit code, its
/// result (the lines of HarnessRunResult, the others to `spec.read`), the
/// image after the run and, at status assertion, the output's lines that tell
/// of it (as notes). Throws Error("rtl.run") when the simulator cannot run or
/// writes no result (or a malformed one), Error("rtl.interrupted") on
/// SIGINT, Error("rtl.io") when a file cannot be written.
void run_harness(const std::filesystem::path& sim, std::span<const std::uint8_t> image, const HarnessRunSpec& spec,
                 HarnessRunResult& r);

}  // namespace tpugen::sim
