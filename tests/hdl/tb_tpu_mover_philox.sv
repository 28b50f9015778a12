// tb_tpu_mover_philox: testbench of the mover's GENERATE engine,
// tpu_mover_philox (Icarus -g2012; Verilator with --timing).
//
// Reads NVec vectors from `Vectors` ($readmemh; one a line, 360 bits as 90
// hex digits: {seed[63:0], byte address[39:0], expected word[255:0]}, the C++
// model's words, written by tests/hdl/mover_philox_rtl_tests.cpp).
// Phase 1 drives them in order with random gaps on the input and random
// backpressure on the output (a seeded generator of its own, Seed), checks
// every word leaving the engine against the next expected one, that a
// stalled output holds (valid_o stays up and word_o does not change), and
// that the producer's valid_i and data never change while ready_o is low
// (it holds them). Phase 2 drives them again with no gaps and no
// backpressure and requires one word a cycle: ready_o never falls, a word
// enters every cycle, the words leave in consecutive cycles, the first one
// PHILOX_ROUNDS cycles after it entered. Prints LATENCY, THROUGHPUT and
// PASS, or FAIL.
//
// Timing: inputs change on the falling edge, handshakes are sampled one time
// unit later (everything settled, before the rising edge where the engine
// takes them), so the testbench and the engine never race.
`timescale 1ns / 1ps
module tb_tpu_mover_philox #(
  parameter int NVec = 2000,
  parameter int Seed = 1,
  parameter Vectors = "philox_vectors.hex"
);
  localparam int WordW  = tpu_mover_pkg::WORD_W;
  localparam int AddrW  = tpu_mover_pkg::ADDR_W;
  localparam int VecW   = 64 + 40 + 256;
  localparam int Rounds = tpu_mover_pkg::PHILOX_ROUNDS;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  logic             valid_i, ready_o, valid_o, ready_i;
  logic [63:0]      seed_i;
  logic [AddrW-1:0] addr_i;
  logic [WordW-1:0] word_o;

  tpu_mover_philox u_dut (
    .clk_i  (clk),
    .rst_ni (rst_n),
    .valid_i(valid_i),
    .ready_o(ready_o),
    .seed_i (seed_i),
    .addr_i (addr_i),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .word_o (word_o)
  );

  logic [VecW-1:0] vec[NVec];

  int     errors = 0;
  longint rng;

  // xorshift64: the testbench's own generator (the same draws in every simulator).
  function automatic longint next_rand();
    longint x;
    x = rng;
    x = x ^ (x << 13);
    x = x ^ ((x >> 7) & 64'h01ff_ffff_ffff_ffff);
    x = x ^ (x << 17);
    rng = x;
    next_rand = x;
  endfunction

  // A draw below n.
  function automatic int rnd(input int n);
    longint r;
    r = next_rand();
    rnd = int'((r >> 8) & 64'h7fff_ffff) % n;
  endfunction

  function automatic logic [63:0] vec_seed(input int i);
    vec_seed = vec[i][359:296];
  endfunction
  function automatic logic [39:0] vec_addr(input int i);
    vec_addr = vec[i][295:256];
  endfunction
  function automatic logic [255:0] vec_word(input int i);
    vec_word = vec[i][255:0];
  endfunction

  // One phase: every vector in, every word out and checked. gap_pct: the
  // chance of an input gap in a cycle; stall_pct: of ready_i low.
  int     sent, recv;
  longint cyc, first_in, first_out, last_out;
  logic   in_fire, out_fire, stalled_out, stalled_in;
  logic [WordW-1:0] held_word;
  logic [63+AddrW:0] held_in;

  task automatic run_phase(input int gap_pct, input int stall_pct, input int limit);
    sent        = 0;
    recv        = 0;
    cyc         = 0;
    first_in    = -1;
    first_out   = -1;
    last_out    = -1;
    stalled_out = 1'b0;
    stalled_in  = 1'b0;
    valid_i     = 1'b0;
    ready_i     = 1'b0;
    while (recv < NVec) begin
      @(negedge clk);
      // The producer: a held item stays; else the next one, or a gap.
      if (!stalled_in) begin
        if (sent < NVec && rnd(100) >= gap_pct) begin
          valid_i = 1'b1;
          seed_i  = vec_seed(sent);
          addr_i  = AddrW'(vec_addr(sent));
        end else begin
          valid_i = 1'b0;
          seed_i  = {next_rand()};  // junk while not valid
          addr_i  = AddrW'(next_rand());
        end
      end
      ready_i = rnd(100) >= stall_pct;
      #1;
      in_fire  = valid_i && ready_o;
      out_fire = valid_o && ready_i;
      // The stream rule on the output: a stalled word holds.
      if (stalled_out && !(valid_o && word_o == held_word)) begin
        errors++;
        $display("FAIL: cycle %0d: a stalled output changed or dropped (word %0d)", cyc, recv);
      end
      if (stalled_in && !(valid_i && {seed_i, addr_i} == held_in)) begin
        errors++;
        $display("FAIL: cycle %0d: the testbench dropped its held input", cyc);
      end
      if (out_fire) begin
        if (word_o !== vec_word(recv)) begin
          errors++;
          if (errors <= 10)
            $display("FAIL: word %0d (seed %h, address %h): got %h, expected %h", recv, vec_seed(recv),
                     vec_addr(recv), word_o, vec_word(recv));
        end
        if (first_out < 0) first_out = cyc;
        last_out = cyc;
        recv++;
      end
      if (in_fire) begin
        if (first_in < 0) first_in = cyc;
        sent++;
      end
      stalled_out = valid_o && !ready_i;
      held_word   = word_o;
      stalled_in  = valid_i && !ready_o;
      held_in     = {seed_i, addr_i};
      if (gap_pct == 0 && stall_pct == 0 && sent < NVec && !in_fire) begin
        errors++;
        $display("FAIL: cycle %0d: no word entered at full speed (ready_o %b)", cyc, ready_o);
      end
      cyc++;
      if (cyc > longint'(limit)) begin
        errors++;
        $display("FAIL: timeout after %0d cycles: %0d words in, %0d out", cyc, sent, recv);
        recv = NVec;
      end
    end
    @(negedge clk);
    valid_i = 1'b0;
    ready_i = 1'b1;
  endtask

  initial begin
    rng     = 64'h9e37_79b9_7f4a_7c15 ^ longint'(Seed);
    valid_i = 1'b0;
    ready_i = 1'b0;
    seed_i  = '0;
    addr_i  = '0;
    $readmemh(Vectors, vec, 0, NVec - 1);
    if (^vec[NVec-1] === 1'bx) begin
      errors++;
      $display("FAIL: %0s holds fewer than %0d vectors", Vectors, NVec);
    end
    repeat (3) @(posedge clk);
    rst_n = 1'b1;

    // Phase 1: random gaps and backpressure.
    run_phase(30, 40, 40 * NVec + 1000);
    $display("PHASE random: %0d words in %0d cycles", recv, cyc);

    // Let the pipeline drain (nothing is in it), then phase 2 at full speed.
    repeat (Rounds + 2) @(negedge clk);
    if (valid_o) begin
      errors++;
      $display("FAIL: a word left with nothing in the pipeline");
    end
    run_phase(0, 0, NVec + Rounds + 100);
    $display("LATENCY %0d cycles (PHILOX_ROUNDS %0d)", first_out - first_in, Rounds);
    $display("THROUGHPUT full speed: %0d words in %0d cycles", NVec, last_out - first_out + 1);
    if (first_out - first_in != longint'(Rounds)) begin
      errors++;
      $display("FAIL: latency %0d, expected %0d", first_out - first_in, Rounds);
    end
    if (last_out - first_out + 1 != longint'(NVec)) begin
      errors++;
      $display("FAIL: %0d words took %0d cycles, expected one a cycle", NVec, last_out - first_out + 1);
    end

    if (errors == 0) $display("PASS");
    else $display("FAIL: %0d errors", errors);
    $finish;
  end

endmodule
