/// @file hdl_runner.h
/// @brief What the HDL tests (tests/hdl/*_tests.cpp) share: a configuration's
/// RTL generated into a directory under the build tree, once, and the tools
/// run on it there (Verilator -Wall lint, Yosys synthesis, an Icarus compile
/// and a simulation with vvp), each returning its exit code and its log (the
/// log also kept in the directory).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hdl/emitters.h"
#include "hdl/generate.h"
#include "hdl/rtl_context.h"
#include "test_support.h"

namespace tpugen::test {

/// A module of the generator: its name (the file is <name>.sv) and its emitter.
struct Emitted {
  std::string name;
  std::function<std::string(const hdl::RtlContext&)> emit;
};

/// -P parameter overrides of a top: name, value.
using HdlParams = std::vector<std::pair<std::string, std::int64_t>>;

/// Files, space-separated, for a command line.
inline std::string joined(const std::vector<std::string>& files) {
  std::string s;
  for (const auto& f : files) s += (s.empty() ? "" : " ") + f;
  return s;
}

/// A configuration's RTL in one directory: tpu_pkg.sv, the primitives of
/// rtl/prim, the hand-written modules of rtl/core and the generated modules
/// asked for; every tool runs in the directory.
class RtlDir {
 public:
  /// Emit into `dir` (emptied first).
  RtlDir(std::filesystem::path dir, const hdl::RtlContext& ctx, const std::vector<Emitted>& modules)
      : dir_(std::move(dir)) {
    namespace fs = std::filesystem;
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write_text(dir_ / "tpu_pkg.sv", hdl::emit_tpu_pkg(ctx));
    files_.push_back("tpu_pkg.sv");
    for (const auto& p : hdl::primitive_files(ctx.options().top)) {
      const fs::path name = fs::path(p).filename();
      fs::copy_file(p, dir_ / name);
      files_.push_back(name.string());
    }
    // The hand-written modules (rtl/core) the generated ones instantiate.
    for (const auto& e : hdl::emitters()) {
      if (e.emit) continue;
      write_text(dir_ / (std::string(e.module) + ".sv"), hdl::module_text(ctx, e));
      files_.push_back(std::string(e.module) + ".sv");
    }
    for (const auto& m : modules) {
      write_text(dir_ / (m.name + ".sv"), m.emit(ctx));
      files_.push_back(m.name + ".sv");
    }
  }

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  /// Every file, in compile order (tpu_pkg.sv, the primitives, the hand-written modules, the generated ones).
  [[nodiscard]] const std::vector<std::string>& files() const { return files_; }

  /// A shell command run in the directory; its output kept in `log` there.
  [[nodiscard]] ShellRun run(const std::string& cmd, const std::string& log) const {
    return run_shell(fmt::format("cd '{}' && ( {} )", dir_.string(), cmd), dir_ / log);
  }

  /// Verilator --lint-only -Wall of `top` over `files`.
  [[nodiscard]] ShellRun lint(const std::string& top, const std::string& files, const std::string& log) const {
    return run(fmt::format("verilator --lint-only -Wall --top-module {} {}", top, files), log);
  }

  /// Yosys running `script` (commands separated by newlines or ';'), -q
  /// unless `verbose`; the script is kept next to the log (<log>.ys).
  [[nodiscard]] ShellRun synth(const std::string& script, const std::string& log, bool verbose = false) const {
    write_text(dir_ / (log + ".ys"), script);
    return run(fmt::format("yosys {}-s {}.ys", verbose ? "" : "-q ", log), log);
  }

  /// Icarus -g2012: `files` (with tests/hdl on the include path) elaborated
  /// at `top` with `params`, into `vvp` (/dev/null: only checked).
  [[nodiscard]] ShellRun compile(const std::string& top, const std::string& files, const HdlParams& params,
                                 const std::string& vvp, const std::string& log) const {
    std::string ps;
    for (const auto& [k, v] : params) ps += fmt::format(" -P{}.{}={}", top, k, v);
    return run(fmt::format("iverilog -g2012 -I{}/tests/hdl -o {} -s {}{} {}", TPUGEN_SOURCE_DIR, vvp, top, ps, files),
               log);
  }

  /// vvp -n `vvp` with `args`, given `timeout_s` seconds at most (0: no limit).
  [[nodiscard]] ShellRun simulate(const std::string& vvp, const std::string& args, const std::string& log,
                                  int timeout_s = 0) const {
    const std::string limit = timeout_s > 0 ? fmt::format("timeout {} ", timeout_s) : "";
    return run(fmt::format("{}vvp -n {}{}{}", limit, vvp, args.empty() ? "" : " ", args), log);
  }

  /// A testbench of tests/hdl (<tb>.sv, its module <tb>) compiled against
  /// `files` with `params` and run: the compile's result if it failed, else
  /// the simulation's. `tag` names the build and the logs.
  [[nodiscard]] ShellRun testbench(const std::string& tb, const std::string& files, const HdlParams& params,
                                   const std::string& tag, int timeout_s = 60) const {
    const std::string vvp = fmt::format("{}_{}.vvp", tb, tag);
    const ShellRun b = compile(tb, fmt::format("{} {}/tests/hdl/{}.sv", files, TPUGEN_SOURCE_DIR, tb), params, vvp,
                               fmt::format("{}_{}_build.log", tb, tag));
    if (b.code != 0) return b;
    return simulate(vvp, "", fmt::format("{}_{}.log", tb, tag), timeout_s);
  }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> files_;
};

/// The directory of configuration `name` of a test suite: build/rtl_<suite>/<name>.
inline std::filesystem::path hdl_dir(const std::string& suite, const std::string& name) {
  return std::filesystem::path(TPUGEN_BINARY_DIR) / ("rtl_" + suite) / name;
}

/// `modules` at the parameters `params` in hdl_dir(suite, name), emitted on
/// the first call and the same directory after. A name is one test case's:
/// CTest runs each test case in a process of its own, side by side, and
/// each emits its directory afresh.
inline const RtlDir& generated(const std::string& suite, const std::string& name, const ParamOverrides& params,
                               const std::vector<Emitted>& modules) {
  static std::map<std::filesystem::path, RtlDir> cache;
  const std::filesystem::path dir = hdl_dir(suite, name);
  auto it = cache.find(dir);
  if (it == cache.end())
    it = cache.emplace(dir, RtlDir(dir, hdl::RtlContext(isa_at(params), hdl::RtlOptions{}), modules)).first;
  return it->second;
}

}  // namespace tpugen::test
