/// @file axi_random_master.h
/// @brief AxiRandomMaster: a small random AXI4 master for the tpu_axi_mux
/// bench (axi_mux_bench.cpp). Plain C++17 over tb/sim/axi/axi_types.h,
/// header-only; it follows the models' per-cycle contract (drive, then clock).
///
/// It owns one region of memory and knows its contents (a shadow, from the
/// preload on). It issues `reads` read and `writes` write INCR bursts of
/// random IDs (below 2^id_bits), sizes (narrow or the bus), addresses
/// (aligned to the size) and lengths (1..max_beats, never across a 4 KB
/// page), each inside its region; W beats carry random data and random
/// strobes inside the beat's byte lanes. A write goes into the shadow when its
/// AW is raised; its W beats may be shown from then on (before the AW's
/// handshake, with probability early_w). A read is not raised while it
/// overlaps a write whose B has not come, nor a write while it overlaps a read
/// whose last beat has not come: so each read's expected bytes are the
/// shadow's when its AR is raised, and reads check what earlier writes left.
/// R beats are matched to reads by ID (same-ID order, any interleaving across
/// IDs), B responses to writes likewise; every byte in a beat's lanes is
/// compared, and a response other than OKAY is an error. With `split` the
/// reads use the region's lower half and the writes its upper half (never a
/// conflict: full-speed traffic).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/axi/axi_types.h"

namespace tpusim::bench {

/// What an AxiRandomMaster issues and how eagerly.
struct AxiRandomMasterConfig {
  unsigned bus_bytes = 32;
  unsigned id_bits = 1;
  std::uint64_t base = 0;           ///< the region: [base, base + bytes), base 4 KB-aligned
  std::size_t bytes = 16384;        ///< a multiple of 4 KB
  unsigned reads = 100;             ///< read bursts to issue
  unsigned writes = 100;            ///< write bursts to issue
  unsigned max_beats = 16;          ///< longest burst
  double narrow = 0.2;              ///< probability of a beat narrower than the bus
  double gap = 0.3;                 ///< probability of raising no new AR, AW or W in a cycle
  double ready_stall = 0.2;         ///< probability of RREADY or BREADY low in a cycle
  double early_w = 0.5;             ///< probability that a write's W beats may be shown before its AW handshake
  std::size_t max_outstanding = 8;  ///< reads (and, separately, writes) raised and not answered
  bool split = false;               ///< reads in the lower half, writes in the upper half
};

/// Counters of an AxiRandomMaster.
struct AxiRandomMasterStats {
  std::uint64_t ar = 0, aw = 0, w = 0, r = 0, b = 0;  ///< handshakes
  std::uint64_t read_bursts_done = 0, write_bursts_done = 0;
  std::uint64_t bytes_checked = 0;
  std::uint64_t mismatches = 0;  ///< read bytes that differed from the shadow
  std::uint64_t blocked = 0;     ///< cycles a burst was held back by an overlap
};

class AxiRandomMaster {
 public:
  AxiRandomMaster(std::string name, AxiRandomMasterConfig cfg, Bytes contents, std::uint64_t seed)
      : name_(std::move(name)), cfg_(cfg), shadow_(std::move(contents)), rng_(seed) {}

  /// This cycle's master-side signals. Call once per cycle before `clock`.
  const AxiMasterSignals& drive(std::uint64_t /*cycle*/) {
    if (!out_.arvalid) raise_ar();
    if (!out_.awvalid) raise_aw();
    if (!out_.wvalid) raise_w();
    out_.rready = !coin(cfg_.ready_stall);
    out_.bready = !coin(cfg_.ready_stall);
    return out_;
  }

  /// The slave side of the cycle (what the mux showed this master): commit the handshakes.
  void clock(std::uint64_t cycle, const AxiSlaveSignals& s) {
    if (out_.arvalid && s.arready) {
      out_.arvalid = false;
      ++stats_.ar;
    }
    if (out_.awvalid && s.awready) {
      out_.awvalid = false;
      for (auto& wb : w_bursts_)
        if (wb.token == aw_token_) wb.aw_done = true;
      ++stats_.aw;
    }
    if (out_.wvalid && s.wready) {
      out_.wvalid = false;
      ++stats_.w;
      WBurst& wb = w_bursts_.front();
      if (++wb.next == wb.beats.size()) w_bursts_.pop_front();
    }
    if (s.rvalid && out_.rready) r_beat(cycle, s.r);
    if (s.bvalid && out_.bready) b_resp(cycle, s.b);
  }

