// icarus_tb: runs one program on the generated tpu_top under Icarus Verilog.
//
// The portability gate's simulation half: the same core that Verilator runs
// must compute the same C under a second simulator. Memories answer every
// request one cycle later (latency 0 in the harness's terms) with no
// backpressure. Files are $readmemh images:
//   +IMEM=<file>   64-bit words          +A=<file> +B=<file> +C=<file>  bytes
//   +COUT=<file>   C after the run, one byte per line
//   +MAXCYCLES=<n> give up after n cycles (default 2000000)
// The parameters must match the generated configuration (pass -P to iverilog;
// tb_dram_params.svh: T, MAXDIM, DMA_WORDS, CBeat).
`timescale 1ns / 1ps
module icarus_tb #(
`include "tb_dram_params.svh"
  parameter int ImemBeat  = 8,
  parameter int ImemWords = 4096
);
`include "tb_common.svh"
`include "tb_memory.svh"

  logic start;
  logic busy, done;
  logic [3:0] fault, fault_unit;
  logic [15:0] fault_pc;
  logic [31:0] cycles;
  `TB_IMEM_SIGNALS
  `TB_DRAM_RD_SIGNALS
  `TB_DRAM_WR_SIGNALS
  assign imem_req_ready = 1'b1;
  assign rd_req_ready = 1'b1;
  assign wr_req_ready = 1'b1;

  logic [63:0] imem [ImemWords];
  logic [7:0] mem_a [Bytes];
  logic [7:0] mem_b [Bytes];
  logic [7:0] mem_c [Bytes];
  `TB_IMEM_BEAT

  tpu_top u_dut (
    .clk_i(clk),
    .rst_ni(rst_n),
    .start_i(start),
    .busy_o(busy),
    .done_o(done),
    .fault_o(fault),
    .fault_pc_o(fault_pc),
    .fault_unit_o(fault_unit),
    .progress_o(),
    .header_o(),
    .cycles_o(cycles),
    `TB_IMEM_PORTS,
    `TB_DRAM_RD_PORTS,
    `TB_DRAM_WR_PORTS
  );

  // Response queues: every accepted request is answered, in order, no
  // earlier than the next cycle; a response waits while ready is low.
  // Ring buffers of responses (Icarus 11 cannot drive a port from a queue).
  localparam int Ring = 64;
  logic [64*ImemBeat-1:0] imem_ring [Ring];
  logic [RW-1:0] rd_ring [Ring];
  int imem_head = 0, imem_count = 0, rd_head = 0, rd_count = 0;
  int wr_pending = 0;

  always_comb begin
    imem_rsp_valid = imem_count > 0;
    imem_rsp_data = imem_ring[imem_head];
    rd_rsp_valid = rd_count > 0;
    rd_rsp_data = rd_ring[rd_head];
    wr_rsp_valid = wr_pending > 0;
  end

  // Race-free memory side: sample the handshakes at the falling edge (the
  // values the rising edge will see), apply them just after the rising edge.
  logic s_imem_req, s_imem_rsp, s_rd_req, s_rd_rsp, s_wr_req, s_wr_rsp, s_rd_sel;
  logic [15:0] s_imem_addr;
  logic [31:0] s_rd_addr, s_wr_addr;
  logic [WW-1:0] s_wr_data;
  logic [WW/8-1:0] s_wr_strb;
  logic [RW-1:0] rd_beat;

  always begin
    @(negedge clk);
    s_imem_req = imem_req_valid;
    s_imem_addr = imem_req_addr;
    s_imem_rsp = imem_rsp_valid && imem_rsp_ready;
    s_rd_req = rd_req_valid;
    s_rd_sel = rd_req_sel;
    s_rd_addr = rd_req_addr;
    s_rd_rsp = rd_rsp_valid && rd_rsp_ready;
    s_wr_req = wr_req_valid;
    s_wr_addr = wr_req_addr;
    s_wr_data = wr_req_data;
    s_wr_strb = wr_req_strb;
    s_wr_rsp = wr_rsp_valid && wr_rsp_ready;
    @(posedge clk);
    #1;
    if (s_imem_rsp) begin
      imem_head = (imem_head + 1) % Ring;
      imem_count = imem_count - 1;
    end
    if (s_rd_rsp) begin
      rd_head = (rd_head + 1) % Ring;
      rd_count = rd_count - 1;
    end
    if (s_wr_rsp) wr_pending = wr_pending - 1;
    if (s_imem_req) begin
      if (imem_count == Ring) $fatal(1, "icarus_tb: more than %0d imem requests in flight", Ring);
      imem_ring[(imem_head + imem_count) % Ring] = imem_beat(int'(s_imem_addr));
      imem_count = imem_count + 1;
    end
    if (s_rd_req) begin
      if (rd_count == Ring) $fatal(1, "icarus_tb: more than %0d operand reads in flight", Ring);
      `TB_DRAM_READ(rd_beat, s_rd_sel, s_rd_addr)
      rd_ring[(rd_head + rd_count) % Ring] = rd_beat;
      rd_count = rd_count + 1;
    end
    if (s_wr_req) begin
      `TB_DRAM_WRITE(s_wr_addr, s_wr_data, s_wr_strb)
      wr_pending = wr_pending + 1;
    end
  end

  string imem_file, a_file, b_file, c_file, cout_file;
  int max_cycles;
  int fd;

  initial begin
    if (!$value$plusargs("IMEM=%s", imem_file)) $fatal(1, "icarus_tb: +IMEM=<file> is required");
    if (!$value$plusargs("A=%s", a_file)) $fatal(1, "icarus_tb: +A=<file> is required");
    if (!$value$plusargs("B=%s", b_file)) $fatal(1, "icarus_tb: +B=<file> is required");
    if (!$value$plusargs("C=%s", c_file)) $fatal(1, "icarus_tb: +C=<file> is required");
    if (!$value$plusargs("COUT=%s", cout_file)) $fatal(1, "icarus_tb: +COUT=<file> is required");
    if (!$value$plusargs("MAXCYCLES=%d", max_cycles)) max_cycles = 2000000;
    for (int i = 0; i < ImemWords; i++) imem[i] = 64'd0;
    $readmemh(imem_file, imem);
    $readmemh(a_file, mem_a);
    $readmemh(b_file, mem_b);
    $readmemh(c_file, mem_c);
    start = 1'b0;
    repeat (4) @(posedge clk);
    #1 rst_n = 1'b1;
    repeat (2) @(posedge clk);
    #1 start = 1'b1;
    @(posedge clk);
    #1 start = 1'b0;
    while (!done && fault == 4'd0 && max_cycles > 0) begin
      @(posedge clk);
      max_cycles = max_cycles - 1;
    end
    if (fault != 4'd0) $display("icarus_tb: FAULT %0d at pc %0d (unit %0d)", fault, fault_pc, fault_unit);
    else if (!done) $display("icarus_tb: TIMEOUT");
    else $display("icarus_tb: DONE in %0d cycles", cycles);
    fd = $fopen(cout_file, "w");
    for (int i = 0; i < Bytes; i++) $fdisplay(fd, "%02x", mem_c[i]);
    $fclose(fd);
    $finish;
  end
endmodule
