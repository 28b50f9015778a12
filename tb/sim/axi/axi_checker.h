/// @file axi_checker.h
/// @brief AxiChecker: an AXI4 protocol checker that watches a master and a
/// slave cycle by cycle and records every rule broken. Plain C++17,
/// header-only.
///
/// Per-cycle contract: once per cycle, after the DUT settled and before the
/// clock edge (next to the models' `clock`), call `check(cycle, master,
/// slave)` with both sides' signals of that cycle; at the end of a test call
/// `finish(cycle)`. Each broken rule is one ProtocolError whose message starts
/// with its rule id in brackets, e.g. "[axi.ar_valid_dropped] ..." (see
/// `axi::rule_of`). A response must come at least a cycle after what it
/// answers (R after its AR handshake, B after its AW and last W handshakes).
///
/// Master rules: axi.{ar,aw,w}_valid_dropped, axi.{ar,aw,w}_payload_changed,
/// axi.{ar,aw}_4k_boundary, axi.{ar,aw}_burst_too_long,
/// axi.{ar,aw}_size_too_wide, axi.{ar,aw}_unaligned, axi.{ar,aw}_burst_type,
/// axi.{ar,aw}_wrap_len, axi.{ar,aw}_id_width, axi.{ar,aw}_addr_width,
/// axi.wlast_missing, axi.wlast_early, axi.w_without_aw, axi.wstrb_lanes.
/// RREADY and BREADY have no rule.
/// Slave rules: axi.{r,b}_valid_dropped, axi.{r,b}_payload_changed,
/// axi.r_unexpected_id, axi.rlast_missing, axi.rlast_early,
/// axi.r_same_id_order, axi.r_interleave (only when interleaving is not
/// allowed), axi.b_unexpected_id, axi.b_before_wlast.
/// End of test: axi.finish_reads_outstanding, axi.finish_writes_outstanding,
/// axi.finish_w_owed, axi.finish_w_without_aw.
///
/// Same-ID order is checked as far as the wires show it: an R burst ending
/// (RLAST) at the length of a younger same-ID burst rather than the oldest's
/// is axi.r_same_id_order. Same-length bursts swapped are invisible without
/// the data (the master's data check sees them), and so is a same-ID B swap:
/// B carries only the ID and W beats come in AW order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/axi/axi_types.h"

namespace tpusim {

/// What an AxiChecker allows.
struct AxiCheckerConfig {
  unsigned id_bits = 8;             ///< ARID/AWID/RID/BID width (1..8)
  unsigned addr_bits = 64;          ///< address width (up to 64)
  unsigned max_burst_beats = 16;    ///< longest burst allowed
  bool require_aligned = true;      ///< AxADDR a multiple of the beat size
  bool incr_only = true;            ///< AxBURST must be INCR
  std::size_t max_w_lead = 16;      ///< W beats the master may send ahead of their AW
  bool allow_r_interleave = true;   ///< R beats of different-ID bursts may interleave (AXI4 allows it)
  std::string port = "m_axi";       ///< names the port in errors
};

/// Handshakes the checker saw (so a test can show traffic went by).
struct AxiCheckerStats {
  std::uint64_t ar = 0, aw = 0, w = 0, r = 0, b = 0;
};

/// Watches both sides of an AXI4 port and records every broken rule.
class AxiChecker {
 public:
  /// `bus_bytes`: the data width in bytes (4..128, a power of two).
  explicit AxiChecker(unsigned bus_bytes, AxiCheckerConfig config = {}) : bus_(bus_bytes), cfg_(std::move(config)) {
    if (!axi::legal_bus_bytes(bus_bytes))
      throw std::invalid_argument("AxiChecker: bus width " + std::to_string(bus_bytes) +
                                  " bytes is not a power of two in 4..128");
  }

