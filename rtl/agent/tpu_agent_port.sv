// tpu_agent_port: one memory port of the agent: a NoC endpoint that is an
// agent of its own (tb/model/agent/agent_model.h, one model per port), over
// the memory and the AXI master it shares with the other ports.
//
// Hand-written module of tpugen, copied unchanged into every agent
// configuration (tpugen agent gen); tpu_noc_mem_agent holds MEM_PORTS.
//
// The intake queue (tpu_fifo, INTAKE_DEPTH flits) takes a flit while it is
// not full (in_ready_o, a function of its registered count: the NoC link's
// busy = !ready); in_busy_o rises when at most one place is left (usage >=
// INTAKE_DEPTH - 1), so a sender that sees it a cycle late still has room.
// The dispatcher takes the queue's head, in order, one flit a cycle when
// what it needs has room (tpu_agent_decode classifies it):
//   ERROR                         dropped, counted (errors_in_o)
//   a rule broken                 a JErr job; a refused MEM_WR_REQ of a
//                                 source with no write open also opens a
//                                 discard slot, unless every slot is open
//                                 (it waits for a DRAIN slot to free)
//   MEM_RD_REQ                    a read job and the read's run of words
//                                 (addr, words - 1, the entries' E and stride) in the read queue
//   MEM_WR_REQ                    opens a slot (waits for a DRAIN slot to
//                                 free; with every slot open it is refused,
//                                 WRITE_SLOTS_FULL)
//   MEM_WR_DATA, no write open    dropped, counted (stray_o)
//   MEM_WR_DATA, discard slot     consumed, counted (discarded_o)
//   MEM_WR_DATA, open slot        its word into the slot; the final one
//                                 (counted, not `last`) closes the write and
//                                 queues a JWrite job
//   (a data flit whose `last` disagrees with its place: last_mismatch_o)
// A wait at the head is for something that frees without the intake: a job
// or read-queue place (the answers drain to the NoC), or a DRAIN slot (its
// words drain to memory). Never for an open write's data, which may be
// queued behind the head: hence WRITE_SLOTS_FULL.
//
// Reads: the read queue's runs are issued a word a cycle (rd_*) to the shared
// AXI read path, each only with a place reserved in the response FIFO (a
// credit, RspDepth of them), so the shared R channel never waits for a port;
// the words come back in order (rsp_*). Writes: the slots' complete writes
// leave a word a cycle (wr_*); their completions come back in order (cpl_*,
// into a queue as deep as the job queue, which bounds them).
// Answers: tpu_agent_answer, in job order.
module tpu_agent_port (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic [tpu_agent_pkg::NODE_W-1:0]        node_i,        // this endpoint's node, {y, x}
  // the NoC endpoint
  input  logic                                    in_valid_i,
  output logic                                    in_ready_o,
  input  logic [tpu_agent_pkg::FLIT_W-1:0]        in_flit_i,
  output logic                                    in_busy_o,     // at most one place left in the intake queue
  output logic                                    out_valid_o,
  input  logic                                    out_ready_i,
  output logic [tpu_agent_pkg::FLIT_W-1:0]        out_flit_o,
  output logic [tpu_agent_pkg::NODE_W-1:0]        out_src_o,     // the requester out_flit_o answers
  // word reads on the shared AXI read path
  output logic                                    rd_valid_o,
  input  logic                                    rd_take_i,
  output logic [tpu_agent_pkg::ADDR_W-1:0]        rd_addr_o,
  output logic                                    rd_last_o,     // the last word of its run
  input  logic                                    rsp_valid_i,   // this port's next word (always taken)
  input  logic [tpu_agent_pkg::WORD_W-1:0]        rsp_data_i,
  input  logic                                    rsp_err_i,
  // words of complete writes on the shared AXI write path
  output logic                                    wr_valid_o,
  input  logic                                    wr_take_i,
  output logic [tpu_agent_pkg::WORD_W-1:0]        wr_data_o,
  output logic [tpu_agent_pkg::ADDR_W-1:0]        wr_addr_o,
  output logic                                    wr_first_o,
  output logic                                    wr_last_o,
  output logic [tpu_agent_pkg::MEM_REQ_LEN_W-1:0] wr_len_o,    // the write's words - 1
  input  logic                                    cpl_valid_i,   // this port's next write is done
  input  logic                                    cpl_err_i,     // memory answered a word of it with an error
  // counters (wrapping)
  output logic [15:0]                             stray_o,
  output logic [15:0]                             discarded_o,
  output logic [15:0]                             errors_in_o,
  output logic [15:0]                             last_mismatch_o,
  // nothing to do without more input
  output logic                                    idle_o
);

  localparam int FlitW    = tpu_agent_pkg::FLIT_W;
  localparam int HdrW     = tpu_agent_pkg::HEADER_W;
  localparam int AddrW    = tpu_agent_pkg::ADDR_W;
  localparam int WordW    = tpu_agent_pkg::WORD_W;
  localparam int NodeW    = tpu_agent_pkg::NODE_W;
  localparam int LenW     = tpu_agent_pkg::MEM_REQ_LEN_W;
  localparam int CountW   = tpu_agent_pkg::MEM_REQ_COUNT_W;
  localparam int EIdxW    = tpu_agent_pkg::ENTRY_IDX_W;
  localparam int NPeerW   = tpu_agent_pkg::MEM_REQ_N_PEER_W;
  localparam int PeerW    = tpu_agent_pkg::MEM_REQ_PEER_W;
  localparam int RuleW    = tpu_agent_pkg::RULE_W;
  localparam int NumW     = CountW + EIdxW;                         // a request's words - 1
  localparam int StrideW  = tpu_agent_pkg::MEM_REQ_ENTRY_STRIDE_W;
  localparam int FirstW   = tpu_agent_pkg::MEM_REQ_FIRST_WORD_W;
  localparam int AlignW   = $clog2(tpu_agent_pkg::WORD_BYTES);
  localparam int WAddrW   = AddrW - AlignW;
  localparam int Depth    = tpu_agent_pkg::INTAKE_DEPTH;
  localparam int Beats    = tpu_agent_pkg::WRITE_MAX_BEATS;
  localparam int BeatW    = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int JobDepth = tpu_agent_pkg::JOB_DEPTH;               // answers waiting (the completion queue's depth too)
  localparam int ReadQ    = 4;                                      // read runs waiting to be issued
  localparam int RspDepth = tpu_agent_pkg::RD_WORDS;                // read words reserved ahead (credits)
  localparam int CreditW  = $clog2(RspDepth + 1);
  localparam int JobW     = 2 + HdrW + RuleW + LenW + CountW + EIdxW + FirstW + NPeerW + PeerW;
  localparam int RunW     = WAddrW + NumW + EIdxW + StrideW;

  localparam logic [1:0] JErr    = 2'd0;
  localparam logic [1:0] JWrite  = 2'd1;
  localparam logic [1:0] JPlain  = 2'd2;
  localparam logic [1:0] JStream = 2'd3;

  // --- The intake queue ---------------------------------------------------------------
  logic                   head_valid, head_pop;
  logic [FlitW-1:0]       head;
  logic [$clog2(Depth+1)-1:0] in_usage;

  tpu_fifo #(
    .Width(FlitW),
    .Depth(Depth)
  ) u_intake (
    .clk_i,
    .rst_ni,
    .valid_i(in_valid_i),
    .ready_o(in_ready_o),
    .data_i (in_flit_i),
    .valid_o(head_valid),
    .ready_i(head_pop),
    .data_o (head),
    .usage_o(in_usage)
  );
  assign in_busy_o = 32'(in_usage) >= Depth - 1;

  // --- The head, decoded, and its source's slot ----------------------------------------
  logic                   is_error, is_data, is_read, is_write, refuse, h_last, h_stream;
  logic [RuleW-1:0]       h_rule;
  logic [HdrW-1:0]        h_hdr;
  logic [NodeW-1:0]       h_src;
  logic [AddrW-1:0]       h_addr;
  logic [LenW-1:0]        h_len;
  logic [NumW-1:0]        h_words_m1;
  logic [CountW-1:0]      h_count_m1;
  logic [EIdxW-1:0]       h_e_m1;
  logic [StrideW-1:0]     h_stride;
  logic [FirstW-1:0]      h_first;
  logic [NPeerW-1:0]      h_n_peer;
  logic [PeerW-1:0]       h_peers;
  logic                   match, match_discard, match_final, free, full;
  logic [HdrW-1:0]        match_hdr;

  tpu_agent_decode u_decode (
    .flit_i      (head),
    .src_open_i  (match),
    .slots_full_i(full),
    .is_error_o  (is_error),
    .is_data_o   (is_data),
    .is_read_o   (is_read),
    .is_write_o  (is_write),
    .refuse_o    (refuse),
    .rule_o      (h_rule),
    .hdr_o       (h_hdr),
    .src_o       (h_src),
    .last_o      (h_last),
    .stream_o    (h_stream),
    .addr_o      (h_addr),
    .len_o       (h_len),
    .words_m1_o  (h_words_m1),
    .count_m1_o  (h_count_m1),
    .e_m1_o      (h_e_m1),
    .stride_o    (h_stride),
    .first_o     (h_first),
    .n_peer_o    (h_n_peer),
    .peers_o     (h_peers)
  );

  // --- The dispatcher -----------------------------------------------------------------
  logic job_ready, rq_ready;
  logic job_push, rq_push, slot_open, slot_discard, slot_data;
  logic [1:0] job_kind;
  logic [HdrW-1:0] job_hdr;
  logic stray, discard, errin, mismatch;
  logic opens_discard;
  assign opens_discard = is_write && !match && !full;  // a refused write of a source with none open, a slot left

  always_comb begin
    head_pop     = 1'b0;
    job_push     = 1'b0;
    job_kind     = JErr;
    job_hdr      = h_hdr;
    rq_push      = 1'b0;
    slot_open    = 1'b0;
    slot_discard = 1'b0;
    slot_data    = 1'b0;
    stray        = 1'b0;
    discard      = 1'b0;
    errin        = 1'b0;
    mismatch     = 1'b0;
    if (head_valid) begin
      if (is_error) begin
        head_pop = 1'b1;
        errin    = 1'b1;
      end else if (refuse) begin
        if (job_ready && (!opens_discard || free)) begin
          head_pop     = 1'b1;
          job_push     = 1'b1;
          slot_open    = opens_discard;
          slot_discard = opens_discard;
        end
      end else if (is_data) begin
        if (!match) begin
          head_pop = 1'b1;
          stray    = 1'b1;
        end else if (match_discard) begin
          head_pop  = 1'b1;
          slot_data = 1'b1;
          discard   = 1'b1;
          mismatch  = h_last != match_final;
        end else if (!match_final || job_ready) begin
          head_pop  = 1'b1;
          slot_data = 1'b1;
          mismatch  = h_last != match_final;
          job_push  = match_final;
          job_kind  = JWrite;
          job_hdr   = match_hdr;
        end
      end else if (is_read) begin
        if (job_ready && rq_ready) begin
          head_pop = 1'b1;
          job_push = 1'b1;
          job_kind = h_stream ? JStream : JPlain;
          rq_push  = 1'b1;
        end
      end else if (is_write) begin
        if (free) begin
          head_pop  = 1'b1;
          slot_open = 1'b1;
        end
      end
    end
  end

  // --- The slots ----------------------------------------------------------------------
  logic slots_busy;
  logic [BeatW-1:0] wr_len;
  tpu_agent_slots #(
    .Slots(tpu_agent_pkg::WR_SLOTS),
    .Beats(Beats)
  ) u_slots (
    .clk_i,
    .rst_ni,
    .src_i          (h_src),
    .match_o        (match),
    .match_discard_o(match_discard),
    .match_final_o  (match_final),
    .match_hdr_o    (match_hdr),
    .free_o         (free),
    .full_o         (full),
    .open_i         (slot_open),
    .open_discard_i (slot_discard),
    .open_hdr_i     (h_hdr),
    .open_addr_i    (h_addr),
    .open_len_i     (h_len),
    .data_i         (slot_data),
    .data_word_i    (head[tpu_agent_pkg::DATA_WORD_LSB +: WordW]),
    .wr_valid_o,
    .wr_ready_i     (wr_take_i),
    .wr_data_o,
    .wr_addr_o,
    .wr_first_o,
    .wr_last_o,
    .wr_len_o       (wr_len),
    .busy_o         (slots_busy)
  );
  assign wr_len_o = LenW'(wr_len);

  // --- The jobs -----------------------------------------------------------------------
  logic            job_valid, job_pop;
  logic [JobW-1:0] job_in, job;
  logic [$clog2(JobDepth+1)-1:0] job_usage;
  assign job_in = {job_kind, job_hdr, h_rule, h_len, h_count_m1, h_e_m1, h_first, h_n_peer, h_peers};

  tpu_fifo #(
    .Width(JobW),
    .Depth(JobDepth)
  ) u_jobs (
    .clk_i,
    .rst_ni,
    .valid_i(job_push),
    .ready_o(job_ready),
    .data_i (job_in),
    .valid_o(job_valid),
    .ready_i(job_pop),
    .data_o (job),
    .usage_o(job_usage)
  );

  // --- Reads: the runs, their words, the responses -----------------------------------
  // A stream's entries as the descriptor says; a plain read's words are
  // entries of one word, consecutive.
  logic [EIdxW-1:0]   run_e_m1;
  logic [StrideW-1:0] run_stride;
  assign run_e_m1   = h_stream ? h_e_m1 : '0;
  assign run_stride = h_stream ? h_stride : StrideW'(1);

  logic            rq_valid, rq_pop;
  logic [RunW-1:0] rq;
  logic [$clog2(ReadQ+1)-1:0] rq_usage;

  tpu_fifo #(
    .Width(RunW),
    .Depth(ReadQ)
  ) u_runs (
    .clk_i,
    .rst_ni,
    .valid_i(rq_push),
    .ready_o(rq_ready),
    .data_i ({h_addr[AddrW-1:AlignW], h_words_m1, run_e_m1, run_stride}),
    .valid_o(rq_valid),
    .ready_i(rq_pop),
    .data_o (rq),
    .usage_o(rq_usage)
  );

  // A run: its first word, its words - 1, and its entries: E - 1 words and S
  // words from one's start to the next's (a plain read: entries of one word,
  // consecutive).
  logic [WAddrW-1:0]  rq_addr;
  logic [NumW-1:0]    rq_words_m1;
  logic [EIdxW-1:0]   rq_e_m1;
  logic [StrideW-1:0] rq_stride;
  assign {rq_addr, rq_words_m1, rq_e_m1, rq_stride} = rq;

  logic [NumW-1:0]    rk_q;                                         // the next word of the head run
  logic [EIdxW-1:0]   ek_q;                                         // its place in its entry
  logic [WAddrW-1:0]  off_q;                                        // its offset from the run's first word
  logic [CreditW-1:0] credit_q;                                     // words issued and not yet answered on
  logic               rsp_pop, entry_end;
  assign rd_valid_o = rq_valid && (32'(credit_q) < RspDepth);
  assign rd_addr_o  = {rq_addr + off_q, AlignW'(0)};
  assign rd_last_o  = rk_q == rq_words_m1;
  assign rq_pop     = rd_take_i && rd_last_o;
  assign entry_end  = ek_q == rq_e_m1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rk_q     <= '0;
      ek_q     <= '0;
      off_q    <= '0;
      credit_q <= '0;
    end else begin
      if (rd_take_i) begin
        rk_q  <= rd_last_o ? '0 : rk_q + NumW'(1);
        ek_q  <= (rd_last_o || entry_end) ? '0 : ek_q + EIdxW'(1);
        // the next entry's first word: S - (E - 1) on from the entry's last
        off_q <= rd_last_o ? '0
               : entry_end ? off_q + WAddrW'(rq_stride) - WAddrW'(rq_e_m1)
                           : off_q + WAddrW'(1);
      end
      credit_q <= credit_q + CreditW'(rd_take_i) - CreditW'(rsp_pop);
    end
  end

  logic             rsp_valid, rsp_err, rsp_in_ready;
  logic [WordW-1:0] rsp_data;
  logic [$clog2(RspDepth+3)-1:0] rsp_usage;

  tpu_fifo_ram #(
    .Width(WordW + 1),
    .Depth(RspDepth)
  ) u_rsp (
    .clk_i,
    .rst_ni,
    .valid_i(rsp_valid_i),
    .ready_o(rsp_in_ready),
    .data_i ({rsp_err_i, rsp_data_i}),
    .valid_o(rsp_valid),
    .ready_i(rsp_pop),
    .data_o ({rsp_err, rsp_data}),
    .usage_o(rsp_usage)
  );

  // --- Write completions --------------------------------------------------------------
  logic cpl_valid, cpl_err, cpl_pop, cpl_in_ready;
  logic [$clog2(JobDepth+1)-1:0] cpl_usage;

  tpu_fifo #(
    .Width(1),
    .Depth(JobDepth)
  ) u_cpl (
    .clk_i,
    .rst_ni,
    .valid_i(cpl_valid_i),
    .ready_o(cpl_in_ready),
    .data_i (cpl_err_i),
    .valid_o(cpl_valid),
    .ready_i(cpl_pop),
    .data_o (cpl_err),
    .usage_o(cpl_usage)
  );

  // --- The answers --------------------------------------------------------------------
  logic [1:0]        j_kind;
  logic [HdrW-1:0]   j_hdr;
  logic [RuleW-1:0]  j_rule;
  logic [LenW-1:0]   j_len;
  logic [CountW-1:0] j_count_m1;
  logic [EIdxW-1:0]  j_e_m1;
  logic [FirstW-1:0] j_first;
  logic [NPeerW-1:0] j_n_peer;
  logic [PeerW-1:0]  j_peers;
  assign {j_kind, j_hdr, j_rule, j_len, j_count_m1, j_e_m1, j_first, j_n_peer, j_peers} = job;

  tpu_agent_answer u_answer (
    .clk_i,
    .rst_ni,
    .node_i,
    .job_valid_i   (job_valid),
    .job_ready_o   (job_pop),
    .job_kind_i    (j_kind),
    .job_hdr_i     (j_hdr),
    .job_rule_i    (j_rule),
    .job_len_i     (j_len),
    .job_count_m1_i(j_count_m1),
    .job_e_m1_i    (j_e_m1),
    .job_first_i   (j_first),
    .job_n_peer_i  (j_n_peer),
    .job_peers_i   (j_peers),
    .rsp_valid_i   (rsp_valid),
    .rsp_ready_o   (rsp_pop),
    .rsp_data_i    (rsp_data),
    .rsp_err_i     (rsp_err),
    .cpl_valid_i   (cpl_valid),
    .cpl_ready_o   (cpl_pop),
    .cpl_err_i     (cpl_err),
    .out_valid_o,
    .out_ready_i,
    .out_flit_o,
    .out_src_o
  );

  // --- Counters and idleness ----------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stray_o         <= '0;
      discarded_o     <= '0;
      errors_in_o     <= '0;
      last_mismatch_o <= '0;
    end else begin
      stray_o         <= stray_o + 16'(stray);
      discarded_o     <= discarded_o + 16'(discard);
      errors_in_o     <= errors_in_o + 16'(errin);
      last_mismatch_o <= last_mismatch_o + 16'(mismatch);
    end
  end

  assign idle_o = !head_valid && !job_valid && !rq_valid && (credit_q == '0) && !slots_busy && !out_valid_o &&
                  !cpl_valid;

  // The queues' fill levels are not needed; the FIFOs' ready on the response
  // and completion pushes is what the assertions hold (credits, the job queue).
  logic unused;
  assign unused = ^{job_usage, rq_usage, rsp_usage, cpl_usage, cpl_in_ready, h_addr[AlignW-1:0], rsp_in_ready};

`ifdef TPU_ASSERT
  // A credit reserved each word's place; the job queue bounds the completions.
  tpu_assert_never u_rsp_overflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (rsp_valid_i && !rsp_in_ready)
  );
  tpu_assert_never u_cpl_overflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (cpl_valid_i && !cpl_in_ready)
  );
  // A completion or a word for this port only when it is owed one.
  tpu_assert_never u_rsp_unowed (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (rsp_valid_i && (credit_q == '0))
  );
`endif

endmodule
