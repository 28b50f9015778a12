/// @file axi_memory.h
/// @brief AxiMemory: a cycle-level AXI4 slave memory (the memory behind the
/// AXI top's master port). Plain C++17, header-only.
///
/// Per-cycle contract (as memory_models.h): `drive(cycle)` decides what the
/// memory shows this cycle (ARREADY, AWREADY, WREADY, and RVALID/R, BVALID/B),
/// before the master's outputs are known; the harness sets the DUT's inputs,
/// evaluates it, then calls `clock(cycle, master)` with what the master drove,
/// which commits the handshakes of the cycle.
///
/// Memory: a sparse byte-addressed space of named regions (`map`). A read
/// burst takes its data when its AR is accepted; a write beat lands when it
/// is accepted and its AW is known (W beats may come before their AW, up to
/// `max_early_w`; they belong to AWs in order and are counted by AWLEN, WLAST
/// is the checker's business). Bytes of a beat outside its byte lanes read as
/// noise; WSTRB is honored. A beat touching an unmapped byte answers DECERR, a
/// write touching a read-only region SLVERR (nothing of that beat is written);
/// so does, for reads and writes alike, a beat touching a bus word marked by
/// `inject_slverr` (a slave error at a chosen address, for a master's fault
/// path); each such burst is recorded once as an AxiAccessError.
///
/// Timing: an AR accepted in cycle c (or a write whose last W is accepted in
/// c) has its first R beat (its B) valid at the earliest in c + 1 + latency.
/// `ready_stall` withholds each of ARREADY, AWREADY, WREADY in a cycle with
/// that probability; `valid_stall` delays the raising of RVALID or BVALID; a
/// raised valid holds, with its payload, until the handshake. Same-ID
/// responses always keep their order; with `reorder`, a response among
/// several ready bursts of different IDs is picked at random; with
/// `interleave`, R beats of different-ID bursts may interleave.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/axi/axi_types.h"

namespace tpusim {

/// How an AxiMemory answers.
struct AxiMemoryTiming {
  unsigned latency = 0;           ///< cycles from AR / last-W handshake to first R / B, beyond the next cycle
  double ready_stall = 0.0;       ///< 0..1: probability of withholding ARREADY, AWREADY or WREADY in a cycle
  double valid_stall = 0.0;       ///< 0..1: probability of delaying the raising of RVALID or BVALID in a cycle
  std::size_t max_reads = 8;      ///< read bursts accepted and not fully returned (ARREADY falls when full)
  std::size_t max_writes = 8;     ///< write bursts accepted whose B is not taken (AWREADY falls when full)
  std::size_t max_early_w = 16;   ///< W beats accepted before their AW (0: WREADY waits for the AW)
  bool reorder = false;           ///< responses of different IDs in random order (same ID stays in order)
  bool interleave = false;        ///< R beats of different-ID bursts may interleave
};

/// Counters of an AxiMemory.
struct AxiMemoryStats {
  std::uint64_t read_bursts = 0;
  std::uint64_t write_bursts = 0;
  std::uint64_t read_beats = 0;
  std::uint64_t write_beats = 0;
  std::uint64_t ar_stall_cycles = 0;  ///< ARVALID and not ARREADY
  std::uint64_t aw_stall_cycles = 0;  ///< AWVALID and not AWREADY
  std::uint64_t w_stall_cycles = 0;   ///< WVALID and not WREADY
  std::uint64_t r_stall_cycles = 0;   ///< RVALID and not RREADY
  std::uint64_t b_stall_cycles = 0;   ///< BVALID and not BREADY
  std::size_t max_outstanding_reads = 0;
  std::size_t max_outstanding_writes = 0;
  std::uint64_t read_reorders = 0;   ///< read bursts started before an older outstanding burst
  std::uint64_t write_reorders = 0;  ///< B responses given before an older write's
  std::uint64_t interleaves = 0;     ///< R beats given while another burst was part-way through
  std::uint64_t early_w_beats = 0;   ///< W beats accepted before their AW
};

/// A burst that touched an unmapped address or wrote a read-only region.
struct AxiAccessError {
  std::uint64_t cycle = 0;  ///< of the AR handshake (reads) or the failing W beat (writes)
  bool write = false;
  std::uint64_t addr = 0;   ///< the first failing byte
  std::string region;       ///< the region it fell in ("" when unmapped)
  unsigned resp = axi::kRespOkay;
  std::string message;
};

/// An AXI4 slave memory with latency, stalls, reordering and interleaving.
class AxiMemory {
 public:
  /// `bus_bytes`: the data width in bytes (4..128, a power of two).
  AxiMemory(unsigned bus_bytes, AxiMemoryTiming timing, std::uint64_t seed, std::string name = "axi_mem")
      : bus_(bus_bytes), timing_(timing), rng_(seed), name_(std::move(name)) {
    if (!axi::legal_bus_bytes(bus_bytes))
      throw std::invalid_argument(name_ + ": bus width " + std::to_string(bus_bytes) +
                                  " bytes is not a power of two in 4..128");
  }

