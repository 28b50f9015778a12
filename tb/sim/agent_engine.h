/// @file agent_engine.h
/// @brief The memory agent (tpu_noc_mem_agent) under Verilator: built once
/// per configuration through the engine's cache (rtl_engine.h:
/// cached_sim_build) with the agent's harness (tb/sim/agent/agent_main.cpp),
/// and run on a stimulus (every port's flits, with their gaps, over a memory
/// image) behind the AXI4 memory model, with the protocol checker on the
/// agent's master port and random backpressure on its NoC outputs.
/// compare_agent_runs holds the run to the reference model
/// (tb/model/agent/agent_run.h) as the comparison contract allows.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hdl/sysnode/sysnode_context.h"
#include "model/agent/agent_run.h"
#include "noc/codec.h"
#include "sim/harness_run.h"
#include "sim/rtl_engine.h"

namespace tpugen::sim {

/// The harness's configuration header (agent_config.h): the ports, the flit
/// and node widths, the AXI port's widths, from the specs and the build
/// parameters.
std::string agent_config_header(const hdl::SysnodeContext& ctx, bool system_node = false);

/// The agent's harness: agent_main.cpp and what it includes; with
/// `waveform`, built with FST tracing (a separate simulator).
Harness agent_harness(bool waveform);

/// How an agent simulator is built.
struct AgentSimOptions {
  bool waveform = false;   ///< with FST tracing (a separate simulator)
  bool assertions = true;  ///< the RTL's assertions compiled in
  /// The agent inside the whole system node (tpu_noc_system_node, the mover
  /// idle, through tb/sim/sysnode/tpu_sysnode_agent_sim.sv): its AXI4 traffic
  /// through the multiplexer, with the master's ID prefix.
  bool system_node = false;
};

/// Generate the agent (hdl::generate_agent) and build its simulator, top
/// tpu_noc_mem_agent, cached by the specs' hashes, the agent's build
/// parameters, the defect, the tpugen version, the options and the contents
/// of everything compiled. Returns its path.
std::filesystem::path ensure_agent_simulator(const hdl::SysnodeContext& ctx, const std::filesystem::path& build_root,
                                             const BuildProgress& progress, const AgentSimOptions& options = {});

/// The conditions of one RTL run: the AXI memory's timing, the outputs'
/// backpressure, the randomness, the limits.
struct AgentRunConditions {
  unsigned latency = 0;                ///< cycles from AR / last W to R / B, beyond the next cycle
  double ready_stall = 0.0;            ///< 0..1: ARREADY, AWREADY, WREADY withheld in a cycle
  double valid_stall = 0.0;            ///< 0..1: the raising of RVALID, BVALID delayed in a cycle
  unsigned max_reads = 16;             ///< read bursts the memory accepts and has not answered
  unsigned max_writes = 16;            ///< write bursts whose B is not taken
  std::vector<double> backpressure;    ///< per port, 0..1: out_ready_i low in a cycle (missing: 0)
  std::uint64_t seed = 1;              ///< the memory's and the backpressure's randomness, the random initial state
  std::uint64_t max_cycles = 1000000;  ///< give up (status timeout)
  std::uint64_t watchdog = 5000;       ///< cycles with nothing moving, the agent not idle, before status hang
};

struct AgentRtlOptions {
  std::string trace;     ///< an FST file to write (a simulator built with the waveform), or empty
  std::string work_dir;  ///< keep the run's files here (default: a temporary directory, removed)
};

/// A flit a port sent, with the requester it answers (out_src_o).
struct AgentSent {
  unsigned port = 0;
  noc::Coord requester;
  noc::Flit flit;
};

/// What one RTL run gave (status: done, hang, timeout or assertion).
struct AgentRtlResult : HarnessRunResult {
  std::uint64_t cycles = 0;
  std::vector<AgentSent> sent;                    ///< in the order sent (per port in order; ports interleaved by cycle)
  std::vector<std::uint64_t> taken, busy_cycles;  ///< per port
  /// Per port: stray, discarded, errors in, last mismatches (16 bits, wrapping).
  std::vector<std::array<std::uint64_t, 4>> counters;
  std::uint64_t read_beats = 0, write_beats = 0;
};

/// Run the stimulus on the simulator. Throws Error("rtl.run") when the
/// simulator cannot run or writes no result (or a stimulus does not fit the
/// configuration: more ports than MEM_PORTS), Error("rtl.interrupted") on
/// SIGINT.
AgentRtlResult run_agent_rtl(const std::filesystem::path& sim, const noc::Codec& codec,
                             const agent::AgentStimulus& stimulus, const AgentRunConditions& conditions,
                             const AgentRtlOptions& options = {});

/// The RTL against the model, as the comparison contract allows: per port
/// and per (requesting source, destination), the RTL's flits (grouped by the
/// requester out_src_o names) equal the model's, in order; every port's
/// counters equal the model's (mod 2^16); the memory image equal but for the
/// unsettled words; no flit of a pair the model has none for.
struct AgentComparison {
  std::uint64_t flits_compared = 0, words_compared = 0, words_differing = 0;
  std::vector<std::string> differences;  ///< empty when they agree
  [[nodiscard]] bool match() const { return differences.empty(); }
};
AgentComparison compare_agent_runs(const noc::Codec& codec, const agent::AgentStimulus& stimulus,
                                   const agent::AgentExpectation& model, const AgentRtlResult& rtl);

}  // namespace tpugen::sim
