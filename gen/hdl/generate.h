/// @file generate.h
/// @brief `tpugen gen`: every module, the shared primitives, the filelist
/// and the resolved parameters, written to one directory.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hdl/rtl_context.h"

namespace tpugen::hdl {

struct Emitter {
  const char* module;       ///< the module (and file stem) it writes
  const char* description;  ///< one line, for --help and the file header
  std::function<std::string(const RtlContext&)> emit;
  bool axi_only = false;    ///< part of the AXI top only (--top axi)
};

/// The generated modules, in dependency order (package first, top last).
const std::vector<Emitter>& emitters();

/// The hand-written primitives copied into every output (rtl/*.sv), and
/// for the AXI top also rtl/axi/*.sv.
std::vector<std::string> primitive_files(TopKind top = TopKind::Core);

/// Write the package, the primitives, every module, `files.f` (in compile
/// order) and `params.json` to `out_dir` (created if needed). Returns the
/// paths written. Byte-identical for identical inputs.
std::vector<std::string> generate(const RtlContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
