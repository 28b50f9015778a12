/// @file harness_main.h
/// @brief The outer shell of a Verilator harness's main: its exit codes, the
/// usage error its options and input files throw, and the main that turns
/// one into a message (or, for --help, the usage text). The run-file
/// harnesses use it (agent_main.cpp, mover_main.cpp). Compiled by
/// Verilator's build only.
#pragma once

#include <cstdio>
#include <string>

namespace tpusim::sim {

/// The exit codes: the run done and clean, a run that was not, bad usage or input.
inline constexpr int kExitDone = 0, kExitFail = 1, kExitUsage = 2;

/// Bad usage or input: `message` says what, empty for --help.
struct Usage {
  std::string message;
};

/// `run(argc, argv)`'s exit code; a Usage it throws prints the usage text
/// (to stdout with exit kExitDone for --help, else to stderr after
/// "`name`: message", with exit kExitUsage).
template <typename Run>
int harness_main(int argc, char** argv, const char* name, const char* usage, Run&& run) {
  try {
    return run(argc, argv);
  } catch (const Usage& e) {
    if (e.message.empty()) {
      std::fputs(usage, stdout);
      return kExitDone;
    }
    std::fprintf(stderr, "%s: %s\n%s", name, e.message.c_str(), usage);
    return kExitUsage;
  }
}

}  // namespace tpusim::sim
