// tpugen agent bench: the memory agent's request mixes on the RTL at memory
// latencies 0 and 50, each checked against the reference model (one a
// port, compared flit by flit), at the spec's limits: the longest stream read
// from one source, the same stream multicast to three peers, plain reads and
// writes of the longest write from four sources. Utilization is the busiest
// of the AXI data channels' beats (R or W) and the NoC output's flits over
// the run's cycles (the first flit offered to idle), against one a cycle; the
// bound says what the mix allows (a write's request flit carries no word).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/agent_commands.h"
#include "cli/cli.h"
#include "model/agent/agent_run.h"
#include "noc/codec.h"
#include "sim/agent_engine.h"
#include "util/file_io.h"
#include "util/rng.h"

namespace tpugen::cli {

namespace {

constexpr std::uint64_t kImage = 256 * 1024;   // the memory image, at address 0
constexpr std::uint64_t kWrites = 128 * 1024;  // writes go from here up
constexpr noc::Coord kPort{0, 0};

/// One bench mix: its name, its flits, what bounds it, and which count is the busier.
struct BenchMix {
  std::string name;
  std::vector<agent::AgentFlit> flits;
  double bound = 1.0;  ///< the utilization the mix allows
};

/// The flits of the mixes, built field by field through the codec.
class MixBuilder {
 public:
  explicit MixBuilder(const noc::Codec& codec) : codec_(codec) {}

  noc::Flit request(const char* type, noc::Coord src, std::uint32_t txn, std::uint64_t addr, std::uint64_t len,
                    std::uint64_t count = 0, std::uint64_t entry_words = 0,
                    const std::vector<noc::Coord>& peers = {}) const {
    noc::Flit f = header(type, src, txn, 0);
    codec_.set(f, "mem_req.addr", addr);
    codec_.set(f, "mem_req.len", len);
    if (count != 0) {
      codec_.set(f, "mem_req.flags.STREAM", 1);
      codec_.set(f, "mem_req.count", count);
      codec_.set(f, "mem_req.entry_words", entry_words);
    }
    codec_.set(f, "mem_req.n_peer", peers.size());
    for (std::size_t k = 0; k < peers.size(); ++k) {
      codec_.set(f, fmt::format("mem_req.peer[{}].x", k), static_cast<std::uint64_t>(peers[k].x));
      codec_.set(f, fmt::format("mem_req.peer[{}].y", k), static_cast<std::uint64_t>(peers[k].y));
    }
    return f;
  }

  noc::Flit data(noc::Coord src, bool last, Rng& rng) const {
    noc::Flit f = header("MEM_WR_DATA", src, 0, last ? 1 : 0);
    const noc::FieldRef word = codec_.field("data.word");
    for (int b = 0; b < word.width; b += 64) f.set_bits(word.lsb + b, std::min(64, word.width - b), rng.next());
    return f;
  }

 private:
  noc::Flit header(const char* type, noc::Coord src, std::uint32_t txn, std::uint32_t last) const {
    noc::Flit f;
    codec_.set_header(f, noc::Header::between(kPort, src, codec_.type_code(type), txn, last));
    return f;
  }

