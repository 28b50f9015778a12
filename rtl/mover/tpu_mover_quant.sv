// tpu_mover_quant: occupant 1 of the transform slot, the quantiser
// (mover-notes §5). It turns FP16 into QUANT_CODE_W-bit integers, with an
// E5M3 scale for each lane of QUANT_LANE_ELEMS elements. It matches the C++
// model tb/model/mover/quantiser.cpp bit for bit.
//
// Hand-written module of the mover (rtl/mover), copied unchanged into every
// mover configuration by `tpugen mover gen`. The constants are
// tpu_mover_pkg's, from the spec (spec/system_node.yaml, mover.quantiser):
// the word, the entry's words in and out, the lane shape, the code width, the
// scale field's bias, the clamp of the scale exponent and the reciprocal
// table R. The numbers written here are those of the formats (FP16, the E5M3
// field) and the two offsets of the §5 rules, as the model writes them.
//
// An entry is IN_WORDS words in and OUT_WORDS words out. Input word b
// carries lane b / WordsPerLane, and its element i (bits [16i+15:16i]) is
// k = ElemsPerWord x (b mod WordsPerLane) + i of that lane. Output word w
// holds k = KPerOut x w .. KPerOut x w + KPerOut - 1 of every lane: slot j
// (bits [WORD_W-1-CODE_W x j -: CODE_W]) holds (lane j / KPerOut,
// k = KPerOut x w + j mod KPerOut) in the A packing and (lane j mod LANES,
// k = KPerOut x w + j / LANES) in the B packing (b_packing_i). The low
// LANES x 8 bits hold each lane's scale field, lane 0 highest, in every word.
// The module supports only a package that fills those words exactly, as the
// model's layout does (the spec's shape, mover-notes §5; the model refuses
// any other). For any other package, g_shape_check refuses at elaboration by
// instantiating a module that does not exist. That refusal is the one all
// three tools here report (Icarus 11 has no elaboration-time $error).
//
// The rules of §5: a lane's peak is the largest of its elements' bits [14:0].
// The peak's scale is 2^sexp x m8 / 8 with m8 = 8 .. 15 (sexp 0 and m8 8 for
// a zero peak, sexp clamped to [SEXP_MIN, SEXP_MAX]). The scale field is
// {(sexp + SCALE_BIAS) mod 32, m8 - 8}. The code of element x, with (e, sig)
// its decoded magnitude and t = sexp + 21 - e, is: 0 when sig = 0 or t >= 8;
// magnitude 63 when t < 0; otherwise x8 = ((sig x R[m8]) >> 15) mod 256 >> t
// and magnitude min(63, x8 / 2 rounded half up). Then x's sign is applied.
//
// Pipeline: three register stages.
//   collect  the entry being received: its words (coll_q) and each lane's
//            peak so far (peak_q), updated as its words arrive (a tree of
//            comparators over the word's elements).
//   entry    the complete entry (ent_q) and each lane's scale: the field and
//            sexp + 21 (ent_field_q, ent_toff_q), computed from the peaks as
//            the entry moves in. The entry moves in the cycle after its last
//            word arrives, once the previous entry has sent its last word.
//   output   u_out (tpu_out_reg): one output word. Each cycle the output
//            moves, the codes of word w_q are computed for all slots, one
//            multiplier per slot (sig x R), and loaded.
// Latency: an entry's word 0 is on word_o three clock edges after the edge
// that takes its last word, and its other words follow one a cycle while
// ready_i is high. Throughput: ready_o is low only while a complete entry
// waits in collect for the entry stage to free up. With ready_i high, an
// entry leaves the entry stage within OUT_WORDS cycles of entering it. So the
// collect stage takes one word every cycle without a stall (IN_WORDS words in
// while the entry before sends its OUT_WORDS).
//
// clear_i (a new move starts) drops the words the collect stage holds of an
// incomplete entry. A word taken in the same cycle becomes word 0 of the new
// entry. Complete entries (waiting in collect, in the entry stage or in the
// output) are not dropped. b_packing_i is sampled with each word taken, and
// the entry's last word decides its packing.
//
// Stream rule (PULP common_cells): valid_o is u_out's register and never
// depends on ready_i. word_o holds until the handshake. ready_o depends only
// on registers. Reset (async, active low) clears the valid flags and the
// counters. The data registers are not reset: they are read only behind a
// valid flag, and a lane's peak starts afresh with its first word.
//
// Assertions (at the end, under `ifdef TPU_ASSERT, as in tpu_fifo): the
// stream rule on the input (tpu_stream_check: valid_i and word_i hold while
// ready_o is low). The output's rule is u_out's. A full collect stage has a
// zero word count, and the output word counter rests at 0 while the entry
// stage is empty.
module tpu_mover_quant (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             clear_i,      // drop any partial entry (a new move starts)
  input  logic                             b_packing_i,  // XFORM_MODE's B_PACKING bit; constant during a move
  // input stream: FP16 words
  input  logic                             valid_i,
  output logic                             ready_o,
  input  logic [tpu_mover_pkg::WORD_W-1:0] word_i,
  // output stream: code words
  output logic                             valid_o,
  input  logic                             ready_i,
  output logic [tpu_mover_pkg::WORD_W-1:0] word_o
);

  // ---------------------------------------------------------------------------
  // Constants
  // ---------------------------------------------------------------------------
  // The package's.
  localparam int WordW     = tpu_mover_pkg::WORD_W;
  localparam int InWords   = tpu_mover_pkg::XFORM_QUANTISER_IN_WORDS;
  localparam int OutWords  = tpu_mover_pkg::XFORM_QUANTISER_OUT_WORDS;
  localparam int Lanes     = tpu_mover_pkg::QUANT_LANES;
  localparam int LaneElems = tpu_mover_pkg::QUANT_LANE_ELEMS;
  localparam int CodeW     = tpu_mover_pkg::QUANT_CODE_W;
  localparam int RTableW   = $bits(tpu_mover_pkg::QUANT_R_TABLE);
  localparam logic [RTableW-1:0] RTable = tpu_mover_pkg::QUANT_R_TABLE;
  localparam int RW        = 16;  // bits of one entry of R: R[m8] at [RW*(m8-8) +: RW] (the package's layout)

  // The formats: FP16 elements, the E5M3 scale field.
  localparam int ExpW     = 5;
  localparam int ManW     = 10;
  localparam int ElemW    = 1 + ExpW + ManW;
  localparam int MagW     = ElemW - 1;            // bits [14:0]: the magnitude
  localparam int SigW     = ManW + 1;             // the significand, hidden bit included
  localparam int FieldEW  = 5;                    // the field's exponent: (sexp + bias) mod 2^FieldEW
  localparam int FieldMW  = 3;                    // the field's mantissa: m8 - 8
  localparam int FieldW   = FieldEW + FieldMW;
  localparam int M8Base   = 1 << FieldMW;         // m8 = M8Base .. 2 M8Base - 1
  localparam int RCount   = RTableW / RW;         // entries of R: one for each m8

  // The §5 rules.
  localparam int CodeMax    = (1 << (CodeW - 1)) - 1;       // the largest magnitude (63)
  localparam int X8W        = CodeW + 1;                    // x8: twice the code, before the rounding
  localparam int ShiftLimit = X8W;                          // t >= this: the code is 0
  localparam int ShiftW     = $clog2(ShiftLimit);           // t in 0 .. ShiftLimit - 1
  localparam int CeilDiv    = 2 * CodeMax;                  // c = ceil(sig / CeilDiv): the peak's x8 <= 2 CodeMax
  localparam int CeilMax    = ((1 << SigW) - 1 + CeilDiv - 1) / CeilDiv;  // the largest c (17)
  localparam int CW         = $clog2(CeilMax + 1);
  localparam int SexpOffset = 21;                           // sexp = e - 21 (c < 2 M8Base), else one more
  localparam int RShift     = 15;                           // x8 = (sig x R[m8]) >> 15 ...
  localparam int ProdW      = SigW + RW;
  localparam int SW         = 8;                            // signed: sexp, e - SexpOffset and t (within +-31)

  localparam logic signed [SW-1:0] SexpMin = SW'(tpu_mover_pkg::QUANT_SEXP_MIN);
  localparam logic signed [SW-1:0] SexpMax = SW'(tpu_mover_pkg::QUANT_SEXP_MAX);
  localparam logic signed [SW-1:0] Bias    = SW'(tpu_mover_pkg::QUANT_SCALE_BIAS);

  // The layout of an entry.
  localparam int ElemsPerWord = WordW / ElemW;              // elements of an input word
  localparam int WordsPerLane = LaneElems / ElemsPerWord;   // input words of a lane
  localparam int KPerOut      = LaneElems / OutWords;       // elements of a lane in an output word
  localparam int Slots        = Lanes * KPerOut;            // code slots of an output word
  localparam int EntryW       = InWords * WordW;
  localparam int CntW         = (InWords > 1) ? $clog2(InWords) : 1;
  localparam int WCntW        = (OutWords > 1) ? $clog2(OutWords) : 1;

  localparam bit ShapeOk = (WordW % ElemW == 0) && (LaneElems % ElemsPerWord == 0) &&
                           (LaneElems % OutWords == 0) && (Lanes * LaneElems * ElemW == EntryW) &&
                           (Slots * CodeW + Lanes * FieldW == WordW) && (RCount == M8Base) &&
                           (RCount * RW == RTableW) && (CodeW > 1);

  if (!ShapeOk) begin : g_shape_check
    // The package's quantiser does not lay out as the model's: no such module.
    tpu_mover_quant_shape_unsupported u_refuse ();
  end

  // ---------------------------------------------------------------------------
  // Collect: the words of the entry being received and each lane's peak
  // ---------------------------------------------------------------------------
  logic              take;         // a word is taken this cycle
  logic              xfer;         // the complete entry moves into the entry stage
  logic              ent_valid_q;  // the entry stage holds an entry
  logic [CntW-1:0]   in_cnt_q, in_cnt_d;
  logic [CntW-1:0]   slot_in;      // where a word taken now goes
  logic              coll_full_q, coll_full_d;
  logic              coll_pack_q;
  logic [EntryW-1:0] coll_q;
  logic [Lanes*MagW-1:0] peak_q, peak_d;
  logic [MagW-1:0]   word_peak;

  assign xfer    = coll_full_q && !ent_valid_q;
  assign ready_o = !coll_full_q || !ent_valid_q;
  assign take    = valid_i && ready_o;
  assign slot_in = clear_i ? '0 : in_cnt_q;

  // word_peak: the largest magnitude among word_i's elements. It is a tree
  // of comparators: node n holds the larger of nodes 2n+1 and 2n+2, and the
  // leaves are nodes ElemsPerWord-1 onward.
  logic [(2*ElemsPerWord-1)*MagW-1:0] peak_tree;

  always_comb begin
    peak_tree = '0;
    for (int i = 0; i < ElemsPerWord; i++) begin
      peak_tree[(ElemsPerWord-1+i)*MagW+:MagW] = word_i[i*ElemW+:MagW];
    end
    for (int n = ElemsPerWord - 2; n >= 0; n--) begin
      peak_tree[n*MagW+:MagW] = (peak_tree[(2*n+1)*MagW+:MagW] > peak_tree[(2*n+2)*MagW+:MagW])
                                    ? peak_tree[(2*n+1)*MagW+:MagW]
                                    : peak_tree[(2*n+2)*MagW+:MagW];
    end
  end

  assign word_peak = peak_tree[0+:MagW];

  // A lane's peak starts afresh with its first word.
  always_comb begin
    peak_d = peak_q;
    for (int b = 0; b < InWords; b++) begin
      if (take && slot_in == CntW'(b)) begin
        if (b % WordsPerLane == 0 || word_peak > peak_q[(b/WordsPerLane)*MagW+:MagW]) begin
          peak_d[(b/WordsPerLane)*MagW+:MagW] = word_peak;
        end
      end
    end
  end

  always_comb begin
    in_cnt_d    = slot_in;
    coll_full_d = coll_full_q && !xfer;
    if (take) begin
      if (slot_in == CntW'(InWords - 1)) begin
        in_cnt_d    = '0;
        coll_full_d = 1'b1;
      end else begin
        in_cnt_d = slot_in + CntW'(1);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Each lane's scale, from its peak, as the entry moves in
  // ---------------------------------------------------------------------------
  logic [Lanes*FieldW-1:0] field_d;
  logic [Lanes*SW-1:0]     toff_d;

  for (genvar l = 0; l < Lanes; l++) begin : g_scale
    logic [ExpW-1:0]      expf;
    logic [SigW-1:0]      sig_raw, sig;
    logic [ExpW-1:0]      e_raw;
    logic [$clog2(SigW)-1:0] lz;
    logic signed [SW-1:0] e, sexp, expo;
    logic [CW-1:0]        c;
    logic [FieldMW-1:0]   m;
    logic                 unused_expo;

    // Decode: exponent field 0 is (e = 1, sig = mantissa).
    assign expf    = peak_q[l*MagW+ManW+:ExpW];
    assign sig_raw = {expf != '0, peak_q[l*MagW+:ManW]};
    assign e_raw   = (expf == '0) ? ExpW'(1) : expf;

    always_comb begin
      // Renormalise (while sig < 2^ManW: sig <<= 1, e -= 1) in one shift:
      // lz, the zeros above sig's highest one (a zero sig shifts nothing).
      lz = '0;
      for (int b = 0; b < SigW; b++) begin
        if (sig_raw[b]) lz = $clog2(SigW)'(SigW - 1 - b);
      end
      sig = sig_raw << lz;
      e   = $signed(SW'(e_raw)) - $signed(SW'(lz));
      // c = ceil(sig / CeilDiv): how many multiples of CeilDiv lie below sig.
      c = '0;
      for (int n = 0; n < CeilMax; n++) begin
        if (sig > SigW'(n * CeilDiv)) c = CW'(n + 1);
      end
      // c < 2 M8Base: (e - 21, c); else one exponent up, m8 = c - M8Base.
      if (c < CW'(2 * M8Base)) begin
        sexp = e - SW'(SexpOffset);
        m    = FieldMW'(c - CW'(M8Base));
      end else begin
        sexp = e - SW'(SexpOffset - 1);
        m    = FieldMW'(c - CW'(2 * M8Base));
      end
      if (sig == '0) begin
        sexp = '0;
        m    = '0;
      end
      if (sexp < SexpMin) begin
        sexp = SexpMin;
      end else if (sexp > SexpMax) begin
        sexp = SexpMax;
      end
    end

    assign expo                      = sexp + Bias;  // mod 2^FieldEW: its low bits
    assign field_d[l*FieldW+:FieldW] = {expo[FieldEW-1:0], m};
    assign toff_d[l*SW+:SW]          = sexp + SW'(SexpOffset);
    assign unused_expo               = ^expo[SW-1:FieldEW];
  end

  // ---------------------------------------------------------------------------
  // Entry: the complete entry and its lanes' scales
  // ---------------------------------------------------------------------------
  logic [EntryW-1:0]       ent_q;
  logic [Lanes*FieldW-1:0] ent_field_q;
  logic [Lanes*SW-1:0]     ent_toff_q;
  logic                    ent_pack_q;
  logic [WCntW-1:0]        w_q;       // the output word to compute next
  logic                    out_valid;
  logic                    load;      // output word w_q is loaded into u_out
  logic                    ent_done;  // ... and it is the entry's last

  assign load     = ent_valid_q && (!out_valid || ready_i);
  assign ent_done = load && (w_q == WCntW'(OutWords - 1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_cnt_q    <= '0;
      coll_full_q <= 1'b0;
      ent_valid_q <= 1'b0;
      w_q         <= '0;
    end else begin
      in_cnt_q    <= in_cnt_d;
      coll_full_q <= coll_full_d;
      ent_valid_q <= xfer || (ent_valid_q && !ent_done);
      if (load) w_q <= ent_done ? '0 : w_q + WCntW'(1);
    end
  end

  // Data registers: no reset, read only behind coll_full_q and ent_valid_q.
  always_ff @(posedge clk_i) begin
    for (int b = 0; b < InWords; b++) begin
      if (take && slot_in == CntW'(b)) coll_q[b*WordW+:WordW] <= word_i;
    end
    if (take) coll_pack_q <= b_packing_i;
    peak_q <= peak_d;
    if (xfer) begin
      ent_q       <= coll_q;
      ent_field_q <= field_d;
      ent_toff_q  <= toff_d;
      ent_pack_q  <= coll_pack_q;
    end
  end

  // ---------------------------------------------------------------------------
  // Output word w_q: a code for each (lane, element) of it, then the packing
  // ---------------------------------------------------------------------------
  // lane_r: each lane's R[m8], from its field's mantissa.
  logic [Lanes*RW-1:0] lane_r;

  always_comb begin
    lane_r = '0;
    for (int l = 0; l < Lanes; l++) begin
      for (int m = 0; m < RCount; m++) begin
        if (ent_field_q[l*FieldW+:FieldMW] == FieldMW'(m)) lane_r[l*RW+:RW] = RTable[m*RW+:RW];
      end
    end
  end

  // Unit u computes the code of (lane u / KPerOut, k = KPerOut x w_q + u mod KPerOut).
  logic [Slots*CodeW-1:0] codes;

  for (genvar u = 0; u < Slots; u++) begin : g_unit
    localparam int Lane = u / KPerOut;
    localparam int Kk   = u % KPerOut;

    logic [ElemW-1:0]     x;
    logic [ExpW-1:0]      expf, e;
    logic [SigW-1:0]      sig;
    logic signed [SW-1:0] t;
    logic [ProdW-1:0]     prod;
    logic [X8W-1:0]       x8, rounded;
    logic [CodeW-1:0]     rounded_code, mag;
    logic                 unused_prod;

    always_comb begin
      x = '0;
      for (int w = 0; w < OutWords; w++) begin
        if (w_q == WCntW'(w)) x = ent_q[(Lane*LaneElems+KPerOut*w+Kk)*ElemW+:ElemW];
      end
    end

    // Decode: exponent field 0 is (e = 1, sig = mantissa); t = sexp + 21 - e.
    assign expf         = x[ManW+:ExpW];
    assign sig          = {expf != '0, x[ManW-1:0]};
    assign e            = (expf == '0) ? ExpW'(1) : expf;
    assign t            = $signed(ent_toff_q[Lane*SW+:SW]) - $signed(SW'(e));
    assign prod         = ProdW'(sig) * ProdW'(lane_r[Lane*RW+:RW]);
    assign x8           = prod[RShift+:X8W] >> t[ShiftW-1:0];
    assign rounded      = {1'b0, x8[X8W-1:1]} + X8W'(x8[0]);  // x8 / 2, half up
    assign rounded_code = rounded[CodeW-1:0];

    always_comb begin
      if (sig == '0 || t >= $signed(SW'(ShiftLimit))) begin
        mag = '0;
      end else if (t < $signed(SW'(0))) begin
        mag = CodeW'(CodeMax);
      end else if (rounded > X8W'(CodeMax)) begin
        mag = CodeW'(CodeMax);
      end else begin
        mag = rounded_code;
      end
    end

    assign codes[u*CodeW+:CodeW] = x[ElemW-1] ? (~mag + CodeW'(1)) : mag;
    assign unused_prod           = ^{prod[RShift-1:0], prod[ProdW-1:RShift+X8W]};
  end

  // Slot j: unit j in the A packing; unit (j mod Lanes) x KPerOut + j / Lanes
  // in the B packing. Then the scale fields, lane 0 highest.
  logic [WordW-1:0] word_d;

  always_comb begin
    word_d = '0;
    for (int j = 0; j < Slots; j++) begin
      word_d[WordW-CodeW*(j+1)+:CodeW] = ent_pack_q ? codes[((j%Lanes)*KPerOut+j/Lanes)*CodeW+:CodeW]
                                                    : codes[j*CodeW+:CodeW];
    end
    for (int l = 0; l < Lanes; l++) begin
      word_d[FieldW*(Lanes-1-l)+:FieldW] = ent_field_q[l*FieldW+:FieldW];
    end
  end

  tpu_out_reg #(
    .Width(WordW)
  ) u_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (load),
    .data_i (word_d),
    .valid_o(out_valid),
    .ready_i(ready_i),
    .data_o (word_o)
  );

  assign valid_o = out_valid;

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: the stream rule on the input; the counters' invariants.
  // ---------------------------------------------------------------------------
  tpu_stream_check #(
    .Width(WordW)
  ) u_check_in (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_i),
    .ready_i(ready_o),
    .data_i (word_i)
  );

  tpu_assert_never u_full_with_count (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (coll_full_q && in_cnt_q != '0)
  );

  tpu_assert_never u_word_count_while_empty (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (!ent_valid_q && w_q != '0)
  );
`endif

endmodule
