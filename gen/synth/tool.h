/// @file tool.h
/// @brief Running the external tools of the synthesis flow (yosys,
/// nextpnr-ice40): found on PATH, run without a shell (util/process.h), their
/// output to a log file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tpugen::synth {

/// An external tool and the Debian package that installs it.
struct Tool {
  std::string command;  ///< a name looked up on PATH, or a path
  std::string package;  ///< e.g. "yosys", "nextpnr-ice40"
};

/// The tool's absolute path. Throws Error("synth.tool") naming the command
/// and the package to install when it is not found or not executable.
std::filesystem::path locate(const Tool& tool);

/// Run `argv` (argv[0] a path) in the directory `cwd` (empty: the current
/// one), its standard output and error to `log` (truncated first), through
/// run_process (util/process.h). Returns the exit status (128 + the signal
/// when a signal ended it). Throws Error("synth.tool") when it cannot be
/// started.
int run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
               const std::filesystem::path& cwd = {});

/// The first non-empty line a tool prints for `argv` (e.g. `yosys -V`),
/// or "unknown" when it prints none or fails.
std::string version_line(const std::vector<std::string>& argv);

/// The last `n` lines of a text (all of it when it has fewer).
std::string last_lines(const std::string& text, std::size_t n);

}  // namespace tpugen::synth
