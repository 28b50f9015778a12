/// @file mover_wire.h
/// @brief The files between tpugen (tb/sim/mover_engine.cpp) and the mover's
/// Verilator harness (mover_main.cpp): the run description tpugen writes,
/// the result the harness writes back. Included by both (the harness build
/// copies it beside mover_main.cpp).
///
/// Both are text, one item a line: a key, a space, its value(s); integers in
/// decimal or 0x hex; a line starting with '#' is a comment. The first line
/// is the magic (kRunMagic, kResultMagic).
///
/// Run description (keys in any order after the magic; `write`, `race` and
/// `slverr` repeat, `write` and `race` in the order they are sent):
///   image_base ADDR        the byte address of the image's first byte
///   image FILE             the image's bytes (raw); the memory maps exactly
///                          [image_base, image_base + its size) as one writable
///                          region, every other byte answers DECERR
///   latency N              AxiMemoryTiming: cycles beyond the next one to R / B
///   ready_stall P          AxiMemoryTiming: 0..1, withholding ARREADY, AWREADY, WREADY
///   valid_stall P          AxiMemoryTiming: 0..1, delaying RVALID, BVALID
///   reorder 0|1            AxiMemoryTiming (the mover uses one ID: no effect but allowed)
///   interleave 0|1         AxiMemoryTiming
///   max_reads N            AxiMemoryTiming: read bursts accepted and not answered
///   max_writes N           AxiMemoryTiming: write bursts whose B is not taken
///   max_burst N            the protocol checker's longest burst (the move's burst cap)
///   slverr ADDR            the bus word holding ADDR answers SLVERR (AxiMemory::inject_slverr)
///   seed N                 the memory's, the gaps' and the ports' randomness, and
///                          Verilator's random initial state
///   max_cycles N           stop with status timeout after this many cycles
///   watchdog N             stop with status hang after this many cycles without an
///                          AXI handshake (running) or a register handshake (programming)
///   gap_max N              0 .. N idle cycles before each register write
///   write OFF VALUE PORT FREE
///                          a register write, PORT host, cp or random; FREE 1 when the
///                          write commutes with any other FREE one (no staging, no commit,
///                          no GO): two FREE writes in a row may be sent in the same cycle
///                          from the two ports, to contend for the arbiter. The last write
///                          carries GO; the cycle it is taken starts the move's count.
///   race OFF VALUE         a write of the GO race: sent, in order and back to back, from
///                          the port the GO did not use, only while busy_o is high; a write
///                          carrying GO taken while busy_o is high must answer rsp_go_o 0,
///                          and none may change the running move (tpugen compares it)
///
/// Result (written at the end, whatever the status):
///   status S               done, hang, timeout, go_lost (the GO write answered
///                          rsp_go_o 0 with the mover idle) or assertion
///   cycles N               from the cycle the GO write was taken to the done_o pulse
///                          (0 when it never came)
///   total_cycles N         every cycle run after reset
///   fault N                STATUS.fault read after done_o
///   fault_o N              fault_o at the done_o pulse
///   busy N                 STATUS.busy read after done_o
///   moves_done N           STATUS.moves_done read after done_o
///   status_read 0|1        whether STATUS was read (the fields above are 0 otherwise)
///   read_beats N           R handshakes
///   w_beats N              W handshakes
///   write_beats N          W handshakes with any strobe set
///   data_beats N           the busier data channel's beats: max(read_beats, w_beats)
///   read_bursts N          AR handshakes
///   write_bursts N         AW handshakes
///   longest_burst N        beats of the longest AR or AW
///   max_reads_out N        most read bursts outstanding at the memory
///   max_writes_out N       most write bursts outstanding at the memory
///   race_writes N          race writes taken
///   race_gos N             race writes carrying GO taken while busy_o was high
///   race_gos_ignored N     of those, answered rsp_go_o 0
///   seconds X              wall time of the cycle loop
///   axi TEXT               (repeats) a burst the memory answered DECERR or SLVERR
///   checker CYCLE TEXT     (repeats) an AXI4 rule broken (AxiChecker), "[axi.rule] ..."
///   harness CYCLE TEXT     (repeats) a register port or mover output check failed
///   note TEXT              (repeats) what the harness saw at a hang or timeout
///   end                    the last line
#pragma once

namespace tpusim::mover_wire {

inline constexpr const char* kRunMagic = "tpugen-mover-run 1";
inline constexpr const char* kResultMagic = "tpugen-mover-result 1";

/// The statuses a result names.
inline constexpr const char* kStatusNames[] = {"done", "hang", "timeout", "go_lost", "assertion"};

}  // namespace tpusim::mover_wire
