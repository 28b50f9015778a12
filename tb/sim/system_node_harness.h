/// @file system_node_harness.h
/// @brief A unit's harness run through the whole system node: the system
/// node's configuration (hdl::generate_system_node) with a harness-only top
/// of tb/sim/sysnode/ that gives tpu_noc_system_node the unit's own port names
/// (the other unit idle) and the node's two-bit AXI IDs. The mover's and the
/// agent's engines build their simulators so with `system_node` set.
#pragma once

#include <filesystem>
#include <string_view>

#include "hdl/sysnode/sysnode_context.h"

namespace tpugen::sim {

/// The harness tops: the mover's and the agent's.
inline constexpr std::string_view kSysnodeMoverTop = "tpu_sysnode_mover_sim";
inline constexpr std::string_view kSysnodeAgentTop = "tpu_sysnode_agent_sim";
/// The AXI ID bits of the system node's port ({master, the master's ID}).
inline constexpr unsigned kSysnodeIdBits = 2;

/// Write the system node's configuration into `dir`, then `top`'s file
/// (tb/sim/sysnode/<top>.sv), listed last in files.f.
void populate_system_node(const hdl::SysnodeContext& ctx, const std::filesystem::path& dir, std::string_view top);

}  // namespace tpugen::sim
