/// @file mover_engine.h
/// @brief The memory mover's top (tpu_noc_mover) under Verilator: built once
/// per configuration through the engine's cache (rtl_engine.h:
/// cached_sim_build) with the mover's harness (tb/sim/mover/mover_main.cpp),
/// and run on a move (a MoveDescriptor, sent as the register writes that
/// program it) over a memory image behind the AXI4 memory model, with the
/// protocol checker on the mover's master port. The result holds what the
/// reference model (tb/model/mover/mover_model.h) gives for the same move,
/// and the RTL's timing; compare_mover_runs holds the two together as
/// mover-notes.md §4 allows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hdl/sysnode/sysnode_context.h"
#include "model/mover/descriptor.h"
#include "model/mover/memory.h"
#include "model/mover/mover_model.h"
#include "sim/harness_run.h"
#include "sim/rtl_engine.h"

namespace tpugen::sim {

/// The harness's configuration header (mover_config.h): the AXI port's
/// widths and the register map's offsets and STATUS fields, from the spec.
std::string mover_config_header(const hdl::SysnodeContext& ctx, bool system_node = false);

/// The mover's harness: mover_main.cpp and what it includes; with
/// `waveform`, built with FST tracing (a separate simulator).
Harness mover_harness(bool waveform);

/// How a mover simulator is built.
struct MoverSimOptions {
  bool waveform = false;   ///< with FST tracing (a separate simulator)
  bool assertions = true;  ///< the RTL's assertions compiled in
  /// The mover inside the whole system node (tpu_noc_system_node, the
  /// agent's endpoints idle, through tb/sim/sysnode/tpu_sysnode_mover_sim.sv):
  /// its AXI4 traffic through the multiplexer, with the master's ID prefix.
  bool system_node = false;
};

/// Generate the mover (hdl::generate_mover) and build its simulator, top
/// tpu_noc_mover, cached by the spec's hash, the mover's build parameters
/// (RD_BURSTS, WR_BURSTS, READ_AHEAD), the defect, the tpugen version, the
/// options and the contents of everything compiled. Returns its path.
std::filesystem::path ensure_mover_simulator(const hdl::SysnodeContext& ctx, const std::filesystem::path& build_root,
                                             const BuildProgress& progress, const MoverSimOptions& options = {});

/// The conditions of one RTL run: the AXI memory's timing, the register
/// ports, the randomness, the limits.
struct MoverRunConditions {
  unsigned latency = 0;                ///< cycles from AR / last W to R / B, beyond the next cycle
  double ready_stall = 0.0;            ///< 0..1: ARREADY, AWREADY, WREADY withheld in a cycle
  double valid_stall = 0.0;            ///< 0..1: the raising of RVALID, BVALID delayed in a cycle
  bool reorder = false;                ///< responses of different IDs reordered (the mover drives one ID)
  bool interleave = false;             ///< R beats of different IDs interleaved
  unsigned max_reads = 64;             ///< read bursts the memory accepts and has not answered
  unsigned max_writes = 64;            ///< write bursts whose B is not taken
  std::string port = "host";           ///< the register port of every write: host, cp or random (per write)
  unsigned gap_max = 3;                ///< 0 .. gap_max idle cycles before each register write
  bool go_race = false;                ///< while the move runs, write other registers and GO from the other port
  std::uint64_t seed = 1;              ///< the memory's, the gaps' and the ports' randomness, the random initial state
  std::uint64_t max_cycles = 2000000;  ///< give up (status timeout)
  std::uint64_t watchdog = 20000;      ///< cycles with no AXI handshake and no done_o before status hang
};

struct MoverRtlOptions {
  std::string trace;     ///< an FST file to write (a simulator built with the waveform), or empty
  std::string work_dir;  ///< keep the run's files here (default: a temporary directory, removed)
};

/// What one RTL run gave (status: done, hang, timeout, go_lost or assertion).
struct MoverRtlResult : HarnessRunResult {
  std::uint32_t fault = 0;          ///< STATUS.fault after done_o
  std::uint32_t fault_o = 0;        ///< fault_o at done_o
  std::uint64_t moves_done = 0;     ///< STATUS.moves_done after done_o
  std::uint64_t words_read = 0;     ///< R beats
  std::uint64_t words_written = 0;  ///< W beats with any strobe set
  std::uint64_t w_beats = 0;        ///< every W beat
  std::uint64_t cycles = 0;         ///< from the GO write taken to done_o
  std::uint64_t total_cycles = 0;   ///< the whole run, register writes and STATUS read included
  std::uint64_t data_beats = 0;     ///< the busier data channel's beats
  double bus_utilization = 0.0;     ///< data_beats / cycles: against one beat a cycle
  std::uint64_t race_writes = 0, race_gos = 0, race_gos_ignored = 0;
};

/// The writes of the GO race for `d`: a GO at once, then the registers of a
/// different move (every field changed) ending with its GO. Sent while
/// `d` runs, none of them may start a move or change what `d` does.
std::vector<mover::RegWrite> go_race_writes(const SystemNodeSpec& spec, const mover::MoveDescriptor& d);

/// The checker's longest burst for a move: its burst cap (MOVE.flags).
unsigned burst_cap(const SystemNodeSpec& spec, const mover::MoveDescriptor& d);

/// Run the move on the simulator: the memory image (its base, bytes and
/// injected SLVERR words) behind the AXI memory. Throws Error("rtl.run")
/// when the simulator cannot run or writes no result, Error("rtl.interrupted")
/// on SIGINT, Error("mover.value") when a field of `d` does not fit.
MoverRtlResult run_mover_rtl(const std::filesystem::path& sim, const SystemNodeSpec& spec,
                             const mover::MoveDescriptor& d, const mover::MoverMemory& memory,
                             const MoverRunConditions& conditions, const MoverRtlOptions& options = {});

/// The RTL against the model on one move, as mover-notes §4 allows: the
/// fault equal; moves_done equal; unless the fault is AXI_RESPONSE (what was
/// written before it is implementation-dependent) or the model flagged a
/// read after a write (timing-dependent data), the whole memory image equal.
struct MoverComparison {
  bool memory_compared = false;
  std::uint64_t words_differing = 0;
  std::vector<std::string> differences;  ///< empty when they agree
  [[nodiscard]] bool match() const { return differences.empty(); }
};
MoverComparison compare_mover_runs(const SystemNodeSpec& spec, const mover::MoveResult& model,
                                   const mover::MoverMemory& model_memory, const MoverRtlResult& rtl);

}  // namespace tpugen::sim
