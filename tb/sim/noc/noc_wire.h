/// @file noc_wire.h
/// @brief The files between tpugen and the NoC's Verilator harness
/// (noc_main.cpp): the traffic tpugen writes, the log the harness writes back.
/// Included by both (the harness build copies it beside noc_main.cpp).
///
/// Traffic (binary, little-endian): the 8 bytes kTrafficMagic, then u64
/// count and u64 words (64-bit words per flit), then per injection u64 cycle,
/// u64 node and `words` u64 flit words, lowest first.
///
/// Log (text, one event a line, in cycle order):
///   accept INDEX CYCLE        the injection INDEX was taken in at CYCLE
///   eject CYCLE NODE HEX      NODE's local port handed over the flit HEX (msb first)
///   stuck NODE PORT           at a watchdog stop: router NODE's input PORT holds a flit
///   assertion TEXT            the RTL's assertion (or $error) that stopped the run
///   end STATUS CYCLES SECONDS the last line: done, stalled, timeout or assertion
#pragma once

#include <cstdint>

namespace tpusim::noc_wire {

inline constexpr char kTrafficMagic[8] = {'T', 'P', 'U', 'N', 'O', 'C', '0', '1'};

}  // namespace tpusim::noc_wire
