/// @file sysnode_emitters.h
/// @brief The system node's generated modules: one function each, returning
/// the whole file text (the first line ctx.file_header()).
#pragma once

#include <string>

#include "hdl/sysnode/sysnode_context.h"

namespace tpugen::hdl {

std::string emit_tpu_mover_pkg(const SysnodeContext& ctx);  ///< the mover's constants

}  // namespace tpugen::hdl
