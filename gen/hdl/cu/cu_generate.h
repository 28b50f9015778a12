/// @file cu_generate.h
/// @brief The compute units' RTL as one configuration: the fabric's package
/// (tpu_noc_pkg, for the flit's fields and codes), tpu_cu_pkg, the shared
/// primitives and rtl/cu (the CU wrapper, the orchestrator), files.f and
/// params.json, by the same writer as every configuration (hdl/generate.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hdl/cu/cu_context.h"
#include "hdl/generate.h"
#include "hdl/noc/noc_context.h"
#include "hdl/rtl_context.h"

namespace tpugen::hdl {

/// The hand-written files: rtl/prim, then rtl/cu, in compile order.
std::vector<std::string> cu_rtl_files();

/// Whether a hand-written rtl/cu file (by its stem) needs the core's
/// configuration before it: the TinyTPU unit and its node wrapper do.
bool cu_file_needs_core(std::string_view stem);

/// Append the files of `more` whose names `files` does not hold yet (a
/// primitive two parts share is written once, where it first comes).
void append_new(std::vector<ConfigFile>& files, std::vector<ConfigFile> more);

/// The compute units' files in compile order: tpu_noc_pkg, tpu_cu_pkg,
/// rtl/prim and rtl/cu (the TinyTPU unit and its node only `with_unit`: they
/// need the core's files before them).
std::vector<ConfigFile> cu_config_files(const CuContext& ctx, const NocContext& noc, bool with_unit);

/// params.json's object for a compute-units configuration: its top, the
/// specs and their hashes, the generator, the fabric's, the wrapper's
/// (CU_...) and the orchestrator's (ORCH_...) parameters.
nlohmann::ordered_json cu_params_json(const CuContext& ctx, const NocContext& noc, const std::string& top);

/// Write the configuration to `out_dir`, `top` named in params.json; with
/// `core`, the core's configuration first (the TinyTPU unit instantiates
/// tpu_top). Returns the paths written. Byte-identical for identical inputs.
std::vector<std::string> generate_cu(const NocContext& noc, const CuContext& ctx, const std::string& top,
                                     const std::string& out_dir, const RtlContext* core = nullptr);

}  // namespace tpugen::hdl
