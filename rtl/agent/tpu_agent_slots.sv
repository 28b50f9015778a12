// tpu_agent_slots: one port's write reassembly slots (mover-notes §6: one
// slot per source), the words they hold, and the drain that hands each
// complete write's words to the AXI write path.
//
// Hand-written module of tpugen, copied unchanged into every agent
// configuration (tpugen agent gen); tpu_agent_port holds one.
//
// A slot is FREE, OPEN (a write awaiting its data flits), DISCARD (a refused
// write whose data flits are consumed and dropped) or DRAIN (a complete
// write whose words are being read out). OPEN and DISCARD are the model's
// open writes: at most one per source (the dispatcher opens a slot only for
// a source with none; match_o finds it). DRAIN is not: a write is done, for
// its source, with its final data flit, and the source may open another.
//
// full_o counts the model's open writes: with every slot OPEN or DISCARD a
// MEM_WR_REQ is refused (WRITE_SLOTS_FULL). A DRAIN slot is not free either,
// but it frees itself without the intake, so a request waiting for it
// (free_o low, full_o low) waits a bounded time.
//
// The dispatcher (tpu_agent_port) does at most one thing a cycle:
//   open_i  the free slot (free_o, the lowest) takes a MEM_WR_REQ: OPEN, or
//           DISCARD with open_discard_i, with its header, address and len
//   data_i  the slot match_o found takes a data flit: an OPEN slot writes
//           the word into its row of the memory (Beats rows a slot) and the
//           final one (the len+1-th, counted) closes it into DRAIN, queued
//           for the drain; a DISCARD slot counts it off and frees itself
//           after the final one
// The drain reads the oldest DRAIN slot's words from the memory, one a cycle
// while its output FIFO (tpu_skid) will have room, and frees the slot after
// the read of its last word: its words leave (wr_*) in order with their
// addresses, the first and last of each write marked, and its words - 1.
//
// Parameters:
//   Slots  slots (WR_SLOTS)
//   Beats  rows a slot (WRITE_MAX_BEATS: an accepted write's words)
module tpu_agent_slots #(
  parameter  int Slots = 4,
  parameter  int Beats = 8,
  localparam int BeatW = (Beats > 1) ? $clog2(Beats) : 1
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // the lookup: the slot open for a source
  input  logic [tpu_agent_pkg::NODE_W-1:0]       src_i,
  output logic                                   match_o,          // a slot is open (OPEN or DISCARD) for src_i
  output logic                                   match_discard_o,  // it is a discard slot
  output logic                                   match_final_o,    // its next data flit is its last
  output logic [tpu_agent_pkg::HEADER_W-1:0]     match_hdr_o,      // its MEM_WR_REQ's header
  output logic                                   free_o,           // a slot is free
  output logic                                   full_o,           // every slot is OPEN or DISCARD
  // the dispatcher's action this cycle
  input  logic                                   open_i,
  input  logic                                   open_discard_i,
  input  logic [tpu_agent_pkg::HEADER_W-1:0]     open_hdr_i,
  input  logic [tpu_agent_pkg::ADDR_W-1:0]       open_addr_i,
  input  logic [tpu_agent_pkg::MEM_REQ_LEN_W-1:0] open_len_i,
  input  logic                                   data_i,
  input  logic [tpu_agent_pkg::WORD_W-1:0]       data_word_i,
  // complete writes' words, in the order the writes completed
  output logic                                   wr_valid_o,
  input  logic                                   wr_ready_i,
  output logic [tpu_agent_pkg::WORD_W-1:0]       wr_data_o,
  output logic [tpu_agent_pkg::ADDR_W-1:0]       wr_addr_o,
  output logic                                   wr_first_o,
  output logic                                   wr_last_o,
  output logic [BeatW-1:0]                       wr_len_o,         // the write's words - 1
  // a write is draining or waits to
  output logic                                   busy_o
);

  localparam int SlotW  = (Slots > 1) ? $clog2(Slots) : 1;
  localparam int LenW   = tpu_agent_pkg::MEM_REQ_LEN_W;
  localparam int HdrW   = tpu_agent_pkg::HEADER_W;
  localparam int AlignW = $clog2(tpu_agent_pkg::WORD_BYTES);
  localparam int WAddrW = tpu_agent_pkg::ADDR_W - AlignW;          // a word address
  localparam int WordW  = tpu_agent_pkg::WORD_W;
  localparam int Rows   = Slots * Beats;
  localparam int RowW   = (Rows > 1) ? $clog2(Rows) : 1;
  localparam int SideW  = WAddrW + 2 + BeatW;                      // a word's address, first, last, len

  localparam logic [1:0] SFree    = 2'd0;
  localparam logic [1:0] SOpen    = 2'd1;
  localparam logic [1:0] SDiscard = 2'd2;
  localparam logic [1:0] SDrain   = 2'd3;

  // A slot's state and count of data flits taken (flat: written by the
  // dispatcher and the drain in the same cycle); its request (written once,
  // at open: read only while the slot is not free).
  logic [2*Slots-1:0]    st_q;
  logic [LenW*Slots-1:0] beat_q;
  logic [HdrW-1:0]       hdr_q  [Slots];
  logic [WAddrW-1:0]     addr_q [Slots];
  logic [LenW-1:0]       len_q  [Slots];

  // --- The lookup ---------------------------------------------------------------------
  logic [Slots-1:0] hit, idle, taken;
  for (genvar s = 0; s < Slots; s++) begin : g_lookup
    logic [1:0]                      st;
    logic [tpu_agent_pkg::POS_W-1:0] sx, sy;                       // its source
    assign st      = st_q[2*s +: 2];
    assign sx      = hdr_q[s][tpu_agent_pkg::SRC_X_LSB - tpu_agent_pkg::PAYLOAD_W +: tpu_agent_pkg::SRC_X_W];
    assign sy      = hdr_q[s][tpu_agent_pkg::SRC_Y_LSB - tpu_agent_pkg::PAYLOAD_W +: tpu_agent_pkg::SRC_Y_W];
    assign hit[s]  = ((st == SOpen) || (st == SDiscard)) && ({sy, sx} == src_i);
    assign idle[s] = st == SFree;
    assign taken[s] = (st == SOpen) || (st == SDiscard);
  end

  // The matched slot, and the lowest free one.
  logic [SlotW-1:0] m, f;
  always_comb begin
    m = '0;
    f = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (hit[s]) m = SlotW'(s);
      if (idle[s]) f = SlotW'(s);
    end
  end
  assign free_o = idle != '0;
  assign full_o = &taken;

  logic [1:0]      st_m;                                         // the matched slot's state and count
  logic [LenW-1:0] beat_m;
  assign st_m            = st_q[2*32'(m) +: 2];
  assign beat_m          = beat_q[LenW*32'(m) +: LenW];
  assign match_o         = hit != '0;
  assign match_discard_o = st_m == SDiscard;
  assign match_final_o   = beat_m == len_q[m];
  assign match_hdr_o     = hdr_q[m];

  // --- The drain queue: closed slots, in close order -----------------------------------
  logic             close, dq_valid, dq_pop;
  logic [SlotW-1:0] dq_slot;
  logic [$clog2(Slots+1)-1:0] dq_usage;
  logic             dq_ready;
  assign close = data_i && !match_discard_o && match_final_o;

  tpu_fifo #(
    .Width(SlotW),
    .Depth(Slots)
  ) u_drain_q (
    .clk_i,
    .rst_ni,
    .valid_i(close),
    .ready_o(dq_ready),
    .data_i (m),
    .valid_o(dq_valid),
    .ready_i(dq_pop),
    .data_o (dq_slot),
    .usage_o(dq_usage)
  );

  // --- The words ----------------------------------------------------------------------
  logic             room, rd, rd_q, sk_valid;
  logic [BeatW-1:0] k_q;
  logic [RowW-1:0]  wrow, rrow;
  logic [WordW-1:0] rdata;
  logic [SideW-1:0] side, side_q, sk_side;
  logic             sk_pop, sk_empty;
  assign wrow = RowW'(32'(m) * Beats + 32'(beat_m));
  assign rrow = RowW'(32'(dq_slot) * Beats + 32'(k_q));

  tpu_ram_1r1w #(
    .Width(WordW),
    .Depth(Rows)
  ) u_words (
    .clk_i,
    .we_i   (data_i && (st_m == SOpen)),
    .waddr_i(wrow),
    .wdata_i(data_word_i),
    .re_i   (rd),
    .raddr_i(rrow),
    .rdata_o(rdata)
  );

  logic last_word;
  assign last_word = 32'(k_q) == 32'(len_q[dq_slot]);
  assign rd        = dq_valid && room;
  assign dq_pop    = rd && last_word;
  assign side      = {addr_q[dq_slot] + WAddrW'(k_q), k_q == '0, last_word, BeatW'(len_q[dq_slot])};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      k_q  <= '0;
      rd_q <= 1'b0;
    end else begin
      rd_q <= rd;
      if (rd) k_q <= last_word ? '0 : k_q + BeatW'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rd) side_q <= side;
  end

  logic [WordW+SideW-1:0] sk_data;
  tpu_skid #(
    .Width(WordW + SideW),
    .Depth(2)
  ) u_out (
    .clk_i,
    .rst_ni,
    .valid_i(rd_q),
    .data_i ({rdata, side_q}),
    .valid_o(sk_valid),
    .ready_i(wr_ready_i),
    .data_o (sk_data),
    .room_o (room),
    .pop_o  (sk_pop),
    .empty_o(sk_empty)
  );
  assign sk_side    = sk_data[SideW-1:0];
  assign wr_valid_o = sk_valid;
  assign wr_data_o  = sk_data[SideW +: WordW];
  assign wr_addr_o  = {sk_side[SideW-1 -: WAddrW], AlignW'(0)};
  assign wr_first_o = sk_side[BeatW+1];
  assign wr_last_o  = sk_side[BeatW];
  assign wr_len_o   = sk_side[BeatW-1:0];

  assign busy_o = dq_valid || rd_q || !sk_empty;

  // --- The slots ----------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q   <= '0;
      beat_q <= '0;
    end else begin
      if (open_i) begin
        st_q[2*32'(f) +: 2]   <= open_discard_i ? SDiscard : SOpen;
        beat_q[LenW*32'(f) +: LenW] <= '0;
      end
      if (data_i) begin
        beat_q[LenW*32'(m) +: LenW] <= beat_m + LenW'(1);
        if (match_final_o) st_q[2*32'(m) +: 2] <= match_discard_o ? SFree : SDrain;
      end
      if (dq_pop) st_q[2*32'(dq_slot) +: 2] <= SFree;
    end
  end

  // A slot's request: kept while it is open or draining; read only then.
  always_ff @(posedge clk_i) begin
    if (open_i) begin
      hdr_q[f]  <= open_hdr_i;
      addr_q[f] <= open_addr_i[tpu_agent_pkg::ADDR_W-1:AlignW];
      len_q[f]  <= open_len_i;
    end
  end

  logic unused;
  assign unused = ^{dq_usage, dq_ready, sk_pop, open_addr_i[AlignW-1:0]};

`ifdef TPU_ASSERT
  // At most one slot open per source.
  tpu_assert_never u_two_slots_one_source (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i ((hit & (hit - Slots'(1))) != '0)
  );
  // The dispatcher opens a slot only when one is free, and for a source with none.
  tpu_assert_never u_open_without_free (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (open_i && (!free_o || match_o || data_i))
  );
  // A write is never opened past the slots (the decoder refuses it: WRITE_SLOTS_FULL).
  tpu_assert_never u_open_when_full (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (open_i && full_o)
  );
  tpu_assert_never u_data_without_slot (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (data_i && !match_o)
  );
  // An OPEN slot's words fit its rows.
  tpu_assert_never u_write_too_long (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (data_i && !match_discard_o && (32'(beat_m) >= Beats))
  );
`endif

endmodule
