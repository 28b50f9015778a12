// The AXI4 models of the harness (tb/sim/axi/axi_*.h): AxiMemory against a
// scripted AXI4 master, AxiChecker against broken masters and scripted broken
// slaves, and AxiLiteHost against a small register-file slave, driven cycle
// by cycle as sim_main.cpp drives its models.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sim/axi/axi_checker.h"
#include "sim/axi/axi_lite.h"
#include "sim/axi/axi_memory.h"

using namespace tpusim;

namespace {

using Rules = std::set<std::string>;

Bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng() & 0xFF);
  return b;
}

unsigned log2u(unsigned v) {
  unsigned s = 0;
  while ((1u << s) < v) ++s;
  return s;
}

// ---------------------------------------------------------------------------
// A scripted AXI4 master: reads in order on AR, writes in order on AW and W,
// R and B matched to the oldest burst of their ID. Knobs stall its valids and
// readys; a Fault breaks one rule on purpose.
// ---------------------------------------------------------------------------
struct Burst {
  bool write = false;
  AxiAddr a;
  std::vector<Bytes> data;  ///< write beats (bus bytes each)
  std::vector<Bytes> strb;
  int wlast_at = -1;        ///< the beat that carries WLAST (-1: the last one; past the last: none)
  int extra_wlast = -1;     ///< a beat that carries WLAST as well (-1: none)
};

enum class Fault { none, ar_drop, ar_change, aw_drop, aw_change, w_drop, w_change };

struct MasterKnobs {
  double valid_stall = 0.0;          ///< probability of not raising a valid in a cycle
  double ready_stall = 0.0;          ///< probability of withholding RREADY / BREADY
  std::size_t w_ahead = 1;           ///< W of write k may go once k - w_ahead + 1 AWs handshook
  std::size_t hold_aw_until_w = 0;   ///< AWs wait until this many W beats were taken
  Fault fault = Fault::none;
};

class TestMaster {
 public:
  TestMaster(unsigned bus, std::vector<Burst> ops, MasterKnobs k, std::uint64_t seed)
      : bus_(bus), ops_(std::move(ops)), k_(k), rng_(seed), rbeats(ops_.size()), bresp(ops_.size()) {
    for (std::size_t i = 0; i < ops_.size(); ++i) (ops_[i].write ? writes_ : reads_).push_back(i);
  }

  const AxiMasterSignals& drive(std::uint64_t) {
    out_ = AxiMasterSignals{};
    out_.w.data.assign(bus_, 0);
    out_.w.strb.assign(bus_, 0);
    if (ar_next_ < reads_.size()) {
      Burst& b = ops_[reads_[ar_next_]];
      out_.arvalid = ar_shown_ || !coin(k_.valid_stall);
      if (ar_shown_ && once(Fault::ar_drop)) out_.arvalid = false;
      if (ar_shown_ && once(Fault::ar_change)) b.a.addr += bus_;
      out_.ar = b.a;
    }
    if (aw_next_ < writes_.size() && w_taken_ >= k_.hold_aw_until_w) {
      Burst& b = ops_[writes_[aw_next_]];
      out_.awvalid = aw_shown_ || !coin(k_.valid_stall);
      if (aw_shown_ && once(Fault::aw_drop)) out_.awvalid = false;
      if (aw_shown_ && once(Fault::aw_change)) b.a.addr += bus_;
      out_.aw = b.a;
    }
    if (w_op_ < writes_.size() && w_op_ < aw_next_ + k_.w_ahead) {
      Burst& b = ops_[writes_[w_op_]];
      out_.wvalid = w_shown_ || !coin(k_.valid_stall);
      if (w_shown_ && once(Fault::w_drop)) out_.wvalid = false;
      if (w_shown_ && once(Fault::w_change)) b.data[w_beat_][0] ^= 0xFF;
      out_.w.data = b.data[w_beat_];
      out_.w.strb = b.strb[w_beat_];
      const std::size_t last_at = b.wlast_at < 0 ? b.a.len : static_cast<std::size_t>(b.wlast_at);
      out_.w.last = w_beat_ == last_at || static_cast<int>(w_beat_) == b.extra_wlast;
    }
    out_.rready = !coin(k_.ready_stall);
    out_.bready = !coin(k_.ready_stall);
    return out_;
  }

  void clock(std::uint64_t cycle, const AxiSlaveSignals& s) {
    if (s.rvalid && out_.rready) {
      auto& q = rq_[s.r.id];
      if (!q.empty()) {
        const std::size_t op = q.front();
        rbeats[op].push_back(s.r);
        if (rbeats[op].size() == ops_[op].a.beats()) {
          q.pop_front();
          completion.push_back(op);
        }
      }
      r_cycles.push_back(cycle);
    }
    if (out_.arvalid && s.arready) rq_[out_.ar.id].push_back(reads_[ar_next_++]);
    ar_shown_ = out_.arvalid && !s.arready;
    if (s.bvalid && out_.bready) {
      auto& q = bq_[s.b.id];
      if (!q.empty()) {
        bresp[q.front()] = s.b.resp;
        completion.push_back(q.front());
        q.pop_front();
      }
    }
    if (out_.awvalid && s.awready) bq_[out_.aw.id].push_back(writes_[aw_next_++]);
    aw_shown_ = out_.awvalid && !s.awready;
    if (out_.wvalid && s.wready) {
      ++w_taken_;
      if (++w_beat_ == ops_[writes_[w_op_]].a.beats()) ++w_op_, w_beat_ = 0;
    }
    w_shown_ = out_.wvalid && !s.wready;
  }

  [[nodiscard]] bool done() const {
    for (const auto& [id, q] : rq_)
      if (!q.empty()) return false;
    for (const auto& [id, q] : bq_)
      if (!q.empty()) return false;
    return ar_next_ == reads_.size() && aw_next_ == writes_.size() && w_op_ == writes_.size();
  }
  [[nodiscard]] const std::vector<Burst>& ops() const { return ops_; }

 private:
  bool coin(double p) { return p > 0.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p; }
  bool once(Fault f) {
    if (k_.fault != f || fault_done_) return false;
    fault_done_ = true;
    return true;
  }

  unsigned bus_;
  std::vector<Burst> ops_;
  MasterKnobs k_;
  std::mt19937_64 rng_;
  std::vector<std::size_t> reads_, writes_;
  std::size_t ar_next_ = 0, aw_next_ = 0, w_op_ = 0, w_beat_ = 0, w_taken_ = 0;
  bool ar_shown_ = false, aw_shown_ = false, w_shown_ = false, fault_done_ = false;
  std::map<unsigned, std::deque<std::size_t>> rq_, bq_;
  AxiMasterSignals out_;

 public:
  std::vector<std::vector<AxiR>> rbeats;          ///< per op: the R beats it got
  std::vector<std::optional<unsigned>> bresp;     ///< per op: the B it got
  std::vector<std::size_t> completion;            ///< ops in the order they completed
  std::vector<std::uint64_t> r_cycles;            ///< cycles of the R handshakes
};

