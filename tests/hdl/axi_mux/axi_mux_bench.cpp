/// @file axi_mux_bench.cpp
/// @brief The Verilator bench of rtl/axi/tpu_axi_mux.sv: MUX_N random AXI4
/// masters (axi_random_master.h), each in its own region of one AxiMemory
/// (tb/sim/axi/axi_memory.h: latency, ready/valid stalls, reordering and
/// interleaving across IDs) behind the mux, and an AxiChecker
/// (tb/sim/axi/axi_checker.h) on every side: one on each master port, one on
/// the memory port. Built by tests/hdl/axi_mux_tests.cpp with verilator --cc
/// --exe --build, the mux's parameters given twice, as -G to Verilator and as
/// the MUX_* macros here.
///
/// Per cycle (the models' contract): the memory and the masters drive, the
/// mux settles, the checkers see both sides of each port, the models commit
/// the handshakes, the clock rises. At the end every checker's finish runs and
/// each region is compared with its master's shadow.
///
/// Output, one line each: CONFIG, MASTER <i>, CHECKER <port>, MEMORY,
/// ARB ar|aw (grants per master, switches between masters, cycles two or more
/// masters requested, max_passed: the most requests of others taken while one
/// master waited), WFIFO (the most AW bursts granted whose W beats were owed),
/// THROUGHPUT (handshakes on the memory port over the cycles from the first
/// to the last), REGION <i>, then PASS or FAIL with the reasons.
///
/// Options: --seed N --latency N --stall P (the memory's ready and valid
/// stalls) --mstall P (the masters' RREADY/BREADY stalls) --gap P --reorder
/// 0|1 --interleave 0|1 --reads N --writes N (bursts per master) --max-beats N
/// --early-w P --full-speed (memory never stalls, masters never pause: one-beat
/// reads and writes, reads and writes in separate halves) --max-cycles N.
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vtpu_axi_mux.h"
#include "axi_random_master.h"
#include "sim/axi/axi_checker.h"
#include "sim/axi/axi_memory.h"
#include "sim/harness/ports.h"

#ifndef MUX_N
#define MUX_N 2
#endif
#ifndef MUX_SLV_ID_W
#define MUX_SLV_ID_W 1
#endif
#ifndef MUX_ADDR_W
#define MUX_ADDR_W 40
#endif
#ifndef MUX_DATA_BYTES
#define MUX_DATA_BYTES 32
#endif
#ifndef MUX_MAX_W_TRANS
#define MUX_MAX_W_TRANS 8
#endif

