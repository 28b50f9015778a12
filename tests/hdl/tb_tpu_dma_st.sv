// tb_tpu_dma_st: functional testbench of the generated tpu_dma_st (Icarus -g2012).
//
// A DRAM model holds C (MAXDIM x MAXDIM random bytes), accepts write
// requests (randomly not ready in phase 1), checks each is one aligned beat
// of CBeat packed words whose strobes select exactly one T-byte slot inside
// C, writes that slot, and acknowledges every write in order
// Latency cycles later (0: the next cycle), with random gaps in phase 1. A
// random program of mvout (any row, column block and nr) feeds rows on ac2sp
// with random gaps; at the end C must equal a reference copy updated in
// program order, every other byte untouched. progress_o may never count a
// write before its acknowledgement. Phase 2 runs without gaps or
// backpressure and reports the sustained rows per cycle. Prints PASS or FAIL.
//
// Operands (spec operand table): mvout f0 = ar0, f1 = dram_row0,
// f2 = col_block.
`timescale 1ns / 1ps
module tb_tpu_dma_st #(
`include "tb_dram_params.svh"
  parameter int Latency = 0,
  parameter int Seed    = 4
);
  localparam logic [tpu_pkg::FLD_OP_W-1:0] Ignored = tpu_pkg::OP_VRELU;  // not dma_st's
`include "tb_dma.svh"

  `TB_STREAM(ac2sp, VW)
  `TB_DRAM_WR_SIGNALS

  tpu_dma_st #(
    .T(T),
    .MAXDIM(MAXDIM),
    .CBeat(CBeat)
  ) u_dut (
    `TB_UNIT_IN,
    `TB_STREAM_IN(ac2sp),
    `TB_DRAM_WR_PORTS,
    `TB_UNIT_OUT
  );

  logic [7:0] mem_c[Bytes];
  logic [7:0] ref_c[Bytes];

  // --- The program and its rows ----------------------------------------------
  logic [VW-1:0] ac2sp_q[$];

  task automatic add_mvout(input int row0, input int col, input int nr);
    logic [VW-1:0] row;
    instr_q.push_back(mk(tpu_pkg::OP_MVOUT, rnd(128), row0, col, 0, nr, nr));
    for (int r = 0; r < nr; r++) begin
      row = rnd_row();
      ac2sp_q.push_back(row);
      for (int i = 0; i < T; i++) ref_c[(row0 + r) * MAXDIM + col * T + i] = row[8*i +: 8];
    end
    steps_total += nr;
  endtask

  // random_program's instruction: any row and column block.
  task automatic add_block(input int nr);
    add_mvout(rnd(MAXDIM - nr + 1), rnd(WPR), nr);
  endtask

  // --- DRAM model -------------------------------------------------------------
  logic [31:0] ack_q[$];  // cycle each acknowledgement may be presented
  logic [31:0] ack_head;
  int          acked = 0;  // acknowledgements accepted by the unit
  int          slot;
  `TB_REQUESTS("dram_wr_req", wr_req, {wr_req_addr, wr_req_data, wr_req_strb}, 32 + WW + WW / 8)
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wr_rsp_valid <= 1'b0;
    end else begin
      if (wr_req_valid && wr_req_ready) begin
        slot = -1;
        for (int s = 0; s < CBeat; s++)
          if (wr_req_strb == ((CBeat*T)'({T{1'b1}}) << (s * T))) slot = s;
        if (wr_req_addr % (CBeat * T) != 0 || slot < 0 || int'(wr_req_addr) + (slot + 1) * T > Bytes) begin
          $display("FAIL: write at %0d strobes %b: not one row slot of an aligned beat inside C", wr_req_addr,
                   wr_req_strb);
          errors++;
        end else begin
          `TB_DRAM_WRITE(wr_req_addr, wr_req_data, wr_req_strb)
        end
        ack_q.push_back(32'(cycle + Latency));
      end
      if (wr_rsp_valid && wr_rsp_ready) begin
        wr_rsp_valid <= 1'b0;
        acked++;
      end
      `TB_RESPOND(wr_rsp_valid, wr_rsp_ready, ack_q, ack_head, ack_head, )
      if (int'(progress) > acked) begin
        $display("FAIL: progress %0d counts writes not yet acknowledged (%0d)", progress, acked);
        errors++;
      end
    end
  end

  // --- Instructions and rows --------------------------------------------------
  `TB_DRIVER(instr_valid, instr_ready, instr, instr_q)
  `TB_DRIVER(ac2sp_valid, ac2sp_ready, ac2sp_data, ac2sp_q)

  // --- Phases -----------------------------------------------------------------
  task automatic wait_done(input string what);
    longint limit;
    `TB_SETTLE(instr_q.size() > 0 || instr_valid || ac2sp_q.size() > 0 || ac2sp_valid || !idle,
               40000, limit)
    if (cycle >= limit) begin
      $display("FAIL: %s did not finish (%0d instructions, %0d rows left)", what, instr_q.size(), ac2sp_q.size());
      errors++;
    end
    if (progress !== CW'(steps_total) || acked != steps_total) begin
      $display("FAIL: %s: progress %0d, %0d acknowledged, expected %0d", what, progress, acked, steps_total);
      errors++;
    end
    for (int b = 0; b < Bytes; b++)
      if (mem_c[b] !== ref_c[b]) begin
        $display("FAIL: %s: C byte %0d is %h, expected %h", what, b, mem_c[b], ref_c[b]);
        errors++;
      end else checked++;
  endtask

  initial begin
    longint lat;
    for (int b = 0; b < Bytes; b++) begin
      mem_c[b] = 8'($random(seed));
      ref_c[b] = mem_c[b];
    end
    `TB_RESET(3)

    random_phase(100);
    for (int i = 0; i < 8; i++) add_mvout(0, i % WPR, 16);
    throughput("burst", $sformatf("dma_st (Latency=%0d)", Latency), 128, "rows acknowledged");

    add_mvout(1, 0, 1);
    `TB_LATENCY(lat, wr_req_valid)
    wait_done("latency");
    $display("LATENCY dma_st: instruction handshake to the write request %0d cycles (row waiting)", lat);

    tb_finish($sformatf("PASS tb_tpu_dma_st T=%0d MAXDIM=%0d Latency=%0d: %0d bytes checked", T, MAXDIM, Latency,
                        checked), "FAIL tb_tpu_dma_st");
  end

endmodule