/// Run master and memory to completion (or `max_cycles`), the checker
/// watching every cycle; returns the cycles run.
std::uint64_t run(TestMaster& master, AxiMemory& mem, AxiChecker& chk, std::uint64_t max_cycles = 200000) {
  std::uint64_t c = 0;
  for (; c < max_cycles && !(master.done() && mem.idle()); ++c) {
    const AxiSlaveSignals s = mem.drive(c);
    const AxiMasterSignals m = master.drive(c);
    chk.check(c, m, s);
    mem.clock(c, m);
    master.clock(c, s);
  }
  chk.finish(c);
  return c;
}

/// A burst of `beats` beats of 2^size bytes at `addr`; a write's strobes
/// cover its lanes at random (at least one lane a beat).
Burst make_burst(std::mt19937_64& rng, unsigned bus, bool write, unsigned id, std::uint64_t addr, unsigned size,
                 unsigned beats, unsigned burst = axi::kBurstIncr) {
  Burst b;
  b.write = write;
  b.a.addr = addr;
  b.a.id = id;
  b.a.len = beats - 1;
  b.a.size = size;
  b.a.burst = burst;
  if (!write) return b;
  for (unsigned n = 0; n < beats; ++n) {
    b.data.push_back(random_bytes(rng, bus));
    Bytes strb(bus, 0);
    const auto lanes = axi::beat_lanes(b.a, n, bus);
    for (unsigned l = lanes.lo; l <= lanes.hi && l < bus; ++l) strb[l] = static_cast<std::uint8_t>(rng() & 1);
    if (lanes.lo < bus) strb[lanes.lo] = 1;
    b.strb.push_back(strb);
  }
  return b;
}

/// `n` random legal bursts (sizes up to the bus, 1..16 beats, never across
/// 4 KB) of IDs 0 and 1 inside [base, base + bytes).
std::vector<Burst> random_bursts(std::mt19937_64& rng, unsigned bus, bool write, std::uint64_t base, std::size_t bytes,
                                 std::size_t n) {
  std::vector<Burst> out;
  while (out.size() < n) {
    const unsigned size = static_cast<unsigned>(rng() % (log2u(bus) + 1));
    const unsigned beats = 1 + static_cast<unsigned>(rng() % 16);
    const std::uint64_t span = std::uint64_t{beats} << size;
    if (span > bytes) continue;
    const std::uint64_t addr = base + ((rng() % (bytes - span + 1)) & ~((std::uint64_t{1} << size) - 1));
    Burst b = make_burst(rng, bus, write, static_cast<unsigned>(rng() & 1), addr, size, beats);
    if (axi::crosses_4k(b.a)) continue;
    out.push_back(std::move(b));
  }
  return out;
}

/// The bytes each read beat should carry in its lanes, from `image` at `base`.
bool read_matches(const Burst& b, const std::vector<AxiR>& got, unsigned bus, const Bytes& image, std::uint64_t base) {
  if (got.size() != b.a.beats()) return false;
  for (unsigned n = 0; n < b.a.beats(); ++n) {
    const auto lanes = axi::beat_lanes(b.a, n, bus);
    const std::uint64_t addr = axi::beat_addr(b.a, n);
    if (got[n].resp != axi::kRespOkay || got[n].last != (n == b.a.len) || got[n].id != b.a.id) return false;
    for (unsigned l = lanes.lo; l <= lanes.hi; ++l)
      if (got[n].data[l] != image[addr + (l - lanes.lo) - base]) return false;
  }
  return true;
}

/// Apply a write burst to `image` (at `base`) as AXI says: strobed bytes of each beat's lanes.
void apply_write(const Burst& b, unsigned bus, Bytes& image, std::uint64_t base) {
  for (unsigned n = 0; n < b.a.beats(); ++n) {
    const auto lanes = axi::beat_lanes(b.a, n, bus);
    const std::uint64_t addr = axi::beat_addr(b.a, n);
    for (unsigned l = lanes.lo; l <= lanes.hi; ++l)
      if (b.strb[n][l]) image[addr + (l - lanes.lo) - base] = b.data[n][l];
  }
}

/// True when some op completed before an op issued earlier on its channel
/// with a different ID.
bool completed_out_of_issue_order(const TestMaster& m) {
  std::map<bool, std::size_t> last;  // per channel (write?), the highest op index completed so far
  for (const std::size_t op : m.completion) {
    const bool w = m.ops()[op].write;
    if (last.count(w) && op < last[w]) return true;
    last[w] = std::max(last.count(w) ? last[w] : 0, op);
  }
  return false;
}

/// True when every ID's ops completed in issue order.
bool same_id_in_order(const TestMaster& m) {
  std::map<std::pair<bool, unsigned>, std::size_t> last;
  for (const std::size_t op : m.completion) {
    const auto key = std::make_pair(m.ops()[op].write, m.ops()[op].a.id);
    if (last.count(key) && op < last[key]) return false;
    last[key] = op;
  }
  return true;
}

constexpr std::uint64_t kRoBase = 0x10000;
constexpr std::uint64_t kRwBase = 0x20000;
constexpr std::size_t kRegionBytes = 0x3000;

}  // namespace

// ---------------------------------------------------------------------------
// Burst arithmetic (AXI4 A3.4.1 examples).
// ---------------------------------------------------------------------------
TEST_CASE("axi: beat addresses and byte lanes of INCR and WRAP and FIXED bursts", "[axi]") {
  AxiAddr a;
  a.addr = 0x1003;
  a.size = 2;
  a.len = 2;
  CHECK(axi::beat_addr(a, 0) == 0x1003);
  CHECK(axi::beat_addr(a, 1) == 0x1004);
  CHECK(axi::beat_addr(a, 2) == 0x1008);
  CHECK(axi::beat_lanes(a, 0, 16).lo == 3);
  CHECK(axi::beat_lanes(a, 0, 16).hi == 3);
  CHECK(axi::beat_lanes(a, 1, 16).lo == 4);
  CHECK(axi::beat_lanes(a, 1, 16).hi == 7);
  CHECK(axi::beat_lanes(a, 2, 16).lo == 8);
  CHECK(axi::beat_lanes(a, 2, 4).lo == 0);  // on a 32-bit bus the third beat is back on lanes 0..3
  CHECK(axi::beat_lanes(a, 2, 4).hi == 3);
  AxiAddr w;
  w.addr = 0x1008;
  w.size = 2;
  w.len = 3;
  w.burst = axi::kBurstWrap;
  CHECK(axi::beat_addr(w, 1) == 0x100C);
  CHECK(axi::beat_addr(w, 2) == 0x1000);
  CHECK(axi::beat_addr(w, 3) == 0x1004);
  AxiAddr f = w;
  f.burst = axi::kBurstFixed;
  CHECK(axi::beat_addr(f, 3) == 0x1008);
  AxiAddr x;
  x.addr = 0xFC0;
  x.size = 4;
  x.len = 3;
  CHECK_FALSE(axi::crosses_4k(x));  // 0xFC0..0xFFF
  x.len = 4;
  CHECK(axi::crosses_4k(x));
}

