#include "sim/agent_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "hdl/sysnode/agent_generate.h"
#include "sim/agent/agent_wire.h"
#include "sim/system_node_harness.h"
#include "util/file_io.h"
#include "util/process.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

namespace wire = tpusim::agent_wire;

std::string tail(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  for (std::size_t i = 0; i < lines && pos > 0; ++i) {
    const auto nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    pos = nl;
  }
  return text.substr(pos == text.size() ? 0 : pos);
}

void read_result(const fs::path& path, const noc::Codec& codec, std::size_t ports, AgentRtlResult& r) {
  std::istringstream in(read_file(path, "rtl.run"));
  std::string line;
  if (!std::getline(in, line) || line != wire::kResultMagic)
    throw Error("rtl.run",
                fmt::format("the simulator's result '{}' does not start with '{}'", path.string(), wire::kResultMagic));
  r.taken.assign(ports, 0);
  r.busy_cycles.assign(ports, 0);
  r.counters.assign(ports, {0, 0, 0, 0});
  bool ended = false;
  for (int n = 2; std::getline(in, line); ++n) {
    const auto sp = line.find(' ');
    const std::string key = line.substr(0, sp), rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    std::istringstream words(rest);
    std::vector<std::string> v;
    for (std::string t; words >> t;) v.push_back(t);
    auto bad = [&](const std::string& why) {
      return Error("rtl.run", fmt::format("the simulator's result '{}':{}: {}", path.string(), n, why));
    };
    auto num = [&](const std::string& s) -> std::uint64_t {
      try {
        std::size_t used = 0;
        const std::uint64_t x = std::stoull(s, &used, 0);
        if (used != s.size()) throw std::invalid_argument(s);
        return x;
      } catch (const std::exception&) {
        throw bad(fmt::format("'{}' is not a number", s));
      }
    };
    auto port = [&](const std::string& s) {
      const std::uint64_t p = num(s);
      if (p >= ports) throw bad(fmt::format("port {} (the stimulus has {})", p, ports));
      return static_cast<std::size_t>(p);
    };
    auto cycle_text = [&]() {  // "CYCLE TEXT" -> "cycle CYCLE: TEXT"
      const auto s2 = rest.find(' ');
      return s2 == std::string::npos ? rest : fmt::format("cycle {}: {}", rest.substr(0, s2), rest.substr(s2 + 1));
    };
    if (key == "end") {
      ended = true;
      break;
    }
    if (key == "status") {
      r.status = rest;
    } else if (key == "cycles") {
      r.cycles = num(rest);
    } else if (key == "out") {
      if (v.size() != 4) throw bad("'out' takes PORT X Y HEX");
      AgentSent s;
      s.port = static_cast<unsigned>(port(v[0]));
      s.requester = {static_cast<int>(num(v[1])), static_cast<int>(num(v[2]))};
      s.flit = codec.from_hex(v[3], "the simulator's output flit");
      r.sent.push_back(s);
    } else if (key == "taken" || key == "busy") {
      if (v.size() != 2) throw bad(fmt::format("'{}' takes PORT N", key));
      (key == "taken" ? r.taken : r.busy_cycles)[port(v[0])] = num(v[1]);
    } else if (key == "counters") {
      if (v.size() != 5) throw bad("'counters' takes PORT and four counts");
      auto& c = r.counters[port(v[0])];
      for (std::size_t k = 0; k < 4; ++k) c[k] = num(v[k + 1]);
    } else if (key == "read_bursts") {
      r.read_bursts = num(rest);
    } else if (key == "write_bursts") {
      r.write_bursts = num(rest);
    } else if (key == "read_beats") {
      r.read_beats = num(rest);
    } else if (key == "write_beats") {
      r.write_beats = num(rest);
    } else if (key == "longest_burst") {
      r.longest_burst = num(rest);
    } else if (key == "max_reads_out") {
      r.max_reads_out = num(rest);
    } else if (key == "max_writes_out") {
      r.max_writes_out = num(rest);
    } else if (key == "seconds") {
      r.sim_seconds = std::strtod(rest.c_str(), nullptr);
    } else if (key == "axi") {
      r.axi_responses.push_back(rest);
    } else if (key == "checker") {
      r.checker_errors.push_back(cycle_text());
    } else if (key == "harness") {
      r.harness_errors.push_back(cycle_text());
    } else if (key == "note") {
      r.notes.push_back(rest);
    }
  }
  if (!ended)
    throw Error("rtl.run", fmt::format("the simulator's result '{}' is cut short (no end line)", path.string()));
  if (std::find(std::begin(wire::kStatusNames), std::end(wire::kStatusNames), r.status) == std::end(wire::kStatusNames))
    throw Error("rtl.run", fmt::format("the simulator's result '{}' has the status '{}'", path.string(), r.status));
}

