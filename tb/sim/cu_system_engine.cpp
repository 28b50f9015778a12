#include "sim/cu_system_engine.h"

#include <fmt/format.h>

#include <sstream>

#include "sim/cu/cu_system_wire.h"
#include "sim/system_node_harness.h"
#include "util/diag.h"
#include "util/file_io.h"
#include "util/process.h"
#include "util/text.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

namespace wire = tpusim::cu_system_wire;

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string t; in >> t;) w.push_back(t);
  return w;
}

std::uint64_t number(const std::string& s, const std::string& line) {
  if (const auto v = parse_unsigned(s)) return *v;
  throw Error("rtl.run", fmt::format("the system's simulator answered '{}': '{}' is not a number", line, s));
}

}  // namespace

std::string cu_system_config_header(const hdl::CuSystemContext& ctx) {
  const NocSpec& ns = ctx.noc.spec();
  const SystemNodeSpec& s = ctx.sysnode.spec();
  const noc::SystemLayout& l = ctx.layout;
  return fmt::format(
      "// cu_system_config.h: the compute-unit system harness's configuration, written by tpugen {} "
      "(tb/sim/cu_system_engine.cpp). Do not edit.\n"
      "#pragma once\n#include \"V{top}.h\"\n\nnamespace cu_system_config {{\n"
      "using Dut = V{top};\n"
      "inline constexpr unsigned kUnits = {};\n"
      "inline constexpr unsigned kNodes = {};\n"
      "inline constexpr unsigned kOrchNode = {};      // the orchestrator's node, y * NX + x\n"
      "inline constexpr unsigned kFlitBits = {};\n"
      "inline constexpr unsigned kDataBytes = {};     // the AXI4 data bus: one word\n"
      "inline constexpr unsigned kAddrBits = {};\n"
      "inline constexpr unsigned kIdBits = {};        // the system node's {{master, id}}\n"
      "inline constexpr unsigned kMaxBurst = {};\n"
      "inline constexpr unsigned kHostDataBytes = {}; // the orchestrator's AXI4-Lite data\n"
      "inline constexpr unsigned kHostAddrBits = {};\n"
      "}}  // namespace cu_system_config\n",
      TPUGEN_VERSION, l.cores.size(), l.nx * l.ny, l.orchestrator.y * l.nx + l.orchestrator.x, ns.flit_bits(),
      s.word_bytes(), ns.address_bits, kSysnodeIdBits, s.axi.max_burst_beats, ctx.cu.spec().orchestrator.data_bits / 8,
      ctx.cu.orch_addr_bits(), fmt::arg("top", hdl::kCuSystemTop));
}

fs::path ensure_cu_system_simulator(const hdl::CuSystemContext& ctx, const fs::path& build_root,
                                    const BuildProgress& progress, const CuSystemSimOptions& options) {
  SimBuildSpec spec;
  spec.populate = [&ctx](const fs::path& dir) {
    (void)hdl::generate_cu_system(ctx, dir.string());
    write_file(dir / "cu_system_config.h", cu_system_config_header(ctx), "rtl.io");
  };
  const noc::SystemLayout& l = ctx.layout;
  spec.key_text = fmt::format("tpugen {}\ncu system\nwaveform={}\nassertions={}\n", TPUGEN_VERSION, options.waveform,
                              options.assertions);
  spec.description = fmt::format("{} unit(s) on a {} x {} mesh", l.cores.size(), l.nx, l.ny);
  spec.top = std::string(hdl::kCuSystemTop);
  spec.harness = run_file_harness("sim/cu/cu_system_main.cpp", "sim/cu/cu_system_wire.h", options.waveform,
                                  {"sim/axi/axi_lite.h"});
  spec.assertions = options.assertions;
  if (options.waveform) spec.description += ", with waveforms";
  if (!options.assertions) spec.description += ", without assertions";
  // The generated files (every parameter and the layout in params.json) are in the key.
  return cached_sim_build(fs::absolute(build_root), spec, progress);
}

CuSystemRun::CuSystemRun(const fs::path& sim, std::span<const std::uint8_t> image, const CuSystemConditions& c)
    : conditions_(c), dir_(std::make_unique<RunDir>(c.work_dir, "tpugen-cu-system-")), sim_path_(sim) {
  const fs::path& dir = dir_->path();
  write_image(dir / "image.bin", image);
  write_file(dir / "run.txt",
             fmt::format("{}\nimage {}\nlatency {}\nready_stall {}\nvalid_stall {}\nmax_reads {}\nmax_writes {}\n"
                         "host_delay {}\nhost_stall {}\nseed {}\nmax_cycles {}\n",
                         wire::kRunMagic, (dir / "image.bin").string(), c.latency, c.ready_stall, c.valid_stall,
                         c.max_reads, c.max_writes, c.host_delay, c.host_stall, c.seed, c.timeout + 100000),
             "rtl.io");
  ProcessSpec p;
  p.argv = {sim.string(), "--run", (dir / "run.txt").string(), "--result", (dir / "result.txt").string(),
            "--mem-out", (dir / "mem_out.bin").string()};
  if (!c.trace.empty()) {
    p.argv.push_back("--trace");
    p.argv.push_back(fs::absolute(c.trace).string());
  }
  p.log = dir / "sim.log";
  p.rule = "rtl.run";
  sim_ = std::make_unique<Conversation>(p);
}

