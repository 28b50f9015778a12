// tpugen mover bench: the memory mover's moves of issue 14 §5 on the RTL at
// memory latencies 0 and 50, each checked against the reference model, with
// the busier AXI data channel's utilization of the bus (one beat a cycle)
// over the move's cycles (from the GO write to done_o).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/mover_commands.h"
#include "hdl/sysnode/sysnode_context.h"
#include "model/mover/mover_model.h"
#include "sim/mover_engine.h"
#include "util/file_io.h"
#include "util/rng.h"

namespace tpugen::cli {

namespace {

constexpr std::uint64_t kImage = 512 * 1024;   // the memory image, at address 0
constexpr std::uint64_t kDst = 256 * 1024;     // every destination starts here
constexpr std::uint64_t kIndexBase = 0x3f000;  // GATHER's index vector
constexpr std::uint32_t kGatherRows = 256, kGatherWords = 4, kGatherPitch = 512;

/// One bench move: its name, its descriptor, the goal at latency 50 (0: none).
struct BenchMove {
  std::string name;
  mover::MoveDescriptor d;
  double goal_at_50 = 0.0;
};

mover::WalkerDesc walker(std::uint64_t base, const std::vector<std::pair<std::uint32_t, std::int64_t>>& dims) {
  mover::WalkerDesc w;
  w.base = base;
  w.ndim = static_cast<std::uint32_t>(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) w.dims[k] = {dims[k].first, dims[k].second, 0, 0};
  return w;
}

/// The moves, each with write coalescing and `cap_code` (MOVE.flags).
std::vector<BenchMove> bench_moves(const SystemNodeSpec& spec, std::uint32_t flags) {
  const MoverSpec& m = spec.mover;
  const std::uint32_t src = m.require_walker("source").code, dst = m.require_walker("destination").code;
  const std::int64_t kWord = spec.word_bytes();
  const auto words = [&](std::int64_t kib) { return static_cast<std::uint32_t>(kib * 1024 / kWord); };
  // The bound selector that feeds bound axis 0.
  std::uint32_t feeds_axis0 = 0;
  bool found = false;
  for (const auto& b : m.bound_selectors)
    if (b.axis == 0 && !found) {
      feeds_axis0 = b.code;
      found = true;
    }
  if (!found) throw Error("mover.spec", "the bench's padded COPY needs a bound selector that feeds axis 0");
  auto move = [&](const char* mode) {
    mover::MoveDescriptor d;
    d.mode = m.require_mode(mode).code;
    d.flags = flags;
    return d;
  };
  std::vector<BenchMove> out;
  {  // a contiguous 64 KiB COPY
    BenchMove b{"COPY 64 KiB, contiguous", move("COPY"), 0.95};
    b.d.walkers[src] = walker(0, {{words(64), kWord}});
    b.d.walkers[dst] = walker(kDst, {{words(64), kWord}});
    out.push_back(b);
  }
  {  // rows of 32 words out of a matrix twice as wide, packed
    BenchMove b{"COPY 64 KiB, 2-D strided rows of 32 words", move("COPY"), 0.95};
    b.d.walkers[src] = walker(0, {{words(64) / 32, 64 * kWord}, {32, kWord}});
    b.d.walkers[dst] = walker(kDst, {{words(64) / 32, 32 * kWord}, {32, kWord}});
    out.push_back(b);
  }
  {  // rows of 32 words, 2 words of padding each side (the fill word)
    BenchMove b{"COPY 63 KiB, rows of 32 words padded to 36", move("COPY"), 0.95};
    b.d.walkers[src] = walker(0, {{56, 32 * kWord}, {36, kWord}});
    b.d.walkers[src].dims[1].bound_sel = feeds_axis0;
    b.d.walkers[src].dims[1].astep = 1;
    b.d.walkers[src].axes[0] = {-2, 32};
    b.d.walkers[dst] = walker(kDst, {{56, 36 * kWord}, {36, kWord}});
    out.push_back(b);
  }
  {  // 256 rows of 4 words by index
    BenchMove b{"GATHER 256 rows of 4 words (32 KiB)", move("GATHER"), 0.80};
    b.d.walkers[src] = walker(0, {});
    b.d.walkers[dst] = walker(kDst, {{kGatherRows * kGatherWords, kWord}});
    b.d.index_base = kIndexBase;
    b.d.index_count = kGatherRows;
    b.d.gather_words = kGatherWords;
    b.d.pitch = kGatherPitch;
    out.push_back(b);
  }
  {
    BenchMove b{"GENERATE 64 KiB", move("GENERATE"), 0.95};
    b.d.seed = 0x0123456789abcdefULL;
    b.d.walkers[dst] = walker(kDst, {{words(64), kWord}});
    out.push_back(b);
  }
  {
    BenchMove b{"FILL 64 KiB", move("FILL"), 0.95};
    b.d.imm = 0x1234abcd;
    b.d.walkers[dst] = walker(kDst, {{words(64), kWord}});
    out.push_back(b);
  }
  {  // 32 KiB of FP16 through the quantiser: 128 entries of 8 words in, 4 out
    BenchMove b{"XFORM 32 KiB through the quantiser", move("XFORM"), 0.0};
    const TransformOccupant& q = m.require_occupant("quantiser");
    b.d.xform_id = q.id;
    const std::uint32_t in_words = static_cast<std::uint32_t>(q.in_bits / spec.word_bits);
    b.d.walkers[src] = walker(0, {{words(32), kWord}});
    b.d.walkers[dst] = walker(kDst, {{words(32) / in_words, q.out_words * kWord}});
    out.push_back(b);
  }
  return out;
}

/// The image: random bytes (FP16 for XFORM among them), GATHER's indices a
/// permutation of its rows.
std::vector<std::uint8_t> bench_image(const SystemNodeSpec& spec) {
  const std::uint64_t index_bytes = static_cast<std::uint64_t>(spec.mover.index_bits / 8);
  std::vector<std::uint8_t> image(kImage);
  Rng rng(14);
  for (auto& b : image) b = static_cast<std::uint8_t>(rng.next());
  std::vector<std::uint32_t> rows(kGatherRows);
  for (std::uint32_t r = 0; r < kGatherRows; ++r) rows[r] = r;
  rng.shuffle(rows);
  for (std::uint32_t r = 0; r < kGatherRows; ++r)
    for (std::uint64_t k = 0; k < index_bytes; ++k)
      image[kIndexBase + index_bytes * r + k] = static_cast<std::uint8_t>(rows[r] >> (8 * k));
  return image;
}

}  // namespace

int run_mover_bench(const NocSpec& noc, const SystemNodeSpec& spec, const MoverBenchOpts& o) {
  const hdl::SysnodeContext ctx(noc, spec, resolve_mover_params(spec, o.params), resolve_agent_params(spec));
  const std::filesystem::path sim =
      sim::ensure_mover_simulator(ctx, o.rtl.cache_root(), print_build_progress, {.assertions = !o.no_assert});
  const MoverSpec& m = spec.mover;
  std::uint32_t flags = 0;
  for (const auto& f : m.flags) {
    if (f.name == "coalesce") flags |= 1U << f.lsb;
    if (f.name == "burst_cap") {
      std::int64_t code = -1;
      for (std::size_t c = 0; c < f.values.size(); ++c)
        if (f.values[c] == o.burst) code = static_cast<std::int64_t>(c);
      if (code < 0) throw Error("cli.mover", fmt::format("--burst {}: no burst cap code means it", o.burst));
      flags |= static_cast<std::uint32_t>(code) << f.lsb;
    }
  }
  std::string listing;
  for (const auto& [name, v] : ctx.mover_params().listing()) listing += fmt::format(" {}={}", name, v);
  fmt::print(
      "tpugen mover bench:{}; write coalescing, bursts of up to {} words; utilization: the busier AXI data "
      "channel's beats over the move's cycles (GO write to done_o), against one beat a cycle\n",
      listing, o.burst);
  fmt::print("{:<46} {:>7} {:>6} {:>8} {:>7}  {}\n", "move", "latency", "beats", "cycles", "util", "goal at 50");

  const std::vector<std::uint8_t> image = bench_image(spec);
  nlohmann::ordered_json report = nlohmann::ordered_json::array();
  double sim_cycles = 0, sim_seconds = 0;
  int missed = 0;
  for (const BenchMove& b : bench_moves(spec, flags)) {
    for (const unsigned latency : o.latencies) {
      const mover::MoverMemory mem(0, image);
      mover::MoverMemory model_mem = mem;
      const mover::MoveResult model = mover::run_move(spec, b.d, model_mem);
      sim::MoverRunConditions c;
      c.latency = latency;
      c.max_reads = c.max_writes = 64;
      c.gap_max = 0;
      c.max_cycles = o.rtl.max_cycles;
      const sim::MoverRtlResult r = sim::run_mover_rtl(sim, spec, b.d, mem, c);
      const sim::MoverComparison cmp = sim::compare_mover_runs(spec, model, model_mem, r);
      if (!r.clean() || !cmp.match() || r.fault != 0)
        throw Error("mover.bench",
                    fmt::format("{} at latency {}: the RTL run {} ({})", b.name, latency, r.status,
                                cmp.match() ? "fault " + std::to_string(r.fault) : cmp.differences.front()));
      sim_cycles += static_cast<double>(r.total_cycles);
      sim_seconds += r.sim_seconds;
      std::string goal;
      if (latency == 50 && b.goal_at_50 > 0) {
        const bool met = r.bus_utilization >= b.goal_at_50;
        if (!met) ++missed;
        goal = fmt::format("{:.0f}% {}", 100 * b.goal_at_50, met ? "met" : "MISSED");
      }
      fmt::print("{:<46} {:>7} {:>6} {:>8} {:>6.1f}%  {}\n", b.name, latency, r.data_beats, r.cycles,
                 100 * r.bus_utilization, goal);
      report.push_back({{"move", b.name},
                        {"latency", latency},
                        {"data_beats", r.data_beats},
                        {"words_read", r.words_read},
                        {"words_written", r.words_written},
                        {"cycles", r.cycles},
                        {"bus_utilization", r.bus_utilization},
                        {"goal_at_50", b.goal_at_50},
                        {"read_bursts", r.read_bursts},
                        {"write_bursts", r.write_bursts}});
    }
  }
  const double rate = sim_seconds > 0 ? sim_cycles / sim_seconds : 0;
  fmt::print(
      "every move equal to the reference model; {} goal(s) missed; the simulator ran {:.0f} cycles at {:.2f} M "
      "cycles/s\n",
      missed, sim_cycles, rate / 1e6);
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["burst"] = o.burst;
    j["moves"] = report;
    j["sim_cycles_per_second"] = rate;
    write_file(o.json, j.dump(2) + "\n", "cli.io");
  }
  return kOk;
}

CLI::App* add_mover_bench_command(CLI::App& mover, MoverBenchOpts& o, const std::vector<NocParameter>* parameters) {
  CLI::App* bench = mover.add_subcommand(
      "bench",
      "the mover's bench moves (COPY contiguous, 2-D and padded, GATHER, GENERATE, FILL, XFORM) on the RTL "
      "at memory latency 0 and 50, checked against the model: cycles and the bus utilization");
  bench->add_option("--latency", o.latencies, "the memory latencies to measure at")->capture_default_str();
  bench->add_option("--burst", o.burst, "the burst cap of every move (MOVE.flags: 1, 2, 4, ... 128 words)")
      ->capture_default_str();
  bench->add_option("--json", o.json, "write the figures as JSON");
  bench->add_flag("--no-assert", o.no_assert, "build the simulator without the RTL's assertions");
  add_rtl_cache_flags(*bench, o.rtl, "RTL engine");
  if (parameters) add_build_param_flags(*bench, o.params, *parameters, "");
  return bench;
}

}  // namespace tpugen::cli
