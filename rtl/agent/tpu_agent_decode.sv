// tpu_agent_decode: what the memory agent makes of one flit (mover-notes §6,
// the agent section of spec/system_node.yaml): its class, the first error
// rule it breaks in the spec's order, and the descriptor's fields.
//
// Hand-written module of tpugen, copied unchanged into every agent
// configuration (tpugen agent gen); its constants are tpu_agent_pkg's.
// Purely combinational: tpu_agent_port decodes the head of its intake queue.
//
// The classes, the first that applies:
//   ERROR        dropped and counted, never answered (is_error_o)
//   not a type the agent takes (MEM_RD_REQ, MEM_WR_REQ, MEM_WR_DATA):
//                TYPE_NOT_SERVED (refuse_o)
//   MEM_WR_DATA  is_data_o: the slot of its source takes it (no rule)
//   MEM_RD_REQ, MEM_WR_REQ: the request rules, each a bit of `broken`
//                (indices RULE_<NAME>), the first of them in RULE_ORDER (the
//                spec's order) named by rule_o:
//     ADDRESS_NOT_SERVED  a word of the request (addr + WORD_BYTES k for
//                each of its words: len + 1 for a plain read or a write,
//                count entries of E for a stream) outside [0, 2^ADDR_W) or outside
//                `serves` (SERVE_MASK / SERVE_VALUE): the run is served when
//                its first word is, its last word is below 2^ADDR_W, and both
//                agree on every address bit from SERVE_LSB_MIN up
//     MISALIGNED          addr not a multiple of WORD_BYTES
//     WRITE_TOO_LONG      a write with len > WRITE_MAX_LEN
//     WRITE_OPEN          a write from a source whose write is still open
//                         (src_open_i: its slot, a discard slot too)
//     WRITE_SLOTS_FULL    a write while every slot of the port holds an
//                         open write or a discard slot (slots_full_i)
//
// The stream geometry: E = entry_words, 0 meaning ..._ZERO_MEANS and above
// ..._ABOVE_MAX meaning ..._ABOVE_MEANS; count 0 meaning ..._ZERO_MEANS;
// entry i's first word at addr + i x S words, S = entry_stride (0 meaning E:
// consecutive entries; tpugen's extension); first_word numbers the words of
// an entry in their responses' rsvd. STREAM on a write is ignored (a write
// is len + 1 words).
module tpu_agent_decode (
  input  logic [tpu_agent_pkg::FLIT_W-1:0]            flit_i,
  input  logic                                        src_open_i,   // the flit's source has a write open
  input  logic                                        slots_full_i, // every slot is open (or discarding)
  output logic                                        is_error_o,   // an ERROR flit: dropped
  output logic                                        is_data_o,    // MEM_WR_DATA
  output logic                                        is_read_o,    // MEM_RD_REQ
  output logic                                        is_write_o,   // MEM_WR_REQ
  output logic                                        refuse_o,     // a rule broken: one ERROR flit answers it
  output logic [tpu_agent_pkg::RULE_W-1:0]            rule_o,       // the rule's code
  output logic [tpu_agent_pkg::HEADER_W-1:0]          hdr_o,        // the header as it arrived
  output logic [tpu_agent_pkg::NODE_W-1:0]            src_o,        // its source, {y, x}
  output logic                                        last_o,       // its `last`
  output logic                                        stream_o,     // a stream read
  output logic [tpu_agent_pkg::ADDR_W-1:0]            addr_o,
  output logic [tpu_agent_pkg::MEM_REQ_LEN_W-1:0]     len_o,
  output logic [tpu_agent_pkg::MEM_REQ_COUNT_W+tpu_agent_pkg::ENTRY_IDX_W-1:0] words_m1_o,  // its words - 1
  output logic [tpu_agent_pkg::MEM_REQ_COUNT_W-1:0]   count_m1_o,   // a stream's entries - 1
  output logic [tpu_agent_pkg::ENTRY_IDX_W-1:0]       e_m1_o,       // its words an entry - 1
  output logic [tpu_agent_pkg::MEM_REQ_ENTRY_STRIDE_W-1:0] stride_o, // words from an entry's start to the next's (S)
  output logic [tpu_agent_pkg::MEM_REQ_FIRST_WORD_W-1:0]   first_o,  // the word index of an entry's first word
  output logic [tpu_agent_pkg::MEM_REQ_N_PEER_W-1:0]  n_peer_o,
  output logic [tpu_agent_pkg::MEM_REQ_PEER_W-1:0]    peers_o
);

  localparam int AddrW  = tpu_agent_pkg::ADDR_W;
  localparam int CountW = tpu_agent_pkg::MEM_REQ_COUNT_W;
  localparam int EW     = tpu_agent_pkg::MEM_REQ_ENTRY_WORDS_W;
  localparam int EIdxW  = tpu_agent_pkg::ENTRY_IDX_W;
  localparam int LenW   = tpu_agent_pkg::MEM_REQ_LEN_W;
  localparam int NumW   = CountW + EIdxW;                          // a request's words - 1
  localparam int AlignW = $clog2(tpu_agent_pkg::WORD_BYTES);
  localparam int IdxW   = tpu_agent_pkg::RULE_IDX_W;
  localparam int Rules  = tpu_agent_pkg::RULES;
  localparam int LsbMin = tpu_agent_pkg::SERVE_LSB_MIN;
  localparam int TypeW  = tpu_agent_pkg::TYPE_W;
  localparam int StrideW = tpu_agent_pkg::MEM_REQ_ENTRY_STRIDE_W;
  localparam int SpanW  = CountW + StrideW + 1;                    // a stream's span, in words

  // --- The header -------------------------------------------------------------------
  logic [TypeW-1:0] ftype;
  assign hdr_o  = flit_i[tpu_agent_pkg::PAYLOAD_W +: tpu_agent_pkg::HEADER_W];
  assign ftype  = flit_i[tpu_agent_pkg::TYPE_LSB +: TypeW];
  assign src_o  = {flit_i[tpu_agent_pkg::SRC_Y_LSB +: tpu_agent_pkg::SRC_Y_W],
                   flit_i[tpu_agent_pkg::SRC_X_LSB +: tpu_agent_pkg::SRC_X_W]};
  assign last_o = flit_i[tpu_agent_pkg::LAST_LSB];

  assign is_error_o = ftype == tpu_agent_pkg::TYPE_ERROR;
  assign is_data_o  = ftype == tpu_agent_pkg::TYPE_MEM_WR_DATA;
  assign is_read_o  = ftype == tpu_agent_pkg::TYPE_MEM_RD_REQ;
  assign is_write_o = ftype == tpu_agent_pkg::TYPE_MEM_WR_REQ;

  // --- The descriptor ---------------------------------------------------------------
  logic [CountW-1:0] count_raw, count_eff;
  logic [EW-1:0]     e_raw;
  logic [EIdxW:0]    e_eff;                                          // 1 .. ENTRY_MAX
  assign addr_o    = flit_i[tpu_agent_pkg::MEM_REQ_ADDR_LSB +: AddrW];
  assign len_o     = flit_i[tpu_agent_pkg::MEM_REQ_LEN_LSB +: LenW];
  assign stream_o  = is_read_o && flit_i[tpu_agent_pkg::MEM_REQ_STREAM_BIT];
  assign count_raw = flit_i[tpu_agent_pkg::MEM_REQ_COUNT_LSB +: CountW];
  assign e_raw     = flit_i[tpu_agent_pkg::MEM_REQ_ENTRY_WORDS_LSB +: EW];
  assign n_peer_o  = flit_i[tpu_agent_pkg::MEM_REQ_N_PEER_LSB +: tpu_agent_pkg::MEM_REQ_N_PEER_W];
  assign peers_o   = flit_i[tpu_agent_pkg::MEM_REQ_PEER_LSB +: tpu_agent_pkg::MEM_REQ_PEER_W];

  assign count_eff = (count_raw == '0) ? CountW'(tpu_agent_pkg::MEM_REQ_COUNT_ZERO_MEANS) : count_raw;
  always_comb begin
    if (e_raw == '0) e_eff = (EIdxW+1)'(tpu_agent_pkg::MEM_REQ_ENTRY_WORDS_ZERO_MEANS);
    else if (32'(e_raw) > tpu_agent_pkg::MEM_REQ_ENTRY_WORDS_ABOVE_MAX)
      e_eff = (EIdxW+1)'(tpu_agent_pkg::MEM_REQ_ENTRY_WORDS_ABOVE_MEANS);
    else e_eff = (EIdxW+1)'(e_raw);
  end
  assign count_m1_o = count_eff - CountW'(1);
  assign e_m1_o     = EIdxW'(e_eff - (EIdxW+1)'(1));
  assign first_o    = flit_i[tpu_agent_pkg::MEM_REQ_FIRST_WORD_LSB +: tpu_agent_pkg::MEM_REQ_FIRST_WORD_W];
  logic [StrideW-1:0] stride_raw;
  assign stride_raw = flit_i[tpu_agent_pkg::MEM_REQ_ENTRY_STRIDE_LSB +: StrideW];
  assign stride_o   = (stride_raw == '0) ? StrideW'(e_eff) : stride_raw;

  // count x E - 1 for a stream; len for a plain read or a write.
  logic [NumW:0] stream_words;
  assign stream_words = (NumW+1)'(count_eff) * (NumW+1)'(e_eff);
  assign words_m1_o   = stream_o ? NumW'(stream_words - (NumW+1)'(1)) : NumW'(len_o);

  // --- The request rules ------------------------------------------------------------
  // The last word a request names: a stream's (count - 1) x S + E - 1 words
  // on (every other word lies between: S >= 1), else words_m1_o.
  logic             request, not_served, misaligned;
  logic [SpanW-1:0] span_m1;                                         // words from the first to the last
  logic [AddrW:0]   run_last;                                        // the last word's address
  logic [Rules-1:0] broken;
  assign request  = is_read_o || is_write_o;
  assign span_m1  = stream_o ? SpanW'(SpanW'(count_m1_o) * SpanW'(stride_o) + SpanW'(e_m1_o)) : SpanW'(words_m1_o);
  assign run_last = {1'b0, addr_o} + ((AddrW+1)'(span_m1) << AlignW);

  if (LsbMin < AddrW) begin : g_served_fields
    assign not_served = run_last[AddrW] ||
                        ((addr_o & tpu_agent_pkg::SERVE_MASK) != tpu_agent_pkg::SERVE_VALUE) ||
                        (addr_o[AddrW-1:LsbMin] != run_last[AddrW-1:LsbMin]);
  end else begin : g_served_all
    assign not_served = run_last[AddrW];
  end
  assign misaligned = addr_o[AlignW-1:0] != '0;

  always_comb begin
    broken = '0;
    broken[tpu_agent_pkg::RULE_TYPE_NOT_SERVED]    = !is_error_o && !request && !is_data_o;
    broken[tpu_agent_pkg::RULE_ADDRESS_NOT_SERVED] = request && not_served;
    broken[tpu_agent_pkg::RULE_MISALIGNED]         = request && misaligned;
    broken[tpu_agent_pkg::RULE_WRITE_TOO_LONG]     = is_write_o && (32'(len_o) > tpu_agent_pkg::WRITE_MAX_LEN);
    broken[tpu_agent_pkg::RULE_WRITE_OPEN]         = is_write_o && src_open_i;
    broken[tpu_agent_pkg::RULE_WRITE_SLOTS_FULL]   = is_write_o && slots_full_i;
  end

  // The first broken rule in the spec's order (RULE_ORDER, position 0 first).
  logic [IdxW-1:0] first, idx;
  always_comb begin
    first    = '0;
    idx      = '0;
    refuse_o = 1'b0;
    for (int p = Rules - 1; p >= 0; p--) begin
      idx = tpu_agent_pkg::RULE_ORDER[p*IdxW +: IdxW];
      if (broken[idx]) begin
        first    = idx;
        refuse_o = 1'b1;
      end
    end
  end
  assign rule_o = tpu_agent_pkg::RULE_CODES[32'(first) * tpu_agent_pkg::RULE_W +: tpu_agent_pkg::RULE_W];

endmodule