  /// Map a zero-filled region of `bytes` bytes at `base`. Throws
  /// std::invalid_argument on a duplicate name or an overlap.
  void map(const std::string& name, std::uint64_t base, std::size_t bytes, bool writable) {
    map(name, base, Bytes(bytes, 0), writable);
  }
  /// Map a region holding `contents` at `base`.
  void map(const std::string& name, std::uint64_t base, Bytes contents, bool writable) {
    const std::uint64_t end = base + contents.size();
    if (contents.empty() || end < base)
      throw std::invalid_argument(name_ + ": region '" + name + "' is empty or wraps the address space");
    for (const auto& r : regions_) {
      if (r.name == name) throw std::invalid_argument(name_ + ": region '" + name + "' is mapped twice");
      if (base < r.base + r.bytes.size() && r.base < end)
        throw std::invalid_argument(name_ + ": region '" + name + "' overlaps '" + r.name + "'");
    }
    regions_.push_back(Region{name, base, std::move(contents), writable});
  }
  /// A region's bytes by name (throws std::out_of_range when not mapped).
  [[nodiscard]] const Bytes& region(const std::string& name) const { return find_named(name).bytes; }
  /// A region's bytes, to change behind the bus (test set-up).
  [[nodiscard]] Bytes& region(const std::string& name) { return find_named(name).bytes; }

  /// From now on answer SLVERR for every beat, read or write, that touches
  /// the bus word (bus_bytes() bytes, aligned) holding byte `addr`; such a
  /// write beat writes nothing. DECERR (an unmapped byte) still comes first.
  void inject_slverr(std::uint64_t addr) { slverr_.insert(addr - addr % bus_); }
  /// The bus words (their first bytes) inject_slverr marked.
  [[nodiscard]] const std::set<std::uint64_t>& injected_slverr() const { return slverr_; }

  /// This cycle's slave-side signals. Call once per cycle before `clock`.
  const AxiSlaveSignals& drive(std::uint64_t cycle) {
    out_.arready = reads_.size() < timing_.max_reads && !coin(timing_.ready_stall);
    out_.awready = writes_.size() < timing_.max_writes && !coin(timing_.ready_stall);
    out_.wready = (first_w_owed() < writes_.size() || early_w_.size() < timing_.max_early_w) &&
                  !coin(timing_.ready_stall);
    drive_r(cycle);
    drive_b(cycle);
    return out_;
  }

  /// The master's side of the cycle (after the DUT settled, before the
  /// edge): commit the handshakes.
  void clock(std::uint64_t cycle, const AxiMasterSignals& m) {
    if (m.arvalid && out_.arready) accept_ar(cycle, m.ar);
    if (m.arvalid && !out_.arready) ++stats_.ar_stall_cycles;
    if (out_.rvalid && m.rready) take_r();
    r_shown_ = out_.rvalid && !m.rready;
    if (out_.rvalid && !m.rready) ++stats_.r_stall_cycles;
    if (m.awvalid && out_.awready) accept_aw(cycle, m.aw);
    if (m.awvalid && !out_.awready) ++stats_.aw_stall_cycles;
    if (m.wvalid && out_.wready) accept_w(cycle, m.w);
    if (m.wvalid && !out_.wready) ++stats_.w_stall_cycles;
    if (out_.bvalid && m.bready) take_b();
    b_shown_ = out_.bvalid && !m.bready;
    if (out_.bvalid && !m.bready) ++stats_.b_stall_cycles;
  }

