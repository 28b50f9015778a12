/// @file memory_ports.h
/// @brief The core's memory interfaces, one port list each: imem (program
/// reads), dram_rd (operand reads) and dram_wr (result writes). tpu_top
/// declares them, the sequencer and the units that own them pass them on to
/// their hand-written halves (tpu_seq_fetch, tpu_dma_rd, tpu_dma_wr), and the
/// AXI top connects them to its masters, all from these lists.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/core/unit_decode.h"

namespace tpugen::hdl {

/// imem: beat requests (the word index of the beat) and responses in order.
std::vector<PortDecl> imem_ports();
/// dram_rd: operand read requests (which matrix, byte offset) and responses.
std::vector<PortDecl> dram_rd_ports();
/// dram_wr: result writes (byte offset, data, strobes) and their acknowledgements.
std::vector<PortDecl> dram_wr_ports();

/// The ports' connections by name (`.name`), one a line at `indent`, each
/// followed by a comma; comment lines are skipped.
std::string connect_by_name(const std::vector<PortDecl>& ports, std::string_view indent = "    ");

}  // namespace tpugen::hdl
