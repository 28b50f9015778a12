#include "sim/noc_engine.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "hdl/noc/noc_generate.h"
#include "model/noc/eject_busy.h"
#include "sim/noc/noc_wire.h"
#include "util/file_io.h"
#include "util/process.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

void write_traffic(const fs::path& path, const noc::Codec& codec, const std::vector<noc::Injection>& traffic) {
  std::ofstream f(path, std::ios::binary);
  const std::uint64_t count = traffic.size();
  const std::uint64_t words = static_cast<std::uint64_t>((codec.flit_bits() + 63) / 64);
  f.write(tpusim::noc_wire::kTrafficMagic, sizeof tpusim::noc_wire::kTrafficMagic);
  f.write(reinterpret_cast<const char*>(&count), 8);
  f.write(reinterpret_cast<const char*>(&words), 8);
  for (const auto& in : traffic) {
    const std::uint64_t node = static_cast<std::uint64_t>(in.node);
    f.write(reinterpret_cast<const char*>(&in.cycle), 8);
    f.write(reinterpret_cast<const char*>(&node), 8);
    f.write(reinterpret_cast<const char*>(in.flit.words().data()), static_cast<std::streamsize>(8 * words));
  }
  if (!f) throw Error("rtl.io", fmt::format("cannot write '{}'", path.string()), SourceLoc{path.string()});
}

/// The harness's log (noc_wire.h) into a RunLog.
noc::RunLog read_log(const fs::path& path, const noc::Codec& codec, const noc::Mesh& mesh, std::size_t injections) {
  std::ifstream f(path);
  if (!f) throw Error("rtl.run", fmt::format("the simulator wrote no log '{}'", path.string()));
  noc::RunLog log;
  log.accepted.assign(injections, noc::kNever);
  std::string line, word;
  bool ended = false;
  std::size_t lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    std::istringstream ss(line);
    ss >> word;
    auto bad = [&]() {
      return Error("rtl.run", fmt::format("{}:{}: the simulator's log has a line it should not: {}", path.string(),
                                          lineno, line));
    };
    if (word == "accept") {
      std::uint64_t index = 0, cycle = 0;
      if (!(ss >> index >> cycle) || index >= injections) throw bad();
      log.accepted[index] = cycle;
    } else if (word == "eject") {
      noc::Ejection e;
      std::string hex;
      if (!(ss >> e.cycle >> e.node >> hex)) throw bad();
      e.flit = codec.from_hex(hex, "an ejected flit");
      log.ejections.push_back(e);
    } else if (word == "stuck") {
      int node = 0;
      std::string port;
      if (!(ss >> node >> port)) throw bad();
      const noc::Coord c = mesh.coord(node);
      log.stuck.push_back(fmt::format("router ({},{}) input {}", c.x, c.y, port));
    } else if (word == "end") {
      if (!(ss >> log.status >> log.cycles >> log.sim_seconds)) throw bad();
      ended = true;
    } else {
      throw bad();
    }
  }
  if (!ended) throw Error("rtl.run", fmt::format("the simulator's log '{}' has no end line", path.string()));
  log.cycles_per_second = log.sim_seconds > 0 ? static_cast<double>(log.cycles) / log.sim_seconds : 0.0;
  return log;
}

}  // namespace

std::string noc_config_header(const hdl::NocContext& ctx) {
  std::string names;
  for (const auto& p : ctx.spec().ports) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", p.name);
  return fmt::format(
      "// noc_config.h: the NoC harness's configuration, written by tpugen (tb/sim/noc_engine.cpp).\n"
      "#pragma once\n#include \"Vtpu_noc_mesh.h\"\n\nnamespace noc_config {{\n"
      "using Dut = Vtpu_noc_mesh;\n"
      "constexpr int kNx = {};\nconstexpr int kNy = {};\nconstexpr int kNodes = {};\n"
      "constexpr int kPorts = {};\nconstexpr int kFlitBits = {};\n"
      "constexpr const char* kPortNames[] = {{{}}};\n}}  // namespace noc_config\n",
      ctx.params().nx(), ctx.params().ny(), ctx.params().nx() * ctx.params().ny(), ctx.spec().ports.size(),
      ctx.spec().flit_bits(), names);
}

