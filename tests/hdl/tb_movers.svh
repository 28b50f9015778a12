// tb_movers.svh: what the data-moving units' testbenches share (Icarus -g2012).
//
// Include inside the testbench module after its parameters (which must
// include Seed) and `localparam int VW`. Provides the clock and reset, the
// cycle counter, a seeded random source, instruction words built from
// tpu_pkg's flat instr_t layout (tpu_pkg::INSTR_*_LSB), a watchdog, and
// macros for a valid/ready stream driver fed from a queue, an output
// checker against a queue of expected items, and the stream rule (a stalled
// output keeps its valid and data until the handshake).

  localparam int IW = tpu_pkg::INSTR_W;
  localparam int CW = tpu_pkg::COUNT_W;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  integer seed = Seed;
  int errors = 0;
  int checked = 0;  // output items compared
  int gap = 0;      // % of cycles an input stream holds back
  int bp = 0;       // % of cycles an output is not ready
  longint cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  // A hang anywhere is a failure, not a stuck simulation.
  initial begin
    #(10 * 400000);
    $display("FAIL: timeout at cycle %0d", cycle);
    $finish;
  end

  function automatic int rnd(input int n);
    rnd = ($random(seed) & 32'h7fffffff) % n;
  endfunction

  function automatic logic [VW-1:0] rnd_row();
    logic [VW-1:0] r;
    for (int i = 0; i < VW; i += 32) r[i +: 32] = $random(seed);
    rnd_row = r;
  endfunction

  // One dispatched instruction (tpu_pkg::instr_t, flat).
  function automatic logic [IW-1:0] mk(input logic [tpu_pkg::FLD_OP_W-1:0] op, input int f0, input int f1,
                                       input int f2, input int f3, input int nr, input int steps);
    logic [IW-1:0] w;
    w = '0;
    w[tpu_pkg::INSTR_OP_LSB +: tpu_pkg::FLD_OP_W] = op;
    w[tpu_pkg::INSTR_F0_LSB +: tpu_pkg::FIELD_W] = f0[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_F1_LSB +: tpu_pkg::FIELD_W] = f1[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_F2_LSB +: tpu_pkg::FIELD_W] = f2[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_F3_LSB +: tpu_pkg::FIELD_W] = f3[tpu_pkg::FIELD_W-1:0];
    w[tpu_pkg::INSTR_NR_LSB +: tpu_pkg::FLD_NR_W] = nr[tpu_pkg::FLD_NR_W-1:0];
    w[tpu_pkg::INSTR_STEPS_LSB +: tpu_pkg::COUNT_W] = steps[tpu_pkg::COUNT_W-1:0];
    mk = w;
  endfunction

// Drive a stream from queue Q: present the head (random gaps of `gap` %),
// hold it until the handshake. Use inside an always @(posedge clk) block.
`define TB_DRIVE(VALID, READY, DATA, Q) \
  if (VALID && READY) VALID <= 1'b0; \
  if ((!VALID || READY) && Q.size() > 0 && rnd(100) >= gap) begin \
    DATA <= Q.pop_front(); \
    VALID <= 1'b1; \
  end

// Compare an output handshake with the head of the expected queue Q (ITEM
// is a scratch variable of the item's width).
`define TB_EXPECT(NAME, VALID, READY, DATA, Q, ITEM) \
  if (VALID && READY) begin \
    if (Q.size() == 0) begin \
      $display("FAIL: unexpected %s item %h at cycle %0d", NAME, DATA, cycle); \
      errors++; \
    end else begin \
      ITEM = Q.pop_front(); \
      checked++; \
      if (ITEM !== DATA) begin \
        $display("FAIL: %s item %h, expected %h at cycle %0d", NAME, DATA, ITEM, cycle); \
        errors++; \
      end \
    end \
  end

// The stream rule on an output: HOLD/HELD remember a stalled item.
`define TB_HOLD(NAME, VALID, READY, DATA, HOLD, HELD) \
  if (HOLD && (!VALID || DATA !== HELD)) begin \
    $display("FAIL: %s dropped or changed a stalled item at cycle %0d", NAME, cycle); \
    errors++; \
  end \
  HOLD <= VALID && !READY; \
  HELD <= DATA;
