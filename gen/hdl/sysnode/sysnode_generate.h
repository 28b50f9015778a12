/// @file sysnode_generate.h
/// @brief `tpugen mover gen`: the mover's package, the shared primitives and
/// the hand-written mover, files.f and params.json, written to one directory
/// by the same writer as the core's and the NoC's (hdl/generate.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/generate.h"
#include "hdl/sysnode/sysnode_context.h"

namespace tpugen::hdl {

/// The folders under rtl/ whose hand-written files a mover holds.
const std::vector<std::string_view>& mover_rtl_dirs();
/// Every hand-written file of a mover: the package-free AXI primitives of
/// rtl/axi (tpu_axi_beats, tpu_axi_burst, tpu_axi_rd, tpu_axi_wr), then those
/// folders' files.
std::vector<std::string> mover_rtl_files();

/// The mover's top module.
inline constexpr std::string_view kMoverTop = "tpu_noc_mover";

/// The text of one module of the mover (the package included); throws
/// Error("gen.module") for a module it does not have.
std::string mover_module_text(const SysnodeContext& ctx, std::string_view module);

/// Hand-written files as a configuration's files, the context's defect
/// applied (what the mover's, the agent's and the system node's writers share).
std::vector<ConfigFile> hand_written_configs(const SysnodeContext& ctx, const std::vector<std::string>& paths);

/// params.json of a system-node configuration: its top, both specs and their
/// hashes, the generator, the mover's and/or the agent's build parameters (the
/// agent's as AGENT_<NAME> beside the mover's), the derived widths, the defect.
std::string sysnode_params_json(const SysnodeContext& ctx, std::string_view top, bool mover, bool agent);

/// Write the mover to `out_dir`. Returns the paths written. Byte-identical
/// for identical inputs.
std::vector<std::string> generate_mover(const SysnodeContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