  /// Everything issued and answered.
  [[nodiscard]] bool done() const {
    return issued_reads_ == cfg_.reads && issued_writes_ == cfg_.writes && reads_out_ == 0 && writes_out_ == 0 &&
           !out_.arvalid && !out_.awvalid && w_bursts_.empty();
  }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const Bytes& shadow() const { return shadow_; }
  [[nodiscard]] const AxiRandomMasterStats& stats() const { return stats_; }
  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }
  /// Read bursts raised and not fully answered, write bursts raised whose B has not come.
  [[nodiscard]] std::size_t reads_outstanding() const { return reads_out_; }
  [[nodiscard]] std::size_t writes_outstanding() const { return writes_out_; }

 private:
  struct Range {
    std::uint64_t lo, hi;  ///< [lo, hi)
    std::uint64_t token;
  };
  struct ReadBurst {
    AxiAddr ar;
    std::vector<Bytes> expect;  ///< per beat, the bus-wide bytes (only the beat's lanes are compared)
    unsigned next = 0;
    std::uint64_t token;
  };
  struct WBurst {
    std::vector<AxiW> beats;
    std::size_t next = 0;
    bool aw_done = false;
    bool early = false;  ///< its beats may be shown before the AW handshake
    std::uint64_t token = 0;
  };
  struct WriteBurst {
    AxiAddr aw;
    std::uint64_t token;
  };

