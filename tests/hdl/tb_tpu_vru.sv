// tb_tpu_vru: functional testbench of the generated tpu_vru (Icarus -g2012).
//
// A random program of dma_ld bound for vr (rows in on dma2vr), vld (rows in
// on sp2vr) and mm (nr activation rows of vr out on acol) runs against a
// shadow copy of vr; every acol row is compared with the shadow as it stood
// at that mm in program order, and mm often reads the rows just written.
// Phase 1 drives random gaps on every input and random backpressure on
// acol and checks the stream rule; phase 2 runs without either and reports
// the sustained rows per cycle. Instructions the unit must ignore (an
// opcode it does not take, a dma_ld bound for spad) are mixed in. A last
// phase checks the ordering between the write and the read engine: an mm
// of rows written earlier overtakes later writes of other rows whose input
// is held back; an mm waits for an earlier write of overlapping rows; a
// write waits for an earlier mm of overlapping rows. Prints
// PASS or FAIL.
//
// Operands (spec operand table): dma_ld f0 = mode, f3 = dst_row0;
// vld f0 = vr0, f1 = spad0; mm f0 = vr_a, f1 = ar0, f2 = acc, f3 = spad_w.
`timescale 1ns / 1ps
module tb_tpu_vru #(
  parameter int T = 4,
  parameter int NVR = 64,
  parameter int QD = 16,
  parameter int Seed = 2
);
  localparam int VW = 8 * T;
  localparam int Rows = NVR;
`include "tb_rows.svh"

  `TB_STREAM(dma2vr, VW)
  `TB_STREAM(sp2vr, VW)
  `TB_STREAM(acol, VW)

  tpu_vru #(
    .T(T),
    .NVR(NVR),
    .QD(QD)
  ) u_dut (
    `TB_UNIT_IN,
    `TB_STREAM_IN(dma2vr),
    `TB_STREAM_IN(sp2vr),
    `TB_STREAM_OUT(acol),
    `TB_UNIT_OUT
  );

  // --- The program, its input rows and the expected outputs ---------------
  logic [VW-1:0] dma2vr_q[$];
  logic [VW-1:0] sp2vr_q[$];
  logic [VW-1:0] exp_acol[$];

  // tb_rows.svh's written rows: src 1 on sp2vr, 0 on dma2vr.
  task automatic push_row(input int src, input logic [VW-1:0] row);
    if (src == 1) sp2vr_q.push_back(row);
    else dma2vr_q.push_back(row);
  endtask

  // A write of nr rows at dst: from dma2vr (dma_ld, mode 2 or 3) or sp2vr (vld).
  task automatic add_write(input logic from_spm, input int dst, input int nr);
    if (from_spm) instr_q.push_back(mk(tpu_pkg::OP_VLD, dst, rnd(NVR), 0, 0, nr, nr));
    else instr_q.push_back(mk(tpu_pkg::OP_DMA_LD, 2 + rnd(2), rnd(T), rnd(4), dst, nr, nr));
    write_rows(from_spm, dst, nr);
  endtask

  task automatic add_mm(input int src, input int nr);
    instr_q.push_back(mk(tpu_pkg::OP_MM, src, rnd(64), rnd(2), rnd(NVR), nr, nr));
    for (int r = 0; r < nr; r++) exp_acol.push_back(shadow[src + r]);
    steps_total += nr;
  endtask

  task automatic random_program(input int n);
    int nr;
    for (int i = 0; i < n; i++) begin
      case (rnd(7))
        0, 1, 2: begin
          nr = 1 + rnd(12);
          add_write(rnd(2), rnd(NVR - nr + 1), nr);
        end
        3, 4, 5: begin
          nr = 1 + rnd(16);
          add_mm(pick_src(nr), nr);
        end
        default: begin
          // Ignored: an opcode vru does not take, and a dma_ld bound for spad.
          if (rnd(2) == 0) instr_q.push_back(mk(tpu_pkg::OP_MVOUT, 1, 2, 3, 0, 3, 3));
          else instr_q.push_back(mk(tpu_pkg::OP_DMA_LD, rnd(2), 0, 0, 0, 4, 4));
        end
      endcase
    end
  endtask

  // --- Drivers and monitors -------------------------------------------------
  logic hold_in = 1'b0;  // present no new dma2vr or sp2vr row
  `TB_DRIVER(instr_valid, instr_ready, instr, instr_q)
  `TB_DRIVER_HELD(dma2vr_valid, dma2vr_ready, dma2vr_data, dma2vr_q, hold_in)
  `TB_DRIVER_HELD(sp2vr_valid, sp2vr_ready, sp2vr_data, sp2vr_q, hold_in)
  `TB_MONITOR(acol, VW, exp_acol)

  // --- Phases -----------------------------------------------------------------
  task automatic wait_done(input string what);
    longint limit;
    `TB_SETTLE(instr_q.size() > 0 || instr_valid || exp_acol.size() > 0 || !idle || dma2vr_q.size() > 0 ||
               sp2vr_q.size() > 0, 20000, limit)
    if (cycle >= limit) begin
      $display("FAIL: %s did not finish (%0d instructions, %0d acol rows left)", what, instr_q.size(),
               exp_acol.size());
      errors++;
    end
    `TB_CHECK_PROGRESS(what, steps_total)
  endtask

  initial begin
    longint lat;
    int base_steps;
    `TB_RESET(3)

    for (int r = 0; r < NVR; r += 32) add_write(r % 64 == 0, r, (NVR - r < 32) ? NVR - r : 32);
    random_phase(150);

    for (int i = 0; i < 4; i++) add_write(i % 2, 8 * i, 16);
    throughput("write burst", "vru dma_ld/vld (writes)", 64, "rows");
    for (int i = 0; i < 4; i++) add_mm(4 * i, 16);
    throughput("mm burst", "vru mm (reads)", 64, "rows");
    for (int i = 0; i < 4; i++) begin
      add_write(i % 2, 0, 8);
      add_mm(0, 8);
    end
    throughput("mixed burst", "vru write/mm mix", 64, "rows");

    // Ordering between the engines. A: an mm of rows written earlier
    // overtakes later writes of other rows whose input is held back.
    add_write(1'b0, 0, 8);
    wait_done("ordering setup");
    hold_in = 1'b1;
    base_steps = steps_total;
    add_write(1'b0, 32, 16);
    add_write(1'b1, 48, 4);
    add_mm(0, 8);
    for (int i = 0; i < 300 && exp_acol.size() > 0; i++) @(posedge clk);
    expect_progress("overtake: the mm done, the writes not started", base_steps + 8);
    hold_in = 1'b0;
    wait_done("overtake");
    // B: an mm waits for an earlier write of overlapping rows.
    hold_in = 1'b1;
    base_steps = steps_total;
    add_write(1'b1, 40, 8);
    add_mm(44, 6);
    repeat (40) @(posedge clk);
    expect_progress("read after write: nothing moves", base_steps);
    if (acol_valid) begin
      $display("FAIL: an mm overtook an earlier write of its rows at cycle %0d", cycle);
      errors++;
    end
    hold_in = 1'b0;
    wait_done("read after write");
    // C: a write waits for an earlier mm of overlapping rows (held by
    // backpressure); a write of other rows before it proceeds.
    stall_outputs(base_steps);
    add_mm(48, 8);
    add_write(1'b0, 8, 4);
    add_write(1'b1, 52, 4);
    only_disjoint_write(base_steps, 4);

    add_mm(3, 1);
    `TB_LATENCY(lat, acol_valid)
    wait_done("mm latency");
    $display("LATENCY vru: instruction handshake to first acol row %0d cycles", lat);

    tb_finish($sformatf("PASS tb_tpu_vru T=%0d NVR=%0d: %0d rows checked", T, NVR, checked), "FAIL tb_tpu_vru");
  end

endmodule
