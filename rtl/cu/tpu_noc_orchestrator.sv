// tpu_noc_orchestrator: the host's way onto the mesh (seed 003 §3; the
// notes' "Orchestrator"; spec/compute_units.yaml orchestrator, the register
// tables of docs/compute_units.md): an AXI4-Lite slave (64-bit data,
// tpu_orch_axil) holding the register map, the staging slots and the mover
// window, and a mesh endpoint that dispatches staged programs of CU_INST
// flits on CHANNELS channels and counts their retirements.
//
// Hand-written module of tpugen, copied unchanged into every compute-unit
// configuration (hdl::generate_cu); every offset, field, state and code is
// tpu_cu_pkg's, the flit's fields and codes tpu_noc_pkg's.
//
// The map (one whole 64-bit register an access; the address's low three
// bits ignored; an offset nothing occupies reads 0 and ignores writes, both
// answered OKAY):
//   ORCH_CAPS .. CTRL_VALUE  the registers; rw fields read back, ro fields
//               are the state, strobe fields act on a write and read 0, w1c
//               bits clear where a 1 is written.
//   CH_STAT, CH_LAST of channel c at their offset + c * ORCH_CH_STRIDE.
//   staging     slot s word w at ORCH_STAGING + s * ORCH_SLOT_BYTES + 8 w:
//               words 0 .. ORCH_PAYLOAD_WORDS-1 the payload (word 0 its bits
//               63:0), word ORCH_HEADER_WORD the header in bits 31:0 (the
//               bits above read 0); a slot's other words are unmapped. Kept
//               in tpu_ram_1r1w memories, one per word; a host read of the
//               staging takes the read port from the dispatcher for a cycle.
//   window      ORCH_WINDOW + o, o < ORCH_WINDOW_BYTES: one request on the
//               mover's register port (mover_req_*, offset o, the write
//               data), held until mover_req_ready_i; the AXI answer waits for
//               mover_rsp_valid_i (a read's data is mover_rsp_rdata_i).
//
// PROG_KICK (a write): the channel named takes PROG_BASE, PROG_LEN, PROG_DST
// and PROG_CRED as they are, unless the first of these applies, which is
// PROG_STAT.kick_error and changes nothing else: KICK_NO_CHANNEL (channel
// >= CHANNELS), KICK_CHANNEL_BUSY (SENDING or WAITING), KICK_EMPTY (len 0),
// KICK_PAST_STAGING (base + len > PROG_FLITS), KICK_NO_CREDITS (credits 0),
// KICK_BAD_NODE (dst outside NX x NY, or this node). A taken kick sets
// kick_error 0 and the channel SENDING with sent 0, retired 0, its CH_LAST
// 0 and its PROG_STAT done and fault bits cleared.
//
// Dispatch: each cycle at most one flit is issued, round robin (tpu_rr_arb)
// over the SENDING channels with a credit in hand and the CU_CTRL READ that
// a CTRL_REQ write asked for, when the output (tpu_skid, two flits) will
// have room and the host is not reading the staging. A channel's flit is
// slot base + sent, read from the staging (a cycle), sent with its type,
// txn, last, rsvd and payload unchanged and dst the channel's, src (X, Y);
// credits - 1, sent + 1; at sent == len the channel goes WAITING. The CU_CTRL
// READ: dst CTRL_REQ's node, src (X, Y), txn 0, last 1, payload op READ and
// the index. out_valid_o comes from the skid's registers and never waits for
// out_ready_i.
//
// Ejection: in_ready_o is always high (the orchestrator never holds its
// ejection port); a flit taken is registered and acted on the next cycle:
//   CU_SIGNAL SIG_INST_COMPLETE, SIG_BATCH_COMPLETE or SIG_FAULT from node n:
//       the lowest channel, SENDING or WAITING, whose dst is n and whose
//       retired < sent takes it: credits + 1, retired + 1, CH_LAST {txn, code,
//       arg}, COMPLETIONS.retirements + 1. A SIG_FAULT or a
//       SIG_BATCH_COMPLETE is remembered, and the sending goes on. When
//       retired == len the channel ends: FAULT when a fault came
//       (PROG_STAT.fault, COMPLETIONS.batches, IRQ_STATUS.fault), else DONE
//       when the batch's completion came (PROG_STAT.done, batches,
//       IRQ_STATUS.batch), else ENDED. No channel takes it:
//       STRAY.signals + 1 (dropped).
//   CU_CTRL op REPLY: CTRL_VALUE its value, CTRL_STAT valid 1, pending 0.
//   ERROR: STRAY.errors + 1; tpugen: one whose offending header is a CU_CTRL
//       (the READ refused: a node outside the mesh) ends a pending read
//       (pending 0, valid stays 0), so CTRL_STAT never waits for nothing.
//   anything else (another signal code: DATA_RECEIVED, unit-defined; another
//       CU_CTRL op; any other type): dropped, not counted (STRAY.signals
//       counts retirement flits only, as the spec's field says).
// A CTRL_REQ write while a read is pending sends a new READ; the earlier
// read's reply, if it comes after, is taken as this one's (tpugen: the host
// waits for CTRL_STAT.pending to fall before the next).
//
// irq_o = |(IRQ_STATUS & IRQ_ENABLE); an event and a clear of its bit in the
// same cycle leave it set.
//
// Assertions (at the end, under `ifdef TPU_ASSERT): the output never refuses
// an issued flit; the stream rule on the ports (tpu_stream_check).
//
// Parameters:
//   X, Y    this node (the src of every flit it sends)
//   NX, NY  the mesh (CAPS; a kick's dst must be inside it)
module tpu_noc_orchestrator #(
  parameter int X  = 0,
  parameter int Y  = 0,
  parameter int NX = tpu_noc_pkg::NX,
  parameter int NY = tpu_noc_pkg::NY
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  // AXI4-Lite slave (the host)
  input  logic                                         s_aw_valid_i,
  output logic                                         s_aw_ready_o,
  input  logic [tpu_cu_pkg::ORCH_ADDR_W-1:0]           s_aw_addr_i,
  input  logic                                         s_w_valid_i,
  output logic                                         s_w_ready_o,
  input  logic [tpu_cu_pkg::ORCH_DATA_W-1:0]           s_w_data_i,
  input  logic [tpu_cu_pkg::ORCH_DATA_W/8-1:0]         s_w_strb_i,
  output logic                                         s_b_valid_o,
  input  logic                                         s_b_ready_i,
  output logic [1:0]                                   s_b_resp_o,
  input  logic                                         s_ar_valid_i,
  output logic                                         s_ar_ready_o,
  input  logic [tpu_cu_pkg::ORCH_ADDR_W-1:0]           s_ar_addr_i,
  output logic                                         s_r_valid_o,
  input  logic                                         s_r_ready_i,
  output logic [tpu_cu_pkg::ORCH_DATA_W-1:0]           s_r_data_o,
  output logic [1:0]                                   s_r_resp_o,
  // an enabled event is set
  output logic                                         irq_o,
  // the mover's register port (tpu_noc_mover's host_req_* / host_rsp_*)
  output logic                                         mover_req_valid_o,
  input  logic                                         mover_req_ready_i,
  output logic                                         mover_req_write_o,
  output logic [$clog2(tpu_cu_pkg::ORCH_WINDOW_BYTES)-1:0] mover_req_addr_o,
  output logic [tpu_cu_pkg::ORCH_DATA_W-1:0]           mover_req_wdata_o,
  input  logic                                         mover_rsp_valid_i,
  input  logic [tpu_cu_pkg::ORCH_DATA_W-1:0]           mover_rsp_rdata_i,
  // mesh ejection (never held)
  input  logic                                         in_valid_i,
  output logic                                         in_ready_o,
  input  logic [tpu_noc_pkg::FLIT_W-1:0]               in_flit_i,
  // mesh injection
  output logic                                         out_valid_o,
  input  logic                                         out_ready_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0]               out_flit_o
);

  localparam int AddrW     = tpu_cu_pkg::ORCH_ADDR_W;
  localparam int DataW     = tpu_cu_pkg::ORCH_DATA_W;
  localparam int WinW      = $clog2(tpu_cu_pkg::ORCH_WINDOW_BYTES);
  localparam int FlitW     = tpu_noc_pkg::FLIT_W;
  localparam int PayloadW  = tpu_noc_pkg::PAYLOAD_W;
  localparam int HeaderW   = tpu_noc_pkg::HEADER_W;
  localparam int PosW      = tpu_noc_pkg::POS_W;
  localparam int TypeW     = tpu_noc_pkg::TYPE_W;
  localparam int TxnW      = tpu_noc_pkg::TXN_W;
  localparam int CodeW     = tpu_noc_pkg::CU_SIGNAL_CODE_W;
  localparam int ArgW      = tpu_noc_pkg::CU_SIGNAL_ARG_W;
  localparam int IdxW      = tpu_noc_pkg::CU_CTRL_INDEX_W;
  localparam int NCh       = tpu_cu_pkg::CHANNELS;
  localparam int Slots     = tpu_cu_pkg::PROG_FLITS;
  localparam int SlotW     = tpu_cu_pkg::SLOT_W;
  localparam int PWords    = tpu_cu_pkg::ORCH_PAYLOAD_WORDS;
  localparam int HdrWord   = tpu_cu_pkg::ORCH_HEADER_WORD;
  localparam int SlotBytes = tpu_cu_pkg::ORCH_SLOT_BYTES;
  localparam int SlotSh    = $clog2(SlotBytes);                       // slot = offset >> SlotSh
  localparam int WordSel   = SlotSh - 3;                              // bits of a word within a slot
  localparam int StageEnd  = tpu_cu_pkg::ORCH_STAGING + Slots * SlotBytes;
  localparam int WinEnd    = tpu_cu_pkg::ORCH_WINDOW + tpu_cu_pkg::ORCH_WINDOW_BYTES;
  localparam int CntW      = tpu_cu_pkg::ORCH_CH_STAT_SENT_W;          // a channel's counts (16 bits)
  localparam int StateW    = tpu_cu_pkg::ORCH_CH_STAT_STATE_W;
  localparam int KickW     = tpu_cu_pkg::ORCH_PROG_STAT_KICK_ERROR_W;
  localparam int LastW     = TxnW + CodeW + ArgW;                     // CH_LAST {txn, code, arg}
  localparam int NReq      = NCh + 1;                                 // the dispatcher's requesters: the channels, CTRL
  localparam int ReqW      = $clog2(NReq);

  // The staging slot layout and the map this module decodes: a payload of
  // PWords data words, the header in one, the slot a power of two.
  if (PWords * DataW != PayloadW || HeaderW > DataW || (1 << SlotSh) != SlotBytes || HdrWord >= (SlotBytes / 8) ||
      HdrWord < PWords || NCh > tpu_cu_pkg::ORCH_PROG_STAT_BUSY_W) begin : g_layout_check
    tpu_noc_orchestrator_layout_unsupported u_refuse ();
  end

  // A register field at its place in a 64-bit word.
  function automatic logic [DataW-1:0] at(input logic [DataW-1:0] value, input int lsb);
    at = value << lsb;
  endfunction

  // --- The AXI4-Lite slave: one access at a time ---------------------------------------------
  logic             acc_valid, acc_write, acc_done;
  logic [AddrW-1:0] acc_addr;
  logic [DataW-1:0] acc_wdata, acc_rdata;

  tpu_orch_axil #(
    .AddrW(AddrW),
    .DataW(DataW)
  ) u_axil (
    .clk_i,
    .rst_ni,
    .aw_valid_i (s_aw_valid_i),
    .aw_ready_o (s_aw_ready_o),
    .aw_addr_i  (s_aw_addr_i),
    .w_valid_i  (s_w_valid_i),
    .w_ready_o  (s_w_ready_o),
    .w_data_i   (s_w_data_i),
    .w_strb_i   (s_w_strb_i),
    .b_valid_o  (s_b_valid_o),
    .b_ready_i  (s_b_ready_i),
    .b_resp_o   (s_b_resp_o),
    .ar_valid_i (s_ar_valid_i),
    .ar_ready_o (s_ar_ready_o),
    .ar_addr_i  (s_ar_addr_i),
    .r_valid_o  (s_r_valid_o),
    .r_ready_i  (s_r_ready_i),
    .r_data_o   (s_r_data_o),
    .r_resp_o   (s_r_resp_o),
    .acc_valid_o(acc_valid),
    .acc_write_o(acc_write),
    .acc_addr_o (acc_addr),
    .acc_wdata_o(acc_wdata),
    .acc_done_i (acc_done),
    .acc_rdata_i(acc_rdata)
  );

  // The access, decoded: the register (byte offset, low bits cleared), the
  // staging slot and word, the window offset.
  logic [AddrW-1:0] a;
  logic             in_stage, in_win, reg_wr, reg_rd, stage_wr, stage_rd, win_go;
  logic [AddrW-1:0] stage_off;
  logic [SlotW-1:0] a_slot;
  logic [WordSel-1:0] a_word;
  assign a         = {acc_addr[AddrW-1:3], 3'b000};
  assign in_stage  = (32'(a) >= tpu_cu_pkg::ORCH_STAGING) && (32'(a) < StageEnd);
  assign in_win    = (32'(a) >= tpu_cu_pkg::ORCH_WINDOW) && (32'(a) < WinEnd);
  assign stage_off = a - AddrW'(tpu_cu_pkg::ORCH_STAGING);
  assign a_slot    = SlotW'(stage_off >> SlotSh);
  assign a_word    = stage_off[3 +: WordSel];
  assign reg_wr    = acc_valid && acc_write && !in_stage && !in_win;
  assign reg_rd    = acc_valid && !acc_write && !in_stage && !in_win;
  assign stage_wr  = acc_valid && acc_write && in_stage;
  assign stage_rd  = acc_valid && !acc_write && in_stage;
  assign win_go    = acc_valid && in_win;

  function automatic logic hit(input logic [AddrW-1:0] addr, input int offset);
    hit = 32'(addr) == offset;
  endfunction

  logic wr_base, wr_len, wr_dst, wr_cred, wr_kick, wr_irq_en, wr_irq_st, wr_ctrl;
  assign wr_base   = reg_wr && hit(a, tpu_cu_pkg::ORCH_PROG_BASE);
  assign wr_len    = reg_wr && hit(a, tpu_cu_pkg::ORCH_PROG_LEN);
  assign wr_dst    = reg_wr && hit(a, tpu_cu_pkg::ORCH_PROG_DST);
  assign wr_cred   = reg_wr && hit(a, tpu_cu_pkg::ORCH_PROG_CRED);
  assign wr_kick   = reg_wr && hit(a, tpu_cu_pkg::ORCH_PROG_KICK);
  assign wr_irq_en = reg_wr && hit(a, tpu_cu_pkg::ORCH_IRQ_ENABLE);
  assign wr_irq_st = reg_wr && hit(a, tpu_cu_pkg::ORCH_IRQ_STATUS);
  assign wr_ctrl   = reg_wr && hit(a, tpu_cu_pkg::ORCH_CTRL_REQ);

  // --- The host's registers ------------------------------------------------------------------
  logic [tpu_cu_pkg::ORCH_PROG_BASE_BASE_W-1:0]   base_q;
  logic [tpu_cu_pkg::ORCH_PROG_LEN_LEN_W-1:0]     len_q;
  logic [tpu_cu_pkg::ORCH_PROG_DST_X_W-1:0]       dst_x_q;
  logic [tpu_cu_pkg::ORCH_PROG_DST_Y_W-1:0]       dst_y_q;
  logic [tpu_cu_pkg::ORCH_PROG_CRED_CREDITS_W-1:0] cred_q;
  logic                                           irq_en_batch_q, irq_en_fault_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      base_q         <= '0;
      len_q          <= '0;
      dst_x_q        <= '0;
      dst_y_q        <= '0;
      cred_q         <= '0;
      irq_en_batch_q <= 1'b0;
      irq_en_fault_q <= 1'b0;
    end else begin
      if (wr_base) base_q <= acc_wdata[tpu_cu_pkg::ORCH_PROG_BASE_BASE_LSB +: tpu_cu_pkg::ORCH_PROG_BASE_BASE_W];
      if (wr_len) len_q <= acc_wdata[tpu_cu_pkg::ORCH_PROG_LEN_LEN_LSB +: tpu_cu_pkg::ORCH_PROG_LEN_LEN_W];
      if (wr_dst) begin
        dst_x_q <= acc_wdata[tpu_cu_pkg::ORCH_PROG_DST_X_LSB +: tpu_cu_pkg::ORCH_PROG_DST_X_W];
        dst_y_q <= acc_wdata[tpu_cu_pkg::ORCH_PROG_DST_Y_LSB +: tpu_cu_pkg::ORCH_PROG_DST_Y_W];
      end
      if (wr_cred) cred_q <= acc_wdata[tpu_cu_pkg::ORCH_PROG_CRED_CREDITS_LSB +: tpu_cu_pkg::ORCH_PROG_CRED_CREDITS_W];
      if (wr_irq_en) begin
        irq_en_batch_q <= acc_wdata[tpu_cu_pkg::ORCH_IRQ_ENABLE_BATCH_LSB];
        irq_en_fault_q <= acc_wdata[tpu_cu_pkg::ORCH_IRQ_ENABLE_FAULT_LSB];
      end
    end
  end

  // --- PROG_KICK: the checks, in the spec's order ---------------------------------------------
  logic [tpu_cu_pkg::ORCH_PROG_KICK_CHANNEL_W-1:0] kick_ch;
  logic [KickW-1:0]                                kick_err, kick_err_q;
  logic [NCh-1:0]                                  ch_busy, kick_take;
  logic                                            kick_busy;
  assign kick_ch = acc_wdata[tpu_cu_pkg::ORCH_PROG_KICK_CHANNEL_LSB +: tpu_cu_pkg::ORCH_PROG_KICK_CHANNEL_W];

  always_comb begin
    kick_busy = 1'b0;
    for (int c = 0; c < NCh; c++) kick_busy = kick_busy || (ch_busy[c] && (32'(kick_ch) == c));
  end
  always_comb begin
    if (32'(kick_ch) >= NCh) kick_err = tpu_cu_pkg::KICK_NO_CHANNEL;
    else if (kick_busy) kick_err = tpu_cu_pkg::KICK_CHANNEL_BUSY;
    else if (len_q == '0) kick_err = tpu_cu_pkg::KICK_EMPTY;
    else if (32'(base_q) + 32'(len_q) > Slots) kick_err = tpu_cu_pkg::KICK_PAST_STAGING;
    else if (cred_q == '0) kick_err = tpu_cu_pkg::KICK_NO_CREDITS;
    else if (32'(dst_x_q) >= NX || 32'(dst_y_q) >= NY || (32'(dst_x_q) == X && 32'(dst_y_q) == Y))
      kick_err = tpu_cu_pkg::KICK_BAD_NODE;
    else kick_err = '0;
  end
  always_comb begin
    for (int c = 0; c < NCh; c++) kick_take[c] = wr_kick && (kick_err == '0) && (32'(kick_ch) == c);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) kick_err_q <= '0;
    else if (wr_kick) kick_err_q <= kick_err;
  end

  // --- The ejected flit: registered, acted on the next cycle ----------------------------------
  logic             e_valid_q;
  logic [FlitW-1:0] e_flit_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) e_valid_q <= 1'b0;
    else e_valid_q <= in_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (in_valid_i) e_flit_q <= in_flit_i;
  end
  assign in_ready_o = 1'b1;

  logic [TypeW-1:0] e_type;
  logic [PosW-1:0]  e_src_x, e_src_y;
  logic [TxnW-1:0]  e_txn;
  logic [CodeW-1:0] e_code;
  logic [ArgW-1:0]  e_arg;
  logic             e_ret, e_reply, e_error, e_error_ctrl;
  assign e_type  = e_flit_q[tpu_noc_pkg::TYPE_LSB +: TypeW];
  assign e_src_x = e_flit_q[tpu_noc_pkg::SRC_X_LSB +: PosW];
  assign e_src_y = e_flit_q[tpu_noc_pkg::SRC_Y_LSB +: PosW];
  assign e_txn   = e_flit_q[tpu_noc_pkg::TXN_LSB +: TxnW];
  assign e_code  = e_flit_q[tpu_noc_pkg::CU_SIGNAL_CODE_LSB +: CodeW];
  assign e_arg   = e_flit_q[tpu_noc_pkg::CU_SIGNAL_ARG_LSB +: ArgW];
  assign e_ret   = e_valid_q && (e_type == tpu_noc_pkg::TYPE_CU_SIGNAL) &&
                   ((e_code == tpu_noc_pkg::SIG_INST_COMPLETE) || (e_code == tpu_noc_pkg::SIG_BATCH_COMPLETE) ||
                    (e_code == tpu_noc_pkg::SIG_FAULT));
  assign e_reply = e_valid_q && (e_type == tpu_noc_pkg::TYPE_CU_CTRL) &&
                   (e_flit_q[tpu_noc_pkg::CU_CTRL_OP_LSB +: tpu_noc_pkg::CU_CTRL_OP_W] == tpu_noc_pkg::CU_CTRL_REPLY);
  assign e_error = e_valid_q && (e_type == tpu_noc_pkg::TYPE_ERROR);
  // The offending header's type (the header sits at ERROR_HEADER_LSB as the
  // flit's bits above the payload do).
  assign e_error_ctrl = e_error &&
      (e_flit_q[tpu_noc_pkg::ERROR_HEADER_LSB + tpu_noc_pkg::TYPE_LSB - PayloadW +: TypeW] == tpu_noc_pkg::TYPE_CU_CTRL);

  // --- The channels ------------------------------------------------------------------------
  logic [NCh*StateW-1:0] st;                                         // channel c's state at [c*StateW +: StateW]
  logic [NCh*CntW-1:0]   c_base, c_len, c_cred, c_sent, c_ret;
  logic [NCh*PosW-1:0]   c_dx, c_dy;
  logic [NCh*LastW-1:0]  c_last;
  logic [NCh-1:0]        c_done, c_fault, cand, eligible, issue_ch, match_ch, ev_batch, ev_fault;
  logic                  m_any;

  // The retirement's channel: the lowest candidate.
  always_comb begin
    match_ch = '0;
    m_any    = 1'b0;
    for (int c = 0; c < NCh; c++) begin
      if (cand[c] && !m_any) begin
        match_ch[c] = 1'b1;
        m_any       = 1'b1;
      end
    end
  end

  for (genvar c = 0; c < NCh; c++) begin : g_ch
    logic [StateW-1:0] state_q, state_d;
    logic [CntW-1:0]   base_c_q, len_c_q, cred_c_q, sent_q, ret_q, sent_d, ret_d;
    logic [PosW-1:0]   dx_q, dy_q;
    logic [LastW-1:0]  last_q;
    logic              stop_q, stop_d, batch_q, batch_d, done_q, fault_q, under_way, issue_c, match_c;

    assign under_way   = (state_q == tpu_cu_pkg::CH_SENDING) || (state_q == tpu_cu_pkg::CH_WAITING);
    assign ch_busy[c]  = under_way;
    assign eligible[c] = (state_q == tpu_cu_pkg::CH_SENDING) && (cred_c_q != '0);
    assign cand[c]     = e_ret && under_way && (dx_q == e_src_x) && (dy_q == e_src_y) && (ret_q < sent_q);

    assign issue_c = issue_ch[c];
    assign match_c = match_ch[c];
    assign sent_d  = sent_q + CntW'(issue_c);
    assign ret_d   = ret_q + CntW'(match_c);
    // A channel ends when every flit of its program retired: FAULT when one
    // faulted, else DONE when one was the batch's completion, else ENDED. A
    // fault does not stop the sending (what a node receives never depends on
    // when a retirement comes back).
    always_comb begin
      state_d = state_q;
      stop_d  = stop_q || (match_c && e_code == tpu_noc_pkg::SIG_FAULT);
      batch_d = batch_q || (match_c && e_code == tpu_noc_pkg::SIG_BATCH_COMPLETE);
      if (issue_c && sent_d == len_c_q) state_d = tpu_cu_pkg::CH_WAITING;
      if (match_c && ret_d == len_c_q)
        state_d = stop_d ? tpu_cu_pkg::CH_FAULT : (batch_d ? tpu_cu_pkg::CH_DONE : tpu_cu_pkg::CH_ENDED);
    end
    assign ev_batch[c] = match_ch[c] && (state_d == tpu_cu_pkg::CH_DONE);
    assign ev_fault[c] = match_ch[c] && (state_d == tpu_cu_pkg::CH_FAULT);

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        state_q  <= tpu_cu_pkg::CH_IDLE;
        base_c_q <= '0;
        len_c_q  <= '0;
        cred_c_q <= '0;
        sent_q   <= '0;
        ret_q    <= '0;
        dx_q     <= '0;
        dy_q     <= '0;
        last_q   <= '0;
        stop_q   <= 1'b0;
        batch_q  <= 1'b0;
        done_q   <= 1'b0;
        fault_q  <= 1'b0;
      end else if (kick_take[c]) begin
        state_q  <= tpu_cu_pkg::CH_SENDING;
        base_c_q <= CntW'(base_q);
        len_c_q  <= CntW'(len_q);
        cred_c_q <= CntW'(cred_q);
        sent_q   <= '0;
        ret_q    <= '0;
        dx_q     <= PosW'(dst_x_q);
        dy_q     <= PosW'(dst_y_q);
        last_q   <= '0;
        stop_q   <= 1'b0;
        batch_q  <= 1'b0;
        done_q   <= 1'b0;
        fault_q  <= 1'b0;
      end else begin
        state_q  <= state_d;
        stop_q   <= stop_d;
        batch_q  <= batch_d;
        sent_q   <= sent_d;
        ret_q    <= ret_d;
        cred_c_q <= cred_c_q - CntW'(issue_ch[c]) + CntW'(match_ch[c]);
        if (match_ch[c]) last_q <= {e_txn, e_code, e_arg};
        if (ev_batch[c]) done_q <= 1'b1;
        if (ev_fault[c]) fault_q <= 1'b1;
      end
    end

    assign st[c*StateW +: StateW] = state_q;
    assign c_base[c*CntW +: CntW] = base_c_q;
    assign c_len[c*CntW +: CntW]  = len_c_q;
    assign c_cred[c*CntW +: CntW] = cred_c_q;
    assign c_sent[c*CntW +: CntW] = sent_q;
    assign c_ret[c*CntW +: CntW]  = ret_q;
    assign c_dx[c*PosW +: PosW]   = dx_q;
    assign c_dy[c*PosW +: PosW]   = dy_q;
    assign c_last[c*LastW +: LastW] = last_q;
    assign c_done[c]  = done_q;
    assign c_fault[c] = fault_q;
  end

  // --- CTRL_REQ and its reply ------------------------------------------------------------------
  logic            ctrl_want_q, ctrl_pend_q, ctrl_valid_q, ctrl_issue;
  logic [PosW-1:0] ctrl_x_q, ctrl_y_q;
  logic [IdxW-1:0] ctrl_idx_q;
  logic [tpu_noc_pkg::CU_CTRL_VALUE_W-1:0] ctrl_value_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_want_q  <= 1'b0;
      ctrl_pend_q  <= 1'b0;
      ctrl_valid_q <= 1'b0;
      ctrl_x_q     <= '0;
      ctrl_y_q     <= '0;
      ctrl_idx_q   <= '0;
      ctrl_value_q <= '0;
    end else begin
      if (wr_ctrl) begin
        ctrl_want_q  <= 1'b1;
        ctrl_pend_q  <= 1'b1;
        ctrl_valid_q <= 1'b0;
        ctrl_x_q     <= acc_wdata[tpu_cu_pkg::ORCH_CTRL_REQ_X_LSB +: PosW];
        ctrl_y_q     <= acc_wdata[tpu_cu_pkg::ORCH_CTRL_REQ_Y_LSB +: PosW];
        ctrl_idx_q   <= acc_wdata[tpu_cu_pkg::ORCH_CTRL_REQ_INDEX_LSB +: IdxW];
      end else begin
        if (ctrl_issue) ctrl_want_q <= 1'b0;
        if (e_reply) begin
          ctrl_pend_q  <= 1'b0;
          ctrl_valid_q <= 1'b1;
          ctrl_value_q <= e_flit_q[tpu_noc_pkg::CU_CTRL_VALUE_LSB +: tpu_noc_pkg::CU_CTRL_VALUE_W];
        end else if (e_error_ctrl) begin
          ctrl_pend_q <= 1'b0;
        end
      end
    end
  end

  // --- Counters and the interrupt ------------------------------------------------------------
  logic [tpu_cu_pkg::ORCH_COMPLETIONS_BATCHES_W-1:0]     batches_q;
  logic [tpu_cu_pkg::ORCH_COMPLETIONS_RETIREMENTS_W-1:0] retirements_q;
  logic [tpu_cu_pkg::ORCH_STRAY_SIGNALS_W-1:0]           stray_sig_q;
  logic [tpu_cu_pkg::ORCH_STRAY_ERRORS_W-1:0]            stray_err_q;
  logic                                                  irq_batch_q, irq_fault_q, any_batch, any_fault;
  assign any_batch = |ev_batch;
  assign any_fault = |ev_fault;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      batches_q     <= '0;
      retirements_q <= '0;
      stray_sig_q   <= '0;
      stray_err_q   <= '0;
      irq_batch_q   <= 1'b0;
      irq_fault_q   <= 1'b0;
    end else begin
      if (any_batch || any_fault) batches_q <= batches_q + 1'b1;
      if (m_any) retirements_q <= retirements_q + 1'b1;
      if (e_ret && !m_any) stray_sig_q <= stray_sig_q + 1'b1;
      if (e_error) stray_err_q <= stray_err_q + 1'b1;
      irq_batch_q <= any_batch || (irq_batch_q && !(wr_irq_st && acc_wdata[tpu_cu_pkg::ORCH_IRQ_STATUS_BATCH_LSB]));
      irq_fault_q <= any_fault || (irq_fault_q && !(wr_irq_st && acc_wdata[tpu_cu_pkg::ORCH_IRQ_STATUS_FAULT_LSB]));
    end
  end
  assign irq_o = (irq_batch_q && irq_en_batch_q) || (irq_fault_q && irq_en_fault_q);

  // --- The staging memories -------------------------------------------------------------------
  logic [ReqW-1:0]  d_idx;
  logic             d_valid, d_issue, room, host_rd;
  logic [SlotW-1:0] d_slot, r_slot;
  logic [FlitW-1:0] stage_flit;                                      // the slot read last cycle, as a flit
  logic [PWords*DataW-1:0] pay_rdata;
  logic [HeaderW-1:0]      hdr_rdata;

  assign host_rd = stage_rd;
  assign r_slot  = host_rd ? a_slot : d_slot;

  for (genvar gw = 0; gw < PWords; gw++) begin : g_word
    logic we;
    assign we = stage_wr && (32'(a_word) == gw);
    tpu_ram_1r1w #(
      .Width(DataW),
      .Depth(Slots)
    ) u_ram (
      .clk_i,
      .we_i   (we),
      .waddr_i(a_slot),
      .wdata_i(acc_wdata),
      .re_i   (host_rd || d_issue),
      .raddr_i(r_slot),
      .rdata_o(pay_rdata[gw*DataW +: DataW])
    );
  end
  logic hdr_we;
  assign hdr_we = stage_wr && (32'(a_word) == HdrWord);
  tpu_ram_1r1w #(
    .Width(HeaderW),
    .Depth(Slots)
  ) u_hdr_ram (
    .clk_i,
    .we_i   (hdr_we),
    .waddr_i(a_slot),
    .wdata_i(acc_wdata[HeaderW-1:0]),
    .re_i   (host_rd || d_issue),
    .raddr_i(r_slot),
    .rdata_o(hdr_rdata)
  );

  // --- The dispatcher: round robin over the channels and CTRL ------------------------------------
  logic [NReq-1:0] d_ready;
  logic            unused_d_data;
  tpu_rr_arb #(
    .N    (NReq),
    .Width(1)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .valid_i({ctrl_want_q, eligible}),
    .ready_o(d_ready),
    .data_i ({NReq{1'b0}}),
    .valid_o(d_valid),
    .ready_i(room && !host_rd),
    .data_o (unused_d_data),
    .idx_o  (d_idx)
  );
  assign d_issue    = d_valid && room && !host_rd;
  assign issue_ch   = d_ready[NCh-1:0] & {NCh{d_issue}};
  assign ctrl_issue = d_ready[NCh] && d_issue;

  // The issued channel's slot (base + sent) and node.
  logic [PosW-1:0] d_dx, d_dy;
  always_comb begin
    d_slot = '0;
    d_dx   = ctrl_x_q;
    d_dy   = ctrl_y_q;
    for (int c = 0; c < NCh; c++) begin
      if (issue_ch[c]) begin
        d_slot = SlotW'(c_base[c*CntW +: CntW] + c_sent[c*CntW +: CntW]);
        d_dx   = c_dx[c*PosW +: PosW];
        d_dy   = c_dy[c*PosW +: PosW];
      end
    end
  end

  // The flit on its way: which, and its dst (the data next cycle).
  logic            p_valid_q, p_ctrl_q;
  logic [PosW-1:0] p_dx_q, p_dy_q;
  logic [IdxW-1:0] p_idx_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_valid_q <= 1'b0;
      p_ctrl_q  <= 1'b0;
      p_dx_q    <= '0;
      p_dy_q    <= '0;
      p_idx_q   <= '0;
    end else begin
      p_valid_q <= d_issue;
      if (d_issue) begin
        p_ctrl_q <= ctrl_issue;
        p_dx_q   <= d_dx;
        p_dy_q   <= d_dy;
        p_idx_q  <= ctrl_idx_q;
      end
    end
  end

  always_comb begin
    stage_flit = '0;
    if (p_ctrl_q) begin
      stage_flit[tpu_noc_pkg::TYPE_LSB +: TypeW] = tpu_noc_pkg::TYPE_CU_CTRL;
      stage_flit[tpu_noc_pkg::LAST_LSB]          = 1'b1;
      stage_flit[tpu_noc_pkg::CU_CTRL_OP_LSB +: tpu_noc_pkg::CU_CTRL_OP_W] = tpu_noc_pkg::CU_CTRL_READ;
      stage_flit[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: IdxW] = p_idx_q;
    end else begin
      stage_flit = {hdr_rdata, pay_rdata};
    end
    stage_flit[tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W] = p_dx_q;
    stage_flit[tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W] = p_dy_q;
    stage_flit[tpu_noc_pkg::SRC_X_LSB +: tpu_noc_pkg::SRC_X_W] = PosW'(X);
    stage_flit[tpu_noc_pkg::SRC_Y_LSB +: tpu_noc_pkg::SRC_Y_W] = PosW'(Y);
  end

  logic out_pop, out_empty;
  tpu_skid #(
    .Width(FlitW),
    .Depth(2)
  ) u_out (
    .clk_i,
    .rst_ni,
    .valid_i(p_valid_q),
    .data_i (stage_flit),
    .valid_o(out_valid_o),
    .ready_i(out_ready_i),
    .data_o (out_flit_o),
    .room_o (room),
    .pop_o  (out_pop),
    .empty_o(out_empty)
  );

  // --- The register file's answers ------------------------------------------------------------
  logic [DataW-1:0] rv;                                              // the register read now
  logic [DataW-1:0] busy_bits, done_bits, fault_bits;
  always_comb begin
    busy_bits  = '0;
    done_bits  = '0;
    fault_bits = '0;
    for (int c = 0; c < NCh; c++) begin
      busy_bits[c]  = ch_busy[c];
      done_bits[c]  = c_done[c];
      fault_bits[c] = c_fault[c];
    end
  end

  always_comb begin
    rv = '0;
    if (hit(a, tpu_cu_pkg::ORCH_ORCH_CAPS)) begin
      rv = at(DataW'(X), tpu_cu_pkg::ORCH_ORCH_CAPS_X_LSB) | at(DataW'(Y), tpu_cu_pkg::ORCH_ORCH_CAPS_Y_LSB) |
           at(DataW'(NX), tpu_cu_pkg::ORCH_ORCH_CAPS_NX_LSB) | at(DataW'(NY), tpu_cu_pkg::ORCH_ORCH_CAPS_NY_LSB) |
           at(DataW'(NCh), tpu_cu_pkg::ORCH_ORCH_CAPS_CHANNELS_LSB) |
           at(DataW'(Slots), tpu_cu_pkg::ORCH_ORCH_CAPS_PROG_FLITS_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_PROG_BASE)) begin
      rv = at(DataW'(base_q), tpu_cu_pkg::ORCH_PROG_BASE_BASE_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_PROG_LEN)) begin
      rv = at(DataW'(len_q), tpu_cu_pkg::ORCH_PROG_LEN_LEN_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_PROG_DST)) begin
      rv = at(DataW'(dst_x_q), tpu_cu_pkg::ORCH_PROG_DST_X_LSB) | at(DataW'(dst_y_q), tpu_cu_pkg::ORCH_PROG_DST_Y_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_PROG_CRED)) begin
      rv = at(DataW'(cred_q), tpu_cu_pkg::ORCH_PROG_CRED_CREDITS_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_PROG_STAT)) begin
      rv = at(busy_bits, tpu_cu_pkg::ORCH_PROG_STAT_BUSY_LSB) | at(done_bits, tpu_cu_pkg::ORCH_PROG_STAT_DONE_LSB) |
           at(fault_bits, tpu_cu_pkg::ORCH_PROG_STAT_FAULT_LSB) |
           at(DataW'(kick_err_q), tpu_cu_pkg::ORCH_PROG_STAT_KICK_ERROR_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_COMPLETIONS)) begin
      rv = at(DataW'(batches_q), tpu_cu_pkg::ORCH_COMPLETIONS_BATCHES_LSB) |
           at(DataW'(retirements_q), tpu_cu_pkg::ORCH_COMPLETIONS_RETIREMENTS_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_IRQ_ENABLE)) begin
      rv = at(DataW'(irq_en_batch_q), tpu_cu_pkg::ORCH_IRQ_ENABLE_BATCH_LSB) |
           at(DataW'(irq_en_fault_q), tpu_cu_pkg::ORCH_IRQ_ENABLE_FAULT_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_IRQ_STATUS)) begin
      rv = at(DataW'(irq_batch_q), tpu_cu_pkg::ORCH_IRQ_STATUS_BATCH_LSB) |
           at(DataW'(irq_fault_q), tpu_cu_pkg::ORCH_IRQ_STATUS_FAULT_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_STRAY)) begin
      rv = at(DataW'(stray_sig_q), tpu_cu_pkg::ORCH_STRAY_SIGNALS_LSB) |
           at(DataW'(stray_err_q), tpu_cu_pkg::ORCH_STRAY_ERRORS_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_CTRL_STAT)) begin
      rv = at(DataW'(ctrl_pend_q), tpu_cu_pkg::ORCH_CTRL_STAT_PENDING_LSB) |
           at(DataW'(ctrl_valid_q), tpu_cu_pkg::ORCH_CTRL_STAT_VALID_LSB);
    end else if (hit(a, tpu_cu_pkg::ORCH_CTRL_VALUE)) begin
      rv = at(DataW'(ctrl_value_q), tpu_cu_pkg::ORCH_CTRL_VALUE_VALUE_LSB);
    end
    for (int c = 0; c < NCh; c++) begin
      if (hit(a, tpu_cu_pkg::ORCH_CH_STAT + c * tpu_cu_pkg::ORCH_CH_STRIDE)) begin
        rv = at(DataW'(c_dx[c*PosW +: PosW]), tpu_cu_pkg::ORCH_CH_STAT_X_LSB) |
             at(DataW'(c_dy[c*PosW +: PosW]), tpu_cu_pkg::ORCH_CH_STAT_Y_LSB) |
             at(DataW'(st[c*StateW +: StateW]), tpu_cu_pkg::ORCH_CH_STAT_STATE_LSB) |
             at(DataW'(c_cred[c*CntW +: CntW]), tpu_cu_pkg::ORCH_CH_STAT_CREDITS_LSB) |
             at(DataW'(c_sent[c*CntW +: CntW]), tpu_cu_pkg::ORCH_CH_STAT_SENT_LSB) |
             at(DataW'(c_ret[c*CntW +: CntW]), tpu_cu_pkg::ORCH_CH_STAT_RETIRED_LSB);
      end
      if (hit(a, tpu_cu_pkg::ORCH_CH_LAST + c * tpu_cu_pkg::ORCH_CH_STRIDE)) begin
        rv = at(DataW'(c_last[c*LastW + CodeW + ArgW +: TxnW]), tpu_cu_pkg::ORCH_CH_LAST_TXN_LSB) |
             at(DataW'(c_last[c*LastW + ArgW +: CodeW]), tpu_cu_pkg::ORCH_CH_LAST_CODE_LSB) |
             at(DataW'(c_last[c*LastW +: ArgW]), tpu_cu_pkg::ORCH_CH_LAST_ARG_LSB);
      end
    end
  end

  // A register or staging access is answered the next cycle; a window
  // access when the mover answers.
  logic             done_q, stage_q, win_pend_q, mreq_q, mwrite_q;
  logic [DataW-1:0] rv_q;
  logic [WordSel-1:0] word_q;
  logic [WinW-1:0]  maddr_q;
  logic [DataW-1:0] mwdata_q, stage_word;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q     <= 1'b0;
      stage_q    <= 1'b0;
      win_pend_q <= 1'b0;
      mreq_q     <= 1'b0;
      mwrite_q   <= 1'b0;
      rv_q       <= '0;
      word_q     <= '0;
      maddr_q    <= '0;
      mwdata_q   <= '0;
    end else begin
      done_q  <= acc_valid && !in_win;
      stage_q <= stage_rd;
      if (acc_valid) begin
        rv_q   <= reg_rd ? rv : '0;
        word_q <= a_word;
      end
      if (win_go) begin
        win_pend_q <= 1'b1;
        mreq_q     <= 1'b1;
        mwrite_q   <= acc_write;
        maddr_q    <= WinW'(a - AddrW'(tpu_cu_pkg::ORCH_WINDOW));
        mwdata_q   <= acc_wdata;
      end else begin
        if (mreq_q && mover_req_ready_i) mreq_q <= 1'b0;
        if (win_pend_q && !mreq_q && mover_rsp_valid_i) win_pend_q <= 1'b0;
      end
    end
  end
  assign mover_req_valid_o = mreq_q;
  assign mover_req_write_o = mwrite_q;
  assign mover_req_addr_o  = maddr_q;
  assign mover_req_wdata_o = mwdata_q;

  always_comb begin
    stage_word = '0;
    for (int k = 0; k < PWords; k++) begin
      if (32'(word_q) == k) stage_word = pay_rdata[k*DataW +: DataW];
    end
    if (32'(word_q) == HdrWord) stage_word = DataW'(hdr_rdata);
  end

  logic win_done;
  assign win_done  = win_pend_q && !mreq_q && mover_rsp_valid_i;
  assign acc_done  = done_q || win_done;
  assign acc_rdata = win_done ? mover_rsp_rdata_i : (stage_q ? stage_word : rv_q);

  logic unused;
  assign unused = ^{e_flit_q, c_len, out_pop, out_empty, stage_off, acc_addr[2:0], d_idx};

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: an issued flit always finds its place at the output; a
  // mover answer only for a window access whose request was taken; the
  // stream rule on the ports.
  // ---------------------------------------------------------------------------
  tpu_assert_never u_issue_without_room (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (d_issue && !room)
  );
  tpu_assert_never u_mover_rsp_unowed (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (mover_rsp_valid_i && !(win_pend_q && !mreq_q))
  );
  // A channel's counts stay in order: retired <= sent <= len.
  for (genvar c = 0; c < NCh; c++) begin : g_check_ch
    tpu_assert_never u_counts (
      .clk_i (clk_i),
      .rst_ni(rst_ni),
      .bad_i ((c_ret[c*CntW +: CntW] > c_sent[c*CntW +: CntW]) ||
              (c_sent[c*CntW +: CntW] > c_len[c*CntW +: CntW]))
    );
  end

  tpu_stream_check #(
    .Width(FlitW)
  ) u_check_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(out_valid_o),
    .ready_i(out_ready_i),
    .data_i (out_flit_o)
  );
  tpu_stream_check #(
    .Width(1 + WinW + DataW)
  ) u_check_mover (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(mover_req_valid_o),
    .ready_i(mover_req_ready_i),
    .data_i ({mover_req_write_o, mover_req_addr_o, mover_req_wdata_o})
  );
`endif

endmodule