Harness noc_harness(bool waveform) {
  const fs::path tb(TPUGEN_TB_DIR);
  const fs::path gen = tb.parent_path() / "gen";
  return {"sim/noc/noc_main.cpp",
          {{tb / "sim/noc/noc_main.cpp", "sim/noc/noc_main.cpp"},
           {tb / "sim/noc/noc_wire.h", "sim/noc/noc_wire.h"},
           {tb / "sim/harness/ports.h", "sim/harness/ports.h"},
           {tb / "model/noc/eject_busy.h", "model/noc/eject_busy.h"},
           {gen / "util/rng.h", "util/rng.h"}},
          waveform ? std::vector<std::string>{"--trace-fst"} : std::vector<std::string>{}};
}

fs::path ensure_noc_simulator(const hdl::NocContext& ctx, const fs::path& build_root, const BuildProgress& progress,
                              bool waveform) {
  SimBuildSpec spec;
  spec.populate = [&ctx](const fs::path& dir) {
    hdl::generate_noc(ctx, dir.string());
    write_file(dir / "noc_config.h", noc_config_header(ctx), "rtl.io");
  };
  spec.key_text = fmt::format("tpugen {}\nnoc spec sha256 {}\n", TPUGEN_VERSION, ctx.spec().sha256);
  for (const auto& [name, v] : ctx.params().listing()) spec.key_text += fmt::format("param {}={}\n", name, v);
  spec.key_text += fmt::format("inject_bug={}\n", ctx.inject_bug());
  spec.top = "tpu_noc_mesh";
  spec.harness = noc_harness(waveform);
  // The harness includes util/rng.h, which is C++20. The mesh's wide flits
  // run about three times faster compiled at -O2 than at Verilator's default
  // -Os (measured on the 4 x 4 mesh at full load).
  spec.extra_flags = {"-CFLAGS", "-std=c++20", "-O3", "-MAKEFLAGS", "OPT_FAST=-O2"};
  spec.description = fmt::format("the {}x{} NoC mesh, DEPTH={}{}", ctx.params().nx(), ctx.params().ny(),
                                 ctx.params().depth(),
                                 ctx.inject_bug().empty() ? "" : fmt::format(" with defect {}", ctx.inject_bug()));
  if (waveform) spec.description += ", with waveforms";
  return cached_sim_build(build_root, spec, progress);
}

noc::RunLog run_noc_rtl(const fs::path& sim, const noc::Codec& codec, const noc::Mesh& mesh,
                        const std::vector<noc::Injection>& traffic, const noc::RunConditions& cond,
                        const NocRtlOptions& options) {
  const RunDir run_dir(options.work_dir, "tpugen-noc-");
  const fs::path& dir = run_dir.path();
  write_traffic(dir / "traffic.bin", codec, traffic);
  ProcessSpec run;
  run.argv = {sim.string(),   "--traffic",    (dir / "traffic.bin").string(),
              "--log",        (dir / "events.log").string(),
              "--busy",       fmt::format("{}", noc::busy_threshold(cond.eject_busy)),
              "--seed",       fmt::format("{}", cond.seed),
              "--max-cycles", fmt::format("{}", cond.max_cycles),
              "--watchdog",   fmt::format("{}", cond.watchdog)};
  if (!options.trace.empty()) {
    run.argv.push_back("--trace");
    run.argv.push_back(fs::absolute(options.trace).string());
  }
  run.log = dir / "sim.log";
  run.capture = true;
  run.rule = "rtl.run";
  const ProcessResult ran = run_process(run);
  if (ran.interrupted()) throw Error("rtl.interrupted", fmt::format("{} was interrupted (SIGINT)", sim.string()));
  if (!fs::exists(dir / "events.log"))
    throw Error("rtl.run",
                fmt::format("{} exited with {} and wrote no log:\n{}", sim.string(), ran.describe(), ran.output));
  noc::RunLog log = read_log(dir / "events.log", codec, mesh, traffic.size());
  if (log.status == "assertion") {
    std::istringstream out(ran.output);
    std::string line;
    while (std::getline(out, line))
      if (line.find("Assertion failed") != std::string::npos || line.find("%Error") != std::string::npos)
        log.stuck.push_back(line);
  }
  return log;
}

}  // namespace tpugen::sim
