#include "hdl/core/memory_ports.h"

#include <fmt/format.h>

namespace tpugen::hdl {

std::vector<PortDecl> imem_ports() {
  return {{"output", "logic", "imem_req_valid_o", ""},
          {"input", "logic", "imem_req_ready_i", ""},
          {"output", "logic [15:0]", "imem_req_addr_o", "word index of the beat"},
          {"input", "logic", "imem_rsp_valid_i", ""},
          {"output", "logic", "imem_rsp_ready_o", ""},
          {"input", "logic [tpu_pkg::WORD_W*ImemBeat-1:0]", "imem_rsp_data_i", "ImemBeat words, in order"}};
}

std::vector<PortDecl> dram_rd_ports() {
  return {{"output", "logic", "dram_rd_req_valid_o", ""},
          {"input", "logic", "dram_rd_req_ready_i", ""},
          {"output", "logic", "dram_rd_req_sel_o", "the source memory, in spec memory order"},
          {"output", "logic [31:0]", "dram_rd_req_addr_o", "byte offset, a multiple of DMA_WORDS*T"},
          {"input", "logic", "dram_rd_rsp_valid_i", "responses in request order"},
          {"output", "logic", "dram_rd_rsp_ready_o", ""},
          {"input", "logic [DMA_WORDS*VW-1:0]", "dram_rd_rsp_data_i", "byte b at [8*b +: 8]"}};
}

std::vector<PortDecl> dram_wr_ports() {
  return {{"output", "logic", "dram_wr_req_valid_o", ""},
          {"input", "logic", "dram_wr_req_ready_i", ""},
          {"output", "logic [31:0]", "dram_wr_req_addr_o", "byte offset, a multiple of CBeat*T"},
          {"output", "logic [CBeat*VW-1:0]", "dram_wr_req_data_o", "byte b to addr + b"},
          {"output", "logic [CBeat*T-1:0]", "dram_wr_req_strb_o", "byte b is written iff bit b"},
          {"input", "logic", "dram_wr_rsp_valid_i", "one acknowledgement per write, in order"},
          {"output", "logic", "dram_wr_rsp_ready_o", ""}};
}

std::string connect_by_name(const std::vector<PortDecl>& ports, std::string_view indent) {
  std::string o;
  for (const auto& p : ports)
    if (!p.dir.empty()) o += fmt::format("{}.{},\n", indent, p.name);
  return o;
}

}  // namespace tpugen::hdl
