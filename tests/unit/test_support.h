/// @file test_support.h
/// @brief Shared fixtures for the unit tests: the shipped spec, loaded once
/// per call site, and an Isa at given parameters.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "isa/instr.h"
#include "spec/spec.h"

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

/// A shell command's exit code and its stdout and stderr (kept in `log`).
struct ShellRun {
  int code = -1;
  std::string output;
};

inline ShellRun run_shell(const std::string& cmd, const std::filesystem::path& log) {
  const int status = std::system(("( " + cmd + " ) > '" + log.string() + "' 2>&1").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(log.string())};
}

/// An Isa at the given overrides (legal parameters required).
inline Isa isa_at(const ParamOverrides& overrides = {}) {
  return Isa(shipped_spec(), legal_params(shipped_spec(), overrides, nullptr));
}

}  // namespace tpugen::test