namespace {

using tpusim::sim::get_bits;
using tpusim::sim::set_slice;

constexpr unsigned kN = MUX_N;
constexpr unsigned kSlvIdW = MUX_SLV_ID_W;
constexpr unsigned kAddrW = MUX_ADDR_W;
constexpr unsigned kBytes = MUX_DATA_BYTES;
constexpr unsigned kMaxWTrans = MUX_MAX_W_TRANS;
constexpr unsigned kIdxW = [] {
  unsigned w = 0;
  while ((1u << w) < kN) ++w;
  return w;
}();
constexpr unsigned kMstIdW = kSlvIdW + kIdxW;

struct Options {
  std::uint64_t seed = 1;
  unsigned latency = 0;
  double stall = 0.3;
  double mstall = 0.2;
  double gap = 0.2;
  bool reorder = false;
  bool interleave = false;
  unsigned reads = 150;
  unsigned writes = 150;
  unsigned max_beats = 16;
  double early_w = 0.5;
  bool full_speed = false;
  std::uint64_t max_cycles = 2000000;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    auto next = [&]() -> std::string {
      if (k + 1 >= argc) {
        std::fprintf(stderr, "FAIL option %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++k];
    };
    if (a == "--seed")
      o.seed = std::stoull(next());
    else if (a == "--latency")
      o.latency = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--stall")
      o.stall = std::stod(next());
    else if (a == "--mstall")
      o.mstall = std::stod(next());
    else if (a == "--gap")
      o.gap = std::stod(next());
    else if (a == "--reorder")
      o.reorder = next() != "0";
    else if (a == "--interleave")
      o.interleave = next() != "0";
    else if (a == "--reads")
      o.reads = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--writes")
      o.writes = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--max-beats")
      o.max_beats = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--early-w")
      o.early_w = std::stod(next());
    else if (a == "--full-speed")
      o.full_speed = true;
    else if (a == "--max-cycles")
      o.max_cycles = std::stoull(next());
    else if (a.rfind("+verilator", 0) == 0)
      continue;
    else {
      std::fprintf(stderr, "FAIL unknown option %s\n", a.c_str());
      std::exit(2);
    }
  }
  if (o.full_speed) {
    o.stall = 0.0;
    o.mstall = 0.0;
    o.gap = 0.0;
    o.max_beats = 1;
    o.early_w = 1.0;
  }
  return o;
}

// --- Port access: master i's field is slice i of the flat vector --------------
template <typename P>
void put(P& port, unsigned lsb, unsigned width, std::uint64_t v) {
  set_slice(port, lsb, &v, width);
}
template <typename P>
void put_bytes(P& port, unsigned lsb, const tpusim::Bytes& bytes, unsigned n) {
  std::vector<std::uint64_t> words((n + 7) / 8, 0);
  for (unsigned k = 0; k < n; ++k)
    if (k < bytes.size()) words[k / 8] |= std::uint64_t{bytes[k]} << (8 * (k % 8));
  set_slice(port, lsb, words.data(), 8 * n);
}
template <typename P>
tpusim::Bytes take_bytes(const P& port, unsigned lsb, unsigned n) {
  tpusim::Bytes out(n);
  for (unsigned k = 0; k < n; ++k) out[k] = static_cast<std::uint8_t>(get_bits(port, lsb + 8 * k, 8));
  return out;
}
template <typename P>
bool bit(const P& port, unsigned i) {
  return get_bits(port, i, 1) != 0;
}

/// Round-robin evidence of one channel, seen at the masters' ports.
struct ArbStats {
  std::vector<std::uint64_t> grants = std::vector<std::uint64_t>(kN, 0);
  std::vector<unsigned> passed = std::vector<unsigned>(kN, 0);
  std::uint64_t switches = 0, contended = 0, double_grants = 0;
  unsigned max_passed = 0;
  int last = -1;

  void update(const std::vector<bool>& valid, const std::vector<bool>& ready) {
    int granted = -1;
    unsigned requesting = 0;
    for (unsigned i = 0; i < kN; ++i) {
      requesting += valid[i];
      if (valid[i] && ready[i]) {
        if (granted >= 0) ++double_grants;
        granted = static_cast<int>(i);
      }
    }
    if (requesting >= 2) ++contended;
    for (unsigned i = 0; i < kN; ++i) {
      if (static_cast<int>(i) == granted || !valid[i]) {
        passed[i] = 0;
      } else if (granted >= 0) {
        max_passed = std::max(max_passed, ++passed[i]);
      }
    }
    if (granted < 0) return;
    ++grants[static_cast<std::size_t>(granted)];
    if (last >= 0 && last != granted) ++switches;
    last = granted;
  }
  [[nodiscard]] std::string line(const char* ch) const {
    std::string g;
    for (unsigned i = 0; i < kN; ++i) g += (i ? "," : "") + std::to_string(grants[i]);
    return std::string("ARB ") + ch + " grants=" + g + " switches=" + std::to_string(switches) +
           " contended=" + std::to_string(contended) + " max_passed=" + std::to_string(max_passed) +
           " double_grants=" + std::to_string(double_grants);
  }
};

/// Handshakes of one memory-port channel and the cycles from the first to the last.
struct Rate {
  std::uint64_t n = 0, first = 0, last = 0;
  void hit(std::uint64_t cycle) {
    if (n++ == 0) first = cycle;
    last = cycle;
  }
  [[nodiscard]] std::string text() const { return std::to_string(n) + "/" + std::to_string(n ? last - first + 1 : 0); }
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);  // every register starts random: a missing reset shows
  ctx->randSeed(static_cast<int>(o.seed & 0x7fffffff));
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vtpu_axi_mux>(ctx.get());
  std::mt19937_64 rng(o.seed * 7 + 3);

