// tb_tpu_dma_ld: functional testbench of the generated tpu_dma_ld (Icarus -g2012).
//
// A DRAM model holds A and B (random bytes, MAXDIM x MAXDIM each), accepts
// read requests (randomly not ready in phase 1), checks each address is a
// multiple of DMA_WORDS*T, and answers in order with DMA_WORDS*VW bits,
// Latency cycles after the request (0: the next cycle), plus random gaps in
// phase 1; it checks the unit never has more than QD requests unanswered.
// A random program of dma_ld (every mode: A or B, to dma2sp or dma2vr; any
// row, column block and nr) runs; every row on dma2sp and dma2vr is compared
// with the matrix bytes (r, col_block*T .. +T-1) in program order. Phase 2
// runs without gaps or backpressure and reports the sustained rows per
// cycle. Prints PASS or FAIL.
//
// Operands (spec operand table): dma_ld f0 = mode (bit 0: B, bit 1: vr),
// f1 = dram_row0, f2 = col_block, f3 = dst_row0.
`timescale 1ns / 1ps
module tb_tpu_dma_ld #(
`include "tb_dram_params.svh"
  parameter int QD      = 16,
  parameter int Latency = 0,
  parameter int Seed    = 3
);
  localparam logic [tpu_pkg::FLD_OP_W-1:0] Ignored = tpu_pkg::OP_NOP;  // not dma_ld's
`include "tb_dma.svh"

  `TB_DRAM_RD_SIGNALS
  `TB_STREAM(dma2sp, VW)
  `TB_STREAM(dma2vr, VW)

  tpu_dma_ld #(
    .T(T),
    .MAXDIM(MAXDIM),
    .DMA_WORDS(DMA_WORDS),
    .QD(QD)
  ) u_dut (
    `TB_UNIT_IN,
    `TB_DRAM_RD_PORTS,
    `TB_STREAM_OUT(dma2sp),
    `TB_STREAM_OUT(dma2vr),
    `TB_UNIT_OUT
  );

  logic [7:0] mem_a[Bytes];
  logic [7:0] mem_b[Bytes];

  // --- The program and the expected rows ------------------------------------
  logic [VW-1:0] exp_sp[$];
  logic [VW-1:0] exp_vr[$];

  task automatic add_dma_ld(input int mode, input int row0, input int col, input int nr);
    logic [VW-1:0] row;
    instr_q.push_back(mk(tpu_pkg::OP_DMA_LD, mode, row0, col, rnd(64), nr, nr));
    for (int r = 0; r < nr; r++) begin
      for (int i = 0; i < T; i++)
        row[8*i +: 8] = (mode & 1) ? mem_b[(row0 + r) * MAXDIM + col * T + i] : mem_a[(row0 + r) * MAXDIM + col * T + i];
      if (mode & 2) exp_vr.push_back(row);
      else exp_sp.push_back(row);
    end
    steps_total += nr;
  endtask

  // random_program's instruction: any mode, row and column block.
  task automatic add_block(input int nr);
    add_dma_ld(rnd(4), rnd(MAXDIM - nr + 1), rnd(WPR), nr);
  endtask

  // --- DRAM model -------------------------------------------------------------
  // Responses not yet presented: {cycle it may be presented, data}.
  logic [RW+31:0] rsp_q[$];
  logic [RW+31:0] rsp_head;
  int            unanswered = 0;  // requests taken, response not yet accepted
  logic [RW-1:0] beat;
  `TB_REQUESTS("dram_rd_req", rd_req, {rd_req_sel, rd_req_addr}, 1 + 32)
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rd_rsp_valid <= 1'b0;
      rd_rsp_data <= '0;
    end else begin
      if (rd_req_valid && rd_req_ready) begin
        if (rd_req_addr % (DMA_WORDS * T) != 0) begin
          $display("FAIL: read address %0d is not a multiple of DMA_WORDS*T", rd_req_addr);
          errors++;
        end
        `TB_DRAM_READ(beat, rd_req_sel, rd_req_addr)
        rsp_q.push_back({32'(cycle + Latency), beat});
        unanswered++;
        if (unanswered > QD) begin
          $display("FAIL: %0d read requests unanswered, more than QD = %0d", unanswered, QD);
          errors++;
        end
      end
      if (rd_rsp_valid && rd_rsp_ready) begin
        rd_rsp_valid <= 1'b0;
        unanswered--;
      end
      `TB_RESPOND(rd_rsp_valid, rd_rsp_ready, rsp_q, rsp_head, rsp_head[RW +: 32], rd_rsp_data <= rsp_head[RW-1:0])
    end
  end

  // --- Instructions and outputs -------------------------------------------------
  `TB_DRIVER(instr_valid, instr_ready, instr, instr_q)

  always @(posedge clk)
    if (rst_n && dma2sp_valid && dma2vr_valid) begin
      $display("FAIL: rows on both channels at once");
      errors++;
    end
  `TB_MONITOR(dma2sp, VW, exp_sp)
  `TB_MONITOR(dma2vr, VW, exp_vr)

  // --- Phases -----------------------------------------------------------------
  task automatic wait_done(input string what);
    longint limit;
    `TB_SETTLE(instr_q.size() > 0 || instr_valid || exp_sp.size() > 0 || exp_vr.size() > 0 || !idle,
               40000, limit)
    if (cycle >= limit) begin
      $display("FAIL: %s did not finish (%0d instructions, %0d + %0d rows left)", what, instr_q.size(), exp_sp.size(),
               exp_vr.size());
      errors++;
    end
    `TB_CHECK_PROGRESS(what, steps_total)
    if (rsp_q.size() != 0 || rd_rsp_valid) begin
      $display("FAIL: %s: responses left over", what);
      errors++;
    end
  endtask

  initial begin
    longint lat;
    for (int b = 0; b < Bytes; b++) begin
      mem_a[b] = 8'($random(seed));
      mem_b[b] = 8'($random(seed));
    end
    `TB_RESET(3)

    random_phase(120);
    for (int i = 0; i < 8; i++) add_dma_ld(i % 4, 0, i % WPR, 16);
    throughput("burst", $sformatf("dma_ld (Latency=%0d, QD=%0d, DMA_WORDS=%0d)", Latency, QD, DMA_WORDS), 128, "rows");

    add_dma_ld(2, 1, 0, 1);
    `TB_LATENCY(lat, dma2vr_valid)
    wait_done("latency");
    $display("LATENCY dma_ld: instruction handshake to first row out %0d cycles at Latency=%0d", lat, Latency);

    tb_finish($sformatf("PASS tb_tpu_dma_ld T=%0d MAXDIM=%0d DMA_WORDS=%0d QD=%0d Latency=%0d: %0d rows checked", T,
                        MAXDIM, DMA_WORDS, QD, Latency, checked), "FAIL tb_tpu_dma_ld");
  end

endmodule
