/// @file noc_emitters.h
/// @brief The NoC's generated modules: what the spec decides. The router
/// itself is hand-written (rtl/noc/tpu_noc_router.sv) over the shared
/// primitives (rtl/prim); these give it its package, its routing and its
/// endpoint check, and wire the mesh.
#pragma once

#include <string>

#include "hdl/noc/noc_context.h"

namespace tpugen::hdl {

/// tpu_noc_pkg: the flit's fields, the types, every payload layout, signals,
/// error rules, control registers, the address map, the ports, the build
/// parameters and the crossbar's turns.
std::string emit_tpu_noc_pkg(const NocContext& ctx);
/// tpu_noc_route: the routing function (ROUTING) as a one-hot output port.
std::string emit_tpu_noc_route(const NocContext& ctx);
/// tpu_noc_check: the local port's check, the spec's error rules in order,
/// and the ERROR flit that replaces a malformed flit.
std::string emit_tpu_noc_check(const NocContext& ctx);
/// tpu_noc_mesh: NX x NY routers, their links per the spec's ports, the
/// edges tied off and a local port per node.
std::string emit_tpu_noc_mesh(const NocContext& ctx);

}  // namespace tpugen::hdl
