// tpu_noc_mover: the KohakuTPU system node's memory mover (seed 003 §4.4,
// mover-notes §1 - §5): COPY, GATHER, GENERATE, FILL and XFORM over two 6-D
// walkers with bound axes, the GO-time fault checks, STATUS, and its own
// AXI4 master.
//
// Hand-written module of tpugen, copied unchanged into every mover
// configuration (tpugen mover gen); its constants are tpu_mover_pkg's (from
// spec/system_node.yaml), its build parameters RD_BURSTS, WR_BURSTS and
// READ_AHEAD among them.
//
// A move, state by state:
//   IDLE    a GO (tpu_mover_regs, from either register port) takes the
//           registers: the walkers latch theirs in the cycle of the GO write
//           (go_now) and set up their innermost dimension, the move's are
//           latched here a cycle later (go), STATUS.fault clears.
//   SETUP   the walkers compute the rest of their figures (a live dimension
//           a cycle); skipped when one each is all they have.
//   CHECK   the GO-time checks, in the spec's order (ELEM_WIDTH, MODE,
//           INDEX_LENGTH, XFORM_BOUND, ALIGNMENT, RANGE): the first that
//           applies is the fault and the move ends with nothing read or
//           written; when none does, the walk's first element issues in this
//           cycle already (but GATHER's, which loads its index first).
//   LOAD    GATHER: the index vector, ceil(count / INDEX_PER_WORD) words, is
//           read into the index buffer (a memory of INDEX_ENTRIES indices).
//           As each word arrives, the largest index of the rows the
//           destination uses in full, and the index and last word of the
//           last row it uses, are kept.
//   GCHECK  GATHER: RANGE on the rows (two cycles, two 32 x 32 products):
//           index x pitch >= 2^32, or a row word past 2^ADDR_W, is the fault,
//           and nothing has been written.
//   RUN     the issue stage walks one element a cycle (below).
//   DRAIN   every read returned, every write handed over and answered.
//   DONE    done_o for a cycle; a fault-free move counts in STATUS.moves_done.
//
// The issue stage (RUN) takes one element a cycle when what it needs has
// room, and fires every part of it together (the walkers step, a read is
// issued, a write operation queued, a GENERATE address enters the Philox
// pipeline):
//   COPY      the destination's element in walk order, the source stepping
//             alongside (a walker at its last element holds it): out of
//             bounds, nothing; else the source in bounds, a read and a write
//             of its data; else a write of the fill word.
//   GATHER    the destination's element e: row r = e div G, word w = e mod G;
//             in bounds, a read of src_base + index[r] x pitch + 32 w and a
//             write of its data. The row offsets come from a small pipeline
//             ahead of the issue (index buffer read, product, a 4-row queue).
//   GENERATE  in bounds, a write of Philox(seed, address) (tpu_mover_philox).
//   FILL      in bounds, a write of the fill word.
//   XFORM     the source's element, a read (no bound axes: fault 7); with
//             an entry's first OUT_WORDS reads, the addresses of its output
//             words (the destination element's address + 32 w), the
//             destination walker stepping once an entry. The occupant's
//             output words (tpu_mover_quant for the quantiser, the read
//             word for bypass) are the writes' data, in order.
// Reads run ahead of writes: read data (and GENERATE's Philox words) waits
// in a READ_AHEAD-word buffer (tpu_fifo_ram), and a read is issued only with
// a place in it reserved (a credit), so neither R nor the Philox pipeline is
// ever stalled by the writes. Write operations (which word: the buffer's or
// the fill word) wait in a queue of the same depth.
//
// Writes form their bursts from the addresses as the issue stage queues
// them (tpu_axi_burst): an AW goes out as soon as its burst closes, long
// before a COPY's read data arrives, and W takes each word as it comes, with
// WLAST from the closed bursts' lengths (tpu_axi_beats). XFORM holds an open
// burst over the reads between one entry's addresses and the next's while
// the issue keeps going. At most WR_BURSTS bursts await their B.
//
// AXI: reads through tpu_axi_rd (RD_BURSTS bursts in flight), one word a
// beat, INCR bursts of consecutive words up to the burst cap (MOVE.flags),
// never across BOUNDARY bytes. Writes join bursts only with the coalesce flag
// (else one word a burst). ID 0 on every channel (the system node's
// multiplexer adds the master's prefix). A W beat may reach the port while
// its AW still waits for AWREADY (AXI allows it), never before its AW is
// shown.
//
// AXI_RESPONSE: a response that is not OKAY sets fault 3 and stops the issue
// (XFORM at the next entry boundary, so the occupant never holds part of an
// entry); what was issued completes. There is no abort.
module tpu_noc_mover (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // register port of the host's control window
  input  logic                                   host_req_valid_i,
  output logic                                   host_req_ready_o,
  input  logic                                   host_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0] host_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]        host_req_wdata_i,
  output logic                                   host_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]        host_rsp_rdata_o,
  output logic                                   host_rsp_go_o,
  // the control processor's private port, the same map
  input  logic                                   cp_req_valid_i,
  output logic                                   cp_req_ready_o,
  input  logic                                   cp_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0] cp_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]        cp_req_wdata_i,
  output logic                                   cp_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]        cp_rsp_rdata_o,
  output logic                                   cp_rsp_go_o,
  // the mover's state
  output logic                                   busy_o,
  output logic                                   done_o,    // a cycle when a move ends
  output logic [tpu_mover_pkg::FAULT_W-1:0]      fault_o,   // as STATUS.fault
  // AXI4 master
  output logic                                   aw_valid_o,
  input  logic                                   aw_ready_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]       aw_addr_o,
  output logic [7:0]                             aw_len_o,
  output logic [2:0]                             aw_size_o,
  output logic [1:0]                             aw_burst_o,
  output logic [0:0]                             aw_id_o,
  output logic                                   w_valid_o,
  input  logic                                   w_ready_i,
  output logic [tpu_mover_pkg::WORD_W-1:0]       w_data_o,
  output logic [tpu_mover_pkg::WORD_BYTES-1:0]   w_strb_o,
  output logic                                   w_last_o,
  input  logic                                   b_valid_i,
  output logic                                   b_ready_o,
  input  logic [1:0]                             b_resp_i,
  input  logic [0:0]                             b_id_i,
  output logic                                   ar_valid_o,
  input  logic                                   ar_ready_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]       ar_addr_o,
  output logic [7:0]                             ar_len_o,
  output logic [2:0]                             ar_size_o,
  output logic [1:0]                             ar_burst_o,
  output logic [0:0]                             ar_id_o,
  input  logic                                   r_valid_i,
  output logic                                   r_ready_o,
  input  logic [tpu_mover_pkg::WORD_W-1:0]       r_data_i,
  input  logic [1:0]                             r_resp_i,
  input  logic                                   r_last_i,
  input  logic [0:0]                             r_id_i
);

  localparam int Dims      = tpu_mover_pkg::DIMS;
  localparam int Axes      = tpu_mover_pkg::AXES;
  localparam int AddrW     = tpu_mover_pkg::ADDR_W;
  localparam int WordW     = tpu_mover_pkg::WORD_W;
  localparam int ElemsW    = 34;                               // a walk's element count (saturating)
  localparam int AlignW    = $clog2(tpu_mover_pkg::WORD_BYTES);
  localparam int CountW    = tpu_mover_pkg::INDEX_INDEX_COUNT_W;
  localparam int GW        = tpu_mover_pkg::GATHER_GATHER_WORDS_W;
  localparam int PitchW    = tpu_mover_pkg::GATHER_PITCH_W;
  localparam int IdxW      = tpu_mover_pkg::INDEX_W;
  localparam int IdxRows   = tpu_mover_pkg::INDEX_ENTRIES / tpu_mover_pkg::INDEX_PER_WORD;  // words of the index buffer
  localparam int IdxRowW   = $clog2(IdxRows);
  localparam int IdxLaneW  = $clog2(tpu_mover_pkg::INDEX_PER_WORD);
  localparam int IdxNumW   = $clog2(tpu_mover_pkg::INDEX_ENTRIES);
  localparam int ReadAhead = tpu_mover_pkg::READ_AHEAD;
  localparam int CreditW   = $clog2(ReadAhead + 1);
  localparam int OwedW     = CreditW + 4;
  localparam int BurstsW   = $clog2(tpu_mover_pkg::WR_BURSTS + 1);
  localparam int BurstMax  = tpu_mover_pkg::FLAG_BURST_CAP_MAX;              // the longest burst a cap code names
  localparam int KindW     = 2;
  localparam int OpW       = KindW;
  localparam int XWordsW   = 4;                                // an occupant's IN or OUT words (< 16)
  localparam int RowQ      = 4;                                // GATHER's row-offset queue
  localparam int RowQW     = $clog2(RowQ + 1);
  localparam int RowOffW   = IdxW + PitchW;                    // index x pitch
  localparam int NW        = $clog2(tpu_mover_pkg::INDEX_ENTRIES + 1) + GW;  // GATHER's elements: <= count x G
  localparam int MapW      = AddrW + 4;                        // signed address arithmetic of the checks

  // A write operation's data.
  localparam logic [KindW-1:0] KindRead = 2'd0;  // the read-ahead buffer's word (read data, or GENERATE's), in order
  localparam logic [KindW-1:0] KindFill = 2'd1;  // the fill word

  // ---------------------------------------------------------------------------
  // The command registers
  // ---------------------------------------------------------------------------
  logic                                  go;
  logic                                  go_now;   // the GO is written: the walkers take their registers
  logic [tpu_mover_pkg::MOVE_MODE_W-1:0]                r_mode;
  logic [tpu_mover_pkg::MOVE_ELEM_WIDTH_W-1:0]          r_elem_width;
  logic [tpu_mover_pkg::MOVE_FLAGS_W-1:0]               r_flags;
  logic [tpu_mover_pkg::MOVE_XFORM_ID_W-1:0]            r_xform_id;
  logic [tpu_mover_pkg::MOVE_XFORM_MODE_W-1:0]          r_xform_mode;
  logic [tpu_mover_pkg::INDEX_INDEX_BASE_W-1:0]         r_index_base;
  logic [CountW-1:0]                     r_index_count;
  logic [tpu_mover_pkg::SEED_SEED_W-1:0]                r_seed;
  logic [tpu_mover_pkg::IMM_IMM_W-1:0]                  r_imm;
  logic [PitchW-1:0]                     r_pitch;
  logic [GW-1:0]                         r_gather_words;
  logic [2*tpu_mover_pkg::WALKER_BASE_W-1:0]            r_base;
  logic [2*tpu_mover_pkg::WALKER_NDIM_W-1:0]            r_ndim;
  logic [2*Dims*tpu_mover_pkg::DIM_COUNT_W-1:0]         r_count;
  logic [2*Dims*tpu_mover_pkg::DIM_STRIDE_W-1:0]        r_stride;
  logic [2*Dims*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W-1:0] r_sel;
  logic [2*Dims*tpu_mover_pkg::DIM_BOUND_ASTEP_W-1:0]   r_astep;
  logic [2*Axes*tpu_mover_pkg::AXIS_ABASE_W-1:0]        r_abase;
  logic [2*Axes*tpu_mover_pkg::AXIS_EXTENT_W-1:0]       r_extent;

  logic                                  busy;
  logic [tpu_mover_pkg::FAULT_W-1:0]                    fault_q;
  logic [tpu_mover_pkg::STATUS_MOVES_DONE_W-1:0]        moves_done_q;

  tpu_mover_regs u_regs (
    .clk_i,
    .rst_ni,
    .host_req_valid_i,
    .host_req_ready_o,
    .host_req_write_i,
    .host_req_addr_i,
    .host_req_wdata_i,
    .host_rsp_valid_o,
    .host_rsp_rdata_o,
    .host_rsp_go_o,
    .cp_req_valid_i,
    .cp_req_ready_o,
    .cp_req_write_i,
    .cp_req_addr_i,
    .cp_req_wdata_i,
    .cp_rsp_valid_o,
    .cp_rsp_rdata_o,
    .cp_rsp_go_o,
    .busy_i        (busy),
    .fault_i       (fault_q),
    .moves_done_i  (moves_done_q),
    .go_o          (go),
    .go_now_o      (go_now),
    .mode_o        (r_mode),
    .elem_width_o  (r_elem_width),
    .flags_o       (r_flags),
    .xform_id_o    (r_xform_id),
    .xform_mode_o  (r_xform_mode),
    .index_base_o  (r_index_base),
    .index_count_o (r_index_count),
    .seed_o        (r_seed),
    .imm_o         (r_imm),
    .pitch_o       (r_pitch),
    .gather_words_o(r_gather_words),
    .base_o        (r_base),
    .ndim_o        (r_ndim),
    .count_o       (r_count),
    .stride_o      (r_stride),
    .sel_o         (r_sel),
    .astep_o       (r_astep),
    .abase_o       (r_abase),
    .extent_o      (r_extent)
  );

  // ---------------------------------------------------------------------------
  // The move, latched at GO
  // ---------------------------------------------------------------------------
  // The states (localparams rather than an enum: Icarus 11 refuses one of
  // an enum's assignments inside the case below, "requires an explicit cast").
  localparam logic [3:0] SIdle    = 4'd0;
  localparam logic [3:0] SSetup   = 4'd1;
  localparam logic [3:0] SCheck   = 4'd2;
  localparam logic [3:0] SLoad    = 4'd3;
  localparam logic [3:0] SGcheck1 = 4'd4;
  localparam logic [3:0] SGcheck2 = 4'd5;
  localparam logic [3:0] SRun     = 4'd6;
  localparam logic [3:0] SDrain   = 4'd7;
  localparam logic [3:0] SDone    = 4'd8;
  logic [3:0] state_q, state_d;

  logic                  start;
  assign start = go && (state_q == SIdle);

  logic [tpu_mover_pkg::MOVE_MODE_W-1:0]       mode_q;
  logic [tpu_mover_pkg::MOVE_ELEM_WIDTH_W-1:0] ew_q;
  logic [7:0]                   cap_rd_q, cap_wr_q;   // beats - 1 of the longest read and write burst
  logic [tpu_mover_pkg::MOVE_XFORM_ID_W-1:0]   xid_q;
  logic                         bpack_q;
  logic [AddrW-1:0]             index_base_q, src_base_q, dst_base_q;
  logic [CountW-1:0]            index_count_q;
  logic [tpu_mover_pkg::SEED_SEED_W-1:0]       seed_q;
  logic [WordW-1:0]             fill_q;
  logic [PitchW-1:0]            pitch_q;
  logic [GW-1:0]                g_q;                  // G, 0 read as 1

  // The longest burst the cap code names, less one.
  function automatic logic [7:0] cap_of(input logic [tpu_mover_pkg::FLAG_BURST_CAP_W-1:0] code);
    unique case (code)
      3'd0:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_0 - 1);
      3'd1:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_1 - 1);
      3'd2:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_2 - 1);
      3'd3:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_3 - 1);
      3'd4:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_4 - 1);
      3'd5:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_5 - 1);
      3'd6:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_6 - 1);
      3'd7:    cap_of = 8'(tpu_mover_pkg::FLAG_BURST_CAP_7 - 1);
      default: cap_of = 8'd0;
    endcase
  endfunction

  // The immediate replicated in lanes of the element width (codes without a
  // width fault at GO; their word is never written).
  function automatic logic [WordW-1:0] fill_of(input logic [tpu_mover_pkg::IMM_IMM_W-1:0] imm,
                                                input logic [tpu_mover_pkg::MOVE_ELEM_WIDTH_W-1:0] ew);
    unique case (ew)
      2'd0:    fill_of = {(WordW / tpu_mover_pkg::ELEM_BITS_0){imm[tpu_mover_pkg::ELEM_BITS_0-1:0]}};
      2'd1:    fill_of = {(WordW / tpu_mover_pkg::ELEM_BITS_1){imm[tpu_mover_pkg::ELEM_BITS_1-1:0]}};
      2'd2:    fill_of = {(WordW / tpu_mover_pkg::ELEM_BITS_2){imm[tpu_mover_pkg::ELEM_BITS_2-1:0]}};
      default: fill_of = '0;
    endcase
  endfunction

  logic [tpu_mover_pkg::FLAG_BURST_CAP_W-1:0] cap_code;
  assign cap_code = r_flags[tpu_mover_pkg::FLAG_BURST_CAP_LSB +: tpu_mover_pkg::FLAG_BURST_CAP_W];

  // The burst caps are reset: the AXI adapters check them every cycle.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cap_rd_q <= 8'd0;
      cap_wr_q <= 8'd0;
    end else if (start) begin
      cap_rd_q <= cap_of(cap_code);
      cap_wr_q <= r_flags[tpu_mover_pkg::FLAG_COALESCE_LSB] ? cap_of(cap_code) : 8'd0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      mode_q        <= r_mode;
      ew_q          <= r_elem_width;
      xid_q         <= r_xform_id;
      bpack_q       <= r_xform_mode[tpu_mover_pkg::XFORM_QUANTISER_B_PACKING_BIT];
      index_base_q  <= AddrW'(r_index_base);
      index_count_q <= r_index_count;
      seed_q        <= r_seed;
      fill_q        <= fill_of(r_imm, r_elem_width);
      pitch_q       <= r_pitch;
      g_q           <= (r_gather_words == '0) ? GW'(1) : r_gather_words;
      src_base_q    <= r_base[tpu_mover_pkg::WALKER_SOURCE*tpu_mover_pkg::WALKER_BASE_W +: AddrW];
      dst_base_q    <= r_base[tpu_mover_pkg::WALKER_DESTINATION*tpu_mover_pkg::WALKER_BASE_W +: AddrW];
    end
  end

  logic is_copy, is_gather, is_generate, is_fill, is_xform, is_quant;
  assign is_copy     = mode_q == tpu_mover_pkg::MODE_COPY;
  assign is_gather   = mode_q == tpu_mover_pkg::MODE_GATHER;
  assign is_generate = mode_q == tpu_mover_pkg::MODE_GENERATE;
  assign is_fill     = mode_q == tpu_mover_pkg::MODE_FILL;
  assign is_xform    = mode_q == tpu_mover_pkg::MODE_XFORM;
  assign is_quant    = xid_q == tpu_mover_pkg::XFORM_QUANTISER_ID;

  // The occupant's geometry (bypass or the quantiser). An entry's OUT_WORDS
  // addresses go out with its first reads and the source's element count is
  // checked against IN_WORDS by its low three bits (elems_mod8_o): an
  // occupant with more words out than in, or IN_WORDS not a power of two up
  // to 8, is refused at elaboration (by a module that does not exist: the
  // refusal all three tools report).
  localparam int QIn   = tpu_mover_pkg::XFORM_QUANTISER_IN_WORDS;
  localparam int QOut  = tpu_mover_pkg::XFORM_QUANTISER_OUT_WORDS;
  localparam int BIn   = tpu_mover_pkg::XFORM_BYPASS_IN_WORDS;
  localparam int BOut  = tpu_mover_pkg::XFORM_BYPASS_OUT_WORDS;
  localparam bit XformOk = (QOut <= QIn) && (BOut <= BIn) && (QIn <= 8) && (BIn <= 8) &&
                           ((QIn & (QIn - 1)) == 0) && ((BIn & (BIn - 1)) == 0);
  if (!XformOk) begin : g_xform_check
    tpu_noc_mover_occupant_unsupported u_refuse ();
  end

  logic [XWordsW-1:0] x_in, x_out;
  assign x_in  = is_quant ? XWordsW'(tpu_mover_pkg::XFORM_QUANTISER_IN_WORDS) : XWordsW'(tpu_mover_pkg::XFORM_BYPASS_IN_WORDS);
  assign x_out = is_quant ? XWordsW'(tpu_mover_pkg::XFORM_QUANTISER_OUT_WORDS) : XWordsW'(tpu_mover_pkg::XFORM_BYPASS_OUT_WORDS);

  // ---------------------------------------------------------------------------
  // The walkers
  // ---------------------------------------------------------------------------
  logic src_step, dst_step;
  logic src_ready, dst_ready, src_span_ok, dst_span_ok, src_finishing, dst_finishing;
  logic signed [AddrW+1:0] src_lowest, src_highest, dst_lowest, dst_highest;
  logic [ElemsW-1:0] src_elems, dst_elems;
  logic [2:0]        src_mod8, dst_mod8;
  logic              src_misaligned, dst_misaligned, src_has_bound, dst_has_bound;
  logic [AddrW-1:0]  src_addr, dst_addr;
  logic              src_in, dst_in, src_last, dst_last;
  logic [7:0]        src_run, dst_run;
  logic              src_contig, dst_contig;

  tpu_mover_walker #(
    .ElemsW(ElemsW)
  ) u_src (
    .clk_i,
    .rst_ni,
    .start_i     (go_now),
    .base_i      (r_base[tpu_mover_pkg::WALKER_SOURCE*tpu_mover_pkg::WALKER_BASE_W +: tpu_mover_pkg::WALKER_BASE_W]),
    .ndim_i      (r_ndim[tpu_mover_pkg::WALKER_SOURCE*tpu_mover_pkg::WALKER_NDIM_W +: tpu_mover_pkg::WALKER_NDIM_W]),
    .count_i     (r_count[tpu_mover_pkg::WALKER_SOURCE*Dims*tpu_mover_pkg::DIM_COUNT_W +: Dims*tpu_mover_pkg::DIM_COUNT_W]),
    .stride_i    (r_stride[tpu_mover_pkg::WALKER_SOURCE*Dims*tpu_mover_pkg::DIM_STRIDE_W +: Dims*tpu_mover_pkg::DIM_STRIDE_W]),
    .sel_i       (r_sel[tpu_mover_pkg::WALKER_SOURCE*Dims*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W +: Dims*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W]),
    .astep_i     (r_astep[tpu_mover_pkg::WALKER_SOURCE*Dims*tpu_mover_pkg::DIM_BOUND_ASTEP_W +: Dims*tpu_mover_pkg::DIM_BOUND_ASTEP_W]),
    .abase_i     (r_abase[tpu_mover_pkg::WALKER_SOURCE*Axes*tpu_mover_pkg::AXIS_ABASE_W +: Axes*tpu_mover_pkg::AXIS_ABASE_W]),
    .extent_i    (r_extent[tpu_mover_pkg::WALKER_SOURCE*Axes*tpu_mover_pkg::AXIS_EXTENT_W +: Axes*tpu_mover_pkg::AXIS_EXTENT_W]),
    .ready_o     (src_ready),
    .finishing_o (src_finishing),
    .span_ok_o   (src_span_ok),
    .lowest_o    (src_lowest),
    .highest_o   (src_highest),
    .elems_o     (src_elems),
    .elems_mod8_o(src_mod8),
    .misaligned_o(src_misaligned),
    .has_bound_o (src_has_bound),
    .step_i      (src_step),
    .addr_o      (src_addr),
    .in_bounds_o (src_in),
    .last_o      (src_last),
    .run_o       (src_run),
    .contig_o    (src_contig)
  );

  tpu_mover_walker #(
    .ElemsW(ElemsW)
  ) u_dst (
    .clk_i,
    .rst_ni,
    .start_i     (go_now),
    .base_i      (r_base[tpu_mover_pkg::WALKER_DESTINATION*tpu_mover_pkg::WALKER_BASE_W +: tpu_mover_pkg::WALKER_BASE_W]),
    .ndim_i      (r_ndim[tpu_mover_pkg::WALKER_DESTINATION*tpu_mover_pkg::WALKER_NDIM_W +: tpu_mover_pkg::WALKER_NDIM_W]),
    .count_i     (r_count[tpu_mover_pkg::WALKER_DESTINATION*Dims*tpu_mover_pkg::DIM_COUNT_W +: Dims*tpu_mover_pkg::DIM_COUNT_W]),
    .stride_i    (r_stride[tpu_mover_pkg::WALKER_DESTINATION*Dims*tpu_mover_pkg::DIM_STRIDE_W +: Dims*tpu_mover_pkg::DIM_STRIDE_W]),
    .sel_i       (r_sel[tpu_mover_pkg::WALKER_DESTINATION*Dims*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W +: Dims*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W]),
    .astep_i     (r_astep[tpu_mover_pkg::WALKER_DESTINATION*Dims*tpu_mover_pkg::DIM_BOUND_ASTEP_W +: Dims*tpu_mover_pkg::DIM_BOUND_ASTEP_W]),
    .abase_i     (r_abase[tpu_mover_pkg::WALKER_DESTINATION*Axes*tpu_mover_pkg::AXIS_ABASE_W +: Axes*tpu_mover_pkg::AXIS_ABASE_W]),
    .extent_i    (r_extent[tpu_mover_pkg::WALKER_DESTINATION*Axes*tpu_mover_pkg::AXIS_EXTENT_W +: Axes*tpu_mover_pkg::AXIS_EXTENT_W]),
    .ready_o     (dst_ready),
    .finishing_o (dst_finishing),
    .span_ok_o   (dst_span_ok),
    .lowest_o    (dst_lowest),
    .highest_o   (dst_highest),
    .elems_o     (dst_elems),
    .elems_mod8_o(dst_mod8),
    .misaligned_o(dst_misaligned),
    .has_bound_o (dst_has_bound),
    .step_i      (dst_step),
    .addr_o      (dst_addr),
    .in_bounds_o (dst_in),
    .last_o      (dst_last),
    .run_o       (dst_run),
    .contig_o    (dst_contig)
  );

  // ---------------------------------------------------------------------------
  // The GO-time checks (CHECK), first that applies
  // ---------------------------------------------------------------------------
  function automatic logic misaligned(input logic [AlignW-1:0] a);  // an address's low bits
    misaligned = a != '0;
  endfunction

  // A walk within the map: its offsets within signed 32 bits, its lowest
  // element at or above 0 and its highest word (plus `extra` bytes) below 2^ADDR_W.
  function automatic logic in_map(input logic span_ok, input logic signed [AddrW+1:0] lowest,
                                  input logic signed [AddrW+1:0] highest, input logic [MapW-1:0] extra);
    logic signed [MapW-1:0] top;
    top    = MapW'(highest) + $signed(extra) + MapW'(tpu_mover_pkg::WORD_BYTES);
    in_map = span_ok && (lowest >= 0) && (top <= $signed(MapW'(1) <<< AddrW));
  endfunction

  logic [tpu_mover_pkg::FAULT_W-1:0] check_fault;
  logic [CountW+GW-1:0] gather_elems;   // index count x G
  logic [CountW-1:0]    index_words;    // ceil(count / INDEX_PER_WORD)
  logic [MapW-1:0]      index_top, x_extra;
  logic                 reads_source;
  assign gather_elems = (CountW + GW)'(index_count_q) * (CountW + GW)'(g_q);
  assign index_words  = CountW'((32'(index_count_q) + tpu_mover_pkg::INDEX_PER_WORD - 1) / tpu_mover_pkg::INDEX_PER_WORD);
  assign index_top    = MapW'(index_base_q) + (MapW'(index_words) << AlignW);
  assign x_extra      = is_xform ? (MapW'(x_out) - MapW'(1)) << AlignW : '0;
  assign reads_source = is_copy || is_xform;

  always_comb begin
    check_fault = tpu_mover_pkg::FAULT_NONE;
    if (!tpu_mover_pkg::ELEM_WIDTHS[ew_q]) check_fault = tpu_mover_pkg::FAULT_ELEM_WIDTH;
    else if (!tpu_mover_pkg::MODES_IMPLEMENTED[mode_q] || (is_xform && !tpu_mover_pkg::XFORM_OCCUPANTS[xid_q])) check_fault = tpu_mover_pkg::FAULT_MODE;
    else if (is_gather && ((32'(index_count_q) > tpu_mover_pkg::INDEX_ENTRIES) ||
                           ({2'b00, dst_elems} > (ElemsW + 2)'(gather_elems))))
      check_fault = tpu_mover_pkg::FAULT_INDEX_LENGTH;
    else if (is_xform && (src_has_bound || dst_has_bound)) check_fault = tpu_mover_pkg::FAULT_XFORM_BOUND;
    else if (misaligned(dst_base_q[AlignW-1:0]) || dst_misaligned ||
             (reads_source && (misaligned(src_base_q[AlignW-1:0]) || src_misaligned)) ||
             (is_gather && (misaligned(src_base_q[AlignW-1:0]) || (pitch_q[AlignW-1:0] != '0) || misaligned(index_base_q[AlignW-1:0]))))
      check_fault = tpu_mover_pkg::FAULT_ALIGNMENT;
    else if (!in_map(dst_span_ok, dst_lowest, dst_highest, x_extra) ||
             (reads_source && !in_map(src_span_ok, src_lowest, src_highest, '0)) ||
             (is_xform && ((src_mod8 & 3'(x_in - XWordsW'(1))) != '0)) ||
             (is_gather && (index_top > (MapW'(1) << AddrW))))
      check_fault = tpu_mover_pkg::FAULT_RANGE;
  end

  // ---------------------------------------------------------------------------
  // Read and write accounting
  // ---------------------------------------------------------------------------
  logic                rd_valid, rd_ready, rd_fire;
  logic [AddrW-1:0]    rd_addr;
  logic                rd_err, wr_err;
  logic [CreditW-1:0]  credit_q;      // reads issued whose word is not yet consumed
  logic                df_valid, df_ready, df_pop;
  logic [WordW-1:0]    df_data;
  logic                credit_ok;
  logic                rd_credit_ok;  // places for every word the read brings (a committed burst's, at its first)
  logic [8:0]          rd_words;      // words the read brings if taken now (tpu_axi_rd)
  logic                rd_committed;  // a committed read burst's elements are still due
  logic [7:0]          rd_run;        // reads sure to follow at consecutive addresses
  logic                gen_fire;      // a GENERATE word enters the Philox pipeline (its place reserved)
  logic [OwedW-1:0]    owed_q;        // write addresses queued whose beat has not gone out on W
  logic [BurstsW-1:0]  bursts_q;      // write bursts closed (AW loaded) whose B has not come
  logic                wr_valid, w_take, wr_fire;
  logic [WordW-1:0]    wr_data;
  logic                owe_one;       // a write operation queued (not XFORM)
  logic                af_push, af_room, aw_close, b_fire;
  logic [AddrW-1:0]    af_addr_in;
  logic                err_q;

  logic [CreditW-1:0] credit_d;
  logic [OwedW-1:0]   owed_d;
  logic [BurstsW-1:0] bursts_d;
  assign credit_d = credit_q + (rd_fire ? CreditW'(rd_words) : CreditW'(0)) + CreditW'(gen_fire) - CreditW'(df_pop);
  assign owed_d   = owed_q + OwedW'(af_push) - OwedW'(wr_fire);
  assign bursts_d = bursts_q + BurstsW'(aw_close) - BurstsW'(b_fire);

  assign credit_ok    = 32'(credit_q) < ReadAhead;
  assign rd_credit_ok = 32'(credit_q) + 32'(rd_words) <= ReadAhead;
  assign df_pop       = df_valid && df_ready;
  assign rd_fire      = rd_valid && rd_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_q <= '0;
      owed_q   <= '0;
      bursts_q <= '0;
    end else begin
      credit_q <= credit_d;
      owed_q   <= owed_d;
      bursts_q <= bursts_d;
    end
  end

  // ---------------------------------------------------------------------------
  // GATHER: the index buffer and its figures
  // ---------------------------------------------------------------------------
  logic [IdxRowW:0]        il_sent_q, il_got_q;  // index words read, received
  logic                    il_store;
  logic [NW-1:0]           n_elems;              // the destination's elements (<= count x G here)
  logic [NW-1:0]           acc_q;                // (first index of the arriving word) x G
  logic [IdxW-1:0]         max_full_q, last_idx_q;
  logic [GW-1:0]           last_word_q;          // the last row's last word
  logic                    any_full_q;           // a row is used in full
  logic                    rg_re;
  logic [IdxRowW-1:0]      rg_row;
  logic [WordW-1:0]        idx_rdata;

  assign n_elems  = NW'(dst_elems);
  assign il_store = (state_q == SLoad) && df_pop;

  tpu_ram_1r1w #(
    .Width(WordW),
    .Depth(IdxRows)
  ) u_index (
    .clk_i  (clk_i),
    .we_i   (il_store),
    .waddr_i(il_got_q[IdxRowW-1:0]),
    .wdata_i(df_data),
    .re_i   (rg_re),
    .raddr_i(rg_row),
    .rdata_o(idx_rdata)
  );

  // Row j of the arriving word (j = INDEX_PER_WORD x word + s) is used when
  // j x G < n, used in full when (j + 1) x G < n; the row used last is used
  // and not in full, its last word n - 1 - j x G.
  logic [IdxW-1:0] word_max;
  logic            word_full, word_last;
  logic [IdxW-1:0] word_last_idx;
  logic [GW-1:0]   word_last_word;
  logic [tpu_mover_pkg::INDEX_PER_WORD*NW-1:0] jg;   // j x G of each index of the word
  always_comb begin
    for (int s = 0; s < tpu_mover_pkg::INDEX_PER_WORD; s++) jg[s*NW +: NW] = acc_q + NW'(s) * NW'(g_q);
  end
  always_comb begin
    word_max       = '0;
    word_full      = 1'b0;
    word_last      = 1'b0;
    word_last_idx  = '0;
    word_last_word = '0;
    for (int s = 0; s < tpu_mover_pkg::INDEX_PER_WORD; s++) begin
      if ((jg[s*NW +: NW] + NW'(g_q)) < n_elems) begin
        word_full = 1'b1;
        if (df_data[s*IdxW +: IdxW] > word_max) word_max = df_data[s*IdxW +: IdxW];
      end else if (jg[s*NW +: NW] < n_elems) begin
        word_last      = 1'b1;
        word_last_idx  = df_data[s*IdxW +: IdxW];
        word_last_word = GW'(n_elems - NW'(1) - jg[s*NW +: NW]);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      il_sent_q  <= '0;
      il_got_q   <= '0;
      acc_q      <= '0;
      max_full_q <= '0;
      any_full_q <= 1'b0;
    end else begin
      if ((state_q == SLoad) && rd_fire) il_sent_q <= il_sent_q + (IdxRowW + 1)'(1);
      if (il_store) begin
        il_got_q <= il_got_q + (IdxRowW + 1)'(1);
        acc_q    <= acc_q + NW'(tpu_mover_pkg::INDEX_PER_WORD) * NW'(g_q);
        if (word_full) begin
          any_full_q <= 1'b1;
          if (word_max > max_full_q) max_full_q <= word_max;
        end
        if (word_last) begin
          last_idx_q  <= word_last_idx;
          last_word_q <= word_last_word;
        end
      end
    end
  end

  // GCHECK: RANGE on the rows used.
  logic [RowOffW-1:0] prod_full_q, prod_last_q;
  logic               rows_bad;
  logic [MapW-1:0]    top_full, top_last;
  always_ff @(posedge clk_i) begin
    if (state_q == SGcheck1) begin
      prod_full_q <= RowOffW'(max_full_q) * RowOffW'(pitch_q);
      prod_last_q <= RowOffW'(last_idx_q) * RowOffW'(pitch_q);
    end
  end
  always_comb begin
    top_full = MapW'(src_base_q) + MapW'(prod_full_q[PitchW:0]) + (MapW'(g_q) << AlignW);
    top_last = MapW'(src_base_q) + MapW'(prod_last_q[PitchW:0]) + ((MapW'(last_word_q) + MapW'(1)) << AlignW);
    rows_bad = (prod_last_q[RowOffW-1:PitchW] != '0) || (top_last > (MapW'(1) << AddrW)) ||
               (any_full_q && ((prod_full_q[RowOffW-1:PitchW] != '0) || (top_full > (MapW'(1) << AddrW))));
  end

  // ---------------------------------------------------------------------------
  // GATHER: the row offsets, ahead of the issue
  // ---------------------------------------------------------------------------
  logic [IdxNumW-1:0]  rg_r_q;             // the next row to look up
  logic                rg_va_q;            // its index word is on idx_rdata
  logic [IdxLaneW-1:0] rg_lane_q;
  logic [RowOffW-1:0]  rowq_q [RowQ];
  logic [1:0]          rowq_head_q, rowq_tail_q;
  logic [RowQW-1:0]    rowq_count_q;
  logic                row_pop;
  logic [RowOffW-1:0]  row_off;
  logic                row_valid;
  logic                rg_on;

  assign rg_on     = is_gather && ((state_q == SRun) || (state_q == SDrain));
  assign rg_re     = rg_on && ((32'(rowq_count_q) + 32'(rg_va_q)) < RowQ);
  assign rg_row    = IdxRowW'(rg_r_q >> IdxLaneW);
  assign row_valid = rowq_count_q != '0;
  assign row_off   = rowq_q[rowq_head_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rg_va_q      <= 1'b0;
      rowq_head_q  <= '0;
      rowq_tail_q  <= '0;
      rowq_count_q <= '0;
    end else if (start) begin
      rg_va_q      <= 1'b0;
      rowq_head_q  <= '0;
      rowq_tail_q  <= '0;
      rowq_count_q <= '0;
    end else begin
      rg_va_q <= rg_re;
      if (rg_va_q) rowq_tail_q <= rowq_tail_q + 2'd1;
      if (row_pop) rowq_head_q <= rowq_head_q + 2'd1;
      rowq_count_q <= rowq_count_q + RowQW'(rg_va_q) - RowQW'(row_pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) rg_r_q <= '0;
    else if (rg_re) rg_r_q <= rg_r_q + IdxNumW'(1);
    if (rg_re) rg_lane_q <= IdxLaneW'(rg_r_q);
    if (rg_va_q)
      rowq_q[rowq_tail_q] <= RowOffW'(idx_rdata[32'(rg_lane_q)*IdxW +: IdxW]) * RowOffW'(pitch_q);
  end

  // ---------------------------------------------------------------------------
  // The issue stage
  // ---------------------------------------------------------------------------
  logic              op_ready, op_valid, op_pop;
  logic [$clog2(tpu_mover_pkg::READ_AHEAD+3)-1:0] op_usage, data_usage;
  logic [OpW-1:0]    op_data;
  logic              ph_ready, ph_valid, ph_pop;
  logic [WordW-1:0]  ph_word;
  logic              issue_done_q;
  logic [GW-1:0]     gw_q;               // GATHER: the word within the row
  logic [AddrW-1:0]  woff_q;             // ... and its byte offset
  logic [XWordsW-1:0] x_elem_q;          // XFORM: the source element within the entry
  logic              run, stop;
  logic              need_read, need_op, need_gen, need_row, need_waddr;
  logic              others_ok, fire;
  logic [KindW-1:0]  op_kind;
  logic              it_last;            // the element issued is the walk's last
  logic [AddrW-1:0]  gather_addr;

  // The walk issues from SRun, and already in SCheck once the GO-time checks
  // pass (a move other than GATHER, whose index load comes first).
  logic run_state;
  assign run_state = (state_q == SRun) ||
                     ((state_q == SCheck) && !is_gather && (check_fault == tpu_mover_pkg::FAULT_NONE));
  assign run       = run_state && !issue_done_q;
  // An AXI error stops the issue; XFORM only between entries, and a committed
  // read burst only after its last element (its words are on their way).
  assign stop = err_q && !rd_committed && (!is_xform || (x_elem_q == '0));

  // A COPY reads an element in bounds on both sides, so the rest of a source
  // row that steps one word and stays in bounds is sure to follow as reads:
  // its read burst is committed with its first element (tpu_axi_burst), as
  // long as the destination's row stays in bounds too (the walk goes on
  // through it) and the read-ahead buffer holds it.
  logic [7:0] run_min;
  assign run_min = (src_run < dst_run) ? src_run : dst_run;
  assign rd_run  = (run_state && is_copy && src_contig)
                 ? ((32'(run_min) > ReadAhead - 1) ? 8'(ReadAhead - 1) : run_min) : 8'd0;

  assign gather_addr = src_base_q + AddrW'(row_off) + woff_q;

  always_comb begin
    need_read = 1'b0;
    need_op   = 1'b0;
    need_waddr = 1'b0;
    af_addr_in = dst_addr;
    need_gen  = 1'b0;
    need_row  = 1'b0;
    op_kind   = KindRead;
    rd_addr   = src_addr;
    it_last   = dst_last;
    if (is_copy) begin
      need_read = dst_in && src_in;
      need_op   = dst_in;
      op_kind   = src_in ? KindRead : KindFill;
    end else if (is_gather) begin
      need_read = dst_in;
      need_op   = dst_in;
      need_row  = 1'b1;
      rd_addr   = gather_addr;
    end else if (is_generate) begin
      need_op   = dst_in;
      need_gen  = dst_in;
      op_kind   = KindRead;  // the Philox word, through the read-ahead buffer
    end else if (is_fill) begin
      need_op   = dst_in;
      op_kind   = KindFill;
    end else begin  // XFORM: entry k's OUT_WORDS addresses with its first reads
      need_read  = 1'b1;
      it_last    = src_last;
      need_waddr = x_elem_q < x_out;
      af_addr_in = dst_addr + (AddrW'(x_elem_q) << AlignW);
    end
    if (!is_xform) need_waddr = need_op;
    if (state_q == SLoad) rd_addr = index_base_q + (AddrW'(il_sent_q) << AlignW);
  end

  // Everything the element needs but the read port's ready (which depends on
  // its valid): the read's valid rises only with the rest in place.
  assign others_ok = run && !stop && (!need_read || rd_credit_ok) && (!need_op || op_ready) &&
                     (!need_waddr || af_room) && (!need_gen || (ph_ready && credit_ok)) &&
                     (!need_row || row_valid);
  assign fire      = others_ok && (!need_read || rd_ready);

  assign rd_valid  = ((state_q == SLoad) && (32'(il_sent_q) < 32'(index_words)) && rd_credit_ok) ||
                     (others_ok && need_read);
  assign src_step  = fire && (is_copy || is_xform);
  assign dst_step  = is_xform ? (fire && (x_elem_q == x_out - XWordsW'(1))) : fire;
  assign row_pop   = fire && is_gather && ((gw_q == g_q - GW'(1)) || dst_last);
  assign owe_one   = fire && need_op;
  assign af_push   = fire && need_waddr;
  assign gen_fire  = fire && need_gen;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issue_done_q <= 1'b0;
    end else if (start) begin
      issue_done_q <= 1'b0;
    end else if (run_state && ((fire && it_last) || (stop && !issue_done_q))) begin
      issue_done_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      gw_q     <= '0;
      woff_q   <= '0;
      x_elem_q <= '0;
    end else if (fire) begin
      if (gw_q == g_q - GW'(1)) begin
        gw_q   <= '0;
        woff_q <= '0;
      end else begin
        gw_q   <= gw_q + GW'(1);
        woff_q <= woff_q + AddrW'(tpu_mover_pkg::WORD_BYTES);
      end
      if (is_xform) x_elem_q <= (x_elem_q == x_in - XWordsW'(1)) ? '0 : x_elem_q + XWordsW'(1);
    end
  end

  // Write operations, in element order.
  tpu_fifo_ram #(
    .Width(OpW),
    .Depth(ReadAhead)
  ) u_ops (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(owe_one),
    .ready_o(op_ready),
    .data_i (op_kind),
    .valid_o(op_valid),
    .ready_i(op_pop),
    .data_o (op_data),
    .usage_o(op_usage)
  );

  // GENERATE's words, in element order.
  tpu_mover_philox u_philox (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(gen_fire),
    .ready_o(ph_ready),
    .seed_i (seed_q),
    .addr_i (dst_addr),
    .valid_o(ph_valid),
    .ready_i(ph_pop),
    .word_o (ph_word)
  );

  // ---------------------------------------------------------------------------
  // Reads
  // ---------------------------------------------------------------------------
  logic             rsp_valid;
  logic [WordW-1:0] rsp_data;
  logic             df_in_ready, df_in_valid, rsp_ready;
  logic [WordW-1:0] df_in_data;

  tpu_axi_rd #(
    .ReqBytes   (tpu_mover_pkg::WORD_BYTES),
    .Id         (0),
    .AddrW      (AddrW),
    .DataBytes  (tpu_mover_pkg::WORD_BYTES),
    .IdW        (1),
    .MaxBurst   (BurstMax),
    .Boundary   (tpu_mover_pkg::BOUNDARY),
    .Outstanding(tpu_mover_pkg::RD_BURSTS)
  ) u_rd (
    .clk_i,
    .rst_ni,
    .req_valid_i(rd_valid),
    .req_ready_o(rd_ready),
    .req_addr_i (rd_addr),
    .cap_i      (cap_rd_q),
    .run_i      (rd_run),
    .req_words_o(rd_words),
    .committed_o(rd_committed),
    .rsp_valid_o(rsp_valid),
    .rsp_ready_i(rsp_ready),
    .rsp_data_o (rsp_data),
    .ar_valid_o,
    .ar_ready_i,
    .ar_addr_o,
    .ar_len_o,
    .ar_size_o,
    .ar_id_o,
    .r_valid_i,
    .r_ready_o,
    .r_data_i,
    .r_resp_i,
    .r_last_i,
    .err_o      (rd_err)
  );
  assign ar_burst_o = 2'b01;  // INCR

  // The read-ahead buffer: a place is reserved for every read issued and for
  // every GENERATE word (whose pipeline so never waits for the writes).
  assign df_in_valid = is_generate ? ph_valid : rsp_valid;
  assign df_in_data  = is_generate ? ph_word : rsp_data;
  assign rsp_ready   = df_in_ready && !is_generate;
  assign ph_pop      = df_in_ready && is_generate;

  tpu_fifo_ram #(
    .Width(WordW),
    .Depth(ReadAhead)
  ) u_data (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(df_in_valid),
    .ready_o(df_in_ready),
    .data_i (df_in_data),
    .valid_o(df_valid),
    .ready_i(df_ready),
    .data_o (df_data),
    .usage_o(data_usage)
  );

  // ---------------------------------------------------------------------------
  // The transform slot (XFORM)
  // ---------------------------------------------------------------------------
  logic             q_in_ready, q_valid, q_ready;
  logic [WordW-1:0] q_word;
  logic             xf_valid;
  logic [WordW-1:0] xf_data;

  tpu_mover_quant u_quant (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clear_i    (start),
    .b_packing_i(bpack_q),
    .valid_i    (is_xform && is_quant && df_valid && (state_q != SLoad)),
    .ready_o    (q_in_ready),
    .word_i     (df_data),
    .valid_o    (q_valid),
    .ready_i    (q_ready),
    .word_o     (q_word)
  );

  assign xf_valid = is_quant ? q_valid : df_valid;
  assign xf_data  = is_quant ? q_word : df_data;

  // ---------------------------------------------------------------------------
  // Writes: bursts formed from the addresses as they are issued, so that an
  // AW goes out ahead of its data; W then takes each word as it comes
  // ---------------------------------------------------------------------------
  logic [KindW-1:0]  head_kind;
  logic              af_valid, af_take, wlen_room, wlen_valid, w_final, aw_issue_ready;
  logic [AddrW-1:0]  af_addr, unused_open_addr;
  logic [7:0]        aw_open_len, unused_wlen, unused_wbeat;
  logic [1:0]        unused_af_usage;
  logic [8:0]        unused_aw_words;     // the write addresses gather their bursts (run_i 0)
  logic              unused_aw_committed;
  assign head_kind = op_data;

  // The write addresses in element order (a few ahead of the burst former).
  tpu_fifo #(
    .Width(AddrW),
    .Depth(2)
  ) u_waddr (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(af_push),
    .ready_o(af_room),
    .data_i (af_addr_in),
    .valid_o(af_valid),
    .ready_i(af_take),
    .data_o (af_addr),
    .usage_o(unused_af_usage)
  );

  // Consecutive words join a burst of up to the cap (one word a burst without
  // the coalesce flag), never across BOUNDARY; a burst closes only with room
  // for its W record and fewer than WR_BURSTS bursts awaiting their B.
  assign aw_issue_ready = wlen_room && (32'(bursts_q) < tpu_mover_pkg::WR_BURSTS);

  // XFORM sends an entry's OUT_WORDS addresses with its first reads, then
  // reads the rest: while the issue keeps going (it fired last cycle, whose
  // address, if any, the former sees now) an open burst waits for the next
  // entry's. A stall of the issue releases it.
  logic aw_hold_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) aw_hold_q <= 1'b0;
    else aw_hold_q <= is_xform && fire && !it_last;
  end

  tpu_axi_burst #(
    .ReqBytes(tpu_mover_pkg::WORD_BYTES),
    .AddrW   (AddrW),
    .MaxBurst(BurstMax),
    .Boundary(tpu_mover_pkg::BOUNDARY)
  ) u_aw (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .req_valid_i  (af_valid),
    .req_addr_i   (af_addr),
    .room_i       (1'b1),
    .cap_i        (cap_wr_q),
    .hold_i       (aw_hold_q),
    .run_i        (8'd0),
    .req_take_o   (af_take),
    .req_words_o  (unused_aw_words),
    .committed_o  (unused_aw_committed),
    .issue_ready_i(aw_issue_ready),
    .close_o      (aw_close),
    .open_addr_o  (unused_open_addr),
    .open_len_o   (aw_open_len),
    .ax_valid_o   (aw_valid_o),
    .ax_ready_i   (aw_ready_i),
    .ax_addr_o    (aw_addr_o),
    .ax_len_o     (aw_len_o)
  );
  assign aw_size_o  = 3'($clog2(tpu_mover_pkg::WORD_BYTES));
  assign aw_id_o    = 1'b0;
  assign aw_burst_o = 2'b01;  // INCR

  // The closed bursts' lengths: WLAST on each one's last beat.
  tpu_axi_beats #(
    .Width(8),
    .Depth(tpu_mover_pkg::WR_BURSTS)
  ) u_w_bursts (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .push_i      (aw_close),
    .push_ready_o(wlen_room),
    .data_i      (aw_open_len),
    .valid_o     (wlen_valid),
    .data_o      (unused_wlen),
    .beat_o      (unused_wbeat),
    .last_o      (w_final),
    .beat_i      (wr_fire)
  );

  // The word of the next beat: the operation's (read data, fill word, Philox
  // word) or, for XFORM, the occupant's output.
  always_comb begin
    wr_valid = 1'b0;
    wr_data  = df_data;
    if (is_xform) begin
      wr_valid = xf_valid && (state_q != SLoad);
      wr_data  = xf_data;
    end else begin
      unique case (head_kind)
        KindRead: begin
          wr_valid = op_valid && df_valid;
          wr_data  = df_data;
        end
        default: begin
          wr_valid = op_valid;
          wr_data  = fill_q;
        end
      endcase
    end
  end

  assign w_take    = wlen_valid && w_ready_i;   // W takes a beat now, if there is one
  assign w_valid_o = wr_valid && wlen_valid;
  assign w_data_o  = wr_data;
  assign w_strb_o  = {tpu_mover_pkg::WORD_BYTES{1'b1}};
  assign w_last_o  = w_final;
  assign wr_fire   = w_valid_o && w_ready_i;
  assign op_pop    = wr_fire && !is_xform;
  assign q_ready   = is_xform && is_quant && w_take;

  // Who takes the read data: the index buffer, the quantiser, or W.
  always_comb begin
    if (state_q == SLoad) df_ready = 1'b1;
    else if (is_xform) df_ready = is_quant ? q_in_ready : w_take;
    else df_ready = op_pop && (head_kind == KindRead);
  end

  // B: every response is taken; one that is not OKAY is fault 3.
  assign b_ready_o = 1'b1;
  assign b_fire    = b_valid_i;
  assign wr_err    = b_valid_i && (b_resp_i != 2'b00);

  // ---------------------------------------------------------------------------
  // The state machine and STATUS
  // ---------------------------------------------------------------------------
  // Done when every read's word is consumed, every write address's beat has
  // gone out on W (so every burst is closed), and every closed burst has its
  // B: as the counts stand after this cycle, so that done_o follows the last
  // B by one cycle.
  logic drained;
  assign drained = issue_done_q && (credit_d == '0) && (owed_d == '0) && (bursts_d == '0);

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      SIdle:    if (start) state_d = ((src_ready || src_finishing) && (dst_ready || dst_finishing)) ? SCheck : SSetup;
      SSetup:   if ((src_ready || src_finishing) && (dst_ready || dst_finishing)) state_d = SCheck;
      SCheck: begin
        if (check_fault != tpu_mover_pkg::FAULT_NONE) state_d = SDone;
        else if (is_gather) state_d = SLoad;
        else state_d = SRun;
      end
      SLoad: begin
        if ((32'(il_got_q) == 32'(index_words)) && (credit_q == '0)) begin
          if (err_q) state_d = SDone;
          else state_d = SGcheck1;
        end
      end
      SGcheck1: state_d = SGcheck2;
      SGcheck2: begin
        if (rows_bad) state_d = SDone;
        else state_d = SRun;
      end
      SRun:     if (issue_done_q) state_d = SDrain;
      SDrain:   if (drained) state_d = SDone;
      SDone:    state_d = SIdle;
      default:  state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= SIdle;
      fault_q      <= tpu_mover_pkg::FAULT_NONE;
      moves_done_q <= '0;
      err_q        <= 1'b0;
    end else begin
      state_q <= state_d;
      if (start) begin
        fault_q <= tpu_mover_pkg::FAULT_NONE;
        err_q   <= 1'b0;
      end else begin
        if ((state_q == SCheck) && (check_fault != tpu_mover_pkg::FAULT_NONE)) fault_q <= check_fault;
        if ((state_q == SGcheck2) && rows_bad) fault_q <= tpu_mover_pkg::FAULT_RANGE;
        if ((rd_err || wr_err) && !err_q) begin
          err_q   <= 1'b1;
          fault_q <= tpu_mover_pkg::FAULT_AXI_RESPONSE;
        end
        if ((state_q == SDone) && (fault_q == tpu_mover_pkg::FAULT_NONE)) moves_done_q <= moves_done_q + 1'b1;
      end
    end
  end

  assign busy    = state_q != SIdle;
  assign busy_o  = busy;
  assign done_o  = state_q == SDone;
  assign fault_o = fault_q;

  logic unused;
  assign unused = ^{b_id_i, r_id_i, src_elems, dst_mod8, op_usage, data_usage, row_off[RowOffW-1:AddrW],
                   dst_base_q[AddrW-1:AlignW], dst_contig, unused_aw_words, unused_aw_committed};

`ifdef TPU_ASSERT
  // Every read finds its place in the read-ahead buffer.
  tpu_assert_never u_data_overflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (df_in_valid && !df_in_ready)
  );
  // A write operation's data is never missing once the issue has ended.
  tpu_assert_never u_owed_underflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (wr_fire && (owed_q == '0))
  );
  tpu_assert_never u_gen_unmatched (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (rsp_valid && is_generate)
  );
`endif

endmodule