  [[nodiscard]] unsigned bus_bytes() const { return bus_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  /// Read bursts accepted and not fully returned.
  [[nodiscard]] std::size_t outstanding_reads() const { return reads_.size(); }
  /// Write bursts accepted whose B has not been taken.
  [[nodiscard]] std::size_t outstanding_writes() const { return writes_.size(); }
  /// Nothing outstanding and no W beat waiting for its AW.
  [[nodiscard]] bool idle() const { return reads_.empty() && writes_.empty() && early_w_.empty(); }
  /// Bursts answered DECERR or SLVERR.
  [[nodiscard]] const std::vector<AxiAccessError>& errors() const { return errors_; }
  [[nodiscard]] const AxiMemoryStats& stats() const { return stats_; }

 private:
  struct Region {
    std::string name;
    std::uint64_t base;
    Bytes bytes;
    bool writable;
  };
  struct ReadBurst {
    std::uint64_t seq;
    std::uint64_t ready_at;
    std::vector<AxiR> beats;
    std::size_t next = 0;  ///< beats handed over
  };
  struct WriteBurst {
    std::uint64_t seq;
    AxiAddr aw;
    unsigned beats_in = 0;  ///< W beats received
    unsigned resp = axi::kRespOkay;
    std::uint64_t ready_at = 0;
    [[nodiscard]] bool w_done() const { return beats_in >= aw.beats(); }
  };
  /// The outcome of decoding a byte range.
  struct Decode {
    unsigned resp = axi::kRespOkay;
    std::uint64_t bad = 0;
    std::string region;
    bool injected = false;  ///< SLVERR from inject_slverr
  };

  bool coin(double p) { return p > 0.0 && unit_(rng_) < p; }

  Region& find_named(const std::string& name) {
    for (auto& r : regions_)
      if (r.name == name) return r;
    throw std::out_of_range(name_ + ": no region named '" + name + "'");
  }
  const Region& find_named(const std::string& name) const {
    for (const auto& r : regions_)
      if (r.name == name) return r;
    throw std::out_of_range(name_ + ": no region named '" + name + "'");
  }

  Region* find(std::uint64_t a) {
    for (auto& r : regions_)
      if (a >= r.base && a - r.base < r.bytes.size()) return &r;
    return nullptr;
  }

  /// Decode the bytes [addr, addr + n): DECERR at the first unmapped byte,
  /// SLVERR (for a write) at the first read-only one, else SLVERR at the
  /// first bus word inject_slverr marked.
  Decode decode(std::uint64_t addr, std::uint64_t n, bool write) {
    Decode d;
    for (std::uint64_t b = addr; b < addr + n;) {
      const Region* r = find(b);
      if (r == nullptr) return Decode{axi::kRespDecErr, b, "", false};
      if (write && !r->writable && d.resp == axi::kRespOkay) d = Decode{axi::kRespSlvErr, b, r->name, false};
      b = std::min<std::uint64_t>(addr + n, r->base + r->bytes.size());
    }
    if (d.resp != axi::kRespOkay || slverr_.empty() || n == 0) return d;
    for (std::uint64_t w = addr - addr % bus_; w < addr + n; w += bus_)
      if (slverr_.count(w)) {
        const Region* r = find(std::max(w, addr));
        return Decode{axi::kRespSlvErr, std::max(w, addr), r ? r->name : "", true};
      }
    return d;
  }

  /// Why a decoded access failed, for its AxiAccessError.
  static std::string why(const Decode& d) {
    if (d.resp == axi::kRespDecErr) return "unmapped address";
    if (d.injected) return "an injected SLVERR";
    return "read-only region '" + d.region + "'";
  }

  void record(std::uint64_t cycle, bool write, const AxiAddr& a, const Decode& d, const std::string& why) {
    AxiAccessError e{cycle, write, d.bad, d.region, d.resp, ""};
    e.message = name_ + ": " + (write ? "write" : "read") + " burst (id " + std::to_string(a.id) + ", " +
                axi::hex(a.addr) + ", " + std::to_string(a.beats()) + " beats of " +
                std::to_string(axi::beat_bytes(a)) + " bytes) at " + axi::hex(d.bad) + ": " + why + ", answered " +
                axi::resp_name(d.resp);
    errors_.push_back(std::move(e));
  }

  std::uint8_t noise_byte() { return static_cast<std::uint8_t>(rng_() & 0xFF); }

  void accept_ar(std::uint64_t cycle, const AxiAddr& a) {
    ReadBurst rb{seq_++, cycle + 1 + timing_.latency, {}, 0};
    const bool too_wide = axi::beat_bytes(a) > bus_;
    bool recorded = false;
    if (too_wide) {
      record(cycle, false, a, Decode{axi::kRespSlvErr, a.addr, ""},
             "AxSIZE " + std::to_string(a.size) + " is wider than the bus");
      recorded = true;
    }
    for (unsigned n = 0; n < a.beats(); ++n) {
      AxiR r;
      r.id = a.id;
      r.last = n == a.len;
      r.data.resize(bus_);
      for (auto& byte : r.data) byte = noise_byte();
      if (too_wide) {
        r.resp = axi::kRespSlvErr;
      } else {
        const auto lanes = axi::beat_lanes(a, n, bus_);
        const std::uint64_t addr = axi::beat_addr(a, n);
        const Decode d = decode(addr, lanes.hi - lanes.lo + 1, false);
        r.resp = d.resp;
        if (d.resp != axi::kRespOkay && !recorded) {
          record(cycle, false, a, d, why(d));
          recorded = true;
        }
        if (d.resp == axi::kRespOkay)
          for (unsigned l = lanes.lo; l <= lanes.hi; ++l) {
            const std::uint64_t b = addr + (l - lanes.lo);
            const Region* reg = find(b);
            r.data[l] = reg->bytes[static_cast<std::size_t>(b - reg->base)];
          }
      }
      rb.beats.push_back(std::move(r));
    }
    reads_.push_back(std::move(rb));
    ++stats_.read_bursts;
    stats_.max_outstanding_reads = std::max(stats_.max_outstanding_reads, reads_.size());
  }

  /// Index in reads_ of the first burst of `id`.
  std::size_t first_read_of(unsigned id) const {
    for (std::size_t i = 0; i < reads_.size(); ++i)
      if (reads_[i].beats.front().id == id) return i;
    return reads_.size();
  }

  void drive_r(std::uint64_t cycle) {
    if (r_shown_) {
      out_.rvalid = true;  // held, with its payload, until taken
      return;
    }
    out_.rvalid = false;
    std::vector<std::size_t> ready;  // bursts that may give a beat now
    std::size_t in_progress = reads_.size();
    for (std::size_t i = 0; i < reads_.size(); ++i) {
      const auto& rb = reads_[i];
      if (rb.next > 0) in_progress = i;
      if (rb.ready_at <= cycle && first_read_of(rb.beats.front().id) == i) ready.push_back(i);
    }
    if (ready.empty()) return;
    std::size_t pick = ready.front();
    if (!timing_.interleave && in_progress < reads_.size()) {
      pick = in_progress;  // the burst part-way through goes on
    } else if (timing_.reorder || timing_.interleave) {
      pick = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng_)];
    } else if (ready.front() != 0) {
      return;  // in order: only the oldest burst may start
    }
    if (coin(timing_.valid_stall)) return;
    r_pick_ = reads_[pick].seq;
    out_.rvalid = true;
    out_.r = reads_[pick].beats[reads_[pick].next];
  }

