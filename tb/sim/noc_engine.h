/// @file noc_engine.h
/// @brief A generated NoC fabric under Verilator: built once per
/// configuration through the engine's cache (rtl_engine.h: cached_sim_build),
/// with the NoC harness (tb/sim/noc/noc_main.cpp), and run on a list of
/// injections, giving the same RunLog as the delivery model
/// (tb/model/noc/mesh_model.h), for the same scoreboard.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "hdl/noc/noc_context.h"
#include "model/noc/noc_run.h"
#include "noc/routing.h"
#include "sim/rtl_engine.h"

namespace tpugen::sim {

/// The harness's configuration header (noc_config.h): the mesh's size, the
/// flit's width and the number of ports, from the context.
std::string noc_config_header(const hdl::NocContext& ctx);

/// The NoC harness: noc_main.cpp and what it includes; with `waveform`,
/// built with FST tracing (a separate, slower simulator).
Harness noc_harness(bool waveform);

/// How a NoC simulator is built.
struct NocSimOptions {
  bool waveform = false;   ///< with FST tracing (a separate, slower simulator)
  bool assertions = true;  ///< the RTL's assertions compiled in; off: faster, the scoreboard still checks every flit
  /// The C++ optimisation level (0 .. 3) of the mesh's model. On the 4 x 4
  /// mesh at DEPTH 32 with assertions, compiled by clang++ 14: -O3 builds in
  /// about 39 CPU s, -O1 in about 28 and runs at about four fifths of -O3's
  /// speed, -O0 in 21 at a ninth of it (g++ 12 took 103 CPU s at -O3).
  int opt_level = 3;
};

/// Generate the fabric (hdl::generate_noc) and build its simulator, cached
/// by the spec's hash, the parameters, the defect, the tpugen version, the
/// options and the contents of everything compiled. Returns its path.
std::filesystem::path ensure_noc_simulator(const hdl::NocContext& ctx, const std::filesystem::path& build_root,
                                           const BuildProgress& progress, const NocSimOptions& options = {});

struct NocRtlOptions {
  std::string trace;     ///< an FST file to write (a simulator built with the waveform), or empty
  std::string work_dir;  ///< keep the run's files here (default: a temporary directory, removed)
};

/// Run the simulator on the injections. Throws Error("rtl.run") when it
/// cannot run or writes no log, Error("rtl.interrupted") on SIGINT.
noc::RunLog run_noc_rtl(const std::filesystem::path& sim, const noc::Codec& codec, const noc::Mesh& mesh,
                        const std::vector<noc::Injection>& traffic, const noc::RunConditions& conditions,
                        const NocRtlOptions& options);

}  // namespace tpugen::sim
