/// @file system_node_generate.h
/// @brief `tpugen sysnode gen`: the whole system node (tpu_noc_system_node:
/// the memory agent and the memory mover joined onto one AXI4 master port by
/// tpu_axi_mux) as one configuration: both generated packages, the shared
/// primitives, rtl/axi, rtl/mover, rtl/agent and rtl/sysnode, files.f and
/// params.json, by the same writer as every configuration (hdl/generate.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/generate.h"
#include "hdl/sysnode/sysnode_context.h"

namespace tpugen::hdl {

/// The system node's top module.
inline constexpr std::string_view kSystemNodeTop = "tpu_noc_system_node";

/// Every hand-written file of a system node, each once, in compile order:
/// the mover's and the agent's files, the multiplexer, then rtl/sysnode.
std::vector<std::string> system_node_rtl_files();

/// The system node's files in compile order: both packages, then
/// system_node_rtl_files() (a defect of the context's applied).
std::vector<ConfigFile> system_node_config_files(const SysnodeContext& ctx);

/// Write the system node to `out_dir`. A defect (the context's) applies to
/// whichever of its files carries it. Returns the paths written.
/// Byte-identical for identical inputs.
std::vector<std::string> generate_system_node(const SysnodeContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
