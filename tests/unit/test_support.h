/// @file test_support.h
/// @brief Shared fixtures for the unit tests: the shipped spec, loaded once
/// per call site, an Isa at given parameters, and commands run through the
/// project's process runner (util/process.h).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "isa/instr.h"
#include "spec/spec.h"
#include "util/process.h"

namespace tpugen::test {

inline std::string spec_path() { return TPUGEN_SOURCE_DIR "/spec/tinytpu_isa.yaml"; }

inline const Spec& shipped_spec() {
  static const Spec spec = load_spec(spec_path());
  return spec;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

/// A command's exit code (-1 when a signal ended it) and its standard output
/// and error (kept in `log` too).
struct ShellRun {
  int code = -1;
  std::string output;
};

/// Run `argv` (no shell) through the project's process runner, in `cwd`
/// (empty: here), its output to `log` and back in ShellRun::output.
inline ShellRun run_command(std::vector<std::string> argv, const std::filesystem::path& log,
                            const std::filesystem::path& cwd = {}) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = cwd;
  spec.log = log;
  spec.capture = true;
  const ProcessResult r = run_process(spec);
  return {r.exit_code, r.output};
}

/// A shell command line (for callers that build one: pipes, `cd`, `timeout`,
/// file lists) run as `/bin/sh -c cmd` through run_command.
inline ShellRun run_shell(const std::string& cmd, const std::filesystem::path& log) {
  return run_command({"/bin/sh", "-c", cmd}, log);
}

/// An Isa at the given overrides (legal parameters required).
inline Isa isa_at(const ParamOverrides& overrides = {}) {
  return Isa(shipped_spec(), legal_params(shipped_spec(), overrides, nullptr));
}

}  // namespace tpugen::test