// ---------------------------------------------------------------------------
// AxiMemory with a well-behaved master.
// ---------------------------------------------------------------------------
TEST_CASE("axi: memory serves random bursts of every size under heavy stalls and the checker sees no error", "[axi]") {
  const unsigned bus = GENERATE(4u, 16u, 64u, 128u);
  const bool reorder = GENERATE(false, true);
  CAPTURE(bus, reorder);
  std::mt19937_64 rng(bus * 7 + reorder);
  const Bytes ro_image = random_bytes(rng, kRegionBytes);
  const Bytes rw_image = random_bytes(rng, kRegionBytes);
  AxiMemoryTiming t;
  t.latency = 3;
  t.ready_stall = 0.5;
  t.valid_stall = 0.5;
  t.max_reads = 6;
  t.max_writes = 6;
  t.reorder = reorder;
  AxiMemory mem(bus, t, 11);
  mem.map("ro", kRoBase, ro_image, false);
  mem.map("rw", kRwBase, rw_image, true);
  auto ops = random_bursts(rng, bus, false, kRoBase, kRegionBytes, 60);
  const auto writes = random_bursts(rng, bus, true, kRwBase, kRegionBytes, 60);
  for (std::size_t i = 0; i < writes.size(); ++i)
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(2 * i), writes[i]);
  MasterKnobs k;
  k.valid_stall = 0.5;
  k.ready_stall = 0.5;
  TestMaster master(bus, ops, k, 5);
  AxiChecker chk(bus);
  run(master, mem, chk);
  REQUIRE(master.done());
  CHECK(chk.errors().empty());
  CHECK(chk.stats().ar == 60);
  CHECK(chk.stats().aw == 60);
  CHECK(mem.errors().empty());
  CHECK(mem.idle());

  Bytes expect = rw_image;
  std::size_t narrow = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Burst& b = ops[i];
    if (axi::beat_bytes(b.a) < bus) ++narrow;
    if (b.write) {
      apply_write(b, bus, expect, kRwBase);
      CHECK(master.bresp[i] == axi::kRespOkay);
    } else {
      INFO("read op " << i << " at " << axi::hex(b.a.addr));
      CHECK(read_matches(b, master.rbeats[i], bus, ro_image, kRoBase));
    }
  }
  CHECK(narrow > 20);  // narrow transfers were exercised
  CHECK(mem.region("rw") == expect);
  CHECK(mem.region("ro") == ro_image);
  CHECK(same_id_in_order(master));

  const auto& st = mem.stats();
  CHECK(st.read_bursts == 60);
  CHECK(st.write_bursts == 60);
  CHECK(st.ar_stall_cycles > 0);
  CHECK(st.w_stall_cycles > 0);
  CHECK(st.r_stall_cycles > 0);
  CHECK(st.max_outstanding_reads > 1);
  CHECK(st.max_outstanding_reads <= 6);
  CHECK(st.max_outstanding_writes <= 6);
  CHECK(st.interleaves == 0);
  if (reorder) {
    CHECK(st.read_reorders > 0);
    CHECK(completed_out_of_issue_order(master));
  } else {
    CHECK(st.read_reorders == 0);
    CHECK(st.write_reorders == 0);
    CHECK_FALSE(completed_out_of_issue_order(master));
  }
}

TEST_CASE("axi: B responses of different IDs come back reordered only with reorder on", "[axi]") {
  const bool reorder = GENERATE(false, true);
  CAPTURE(reorder);
  const unsigned bus = 16;
  std::mt19937_64 rng(6);
  AxiMemoryTiming t;
  t.latency = 8;  // several single-beat writes wait for their B together
  t.valid_stall = 0.5;
  t.reorder = reorder;
  AxiMemory mem(bus, t, 13);
  mem.map("rw", kRwBase, 4096, true);
  std::vector<Burst> ops;
  for (unsigned i = 0; i < 40; ++i) ops.push_back(make_burst(rng, bus, true, i % 3 == 0 ? 1u : 0u, kRwBase + 16 * i, 4, 1));
  TestMaster master(bus, ops, MasterKnobs{0.0, 0.3, 1, 0, Fault::none}, 2);
  AxiChecker chk(bus);
  run(master, mem, chk);
  REQUIRE(master.done());
  CHECK(chk.errors().empty());
  CHECK(same_id_in_order(master));
  Bytes expect(4096, 0);
  for (const auto& b : ops) apply_write(b, bus, expect, kRwBase);
  CHECK(mem.region("rw") == expect);
  if (reorder) {
    CHECK(mem.stats().write_reorders > 0);
    CHECK(completed_out_of_issue_order(master));
  } else {
    CHECK(mem.stats().write_reorders == 0);
    CHECK_FALSE(completed_out_of_issue_order(master));
  }
}

TEST_CASE("axi: interleaved R beats of different IDs keep each burst whole and same-ID order", "[axi]") {
  const unsigned bus = 16;
  std::mt19937_64 rng(3);
  const Bytes image = random_bytes(rng, kRegionBytes);
  AxiMemoryTiming t;
  t.latency = 2;
  t.valid_stall = 0.3;
  t.interleave = true;
  AxiMemory mem(bus, t, 21);
  mem.map("ro", kRoBase, image, false);
  const auto ops = random_bursts(rng, bus, false, kRoBase, kRegionBytes, 40);
  TestMaster master(bus, ops, MasterKnobs{0.2, 0.3, 1, 0, Fault::none}, 9);
  AxiChecker chk(bus);
  run(master, mem, chk);
  REQUIRE(master.done());
  CHECK(chk.errors().empty());
  CHECK(mem.stats().interleaves > 0);
  for (std::size_t i = 0; i < ops.size(); ++i) CHECK(read_matches(ops[i], master.rbeats[i], bus, image, kRoBase));
  CHECK(same_id_in_order(master));

  // The same traffic is an error for a checker told the master cannot take interleaved bursts.
  AxiMemory mem2(bus, t, 21);
  mem2.map("ro", kRoBase, image, false);
  TestMaster master2(bus, ops, MasterKnobs{0.2, 0.3, 1, 0, Fault::none}, 9);
  AxiCheckerConfig no_interleave;
  no_interleave.allow_r_interleave = false;
  AxiChecker chk2(bus, no_interleave);
  run(master2, mem2, chk2);
  CHECK(chk2.rules() == Rules{"axi.r_interleave"});
}

TEST_CASE("axi: memory latency puts the first R beat latency + 1 cycles after the AR handshake", "[axi]") {
  const unsigned latency = GENERATE(0u, 4u);
  std::mt19937_64 rng(1);
  AxiMemoryTiming t;
  t.latency = latency;
  AxiMemory mem(16, t, 1);
  mem.map("ro", kRoBase, random_bytes(rng, 256), false);
  TestMaster master(16, {make_burst(rng, 16, false, 0, kRoBase, 4, 3)}, MasterKnobs{}, 1);
  AxiChecker chk(16);
  run(master, mem, chk);
  // AR is shown and taken in cycle 0; the three beats follow back to back.
  REQUIRE(master.r_cycles.size() == 3);
  CHECK(master.r_cycles[0] == 1 + latency);
  CHECK(master.r_cycles[2] == 3 + latency);
  CHECK(chk.errors().empty());
}

