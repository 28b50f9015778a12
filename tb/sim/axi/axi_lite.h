/// @file axi_lite.h
/// @brief AxiLiteHost: a cycle-level AXI4-Lite master (the host CPU) that
/// drives an AXI4-Lite slave such as the AXI top's control registers
/// (32-bit data) or the orchestrator's (64-bit), and checks the slave's side
/// of the protocol. Plain C++17, header-only.
///
/// Per-cycle contract (as memory_models.h): `drive(cycle)` decides what the
/// host shows this cycle (AWVALID/AW, WVALID/W, BREADY, ARVALID/AR, RREADY),
/// before the slave's outputs are known; the harness sets the DUT's inputs,
/// evaluates it, then calls `clock(cycle, slave)` with what the slave drove,
/// which checks it and commits the handshakes of the cycle.
///
/// Operations are queued (`write`, `read`, each returning a ticket) and
/// started in queue order, one at a time (or, with `overlap`, a read and a
/// write at once). A write raises AWVALID and WVALID after random delays, in
/// a random order: AW first, W first (the other waits for the first's
/// handshake) or together. BREADY and RREADY are withheld at random. While a
/// valid is low its payload is noise.
///
/// Slave rules, each a ProtocolError whose message starts with its rule id:
/// [axil.b_valid_dropped], [axil.r_valid_dropped] (valid dropped before the
/// handshake), [axil.b_payload_changed], [axil.r_payload_changed] (response
/// changed while valid and not ready), [axil.b_early] (BVALID before both the
/// AW and the W handshakes, in an earlier cycle), [axil.b_unexpected],
/// [axil.r_unexpected] (a response with nothing outstanding, RVALID before the
/// AR handshake included), [axil.b_resp], [axil.r_resp] (a response other than
/// OKAY); at the end, [axil.finish_pending] (operations not done).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/axi/axi_types.h"

namespace tpusim {

/// What an AXI4-Lite master drives in one cycle (32- or 64-bit data).
struct AxiLiteMasterSignals {
  bool awvalid = false;
  std::uint64_t awaddr = 0;
  unsigned awprot = 0;
  bool wvalid = false;
  std::uint64_t wdata = 0;
  unsigned wstrb = 0;  ///< bit b: byte b written
  bool bready = false;
  bool arvalid = false;
  std::uint64_t araddr = 0;
  unsigned arprot = 0;
  bool rready = false;
};

/// What an AXI4-Lite slave drives in one cycle.
struct AxiLiteSlaveSignals {
  bool awready = false;
  bool wready = false;
  bool bvalid = false;
  unsigned bresp = axi::kRespOkay;
  bool arready = false;
  bool rvalid = false;
  std::uint64_t rdata = 0;
  unsigned rresp = axi::kRespOkay;
};

/// How an AxiLiteHost paces itself.
struct AxiLiteHostTiming {
  unsigned max_delay = 3;    ///< a valid rises 0..max_delay cycles (uniform) after it may
  double ready_stall = 0.0;  ///< 0..1: probability of withholding BREADY or RREADY in a cycle
  bool overlap = false;      ///< a read and a write may be in flight together
};

/// Counters of an AxiLiteHost.
struct AxiLiteHostStats {
  std::uint64_t writes = 0;       ///< writes completed
  std::uint64_t reads = 0;        ///< reads completed
  std::uint64_t aw_before_w = 0;  ///< writes whose AW handshake came first
  std::uint64_t w_before_aw = 0;  ///< writes whose W handshake came first
  std::uint64_t aw_with_w = 0;    ///< writes whose AW and W handshook in the same cycle
  std::uint64_t b_stall_cycles = 0;  ///< BVALID and not BREADY
  std::uint64_t r_stall_cycles = 0;  ///< RVALID and not RREADY
};

/// An AXI4-Lite master with a queue of register reads and writes.
class AxiLiteHost {
 public:
  /// Names an operation (its index in the queue).
  using Ticket = std::size_t;

