/// @file noc_wire.h
/// @brief The files between tpugen and the NoC's Verilator harness
/// (noc_main.cpp): the traffic tpugen writes, the log the harness writes back.
/// Included by both (the harness build copies it beside noc_main.cpp).
///
/// Traffic (binary, little-endian): the 8 bytes kTrafficMagic, then u64
/// count and u64 words (64-bit words per flit), then per injection u64 cycle,
/// u64 node and `words` u64 flit words, lowest first.
///
/// Log (binary, little-endian u64 words, in cycle order): records, each a
/// tag (Event) and its words:
///   Accept INDEX CYCLE          the injection INDEX was taken in at CYCLE
///   Eject CYCLE NODE FLIT...    NODE's local port handed over the flit (`words` words, lowest first)
///   Stuck NODE PORT             at a watchdog stop: router NODE's input PORT (its index) holds a flit
///   Held NODE PORT              at a watchdog stop: router NODE's output register PORT holds a flit
///   End STATUS CYCLES NANOS     the last record: a Status, the cycles run, the wall time of the loop
/// Binary so that logging an ejection costs the harness a copy, not a
/// formatted line (at full load it was a third of the simulator's time).
#pragma once

#include <cstdint>

namespace tpusim::noc_wire {

inline constexpr char kTrafficMagic[8] = {'T', 'P', 'U', 'N', 'O', 'C', '0', '1'};

enum Event : std::uint64_t { kAccept = 1, kEject = 2, kStuck = 3, kEnd = 4, kHeld = 5 };

/// An End record's STATUS, and its name in a RunLog.
enum Status : std::uint64_t { kDone = 0, kStalled = 1, kTimeout = 2, kAssertion = 3 };
inline constexpr const char* kStatusNames[] = {"done", "stalled", "timeout", "assertion"};

}  // namespace tpusim::noc_wire
