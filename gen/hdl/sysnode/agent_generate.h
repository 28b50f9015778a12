/// @file agent_generate.h
/// @brief `tpugen agent gen`: the memory agent (tpu_noc_mem_agent) as one
/// configuration: its generated package tpu_agent_pkg, the shared
/// primitives, the package-free AXI adapters of rtl/axi and the hand-written
/// agent of rtl/agent, files.f and params.json, written by the same writer
/// as the core's, the NoC's and the mover's (hdl/generate.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/sysnode/sysnode_context.h"

namespace tpugen::hdl {

/// tpu_agent_pkg: what the agent reads of the specs, by name: the flit's
/// header fields and the mem_req, data and error payloads' field positions
/// (through the flit codec), the message types it takes and sends, its error
/// rules' codes and the order they are checked in, write_max_len, the served
/// addresses as a mask and value, the AXI rules and this build's MEM_PORTS,
/// INTAKE_DEPTH, WR_SLOTS and RD_BURSTS. Throws Error("gen.agent") when the
/// specs lack what the hand-written agent needs (a type, a field, a rule it
/// has no meaning for, a served field below the word's alignment).
std::string emit_tpu_agent_pkg(const SysnodeContext& ctx);

/// The agent's top module.
inline constexpr std::string_view kAgentTop = "tpu_noc_mem_agent";

/// Every hand-written file of an agent: the AXI adapters it uses
/// (tpu_axi_beats, tpu_axi_burst, tpu_axi_rd, tpu_axi_wr), rtl/prim, then
/// rtl/agent (the top last).
std::vector<std::string> agent_rtl_files();

/// The text of one module of the agent (the package included); throws
/// Error("gen.module") for a module it does not have.
std::string agent_module_text(const SysnodeContext& ctx, std::string_view module);

/// Write the agent to `out_dir`. Throws Error("rtl.inject") when the
/// context's defect is not one of the agent's files. Returns the paths
/// written. Byte-identical for identical inputs.
std::vector<std::string> generate_agent(const SysnodeContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