std::string coord(noc::Coord c) { return fmt::format("({},{})", c.x, c.y); }

}  // namespace

std::string agent_config_header(const hdl::SysnodeContext& ctx, bool system_node) {
  const NocSpec& ns = ctx.noc();
  const SystemNodeSpec& s = ctx.spec();
  const std::string top = system_node ? std::string(kSysnodeAgentTop) : std::string(hdl::kAgentTop);
  std::string params;
  for (const auto& [name, v] : ctx.agent_params().listing())
    params += fmt::format("{}{}={}", params.empty() ? "" : " ", name, v);
  return fmt::format(
      "// agent_config.h: the agent harness's configuration, written by tpugen {} (tb/sim/agent_engine.cpp)\n"
      "// from {} (sha256 {}) and {} (sha256 {}). Do not edit.\n"
      "#pragma once\n#include \"V{}.h\"\n\nnamespace agent_config {{\n"
      "using Dut = V{};\n"
      "inline constexpr unsigned kPorts = {};       // MEM_PORTS\n"
      "inline constexpr unsigned kFlitBits = {};\n"
      "inline constexpr unsigned kPosBits = {};      // a coordinate\n"
      "inline constexpr unsigned kNodeBits = {};     // a node, {{y, x}}\n"
      "inline constexpr unsigned kDataBytes = {};    // the AXI data bus: one word\n"
      "inline constexpr unsigned kAddrBits = {};\n"
      "inline constexpr unsigned kIdBits = {};        // {}\n"
      "inline constexpr unsigned kMaxBurst = {};    // AXI4 INCR\n"
      "inline constexpr const char* kParams = \"{}\";\n"
      "}}  // namespace agent_config\n",
      TPUGEN_VERSION, fs::path(s.path).filename().string(), s.sha256, fs::path(ns.path).filename().string(), ns.sha256,
      top, top, ctx.agent_params()["MEM_PORTS"], ns.flit_bits(), ns.pos_width, 2 * ns.pos_width, s.word_bytes(),
      ns.address_bits, system_node ? kSysnodeIdBits : 1U,
      system_node ? "the system node's port: {master, id}" : "the agent's own master port", s.axi.max_burst_beats,
      params);
}

Harness agent_harness(bool waveform) {
  const fs::path tb(TPUGEN_TB_DIR);
  Harness h{
      "sim/agent/agent_main.cpp", {}, waveform ? std::vector<std::string>{"--trace-fst"} : std::vector<std::string>{}};
  for (const char* f :
       {"sim/agent/agent_main.cpp", "sim/agent/agent_wire.h", "sim/harness/ports.h", "sim/harness/memory_models.h",
        "sim/axi/axi_types.h", "sim/axi/axi_memory.h", "sim/axi/axi_checker.h"})
    h.files.push_back({tb / f, f});
  return h;
}

fs::path ensure_agent_simulator(const hdl::SysnodeContext& ctx, const fs::path& build_root,
                                const BuildProgress& progress, const AgentSimOptions& options) {
  SimBuildSpec spec;
  spec.populate = [&ctx, &options](const fs::path& dir) {
    write_file(dir / "agent_config.h", agent_config_header(ctx, options.system_node), "rtl.io");
    if (options.system_node)
      populate_system_node(ctx, dir, kSysnodeAgentTop);
    else
      (void)hdl::generate_agent(ctx, dir.string());
  };
  spec.key_text = fmt::format("tpugen {}\nagent\nsystem node spec sha256 {}\nnoc spec sha256 {}\n", TPUGEN_VERSION,
                              ctx.spec().sha256, ctx.noc().sha256);
  for (const auto& [name, v] : ctx.agent_params().listing())
    spec.key_text += fmt::format("agent param {}={}\n", name, v);
  spec.key_text += fmt::format("inject_bug={}\nwaveform={}\nassertions={}\nsystem_node={}\n", ctx.inject_bug(),
                               options.waveform, options.assertions, options.system_node);
  spec.top = options.system_node ? std::string(kSysnodeAgentTop) : std::string(hdl::kAgentTop);
  spec.harness = agent_harness(options.waveform);
  spec.assertions = options.assertions;
  std::string params;
  for (const auto& [name, v] : ctx.agent_params().listing()) params += fmt::format(" {}={}", name, v);
  spec.description = fmt::format("the memory agent,{}{}", params,
                                 ctx.inject_bug().empty() ? "" : fmt::format(" with defect {}", ctx.inject_bug()));
  if (options.system_node) spec.description += ", inside the system node";
  if (options.waveform) spec.description += ", with waveforms";
  if (!options.assertions) spec.description += ", without assertions";
  // Absolute: the build's -I names the build directory, and make compiles in obj_dir below it.
  return cached_sim_build(fs::absolute(build_root), spec, progress);
}

