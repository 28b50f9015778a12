#include "sim/noc_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
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
  namespace wire = tpusim::noc_wire;
  const std::string bytes = read_file(path, "rtl.run");
  const std::size_t words = bytes.size() / 8;
  if (bytes.size() % 8 != 0)
    throw Error("rtl.run", fmt::format("the simulator's log '{}' is cut short ({} bytes)", path.string(), bytes.size()));
  const auto word = [&](std::size_t i) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes.data() + 8 * i, 8);
    return w;
  };
  const int bits = codec.flit_bits();
  const std::size_t flit_words = static_cast<std::size_t>((bits + 63) / 64);
  const auto& ports = codec.spec().ports;
  noc::RunLog log;
  log.accepted.assign(injections, noc::kNever);
  bool ended = false;
  for (std::size_t i = 0, record = 0; i < words && !ended; ++record) {
    const std::uint64_t tag = word(i);
    const std::size_t size = tag == wire::kEject ? 3 + flit_words : tag == wire::kEnd ? 4 : 3;
    auto bad = [&](std::string_view what) {
      return Error("rtl.run", fmt::format("the simulator's log '{}': record {} (word {}, tag {}) {}", path.string(),
                                          record, i, tag, what));
    };
    if (i + size > words) throw bad("is cut short");
    const std::uint64_t a = word(i + 1), b = word(i + 2);
    switch (tag) {
      case wire::kAccept:
        if (a >= injections) throw bad("names an injection the traffic does not have");
        log.accepted[a] = b;
        break;
      case wire::kEject: {
        noc::Ejection e;
        e.cycle = a;
        e.node = static_cast<int>(b);
        if (b >= static_cast<std::uint64_t>(mesh.nodes())) throw bad("names a node outside the mesh");
        for (std::size_t k = 0; k < flit_words; ++k) {
          const int width = std::min(64, bits - static_cast<int>(64 * k));
          const std::uint64_t w = word(i + 3 + k);
          if (width < 64 && (w >> width) != 0) throw bad("holds a flit wider than the spec's");
          e.flit.set_bits(static_cast<int>(64 * k), width, w);
        }
        log.ejections.push_back(e);
        break;
      }
      case wire::kStuck:
      case wire::kHeld: {
        if (a >= static_cast<std::uint64_t>(mesh.nodes()) || b >= ports.size()) throw bad("names no router port");
        const noc::Coord c = mesh.coord(static_cast<int>(a));
        log.stuck.push_back(
            fmt::format("router ({},{}) {} {}", c.x, c.y, tag == wire::kStuck ? "input" : "output", ports[b].name));
        break;
      }
      case wire::kEnd:
        if (a >= std::size(wire::kStatusNames)) throw bad("has a status the harness does not write");
        log.status = wire::kStatusNames[a];
        log.cycles = b;
        log.sim_seconds = static_cast<double>(word(i + 3)) * 1e-9;
        ended = true;
        break;
      default:
        throw bad("has a tag the harness does not write");
    }
    i += size;
  }
  if (!ended) throw Error("rtl.run", fmt::format("the simulator's log '{}' has no end record", path.string()));
  log.cycles_per_second = log.sim_seconds > 0 ? static_cast<double>(log.cycles) / log.sim_seconds : 0.0;
  return log;
}

}  // namespace

std::string noc_config_header(const hdl::NocContext& ctx) {
  return fmt::format(
      "// noc_config.h: the NoC harness's configuration, written by tpugen (tb/sim/noc_engine.cpp).\n"
      "#pragma once\n#include \"Vtpu_noc_mesh_sim.h\"\n\nnamespace noc_config {{\n"
      "using Dut = Vtpu_noc_mesh_sim;\n"
      "constexpr int kNx = {};\nconstexpr int kNy = {};\nconstexpr int kNodes = {};\n"
      "constexpr int kPorts = {};\nconstexpr int kFlitBits = {};\n}}  // namespace noc_config\n",
      ctx.params().nx(), ctx.params().ny(), ctx.params().nx() * ctx.params().ny(), ctx.spec().ports.size(),
      ctx.spec().flit_bits());
}

