/// @file core_ports.h
/// @brief The core's interfaces (spec: interfaces) as port lists: status,
/// imem (program reads), dram_rd (operand reads) and dram_wr (result writes).
/// tpu_top declares them, the sequencer and the units that own them declare
/// them again and pass them on to their hand-written halves (tpu_seq_fetch,
/// tpu_dma_rd, tpu_dma_wr), all from the spec's one list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/core/unit_decode.h"

namespace tpugen::hdl {

/// The ports of the spec's interface `name`, for render_ports.
std::vector<PortDecl> interface_ports(const Spec& spec, std::string_view name);

/// `<stream>_valid_? & <stream>_ready_?` over the spec's port names (their
/// directions as the spec gives them): the handshake of one of the core's
/// streams, e.g. "dram_wr_rsp". Throws Error("rtl.spec") when the spec's
/// interfaces lack either port.
std::string handshake(const Spec& spec, std::string_view stream);

/// The ports' connections by name (`.name`), one a line at `indent`, each
/// followed by a comma; comment lines are skipped.
std::string connect_by_name(const std::vector<PortDecl>& ports, std::string_view indent = "    ");

}  // namespace tpugen::hdl
