// tb_common.svh: what every testbench of tests/hdl shares (Icarus -g2012).
//
// Include inside the testbench module, after its parameters, once (the
// module's own signals come after it). Provides the clock (a period of 10
// time units), the active-low reset rst_n, the cycle counter, the error
// count, the reset release, the closing report, and macros for the stream
// monitors (an output checked against a queue of expected items, the stream
// rule) and a stream driver fed from an array. Compile with -I tests/hdl.

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  int errors = 0;
  longint cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  // The last line, `pass` if no check failed, else `fail: <n> errors`; the end.
  task automatic tb_finish(input string pass, input string fail);
    if (errors == 0) $display("%0s", pass);
    else $display("%0s: %0d errors", fail, errors);
    $finish;
  endtask

// Hold reset through N rising edges, then release it. (A macro, not a task:
// Icarus runs a task call as a thread of its own, which would change the
// order the processes run in at a clock edge, and with it who draws which
// random number.)
`define TB_RESET(N) \
  repeat (N) @(posedge clk); \
  rst_n = 1'b1;

// A valid/ready stream NAME of W bits: NAME_valid, NAME_ready, NAME_data.
`define TB_STREAM(NAME, W) \
  logic NAME``_valid, NAME``_ready; \
  logic [W-1:0] NAME``_data;

// Port connections. A handshake the DUT takes in (PORT_valid_i, PORT_ready_o)
// or gives out (PORT_valid_o, PORT_ready_i), to SIG_valid and SIG_ready; a
// whole stream NAME (TB_STREAM's signals) adds NAME_data_i / NAME_data_o.
`define TB_HS_IN(PORT, SIG) .PORT``_valid_i(SIG``_valid), .PORT``_ready_o(SIG``_ready)
`define TB_HS_OUT(PORT, SIG) .PORT``_valid_o(SIG``_valid), .PORT``_ready_i(SIG``_ready)
`define TB_STREAM_IN(NAME) `TB_HS_IN(NAME, NAME), .NAME``_data_i(NAME``_data)
`define TB_STREAM_OUT(NAME) `TB_HS_OUT(NAME, NAME), .NAME``_data_o(NAME``_data)

// A unit's clock, reset and clear (never raised here), the instance's first
// ports; its progress_o and idle_o (to `progress` and `idle`), the last.
`define TB_UNIT_CLOCK .clk_i(clk), .rst_ni(rst_n), .clear_i(1'b0)
`define TB_UNIT_OUT .progress_o(progress), .idle_o(idle)

// Compare an output handshake with the head of the expected queue Q (ITEM
// is a scratch variable of the item's width); counts `checked`.
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

// The stream rule on an output: HOLD/HELD remember a stalled item, which
// must still be there, unchanged, in the next cycle.
`define TB_HOLD(NAME, VALID, READY, DATA, HOLD, HELD) \
  if (HOLD && (!VALID || DATA !== HELD)) begin \
    $display("FAIL: %s dropped or changed a stalled item at cycle %0d", NAME, cycle); \
    errors++; \
  end \
  HOLD <= VALID && !READY; \
  HELD <= DATA;

// A source that presents MEM[IDX] while IDX < LIMIT and SHOW (evaluated only
// then: a random gap), holding each item until its handshake. BLOCK names
// the process's block. TB_SOURCE also declares MEM (N items of W bits) and
// IDX.
`define TB_DRIVE_INDEXED(BLOCK, VALID, READY, DATA, IDX, MEM, LIMIT, SHOW) \
  always @(posedge clk or negedge rst_n) begin \
    if (!rst_n) begin \
      IDX <= 0; \
      VALID <= 1'b0; \
      DATA <= '0; \
    end else if (!VALID || READY) begin : BLOCK \
      int next; \
      next = IDX + ((VALID && READY) ? 1 : 0); \
      IDX <= next; \
      VALID <= (next < LIMIT) && SHOW; \
      DATA <= MEM[next]; \
    end \
  end
`define TB_SOURCE(BLOCK, VALID, READY, DATA, W, MEM, N, IDX, LIMIT, SHOW) \
  logic [W-1:0] MEM [N]; \
  int IDX; \
  `TB_DRIVE_INDEXED(BLOCK, VALID, READY, DATA, IDX, MEM, LIMIT, SHOW)

// An output handshake compared with MEM[IDX], the next of the LIMIT items
// expected (the first ten mismatches reported as WHAT <IDX>), and IDX
// stepped. Use inside an always @(posedge clk) block, out of reset.
`define TB_EXPECT_INDEXED(WHAT, VALID, READY, DATA, IDX, MEM, LIMIT) \
  if (VALID && READY) begin \
    if (IDX >= LIMIT || DATA !== MEM[IDX]) begin \
      if (errors < 10) $display("FAIL: %s %0d is %h, expected %h", WHAT, IDX, DATA, MEM[IDX]); \
      errors++; \
    end \
    IDX <= IDX + 1; \
  end