  tpusim::AxiMemoryTiming t;
  t.latency = o.latency;
  t.ready_stall = o.stall;
  t.valid_stall = o.stall;
  t.reorder = o.reorder;
  t.interleave = o.interleave;
  t.max_reads = 16;
  t.max_writes = 16;
  tpusim::AxiMemory mem(kBytes, t, o.seed * 7 + 1, "m_axi");

  // The checkers: each master port (no W may pass before its AW: max_w_lead 0),
  // the memory port (W may lead its AW as far as the memory takes it).
  std::vector<tpusim::AxiChecker> checkers;
  for (unsigned i = 0; i <= kN; ++i) {
    tpusim::AxiCheckerConfig c;
    const bool mem_side = i == kN;
    c.id_bits = mem_side ? kMstIdW : kSlvIdW;
    c.addr_bits = kAddrW;
    c.max_burst_beats = 256;
    c.max_w_lead = mem_side ? t.max_early_w : 0;
    c.allow_r_interleave = o.interleave;
    c.port = mem_side ? "m_axi" : "s_axi" + std::to_string(i);
    checkers.emplace_back(kBytes, c);
  }

  // Each master's region: 16 KB, random contents, 4 KB-aligned, above 2^(AddrW-4).
  constexpr std::size_t kRegion = 16384;
  std::vector<tpusim::bench::AxiRandomMaster> masters;
  std::vector<std::string> region_names;
  for (unsigned i = 0; i < kN; ++i) {
    tpusim::Bytes contents(kRegion);
    for (auto& b : contents) b = static_cast<std::uint8_t>(rng() & 0xFF);
    const std::uint64_t base = (std::uint64_t{i} + 1) << (kAddrW - 4);
    region_names.push_back("m" + std::to_string(i));
    mem.map(region_names.back(), base, contents, true);
    tpusim::bench::AxiRandomMasterConfig mc;
    mc.bus_bytes = kBytes;
    mc.id_bits = kSlvIdW;
    mc.base = base;
    mc.bytes = kRegion;
    mc.reads = o.reads;
    mc.writes = o.writes;
    mc.max_beats = o.max_beats;
    mc.narrow = o.full_speed ? 0.0 : 0.2;
    mc.gap = o.gap;
    mc.ready_stall = o.mstall;
    mc.early_w = o.early_w;
    mc.max_outstanding = 16;
    mc.split = o.full_speed;
    masters.emplace_back("master" + std::to_string(i), mc, contents, o.seed * 7 + 10 + i);
  }

  std::printf(
      "CONFIG masters=%u slv_id_w=%u addr_w=%u data_bytes=%u max_w_trans=%u latency=%u stall=%.2f "
      "mstall=%.2f gap=%.2f reorder=%d interleave=%d full_speed=%d seed=%llu\n",
      kN, kSlvIdW, kAddrW, kBytes, kMaxWTrans, o.latency, o.stall, o.mstall, o.gap, o.reorder ? 1 : 0,
      o.interleave ? 1 : 0, o.full_speed ? 1 : 0, static_cast<unsigned long long>(o.seed));

  Vtpu_axi_mux& d = *top;
  // Reset: every input idle.
  d.rst_ni = 0;
  d.clk_i = 0;
  d.eval();
  for (int k = 0; k < 4; ++k) {
    d.clk_i = 1;
    d.eval();
    d.clk_i = 0;
    d.eval();
  }
  d.rst_ni = 1;
  d.eval();