AgentRtlResult run_agent_rtl(const fs::path& sim, const noc::Codec& codec, const agent::AgentStimulus& stimulus,
                             const AgentRunConditions& c, const AgentRtlOptions& options) {
  if (stimulus.image.empty()) throw Error("rtl.run", "the memory image is empty");
  const RunDir run_dir(options.work_dir, "tpugen-agent-");
  const fs::path& dir = run_dir.path();
  {
    std::ofstream img(dir / "image.bin", std::ios::binary);
    img.write(reinterpret_cast<const char*>(stimulus.image.data()),
              static_cast<std::streamsize>(stimulus.image.size()));
    if (!img) throw Error("rtl.io", fmt::format("cannot write '{}'", (dir / "image.bin").string()));
  }
  std::string run = std::string(wire::kRunMagic) + "\n";
  run += fmt::format("image_base {:#x}\nimage {}\n", stimulus.mem_base, (dir / "image.bin").string());
  run += fmt::format(
      "latency {}\nready_stall {}\nvalid_stall {}\nmax_reads {}\nmax_writes {}\nseed {}\nmax_cycles {}\nwatchdog {}\n",
      c.latency, c.ready_stall, c.valid_stall, c.max_reads, c.max_writes, c.seed, c.max_cycles, c.watchdog);
  for (const auto a : stimulus.slverr) run += fmt::format("slverr {:#x}\n", a);
  for (std::size_t p = 0; p < stimulus.ports.size(); ++p) {
    const agent::AgentPortInput& port = stimulus.ports[p];
    run += fmt::format("node {} {} {}\n", p, port.node.x, port.node.y);
    if (p < c.backpressure.size() && c.backpressure[p] > 0.0)
      run += fmt::format("backpressure {} {}\n", p, c.backpressure[p]);
  }
  for (std::size_t p = 0; p < stimulus.ports.size(); ++p)
    for (const agent::AgentFlit& f : stimulus.ports[p].flits)
      run += fmt::format("flit {} {} {}\n", p, f.gap, codec.hex(f.flit));
  write_file(dir / "run.txt", run, "rtl.io");

  ProcessSpec p;
  p.argv = {sim.string(),
            "--run",
            (dir / "run.txt").string(),
            "--result",
            (dir / "result.txt").string(),
            "--mem-out",
            (dir / "mem_out.bin").string()};
  if (!options.trace.empty()) {
    p.argv.push_back("--trace");
    p.argv.push_back(fs::absolute(options.trace).string());
  }
  p.log = dir / "sim.log";
  p.capture = true;
  p.rule = "rtl.run";
  const ProcessResult ran = run_process(p);
  if (ran.interrupted()) throw Error("rtl.interrupted", fmt::format("{} was interrupted (SIGINT)", sim.string()));
  AgentRtlResult r;
  r.output = ran.output;
  r.exit_code = ran.status();
  if (ran.exit_code == 2)
    throw Error("rtl.run", fmt::format("{} refused the run description:\n{}", sim.string(), tail(ran.output, 10)));
  if (!fs::exists(dir / "result.txt"))
    throw Error("rtl.run", fmt::format("{} exited with {} and wrote no result:\n{}", sim.string(), ran.describe(),
                                       tail(ran.output, 30)));
  read_result(dir / "result.txt", codec, stimulus.ports.size(), r);
  if (fs::exists(dir / "mem_out.bin")) {
    const std::string bytes = read_file(dir / "mem_out.bin", "rtl.run");
    r.memory.assign(bytes.begin(), bytes.end());
  }
  if (r.status == "assertion") {
    std::istringstream out(ran.output);
    std::string line;
    while (std::getline(out, line))
      if (line.find("Assertion failed") != std::string::npos || line.find("%Error") != std::string::npos ||
          line.find("[%m]") != std::string::npos || line.find("ASSERT") != std::string::npos)
        r.notes.push_back(line);
  }
  return r;
}

