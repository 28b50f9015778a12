/// @file cu_system_wire.h
/// @brief What passes between tpugen (tb/sim/cu_system_engine.cpp) and the
/// Verilator harness of a system of compute units (cu_system_main.cpp, top
/// tpu_noc_cu_system). Included by both (the harness build copies it beside
/// cu_system_main.cpp).
///
/// The run description (--run, after kRunMagic) holds AxiRun's keys (the
/// memory image, its timing, the seed, max_cycles, watchdog) and the host's
/// pace: `host_delay N` (a valid rises 0..N cycles after it may) and
/// `host_stall P` (BREADY, RREADY withheld in a cycle).
///
/// Then the host talks to the running system in lines, a command on the
/// harness's standard input and its answer on its standard output (the
/// host's side of HostPort, model/cu/cu_program.h):
///   w OFFSET VALUE   an AXI4-Lite write of the 64-bit register  -> `ok CYCLE`
///   r OFFSET         an AXI4-Lite read                          -> `v VALUE CYCLE`
///   adv N            run up to N cycles, to the end of the first in which
///                    the orchestrator took a flit from the mesh  -> `adv CYCLE`
///   quit             end the run (so does the end of the input)
/// Numbers are decimal or 0x hex; VALUE answers in 0x hex. Before each
/// answer, a line `rx CYCLE W0 W1 ...` for every flit the orchestrator took
/// since the last answer (the flit in 64-bit words, the least significant
/// first, 0x hex). When the run stops (the cycle limit, an RTL assertion) the
/// answer is `stop STATUS CYCLE`, and every command after it answers the same.
///
/// The result (--result, after kResultMagic): `status` (done, timeout,
/// assertion), `cycles`, `first_inject` (the cycle the orchestrator first sent
/// a flit, or none), `last_rx` (the last cycle it took one), `busy UNIT
/// CYCLES` per unit, `injected NODE FLITS` per node, `rx_flits`, AXI4 counts
/// as every run-file harness (harness_run.h) and the host's `host_errors`;
/// then the `harness`, `note` and `end` lines.
#pragma once

namespace tpusim::cu_system_wire {

inline constexpr const char* kRunMagic = "tpugen-cu-system-run 1";
inline constexpr const char* kResultMagic = "tpugen-cu-system-result 1";

}  // namespace tpusim::cu_system_wire