  ArbStats ar_arb, aw_arb;
  Rate ar_rate, aw_rate, w_rate, r_rate;
  std::uint64_t w_owed = 0, w_owed_max = 0;
  std::vector<std::string> fails;
  std::uint64_t cycle = 0, idle_after = 0;
  const tpusim::Bytes zeros(kBytes, 0);

  for (;; ++cycle) {
    if (cycle >= o.max_cycles) {
      fails.push_back("timeout after " + std::to_string(cycle) + " cycles");
      break;
    }
    // --- drive: the memory's side of the memory port, the masters' ports ------
    const tpusim::AxiSlaveSignals ms = mem.drive(cycle);
    d.m_ar_ready_i = ms.arready;
    d.m_aw_ready_i = ms.awready;
    d.m_w_ready_i = ms.wready;
    d.m_r_valid_i = ms.rvalid;
    put_bytes(d.m_r_data_i, 0, ms.r.data.empty() ? zeros : ms.r.data, kBytes);
    d.m_r_resp_i = ms.r.resp;
    d.m_r_last_i = ms.r.last;
    d.m_r_id_i = ms.r.id;
    d.m_b_valid_i = ms.bvalid;
    d.m_b_resp_i = ms.b.resp;
    d.m_b_id_i = ms.b.id;

    std::vector<tpusim::AxiMasterSignals> sm(kN);
    for (unsigned i = 0; i < kN; ++i) {
      sm[i] = masters[i].drive(cycle);
      const auto& m = sm[i];
      put(d.s_ar_valid_i, i, 1, m.arvalid);
      put(d.s_ar_addr_i, i * kAddrW, kAddrW, m.ar.addr);
      put(d.s_ar_len_i, i * 8, 8, m.ar.len);
      put(d.s_ar_size_i, i * 3, 3, m.ar.size);
      put(d.s_ar_burst_i, i * 2, 2, m.ar.burst);
      put(d.s_ar_id_i, i * kSlvIdW, kSlvIdW, m.ar.id);
      put(d.s_r_ready_i, i, 1, m.rready);
      put(d.s_aw_valid_i, i, 1, m.awvalid);
      put(d.s_aw_addr_i, i * kAddrW, kAddrW, m.aw.addr);
      put(d.s_aw_len_i, i * 8, 8, m.aw.len);
      put(d.s_aw_size_i, i * 3, 3, m.aw.size);
      put(d.s_aw_burst_i, i * 2, 2, m.aw.burst);
      put(d.s_aw_id_i, i * kSlvIdW, kSlvIdW, m.aw.id);
      put(d.s_w_valid_i, i, 1, m.wvalid);
      put_bytes(d.s_w_data_i, i * kBytes * 8, m.w.data.empty() ? zeros : m.w.data, kBytes);
      std::uint64_t strb[(kBytes + 63) / 64] = {};
      for (unsigned b = 0; b < kBytes && b < m.w.strb.size(); ++b)
        if (m.w.strb[b]) strb[b / 64] |= std::uint64_t{1} << (b % 64);
      set_slice(d.s_w_strb_i, i * kBytes, strb, kBytes);
      put(d.s_w_last_i, i, 1, m.w.last);
      put(d.s_b_ready_i, i, 1, m.bready);
    }
    d.clk_i = 0;
    d.eval();

    // --- what the mux shows: the memory port's master side, each master's slave side
    tpusim::AxiMasterSignals mm;
    mm.arvalid = d.m_ar_valid_o;
    mm.ar.addr = static_cast<std::uint64_t>(d.m_ar_addr_o);
    mm.ar.len = d.m_ar_len_o;
    mm.ar.size = d.m_ar_size_o;
    mm.ar.burst = d.m_ar_burst_o;
    mm.ar.id = d.m_ar_id_o;
    mm.rready = d.m_r_ready_o;
    mm.awvalid = d.m_aw_valid_o;
    mm.aw.addr = static_cast<std::uint64_t>(d.m_aw_addr_o);
    mm.aw.len = d.m_aw_len_o;
    mm.aw.size = d.m_aw_size_o;
    mm.aw.burst = d.m_aw_burst_o;
    mm.aw.id = d.m_aw_id_o;
    mm.wvalid = d.m_w_valid_o;
    mm.w.data = take_bytes(d.m_w_data_o, 0, kBytes);
    mm.w.strb.resize(kBytes);
    for (unsigned b = 0; b < kBytes; ++b) mm.w.strb[b] = static_cast<std::uint8_t>(get_bits(d.m_w_strb_o, b, 1));
    mm.w.last = d.m_w_last_o;
    mm.bready = d.m_b_ready_o;

    std::vector<tpusim::AxiSlaveSignals> ss(kN);
    std::vector<bool> arv(kN), arr(kN), awv(kN), awr(kN);
    for (unsigned i = 0; i < kN; ++i) {
      auto& s = ss[i];
      s.arready = bit(d.s_ar_ready_o, i);
      s.awready = bit(d.s_aw_ready_o, i);
      s.wready = bit(d.s_w_ready_o, i);
      s.rvalid = bit(d.s_r_valid_o, i);
      s.r.id = static_cast<unsigned>(get_bits(d.s_r_id_o, i * kSlvIdW, kSlvIdW));
      s.r.data = take_bytes(d.s_r_data_o, i * kBytes * 8, kBytes);
      s.r.resp = static_cast<unsigned>(get_bits(d.s_r_resp_o, i * 2, 2));
      s.r.last = bit(d.s_r_last_o, i);
      s.bvalid = bit(d.s_b_valid_o, i);
      s.b.id = static_cast<unsigned>(get_bits(d.s_b_id_o, i * kSlvIdW, kSlvIdW));
      s.b.resp = static_cast<unsigned>(get_bits(d.s_b_resp_o, i * 2, 2));
      arv[i] = sm[i].arvalid;
      arr[i] = s.arready;
      awv[i] = sm[i].awvalid;
      awr[i] = s.awready;
      if (sm[i].awvalid && s.awready) ++w_owed;
    }
    if (mm.wvalid && ms.wready && mm.w.last) --w_owed;
    w_owed_max = std::max(w_owed_max, w_owed);
    ar_arb.update(arv, arr);
    aw_arb.update(awv, awr);
    if (mm.arvalid && ms.arready) ar_rate.hit(cycle);
    if (mm.awvalid && ms.awready) aw_rate.hit(cycle);
    if (mm.wvalid && ms.wready) w_rate.hit(cycle);
    if (ms.rvalid && mm.rready) r_rate.hit(cycle);

    for (unsigned i = 0; i < kN; ++i) checkers[i].check(cycle, sm[i], ss[i]);
    checkers[kN].check(cycle, mm, ms);
    mem.clock(cycle, mm);
    for (unsigned i = 0; i < kN; ++i) masters[i].clock(cycle, ss[i]);

    d.clk_i = 1;
    d.eval();
    if (ctx->gotFinish()) {
      fails.push_back("the simulation finished early (an assertion?)");
      break;
    }

    const bool all_done = std::all_of(masters.begin(), masters.end(), [](const auto& m) { return m.done(); });
    if (all_done && mem.idle()) {
      if (++idle_after == 8) break;  // a few idle cycles: nothing may come late
    } else {
      idle_after = 0;
    }
  }
  d.final();

