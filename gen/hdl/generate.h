/// @file generate.h
/// @brief `tpugen gen`: every module, the shared primitives, the filelist
/// and the resolved parameters, written to one directory.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hdl/rtl_context.h"

namespace tpugen::hdl {

struct Emitter {
  const char* module;       ///< the module (and file stem) it writes
  const char* description;  ///< one line, for --help and the file header
  std::function<std::string(const RtlContext&)> emit;
};

/// Every module an emitter writes; which of them a configuration holds, and
/// in which order, is its top's list (tops.h).
const std::vector<Emitter>& emitters();
/// The emitter of a module; throws Error("gen.module") for an unknown one.
const Emitter& emitter(std::string_view module);

/// The hand-written primitives a top's configurations hold: every .sv file of
/// its rtl/ folders (tops.h), by name within each folder.
std::vector<std::string> primitive_files(TopKind top = TopKind::Core);

/// Write the package, the primitives, every module, `files.f` (in compile
/// order) and `params.json` to `out_dir` (created if needed). Returns the
/// paths written. Byte-identical for identical inputs.
std::vector<std::string> generate(const RtlContext& ctx, const std::string& out_dir);

}  // namespace tpugen::hdl