  /// Check one cycle: `m` is what the master drove, `s` what the slave drove.
  void check(std::uint64_t cycle, const AxiMasterSignals& m, const AxiSlaveSignals& s) {
    cycle_ = cycle;
    stability(m, s);
    if (m.arvalid && (!ar_hold_ || *ar_hold_ != m.ar)) check_addr("ar", m.ar);
    if (m.awvalid && (!aw_hold_ || *aw_hold_ != m.aw)) check_addr("aw", m.aw);
    if (s.rvalid && (!r_hold_ || *r_hold_ != s.r) && reads_[s.r.id].empty())
      error("r_unexpected_id", "R with RID " + std::to_string(s.r.id) + ", which has no read burst outstanding");
    if (s.rvalid && m.rready) r_beat(s.r);
    if (s.bvalid && (!b_hold_ || *b_hold_ != s.b)) b_raised(s.b);
    if (s.bvalid && m.bready) b_taken(s.b);
    if (m.arvalid && s.arready) {
      reads_[m.ar.id].push_back(m.ar);
      ++stats_.ar;
    }
    if (m.awvalid && s.awready) aw_taken(m.aw);
    if (m.wvalid && s.wready) w_taken(m.w);
    ar_hold_ = hold(m.arvalid && !s.arready, m.ar);
    aw_hold_ = hold(m.awvalid && !s.awready, m.aw);
    w_hold_ = hold(m.wvalid && !s.wready, m.w);
    r_hold_ = hold(s.rvalid && !m.rready, s.r);
    b_hold_ = hold(s.bvalid && !m.bready, s.b);
  }

  /// End of test: what is still owed is an error.
  void finish(std::uint64_t cycle) {
    cycle_ = cycle;
    std::size_t reads = 0, w_owed = 0, no_b = 0;
    for (const auto& [id, q] : reads_) reads += q.size();
    for (const auto& t : writes_) {
      if (!t.w_done()) ++w_owed;
      if (!t.b_done) ++no_b;
    }
    if (reads) error("finish_reads_outstanding", std::to_string(reads) + " read burst(s) never fully answered");
    if (no_b) error("finish_writes_outstanding", std::to_string(no_b) + " write burst(s) never answered by a B");
    if (w_owed) error("finish_w_owed", std::to_string(w_owed) + " write burst(s) still owed W beats");
    if (!w_early_.empty())
      error("finish_w_without_aw", std::to_string(w_early_.size()) + " W beat(s) never matched by an AW");
  }

  [[nodiscard]] const std::vector<ProtocolError>& errors() const { return errors_; }
  /// The distinct rule ids reported.
  [[nodiscard]] std::set<std::string> rules() const {
    std::set<std::string> r;
    for (const auto& e : errors_) r.insert(axi::rule_of(e));
    return r;
  }
  /// How many errors name `rule` (e.g. "axi.wlast_missing").
  [[nodiscard]] std::size_t count(const std::string& rule) const {
    std::size_t n = 0;
    for (const auto& e : errors_) n += axi::rule_of(e) == rule;
    return n;
  }
  [[nodiscard]] const AxiCheckerStats& stats() const { return stats_; }

 private:
  struct WriteTrack {
    AxiAddr aw;
    unsigned w_beats = 0;
    bool b_done = false;
    [[nodiscard]] bool w_done() const { return w_beats >= aw.beats(); }
  };

  template <typename T>
  static std::optional<T> hold(bool stalled, const T& v) {
    return stalled ? std::optional<T>(v) : std::nullopt;
  }

  void error(const std::string& rule, const std::string& what) {
    errors_.push_back(ProtocolError{cycle_, cfg_.port, "[axi." + rule + "] " + what});
  }

  static std::string describe(const AxiAddr& a) {
    return "(id " + std::to_string(a.id) + ", " + axi::hex(a.addr) + ", " + std::to_string(a.beats()) +
           " beats, size " + std::to_string(a.size) + ", burst " + std::to_string(a.burst) + ")";
  }

  void stability(const AxiMasterSignals& m, const AxiSlaveSignals& s) {
    stable("ar", ar_hold_, m.arvalid, m.ar, "ARVALID", "AR payload");
    stable("aw", aw_hold_, m.awvalid, m.aw, "AWVALID", "AW payload");
    stable("w", w_hold_, m.wvalid, m.w, "WVALID", "W payload");
    stable("r", r_hold_, s.rvalid, s.r, "RVALID", "R payload");
    stable("b", b_hold_, s.bvalid, s.b, "BVALID", "B payload");
  }

