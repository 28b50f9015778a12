// tb_tpu_array: functional and throughput test of the generated tpu_array.
//
// Phase 1: back-to-back mms (rows >= T + 1, so the wcol items of the next mm
// fit under the current one), no gaps on wcol/acol and cw always ready: the
// result rows must leave at exactly one per cycle across the mm boundaries.
// Phase 2: more mms (rows 0 .. 2T + 3, including 1 and a zero-row mm) with
// random gaps on wcol and acol and random backpressure on cw.
// Phase 3: short mms (rows 1 .. T) with wcol and acol always valid and cw
// mostly not ready: the loader runs ahead of a stalled array, so a bank's
// weight rows must wait for the previous user's last row to pass.
// Every result row is checked against the definition computed here:
//   out[j] = sum over i ascending of act[i] * W[i][j], 32-bit two's complement.
// Also checked: cw holds valid/data until the handshake, idle_o, and the
// progress counters (mm_count, mm_rows in PROGRESS_* order).
// Prints PASS or FAIL.
//
// Parameters: T (the generated configuration's), Seed.
module tb_tpu_array #(
  parameter int T    = 4,
  parameter int Seed = 1
);
`include "tb_common.svh"

  localparam int OpW    = tpu_pkg::OPERAND_BITS;
  localparam int AccW   = tpu_pkg::ACC_BITS;
  localparam int CntW   = tpu_pkg::COUNT_W;
  localparam int VW     = T * OpW;
  localparam int AW     = T * AccW;
  localparam int NMm1   = 6;            // phase 1 mms
  localparam int NMm2   = 14;           // phase 2 mms
  localparam int NMm3   = 12;           // phase 3 mms
  localparam int NMm    = NMm1 + NMm2 + NMm3;
  localparam int MaxRow = 3 * T + 4;    // rows of one mm at most
  localparam int MaxW   = NMm * (T + 1);
  localparam int MaxA   = NMm * MaxRow;

  `TB_STREAM(wcol, VW)
  `TB_STREAM(acol, VW)
  `TB_STREAM(cw, AW)
  logic              idle;
  logic [2*CntW-1:0] progress;

  tpu_array #(.T(T)) dut (
    `TB_UNIT_CLOCK,
    `TB_STREAM_IN(wcol),
    `TB_STREAM_IN(acol),
    `TB_STREAM_OUT(cw),
    `TB_UNIT_OUT
  );

  // The streams, driven from arrays (a source keeps valid and data until
  // the handshake), and the expected results.
  int lim_w [1:3], lim_a [1:3];  // items before the end of each phase
  int phase;
  `TB_SOURCE(p_wcol, wcol_valid, wcol_ready, wcol_data, VW, wstream, MaxW, wi, lim_w[phase],
             ((phase != 2) || ($urandom % 3 != 0)))
  `TB_SOURCE(p_acol, acol_valid, acol_ready, acol_data, VW, astream, MaxA, ai, lim_a[phase],
             ((phase != 2) || ($urandom % 4 != 0)))
  logic [AW-1:0] expect_q [MaxA];
  int nw, na, rows_total;

  function automatic logic [OpW-1:0] operand();
    int pick;
    pick = $urandom % 10;
    if (pick < 3) begin
      case ($urandom % 7)
        0: operand = OpW'(-128);
        1: operand = OpW'(-127);
        2: operand = OpW'(-1);
        3: operand = OpW'(0);
        4: operand = OpW'(1);
        5: operand = OpW'(126);
        default: operand = OpW'(127);
      endcase
    end else begin
      operand = OpW'($urandom);
    end
  endfunction

  // One mm: the header word, T weight rows, `rows` activation rows and their
  // expected results. all_min: every weight and activation -128 (the largest
  // column sum).
  task automatic add_mm(input int rows, input bit all_min);
    logic [VW-1:0] w [T];
    logic [VW-1:0] a;
    logic [AW-1:0] r;
    logic signed [AccW-1:0] sum;
    wstream[nw] = '0;
    wstream[nw][CntW-1:0] = CntW'(rows);
    nw++;
    for (int i = 0; i < T; i++) begin
      for (int j = 0; j < T; j++) w[i][j*OpW +: OpW] = all_min ? OpW'(-128) : operand();
      wstream[nw] = w[i];
      nw++;
    end
    for (int k = 0; k < rows; k++) begin
      for (int i = 0; i < T; i++) a[i*OpW +: OpW] = all_min ? OpW'(-128) : operand();
      for (int j = 0; j < T; j++) begin
        sum = '0;
        for (int i = 0; i < T; i++)
          sum = sum + AccW'($signed(a[i*OpW +: OpW])) * AccW'($signed(w[i][j*OpW +: OpW]));
        r[j*AccW +: AccW] = sum;
      end
      astream[na] = a;
      expect_q[na] = r;
      na++;
    end
    rows_total += rows;
  endtask

  // Sink and checks.
  int oi, first_out, last_out;
  logic          held_valid;
  logic [AW-1:0] held_data;
  always @(posedge clk) begin
    if (rst_n) begin
      if (cw_valid && idle) begin
        $display("FAIL: idle_o with a result row pending (cycle %0d)", cycle);
        errors++;
      end
      `TB_HOLD("cw", cw_valid, cw_ready, cw_data, held_valid, held_data)
      `TB_EXPECT_INDEXED("result row", cw_valid, cw_ready, cw_data, oi, expect_q, na)
      if (cw_valid && cw_ready && oi == 0) first_out <= cycle;
      if (cw_valid && cw_ready && oi == lim_a[1] - 1) last_out <= cycle;
      cw_ready <= (phase == 1) || ((phase == 2) ? ($urandom % 3 != 0) : ($urandom % 4 == 0));
    end
  end

  initial begin
    int seed, count_slot, rows_slot, got_count, got_rows;
    seed = Seed;
    seed = $urandom(seed);
    nw = 0; na = 0; rows_total = 0; phase = 1;
    held_valid = 1'b0; cw_ready = 1'b1;
    // Phase 1: rows T + 1 .. 3T + 4, the first mm all -128.
    add_mm(T + 1, 1'b1);
    for (int m = 1; m < NMm1; m++) add_mm(T + 1 + ($urandom % (2 * T + 4)), 1'b0);
    lim_w[1] = nw; lim_a[1] = na;
    // Phase 2: rows 0 .. 2T + 3, with 1 and 0 forced in.
    for (int m = 0; m < NMm2; m++) add_mm((m == 2) ? 1 : (m == 5) ? 0 : ($urandom % (2 * T + 4)), 1'b0);
    lim_w[2] = nw; lim_a[2] = na;
    // Phase 3: rows 1 .. T.
    for (int m = 0; m < NMm3; m++) add_mm(1 + ($urandom % T), 1'b0);
    lim_w[3] = nw; lim_a[3] = na;

    `TB_RESET(3)
    while (oi != lim_a[1] && cycle < 40 * MaxA) @(posedge clk);
    @(posedge clk);
    if (last_out - first_out + 1 != lim_a[1]) begin
      $display("FAIL: phase 1 took %0d cycles for %0d result rows (want one per cycle)", last_out - first_out + 1,
               lim_a[1]);
      errors++;
    end else begin
      $display("phase 1: %0d result rows of %0d mms in %0d cycles: 1.00 rows/cycle", lim_a[1], NMm1,
               last_out - first_out + 1);
    end
    for (int p = 2; p <= 3; p++) begin
      int waited;
      phase = p;
      waited = 0;
      while (oi != lim_a[p] && waited < 40 * MaxA) begin
        @(posedge clk);
        waited++;
      end
      if (oi != lim_a[p]) begin
        $display("FAIL: timeout in phase %0d with %0d of %0d result rows", p, oi, lim_a[p]);
        errors++;
      end
    end
    repeat (T + 4) @(posedge clk);
    if (!idle) begin
      $display("FAIL: not idle at the end");
      errors++;
    end
    count_slot = (tpu_pkg::PROGRESS_MM_COUNT < tpu_pkg::PROGRESS_MM_ROWS) ? 0 : 1;
    rows_slot = 1 - count_slot;
    got_count = int'(progress[count_slot*CntW +: CntW]);
    got_rows = int'(progress[rows_slot*CntW +: CntW]);
    if (got_count != NMm || got_rows != rows_total) begin
      $display("FAIL: progress mm_count %0d mm_rows %0d, expected %0d %0d", got_count, got_rows, NMm, rows_total);
      errors++;
    end
    tb_finish($sformatf("PASS: %0d mms, %0d result rows (T=%0d)", NMm, rows_total, T), "FAIL");
  end

endmodule
