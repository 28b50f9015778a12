/// @file cu_system_generate.h
/// @brief `tpugen noc gen --cores K`: a whole system of compute units as one
/// configuration: the core's files, the fabric's (tpu_noc_mesh), the system
/// node's, the compute units' and the generated top tpu_noc_cu_system that
/// places them by noc::make_layout: a TinyTPU unit (tpu_noc_tinytpu_cu) on
/// each unit's node, the system node's agent ports and the orchestrator on
/// theirs, one AXI4 master to memory and the AXI4-Lite host port.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/cu/cu_context.h"
#include "hdl/noc/noc_context.h"
#include "hdl/rtl_context.h"
#include "hdl/sysnode/sysnode_context.h"
#include "noc/placement.h"

namespace tpugen::hdl {

/// The system's top module.
inline constexpr std::string_view kCuSystemTop = "tpu_noc_cu_system";

/// Everything a system is generated from; every reference must outlive it.
/// The layout's mesh is the fabric's and its agent ports the agent's
/// MEM_PORTS (Error("gen.cu") otherwise).
struct CuSystemContext {
  const RtlContext& core;
  const NocContext& noc;
  const SysnodeContext& sysnode;
  const CuContext& cu;
  noc::SystemLayout layout;
};

/// The text of tpu_noc_cu_system.
std::string emit_tpu_noc_cu_system(const CuSystemContext& ctx);

/// Write the system to `out_dir`: every file of its parts once, in compile
/// order, the top last; params.json with every part's parameters and the
/// layout. Returns the paths written. Byte-identical for identical inputs.
std::vector<std::string> generate_cu_system(const CuSystemContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
