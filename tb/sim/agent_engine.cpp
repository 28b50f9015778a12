#include "sim/agent_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "hdl/sysnode/agent_generate.h"
#include "sim/agent/agent_wire.h"
#include "sim/harness_run.h"
#include "sim/system_node_harness.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

namespace wire = tpusim::agent_wire;

/// The agent's own result lines (agent_wire.h) into `r`, whose per-port
/// vectors are sized for the stimulus's `ports`.
void read_agent_line(const ResultLine& l, const noc::Codec& codec, std::size_t ports, AgentRtlResult& r) {
  const std::vector<std::string>& v = l.words;
  auto port = [&](const std::string& s) {
    const std::uint64_t p = l.num(s);
    if (p >= ports) throw l.bad(fmt::format("port {} (the stimulus has {})", p, ports));
    return static_cast<std::size_t>(p);
  };
  if (l.key == "cycles") {
    r.cycles = l.num();
  } else if (l.key == "out") {
    if (v.size() != 4) throw l.bad("'out' takes PORT X Y HEX");
    AgentSent s;
    s.port = static_cast<unsigned>(port(v[0]));
    s.requester = {static_cast<int>(l.num(v[1])), static_cast<int>(l.num(v[2]))};
    s.flit = codec.from_hex(v[3], "the simulator's output flit");
    r.sent.push_back(s);
  } else if (l.key == "taken" || l.key == "busy") {
    if (v.size() != 2) throw l.bad(fmt::format("'{}' takes PORT N", l.key));
    (l.key == "taken" ? r.taken : r.busy_cycles)[port(v[0])] = l.num(v[1]);
  } else if (l.key == "counters") {
    if (v.size() != 5) throw l.bad("'counters' takes PORT and four counts");
    auto& c = r.counters[port(v[0])];
    for (std::size_t k = 0; k < 4; ++k) c[k] = l.num(v[k + 1]);
  } else if (l.key == "read_beats") {
    r.read_beats = l.num();
  } else if (l.key == "write_beats") {
    r.write_beats = l.num();
  }
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
  return run_file_harness("sim/agent/agent_main.cpp", "sim/agent/agent_wire.h", waveform);
}

fs::path ensure_agent_simulator(const hdl::SysnodeContext& ctx, const fs::path& build_root,
                                const BuildProgress& progress, const AgentSimOptions& options) {
  UnitSimBuild unit;
  unit.config_file = "agent_config.h";
  unit.config = [&ctx](bool system_node) { return agent_config_header(ctx, system_node); };
  unit.generate = [&ctx](const fs::path& dir) { (void)hdl::generate_agent(ctx, dir.string()); };
  unit.unit_top = hdl::kAgentTop;
  unit.sysnode_top = kSysnodeAgentTop;
  unit.key_text = fmt::format("tpugen {}\nagent\nsystem node spec sha256 {}\nnoc spec sha256 {}\n", TPUGEN_VERSION,
                              ctx.spec().sha256, ctx.noc().sha256);
  unit.description = "the memory agent,";
  for (const auto& [name, v] : ctx.agent_params().listing()) {
    unit.key_text += fmt::format("agent param {}={}\n", name, v);
    unit.description += fmt::format(" {}={}", name, v);
  }
  unit.harness = agent_harness(options.waveform);
  unit.waveform = options.waveform;
  unit.assertions = options.assertions;
  unit.system_node = options.system_node;
  return build_unit_simulator(ctx, build_root, progress, unit);
}

AgentRtlResult run_agent_rtl(const fs::path& sim, const noc::Codec& codec, const agent::AgentStimulus& stimulus,
                             const AgentRunConditions& c, const AgentRtlOptions& options) {
  if (stimulus.image.empty()) throw Error("rtl.run", "the memory image is empty");
  const std::size_t ports = stimulus.ports.size();
  AgentRtlResult r;
  r.taken.assign(ports, 0);
  r.busy_cycles.assign(ports, 0);
  r.counters.assign(ports, {0, 0, 0, 0});
  HarnessRunSpec harness;
  harness.stem = "tpugen-agent-";
  harness.result_magic = wire::kResultMagic;
  harness.statuses = wire::kStatusNames;
  harness.exit_2_refuses = true;
  harness.assertion_markers = {"Assertion failed", "%Error", "[%m]", "ASSERT"};
  harness.trace = options.trace;
  harness.work_dir = options.work_dir;
  harness.describe = [&](const fs::path& image) {
    std::string run = std::string(wire::kRunMagic) + "\n";
    run += fmt::format("image_base {:#x}\nimage {}\n", stimulus.mem_base, image.string());
    run += fmt::format(
        "latency {}\nready_stall {}\nvalid_stall {}\nmax_reads {}\nmax_writes {}\nseed {}\nmax_cycles {}\nwatchdog "
        "{}\n",
        c.latency, c.ready_stall, c.valid_stall, c.max_reads, c.max_writes, c.seed, c.max_cycles, c.watchdog);
    for (const auto a : stimulus.slverr) run += fmt::format("slverr {:#x}\n", a);
    for (std::size_t p = 0; p < ports; ++p) {
      const agent::AgentPortInput& port = stimulus.ports[p];
      run += fmt::format("node {} {} {}\n", p, port.node.x, port.node.y);
      if (p < c.backpressure.size() && c.backpressure[p] > 0.0)
        run += fmt::format("backpressure {} {}\n", p, c.backpressure[p]);
    }
    for (std::size_t p = 0; p < ports; ++p)
      for (const agent::AgentFlit& f : stimulus.ports[p].flits)
        run += fmt::format("flit {} {} {}\n", p, f.gap, codec.hex(f.flit));
    return run;
  };
  harness.read = [&](const ResultLine& l) { read_agent_line(l, codec, ports, r); };
  run_harness(sim, stimulus.image, harness, r);
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
