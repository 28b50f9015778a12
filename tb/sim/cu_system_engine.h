/// @file cu_system_engine.h
/// @brief The RTL engine of a system of compute units on the mesh: the
/// system (hdl::generate_cu_system, top tpu_noc_cu_system) verilated with its
/// harness (tb/sim/cu/cu_system_main.cpp) into one simulator per
/// configuration through the engine's cache (rtl_engine.h: cached_sim_build),
/// and a run of it that a host drives register by register: the same host
/// (model/cu/cu_program.h: HostPort, host_dispatch) that drives the model.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hdl/cu/cu_system_generate.h"
#include "model/cu/cu_program.h"
#include "noc/codec.h"
#include "sim/harness_run.h"
#include "sim/rtl_engine.h"

namespace tpugen {
class Conversation;
}

namespace tpugen::sim {

/// The harness's configuration header (cu_system_config.h) for a system.
std::string cu_system_config_header(const hdl::CuSystemContext& ctx);

struct CuSystemSimOptions {
  bool waveform = false;   ///< with FST tracing (a separate simulator)
  bool assertions = true;  ///< the RTL's assertions compiled in
};

/// Generate the system and build its simulator, cached by everything it is
/// generated from, the options and the contents of everything compiled.
/// Returns its path.
std::filesystem::path ensure_cu_system_simulator(const hdl::CuSystemContext& ctx,
                                                 const std::filesystem::path& build_root,
                                                 const BuildProgress& progress, const CuSystemSimOptions& options = {});

/// The conditions of one run: the AXI memory's timing, the host's pace, the
/// randomness, the limit.
struct CuSystemConditions {
  unsigned latency = 0;       ///< cycles from AR / last W to R / B, beyond the next cycle
  double ready_stall = 0.0;   ///< 0..1: ARREADY, AWREADY, WREADY withheld in a cycle
  double valid_stall = 0.0;   ///< 0..1: the raising of RVALID, BVALID delayed in a cycle
  unsigned max_reads = 64;    ///< read bursts the memory accepts and has not answered
  unsigned max_writes = 64;   ///< write bursts whose B is not taken
  unsigned host_delay = 0;    ///< the host's valids rise 0..host_delay cycles after they may
  double host_stall = 0.0;    ///< 0..1: the host's BREADY, RREADY withheld in a cycle
  std::uint64_t seed = 1;     ///< the memory's and the host's randomness, the random initial state
  std::uint64_t timeout = 2000000;  ///< cycles the host waits in all (advance() gives up after them)
  std::uint64_t advance = 512;      ///< cycles an advance() runs at most
  std::string trace;     ///< an FST file to write (a simulator built with the waveform), or empty
  std::string work_dir;  ///< keep the run's files here (default: a temporary directory, removed)
};

/// A flit the orchestrator took from the mesh, and when.
struct CuSystemRx {
  std::uint64_t cycle = 0;
  noc::Flit flit;
};

/// What a run gave (status: done, timeout or assertion).
struct CuSystemRtlResult : HarnessRunResult {
  std::uint64_t cycles = 0;
  std::optional<std::uint64_t> first_inject;  ///< the orchestrator's first flit into the mesh
  std::uint64_t last_rx = 0;
  std::vector<std::uint64_t> busy;      ///< per unit: cycles it executed
  std::vector<std::uint64_t> injected;  ///< per node: flits it sent into the mesh
  std::vector<CuSystemRx> rx;           ///< every flit the orchestrator took, in order
};

/// One run of the simulator, live: port() is the host's way in; finish()
/// ends it and reads the result. Throws Error("rtl.run") when the simulator
/// cannot run or does not answer as its protocol says (cu_system_wire.h).
class CuSystemRun {
 public:
  CuSystemRun(const std::filesystem::path& sim, std::span<const std::uint8_t> image, const CuSystemConditions& c);
  ~CuSystemRun();
  CuSystemRun(const CuSystemRun&) = delete;
  CuSystemRun& operator=(const CuSystemRun&) = delete;

  /// The host's port: register writes and reads over AXI4-Lite, and an
  /// advance that runs the system up to `advance` cycles (less when a flit
  /// reaches the orchestrator) and is false once the timeout has passed or
  /// the run stopped.
  cu::HostPort port();
  /// The cycle the system is at.
  [[nodiscard]] std::uint64_t cycle() const { return cycle_; }
  /// The flits the orchestrator took so far.
  [[nodiscard]] const std::vector<CuSystemRx>& rx() const { return rx_; }
  /// End the run and read its result and the memory after it.
  CuSystemRtlResult finish();

 private:
  std::string ask(const std::string& command);

  CuSystemConditions conditions_;
  std::unique_ptr<RunDir> dir_;
  std::unique_ptr<Conversation> sim_;
  std::filesystem::path sim_path_;
  std::uint64_t cycle_ = 0;
  std::string stopped_;  ///< the stop answer, once the run stopped
  std::vector<CuSystemRx> rx_;
};

}  // namespace tpugen::sim