  void take_r() {
    for (std::size_t i = 0; i < reads_.size(); ++i) {
      auto& rb = reads_[i];
      if (rb.seq != r_pick_) continue;
      if (rb.next == 0 && i != 0) ++stats_.read_reorders;
      for (const auto& other : reads_)
        if (other.seq != rb.seq && other.next > 0) {
          ++stats_.interleaves;
          break;
        }
      ++rb.next;
      ++stats_.read_beats;
      if (rb.next == rb.beats.size()) reads_.erase(reads_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }

  void accept_aw(std::uint64_t cycle, const AxiAddr& a) {
    writes_.push_back(WriteBurst{seq_++, a, 0, axi::kRespOkay, 0});
    ++stats_.write_bursts;
    stats_.max_outstanding_writes = std::max(stats_.max_outstanding_writes, writes_.size());
    while (!early_w_.empty() && first_w_owed() < writes_.size()) {
      land_w(cycle, writes_[first_w_owed()], early_w_.front());
      early_w_.pop_front();
    }
  }

  /// Index in writes_ of the oldest write still owed W beats.
  std::size_t first_w_owed() const {
    for (std::size_t i = 0; i < writes_.size(); ++i)
      if (!writes_[i].w_done()) return i;
    return writes_.size();
  }

  void accept_w(std::uint64_t cycle, const AxiW& w) {
    ++stats_.write_beats;
    const std::size_t i = first_w_owed();
    if (i < writes_.size()) {
      land_w(cycle, writes_[i], w);
    } else {
      early_w_.push_back(w);
      ++stats_.early_w_beats;
    }
  }

  void land_w(std::uint64_t cycle, WriteBurst& wb, const AxiW& w) {
    const AxiAddr& a = wb.aw;
    const unsigned n = wb.beats_in++;
    if (wb.w_done()) wb.ready_at = cycle + 1 + timing_.latency;
    if (axi::beat_bytes(a) > bus_) {
      if (wb.resp == axi::kRespOkay)
        record(cycle, true, a, Decode{axi::kRespSlvErr, a.addr, ""},
               "AxSIZE " + std::to_string(a.size) + " is wider than the bus");
      wb.resp = axi::kRespSlvErr;
      return;
    }
    const auto lanes = axi::beat_lanes(a, n, bus_);
    const std::uint64_t addr = axi::beat_addr(a, n);
    const Decode d = decode(addr, lanes.hi - lanes.lo + 1, true);
    if (d.resp != axi::kRespOkay) {
      if (wb.resp == axi::kRespOkay)
        record(cycle, true, a, d, why(d));
      wb.resp = std::max(wb.resp, d.resp);
      return;
    }
    for (unsigned l = lanes.lo; l <= lanes.hi; ++l) {
      if (l >= w.strb.size() || l >= w.data.size() || w.strb[l] == 0) continue;
      const std::uint64_t b = addr + (l - lanes.lo);
      Region* reg = find(b);
      reg->bytes[static_cast<std::size_t>(b - reg->base)] = w.data[l];
    }
  }

  void drive_b(std::uint64_t cycle) {
    if (b_shown_) {
      out_.bvalid = true;
      return;
    }
    out_.bvalid = false;
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < writes_.size(); ++i) {
      const auto& wb = writes_[i];
      if (!wb.w_done() || wb.ready_at > cycle) continue;
      bool first_of_id = true;
      for (std::size_t j = 0; j < i; ++j) first_of_id = first_of_id && writes_[j].aw.id != wb.aw.id;
      if (first_of_id) ready.push_back(i);
    }
    if (ready.empty()) return;
    std::size_t pick = ready.front();
    if (timing_.reorder)
      pick = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng_)];
    else if (pick != 0)
      return;
    if (coin(timing_.valid_stall)) return;
    b_pick_ = writes_[pick].seq;
    out_.bvalid = true;
    out_.b = AxiB{writes_[pick].aw.id, writes_[pick].resp};
  }

  void take_b() {
    for (std::size_t i = 0; i < writes_.size(); ++i) {
      if (writes_[i].seq != b_pick_) continue;
      if (i != 0) ++stats_.write_reorders;
      writes_.erase(writes_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }

  unsigned bus_;
  AxiMemoryTiming timing_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  std::string name_;
  std::vector<Region> regions_;
  std::set<std::uint64_t> slverr_;  ///< bus words answered SLVERR (inject_slverr)
  std::deque<ReadBurst> reads_;    ///< accepted, not fully returned, in acceptance order
  std::deque<WriteBurst> writes_;  ///< accepted, B not taken, in acceptance order
  std::deque<AxiW> early_w_;       ///< W beats accepted before their AW
  std::uint64_t seq_ = 0;
  std::uint64_t r_pick_ = 0;  ///< the read burst whose beat is shown
  std::uint64_t b_pick_ = 0;  ///< the write burst whose B is shown
  bool r_shown_ = false;      ///< R shown last cycle and not taken
  bool b_shown_ = false;      ///< B shown last cycle and not taken
  AxiSlaveSignals out_;
  std::vector<AxiAccessError> errors_;
  AxiMemoryStats stats_;
};

}  // namespace tpusim
