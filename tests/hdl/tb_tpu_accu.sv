// tb_tpu_accu: functional and overlap test of the generated tpu_accu.
//
// A reference model here runs every instruction row by row in program order
// (reads before the row's write) on its own copy of ar:
//   mm       ar[ar0+r] = cw + (acc ? ar[ar0+r] : 0)
//   vadd     ar[d+r]   = ar[s1+r] + ar[s2+r]          (vaddrelu: then max0)
//   vrelu    ar[d+r]   = max0(ar[s+r])
//   mvout    emit saturate(ar[ar0+r]) to [OPERAND_MIN, OPERAND_MAX]
// with 32-bit wraparound. The DUT must produce the same ac2sp rows, the same
// ar contents (read through the hierarchy at the end of every segment),
// progress_o equal to the steps (2 per vadd/vaddrelu row), and idle_o.
// Segments:
//   1 directed, no gaps: saturation at 127/128/-128/-129, 32-bit wrap,
//     reads exactly AR_RAW_DIST steps after the write, and at distance 1-2;
//   2 random program, no gaps (any read-after-write distance);
//   3 random program, random gaps on instr and cw, backpressure on ac2sp;
//   4 pairs the two issue slots overlap (mvout then an overwriting mm, and
//     the reverse) on overlapping rows, with gaps and backpressure;
//   5 overlap timing, no gaps: mvout of M rows then an overwriting mm of M
//     rows of the same ar rows, and the reverse order, each must take about
//     M cycles, not 2M.
// Prints PASS or FAIL. Parameters: T, NAR (the generated configuration's),
// Seed, CheckAr (0 for a synthesized netlist, where ar has no mem_q to read).
module tb_tpu_accu #(
  parameter int T       = 4,
  parameter int NAR     = 136,
  parameter int Seed    = 1,
  parameter bit CheckAr = 1'b1
);
`include "tb_common.svh"
`include "tb_unit.svh"

  localparam int OpW  = tpu_pkg::OPERAND_BITS;
  localparam int AccW = tpu_pkg::ACC_BITS;
  localparam int VW   = T * OpW;
  localparam int AW   = T * AccW;
  localparam int MaxI = 512;
  localparam int MaxC = 4096;
  localparam int MaxO = 4096;
  localparam int Win  = 32;  // ar rows the random programs use
  localparam int M    = 32;  // rows of the overlap pairs
  localparam int NSeg = 5;

  `TB_STREAM(cw, AW)
  `TB_STREAM(ac2sp, VW)

  tpu_accu #(.T(T), .NAR(NAR)) dut (
    `TB_UNIT_IN,
    `TB_STREAM_IN(cw),
    `TB_STREAM_OUT(ac2sp),
    `TB_UNIT_OUT
  );

  // The segments: each stream's items before each one's end, the segment
  // running, and whether with gaps.
  int lim_i [1:NSeg], lim_c [1:NSeg], lim_o [1:NSeg], lim_s [1:NSeg];
  int seg;
  bit gaps;

  // The sources, in program order, and the rows expected out.
  `TB_SOURCE(p_instr, instr_valid, instr_ready, instr, IW, prog, MaxI, ii, lim_i[seg], (!gaps || ($urandom % 3 != 0)))
  `TB_SOURCE(p_cw, cw_valid, cw_ready, cw_data, AW, cws, MaxC, ci, lim_c[seg], (!gaps || ($urandom % 3 != 0)))
  logic [VW-1:0] outs [MaxO];
  int ni, nc, no, nsteps;

  // The model's ar.
  logic [AW-1:0] model [NAR];

  // ---------------------------------------------------------------------------
  // Row arithmetic (the spec's numerics).
  // ---------------------------------------------------------------------------
  function automatic logic [AW-1:0] add_rows(input logic [AW-1:0] x, input logic [AW-1:0] y);
    for (int l = 0; l < T; l++) add_rows[l*AccW +: AccW] = x[l*AccW +: AccW] + y[l*AccW +: AccW];
  endfunction

  function automatic logic [AW-1:0] relu_row(input logic [AW-1:0] x);
    for (int l = 0; l < T; l++) relu_row[l*AccW +: AccW] = x[l*AccW + AccW - 1] ? '0 : x[l*AccW +: AccW];
  endfunction

  function automatic logic [VW-1:0] sat_row(input logic [AW-1:0] x);
    logic signed [AccW-1:0] v;
    for (int l = 0; l < T; l++) begin
      v = x[l*AccW +: AccW];
      if (v > tpu_pkg::OPERAND_MAX) sat_row[l*OpW +: OpW] = OpW'(tpu_pkg::OPERAND_MAX);
      else if (v < tpu_pkg::OPERAND_MIN) sat_row[l*OpW +: OpW] = OpW'(tpu_pkg::OPERAND_MIN);
      else sat_row[l*OpW +: OpW] = v[OpW-1:0];
    end
  endfunction

  // An accumulator lane: boundary values, wrap-inducing extremes, small and
  // full-range random.
  function automatic logic [AccW-1:0] lane();
    case ($urandom % 16)
      0: lane = AccW'(127);
      1: lane = AccW'(128);
      2: lane = AccW'(-128);
      3: lane = AccW'(-129);
      4: lane = AccW'(2147483647);
      5: lane = AccW'(-2147483648);
      6: lane = AccW'(2147483000 + ($urandom % 1000));
      7: lane = AccW'(0);
      8: lane = AccW'(-1);
      9, 10, 11: lane = AccW'(int'($urandom % 601) - 300);
      default: lane = AccW'($urandom);
    endcase
  endfunction

  // ---------------------------------------------------------------------------
  // Program builders: each appends the instruction (tb_unit.svh's mk) and
  // runs the model.
  // ---------------------------------------------------------------------------
  // mm: f0 vr_a, f1 ar0, f2 acc, f3 spad_w. `fixed`: every lane of every row is `value`.
  task automatic mm(input int ar0, input int acc, input int nr, input bit fixed = 1'b0,
                    input logic [AccW-1:0] value = '0);
    logic [AW-1:0] c;
    prog[ni] = mk(tpu_pkg::OP_MM, $urandom % 64, ar0, acc, $urandom % 64, nr, nr);
    ni++;
    for (int r = 0; r < nr; r++) begin
      for (int l = 0; l < T; l++) c[l*AccW +: AccW] = fixed ? value : lane();
      cws[nc] = c;
    nc++;
      model[ar0 + r] = acc ? add_rows(model[ar0 + r], c) : c;
    end
    nsteps += nr;
  endtask

  // vadd / vaddrelu: f0 ar_d, f1 ar_s1, f2 ar_s2; two steps a row.
  task automatic vadd(input int d, input int s1, input int s2, input int nr, input bit relu);
    prog[ni] = mk(relu ? tpu_pkg::OP_VADDRELU : tpu_pkg::OP_VADD, d, s1, s2, 0, nr, 2 * nr);
    ni++;
    for (int r = 0; r < nr; r++) begin
      logic [AW-1:0] x;
      x = add_rows(model[s1 + r], model[s2 + r]);
      model[d + r] = relu ? relu_row(x) : x;
    end
    nsteps += 2 * nr;
  endtask

  // vrelu: f0 ar_d, f1 ar_s.
  task automatic vrelu(input int d, input int s, input int nr);
    prog[ni] = mk(tpu_pkg::OP_VRELU, d, s, 0, 0, nr, nr);
    ni++;
    for (int r = 0; r < nr; r++) model[d + r] = relu_row(model[s + r]);
    nsteps += nr;
  endtask

  // mvout: f0 ar0, f1 dram_row0, f2 col_block.
  task automatic mvout(input int ar0, input int nr);
    prog[ni] = mk(tpu_pkg::OP_MVOUT, ar0, $urandom % 64, $urandom % 4, 0, nr, nr);
    ni++;
    for (int r = 0; r < nr; r++) begin
      outs[no] = sat_row(model[ar0 + r]);
      no++;
    end
    nsteps += nr;
  endtask

  task automatic random_program(input int n);
    mm(0, 0, Win);
    for (int k = 0; k < n; k++) begin
      int nr, pick;
      nr = 1 + $urandom % 8;
      pick = $urandom % 100;
      if (pick < 20) mm($urandom % (Win - nr + 1), 0, nr);
      else if (pick < 35) mm($urandom % (Win - nr + 1), 1, nr);
      else if (pick < 47) vadd($urandom % (Win - nr + 1), $urandom % (Win - nr + 1), $urandom % (Win - nr + 1), nr, 1'b0);
      else if (pick < 59) vadd($urandom % (Win - nr + 1), $urandom % (Win - nr + 1), $urandom % (Win - nr + 1), nr, 1'b1);
      else if (pick < 73) vrelu($urandom % (Win - nr + 1), $urandom % (Win - nr + 1), nr);
      else mvout($urandom % (Win - nr + 1), nr);
    end
    mvout(0, Win);
  endtask

  // Pairs the two issue slots run side by side, on overlapping rows, in both
  // orders: with gaps, the older one stalls while the younger could run on.
  task automatic pair_program(input int n);
    mm(0, 0, Win);
    for (int k = 0; k < n; k++) begin
      int nr, a, b;
      nr = 4 + $urandom % 9;
      a = 3 + $urandom % (Win - nr - 5);
      b = a + int'($urandom % 7) - 3;
      if ($urandom % 2) begin
        mvout(a, nr);
        mm(b, 0, nr);
      end else begin
        mm(a, 0, nr);
        mvout(b, nr);
      end
    end
    mvout(0, Win);
  endtask

  task automatic directed_program;
    int d;
    d = tpu_pkg::AR_RAW_DIST;
    // Saturation: every lane of a row one boundary value.
    mm(0, 0, 1, 1'b1, AccW'(127));
    mm(1, 0, 1, 1'b1, AccW'(128));
    mm(2, 0, 1, 1'b1, AccW'(-128));
    mm(3, 0, 1, 1'b1, AccW'(-129));
    mm(4, 0, 1, 1'b1, AccW'(-2147483648));
    mm(5, 0, 1, 1'b1, AccW'(2147483647));
    mm(6, 0, 26, 1'b0);
    mvout(0, 32);
    // Exactly AR_RAW_DIST steps from each write to the read of its row.
    mm(40, 0, d);
    mvout(40, d);
    vrelu(40, 40, d);
    vrelu(40, 40, d);
    mm(40, 1, d);
    mm(40, 1, d);
    mvout(40, d);
    // Distances 1 and 2: each instruction reads the row written just before.
    vrelu(49, 48, 1);
    vrelu(50, 49, 1);
    vadd(51, 50, 50, 1, 1'b0);
    vadd(52, 51, 40, 1, 1'b1);
    mm(52, 1, 1);
    mvout(48, 5);
    // 32-bit wrap: accumulate and add extremes.
    mm(56, 0, 4, 1'b1, AccW'(2147483647));
    mm(56, 1, 4, 1'b1, AccW'(2147483647));
    vadd(60, 56, 56, 4, 1'b0);
    vadd(56, 56, 60, 4, 1'b1);
    mvout(56, 8);
    // In place, overlapping rows.
    vadd(1, 0, 2, 8, 1'b1);
    vrelu(3, 2, 8);
    mvout(0, 12);
  endtask

  // ---------------------------------------------------------------------------
  // The sink.
  // ---------------------------------------------------------------------------
  int oi;
  logic          held_valid;
  logic [VW-1:0] held_data;
  always @(posedge clk) begin
    if (rst_n) begin
      `TB_HOLD("ac2sp", ac2sp_valid, ac2sp_ready, ac2sp_data, held_valid, held_data)
      `TB_EXPECT_INDEXED("ac2sp row", ac2sp_valid, ac2sp_ready, ac2sp_data, oi, outs, no)
      ac2sp_ready <= !gaps || ($urandom % 3 != 0);
    end
  end

  // Compare ar with the model (through the hierarchy).
  event check_ar;
  if (CheckAr) begin : gen_check_ar
    always @(check_ar) begin
      for (int r = 0; r < NAR; r++) begin
        if (model[r] !== 'x && dut.u_ar.mem_q[r] !== model[r]) begin
          if (errors < 10) $display("FAIL: segment %0d: ar[%0d] is %h, expected %h", seg, r, dut.u_ar.mem_q[r], model[r]);
          errors++;
        end
      end
    end
  end

  // Run the segment built so far to its end and compare the state.
  task automatic run_segment(input int s, input bit with_gaps);
    int waited;
    lim_i[s] = ni; lim_c[s] = nc; lim_o[s] = no; lim_s[s] = nsteps;
    gaps = with_gaps;
    seg = s;
    waited = 0;
    while (!(oi == no && int'(progress) == nsteps && ii == ni && idle) && waited < 20 * MaxC) begin
      @(posedge clk);
      waited++;
    end
    if (waited >= 20 * MaxC) begin
      $display("FAIL: segment %0d timed out: %0d/%0d instructions, %0d/%0d rows out, progress %0d/%0d, idle %b", s,
               ii, ni, oi, no, progress, nsteps, idle);
      errors++;
    end
    -> check_ar;
    @(posedge clk);
    $display("segment %0d: %0d instructions, %0d steps, %0d rows out", s, ni, nsteps, no);
  endtask

  // reach[k]: the first cycle progress_o showed k steps or more.
  localparam int MaxSteps = 8192;
  int reach [MaxSteps];
  int seen;
  always @(posedge clk) begin
    if (rst_n) begin
      while (seen < int'(progress) && seen < MaxSteps - 1) begin
        seen = seen + 1;
        reach[seen] = cycle;
      end
    end
  end

  // Cycles from the first to the last step of the two instructions whose
  // 2*M steps follow step `from`.
  task automatic time_pair(input string what, input int from);
    int cycles;
    cycles = reach[from + 2 * M] - reach[from + 1] + 1;
    $display("%s: %0d + %0d steps in %0d cycles", what, M, M, cycles);
    if (cycles > M + 4) begin
      $display("FAIL: %s does not overlap (%0d cycles for %0d rows each)", what, cycles, M);
      errors++;
    end
  endtask

  initial begin
    int seed, from;
    seed = Seed;
    seed = $urandom(seed);
    ni = 0; nc = 0; no = 0; nsteps = 0; seg = 1; gaps = 1'b0; seen = 0;
    held_valid = 1'b0; ac2sp_ready = 1'b1;
    for (int s = 1; s <= NSeg; s++) begin
      lim_i[s] = 0; lim_c[s] = 0; lim_o[s] = 0; lim_s[s] = 0;
    end
    for (int r = 0; r < NAR; r++) model[r] = 'x;
    `TB_RESET(3)

    directed_program();
    run_segment(1, 1'b0);
    random_program(60);
    run_segment(2, 1'b0);
    random_program(60);
    run_segment(3, 1'b1);
    pair_program(24);
    run_segment(4, 1'b1);

    // Overlap: the instructions are queued ahead, cw is always valid and
    // ac2sp always ready; the steps are timed from progress_o.
    mm(0, 0, M);
    mm(M, 0, M);
    run_segment(5, 1'b0);
    from = nsteps;
    mvout(0, M);      // write-after-read: mm writes the rows mvout reads
    mm(0, 0, M);
    mm(M, 0, M);      // read-after-write: mvout reads the rows mm writes
    mvout(M, M);
    run_segment(5, 1'b0);
    time_pair("mvout then mm acc=0 (same rows)", from);
    time_pair("mm acc=0 then mvout (same rows)", from + 2 * M);

    tb_finish($sformatf("PASS: %0d instructions, %0d steps, %0d rows out (T=%0d NAR=%0d)", ni, nsteps, no, T, NAR),
              "FAIL");
  end

endmodule
