// tb_movers.svh: what the data-moving units' testbenches share (Icarus -g2012).
//
// Include inside the testbench module after its parameters (which must
// include Seed) and `localparam int VW`. Provides what tb_common.svh,
// tb_memory.svh and tb_unit.svh do (the clock and reset, the cycle counter,
// the error count, the stream monitors, the memory models' data paths,
// instruction words and the ports every unit has), a seeded random source,
// a watchdog, the tasks that time the units and run their phases, and
// macros for valid/ready stream drivers fed from a queue, output monitors
// checked against a queue of expected items, and a memory's in-order
// responses.

`include "tb_common.svh"
`include "tb_memory.svh"
`include "tb_unit.svh"

  integer seed = Seed;
  int checked = 0;  // output items compared
  int gap = 0;      // % of cycles an input stream holds back
  int bp = 0;       // % of cycles an output is not ready

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

// Drive a stream from queue Q: present the head (random gaps of `gap` %),
// hold it until the handshake; while HOLD, present no new item. Use inside
// an always @(posedge clk) block.
`define TB_DRIVE(VALID, READY, DATA, Q, HOLD) \
  if (VALID && READY) VALID <= 1'b0; \
  if ((!VALID || READY) && !(HOLD) && Q.size() > 0 && rnd(100) >= gap) begin \
    DATA <= Q.pop_front(); \
    VALID <= 1'b1; \
  end

  // The program: the instructions not yet presented, and its steps so far
  // (what progress_o must reach).
  logic [IW-1:0] instr_q[$];
  int steps_total = 0;