TEST_CASE("axi: memory drops ARREADY while max_reads bursts are outstanding", "[axi]") {
  AxiMemoryTiming t;
  t.max_reads = 2;
  AxiMemory mem(16, t, 1);
  mem.map("ro", kRoBase, Bytes(256, 0), false);
  AxiMasterSignals m;
  m.arvalid = true;
  m.ar.addr = kRoBase;
  m.ar.size = 4;
  m.rready = false;  // nothing is taken: bursts pile up
  std::vector<bool> ready;
  for (std::uint64_t c = 0; c < 5; ++c) {
    ready.push_back(mem.drive(c).arready);
    mem.clock(c, m);
  }
  CHECK(ready == std::vector<bool>{true, true, false, false, false});
  CHECK(mem.outstanding_reads() == 2);
  CHECK(mem.stats().max_outstanding_reads == 2);
  CHECK(mem.stats().ar_stall_cycles == 3);
}

TEST_CASE("axi: memory accepts W beats before their AW and lands them when the AW comes", "[axi]") {
  const unsigned bus = 16;
  std::mt19937_64 rng(8);
  AxiMemory mem(bus, AxiMemoryTiming{}, 3);
  mem.map("rw", kRwBase, 4096, true);
  std::vector<Burst> ops{make_burst(rng, bus, true, 0, kRwBase + 0x40, 4, 4),
                         make_burst(rng, bus, true, 1, kRwBase + 0x100, 2, 3)};
  MasterKnobs k;
  k.w_ahead = 4;
  k.hold_aw_until_w = 5;  // every W beat of the first burst, and one more, before any AW
  TestMaster master(bus, ops, k, 2);
  AxiChecker chk(bus);
  run(master, mem, chk);
  REQUIRE(master.done());
  CHECK(chk.errors().empty());
  CHECK(mem.stats().early_w_beats >= 5);
  Bytes expect(4096, 0);
  for (const auto& b : ops) apply_write(b, bus, expect, kRwBase);
  CHECK(mem.region("rw") == expect);
}

TEST_CASE("axi: unmapped addresses answer DECERR and read-only regions refuse writes with SLVERR", "[axi]") {
  const unsigned bus = 16;
  std::mt19937_64 rng(4);
  const Bytes image = random_bytes(rng, 0x100);
  AxiMemory mem(bus, AxiMemoryTiming{}, 3);
  mem.map("rom", kRoBase, image, false);
  // A read that runs off the end of "rom": two beats inside, two past it.
  Burst edge = make_burst(rng, bus, false, 0, kRoBase + 0xE0, 4, 4);
  Burst hole = make_burst(rng, bus, false, 1, 0x9000, 2, 1);
  Burst wr = make_burst(rng, bus, true, 0, kRoBase + 0x10, 4, 2);
  TestMaster master(bus, {edge, hole, wr}, MasterKnobs{}, 1);
  AxiChecker chk(bus);
  run(master, mem, chk);
  REQUIRE(master.done());
  CHECK(chk.errors().empty());  // error responses are legal AXI

  REQUIRE(master.rbeats[0].size() == 4);
  CHECK(master.rbeats[0][0].resp == axi::kRespOkay);
  CHECK(master.rbeats[0][1].resp == axi::kRespOkay);
  CHECK(master.rbeats[0][1].data[0] == image[0xF0]);
  CHECK(master.rbeats[0][2].resp == axi::kRespDecErr);
  CHECK(master.rbeats[0][3].resp == axi::kRespDecErr);
  REQUIRE(master.rbeats[1].size() == 1);
  CHECK(master.rbeats[1][0].resp == axi::kRespDecErr);
  CHECK(master.bresp[2] == axi::kRespSlvErr);
  CHECK(mem.region("rom") == image);  // nothing written

  std::vector<AxiAccessError> reads, writes;
  for (const auto& e : mem.errors()) (e.write ? writes : reads).push_back(e);
  REQUIRE(reads.size() == 2);  // one a burst
  REQUIRE(writes.size() == 1);
  CHECK(reads[0].addr == kRoBase + 0x100);
  CHECK(reads[0].region.empty());
  CHECK(reads[0].resp == axi::kRespDecErr);
  CHECK(reads[0].message.find("unmapped") != std::string::npos);
  CHECK(reads[1].addr == 0x9000);
  CHECK(writes[0].addr == kRoBase + 0x10);
  CHECK(writes[0].region == "rom");
  CHECK(writes[0].resp == axi::kRespSlvErr);
  CHECK(writes[0].message.find("read-only region 'rom'") != std::string::npos);
}

TEST_CASE("axi: an injected SLVERR answers every beat touching its bus word and writes nothing of it", "[axi]") {
  const unsigned bus = 32;
  std::mt19937_64 rng(9);
  const Bytes image = random_bytes(rng, 0x400);
  AxiMemory mem(bus, AxiMemoryTiming{}, 5);
  mem.map("rw", kRwBase, image, true);
  mem.inject_slverr(kRwBase + 0x45);  // marks the bus word at kRwBase + 0x40
  REQUIRE(mem.injected_slverr() == std::set<std::uint64_t>{kRwBase + 0x40});
  // Reads: four full beats over the word (the third answers SLVERR), a
  // narrow beat inside it, a narrow beat beside it.
  Burst rd = make_burst(rng, bus, false, 0, kRwBase, 5, 4);
  Burst narrow_in = make_burst(rng, bus, false, 0, kRwBase + 0x48, 2, 1);
  Burst narrow_out = make_burst(rng, bus, false, 0, kRwBase + 0x60, 2, 1);
  // Writes: four full beats over it with every strobe, a write beside it.
  Burst wr = make_burst(rng, bus, true, 0, kRwBase + 0x20, 5, 4);
  for (auto& s : wr.strb) std::fill(s.begin(), s.end(), 1);
  Burst wr_ok = make_burst(rng, bus, true, 0, kRwBase + 0x200, 5, 2);
  TestMaster master(bus, {rd, narrow_in, narrow_out, wr, wr_ok}, MasterKnobs{}, 2);
  AxiChecker chk(bus);
  run(master, mem, chk);
  REQUIRE(master.done());
  CHECK(chk.errors().empty());

  REQUIRE(master.rbeats[0].size() == 4);
  for (unsigned n = 0; n < 4; ++n) CHECK(master.rbeats[0][n].resp == (n == 2 ? axi::kRespSlvErr : axi::kRespOkay));
  CHECK(master.rbeats[0][0].data == Bytes(image.begin(), image.begin() + 0x20));  // no write touches it
  CHECK(master.rbeats[1].at(0).resp == axi::kRespSlvErr);
  CHECK(master.rbeats[2].at(0).resp == axi::kRespOkay);
  CHECK(master.bresp[3] == axi::kRespSlvErr);
  CHECK(master.bresp[4] == axi::kRespOkay);

  // The write's other beats landed; the marked word kept its bytes.
  Bytes expect = image;
  Burst landed = wr;
  landed.strb[1].assign(bus, 0);  // beat 1 is the word at 0x40
  apply_write(landed, bus, expect, kRwBase);
  apply_write(wr_ok, bus, expect, kRwBase);
  CHECK(mem.region("rw") == expect);
  CHECK(std::equal(image.begin() + 0x40, image.begin() + 0x60, mem.region("rw").begin() + 0x40));

  // One error a burst that met the word, each naming the injection.
  REQUIRE(mem.errors().size() == 3);
  for (const auto& e : mem.errors()) {
    CHECK(e.resp == axi::kRespSlvErr);
    CHECK(e.region == "rw");
    CHECK(e.message.find("an injected SLVERR") != std::string::npos);
  }
  CHECK(mem.errors()[0].addr == kRwBase + 0x40);
  CHECK(mem.errors()[1].addr == kRwBase + 0x48);
  CHECK(mem.errors()[2].write);

  // DECERR still wins over an injection on an unmapped word.
  AxiMemory hole(bus, AxiMemoryTiming{}, 6);
  hole.map("rw", kRwBase, image, true);
  hole.inject_slverr(kRwBase + 0x400);  // the first word past the region
  Burst past = make_burst(rng, bus, false, 0, kRwBase + 0x3E0, 5, 2);
  TestMaster m2(bus, {past}, MasterKnobs{}, 3);
  AxiChecker chk2(bus);
  run(m2, hole, chk2);
  REQUIRE(m2.rbeats[0].size() == 2);
  CHECK(m2.rbeats[0][0].resp == axi::kRespOkay);
  CHECK(m2.rbeats[0][1].resp == axi::kRespDecErr);
}

