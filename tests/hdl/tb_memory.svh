// tb_memory.svh: the memory models' data paths the testbenches of tests/hdl
// share (Icarus -g2012): macros on the module's own memory arrays, so a
// testbench takes only those it has memories for, and the DRAM ports' signals
// and connections. Each names what it needs declared before it (the DRAM
// widths RW, WW and Bytes: tb_dram_params.svh).

// imem_beat(addr): ImemBeat 64-bit words of imem from word `addr`, zero
// past the end. Needs ImemBeat, ImemWords and logic [63:0] imem [ImemWords].
`define TB_IMEM_BEAT \
  function automatic logic [64*ImemBeat-1:0] imem_beat(input int addr); \
    for (int k = 0; k < ImemBeat; k++) imem_beat[64*k +: 64] = (addr + k < ImemWords) ? imem[addr + k] : 64'd0; \
  endfunction

// BEAT = RW/8 bytes of A (SEL 0) or B (SEL 1) from byte ADDR, zero past the
// end. Needs RW, Bytes and logic [7:0] mem_a, mem_b [Bytes]. (A statement,
// not a function: a testbench drawing random numbers in the same process
// keeps the order Icarus runs its processes in.)
`define TB_DRAM_READ(BEAT, SEL, ADDR) \
  for (int b_ = 0; b_ < RW / 8; b_++) \
    BEAT[8*b_ +: 8] = ((ADDR) + b_ >= Bytes) ? 8'd0 : (SEL) ? mem_b[(ADDR) + b_] : mem_a[(ADDR) + b_];

// The strobed bytes of a WW/8-byte beat DATA into C from byte ADDR, none
// past the end. Needs WW, Bytes and logic [7:0] mem_c [Bytes]. (A statement,
// as TB_DRAM_READ.)
`define TB_DRAM_WRITE(ADDR, DATA, STRB) \
  for (int b_ = 0; b_ < WW / 8; b_++) \
    if (STRB[b_] && int'(ADDR) + b_ < Bytes) mem_c[int'(ADDR) + b_] = DATA[8*b_ +: 8];

// The DRAM ports of tpu_top, tpu_dma_ld and tpu_dma_st, the testbench's
// signals for them (TB_*_SIGNALS, declared in the module) and the
// instance's connections (TB_*_PORTS).
// Reads: requests (rd_req_sel: B, else A; rd_req_addr: a byte address) and
// RW-bit responses in request order. Needs RW.
`define TB_DRAM_RD_SIGNALS \
  logic          rd_req_valid, rd_req_ready, rd_req_sel; \
  logic [31:0]   rd_req_addr; \
  logic          rd_rsp_valid, rd_rsp_ready; \
  logic [RW-1:0] rd_rsp_data;
`define TB_DRAM_RD_PORTS \
    `TB_HS_OUT(dram_rd_req, rd_req), \
    .dram_rd_req_sel_o(rd_req_sel), \
    .dram_rd_req_addr_o(rd_req_addr), \
    `TB_HS_IN(dram_rd_rsp, rd_rsp), \
    .dram_rd_rsp_data_i(rd_rsp_data)

// Writes: WW-bit beats at a byte address with WW/8 byte strobes, each
// acknowledged, in order. Needs WW.
`define TB_DRAM_WR_SIGNALS \
  logic            wr_req_valid, wr_req_ready; \
  logic [31:0]     wr_req_addr; \
  logic [WW-1:0]   wr_req_data; \
  logic [WW/8-1:0] wr_req_strb; \
  logic            wr_rsp_valid, wr_rsp_ready;
`define TB_DRAM_WR_PORTS \
    `TB_HS_OUT(dram_wr_req, wr_req), \
    .dram_wr_req_addr_o(wr_req_addr), \
    .dram_wr_req_data_o(wr_req_data), \
    .dram_wr_req_strb_o(wr_req_strb), \
    `TB_HS_IN(dram_wr_rsp, wr_rsp)

// The imem port of tpu_top and tpu_sequencer: requests at a 64-bit word
// address, ImemBeat words a response, in request order. Needs ImemBeat.
`define TB_IMEM_SIGNALS \
  logic                   imem_req_valid, imem_req_ready, imem_rsp_valid, imem_rsp_ready; \
  logic [15:0]            imem_req_addr; \
  logic [64*ImemBeat-1:0] imem_rsp_data;
`define TB_IMEM_PORTS \
    `TB_HS_OUT(imem_req, imem_req), \
    .imem_req_addr_o(imem_req_addr), \
    `TB_STREAM_IN(imem_rsp)
