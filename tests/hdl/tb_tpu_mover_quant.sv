// tb_tpu_mover_quant: the quantiser occupant (rtl/mover/tpu_mover_quant.sv)
// against vectors from the C++ model (tb/model/mover/quantiser.cpp), written
// by tests/hdl/mover_quant_rtl_tests.cpp.
//
// The vector file ($readmemh, one WORD_W-bit word a line) starts with the
// entry count. Each entry follows as IN_WORDS input words, one word holding
// the packing bit (0 A, 1 B) and OUT_WORDS expected output words.
//
// Phases:
//   random     every entry of the file in order, with seeded random gaps on
//              the input and random backpressure on the output (three mixes:
//              backpressure only, gaps only, both)
//   clear      a partial entry (0 .. IN_WORDS-1 random words), then clear_i,
//              then a whole entry that must come out right. clear_i is either
//              a cycle of its own or goes with the next entry's first word,
//              and sometimes comes while the entry before is still inside.
//   sustained  no gaps and no backpressure: the input must take one word every
//              cycle, from an entry's first word to the last entry's last
//              (THROUGHPUT line)
// The output checker compares every word taken with the expected word, in
// order. While valid_o waits for ready_i, word_o must not change. At the end
// nothing may be left over. It prints PASS or FAIL. The testbench drives and
// samples at the falling edge, so Icarus and Verilator (--binary --timing)
// see the same handshakes.
//
// Plusargs: +vectors=<file> (default quant_vectors.hex), +seed=<n> (default 1).
`timescale 1ns / 1ps

module tb_tpu_mover_quant;

  localparam int WordW      = tpu_mover_pkg::WORD_W;
  localparam int InWords    = tpu_mover_pkg::XFORM_QUANTISER_IN_WORDS;
  localparam int OutWords   = tpu_mover_pkg::XFORM_QUANTISER_OUT_WORDS;
  localparam int EntryWords = InWords + 1 + OutWords;
  localparam int MaxEntries = 8192;
  localparam int MaxOrder   = 16384;  // entries sent whole, in order
  localparam int Sustained  = 64;     // entries of the sustained phase
  localparam int Clears     = 48;     // rounds of the clear phase

  logic             clk = 1'b0;
  logic             rst_n = 1'b0;
  logic             clear = 1'b0;
  logic             b_packing = 1'b0;
  logic             in_valid = 1'b0;
  logic             in_ready;
  logic [WordW-1:0] in_word = '0;
  logic             out_valid;
  logic             out_ready = 1'b0;
  logic [WordW-1:0] out_word;

  always #5 clk = ~clk;

  tpu_mover_quant dut (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .clear_i    (clear),
    .b_packing_i(b_packing),
    .valid_i    (in_valid),
    .ready_o    (in_ready),
    .word_i     (in_word),
    .valid_o    (out_valid),
    .ready_i    (out_ready),
    .word_o     (out_word)
  );

  // ---------------------------------------------------------------------------
  // Vectors, randomness, bookkeeping
  // ---------------------------------------------------------------------------
  logic [WordW-1:0] vec[0:MaxEntries*EntryWords];
  int               n_entries;
  int               order[0:MaxOrder-1];  // the entries sent whole, in order
  int               n_sent = 0;           // entries in order[]
  int               n_checked = 0;        // entries whose every word came out
  int               n_out_words = 0;
  int               out_sub = 0;          // the next output word of order[n_checked]
  int               errors = 0;
  longint           cyc = 0;
  int               bp_pct = 0;           // the output's chance of not being ready, percent
  logic [31:0]      drv_s, mon_s;         // xorshift32 states of the driver and the monitor

  function automatic logic [31:0] xorshift(input logic [31:0] s);
    logic [31:0] x;
    x = s;
    x = x ^ (x << 13);
    x = x ^ (x >> 17);
    x = x ^ (x << 5);
    xorshift = x;
  endfunction

  // The driver's next random number.
  function automatic int unsigned drv_rand();
    drv_s    = xorshift(drv_s);
    drv_rand = drv_s;
  endfunction

  function automatic logic [WordW-1:0] drv_word();
    logic [WordW-1:0] w;
    for (int i = 0; i < WordW / 32; i++) w[32*i+:32] = drv_rand();
    drv_word = w;
  endfunction

  task automatic fail(input string what);
    errors++;
    if (errors <= 10) $display("FAIL at cycle %0d: %s", cyc, what);
  endtask

  always @(posedge clk) cyc <= cyc + 1;

  // ---------------------------------------------------------------------------
  // The output: checked in order, held while not taken, random backpressure
  // ---------------------------------------------------------------------------
  // The testbench drives and samples at the falling edge, where nothing the
  // DUT drives is changing (every simulator agrees on what it sees there): a
  // handshake seen there happens at the next rising edge, numbered `cyc`.
  logic             held = 1'b0;  // valid_o waited for ready_i at the last rising edge
  logic [WordW-1:0] held_word;
  longint           first_out_cyc = -1;  // the first output handshake since it was set to -1
  int               mon_e;
  logic [WordW-1:0] mon_want;

  always @(negedge clk) begin
    if (rst_n) begin
      if (held && (!out_valid || out_word !== held_word)) fail("valid_o or word_o changed while waiting for ready_i");
      mon_s     = xorshift(mon_s);
      out_ready = (mon_s % 100) >= bp_pct;
      held      = out_valid && !out_ready;
      held_word = out_word;
      if (out_valid && out_ready) begin
        if (first_out_cyc < 0) first_out_cyc = cyc;
        n_out_words++;
        if (n_checked >= n_sent) begin
          fail($sformatf("an output word no entry accounts for: %h", out_word));
        end else begin
          mon_e    = order[n_checked];
          mon_want = vec[1+mon_e*EntryWords+InWords+1+out_sub];
          if (out_word !== mon_want)
            fail($sformatf("entry %0d (sent #%0d, %s packing) word %0d:\n  got  %h\n  want %h", mon_e, n_checked,
                           vec[1+mon_e*EntryWords+InWords][0] ? "B" : "A", out_sub, out_word, mon_want));
          if (out_sub == OutWords - 1) begin
            out_sub = 0;
            n_checked++;
          end else begin
            out_sub++;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // The input
  // ---------------------------------------------------------------------------
  int     stalls = 0;        // cycles a presented word waited for ready_o
  longint last_take = 0;     // the cycle of the last input handshake
  longint first_take = -1;   // the cycle of the first input handshake since it was set to -1

  // Present `w` (after a random gap of valid_i low, `gap_pct` percent a
  // cycle) until it is taken; with `clr`, clear_i goes with its first cycle.
  // Called, and returns, at a falling edge.
  task automatic send_word(input logic [WordW-1:0] w, input logic pack, input int gap_pct, input logic clr);
    logic took;
    while ((drv_rand() % 100) < gap_pct) @(negedge clk);
    in_valid  = 1'b1;
    in_word   = w;
    b_packing = pack;
    clear     = clr;
    took = 1'b0;
    while (!took) begin
      #1;  // whatever ready_o does with the inputs settles
      took = in_ready;
      if (took) begin
        last_take = cyc;
        if (first_take < 0) first_take = cyc;
      end else begin
        stalls++;
      end
      @(negedge clk);
      clear = 1'b0;
    end
    in_valid = 1'b0;
    in_word  = drv_word();  // not held: the DUT must not read it
  endtask

  // clear_i for one cycle, valid_i low.
  task automatic clear_alone;
    clear = 1'b1;
    @(negedge clk);
    clear = 1'b0;
  endtask

  // Entry `e` of the file, whole; recorded for the checker.
  task automatic send_entry(input int e, input int gap_pct, input logic clr_first);
    if (n_sent >= MaxOrder) begin
      $display("FAIL: the testbench's order table is full");
      $finish;
    end
    order[n_sent] = e;
    n_sent++;
    for (int b = 0; b < InWords; b++)
      send_word(vec[1+e*EntryWords+b], vec[1+e*EntryWords+InWords][0], gap_pct, clr_first && b == 0);
  endtask

  task automatic drain;
    longint start;
    start = cyc;
    while (n_checked < n_sent) begin
      @(negedge clk);
      if (cyc - start > 100000) begin
        $display("FAIL: %0d of %0d entries came out (timeout)", n_checked, n_sent);
        $finish;
      end
    end
  endtask

  // ---------------------------------------------------------------------------
  // The phases
  // ---------------------------------------------------------------------------
  initial begin
    string  file;
    int     fd, seed, n;
    longint t0, t1, last_in;
    int     stalls0;
    int     mix, partial, e;
    logic   with_word;

    if (!$value$plusargs("vectors=%s", file)) file = "quant_vectors.hex";
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    drv_s = 32'h9E37_79B9 ^ 32'(seed);
    mon_s = 32'h85EB_CA6B ^ (32'(seed) << 1);
    fd    = $fopen(file, "r");
    if (fd == 0) begin
      $display("FAIL: cannot open %s", file);
      $finish;
    end
    n = $fscanf(fd, "%h", n_entries);
    $fclose(fd);
    if (n != 1 || n_entries < 1 || n_entries > MaxEntries) begin
      $display("FAIL: %s does not start with an entry count in 1 .. %0d", file, MaxEntries);
      $finish;
    end
    $readmemh(file, vec, 0, n_entries * EntryWords);
    $display("tb_tpu_mover_quant: %0d entries from %s, seed %0d", n_entries, file, seed);

    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);

    // Random gaps and backpressure, in three mixes.
    for (e = 0; e < n_entries; e++) begin
      mix    = (3 * e) / n_entries;
      bp_pct = (mix == 1) ? 0 : ((mix == 0) ? 60 : 30);
      send_entry(e, (mix == 0) ? 0 : ((mix == 1) ? 50 : 30), 1'b0);
    end
    drain();
    $display("random phase: %0d entries, %0d output words checked, %0d input stalls", n_entries, n_out_words,
             stalls);

    // clear_i: a partial entry dropped, the next entry right.
    bp_pct = 30;
    for (int r = 0; r < Clears; r++) begin
      partial   = drv_rand() % InWords;  // 0: clear_i with nothing collected
      e         = drv_rand() % n_entries;
      with_word = 1'(r % 2);
      for (int b = 0; b < partial; b++) send_word(drv_word(), 1'(drv_rand() % 2), 20, 1'b0);
      if (!with_word) clear_alone();
      send_entry(e, 20, with_word);
      // Sometimes a whole entry with clear_i right after it, while it is still inside.
      if (r % 5 == 0) begin
        send_entry(drv_rand() % n_entries, 0, 1'b0);
        clear_alone();
      end
    end
    drain();
    $display("clear phase: %0d rounds, %0d entries checked in all", Clears, n_checked);

    // Sustained: every cycle a word.
    bp_pct = 0;
    repeat (4) @(negedge clk);
    stalls0       = stalls;
    first_out_cyc = -1;
    first_take    = -1;
    last_in       = -1;
    for (int i = 0; i < Sustained; i++) begin
      send_entry(i % n_entries, 0, 1'b0);
      if (i == 0) last_in = last_take;
    end
    t0 = first_take;
    t1 = last_take;
    drain();
    $display("THROUGHPUT sustained: %0d words in %0d cycles (%0d stalls)", Sustained * InWords, t1 - t0 + 1,
             stalls - stalls0);
    $display("LATENCY: the first entry's last word taken at cycle %0d, its word 0 taken at cycle %0d (%0d)",
             last_in, first_out_cyc, first_out_cyc - last_in);
    if (stalls != stalls0 || t1 - t0 + 1 != Sustained * InWords)
      fail($sformatf("sustained phase: %0d words took %0d cycles", Sustained * InWords, t1 - t0 + 1));

    // Nothing left over.
    repeat (20) @(negedge clk);
    if (out_valid) fail("an output word after the last entry");
    if (n_checked != n_sent || out_sub != 0)
      fail($sformatf("%0d entries sent whole, %0d came out", n_sent, n_checked));

    if (errors == 0)
      $display("PASS: %0d entries, %0d output words checked", n_checked, n_out_words);
    else $display("FAIL: %0d errors", errors);
    $finish;
  end

  // A watchdog: the whole run is bounded.
  initial begin
    #(64'd100_000_000);
    $display("FAIL: timeout");
    $finish;
  end

endmodule