AgentComparison compare_agent_runs(const noc::Codec& codec, const agent::AgentStimulus& stimulus,
                                   const agent::AgentExpectation& model, const AgentRtlResult& rtl) {
  AgentComparison cmp;
  auto differ = [&](std::string d) {
    if (cmp.differences.size() < 8) cmp.differences.push_back(std::move(d));
  };
  if (rtl.status != "done") differ(fmt::format("the RTL run ended with status {}, not done", rtl.status));
  const std::size_t ports = stimulus.ports.size();
  // The RTL's flits per port, grouped by (requester, destination).
  std::vector<agent::AnswerStreams> got(ports);
  for (const AgentSent& s : rtl.sent)
    if (s.port < ports) got[s.port][{s.requester, codec.header(s.flit).dst()}].push_back(s.flit);
  for (std::size_t p = 0; p < ports && p < model.streams.size(); ++p) {
    std::map<std::pair<noc::Coord, noc::Coord>, int> keys;
    for (const auto& [k, v] : model.streams[p]) keys[k] |= 1;
    for (const auto& [k, v] : got[p]) keys[k] |= 2;
    for (const auto& [k, which] : keys) {
      static const std::vector<noc::Flit> none;
      const auto want_it = model.streams[p].find(k);
      const auto have_it = got[p].find(k);
      const std::vector<noc::Flit>& want = want_it == model.streams[p].end() ? none : want_it->second;
      const std::vector<noc::Flit>& have = have_it == got[p].end() ? none : have_it->second;
      const std::string pair = fmt::format("port {}, requester {} -> {}", p, coord(k.first), coord(k.second));
      const std::size_t n = std::min(want.size(), have.size());
      std::size_t i = 0;
      while (i < n && want[i] == have[i]) ++i;
      cmp.flits_compared += i;
      if (i < n) {
        differ(fmt::format("{}: flit {} of {}: model {}; RTL {}", pair, i, want.size(), codec.describe(want[i]),
                           codec.describe(have[i])));
      } else if (want.size() > have.size()) {
        differ(fmt::format("{}: the RTL sent {} flit(s), the model {}; the first missing: {}", pair, have.size(),
                           want.size(), codec.describe(want[have.size()])));
      } else if (have.size() > want.size()) {
        differ(fmt::format("{}: the RTL sent {} flit(s), the model {}; the first extra: {}", pair, have.size(),
                           want.size(), codec.describe(have[want.size()])));
      }
    }
    if (p < rtl.counters.size() && p < model.counters.size()) {
      const agent::AgentCounters& mc = model.counters[p];
      const std::array<std::uint64_t, 4> want = {mc.stray_data_flits, mc.discarded_data_flits, mc.errors_dropped,
                                                 mc.data_last_mismatches};
      const char* names[] = {"stray data flits", "discarded data flits", "ERROR flits dropped", "`last` mismatches"};
      for (std::size_t k = 0; k < 4; ++k)
        if ((want[k] & 0xFFFF) != rtl.counters[p][k])
          differ(fmt::format("port {}: {}: model {}, RTL {}", p, names[k], want[k], rtl.counters[p][k]));
    }
  }
  // The memory image, but for the unsettled words.
  const auto& want = model.memory.bytes();
  const auto& have = rtl.memory;
  if (want.size() != have.size()) {
    differ(fmt::format("memory: the RTL's image is {} bytes, the model's {}", have.size(), want.size()));
    return cmp;
  }
  const std::size_t word = 32;
  for (std::size_t w = 0; w + word <= want.size(); w += word) {
    if (model.unsettled.count(stimulus.mem_base + w)) continue;
    ++cmp.words_compared;
    if (std::equal(want.begin() + static_cast<std::ptrdiff_t>(w), want.begin() + static_cast<std::ptrdiff_t>(w + word),
                   have.begin() + static_cast<std::ptrdiff_t>(w)))
      continue;
    if (cmp.words_differing++ == 0)
      differ(fmt::format("memory: the word at {:#x} differs (model byte 0 {:#04x}, RTL {:#04x})", stimulus.mem_base + w,
                         want[w], have[w]));
  }
  if (cmp.words_differing > 1) differ(fmt::format("memory: {} word(s) differ in all", cmp.words_differing));
  return cmp;
}

}  // namespace tpugen::sim
