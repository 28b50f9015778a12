/// @file agent_wire.h
/// @brief The files between tpugen (tb/sim/agent_engine.cpp) and the memory
/// agent's Verilator harness (agent_main.cpp): the run description tpugen
/// writes, the result the harness writes back. Included by both (the harness
/// build copies it beside agent_main.cpp).
///
/// Both are text, one item a line: a key, a space, its value(s); integers in
/// decimal or 0x hex; a line starting with '#' is a comment. The first line
/// is the magic (kRunMagic, kResultMagic). A flit is FLIT_W / 4 hex digits,
/// its most significant first.
///
/// Run description (keys in any order after the magic; `node`, `backpressure`,
/// `slverr` and `flit` repeat, `flit` in the order each port is sent them):
///   node PORT X Y          the port's node (node_i)
///   image_base ADDR        the byte address of the image's first byte
///   image FILE             the image's bytes (raw); the memory maps exactly
///                          [image_base, image_base + its size) as one writable
///                          region, every other byte answers DECERR
///   latency N              AxiMemoryTiming: cycles beyond the next one to R / B
///   ready_stall P          AxiMemoryTiming: 0..1, withholding ARREADY, AWREADY, WREADY
///   valid_stall P          AxiMemoryTiming: 0..1, delaying RVALID, BVALID
///   max_reads N            AxiMemoryTiming: read bursts accepted and not answered
///   max_writes N           AxiMemoryTiming: write bursts whose B is not taken
///   slverr ADDR            the bus word holding ADDR answers SLVERR (AxiMemory::inject_slverr)
///   backpressure PORT P    0..1: the port's out_ready_i low in a cycle with that probability
///   seed N                 the memory's, the gaps' and the backpressure's randomness, and
///                          Verilator's random initial state
///   max_cycles N           stop with status timeout after this many cycles
///   watchdog N             stop with status hang after this many cycles in which nothing
///                          moved (no flit in or out, no AXI handshake) and the agent
///                          was not idle
///   flit PORT GAP HEX      the port's next flit, offered GAP idle cycles after the one
///                          before it was taken (or after reset), held until taken
///
/// Result (written at the end, whatever the status):
///   status S               done (every flit taken, then idle_o and the memory idle),
///                          hang, timeout or assertion
///   cycles N               every cycle run after reset
///   out PORT X Y HEX       (repeats, in the order sent) a flit the port sent, with the
///                          requester it answers (out_src_o)
///   taken PORT N           flits the port took in
///   counters PORT STRAY DISCARDED ERRORS_IN LAST_MISMATCH   the port's counters at the end
///   busy PORT N            cycles the port's in_busy_o was high
///   read_bursts N          AR handshakes
///   write_bursts N         AW handshakes
///   read_beats N           R handshakes
///   write_beats N          W handshakes
///   longest_burst N        beats of the longest AR or AW
///   max_reads_out N        most read bursts outstanding at the memory
///   max_writes_out N       most write bursts outstanding at the memory
///   seconds X              wall time of the cycle loop
///   axi TEXT               (repeats) a burst the memory answered DECERR or SLVERR
///   checker CYCLE TEXT     (repeats) an AXI4 rule broken (AxiChecker), "[axi.rule] ..."
///   harness CYCLE TEXT     (repeats) a NoC port check failed (the stream rule on an
///                          output, busy not raised before full, idle_o with work left)
///   note TEXT              (repeats) what the harness saw at a hang or timeout
///   end                    the last line
#pragma once

namespace tpusim::agent_wire {

inline constexpr const char* kRunMagic = "tpugen-agent-run 1";
inline constexpr const char* kResultMagic = "tpugen-agent-result 1";

/// The statuses a result names.
inline constexpr const char* kStatusNames[] = {"done", "hang", "timeout", "assertion"};

}  // namespace tpusim::agent_wire