  const noc::Codec& codec_;
};

/// The mixes, at the spec's limits: the longest stream (the most entries of
/// the most words), writes and plain reads of the longest write.
std::vector<BenchMix> bench_mixes(const SystemNodeSpec& spec, const noc::Codec& codec) {
  const MixBuilder b(codec);
  const std::uint64_t word_bytes = static_cast<std::uint64_t>(spec.word_bytes());
  const std::uint64_t entries = (std::uint64_t{1} << codec.field("mem_req.count").width) - 1;
  const NocLayout* req = codec.spec().payload("mem_req");
  const NocField* ew = req ? req->field("entry_words") : nullptr;
  if (!ew || !ew->zero_means || !ew->above_max)
    throw Error("agent.bench", "noc.yaml's mem_req.entry_words has no zero_means or `above`, which the bench reads");
  const std::uint64_t e = std::max({*ew->zero_means, *ew->above_max, ew->above_means});
  const std::uint64_t len = static_cast<std::uint64_t>(spec.agent.write_max_len), words = len + 1;
  const std::vector<noc::Coord> sources{{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  std::vector<BenchMix> out;
  out.push_back({fmt::format("stream read, {} entries of {} words", entries, e),
                 {{0, b.request("MEM_RD_REQ", sources[0], 0, 0, 0, entries, e)}}});
  out.push_back(
      {"the same stream multicast to 3 peers",
       {{0, b.request("MEM_RD_REQ", sources[0], 0, 0, 0, entries, e, {sources[1], sources[2], sources[3]})}}});
  BenchMix plain{fmt::format("plain reads of {} words, 4 sources x 64", words), {}};
  for (std::uint32_t k = 0; k < 64; ++k)
    for (std::size_t s = 0; s < sources.size(); ++s)
      plain.flits.push_back(
          {0, b.request("MEM_RD_REQ", sources[s], k, word_bytes * words * (sources.size() * k + s), len)});
  out.push_back(plain);
  // A write is its request and a data flit a word.
  BenchMix writes{fmt::format("writes of {} words, 4 sources x 32", words),
                  {},
                  static_cast<double>(words) / static_cast<double>(words + 1)};
  Rng rng(1);
  for (std::uint32_t k = 0; k < 32; ++k)
    for (std::size_t s = 0; s < sources.size(); ++s) {
      writes.flits.push_back(
          {0, b.request("MEM_WR_REQ", sources[s], k, kWrites + word_bytes * words * (sources.size() * k + s), len)});
      for (std::uint64_t w = 0; w < words; ++w) writes.flits.push_back({0, b.data(sources[s], w + 1 == words, rng)});
    }
  out.push_back(writes);
  return out;
}

}  // namespace

int run_agent_bench(const NocSpec& noc, const SystemNodeSpec& spec, const AgentBenchOpts& o) {
  const NocParams params = resolve_agent_params(spec, o.params);
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec), params);
  const noc::Codec codec(noc);
  const std::filesystem::path sim = sim::ensure_agent_simulator(ctx, o.rtl.cache_root(), print_build_progress);
  std::string listing;
  for (const auto& [name, v] : params.listing()) listing += fmt::format(" {}={}", name, v);
  fmt::print(
      "tpugen agent bench:{}; one port; utilization: the busiest of R beats, W beats and flits out over the run's "
      "cycles, against one a cycle\n",
      listing);
  fmt::print("{:<40} {:>7} {:>6} {:>6} {:>6} {:>8} {:>7} {:>7}\n", "mix", "latency", "R", "W", "out", "cycles", "util",
             "bound");
  std::vector<std::uint8_t> image(kImage);
  Rng rng(7);
  for (auto& byte : image) byte = static_cast<std::uint8_t>(rng.next());
  nlohmann::ordered_json report = nlohmann::ordered_json::array();
  for (const BenchMix& mix : bench_mixes(spec, codec)) {
    agent::AgentStimulus s;
    s.image = image;
    s.ports.push_back({kPort, mix.flits});
    const agent::AgentExpectation model = agent::expect_agent_run(spec, codec, params, s);
    for (const unsigned latency : o.latencies) {
      sim::AgentRunConditions c;
      c.latency = latency;
      c.max_reads = c.max_writes = 64;
      c.max_cycles = o.rtl.max_cycles;
      const sim::AgentRtlResult r = sim::run_agent_rtl(sim, codec, s, c);
      const sim::AgentComparison cmp = sim::compare_agent_runs(codec, s, model, r);
      if (!r.clean() || !cmp.match())
        throw Error("agent.bench", fmt::format("{} at latency {}: the RTL run {}{}", mix.name, latency, r.status,
                                               cmp.match() ? "" : " (" + cmp.differences.front() + ")"));
      const std::uint64_t busiest = std::max({r.read_beats, r.write_beats, static_cast<std::uint64_t>(r.sent.size())});
      const double util = r.cycles ? static_cast<double>(busiest) / static_cast<double>(r.cycles) : 0.0;
      fmt::print("{:<40} {:>7} {:>6} {:>6} {:>6} {:>8} {:>6.1f}% {:>6.1f}%\n", mix.name, latency, r.read_beats,
                 r.write_beats, r.sent.size(), r.cycles, 100 * util, 100 * mix.bound);
      report.push_back({{"mix", mix.name},
                        {"latency", latency},
                        {"read_beats", r.read_beats},
                        {"write_beats", r.write_beats},
                        {"flits_out", r.sent.size()},
                        {"cycles", r.cycles},
                        {"utilization", util},
                        {"bound", mix.bound}});
    }
  }
  fmt::print("every mix equal to the reference model, flit by flit\n");
  if (!o.json.empty()) write_file(o.json, report.dump(2) + "\n", "cli.io");
  return kOk;
}

CLI::App* add_agent_bench_command(CLI::App& agent, AgentBenchOpts& o, const std::vector<NocParameter>* parameters) {
  CLI::App* bench = agent.add_subcommand(
      "bench",
      "the agent's bench mixes (a long stream read, multicast, plain reads and writes from four sources) on the RTL "
      "at memory latency 0 and 50, checked against the model: cycles and the utilization of the busiest channel");
  bench->add_option("--latency", o.latencies, "the memory latencies to measure at")->capture_default_str();
  bench->add_option("--json", o.json, "write the figures as JSON");
  add_rtl_cache_flags(*bench, o.rtl, "RTL engine");
  if (parameters) add_build_param_flags(*bench, o.params, *parameters, "");
  return bench;
}

}  // namespace tpugen::cli
