/// @file memory_models.h
/// @brief The memories outside the core, as cycle-level valid/ready models:
/// imem (beats of 64-bit words, reads only), the operand read port (A or B),
/// and the C write port. Plain C++17 (the Verilator build compiles it with
/// sim_main.cpp; the unit tests compile it without Verilator).
///
/// Each port is a request stream from the core and a response stream back,
/// in request order. Per cycle the harness calls `drive()` (what the memory
/// shows the core: request ready, response valid and data), evaluates the
/// core, then `clock()` with what the core showed (request valid and payload,
/// response ready): `clock()` commits the handshakes of the cycle. A request
/// accepted in cycle c has its response valid at the earliest in cycle
/// c + 1 + latency. `backpressure` is the probability that the memory
/// withholds its request ready, or the raising of its response valid, in a
/// cycle (a raised valid is held until the handshake, as the protocol asks).
///
/// Protocol checks on the core's side of each stream: a request valid that
/// drops before its handshake, a request payload that changes while valid and
/// not ready, and each memory's own address rules (alignment, range). Each is
/// recorded as a ProtocolError naming the cycle and the port.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace tpusim {

struct ProtocolError {
  std::uint64_t cycle = 0;
  std::string port;
  std::string message;
};

/// How a memory answers.
struct PortTiming {
  unsigned latency = 0;             ///< cycles from the request handshake to response valid, beyond the next cycle
  double backpressure = 0.0;        ///< 0..1: probability of withholding ready, or raising valid, in a cycle
  std::size_t max_outstanding = 16; ///< requests accepted and not yet answered (ready falls when full)
};

/// Counters of one port, for the report.
struct PortStats {
  std::uint64_t requests = 0;
  std::uint64_t responses = 0;
  std::uint64_t req_stall_cycles = 0;  ///< request valid and not ready
  std::uint64_t rsp_stall_cycles = 0;  ///< response valid and not ready
  std::size_t max_outstanding = 0;
};

/// A request/response stream pair with latency, backpressure, an in-order
/// queue and protocol checks. `serve` answers one accepted request (and may
/// name a protocol error in `error`).
template <typename Req, typename Rsp>
class Port {
 public:
  /// What the memory shows the core in one cycle.
  struct Outputs {
    bool req_ready = false;
    bool rsp_valid = false;
    const Rsp* rsp = nullptr;  ///< the response shown, when rsp_valid
  };

  Port(std::string name, PortTiming timing, std::uint64_t seed)
      : name_(std::move(name)), timing_(timing), rng_(seed) {}
  virtual ~Port() = default;
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  /// Decide this cycle's memory-side signals. Call once per cycle, before
  /// the core's outputs are sampled.
  const Outputs& drive(std::uint64_t cycle) {
    const bool hold_ready = withhold();
    const bool hold_valid = withhold();
    out_.req_ready = queue_.size() < timing_.max_outstanding && !hold_ready;
    out_.rsp_valid = rsp_shown_ || (!queue_.empty() && queue_.front().ready_at <= cycle && !hold_valid);
    out_.rsp = out_.rsp_valid ? &queue_.front().rsp : nullptr;
    return out_;
  }

  /// The core's side of the cycle (sampled after evaluation, before the
  /// clock edge): check it and commit the handshakes.
  void clock(std::uint64_t cycle, bool req_valid, const Req& req, bool rsp_ready) {
    if (pending_req_) {
      if (!req_valid)
        error(cycle, "request valid dropped before the handshake");
      else if (!(req == *pending_req_))
        error(cycle, "request payload changed while valid and not ready");
    }
    pending_req_.reset();
    if (req_valid && out_.req_ready) {
      std::string err;
      Rsp rsp = serve(req, err);
      if (!err.empty()) error(cycle, err);
      queue_.push_back(Pending{cycle + 1 + timing_.latency, std::move(rsp)});
      ++stats_.requests;
      if (queue_.size() > stats_.max_outstanding) stats_.max_outstanding = queue_.size();
    } else if (req_valid) {
      pending_req_ = req;
      ++stats_.req_stall_cycles;
    }
    if (out_.rsp_valid && rsp_ready) {
      queue_.pop_front();
      rsp_shown_ = false;
      ++stats_.responses;
    } else {
      rsp_shown_ = out_.rsp_valid;
      if (out_.rsp_valid) ++stats_.rsp_stall_cycles;
    }
    out_ = Outputs{};
  }

  [[nodiscard]] const std::string& name() const { return name_; }
  /// Requests accepted whose response the core has not taken.
  [[nodiscard]] std::size_t outstanding() const { return queue_.size(); }
  [[nodiscard]] const std::vector<ProtocolError>& errors() const { return errors_; }
  [[nodiscard]] const PortStats& stats() const { return stats_; }
  /// Record an error found outside the port (e.g. done before the last ack).
  void error(std::uint64_t cycle, std::string message) { errors_.push_back({cycle, name_, std::move(message)}); }

 protected:
  virtual Rsp serve(const Req& req, std::string& err) = 0;

 private:
  struct Pending {
    std::uint64_t ready_at;
    Rsp rsp;
  };

  bool withhold() {
    if (timing_.backpressure <= 0.0) return false;
    return coin_(rng_) < timing_.backpressure;
  }

  std::string name_;
  PortTiming timing_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> coin_{0.0, 1.0};
  std::deque<Pending> queue_;
  Outputs out_;
  bool rsp_shown_ = false;          ///< response valid shown last cycle and not taken
  std::optional<Req> pending_req_;  ///< request shown last cycle and not accepted
  std::vector<ProtocolError> errors_;
  PortStats stats_;
};

