// tpu_agent_answer: one port's answers, as flits, in the order of the jobs
// (mover-notes §6; the agent model's header, tb/model/agent/agent_model.h).
//
// Hand-written module of tpugen, copied unchanged into every agent
// configuration (tpugen agent gen); tpu_agent_port holds one.
//
// The port queues one job for every flit that is answered, in the order it
// took them from its intake queue, and this module answers them strictly in
// that order (so per source, and per (source, destination), the answers keep
// the model's order, which is all the comparison contract asks):
//   JErr     one ERROR flit to the offending flit's source: txn the
//            offending txn, last 1, rsvd 0; the payload the rule's code and
//            the offending header.
//   JWrite   a write's completion (cpl_*, in order): MEM_WR_ACK to its
//            source (txn echoed, last 1, rsvd 0, no status), or an
//            AXI_RESPONSE ERROR flit naming its MEM_WR_REQ when memory
//            answered any of its words SLVERR or DECERR.
//   JPlain   len + 1 read words (rsp_*, in order): MEM_RD_RESP to the
//            requester, txn echoed, `last` on the final one, rsvd 0.
//   JStream  count entries of E words: entry i's words go first to the
//            requester (taken from rsp_* and kept in the entry buffer), then
//            from the buffer to peer 0 .. n_peer - 1; word j carries txn +
//            i, rsvd first_word + j (mod 4), `last` when j = E - 1.
// A word memory answered with an error (rsp_err_i) becomes, in every
// destination's copy, an AXI_RESPONSE ERROR flit naming the request (its
// txn, not txn + i).
//
// The flits leave through an output register (tpu_out_reg): out_valid_o
// never depends on out_ready_i and the flit holds until taken; out_src_o,
// held with it, names the requesting source the flit answers (observability
// for the comparison contract, not part of the NoC link).
module tpu_agent_answer (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  input  logic [tpu_agent_pkg::NODE_W-1:0]          node_i,       // the port's node, {y, x}: src of its flits
  // the jobs, in order
  input  logic                                      job_valid_i,
  output logic                                      job_ready_o,
  input  logic [1:0]                                job_kind_i,
  input  logic [tpu_agent_pkg::HEADER_W-1:0]        job_hdr_i,    // the request's (or offending flit's) header
  input  logic [tpu_agent_pkg::RULE_W-1:0]          job_rule_i,   // JErr: the rule
  input  logic [tpu_agent_pkg::MEM_REQ_LEN_W-1:0]   job_len_i,    // JPlain: beats - 1
  input  logic [tpu_agent_pkg::MEM_REQ_COUNT_W-1:0] job_count_m1_i,
  input  logic [tpu_agent_pkg::ENTRY_IDX_W-1:0]     job_e_m1_i,
  input  logic [tpu_agent_pkg::MEM_REQ_FIRST_WORD_W-1:0] job_first_i,  // JStream: entry word 0's index
  input  logic [tpu_agent_pkg::MEM_REQ_N_PEER_W-1:0] job_n_peer_i,
  input  logic [tpu_agent_pkg::MEM_REQ_PEER_W-1:0]  job_peers_i,
  // read words, in order
  input  logic                                      rsp_valid_i,
  output logic                                      rsp_ready_o,
  input  logic [tpu_agent_pkg::WORD_W-1:0]          rsp_data_i,
  input  logic                                      rsp_err_i,
  // write completions, in order
  input  logic                                      cpl_valid_i,
  output logic                                      cpl_ready_o,
  input  logic                                      cpl_err_i,
  // the port's output
  output logic                                      out_valid_o,
  input  logic                                      out_ready_i,
  output logic [tpu_agent_pkg::FLIT_W-1:0]          out_flit_o,
  output logic [tpu_agent_pkg::NODE_W-1:0]          out_src_o
);

  localparam int FlitW   = tpu_agent_pkg::FLIT_W;
  localparam int NodeW   = tpu_agent_pkg::NODE_W;
  localparam int PosW    = tpu_agent_pkg::POS_W;
  localparam int WordW   = tpu_agent_pkg::WORD_W;
  localparam int CountW  = tpu_agent_pkg::MEM_REQ_COUNT_W;
  localparam int LenW    = tpu_agent_pkg::MEM_REQ_LEN_W;
  localparam int EIdxW   = tpu_agent_pkg::ENTRY_IDX_W;
  localparam int EMax    = tpu_agent_pkg::ENTRY_MAX;
  localparam int NPeerW  = tpu_agent_pkg::MEM_REQ_N_PEER_W;
  localparam int ElemW   = tpu_agent_pkg::MEM_REQ_PEER_ELEM_W;
  localparam int TxnW    = tpu_agent_pkg::TXN_W;
  localparam int TypeW   = tpu_agent_pkg::TYPE_W;

  localparam logic [1:0] JErr    = 2'd0;
  localparam logic [1:0] JWrite  = 2'd1;
  localparam logic [1:0] JPlain  = 2'd2;
  localparam logic [1:0] JStream = 2'd3;

  // --- Where the job is ------------------------------------------------------------
  logic [LenW-1:0]   k_q;     // JPlain: the beat; JStream: the word j of the entry
  logic [NPeerW-1:0] d_q;     // JStream: the destination (0 the requester, then the peers)
  logic [CountW-1:0] i_q;     // JStream: the entry
  logic [WordW-1:0]  ebuf_q [EMax];
  logic [EMax-1:0]   eerr_q;

  logic [NodeW-1:0] requester, peer, dst;
  assign requester = {job_hdr_i[tpu_agent_pkg::SRC_Y_LSB - tpu_agent_pkg::PAYLOAD_W +: tpu_agent_pkg::SRC_Y_W],
                      job_hdr_i[tpu_agent_pkg::SRC_X_LSB - tpu_agent_pkg::PAYLOAD_W +: tpu_agent_pkg::SRC_X_W]};
  logic [ElemW-1:0]  elem;
  logic [NPeerW-1:0] pidx;                                          // peer d_q - 1
  assign pidx = (d_q == '0) ? '0 : d_q - NPeerW'(1);
  assign elem = job_peers_i[32'(pidx) * ElemW +: ElemW];
  assign peer = {elem[tpu_agent_pkg::MEM_REQ_PEER_Y_LSB +: tpu_agent_pkg::MEM_REQ_PEER_Y_W],
                 elem[tpu_agent_pkg::MEM_REQ_PEER_X_LSB +: tpu_agent_pkg::MEM_REQ_PEER_X_W]};

  logic [EIdxW-1:0] j;
  logic             from_rsp, word_err, can, done, stream_final_word, stream_final_dst;
  logic [WordW-1:0] word;
  assign j                 = EIdxW'(k_q);
  assign from_rsp          = (job_kind_i == JPlain) || ((job_kind_i == JStream) && (d_q == '0));
  assign word              = from_rsp ? rsp_data_i : ebuf_q[j];
  assign word_err          = from_rsp ? rsp_err_i : eerr_q[j];
  assign stream_final_word = j == job_e_m1_i;
  assign stream_final_dst  = d_q == job_n_peer_i;
  // A stream word's index in rsvd: first_word + j, modulo 4 (the field's width).
  logic [tpu_agent_pkg::MEM_REQ_FIRST_WORD_W-1:0] word_index;
  assign word_index = tpu_agent_pkg::MEM_REQ_FIRST_WORD_W'(j) + job_first_i;

  // --- The flit ----------------------------------------------------------------------
  logic [TypeW-1:0]                  ftype;
  logic [TxnW-1:0]                   txn, req_txn;
  logic                              flast;
  logic [tpu_agent_pkg::RSVD_W-1:0]  rsvd;
  logic                              has_word, is_err;
  logic [tpu_agent_pkg::RULE_W-1:0]  rule;
  assign req_txn = job_hdr_i[tpu_agent_pkg::TXN_LSB - tpu_agent_pkg::PAYLOAD_W +: TxnW];

  always_comb begin
    dst      = requester;
    ftype    = tpu_agent_pkg::TYPE_ERROR;
    txn      = req_txn;
    flast    = 1'b1;
    rsvd     = '0;
    has_word = 1'b0;
    is_err   = 1'b1;
    rule     = job_rule_i;
    can      = 1'b0;
    done     = 1'b1;
    unique case (job_kind_i)
      JErr: begin
        can = 1'b1;
      end
      JWrite: begin
        can = cpl_valid_i;
        if (cpl_err_i) begin
          rule = tpu_agent_pkg::ERR_AXI_RESPONSE;
        end else begin
          ftype  = tpu_agent_pkg::TYPE_MEM_WR_ACK;
          is_err = 1'b0;
        end
      end
      JPlain: begin
        can  = rsp_valid_i;
        done = k_q == job_len_i;
        if (word_err) begin
          rule = tpu_agent_pkg::ERR_AXI_RESPONSE;
        end else begin
          ftype    = tpu_agent_pkg::TYPE_MEM_RD_RESP;
          flast    = done;
          has_word = 1'b1;
          is_err   = 1'b0;
        end
      end
      JStream: begin
        can  = !from_rsp || rsp_valid_i;
        done = stream_final_word && stream_final_dst && (i_q == job_count_m1_i);
        if (d_q != '0) dst = peer;
        if (word_err) begin
          rule = tpu_agent_pkg::ERR_AXI_RESPONSE;
        end else begin
          ftype    = tpu_agent_pkg::TYPE_MEM_RD_RESP;
          txn      = req_txn + TxnW'(i_q);
          flast    = stream_final_word;
          rsvd     = tpu_agent_pkg::RSVD_W'(word_index);
          has_word = 1'b1;
          is_err   = 1'b0;
        end
      end
      default: ;
    endcase
  end

  // The flit: each field in its place (the fields do not overlap; the word
  // and the ERROR payload are never both present), every other bit 0.
  logic [FlitW-1:0] flit;
  logic [PosW-1:0]  dst_x, dst_y, src_x, src_y;
  assign {dst_y, dst_x} = dst;
  assign {src_y, src_x} = node_i;
  assign flit = (FlitW'(dst_x) << tpu_agent_pkg::DST_X_LSB) | (FlitW'(dst_y) << tpu_agent_pkg::DST_Y_LSB) |
                (FlitW'(src_x) << tpu_agent_pkg::SRC_X_LSB) | (FlitW'(src_y) << tpu_agent_pkg::SRC_Y_LSB) |
                (FlitW'(ftype) << tpu_agent_pkg::TYPE_LSB) | (FlitW'(txn) << tpu_agent_pkg::TXN_LSB) |
                (FlitW'(flast) << tpu_agent_pkg::LAST_LSB) | (FlitW'(rsvd) << tpu_agent_pkg::RSVD_LSB) |
                (has_word ? (FlitW'(word) << tpu_agent_pkg::DATA_WORD_LSB) : '0) |
                (is_err ? ((FlitW'(rule) << tpu_agent_pkg::ERROR_RULE_LSB) |
                           (FlitW'(job_hdr_i) << tpu_agent_pkg::ERROR_HEADER_LSB)) : '0);

  // --- The output register and the handshakes ---------------------------------------
  logic emit;
  assign emit        = job_valid_i && can && (!out_valid_o || out_ready_i);
  assign job_ready_o = emit && done;
  assign rsp_ready_o = emit && from_rsp;
  assign cpl_ready_o = emit && (job_kind_i == JWrite);

  tpu_out_reg #(
    .Width(FlitW + NodeW)
  ) u_out (
    .clk_i,
    .rst_ni,
    .load_i (emit),
    .data_i ({flit, requester}),
    .valid_o(out_valid_o),
    .ready_i(out_ready_i),
    .data_o ({out_flit_o, out_src_o})
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      k_q <= '0;
      d_q <= '0;
      i_q <= '0;
    end else if (emit && done) begin
      k_q <= '0;
      d_q <= '0;
      i_q <= '0;
    end else if (emit && (job_kind_i == JPlain)) begin
      k_q <= k_q + LenW'(1);
    end else if (emit && (job_kind_i == JStream)) begin
      if (!stream_final_word) begin
        k_q <= k_q + LenW'(1);
      end else begin
        k_q <= '0;
        if (!stream_final_dst) begin
          d_q <= d_q + NPeerW'(1);
        end else begin
          d_q <= '0;
          i_q <= i_q + CountW'(1);
        end
      end
    end
  end

  // The entry buffer: the requester's copy of each word, for the peers'.
  always_ff @(posedge clk_i) begin
    if (emit && (job_kind_i == JStream) && from_rsp) ebuf_q[j] <= rsp_data_i;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) eerr_q <= '0;
    else if (emit && (job_kind_i == JStream) && from_rsp) eerr_q[j] <= rsp_err_i;
  end

  logic unused;
  assign unused = ^{k_q[LenW-1:EIdxW]};

`ifdef TPU_ASSERT
  // A stream never goes past its last peer or its entry's last word.
  tpu_assert_never u_peer_past_n_peer (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (job_valid_i && (job_kind_i == JStream) && (32'(d_q) > 32'(job_n_peer_i)))
  );
  tpu_assert_never u_word_past_entry (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (job_valid_i && (job_kind_i == JStream) && (32'(k_q) > 32'(job_e_m1_i)))
  );
`endif

endmodule