TEST_CASE("axi: memory runs are deterministic for a seed", "[axi]") {
  auto once = [](std::uint64_t seed) {
    std::mt19937_64 rng(2);
    AxiMemoryTiming t;
    t.ready_stall = 0.4;
    t.valid_stall = 0.4;
    t.reorder = true;
    AxiMemory mem(32, t, seed);
    mem.map("ro", kRoBase, random_bytes(rng, kRegionBytes), false);
    TestMaster master(32, random_bursts(rng, 32, false, kRoBase, kRegionBytes, 30), MasterKnobs{0.3, 0.3, 1, 0,
                      Fault::none}, 4);
    AxiChecker chk(32);
    const auto cycles = run(master, mem, chk);
    return std::make_pair(cycles, master.completion);
  };
  CHECK(once(5) == once(5));
  CHECK(once(5) != once(6));
}

TEST_CASE("axi: memory refuses a bad bus width and overlapping or unknown regions", "[axi]") {
  CHECK_THROWS_AS(AxiMemory(48, AxiMemoryTiming{}, 1), std::invalid_argument);
  CHECK_THROWS_AS(AxiMemory(2, AxiMemoryTiming{}, 1), std::invalid_argument);
  CHECK_THROWS_AS(AxiChecker(256), std::invalid_argument);
  AxiMemory mem(64, AxiMemoryTiming{}, 1);
  mem.map("a", 0x1000, 0x100, true);
  CHECK_THROWS_AS(mem.map("b", 0x10FF, 0x10, true), std::invalid_argument);
  CHECK_THROWS_AS(mem.map("a", 0x8000, 0x10, true), std::invalid_argument);
  CHECK_NOTHROW(mem.map("c", 0x1100, 0x10, true));
  CHECK_THROWS_AS(mem.region("nope"), std::out_of_range);
}

// ---------------------------------------------------------------------------
// AxiChecker against broken masters (the memory is a correct slave).
// ---------------------------------------------------------------------------
namespace {

struct MasterCase {
  std::vector<Burst> ops;
  MasterKnobs knobs;
  AxiCheckerConfig cfg;
};

Rules run_master_case(const MasterCase& mc, unsigned bus = 16) {
  AxiMemoryTiming t;
  t.ready_stall = 0.5;
  t.latency = 1;
  AxiMemory mem(bus, t, 17);
  mem.map("m", 0x0, 0x10000, true);
  TestMaster master(bus, mc.ops, mc.knobs, 23);
  AxiChecker chk(bus, mc.cfg);
  run(master, mem, chk, 20000);
  REQUIRE(master.done());
  return chk.rules();
}

}  // namespace

