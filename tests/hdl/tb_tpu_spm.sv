// tb_tpu_spm: functional testbench of the generated tpu_spm (Icarus -g2012).
//
// A random program of dma_ld (rows in on dma2sp, written to spad), vld (spad
// rows out on sp2vr) and mm (the wcol header word, then T weight rows) runs
// against a shadow copy of spad; every row leaving the unit is compared with
// the shadow as it stood at that instruction in program order. Reads
// frequently target the rows the previous dma_ld just wrote (read after
// write in consecutive cycles). Phase 1 drives random gaps on the
// instruction and dma2sp streams and random backpressure on both outputs,
// and checks that a stalled output holds its data; phase 2 runs without
// either and reports the sustained rows per cycle. Instructions the unit
// must ignore (an opcode it does not take, a dma_ld bound for vr) are mixed
// in. Phase 3 checks the ordering between the write and the read engine:
// a read of rows written earlier overtakes a later write of other rows
// whose input is held back; a read waits for an earlier write of
// overlapping rows; a write waits for an earlier read of overlapping rows
// (held by backpressure) while a write of other rows proceeds. Prints PASS
// or FAIL.
//
// Instruction operands follow the spec's operand table: dma_ld f0 = mode,
// f3 = dst_row0; vld f0 = vr0, f1 = spad0; mm f0 = vr_a, f1 = ar0,
// f2 = acc, f3 = spad_w.
`timescale 1ns / 1ps
module tb_tpu_spm #(
  parameter int T = 4,
  parameter int SPAD_ROWS = 64,
  parameter int QD = 16,
  parameter int Seed = 1
);
  localparam int VW = 8 * T;
  localparam int Rows = SPAD_ROWS;
`include "tb_rows.svh"

  `TB_STREAM(dma2sp, VW)
  `TB_STREAM(sp2vr, VW)
  `TB_STREAM(wcol, VW)

  tpu_spm #(
    .T(T),
    .SPAD_ROWS(SPAD_ROWS),
    .QD(QD)
  ) u_dut (
    `TB_UNIT_IN,
    `TB_STREAM_IN(dma2sp),
    `TB_STREAM_OUT(sp2vr),
    `TB_STREAM_OUT(wcol),
    `TB_UNIT_OUT
  );

  // --- The program, its input rows and the expected outputs ---------------
  logic [VW-1:0] dma2sp_q[$];
  logic [VW-1:0] exp_sp2vr[$];
  logic [VW-1:0] exp_wcol[$];

  // tb_rows.svh's written rows: all on dma2sp.
  task automatic push_row(input int src, input logic [VW-1:0] row);
    dma2sp_q.push_back(row);
  endtask

  task automatic add_dma_ld(input int dst, input int nr);
    instr_q.push_back(mk(tpu_pkg::OP_DMA_LD, rnd(2), rnd(T), rnd(4), dst, nr, nr));  // mode 0 or 1: to spad
    write_rows(0, dst, nr);
  endtask

  task automatic add_vld(input int src, input int nr);
    instr_q.push_back(mk(tpu_pkg::OP_VLD, rnd(SPAD_ROWS), src, 0, 0, nr, nr));
    for (int r = 0; r < nr; r++) exp_sp2vr.push_back(shadow[src + r]);
    steps_total += nr;
  endtask

  task automatic add_mm(input int w, input int nr);
    instr_q.push_back(mk(tpu_pkg::OP_MM, rnd(SPAD_ROWS), rnd(64), rnd(2), w, nr, T + 1));
    exp_wcol.push_back(VW'({16'd0, 16'(nr)}));  // header word: {flags = 0, rows = nr}
    for (int r = 0; r < T; r++) exp_wcol.push_back(shadow[w + r]);
    steps_total += T + 1;
  endtask

  task automatic random_program(input int n);
    int nr;
    for (int i = 0; i < n; i++) begin
      case (rnd(7))
        0, 1: begin
          nr = 1 + rnd(12);
          add_dma_ld(rnd(SPAD_ROWS - nr + 1), nr);
        end
        2, 3: begin
          nr = 1 + rnd(12);
          add_vld(pick_src(nr), nr);
        end
        4, 5: add_mm(pick_src(T), 1 + rnd(40));
        default: begin
          // Ignored: an opcode spm does not take, and a dma_ld bound for vr.
          if (rnd(2) == 0) instr_q.push_back(mk(tpu_pkg::OP_VADD, 1, 2, 3, 0, 3, 6));
          else instr_q.push_back(mk(tpu_pkg::OP_DMA_LD, 2 + rnd(2), 0, 0, 0, 4, 4));
        end
      endcase
    end
  endtask

  // --- Drivers and monitors -------------------------------------------------
  `TB_DRIVER(instr_valid, instr_ready, instr, instr_q)

  logic hold_dma = 1'b0;  // present no new dma2sp row
  `TB_DRIVER_HELD(dma2sp_valid, dma2sp_ready, dma2sp_data, dma2sp_q, hold_dma)
  `TB_MONITOR(sp2vr, VW, exp_sp2vr)
  `TB_MONITOR(wcol, VW, exp_wcol)

  // --- Phases -----------------------------------------------------------------
  // Phase 3's cases A and B: with dma2sp held back, a dma_ld of nr rows at
  // dst, then a vld of vnr rows at src and an mm of the weight rows at w
  // (mnr activation rows); base = the steps before them.
  task automatic held_write_then_reads(input int dst, input int nr, input int src, input int vnr, input int w,
                                       input int mnr, output int base);
    hold_dma = 1'b1;
    base = steps_total;
    add_dma_ld(dst, nr);
    add_vld(src, vnr);
    add_mm(w, mnr);
  endtask

  task automatic wait_done(input string what);
    longint limit;
    `TB_SETTLE(instr_q.size() > 0 || instr_valid || exp_sp2vr.size() > 0 || exp_wcol.size() > 0 || !idle ||
               dma2sp_q.size() > 0, 20000, limit)
    if (cycle >= limit) begin
      $display("FAIL: %s did not finish (%0d instructions, %0d sp2vr and %0d wcol rows left)", what,
               instr_q.size(), exp_sp2vr.size(), exp_wcol.size());
      errors++;
    end
    `TB_CHECK_PROGRESS(what, steps_total)
    if (!idle) begin
      $display("FAIL: %s: not idle at the end", what);
      errors++;
    end
  endtask

  // Wait until every expected output row has left (or `limit` cycles).
  task automatic wait_outputs(input string what, input int limit);
    longint stop;
    stop = cycle + limit;
    while ((exp_sp2vr.size() > 0 || exp_wcol.size() > 0) && cycle < stop) @(posedge clk);
    if (cycle >= stop) begin
      $display("FAIL: %s: %0d sp2vr and %0d wcol rows never came", what, exp_sp2vr.size(), exp_wcol.size());
      errors++;
    end
  endtask

  initial begin
    longint lat_vld, lat_mm;
    int base_steps;
    `TB_RESET(3)

    // Phase 1: fill spad, then a random program under gaps and backpressure.
    for (int r = 0; r < SPAD_ROWS; r += 32) add_dma_ld(r, (SPAD_ROWS - r < 32) ? SPAD_ROWS - r : 32);
    random_phase(150);

    // Phase 2: full speed, no gaps and no backpressure.
    for (int i = 0; i < 4; i++) add_dma_ld(8 * i, 16);
    throughput("dma_ld burst", "spm dma_ld (writes)", 64, "rows");
    for (int i = 0; i < 4; i++) add_vld(4 * i, 16);
    throughput("vld burst", "spm vld (reads)", 64, "rows");
    for (int i = 0; i < 8; i++) add_mm(T * i % (SPAD_ROWS - T), 16);
    throughput("mm burst", "spm mm (header + T rows each)", 8 * (T + 1), "items");
    for (int i = 0; i < 4; i++) begin
      add_dma_ld(0, 8);
      add_vld(0, 8);
      add_mm(0, 8);
    end
    throughput("mixed burst", "spm dma_ld/vld/mm mix", 4 * (16 + T + 1), "steps");

    // Phase 3: ordering between the engines (rows 0..7 written first).
    add_dma_ld(0, 8);
    wait_done("ordering setup");
    // A: vld and mm of rows 0.. overtake a later dma_ld of rows 32..47 whose
    // rows are held back.
    held_write_then_reads(32, 16, 0, 8, 4, 3, base_steps);
    wait_outputs("overtake", 300);
    expect_progress("overtake: reads done, the write not started", base_steps + 8 + T + 1);
    hold_dma = 1'b0;
    wait_done("overtake");
    // B: a read waits for an earlier write of overlapping rows.
    held_write_then_reads(40, 8, 44, 4, 46, 2, base_steps);
    repeat (40) @(posedge clk);
    expect_progress("read after write: nothing moves", base_steps);
    if (sp2vr_valid || wcol_valid || exp_sp2vr.size() != 4) begin
      $display("FAIL: a read overtook an earlier write of its rows at cycle %0d", cycle);
      errors++;
    end
    hold_dma = 1'b0;
    wait_done("read after write");
    // C: a write waits for an earlier read of overlapping rows (held by
    // backpressure); a write of other rows before it proceeds.
    stall_outputs(base_steps);
    add_vld(48, 8);
    add_mm(56, 1);
    add_dma_ld(8, 4);
    add_dma_ld(50, 4);
    add_dma_ld(58, 2);
    only_disjoint_write(base_steps, 4);

    add_vld(5, 1);
    `TB_LATENCY(lat_vld, sp2vr_valid)
    wait_done("vld latency");
    add_mm(5, 1);
    `TB_LATENCY(lat_mm, wcol_valid)
    wait_done("mm latency");
    $display("LATENCY spm: instruction handshake to first sp2vr row %0d cycles, to the wcol header %0d cycles",
             lat_vld, lat_mm);

    tb_finish($sformatf("PASS tb_tpu_spm T=%0d SPAD_ROWS=%0d: %0d items checked", T, SPAD_ROWS, checked),
              "FAIL tb_tpu_spm");
  end

endmodule