CuSystemRun::~CuSystemRun() = default;

std::string CuSystemRun::ask(const std::string& command) {
  if (!stopped_.empty()) return stopped_;
  sim_->send(command);
  for (;;) {
    const auto line = sim_->receive();
    if (!line)
      throw Error("rtl.run", fmt::format("{} ended without answering '{}' (its log: {})", sim_path_.string(), command,
                                         (dir_->path() / "sim.log").string()));
    const auto w = words_of(*line);
    if (w.empty()) continue;
    if (w[0] == "rx") {
      if (w.size() < 3) throw Error("rtl.run", fmt::format("the system's simulator answered '{}'", *line));
      CuSystemRx r;
      r.cycle = number(w[1], *line);
      for (std::size_t i = 2; i < w.size(); ++i) {
        const int lsb = static_cast<int>(64 * (i - 2));
        const int width = std::min(64, noc::Flit::kMaxBits - lsb);
        if (width <= 0) throw Error("rtl.run", fmt::format("the system's simulator answered '{}'", *line));
        r.flit.set_bits(lsb, width, number(w[i], *line));
      }
      rx_.push_back(r);
      continue;
    }
    if (w[0] == "stop") {
      stopped_ = *line;
      if (w.size() >= 3) cycle_ = number(w[2], *line);
      return stopped_;
    }
    if (w[0] == "error") throw Error("rtl.run", fmt::format("the system's simulator: {}", *line));
    if (w.size() >= 2) cycle_ = number(w.back(), *line);
    return *line;
  }
}

cu::HostPort CuSystemRun::port() {
  cu::HostPort p;
  p.write = [this](std::uint32_t offset, std::uint64_t value) { (void)ask(fmt::format("w {} {}", offset, value)); };
  p.read = [this](std::uint32_t offset) -> std::uint64_t {
    const std::string a = ask(fmt::format("r {}", offset));
    const auto w = words_of(a);
    if (w.size() == 3 && w[0] == "v") return number(w[1], a);
    return 0;  // the run stopped: the host sees zeros, and its advance() gives up
  };
  p.advance = [this]() {
    if (!stopped_.empty() || cycle_ >= conditions_.timeout) return false;
    (void)ask(fmt::format("adv {}", std::min(conditions_.advance, conditions_.timeout - cycle_)));
    return stopped_.empty();
  };
  return p;
}

CuSystemRtlResult CuSystemRun::finish() {
  if (stopped_.empty()) sim_->send("quit");
  const ProcessResult ended = sim_->finish();
  if (ended.interrupted())
    throw Error("rtl.interrupted", fmt::format("{} was interrupted (SIGINT)", sim_path_.string()));
  CuSystemRtlResult r;
  r.exit_code = ended.status();
  const fs::path& dir = dir_->path();
  if (fs::exists(dir / "sim.log")) r.output = read_file(dir / "sim.log", "rtl.run");
  if (!fs::exists(dir / "result.txt"))
    throw Error("rtl.run", fmt::format("{} exited with {} and wrote no result:\n{}", sim_path_.string(),
                                       ended.describe(), r.output));
  static const char* const kStatuses[] = {"done", "timeout", "assertion"};
  HarnessRunSpec spec;
  spec.result_magic = wire::kResultMagic;
  spec.statuses = kStatuses;
  spec.read = [&r](const ResultLine& l) {
    if (l.key == "cycles") {
      r.cycles = l.num();
    } else if (l.key == "first_inject") {
      if (l.rest != "none") r.first_inject = l.num();
    } else if (l.key == "last_rx") {
      r.last_rx = l.num();
    } else if (l.key == "busy" && l.words.size() == 2) {
      r.busy.push_back(l.num(l.words[1]));
    } else if (l.key == "injected" && l.words.size() == 2) {
      r.injected.push_back(l.num(l.words[1]));
    } else if (l.key != "rx_flits") {
      throw l.bad(fmt::format("unknown key '{}'", l.key));
    }
  };
  read_harness_result(dir / "result.txt", spec, r);
  if (fs::exists(dir / "mem_out.bin")) {
    const std::string bytes = read_file(dir / "mem_out.bin", "rtl.run");
    r.memory.assign(bytes.begin(), bytes.end());
  }
  r.rx = rx_;
  return r;
}

}  // namespace tpugen::sim
