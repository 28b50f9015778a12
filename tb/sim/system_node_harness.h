/// @file system_node_harness.h
/// @brief A unit's harness run through the whole system node: the system
/// node's configuration (hdl::generate_system_node) with a harness-only top
/// of tb/sim/sysnode/ that gives tpu_noc_system_node the unit's own port names
/// (the other unit idle) and the node's two-bit AXI IDs. The mover's and the
/// agent's engines build their simulators so with `system_node` set, and
/// alone without it, through build_unit_simulator.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "hdl/sysnode/sysnode_context.h"
#include "sim/rtl_engine.h"

namespace tpugen::sim {

/// The harness tops: the mover's and the agent's.
inline constexpr std::string_view kSysnodeMoverTop = "tpu_sysnode_mover_sim";
inline constexpr std::string_view kSysnodeAgentTop = "tpu_sysnode_agent_sim";
/// The AXI ID bits of the system node's port ({master, the master's ID}).
inline constexpr unsigned kSysnodeIdBits = 2;

/// Write the system node's configuration into `dir`, then `top`'s file
/// (tb/sim/sysnode/<top>.sv), listed last in files.f.
void populate_system_node(const hdl::SysnodeContext& ctx, const std::filesystem::path& dir, std::string_view top);

/// A system node unit's simulator (the mover's, the agent's): what is the
/// unit's own, and the options it is built with.
struct UnitSimBuild {
  std::string_view config_file;  ///< the harness's configuration header ("agent_config.h")
  /// That header's text, for the unit alone or inside the system node.
  std::function<std::string(bool system_node)> config;
  /// Generate the unit alone into a directory (its RTL and files.f).
  std::function<void(const std::filesystem::path& dir)> generate;
  std::string_view unit_top;     ///< the top of the unit alone
  std::string_view sysnode_top;  ///< the harness top inside the system node
  std::string key_text;          ///< what identifies the build besides the defect and the options
  std::string description;       ///< for the progress line, e.g. "the memory agent, MEM_PORTS=2"
  Harness harness;               ///< the unit's harness, built with the waveform when it is asked for
  bool waveform = false;         ///< with FST tracing (a separate simulator)
  bool assertions = true;        ///< the RTL's assertions compiled in
  bool system_node = false;      ///< inside the whole system node (through `sysnode_top`)
};

/// Build the unit's simulator through the engine's cache (cached_sim_build,
/// under the absolute `build_root`): the configuration header, then the
/// unit alone or the system node with its harness top; keyed by
/// `unit.key_text`, the context's defect and the options. Returns its path.
std::filesystem::path build_unit_simulator(const hdl::SysnodeContext& ctx, const std::filesystem::path& build_root,
                                           const BuildProgress& progress, const UnitSimBuild& unit);

}  // namespace tpugen::sim