// ---------------------------------------------------------------------------
// What the memories below share: beats read from a flat array, and the error
// of an address off a beat boundary.
// ---------------------------------------------------------------------------
/// The `n` elements of `src` from `at`; those past its end read 0.
template <typename T>
std::vector<T> beat_from(const std::vector<T>& src, std::size_t at, unsigned n) {
  std::vector<T> beat(n, 0);
  for (unsigned k = 0; k < n; ++k)
    if (at + k < src.size()) beat[k] = src[at + k];
  return beat;
}

/// "`what` address `addr` is not a multiple of the beat (`beat` `unit`)".
inline std::string off_beat(const std::string& what, std::uint32_t addr, unsigned beat, const std::string& unit) {
  return what + " address " + std::to_string(addr) + " is not a multiple of the beat (" + std::to_string(beat) + " " +
         unit + ")";
}

// ---------------------------------------------------------------------------
// imem: a beat of `beat_words` 64-bit words per request.
// ---------------------------------------------------------------------------
struct ImemReq {
  std::uint32_t addr = 0;  ///< index of the first word of the beat
  bool operator==(const ImemReq& o) const { return addr == o.addr; }
};
using ImemBeat = std::vector<std::uint64_t>;

class ImemModel : public Port<ImemReq, ImemBeat> {
 public:
  /// `words` is the program image; words past it (up to `depth`) read 0.
  ImemModel(std::vector<std::uint64_t> words, unsigned beat_words, unsigned depth, PortTiming timing, std::uint64_t seed)
      : Port("imem", timing, seed), words_(std::move(words)), beat_words_(beat_words), depth_(depth) {}

 protected:
  ImemBeat serve(const ImemReq& req, std::string& err) override {
    if (req.addr % beat_words_ != 0)
      err = off_beat("imem", req.addr, beat_words_, "words");
    else if (req.addr >= depth_)
      err = "imem address " + std::to_string(req.addr) + " is past IMEM_SIZE (" + std::to_string(depth_) + " words)";
    return beat_from(words_, req.addr, beat_words_);
  }

 private:
  std::vector<std::uint64_t> words_;
  unsigned beat_words_;
  unsigned depth_;
};

// ---------------------------------------------------------------------------
// Operand reads: `beat_bytes` bytes of A (sel 0) or B (sel 1) from a byte
// offset; bytes past the matrix read 0.
// ---------------------------------------------------------------------------
struct ReadReq {
  unsigned sel = 0;        ///< 0 = A, 1 = B
  std::uint32_t addr = 0;  ///< byte offset in the matrix
  bool operator==(const ReadReq& o) const { return sel == o.sel && addr == o.addr; }
};
using Bytes = std::vector<std::uint8_t>;

class OperandReadModel : public Port<ReadReq, Bytes> {
 public:
  OperandReadModel(Bytes a, Bytes b, unsigned beat_bytes, PortTiming timing, std::uint64_t seed)
      : Port("dram_rd", timing, seed), a_(std::move(a)), b_(std::move(b)), beat_bytes_(beat_bytes) {}

 protected:
  Bytes serve(const ReadReq& req, std::string& err) override {
    if (req.addr % beat_bytes_ != 0) err = off_beat("operand read", req.addr, beat_bytes_, "bytes");
    return beat_from(req.sel ? b_ : a_, req.addr, beat_bytes_);
  }

 private:
  Bytes a_, b_;
  unsigned beat_bytes_;
};

// ---------------------------------------------------------------------------
// C writes: `row_bytes` bytes to a byte offset; one acknowledgement per write.
// The bytes land when the request is accepted.
// ---------------------------------------------------------------------------
/// One C write beat: byte b of `data` goes to addr + b when strb[b] is set.
struct WriteReq {
  std::uint32_t addr = 0;
  Bytes data;
  Bytes strb;  ///< one entry a byte: 1 written, 0 left alone
  bool operator==(const WriteReq& o) const { return addr == o.addr && data == o.data && strb == o.strb; }
};
struct WriteAck {};

class CWriteModel : public Port<WriteReq, WriteAck> {
 public:
  CWriteModel(Bytes c, unsigned beat_bytes, PortTiming timing, std::uint64_t seed)
      : Port("dram_wr", timing, seed), c_(std::move(c)), beat_bytes_(beat_bytes) {}

  [[nodiscard]] const Bytes& c() const { return c_; }
  [[nodiscard]] std::uint64_t bytes_written() const { return bytes_written_; }

 protected:
  WriteAck serve(const WriteReq& req, std::string& err) override {
    std::size_t last = 0, strobed = 0;  // one past the highest strobed byte; strobed bytes
    for (std::size_t k = 0; k < req.strb.size(); ++k)
      if (req.strb[k]) last = k + 1, ++strobed;
    if (req.addr % beat_bytes_ != 0) {
      err = off_beat("C write", req.addr, beat_bytes_, "bytes") + "; dropped";
    } else if (strobed == 0) {
      err = "C write at " + std::to_string(req.addr) + " has no byte strobe set";
    } else if (std::size_t{req.addr} + last > c_.size()) {
      err = "C write at " + std::to_string(req.addr) + " strobes bytes past C (" + std::to_string(c_.size()) +
            " bytes); dropped";
    } else {
      for (std::size_t k = 0; k < last; ++k)
        if (req.strb[k]) c_[req.addr + k] = req.data[k];
      bytes_written_ += strobed;
    }
    return WriteAck{};
  }

 private:
  Bytes c_;
  unsigned beat_bytes_;
  std::uint64_t bytes_written_ = 0;
};

}  // namespace tpusim