Harness noc_harness(bool waveform) {
  const fs::path tb(TPUGEN_TB_DIR);
  const fs::path gen = tb.parent_path() / "gen";
  return {"sim/noc/noc_main.cpp",
          {{tb / "sim/noc/noc_main.cpp", "sim/noc/noc_main.cpp"},
           {tb / "sim/noc/noc_wire.h", "sim/noc/noc_wire.h"},
           {tb / "sim/harness/ports.h", "sim/harness/ports.h"},
           {tb / "sim/harness/numbers.h", "sim/harness/numbers.h"},
           {tb / "model/noc/eject_busy.h", "model/noc/eject_busy.h"},
           {gen / "util/rng.h", "util/rng.h"}},
          waveform ? std::vector<std::string>{"--trace-fst"} : std::vector<std::string>{}};
}

fs::path ensure_noc_simulator(const hdl::NocContext& ctx, const fs::path& build_root, const BuildProgress& progress,
                              const NocSimOptions& options) {
  SimBuildSpec spec;
  spec.populate = [&ctx](const fs::path& dir) {
    hdl::generate_noc(ctx, dir.string());
    write_file(dir / "noc_config.h", noc_config_header(ctx), "rtl.io");
    // The harness's top (tb/sim/noc/tpu_noc_mesh_sim.sv), after the mesh's files.
    const fs::path top = fs::path(TPUGEN_TB_DIR) / "sim/noc/tpu_noc_mesh_sim.sv";
    write_file(dir / top.filename(), read_file(top, "rtl.io"), "rtl.io");
    write_file(dir / "files.f", read_file(dir / "files.f", "rtl.io") + top.filename().string() + "\n", "rtl.io");
  };
  spec.key_text = fmt::format("tpugen {}\nnoc spec sha256 {}\n", TPUGEN_VERSION, ctx.spec().sha256);
  for (const auto& [name, v] : ctx.params().listing()) spec.key_text += fmt::format("param {}={}\n", name, v);
  spec.key_text += fmt::format("inject_bug={}\n", ctx.inject_bug());
  spec.top = "tpu_noc_mesh_sim";
  spec.harness = noc_harness(options.waveform);
  spec.assertions = options.assertions;
  // The mesh's model runs about three times faster with its C++ compiled at
  // -O3 (OPT_FAST) than at Verilator's default -Os, and about a tenth faster
  // than at -O2 (measured with g++ 12 on the 4 x 4 mesh at full load;
  // -march=native and gcc's profile-guided optimisation measured no faster);
  // with clang++ 14 (sim_compiler) -O1 builds in about three quarters of
  // -O3's time (NocSimOptions::opt_level). The -O3 before -MAKEFLAGS is
  // Verilator's own optimisation level.
  if (options.opt_level < 0 || options.opt_level > 3)
    throw Error("rtl.build", fmt::format("the simulator's optimisation level is 0 .. 3, not {}", options.opt_level));
  spec.extra_flags = {"-O3", "-MAKEFLAGS", fmt::format("OPT_FAST=-O{}", options.opt_level)};
  spec.description = fmt::format("the {}x{} NoC mesh, DEPTH={}{}", ctx.params().nx(), ctx.params().ny(),
                                 ctx.params().depth(),
                                 ctx.inject_bug().empty() ? "" : fmt::format(" with defect {}", ctx.inject_bug()));
  if (options.waveform) spec.description += ", with waveforms";
  if (!options.assertions) spec.description += ", without assertions";
  spec.description += fmt::format(", C++ -O{}", options.opt_level);
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
              "--log",        (dir / "events.bin").string(),
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
  if (!fs::exists(dir / "events.bin"))
    throw Error("rtl.run",
                fmt::format("{} exited with {} and wrote no log:\n{}", sim.string(), ran.describe(), ran.output));
  noc::RunLog log = read_log(dir / "events.bin", codec, mesh, traffic.size());
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
