// tpu_mover_philox: GENERATE's words (mover-notes §3), one 256-bit word a
// cycle. Philox-4x32 as Random123 defines it, keyed by the seed and counting
// by word address: for the word at byte address A, W = A >> 5, the key is
// k0 = seed[31:0], k1 = seed[63:32], and half h (0, 1) runs the counter
// ctr0 = W[31:0], ctr1 = (W[34:32] << 1) | h, ctr2 = ctr3 = 0 through
// PHILOX_ROUNDS rounds; bits [127:0] of word_o are half 0's four outputs
// (output j at [32j+31:32j]), bits [255:128] half 1's. Bit-exact with the
// C++ model tb/model/mover/philox.cpp.
//
// Hand-written module of the mover (rtl/mover), copied unchanged into every
// mover configuration by `tpugen mover gen`; the constants (round count,
// multipliers, Weyl constants, word and address widths) are
// tpu_mover_pkg's, from the spec (spec/system_node.yaml, mover.generate;
// it bounds the round count to 1..64).
//
// Pipeline: one round per stage, PHILOX_ROUNDS stages (g_stage[r] runs round
// r), both halves side by side, so a word enters every cycle the output
// moves. Stage r's register holds the counters after round r and the key
// round r used; stage r + 1 bumps that key by the Weyl constants (each key
// word plus its constant, mod 2^32) before its round, as Random123 bumps it
// before every round but the first. Latency: a word accepted at a clock edge
// is on word_o after PHILOX_ROUNDS edges (with no stall).
//
// Flow control: a single pipeline enable, advance = !valid_o || ready_i;
// every stage moves together, so bubbles stay in the pipeline (the cost of
// a stall is a cycle, never a lost word). ready_o = advance. Stream rule
// (PULP common_cells): valid_o is the last stage's valid flag, a register,
// and never depends on ready_i; while valid_o waits for ready_i nothing
// moves, so word_o holds until the handshake. Reset (async, active low)
// clears every valid flag; the data registers are not reset (read only
// behind a valid flag).
//
// Assertions (at the end, under `ifdef TPU_ASSERT, as in tpu_fifo): the
// stream rule on both ports (tpu_stream_check: the producer's valid_i,
// seed_i and addr_i hold while ready_o is low; valid_o and word_o hold while
// ready_i is low).
module tpu_mover_philox (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // input stream: the seed and the word's byte address (low 5 bits 0)
  input  logic                             valid_i,
  output logic                             ready_o,
  input  logic [63:0]                      seed_i,
  input  logic [tpu_mover_pkg::ADDR_W-1:0] addr_i,
  // output stream: the word
  output logic                             valid_o,
  input  logic                             ready_i,
  output logic [tpu_mover_pkg::WORD_W-1:0] word_o
);

  localparam int Rounds  = tpu_mover_pkg::PHILOX_ROUNDS;
  localparam int WordW   = tpu_mover_pkg::WORD_W;
  localparam int AddrW   = tpu_mover_pkg::ADDR_W;
  localparam int KeyW    = 64;           // two 32-bit key words
  localparam int HalfW   = 128;          // four 32-bit counter words: one Philox block
  localparam int Halves  = WordW / HalfW;
  localparam int ByteLsb = $clog2(WordW / 8);  // W = A >> ByteLsb

  // ---------------------------------------------------------------------------
  // The pipeline enable
  // ---------------------------------------------------------------------------
  logic advance;
  assign advance = !valid_o || ready_i;
  assign ready_o = advance;

  // ---------------------------------------------------------------------------
  // Stage 0's inputs: the counters of both halves and the key
  // ---------------------------------------------------------------------------
  // W zero-extended to 64 bits: ctr0 takes W[31:0], ctr1 W[34:32]; a wider W
  // would be cut there (as the model cuts it), a narrower one reads zeros.
  logic [63:0]      word_addr;
  logic [31:0]      ctr0_in;
  logic [2:0]       ctr1_hi_in;
  logic [WordW-1:0] ctr_in;

  assign word_addr  = 64'(addr_i[AddrW-1:ByteLsb]);
  assign ctr0_in    = word_addr[31:0];
  assign ctr1_hi_in = word_addr[34:32];

  for (genvar h = 0; h < Halves; h++) begin : g_ctr_in
    assign ctr_in[h*HalfW+:HalfW] = {32'h0, 32'h0, 28'h0, ctr1_hi_in, 1'(h), ctr0_in};
  end

  // ---------------------------------------------------------------------------
  // The rounds: stage r reads entry r of the chains and drives entry r + 1
  // ---------------------------------------------------------------------------
  // ctr_chain[r], key_chain[r], valid_chain[r]: what stage r reads (entry 0
  // the inputs, entry r + 1 stage r's registers). The last stage's key is
  // not kept (nothing reads it).
  logic [(Rounds+1)*WordW-1:0] ctr_chain;
  logic [Rounds*KeyW-1:0]      key_chain;
  logic [Rounds:0]             valid_chain;

  assign ctr_chain[0+:WordW] = ctr_in;
  assign key_chain[0+:KeyW]  = seed_i;
  assign valid_chain[0]      = valid_i;

  for (genvar r = 0; r < Rounds; r++) begin : g_stage
    logic [KeyW-1:0]  key_in, key;
    logic [WordW-1:0] ctr, ctr_d, ctr_q;
    logic             valid_q;

    assign ctr    = ctr_chain[r*WordW+:WordW];
    assign key_in = key_chain[r*KeyW+:KeyW];

    // The key schedule: round 0 uses the seed, every later round the key
    // before it plus the Weyl constants (word by word, mod 2^32).
    if (r == 0) begin : g_key_first
      assign key = key_in;
    end else begin : g_key_bump
      assign key = {key_in[63:32] + tpu_mover_pkg::PHILOX_W1, key_in[31:0] + tpu_mover_pkg::PHILOX_W0};
    end

    // One round on each half: the products of counter words 0 and 2 with
    // M0 and M1; out = {hi1 ^ ctr1 ^ k0, lo1, hi0 ^ ctr3 ^ k1, lo0}, word 0
    // first (word 0 at the half's low bits).
    for (genvar h = 0; h < Halves; h++) begin : g_half
      logic [31:0] c0, c1, c2, c3;
      logic [63:0] p0, p1;

      assign c0 = ctr[h*HalfW+0+:32];
      assign c1 = ctr[h*HalfW+32+:32];
      assign c2 = ctr[h*HalfW+64+:32];
      assign c3 = ctr[h*HalfW+96+:32];
      assign p0 = 64'(tpu_mover_pkg::PHILOX_M0) * 64'(c0);
      assign p1 = 64'(tpu_mover_pkg::PHILOX_M1) * 64'(c2);

      assign ctr_d[h*HalfW+0+:32]  = p1[63:32] ^ c1 ^ key[31:0];
      assign ctr_d[h*HalfW+32+:32] = p1[31:0];
      assign ctr_d[h*HalfW+64+:32] = p0[63:32] ^ c3 ^ key[63:32];
      assign ctr_d[h*HalfW+96+:32] = p0[31:0];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
      end else if (advance) begin
        valid_q <= valid_chain[r];
      end
    end

    // Data registers: no reset, read only behind valid_q.
    always_ff @(posedge clk_i) begin
      if (advance) ctr_q <= ctr_d;
    end

    assign ctr_chain[(r+1)*WordW+:WordW] = ctr_q;
    assign valid_chain[r+1]              = valid_q;

    if (r < Rounds - 1) begin : g_key_reg
      logic [KeyW-1:0] key_q;
      always_ff @(posedge clk_i) begin
        if (advance) key_q <= key;
      end
      assign key_chain[(r+1)*KeyW+:KeyW] = key_q;
    end
  end

  assign valid_o = valid_chain[Rounds];
  assign word_o  = ctr_chain[Rounds*WordW+:WordW];

  // W's bits above 34 (none at ADDR_W = 40) and the byte offset within the
  // word feed nothing.
  logic unused_addr;
  assign unused_addr = ^{word_addr[63:35], addr_i[ByteLsb-1:0]};

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: the stream rule on both ports.
  // ---------------------------------------------------------------------------
  tpu_stream_check #(
    .Width(KeyW + AddrW)
  ) u_check_in (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_i),
    .ready_i(ready_o),
    .data_i ({seed_i, addr_i})
  );

  tpu_stream_check #(
    .Width(WordW)
  ) u_check_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_o),
    .ready_i(ready_i),
    .data_i (word_o)
  );
`endif

endmodule
