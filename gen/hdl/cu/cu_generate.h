/// @file cu_generate.h
/// @brief The compute units' RTL as one configuration: the fabric's package
/// (tpu_noc_pkg, for the flit's fields and codes), tpu_cu_pkg, the shared
/// primitives and rtl/cu (the CU wrapper, the orchestrator), files.f and
/// params.json, by the same writer as every configuration (hdl/generate.h).
#pragma once

#include <string>
#include <vector>

#include "hdl/cu/cu_context.h"
#include "hdl/noc/noc_context.h"
#include "hdl/rtl_context.h"

namespace tpugen::hdl {

/// The hand-written files: rtl/prim, then rtl/cu, in compile order.
std::vector<std::string> cu_rtl_files();

/// Write the configuration to `out_dir`, `top` named in params.json; with
/// `core`, the core's configuration first (the TinyTPU unit instantiates
/// tpu_top). Returns the paths written. Byte-identical for identical inputs.
std::vector<std::string> generate_cu(const NocContext& noc, const CuContext& ctx, const std::string& top,
                                     const std::string& out_dir, const RtlContext* core = nullptr);

}  // namespace tpugen::hdl