  bool coin(double p) { return p > 0.0 && unit_(rng_) < p; }
  unsigned pick(unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng_); }

  void error(std::uint64_t cycle, const std::string& what) {
    if (errors_.size() < 20) errors_.push_back(name_ + " cycle " + std::to_string(cycle) + ": " + what);
  }

  /// A random INCR burst inside the region (or its half).
  AxiAddr random_burst(bool write) {
    AxiAddr a;
    const unsigned full = static_cast<unsigned>(__builtin_ctz(cfg_.bus_bytes));
    a.size = coin(cfg_.narrow) ? pick(0, full - 1) : full;
    a.burst = axi::kBurstIncr;
    a.id = pick(0, (1u << cfg_.id_bits) - 1);
    std::uint64_t lo = 0, span = cfg_.bytes;
    if (cfg_.split) {
      span = cfg_.bytes / 2;
      lo = write ? span : 0;
    }
    const std::uint64_t pages = std::max<std::uint64_t>(1, span / 4096);
    const std::uint64_t page = lo + 4096 * std::uniform_int_distribution<std::uint64_t>(0, pages - 1)(rng_);
    const std::uint64_t nb = std::uint64_t{1} << a.size;
    const std::uint64_t offset = nb * std::uniform_int_distribution<std::uint64_t>(0, 4096 / nb - 1)(rng_);
    a.addr = cfg_.base + page + offset;
    const unsigned room = static_cast<unsigned>((4096 - offset) / nb);
    a.len = pick(1, std::min(cfg_.max_beats, room)) - 1;
    return a;
  }

  static Range range_of(const AxiAddr& a, std::uint64_t token) { return Range{a.addr, axi::incr_end(a), token}; }
  static bool overlaps(const Range& r, const std::vector<Range>& set) {
    return std::any_of(set.begin(), set.end(), [&](const Range& o) { return r.lo < o.hi && o.lo < r.hi; });
  }
  static void drop(std::vector<Range>& set, std::uint64_t token) {
    set.erase(std::remove_if(set.begin(), set.end(), [&](const Range& o) { return o.token == token; }), set.end());
  }

  std::uint8_t& at(std::uint64_t addr) { return shadow_[static_cast<std::size_t>(addr - cfg_.base)]; }

  void raise_ar() {
    if (issued_reads_ == cfg_.reads || reads_out_ >= cfg_.max_outstanding || coin(cfg_.gap)) return;
    const AxiAddr a = random_burst(false);
    const std::uint64_t token = next_token_++;
    const Range r = range_of(a, token);
    if (overlaps(r, pending_writes_)) {
      ++stats_.blocked;
      return;
    }
    ReadBurst rb{a, {}, 0, token};
    for (unsigned n = 0; n < a.beats(); ++n) {
      Bytes e(cfg_.bus_bytes, 0);
      const auto lanes = axi::beat_lanes(a, n, cfg_.bus_bytes);
      const std::uint64_t addr = axi::beat_addr(a, n);
      for (unsigned l = lanes.lo; l <= lanes.hi; ++l) e[l] = at(addr + (l - lanes.lo));
      rb.expect.push_back(std::move(e));
    }
    reads_[a.id].push_back(std::move(rb));
    pending_reads_.push_back(r);
    out_.arvalid = true;
    out_.ar = a;
    ++issued_reads_;
    ++reads_out_;
  }

  void raise_aw() {
    if (issued_writes_ == cfg_.writes || writes_out_ >= cfg_.max_outstanding || coin(cfg_.gap)) return;
    const AxiAddr a = random_burst(true);
    const std::uint64_t token = next_token_++;
    const Range r = range_of(a, token);
    if (overlaps(r, pending_reads_)) {
      ++stats_.blocked;
      return;
    }
    WBurst wb;
    wb.early = coin(cfg_.early_w);
    wb.token = token;
    for (unsigned n = 0; n < a.beats(); ++n) {
      AxiW w;
      w.data.resize(cfg_.bus_bytes);
      w.strb.assign(cfg_.bus_bytes, 0);
      w.last = n == a.len;
      for (auto& byte : w.data) byte = static_cast<std::uint8_t>(rng_() & 0xFF);
      const auto lanes = axi::beat_lanes(a, n, cfg_.bus_bytes);
      const std::uint64_t addr = axi::beat_addr(a, n);
      for (unsigned l = lanes.lo; l <= lanes.hi; ++l) {
        if (coin(0.15)) continue;
        w.strb[l] = 1;
        at(addr + (l - lanes.lo)) = w.data[l];
      }
      wb.beats.push_back(std::move(w));
    }
    w_bursts_.push_back(std::move(wb));
    writes_[a.id].push_back(WriteBurst{a, token});
    pending_writes_.push_back(r);
    out_.awvalid = true;
    out_.aw = a;
    aw_token_ = token;
    ++issued_writes_;
    ++writes_out_;
  }

  void raise_w() {
    if (w_bursts_.empty() || coin(cfg_.gap)) return;
    const WBurst& wb = w_bursts_.front();
    if (!wb.aw_done && !wb.early) return;
    out_.wvalid = true;
    out_.w = wb.beats[wb.next];
  }

  void r_beat(std::uint64_t cycle, const AxiR& r) {
    ++stats_.r;
    auto it = reads_.find(r.id);
    if (it == reads_.end() || it->second.empty()) {
      error(cycle, "R beat of RID " + std::to_string(r.id) + " with no read outstanding");
      return;
    }
    ReadBurst& rb = it->second.front();
    const unsigned n = rb.next++;
    if (r.resp != axi::kRespOkay) error(cycle, "R response " + axi::resp_name(r.resp));
    if (r.last != (n == rb.ar.len))
      error(cycle, "RLAST on beat " + std::to_string(n) + " of " + std::to_string(rb.ar.beats()));
    const auto lanes = axi::beat_lanes(rb.ar, n, cfg_.bus_bytes);
    std::uint64_t bad = 0;
    for (unsigned l = lanes.lo; l <= lanes.hi; ++l) {
      ++stats_.bytes_checked;
      if (l >= r.data.size() || r.data[l] != rb.expect[n][l]) ++bad;
    }
    if (bad != 0) {
      stats_.mismatches += bad;
      error(cycle, std::to_string(bad) + " byte(s) differ in beat " + std::to_string(n) + " of the read at " +
                       axi::hex(rb.ar.addr) + " (id " + std::to_string(rb.ar.id) + ")");
    }
    if (n == rb.ar.len) {
      drop(pending_reads_, rb.token);
      it->second.pop_front();
      --reads_out_;
      ++stats_.read_bursts_done;
    }
  }

  void b_resp(std::uint64_t cycle, const AxiB& b) {
    ++stats_.b;
    auto it = writes_.find(b.id);
    if (it == writes_.end() || it->second.empty()) {
      error(cycle, "B of BID " + std::to_string(b.id) + " with no write outstanding");
      return;
    }
    if (b.resp != axi::kRespOkay) error(cycle, "B response " + axi::resp_name(b.resp));
    drop(pending_writes_, it->second.front().token);
    it->second.pop_front();
    --writes_out_;
    ++stats_.write_bursts_done;
  }

  std::string name_;
  AxiRandomMasterConfig cfg_;
  Bytes shadow_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  AxiMasterSignals out_;
  std::map<unsigned, std::deque<ReadBurst>> reads_;    ///< per ID, in AR order
  std::map<unsigned, std::deque<WriteBurst>> writes_;  ///< per ID, in AW order
  std::deque<WBurst> w_bursts_;                        ///< W beats owed, in AW order
  std::uint64_t aw_token_ = 0;                         ///< the token of the AW shown
  std::vector<Range> pending_reads_, pending_writes_;
  unsigned issued_reads_ = 0, issued_writes_ = 0;
  std::size_t reads_out_ = 0, writes_out_ = 0;
  std::uint64_t next_token_ = 0;
  AxiRandomMasterStats stats_;
  std::vector<std::string> errors_;
};

}  // namespace tpusim::bench
