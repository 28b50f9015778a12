/// @file axi_types.h
/// @brief AXI4 channel payloads, the per-cycle signal bundles of a master and
/// a slave, and the burst arithmetic of AXI4 (beat addresses, byte lanes,
/// 4 KB boundary). Plain C++17, header-only: the Verilator build compiles it
/// with sim_main.cpp, the unit tests without Verilator.
///
/// The models built on it (axi_memory.h, axi_checker.h, axi_lite.h) follow
/// the per-cycle contract of memory_models.h: each cycle the harness calls
/// `drive(cycle)` on a model (what it shows the DUT this cycle: its readys,
/// its valids and payloads, decided before the DUT's outputs are known), sets
/// the DUT's inputs, evaluates the DUT, then calls `clock(cycle, <what the
/// DUT showed>)`, which checks and commits the handshakes of that cycle
/// (a handshake is valid && ready in the same cycle, before the edge).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/harness/memory_models.h"

namespace tpusim {

namespace axi {
/// AxBURST encodings.
inline constexpr unsigned kBurstFixed = 0;
inline constexpr unsigned kBurstIncr = 1;
inline constexpr unsigned kBurstWrap = 2;
/// xRESP encodings.
inline constexpr unsigned kRespOkay = 0;
inline constexpr unsigned kRespExOkay = 1;
inline constexpr unsigned kRespSlvErr = 2;
inline constexpr unsigned kRespDecErr = 3;

/// A response encoding's name ("OKAY", "SLVERR", ...).
inline std::string resp_name(unsigned resp) {
  switch (resp) {
    case kRespOkay: return "OKAY";
    case kRespExOkay: return "EXOKAY";
    case kRespSlvErr: return "SLVERR";
    case kRespDecErr: return "DECERR";
    default: return "resp " + std::to_string(resp);
  }
}

/// True when `bus_bytes` is a legal data width for these models (4..128, a power of two).
inline bool legal_bus_bytes(unsigned bus_bytes) {
  return bus_bytes >= 4 && bus_bytes <= 128 && (bus_bytes & (bus_bytes - 1)) == 0;
}
}  // namespace axi

/// An AR or AW payload.
struct AxiAddr {
  std::uint64_t addr = 0;
  unsigned id = 0;
  unsigned len = 0;    ///< beats - 1 (0..255)
  unsigned size = 0;   ///< log2 of the bytes a beat carries
  unsigned burst = axi::kBurstIncr;
  unsigned cache = 0;  ///< carried, unchecked
  unsigned prot = 0;   ///< carried, unchecked
  bool lock = false;   ///< carried, unchecked
  /// Beats in the burst.
  [[nodiscard]] unsigned beats() const { return len + 1; }
  bool operator==(const AxiAddr& o) const {
    return addr == o.addr && id == o.id && len == o.len && size == o.size && burst == o.burst && cache == o.cache &&
           prot == o.prot && lock == o.lock;
  }
  bool operator!=(const AxiAddr& o) const { return !(*this == o); }
};

/// A W beat. `strb` has one entry a byte lane: 1 written, 0 left alone.
struct AxiW {
  Bytes data;
  Bytes strb;
  bool last = false;
  bool operator==(const AxiW& o) const { return data == o.data && strb == o.strb && last == o.last; }
  bool operator!=(const AxiW& o) const { return !(*this == o); }
};

/// A B response.
struct AxiB {
  unsigned id = 0;
  unsigned resp = axi::kRespOkay;
  bool operator==(const AxiB& o) const { return id == o.id && resp == o.resp; }
  bool operator!=(const AxiB& o) const { return !(*this == o); }
};

/// An R beat.
struct AxiR {
  unsigned id = 0;
  Bytes data;
  unsigned resp = axi::kRespOkay;
  bool last = false;
  bool operator==(const AxiR& o) const { return id == o.id && data == o.data && resp == o.resp && last == o.last; }
  bool operator!=(const AxiR& o) const { return !(*this == o); }
};

/// What an AXI4 master drives in one cycle (payloads matter only while their valid is high).
struct AxiMasterSignals {
  bool arvalid = false;
  AxiAddr ar;
  bool rready = false;
  bool awvalid = false;
  AxiAddr aw;
  bool wvalid = false;
  AxiW w;
  bool bready = false;
};

/// What an AXI4 slave drives in one cycle (payloads matter only while their valid is high).
struct AxiSlaveSignals {
  bool arready = false;
  bool rvalid = false;
  AxiR r;
  bool awready = false;
  bool wready = false;
  bool bvalid = false;
  AxiB b;
};

namespace axi {
/// Bytes a beat of `a` carries (2^size; sizes past 4 KB are clamped there).
inline std::uint64_t beat_bytes(const AxiAddr& a) { return std::uint64_t{1} << std::min(a.size, 12u); }

/// Address of beat `n` of the burst `a` (AXI4 A3.4.1): FIXED repeats the
/// start address, INCR steps from the size-aligned start, WRAP steps and
/// wraps at the burst's total size.
inline std::uint64_t beat_addr(const AxiAddr& a, unsigned n) {
  const std::uint64_t nb = beat_bytes(a);
  const std::uint64_t aligned = a.addr & ~(nb - 1);
  if (a.burst == kBurstFixed || n == 0) return a.addr;
  std::uint64_t addr = aligned + std::uint64_t{n} * nb;
  if (a.burst == kBurstWrap) {
    const std::uint64_t total = nb * a.beats();
    const std::uint64_t lower = (a.addr / total) * total;
    while (addr >= lower + total) addr -= total;
  }
  return addr;
}

/// The byte lanes [lo, hi] that beat `n` of `a` uses on a bus of `bus_bytes`
/// (a narrow or unaligned beat uses the lanes of its address only).
struct Lanes {
  unsigned lo = 0;
  unsigned hi = 0;
  [[nodiscard]] bool has(unsigned lane) const { return lane >= lo && lane <= hi; }
};
inline Lanes beat_lanes(const AxiAddr& a, unsigned n, unsigned bus_bytes) {
  const std::uint64_t addr = beat_addr(a, n);
  const std::uint64_t nb = std::min<std::uint64_t>(beat_bytes(a), bus_bytes);
  const std::uint64_t aligned = addr & ~(nb - 1);
  Lanes l;
  l.lo = static_cast<unsigned>(addr % bus_bytes);
  l.hi = static_cast<unsigned>(aligned % bus_bytes + nb - 1);
  return l;
}

/// One past the last byte an INCR burst touches (from its size-aligned start).
inline std::uint64_t incr_end(const AxiAddr& a) {
  const std::uint64_t nb = beat_bytes(a);
  return (a.addr & ~(nb - 1)) + nb * a.beats();
}

/// True when an INCR burst touches two 4 KB pages (FIXED and WRAP never do
/// when their own rules hold).
inline bool crosses_4k(const AxiAddr& a) {
  if (a.burst != kBurstIncr) return false;
  return (a.addr >> 12) != ((incr_end(a) - 1) >> 12);
}

/// The rule id of a checker's error: the text between the leading brackets
/// of its message ("" when it has none).
inline std::string rule_of(const ProtocolError& e) {
  if (e.message.empty() || e.message[0] != '[') return "";
  const auto close = e.message.find(']');
  return close == std::string::npos ? "" : e.message.substr(1, close - 1);
}

/// A hex address for messages.
inline std::string hex(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 0xF]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}
}  // namespace axi

}  // namespace tpusim