TEST_CASE("axi: checker catches each broken master rule and nothing else", "[axi]") {
  const unsigned bus = 16;
  std::mt19937_64 rng(12);
  MasterCase mc;
  // A few plain bursts on both channels so the stall-dependent faults get their stall.
  for (unsigned i = 0; i < 6; ++i) {
    mc.ops.push_back(make_burst(rng, bus, false, i & 1, 0x2000 + 0x100 * i, 4, 2));
    mc.ops.push_back(make_burst(rng, bus, true, i & 1, 0x4000 + 0x100 * i, 4, 2));
  }
  mc.knobs.valid_stall = 0.2;
  mc.knobs.ready_stall = 0.2;

  SECTION("a correct master") { CHECK(run_master_case(mc).empty()); }
  SECTION("stability") {
    const std::vector<std::pair<Fault, std::string>> faults{
        {Fault::ar_drop, "axi.ar_valid_dropped"}, {Fault::ar_change, "axi.ar_payload_changed"},
        {Fault::aw_drop, "axi.aw_valid_dropped"}, {Fault::aw_change, "axi.aw_payload_changed"},
        {Fault::w_drop, "axi.w_valid_dropped"},   {Fault::w_change, "axi.w_payload_changed"}};
    for (const auto& [fault, rule] : faults) {
      INFO(rule);
      mc.knobs.fault = fault;
      CHECK(run_master_case(mc) == Rules{rule});
    }
  }
  for (const bool write : {false, true}) {
    const std::string ch = write ? "axi.aw_" : "axi.ar_";
    DYNAMIC_SECTION("address rules on " << ch) {
      auto with = [&](Burst b, AxiCheckerConfig cfg = {}) {
        MasterCase one = mc;
        one.ops.push_back(std::move(b));
        one.cfg = std::move(cfg);
        return run_master_case(one);
      };
      CHECK(with(make_burst(rng, bus, write, 0, 0x1FE0, 4, 4)) == Rules{ch + "4k_boundary"});
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 4, 17)) == Rules{ch + "burst_too_long"});
      AxiCheckerConfig up_to_32;
      up_to_32.max_burst_beats = 32;
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 4, 17), up_to_32).empty());
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 5, 1)) == Rules{ch + "size_too_wide"});
      CHECK(with(make_burst(rng, bus, write, 0, 0x3002, 2, 3)) == Rules{ch + "unaligned"});
      AxiCheckerConfig unaligned_ok;
      unaligned_ok.require_aligned = false;
      CHECK(with(make_burst(rng, bus, write, 0, 0x3002, 2, 3), unaligned_ok).empty());
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 2, 4, axi::kBurstFixed)) == Rules{ch + "burst_type"});
      AxiCheckerConfig any_burst;
      any_burst.incr_only = false;
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 2, 4, axi::kBurstWrap), any_burst).empty());
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 2, 3, axi::kBurstWrap), any_burst) == Rules{ch + "wrap_len"});
      AxiCheckerConfig one_id_bit;
      one_id_bit.id_bits = 1;
      CHECK(with(make_burst(rng, bus, write, 2, 0x3000, 4, 1), one_id_bit) == Rules{ch + "id_width"});
      AxiCheckerConfig addr16;
      addr16.addr_bits = 16;
      CHECK(with(make_burst(rng, bus, write, 0, 0x3000, 4, 1), addr16).empty());
      AxiCheckerConfig addr12 = addr16;
      addr12.addr_bits = 12;
      const Rules wide = with(make_burst(rng, bus, write, 0, 0x3000, 4, 1), addr12);
      CHECK(wide.count(ch + "addr_width") == 1);
    }
  }
  SECTION("WLAST missing on the last beat") {
    Burst b = make_burst(rng, bus, true, 0, 0x3000, 4, 4);
    b.wlast_at = 99;
    mc.ops.push_back(b);
    CHECK(run_master_case(mc) == Rules{"axi.wlast_missing"});
  }
  SECTION("WLAST set early") {
    Burst b = make_burst(rng, bus, true, 0, 0x3000, 4, 4);
    b.extra_wlast = 1;  // and on the last beat, as it should
    mc.ops.push_back(b);
    CHECK(run_master_case(mc) == Rules{"axi.wlast_early"});
  }
  SECTION("W beats too far ahead of their AW") {
    MasterCase lead;
    lead.ops = {make_burst(rng, bus, true, 0, 0x3000, 4, 4), make_burst(rng, bus, true, 1, 0x3100, 4, 4)};
    lead.knobs.w_ahead = 2;
    lead.knobs.hold_aw_until_w = 8;  // all eight W beats go before any AW
    lead.cfg.max_w_lead = 4;
    CHECK(run_master_case(lead) == Rules{"axi.w_without_aw"});
    lead.cfg.max_w_lead = 8;
    CHECK(run_master_case(lead).empty());
  }
  SECTION("WSTRB outside a narrow beat's lanes") {
    Burst b = make_burst(rng, bus, true, 0, 0x3004, 2, 2);  // lanes 4..7, then 8..11
    b.strb[1][12] = 1;
    mc.ops.push_back(b);
    CHECK(run_master_case(mc) == Rules{"axi.wstrb_lanes"});
  }
}

// ---------------------------------------------------------------------------
// AxiChecker against scripted broken slaves: a cycle-by-cycle trace of both
// sides, the broken one next to its correct twin.
// ---------------------------------------------------------------------------
namespace {

/// A burst of 16-byte beats by ID, at an address of its own.
AxiAddr burst(unsigned id, unsigned beats) {
  AxiAddr a;
  a.addr = 0x1000 + 0x100 * id;
  a.id = id;
  a.len = beats - 1;
  a.size = 4;
  return a;
}
AxiMasterSignals ar(unsigned id, unsigned beats) {
  AxiMasterSignals m;
  m.arvalid = true;
  m.ar = burst(id, beats);
  return m;
}
AxiMasterSignals aw(unsigned id, unsigned beats) {
  AxiMasterSignals m;
  m.awvalid = true;
  m.aw = burst(id, beats);
  return m;
}
AxiMasterSignals w(bool last, AxiMasterSignals m = {}) {
  m.wvalid = true;
  m.w.data.assign(16, 0x5A);
  m.w.strb.assign(16, 1);
  m.w.last = last;
  return m;
}
AxiMasterSignals ready(bool rready, bool bready, AxiMasterSignals m = {}) {
  m.rready = rready;
  m.bready = bready;
  return m;
}
AxiSlaveSignals accept_all() {
  AxiSlaveSignals s;
  s.arready = s.awready = s.wready = true;
  return s;
}
AxiSlaveSignals r(unsigned id, bool last, std::uint8_t fill = 0x11) {
  AxiSlaveSignals s;
  s.rvalid = true;
  s.r.id = id;
  s.r.data.assign(16, fill);
  s.r.last = last;
  return s;
}
AxiSlaveSignals b(unsigned id, unsigned resp = axi::kRespOkay) {
  AxiSlaveSignals s;
  s.bvalid = true;
  s.b.id = id;
  s.b.resp = resp;
  return s;
}

struct Trace {
  AxiChecker chk;
  std::uint64_t cycle = 0;
  explicit Trace(AxiCheckerConfig cfg = {}) : chk(16, std::move(cfg)) {}
  Trace& operator()(const AxiMasterSignals& m, const AxiSlaveSignals& s) {
    chk.check(cycle++, m, s);
    return *this;
  }
};

}  // namespace

TEST_CASE("axi: checker catches a slave that drops RVALID or changes R while stalled", "[axi]") {
  Trace ok, dropped, changed;
  for (Trace* t : {&ok, &dropped, &changed}) (*t)(ar(0, 1), accept_all())(ready(false, false), r(0, true));
  ok(ready(true, false), r(0, true));
  dropped(ready(true, false), AxiSlaveSignals{});
  changed(ready(true, false), r(0, true, 0x22));
  CHECK(ok.chk.rules().empty());
  CHECK(dropped.chk.rules() == Rules{"axi.r_valid_dropped"});
  CHECK(changed.chk.rules() == Rules{"axi.r_payload_changed"});
  CHECK(changed.chk.errors().front().cycle == 2);
  CHECK(changed.chk.errors().front().port == "m_axi");
}

TEST_CASE("axi: checker catches R with an ID that has no outstanding burst", "[axi]") {
  Trace wrong_id, same_cycle, ok;
  wrong_id(ar(0, 1), accept_all())(ready(true, false), r(1, true));
  same_cycle(ready(true, false, ar(0, 1)), [] {  // R in the very cycle of its AR handshake
    AxiSlaveSignals s = r(0, true);
    s.arready = true;
    return s;
  }());
  ok(ar(0, 1), accept_all())(ready(true, false), r(0, true));
  CHECK(wrong_id.chk.rules() == Rules{"axi.r_unexpected_id"});
  CHECK(same_cycle.chk.rules() == Rules{"axi.r_unexpected_id"});
  CHECK(ok.chk.rules().empty());
}