  template <typename T>
  void stable(const std::string& ch, const std::optional<T>& held, bool valid, const T& now, const char* vname,
              const char* pname) {
    if (!held) return;
    if (!valid)
      error(ch + "_valid_dropped", std::string(vname) + " dropped before its handshake");
    else if (now != *held)
      error(ch + "_payload_changed", std::string(pname) + " changed while valid and not ready");
  }

  void check_addr(const std::string& ch, const AxiAddr& a) {
    const std::string what = (ch == "ar" ? "AR " : "AW ") + describe(a);
    if (cfg_.id_bits < 32 && (a.id >> cfg_.id_bits) != 0)
      error(ch + "_id_width", what + ": ID wider than " + std::to_string(cfg_.id_bits) + " bits");
    if (cfg_.addr_bits < 64 && (a.addr >> cfg_.addr_bits) != 0)
      error(ch + "_addr_width", what + ": address wider than " + std::to_string(cfg_.addr_bits) + " bits");
    const bool known = a.burst <= axi::kBurstWrap;
    if (!known || (cfg_.incr_only && a.burst != axi::kBurstIncr))
      error(ch + "_burst_type", what + ": burst type " + std::to_string(a.burst) + " is not allowed (INCR only)");
    const unsigned most = a.burst == axi::kBurstIncr ? cfg_.max_burst_beats : std::min(cfg_.max_burst_beats, 16u);
    if (a.beats() > most || a.len > 255)
      error(ch + "_burst_too_long", what + ": " + std::to_string(a.beats()) + " beats, more than " +
                                        std::to_string(most));
    const unsigned b = a.beats();
    if (a.burst == axi::kBurstWrap && b != 2 && b != 4 && b != 8 && b != 16)
      error(ch + "_wrap_len", what + ": a WRAP burst has 2, 4, 8 or 16 beats");
    if (axi::beat_bytes(a) > bus_)
      error(ch + "_size_too_wide", what + ": " + std::to_string(axi::beat_bytes(a)) + "-byte beats on a " +
                                       std::to_string(bus_) + "-byte bus");
    if ((cfg_.require_aligned || a.burst == axi::kBurstWrap) && a.addr % axi::beat_bytes(a) != 0)
      error(ch + "_unaligned", what + ": address not a multiple of the beat size");
    if (axi::crosses_4k(a)) error(ch + "_4k_boundary", what + ": crosses a 4 KB boundary");
  }

  /// Index of the first burst in `q` (from `from`) of `beats` beats, or q.size().
  static std::size_t find_len(const std::deque<AxiAddr>& q, std::size_t from, std::size_t beats) {
    for (std::size_t j = from; j < q.size(); ++j)
      if (q[j].beats() == beats) return j;
    return q.size();
  }

  void r_beat(const AxiR& r) {
    ++stats_.r;
    auto& q = reads_[r.id];
    if (q.empty()) return;  // reported when raised
    if (!cfg_.allow_r_interleave && r_current_ && *r_current_ != r.id)
      error("r_interleave", "R beat of RID " + std::to_string(r.id) + " inside a burst of RID " +
                                std::to_string(*r_current_));
    std::size_t& n = r_count_[r.id];
    ++n;
    const std::size_t want = q.front().beats();
    if (r.last) {
      if (n == want) {
        q.pop_front();
      } else if (const std::size_t j = find_len(q, 1, n); j < q.size()) {
        error("r_same_id_order", "RID " + std::to_string(r.id) + ": a burst of " + std::to_string(n) +
                                     " beats answered before the older " + describe(q.front()));
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(j));
      } else {
        error(n < want ? "rlast_early" : "rlast_missing",
              "RLAST on beat " + std::to_string(n) + " of the " + std::to_string(want) + "-beat read " +
                  describe(q.front()));
        q.pop_front();
      }
      n = 0;
      r_current_.reset();
      return;
    }
    r_current_ = r.id;
    if (n < want) return;
    for (std::size_t j = 1; j < q.size(); ++j)
      if (q[j].beats() > n) return;  // maybe a younger, longer burst of the same ID (same-ID order, seen at RLAST)
    error("rlast_missing", "no RLAST on beat " + std::to_string(n) + ", the last of the read " + describe(q.front()));
    q.pop_front();
    n = 0;
    r_current_.reset();
  }