  for (auto& c : checkers) c.finish(cycle);

  for (unsigned i = 0; i < kN; ++i) {
    const auto& m = masters[i];
    const auto& s = m.stats();
    std::printf(
        "MASTER %u reads=%llu writes=%llu r_beats=%llu w_beats=%llu bytes_checked=%llu mismatches=%llu "
        "blocked=%llu errors=%zu\n",
        i, static_cast<unsigned long long>(s.read_bursts_done), static_cast<unsigned long long>(s.write_bursts_done),
        static_cast<unsigned long long>(s.r), static_cast<unsigned long long>(s.w),
        static_cast<unsigned long long>(s.bytes_checked), static_cast<unsigned long long>(s.mismatches),
        static_cast<unsigned long long>(s.blocked), m.errors().size());
    for (const auto& e : m.errors()) std::printf("  %s\n", e.c_str());
    if (!m.errors().empty()) fails.push_back(m.name() + " saw wrong responses");
    if (s.read_bursts_done != o.reads || s.write_bursts_done != o.writes)
      fails.push_back(m.name() + " did not finish its bursts");
  }
  for (unsigned i = 0; i <= kN; ++i) {
    const auto& c = checkers[i];
    const auto& s = c.stats();
    const std::string port = i == kN ? "m_axi" : "s_axi" + std::to_string(i);
    std::printf("CHECKER %s ar=%llu aw=%llu w=%llu r=%llu b=%llu errors=%zu\n", port.c_str(),
                static_cast<unsigned long long>(s.ar), static_cast<unsigned long long>(s.aw),
                static_cast<unsigned long long>(s.w), static_cast<unsigned long long>(s.r),
                static_cast<unsigned long long>(s.b), c.errors().size());
    for (std::size_t k = 0; k < c.errors().size() && k < 20; ++k)
      std::printf("  cycle %llu %s: %s\n", static_cast<unsigned long long>(c.errors()[k].cycle),
                  c.errors()[k].port.c_str(), c.errors()[k].message.c_str());
    if (!c.errors().empty()) fails.push_back("protocol errors on " + port);
  }
  const auto& ms = mem.stats();
  std::printf(
      "MEMORY read_bursts=%llu write_bursts=%llu read_reorders=%llu write_reorders=%llu interleaves=%llu "
      "early_w=%llu access_errors=%zu\n",
      static_cast<unsigned long long>(ms.read_bursts), static_cast<unsigned long long>(ms.write_bursts),
      static_cast<unsigned long long>(ms.read_reorders), static_cast<unsigned long long>(ms.write_reorders),
      static_cast<unsigned long long>(ms.interleaves), static_cast<unsigned long long>(ms.early_w_beats),
      mem.errors().size());
  for (const auto& e : mem.errors()) std::printf("  %s\n", e.message.c_str());
  if (!mem.errors().empty()) fails.push_back("memory access errors");
  std::printf("%s\n", ar_arb.line("ar").c_str());
  std::printf("%s\n", aw_arb.line("aw").c_str());
  if (ar_arb.double_grants || aw_arb.double_grants) fails.push_back("two grants in one cycle");
  // Round robin: a waiting master is taken before NumMasters other requests are.
  if (ar_arb.max_passed >= kN || aw_arb.max_passed >= kN) fails.push_back("a waiting master was passed over too often");
  std::printf("WFIFO max=%llu\n", static_cast<unsigned long long>(w_owed_max));
  if (w_owed_max > kMaxWTrans) fails.push_back("more AW bursts granted with W owed than MaxWTrans");
  std::printf("THROUGHPUT ar=%s aw=%s w=%s r=%s\n", ar_rate.text().c_str(), aw_rate.text().c_str(),
              w_rate.text().c_str(), r_rate.text().c_str());
  for (unsigned i = 0; i < kN; ++i) {
    const tpusim::Bytes& got = mem.region(region_names[i]);
    const tpusim::Bytes& want = masters[i].shadow();
    std::size_t bad = 0;
    for (std::size_t k = 0; k < got.size(); ++k) bad += got[k] != want[k];
    std::printf("REGION %u bytes=%zu mismatches=%zu\n", i, got.size(), bad);
    if (bad) fails.push_back("region " + std::to_string(i) + " differs from its master's writes");
  }

  if (fails.empty()) {
    std::printf("PASS cycles=%llu\n", static_cast<unsigned long long>(cycle));
    return 0;
  }
  std::printf("FAIL");
  for (const auto& f : fails) std::printf(" [%s]", f.c_str());
  std::printf("\n");
  return 1;
}