  /// A host of a slave with `data_bytes`-byte data (4 or 8).
  AxiLiteHost(AxiLiteHostTiming timing, std::uint64_t seed, std::string port = "s_axi_control",
              unsigned data_bytes = 4)
      : timing_(timing),
        rng_(seed),
        port_(std::move(port)),
        data_mask_(data_bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * data_bytes)) - 1),
        strb_all_((1U << data_bytes) - 1) {}

  /// Queue a write of `data` to `addr`, every byte written.
  Ticket write(std::uint64_t addr, std::uint64_t data) { return write(addr, data, strb_all_); }
  /// Queue a write of `data` to `addr`, bytes chosen by `strb` (bit b: byte b).
  Ticket write(std::uint64_t addr, std::uint64_t data, unsigned strb) {
    ops_.push_back(Op{true, addr, data & data_mask_, strb & strb_all_});
    return ops_.size() - 1;
  }
  /// Queue a read of `addr`.
  Ticket read(std::uint64_t addr) {
    ops_.push_back(Op{false, addr, 0, 0});
    return ops_.size() - 1;
  }
  /// The operation has its response.
  [[nodiscard]] bool done(Ticket t) const { return op(t).done; }
  /// The data a read returned (0 for a write or before it is done).
  [[nodiscard]] std::uint64_t value(Ticket t) const { return op(t).value; }
  /// The response (BRESP or RRESP) the operation got.
  [[nodiscard]] unsigned resp(Ticket t) const { return op(t).resp; }
  /// Every queued operation is done.
  [[nodiscard]] bool idle() const {
    for (const auto& o : ops_)
      if (!o.done) return false;
    return true;
  }

  /// This cycle's master-side signals. Call once per cycle before `clock`.
  const AxiLiteMasterSignals& drive(std::uint64_t cycle) {
    start_ops(cycle);
    out_ = AxiLiteMasterSignals{};
    out_.awaddr = rng_();
    out_.wdata = rng_() & data_mask_;
    out_.wstrb = static_cast<unsigned>(rng_() & strb_all_);
    out_.araddr = rng_();
    if (wr_) {
      const Op& o = ops_[*wr_];
      if (!aw_done_ && cycle >= aw_at_) {
        out_.awvalid = true;
        out_.awaddr = o.addr;
      }
      if (!w_done_ && cycle >= w_at_) {
        out_.wvalid = true;
        out_.wdata = o.data;
        out_.wstrb = o.strb;
      }
    }
    if (rd_ && !ar_done_ && cycle >= ar_at_) {
      out_.arvalid = true;
      out_.araddr = ops_[*rd_].addr;
    }
    out_.bready = !coin(timing_.ready_stall);
    out_.rready = !coin(timing_.ready_stall);
    return out_;
  }

  /// The slave's side of the cycle: check it and commit the handshakes.
  void clock(std::uint64_t cycle, const AxiLiteSlaveSignals& s) {
    cycle_ = cycle;
    if (b_hold_) {
      if (!s.bvalid)
        error("b_valid_dropped", "BVALID dropped before its handshake");
      else if (s.bresp != *b_hold_)
        error("b_payload_changed", "BRESP changed while BVALID and not BREADY");
    }
    if (r_hold_) {
      if (!s.rvalid)
        error("r_valid_dropped", "RVALID dropped before its handshake");
      else if (s.rdata != r_hold_->first || s.rresp != r_hold_->second)
        error("r_payload_changed", "R data or RRESP changed while RVALID and not RREADY");
    }
    const bool write_answerable = wr_ && aw_done_ && w_done_;
    if (s.bvalid && !b_hold_) {
      if (!wr_)
        error("b_unexpected", "BVALID with no write outstanding");
      else if (!write_answerable)
        error("b_early", "BVALID for the write to " + axi::hex(ops_[*wr_].addr) + " before its " +
                             (aw_done_ ? "W" : w_done_ ? "AW" : "AW and W") + " handshake");
    }
    if (s.bvalid && out_.bready && write_answerable) {
      if (s.bresp != axi::kRespOkay)
        error("b_resp", "write to " + axi::hex(ops_[*wr_].addr) + " answered " + axi::resp_name(s.bresp));
      complete(*wr_, 0, s.bresp);
      wr_.reset();
      ++stats_.writes;
    }
    const bool read_answerable = rd_ && ar_done_;
    if (s.rvalid && !r_hold_ && !read_answerable) error("r_unexpected", "RVALID with no read outstanding");
    if (s.rvalid && out_.rready && read_answerable) {
      if (s.rresp != axi::kRespOkay)
        error("r_resp", "read of " + axi::hex(ops_[*rd_].addr) + " answered " + axi::resp_name(s.rresp));
      complete(*rd_, s.rdata, s.rresp);
      rd_.reset();
      ++stats_.reads;
    }
    if (s.bvalid && !out_.bready) ++stats_.b_stall_cycles;
    if (s.rvalid && !out_.rready) ++stats_.r_stall_cycles;
    const bool aw_hs = out_.awvalid && s.awready;
    const bool w_hs = out_.wvalid && s.wready;
    if (aw_hs || w_hs) {
      if (aw_hs && w_hs) ++stats_.aw_with_w;
      else if (aw_hs && !w_done_) ++stats_.aw_before_w;
      else if (w_hs && !aw_done_) ++stats_.w_before_aw;
      aw_done_ = aw_done_ || aw_hs;
      w_done_ = w_done_ || w_hs;
      if (aw_done_ && w_at_ == kNever) w_at_ = cycle + 1 + delay();
      if (w_done_ && aw_at_ == kNever) aw_at_ = cycle + 1 + delay();
    }
    if (out_.arvalid && s.arready) ar_done_ = true;
    b_hold_ = s.bvalid && !out_.bready ? std::optional<unsigned>(s.bresp) : std::nullopt;
    r_hold_ = s.rvalid && !out_.rready ? std::optional<std::pair<std::uint64_t, unsigned>>({s.rdata, s.rresp})
                                       : std::nullopt;
  }

  /// End of test: operations not done are an error.
  void finish(std::uint64_t cycle) {
    cycle_ = cycle;
    std::size_t pending = 0;
    for (const auto& o : ops_) pending += !o.done;
    if (pending) error("finish_pending", std::to_string(pending) + " operation(s) never answered");
  }

  [[nodiscard]] const std::vector<ProtocolError>& errors() const { return errors_; }
  /// The distinct rule ids reported.
  [[nodiscard]] std::set<std::string> rules() const {
    std::set<std::string> r;
    for (const auto& e : errors_) r.insert(axi::rule_of(e));
    return r;
  }
  [[nodiscard]] const AxiLiteHostStats& stats() const { return stats_; }

 private:
  struct Op {
    bool write;
    std::uint64_t addr;
    std::uint64_t data;
    unsigned strb;
    bool done = false;
    std::uint64_t value = 0;
    unsigned resp = axi::kRespOkay;
  };
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  const Op& op(Ticket t) const {
    if (t >= ops_.size()) throw std::out_of_range(port_ + ": no operation " + std::to_string(t));
    return ops_[t];
  }
  bool coin(double p) { return p > 0.0 && unit_(rng_) < p; }
  std::uint64_t delay() { return std::uniform_int_distribution<unsigned>(0, timing_.max_delay)(rng_); }

  void error(const std::string& rule, const std::string& what) {
    errors_.push_back(ProtocolError{cycle_, port_, "[axil." + rule + "] " + what});
  }

  void complete(std::size_t i, std::uint64_t value, unsigned resp) {
    ops_[i].done = true;
    ops_[i].value = value;
    ops_[i].resp = resp;
  }

  /// Start the next operations in queue order while their channel is free.
  void start_ops(std::uint64_t cycle) {
    while (next_ < ops_.size()) {
      const bool free = timing_.overlap || (!wr_ && !rd_);
      const Op& o = ops_[next_];
      if (!free || (o.write ? wr_.has_value() : rd_.has_value())) return;
      if (o.write) {
        wr_ = next_;
        aw_done_ = w_done_ = false;
        const unsigned order = std::uniform_int_distribution<unsigned>(0, 2)(rng_);  // together, AW first, W first
        const std::uint64_t first = cycle + delay();
        aw_at_ = order == 2 ? kNever : first;
        w_at_ = order == 1 ? kNever : first;
      } else {
        rd_ = next_;
        ar_done_ = false;
        ar_at_ = cycle + delay();
      }
      ++next_;
    }
  }

  AxiLiteHostTiming timing_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  std::string port_;
  std::uint64_t data_mask_;  ///< the data's bits
  unsigned strb_all_;        ///< every byte's strobe
  std::vector<Op> ops_;
  std::size_t next_ = 0;              ///< the next operation to start
  std::optional<std::size_t> wr_;     ///< the write in flight
  std::optional<std::size_t> rd_;     ///< the read in flight
  bool aw_done_ = false, w_done_ = false, ar_done_ = false;
  std::uint64_t aw_at_ = 0, w_at_ = 0, ar_at_ = 0;  ///< cycles from which each valid is raised
  std::optional<unsigned> b_hold_;                   ///< BRESP shown last cycle and not taken
  std::optional<std::pair<std::uint64_t, unsigned>> r_hold_;  ///< R shown last cycle and not taken
  std::uint64_t cycle_ = 0;
  AxiLiteMasterSignals out_;
  std::vector<ProtocolError> errors_;
  AxiLiteHostStats stats_;
};

}  // namespace tpusim