TEST_CASE("axi: checker catches RLAST early or missing", "[axi]") {
  Trace early, missing, ok;
  early(ar(0, 4), accept_all())(ready(true, false), r(0, false))(ready(true, false), r(0, true));
  missing(ar(0, 2), accept_all())(ready(true, false), r(0, false))(ready(true, false), r(0, false));
  ok(ar(0, 2), accept_all())(ready(true, false), r(0, false))(ready(true, false), r(0, true));
  CHECK(early.chk.rules() == Rules{"axi.rlast_early"});
  CHECK(missing.chk.rules() == Rules{"axi.rlast_missing"});
  CHECK(ok.chk.rules().empty());
  ok.chk.finish(ok.cycle);
  CHECK(ok.chk.errors().empty());
}

TEST_CASE("axi: checker catches same-ID read bursts answered out of order", "[axi]") {
  Trace swapped, crossed, in_order;
  for (Trace* t : {&swapped, &crossed, &in_order})
    (*t)(ar(0, 3), accept_all())(ar(0, 1), accept_all())(ar(1, 1), accept_all());
  swapped(ready(true, false), r(0, true));  // the one-beat burst first
  for (int i = 0; i < 3; ++i) swapped(ready(true, false), r(0, i == 2));
  // Different IDs may pass each other.
  crossed(ready(true, false), r(1, true));
  for (int i = 0; i < 3; ++i) crossed(ready(true, false), r(0, i == 2));
  crossed(ready(true, false), r(0, true));
  for (int i = 0; i < 3; ++i) in_order(ready(true, false), r(0, i == 2));
  in_order(ready(true, false), r(0, true))(ready(true, false), r(1, true));
  CHECK(swapped.chk.rules() == Rules{"axi.r_same_id_order"});
  CHECK(crossed.chk.rules().empty());
  CHECK(in_order.chk.rules().empty());
}

TEST_CASE("axi: checker catches a slave that drops BVALID or changes B while stalled", "[axi]") {
  Trace ok, dropped, changed;
  for (Trace* t : {&ok, &dropped, &changed}) (*t)(w(true, aw(0, 1)), accept_all())(ready(false, false), b(0));
  ok(ready(false, true), b(0));
  dropped(ready(false, true), AxiSlaveSignals{});
  changed(ready(false, true), b(0, axi::kRespSlvErr));
  CHECK(ok.chk.rules().empty());
  CHECK(dropped.chk.rules() == Rules{"axi.b_valid_dropped"});
  CHECK(changed.chk.rules() == Rules{"axi.b_payload_changed"});
}

TEST_CASE("axi: checker catches B before the burst's last W beat", "[axi]") {
  Trace early, same_cycle, ok;
  early(w(false, aw(0, 2)), accept_all())(ready(false, true), b(0));
  same_cycle(aw(0, 1), accept_all())(w(true, ready(false, true)), [] {
    AxiSlaveSignals s = b(0);
    s.wready = true;
    return s;
  }());
  ok(w(false, aw(0, 2)), accept_all())(w(true), accept_all())(ready(false, true), b(0));
  CHECK(early.chk.rules() == Rules{"axi.b_before_wlast"});
  CHECK(same_cycle.chk.rules() == Rules{"axi.b_before_wlast"});
  CHECK(ok.chk.rules().empty());
}

TEST_CASE("axi: checker catches B for an ID with no write outstanding", "[axi]") {
  Trace wrong_id, before_aw;
  wrong_id(w(true, aw(0, 1)), accept_all())(ready(false, true), b(1));
  before_aw(w(true), accept_all())(ready(false, true), b(0));  // W came, its AW not yet
  CHECK(wrong_id.chk.rules() == Rules{"axi.b_unexpected_id"});
  CHECK(before_aw.chk.rules() == Rules{"axi.b_unexpected_id"});
}

TEST_CASE("axi: checker reports what is still owed at the end of a test", "[axi]") {
  Trace reads, writes, orphan_w;
  reads(ar(0, 2), accept_all());
  writes(aw(0, 2), accept_all())(w(false), accept_all());
  orphan_w(w(true), accept_all());
  reads.chk.finish(reads.cycle);
  writes.chk.finish(writes.cycle);
  orphan_w.chk.finish(orphan_w.cycle);
  CHECK(reads.chk.rules() == Rules{"axi.finish_reads_outstanding"});
  CHECK(writes.chk.rules() == Rules{"axi.finish_writes_outstanding", "axi.finish_w_owed"});
  CHECK(orphan_w.chk.rules() == Rules{"axi.finish_w_without_aw"});
}

// ---------------------------------------------------------------------------
// AxiLiteHost against a small AXI4-Lite register file, correct and broken.
// ---------------------------------------------------------------------------
namespace {

enum class LiteBug { none, drop_bvalid, change_bresp, drop_rvalid, change_rdata, b_early, slverr, spurious_b,
                     spurious_r };

/// A register file behind AXI4-Lite: AW and W taken in any order, B once
/// both are in (from the next cycle), R from the cycle after AR. `bug`
/// breaks one rule on purpose.
class LiteRegs {
 public:
  LiteRegs(double stall, LiteBug bug, std::uint64_t seed) : stall_(stall), bug_(bug), rng_(seed) {}

  const AxiLiteSlaveSignals& drive(std::uint64_t cycle) {
    const bool b_held = out_.bvalid && b_stalled_;
    const bool r_held = out_.rvalid && r_stalled_;
    out_.awready = !have_aw_ && !b_pending_ && !coin();
    out_.wready = !have_w_ && !b_pending_ && !coin();
    out_.arready = !r_pending_ && !coin();
    out_.bvalid = b_held || (b_pending_ && !coin());
    out_.bresp = bug_ == LiteBug::slverr ? axi::kRespSlvErr : axi::kRespOkay;
    out_.rvalid = r_held || (r_pending_ && !coin());
    out_.rdata = r_data_;
    out_.rresp = bug_ == LiteBug::slverr ? axi::kRespSlvErr : axi::kRespOkay;
    if (b_held && once(LiteBug::drop_bvalid)) out_.bvalid = false;
    if (b_held && once(LiteBug::change_bresp)) out_.bresp = axi::kRespSlvErr;
    if (r_held && once(LiteBug::drop_rvalid)) out_.rvalid = false;
    if (r_held && once(LiteBug::change_rdata)) out_.rdata ^= 1;
    if (cycle == 2 && once(LiteBug::spurious_b)) out_.bvalid = true;
    if (cycle == 2 && once(LiteBug::spurious_r)) out_.rvalid = true;
    return out_;
  }

  void clock(std::uint64_t, const AxiLiteMasterSignals& m) {
    if (out_.bvalid && m.bready) b_pending_ = false;
    b_stalled_ = out_.bvalid && !m.bready;
    if (out_.rvalid && m.rready) r_pending_ = false;
    r_stalled_ = out_.rvalid && !m.rready;
    if (m.awvalid && out_.awready) {
      have_aw_ = true;
      aw_addr_ = m.awaddr;
    }
    if (m.wvalid && out_.wready) {
      have_w_ = true;
      w_data_ = static_cast<std::uint32_t>(m.wdata);
      w_strb_ = m.wstrb;
    }
    if (bug_ == LiteBug::b_early && (have_aw_ || have_w_) && !(have_aw_ && have_w_)) b_pending_ = true;
    if (have_aw_ && have_w_) {
      std::uint32_t& reg = regs[aw_addr_];
      for (unsigned k = 0; k < 4; ++k)
        if ((w_strb_ >> k) & 1) reg = (reg & ~(0xFFu << (8 * k))) | (w_data_ & (0xFFu << (8 * k)));
      have_aw_ = have_w_ = false;
      b_pending_ = true;
    }
    if (m.arvalid && out_.arready) {
      r_pending_ = true;
      r_data_ = regs[m.araddr];
    }
  }

