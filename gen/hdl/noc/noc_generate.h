/// @file noc_generate.h
/// @brief `tpugen noc gen`: a fabric's package, the shared primitives, the
/// router and the generated modules, files.f and params.json, written to one
/// directory by the same writer as the core's (hdl/generate.h), after the
/// routing's deadlock check.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/generate.h"
#include "hdl/noc/noc_context.h"

namespace tpugen::hdl {

/// One module of the fabric: generated (`emit`) or hand-written (`source`
/// under rtl/).
struct NocModule {
  std::string_view module;
  std::string_view description;
  std::string (*emit)(const NocContext&) = nullptr;
  std::string_view source = {};
};

/// The fabric's modules after its package and the primitives, in order (the
/// mesh, its top, last).
const std::vector<NocModule>& noc_modules();

/// The folders under rtl/ whose hand-written primitives a fabric holds.
const std::vector<std::string_view>& noc_rtl_dirs();

/// The text of one module of the fabric (the package included); throws
/// Error("gen.module") for a module it does not have.
std::string noc_module_text(const NocContext& ctx, std::string_view module);

/// The fabric's files in compile order: its package, the primitives, the
/// router, the generated modules (the mesh last).
std::vector<ConfigFile> noc_config_files(const NocContext& ctx);

/// Check the routing for deadlock over the mesh (Error("noc.deadlock")
/// naming the cycle), then write the fabric to `out_dir`. Returns the paths
/// written. Byte-identical for identical inputs.
std::vector<std::string> generate_noc(const NocContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