  /// Index in writes_ of the oldest write of `id` not yet answered, or writes_.size().
  std::size_t first_write_of(unsigned id) const {
    for (std::size_t i = 0; i < writes_.size(); ++i)
      if (writes_[i].aw.id == id && !writes_[i].b_done) return i;
    return writes_.size();
  }

  void b_raised(const AxiB& b) {
    const std::size_t i = first_write_of(b.id);
    if (i == writes_.size())
      error("b_unexpected_id", "B with BID " + std::to_string(b.id) + ", which has no write burst outstanding");
    else if (!writes_[i].w_done())
      error("b_before_wlast", "B for the write " + describe(writes_[i].aw) + " before its last W beat (" +
                                  std::to_string(writes_[i].w_beats) + " of " +
                                  std::to_string(writes_[i].aw.beats()) + " in)");
  }

  void b_taken(const AxiB& b) {
    ++stats_.b;
    const std::size_t i = first_write_of(b.id);
    if (i == writes_.size()) return;
    writes_[i].b_done = true;
    drop_finished();
  }

  void drop_finished() {
    while (!writes_.empty() && writes_.front().b_done && writes_.front().w_done()) writes_.pop_front();
  }

  void aw_taken(const AxiAddr& aw) {
    ++stats_.aw;
    writes_.push_back(WriteTrack{aw, 0, false});
    while (!w_early_.empty() && first_w_owed() < writes_.size()) {
      attribute(writes_[first_w_owed()], w_early_.front());
      w_early_.pop_front();
    }
  }

  std::size_t first_w_owed() const {
    for (std::size_t i = 0; i < writes_.size(); ++i)
      if (!writes_[i].w_done()) return i;
    return writes_.size();
  }

  void w_taken(const AxiW& w) {
    ++stats_.w;
    const std::size_t i = first_w_owed();
    if (i < writes_.size()) {
      attribute(writes_[i], w);
      drop_finished();
      return;
    }
    w_early_.push_back(w);
    if (w_early_.size() > cfg_.max_w_lead)
      error("w_without_aw", std::to_string(w_early_.size()) + " W beats without their AW (at most " +
                                std::to_string(cfg_.max_w_lead) + " may lead)");
  }

  /// W beat `w` is the next beat of the write `t`: check its WLAST and strobes.
  void attribute(WriteTrack& t, const AxiW& w) {
    const unsigned n = t.w_beats++;
    const std::string where = "W beat " + std::to_string(n + 1) + " of the write " + describe(t.aw);
    if (n == t.aw.len && !w.last) error("wlast_missing", where + ": WLAST missing on the last beat");
    if (n < t.aw.len && w.last) error("wlast_early", where + ": WLAST before the last beat");
    if (axi::beat_bytes(t.aw) > bus_) return;  // reported on the AW
    const auto lanes = axi::beat_lanes(t.aw, n, bus_);
    for (unsigned l = 0; l < w.strb.size(); ++l)
      if (w.strb[l] && !lanes.has(l)) {
        error("wstrb_lanes", where + ": WSTRB lane " + std::to_string(l) + " is outside the beat's lanes " +
                                 std::to_string(lanes.lo) + ".." + std::to_string(lanes.hi));
        break;
      }
  }

  unsigned bus_;
  AxiCheckerConfig cfg_;
  std::uint64_t cycle_ = 0;
  std::optional<AxiAddr> ar_hold_, aw_hold_;  ///< shown last cycle, valid and not ready
  std::optional<AxiW> w_hold_;
  std::optional<AxiR> r_hold_;
  std::optional<AxiB> b_hold_;
  std::map<unsigned, std::deque<AxiAddr>> reads_;  ///< read bursts outstanding, per ID, oldest first
  std::map<unsigned, std::size_t> r_count_;        ///< R beats of the current burst of each ID
  std::optional<unsigned> r_current_;              ///< the ID of a burst part-way through
  std::deque<WriteTrack> writes_;                  ///< AWs taken, until both all W beats and the B are in
  std::deque<AxiW> w_early_;                       ///< W beats that came before their AW
  std::vector<ProtocolError> errors_;
  AxiCheckerStats stats_;
};

}  // namespace tpusim