  std::map<std::uint64_t, std::uint32_t> regs;

 private:
  bool coin() { return stall_ > 0.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < stall_; }
  bool once(LiteBug b) {
    if (bug_ != b || bug_done_) return false;
    bug_done_ = true;
    return true;
  }

  double stall_;
  LiteBug bug_;
  std::mt19937_64 rng_;
  bool bug_done_ = false;
  bool have_aw_ = false, have_w_ = false, b_pending_ = false, r_pending_ = false;
  bool b_stalled_ = false, r_stalled_ = false;
  std::uint64_t aw_addr_ = 0;
  std::uint32_t w_data_ = 0, r_data_ = 0;
  unsigned w_strb_ = 0;
  AxiLiteSlaveSignals out_;
};

std::uint64_t run_lite(AxiLiteHost& host, LiteRegs& regs, std::uint64_t max_cycles = 50000) {
  std::uint64_t c = 0;
  for (; c < max_cycles && !host.idle(); ++c) {
    const AxiLiteSlaveSignals s = regs.drive(c);
    const AxiLiteMasterSignals m = host.drive(c);
    regs.clock(c, m);
    host.clock(c, s);
  }
  host.finish(c);
  return c;
}

}  // namespace

TEST_CASE("axil: host writes then reads back registers under stalls in every AW and W order", "[axi]") {
  const bool overlap = GENERATE(false, true);
  CAPTURE(overlap);
  AxiLiteHostTiming t;
  t.max_delay = 3;
  t.ready_stall = 0.5;
  t.overlap = overlap;
  AxiLiteHost host(t, 42);
  LiteRegs regs(0.5, LiteBug::none, 7);
  std::map<std::uint64_t, std::uint32_t> expect;
  std::vector<AxiLiteHost::Ticket> writes;
  for (std::uint32_t i = 0; i < 40; ++i) {
    const std::uint64_t addr = 0x10 + 4 * (i % 10);
    const std::uint32_t data = 0x01020304u * (i + 1);
    const unsigned strb = i < 10 ? 0xF : (i * 5) & 0xF;
    writes.push_back(host.write(addr, data, strb));
    std::uint32_t& e = expect[addr];
    for (unsigned k = 0; k < 4; ++k)
      if ((strb >> k) & 1) e = (e & ~(0xFFu << (8 * k))) | (data & (0xFFu << (8 * k)));
  }
  std::map<std::uint64_t, AxiLiteHost::Ticket> reads;
  for (const auto& [addr, v] : expect) reads[addr] = host.read(addr);
  run_lite(host, regs);
  REQUIRE(host.idle());
  CHECK(host.errors().empty());
  for (const auto tk : writes) CHECK(host.done(tk));
  for (const auto& [addr, tk] : reads) {
    INFO("register " << axi::hex(addr));
    CHECK(host.value(tk) == expect[addr]);
    CHECK(host.resp(tk) == axi::kRespOkay);
  }
  CHECK(regs.regs.size() == 10);
  const auto& st = host.stats();
  CHECK(st.writes == 40);
  CHECK(st.reads == 10);
  CHECK(st.aw_before_w > 0);
  CHECK(st.w_before_aw > 0);
  CHECK(st.aw_with_w > 0);
  CHECK(st.b_stall_cycles > 0);
  CHECK(st.r_stall_cycles > 0);
}

TEST_CASE("axil: host catches each broken slave rule", "[axi]") {
  const std::vector<std::pair<LiteBug, std::string>> bugs{
      {LiteBug::drop_bvalid, "axil.b_valid_dropped"}, {LiteBug::change_bresp, "axil.b_payload_changed"},
      {LiteBug::drop_rvalid, "axil.r_valid_dropped"}, {LiteBug::change_rdata, "axil.r_payload_changed"},
      {LiteBug::b_early, "axil.b_early"},             {LiteBug::slverr, "axil.b_resp"},
      {LiteBug::slverr, "axil.r_resp"},               {LiteBug::spurious_b, "axil.b_unexpected"},
      {LiteBug::spurious_r, "axil.r_unexpected"}};
  for (const auto& [bug, rule] : bugs) {
    INFO(rule);
    AxiLiteHostTiming t;
    t.ready_stall = 0.5;
    AxiLiteHost host(t, 3);
    LiteRegs regs(0.3, bug, 5);
    // The first operation starts after the slave's spurious responses (cycle 2).
    std::uint64_t c = 0;
    for (; c < 6; ++c) {
      const AxiLiteSlaveSignals s = regs.drive(c);
      const AxiLiteMasterSignals m = host.drive(c);
      regs.clock(c, m);
      host.clock(c, s);
    }
    for (std::uint32_t i = 0; i < 12; ++i) {
      host.write(0x20 + 4 * i, i * 3 + 1);
      host.read(0x20 + 4 * i);
    }
    for (; c < 3000 && !host.idle(); ++c) {
      const AxiLiteSlaveSignals s = regs.drive(c);
      const AxiLiteMasterSignals m = host.drive(c);
      regs.clock(c, m);
      host.clock(c, s);
    }
    const Rules got = host.rules();
    CHECK(got.count(rule) == 1);
    // Only these may bring a second rule along (a changed BRESP may be taken as SLVERR).
    if (bug != LiteBug::slverr && bug != LiteBug::b_early && bug != LiteBug::change_bresp) CHECK(got.size() == 1);
  }
  // And the same traffic against a correct slave is clean.
  AxiLiteHost host(AxiLiteHostTiming{3, 0.5, false}, 3);
  LiteRegs regs(0.3, LiteBug::none, 5);
  for (std::uint32_t i = 0; i < 12; ++i) {
    host.write(0x20 + 4 * i, i * 3 + 1);
    host.read(0x20 + 4 * i);
  }
  run_lite(host, regs);
  CHECK(host.errors().empty());
}

TEST_CASE("axil: operations never answered are reported at the end", "[axi]") {
  AxiLiteHost host(AxiLiteHostTiming{}, 1);
  const auto tk = host.read(0x10);
  AxiLiteSlaveSignals deaf;  // never ready
  for (std::uint64_t c = 0; c < 20; ++c) {
    host.drive(c);
    host.clock(c, deaf);
  }
  CHECK_FALSE(host.done(tk));
  CHECK_FALSE(host.idle());
  host.finish(20);
  CHECK(host.rules() == Rules{"axil.finish_pending"});
  CHECK_THROWS_AS(host.done(99), std::out_of_range);
}
