/// @file test_support.h
/// @brief Shared fixtures for the unit tests: the shipped spec, loaded once
/// per call site, an Isa at given parameters, and commands run through the
/// project's process runner (util/process.h).
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "isa/derive.h"
#include "isa/instr.h"
#include "model/core/gemm_job.h"
#include "model/core/operands.h"
#include "spec/compute_units_spec.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"
#include "spec/spec.h"
#include "util/process.h"

namespace tpugen::test {

inline std::string spec_path() { return TPUGEN_SOURCE_DIR "/spec/tinytpu_isa.yaml"; }

inline const Spec& shipped_spec() {
  static const Spec spec = load_spec(spec_path());
  return spec;
}

/// spec/noc.yaml, loaded once.
inline const NocSpec& shipped_noc_spec() {
  static const NocSpec spec = load_noc_spec(TPUGEN_SOURCE_DIR "/spec/noc.yaml");
  return spec;
}

/// spec/system_node.yaml, loaded once against spec/noc.yaml.
inline const SystemNodeSpec& shipped_system_node_spec() {
  static const SystemNodeSpec spec = load_system_node_spec(TPUGEN_SOURCE_DIR "/spec/system_node.yaml", shipped_noc_spec());
  return spec;
}

/// spec/compute_units.yaml, loaded once against the two above.
inline const ComputeUnitsSpec& shipped_compute_units_spec() {
  static const ComputeUnitsSpec spec = load_compute_units_spec(TPUGEN_SOURCE_DIR "/spec/compute_units.yaml",
                                                              shipped_noc_spec(), shipped_system_node_spec());
  return spec;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A file's text with one piece replaced (it must be there): a spec edited
/// to break one rule.
inline std::string edited_text(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = read_text(path);
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

/// A generated configuration's files (files.f, in compile order) on one
/// line for a tool's command line: names as files.f has them (relative to
/// `dir`), or with `dir` before each when `absolute`.
inline std::string configuration_sources(const std::filesystem::path& dir, bool absolute = false) {
  std::istringstream in(read_text((dir / "files.f").string()));
  std::string out;
  for (std::string f; std::getline(in, f);)
    if (!f.empty()) out += (out.empty() ? "" : " ") + (absolute ? (dir / f).string() : f);
  return out;
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

/// The tpugen::Error that `f` throws, if it throws one.
inline std::optional<Error> thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

/// The tpugen::Error that `f` throws; fails the test when it throws none.
inline Error error_of(const std::function<void()>& f) {
  std::optional<Error> e = thrown(f);
  if (!e) FAIL("no tpugen::Error was thrown");
  return *e;
}

/// The rule of the tpugen::Error `f` throws, "" when it throws none.
inline std::string rule_of(const std::function<void()>& f) {
  const std::optional<Error> e = thrown(f);
  return e ? e->rule() : "";
}

/// The message of the tpugen::Error `f` throws, "" when it throws none.
inline std::string message_of(const std::function<void()>& f) {
  const std::optional<Error> e = thrown(f);
  return e ? e->message() : "";
}

/// A random GEMM job of shape `s` from `seed`: A and B from the distribution
/// `dist` (full, corner, mid or boundary), then C's prior contents, random
/// bytes over MAXDIM x MAXDIM.
inline GemmJob random_gemm_job(const Isa& isa, GemmShape s, GemmOptions options, const std::string& dist,
                               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GemmJob job;
  job.shape = s;
  job.options = options;
  if (dist == "boundary") {
    boundary_operands(s.m, s.k, s.n, rng, job.a, job.b);
  } else {
    const OperandDist d = parse_operand_dist(dist);
    job.a = random_matrix(s.m, s.k, d, rng);
    job.b = random_matrix(s.k, s.n, d, rng);
  }
  const std::int64_t maxdim = isa.param("MAXDIM");
  job.c_init = random_matrix(maxdim, maxdim, OperandDist::Full, rng);
  return job;
}

/// Where a dma_ld of `mode` over `nr` rows reads and writes, by its active
/// actions: "A->spad", "B->vr", ...
inline std::string dma_ld_route(const Isa& isa, std::int64_t mode, std::int64_t nr) {
  const Opcode& ld = isa.spec().opcode_named("dma_ld");
  Instr in = isa.make(ld);
  in.fields[isa.operand_index(ld, "mode")] = mode;
  in.fields[isa.nr_index()] = nr;
  std::string src, dst;
  for (const Action* a : active_actions(isa, ld, in.fields)) {
    if (a->kind == ActionKind::Read) src = a->state;
    if (a->kind == ActionKind::Write) dst = a->state;
  }
  return src + "->" + dst;
}

/// An Isa at the given overrides (legal parameters required).
inline Isa isa_at(const ParamOverrides& overrides = {}) {
  return Isa(shipped_spec(), legal_params(shipped_spec(), overrides, nullptr));
}

}  // namespace tpugen::test