// Wait for the next instruction handshake; AT = its cycle. (A macro for the
// reason TB_RESET is one.)
`define TB_INSTR_HANDSHAKE(AT) \
  while (!(instr_valid && instr_ready)) @(posedge clk); \
  AT = cycle;

// LAT = cycles from the next instruction handshake to the first cycle COND
// holds (an instruction's latency to its first output). (A macro for the
// reason TB_RESET is one.)
`define TB_LATENCY(LAT, COND) \
  `TB_INSTR_HANDSHAKE(LAT) \
  while (!(COND)) @(posedge clk); \
  LAT = cycle - LAT;

  // Cycles from the next instruction handshake until progress reaches `target`.
  task automatic measure(input int target, output longint cycles);
    longint start;
    `TB_INSTR_HANDSHAKE(start)
    while (progress != CW'(target)) @(posedge clk);
    cycles = cycle - start;
  endtask

  // A burst queued for full speed: the cycles from its first instruction's
  // handshake until progress counts the whole program, then the bench's
  // wait_done(what) and the line "THROUGHPUT <label>: <items> <unit> in
  // <cycles> cycles".
  task automatic throughput(input string what, input string label, input int items, input string unit);
    longint cycles;
    measure(steps_total, cycles);
    wait_done(what);
    $display("THROUGHPUT %0s: %0d %0s in %0d cycles", label, items, unit, cycles);
  endtask

  // Phase 1 of every mover's bench: the bench's random_program(n) under
  // random gaps (30 %) and backpressure (40 %), to the end (the bench's
  // wait_done); the next phases run at full speed, without either.
  task automatic random_phase(input int n);
    gap = 30;
    bp = 40;
    random_program(n);
    wait_done("random program");
    gap = 0;
    bp = 0;
  endtask

  // progress_o, three cycles from now, must be `steps`.
  task automatic expect_progress(input string what, input int steps);
    repeat (3) @(posedge clk);
    if (progress !== CW'(steps)) begin
      $display("FAIL: %s: progress %0d, expected %0d at cycle %0d", what, progress, steps, cycle);
      errors++;
    end
  endtask

// Wait while BUSY holds, N cycles at most (LIMIT, a longint, is set to the
// cycle it gives up at), then three cycles more. (A macro for the reason
// TB_RESET is one.)
`define TB_SETTLE(BUSY, N, LIMIT) \
  LIMIT = cycle + N; \
  while ((BUSY) && cycle < LIMIT) @(posedge clk); \
  repeat (3) @(posedge clk);

// At the end of a phase: progress_o must count every step of the program.
// (A macro for the reason TB_RESET is one: even a task that does not wait
// hands its caller back behind the other processes of the time step.)
`define TB_CHECK_PROGRESS(WHAT, STEPS) \
  if (progress !== CW'(STEPS)) begin \
    $display("FAIL: %s: progress %0d, expected %0d", WHAT, progress, STEPS); \
    errors++; \
  end

// A process driving one stream from queue Q, idle in reset; the _HELD form
// presents no new item while HOLD.
`define TB_DRIVER_HELD(VALID, READY, DATA, Q, HOLD) \
  always @(posedge clk or negedge rst_n) begin \
    if (!rst_n) begin \
      VALID <= 1'b0; \
      DATA <= '0; \
    end else begin \
      `TB_DRIVE(VALID, READY, DATA, Q, HOLD) \
    end \
  end
`define TB_DRIVER(VALID, READY, DATA, Q) `TB_DRIVER_HELD(VALID, READY, DATA, Q, 1'b0)

// An output checked against the expected queue Q, under the stream rule, not
// ready `bp` % of the cycles (HOLD/HELD/ITEM as for TB_HOLD and TB_EXPECT).
// Use inside an always @(posedge clk) block, out of reset.
`define TB_SINK(NAME, VALID, READY, DATA, Q, HOLD, HELD, ITEM) \
  `TB_HOLD(NAME, VALID, READY, DATA, HOLD, HELD) \
  `TB_EXPECT(NAME, VALID, READY, DATA, Q, ITEM) \
  READY <= rnd(100) >= bp;

// An output stream NAME (TB_STREAM's signals, W bits) checked against the
// expected queue Q by a process of its own with TB_SINK; not ready in reset.
`define TB_MONITOR(NAME, W, Q) \
  logic         NAME``_hold; \
  logic [W-1:0] NAME``_held, NAME``_item; \
  always @(posedge clk or negedge rst_n) begin \
    if (!rst_n) begin \
      NAME``_ready <= 1'b0; \
      NAME``_hold <= 1'b0; \
    end else begin \
      `TB_SINK(`"NAME`", NAME``_valid, NAME``_ready, NAME``_data, Q, NAME``_hold, NAME``_held, NAME``_item) \
    end \
  end

// A memory's request port SIG (SIG_valid, SIG_ready, named NAME in
// messages), by a process of its own: not ready `bp` % of the cycles, and
// the stream rule checked on PAYLOAD (W bits). Not ready in reset.
`define TB_REQUESTS(NAME, SIG, PAYLOAD, W) \
  logic         SIG``_hold; \
  logic [W-1:0] SIG``_held; \
  always @(posedge clk or negedge rst_n) begin \
    if (!rst_n) begin \
      SIG``_ready <= 1'b0; \
      SIG``_hold <= 1'b0; \
    end else begin \
      `TB_HOLD(NAME, SIG``_valid, SIG``_ready, PAYLOAD, SIG``_hold, SIG``_held) \
      SIG``_ready <= rnd(100) >= bp; \
    end \
  end

// A memory's responses, in order: Q holds what is not yet presented, HEAD a
// scratch item, DUE the cycle HEAD may be presented. The head is presented
// once due (random gaps of `gap` %); POP is done with it as it is. Use
// inside an always @(posedge clk) block, out of reset, after the handshake.
`define TB_RESPOND(VALID, READY, Q, HEAD, DUE, POP) \
  if (Q.size() > 0) HEAD = Q[0]; \
  if ((!VALID || READY) && Q.size() > 0 && DUE <= 32'(cycle) && rnd(100) >= gap) begin \
    HEAD = Q.pop_front(); \
    POP; \
    VALID <= 1'b1; \
  end
