// tpu_noc_mem_agent: the KohakuTPU system node's memory agent (seed 003
// §4.1, §4.2; mover-notes §6): MEM_PORTS NoC endpoints serving MEM_RD_REQ
// (plain and stream reads, multicast) and MEM_WR_REQ / MEM_WR_DATA (writes
// reassembled per source, acknowledged after their B) from one memory behind
// one AXI4 master, with an ERROR flit for every bad input the contract names
// (the error rules of spec/system_node.yaml, in the spec's order).
//
// Hand-written module of tpugen, copied unchanged into every agent
// configuration (tpugen agent gen); its constants are tpu_agent_pkg's (from
// spec/noc.yaml and spec/system_node.yaml), its build parameters MEM_PORTS,
// INTAKE_DEPTH, WR_SLOTS and RD_BURSTS among them.
//
// MEM_PORTS. Each port is an agent of its own (tpu_agent_port: intake queue,
// write slots, answers; the reference model runs one model per port): a
// source's flits to one port are answered in that port's order, its slots
// are that port's, and two ports share nothing but the memory and the AXI
// master. Between ports nothing is ordered: a word written through one port
// and read through another (or through the same one, the read after the
// write: AR and AW are separate channels) may be read before or after.
//
// The AXI master (ID 0; the system node's multiplexer adds the master's
// prefix). Reads: every port's words go through one tpu_axi_rd (RD_BURSTS
// bursts in flight, bursts of up to RD_BURST_CAP words that never cross
// BOUNDARY bytes), a port keeping the grant for RD_BURST_CAP words (a burst where
// they are consecutive), round robin between ports;
// the words come back in order and go to their port (read_owner). Writes:
// every port's complete writes go through one tpu_axi_wr, a whole write at a
// time, round robin between writes; no burst holds words of two writes (a
// write that would continue the open burst's addresses waits until that
// burst's AW has left), so a B answers one write's words and an error names
// the write it belongs to. Each write's acknowledgements (one a word) are
// counted off; its last gives the port its completion: MEM_WR_ACK, or
// AXI_RESPONSE when a burst of it was answered SLVERR or DECERR.
//
// idle_o: every port idle (nothing queued, no read or write under way, no
// flit in an output register) and every write answered; open write slots
// waiting for data do not count.
module tpu_noc_mem_agent (
  input  logic                                                    clk_i,
  input  logic                                                    rst_ni,
  // each port's node, {y, x}: port p's at [p*NODE_W +: NODE_W]
  input  logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::NODE_W-1:0] node_i,
  // the NoC endpoints: port p's bit at [p], its flit at [p*FLIT_W +: FLIT_W]
  input  logic [tpu_agent_pkg::MEM_PORTS-1:0]                     in_valid_i,
  output logic [tpu_agent_pkg::MEM_PORTS-1:0]                     in_ready_o,
  input  logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::FLIT_W-1:0] in_flit_i,
  output logic [tpu_agent_pkg::MEM_PORTS-1:0]                     in_busy_o,
  output logic [tpu_agent_pkg::MEM_PORTS-1:0]                     out_valid_o,
  input  logic [tpu_agent_pkg::MEM_PORTS-1:0]                     out_ready_i,
  output logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::FLIT_W-1:0] out_flit_o,
  // observability: the requesting source each out_flit_o answers, {y, x}
  output logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::NODE_W-1:0] out_src_o,
  // counters, 16 bits a port (wrapping): data flits with no write open,
  // data flits of refused writes, ERROR flits taken in, data flits whose
  // `last` disagrees with their place in the write
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                  stray_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                  discarded_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                  errors_in_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                  last_mismatch_o,
  output logic                                                    idle_o,
  // AXI4 master
  output logic                                                    aw_valid_o,
  input  logic                                                    aw_ready_i,
  output logic [tpu_agent_pkg::ADDR_W-1:0]                        aw_addr_o,
  output logic [7:0]                                              aw_len_o,
  output logic [2:0]                                              aw_size_o,
  output logic [1:0]                                              aw_burst_o,
  output logic [0:0]                                              aw_id_o,
  output logic                                                    w_valid_o,
  input  logic                                                    w_ready_i,
  output logic [tpu_agent_pkg::WORD_W-1:0]                        w_data_o,
  output logic [tpu_agent_pkg::WORD_BYTES-1:0]                    w_strb_o,
  output logic                                                    w_last_o,
  input  logic                                                    b_valid_i,
  output logic                                                    b_ready_o,
  input  logic [1:0]                                              b_resp_i,
  input  logic [0:0]                                              b_id_i,
  output logic                                                    ar_valid_o,
  input  logic                                                    ar_ready_i,
  output logic [tpu_agent_pkg::ADDR_W-1:0]                        ar_addr_o,
  output logic [7:0]                                              ar_len_o,
  output logic [2:0]                                              ar_size_o,
  output logic [1:0]                                              ar_burst_o,
  output logic [0:0]                                              ar_id_o,
  input  logic                                                    r_valid_i,
  output logic                                                    r_ready_o,
  input  logic [tpu_agent_pkg::WORD_W-1:0]                        r_data_i,
  input  logic [1:0]                                              r_resp_i,
  input  logic                                                    r_last_i,
  input  logic [0:0]                                              r_id_i
);

  localparam int P          = tpu_agent_pkg::MEM_PORTS;
  localparam int PortW      = (P > 1) ? $clog2(P) : 1;
  localparam int FlitW      = tpu_agent_pkg::FLIT_W;
  localparam int NodeW      = tpu_agent_pkg::NODE_W;
  localparam int AddrW      = tpu_agent_pkg::ADDR_W;
  localparam int WordW      = tpu_agent_pkg::WORD_W;
  localparam int WordBytes  = tpu_agent_pkg::WORD_BYTES;
  localparam int LenW       = tpu_agent_pkg::MEM_REQ_LEN_W;
  localparam int Beats      = tpu_agent_pkg::WRITE_MAX_BEATS;
  localparam int ReadsOwed  = P * tpu_agent_pkg::RD_WORDS;          // read words in flight, at most (the ports' credits)
  localparam int WrBursts   = tpu_agent_pkg::WR_BURSTS;             // write bursts awaiting their B
  localparam int WrInFlight = tpu_agent_pkg::WR_BURSTS;             // writes handed over, not yet acknowledged
  localparam int PendW      = $clog2(WrBursts * Beats + Beats + 1) + 1;  // words sent, their AW not yet taken

  // --- The ports ----------------------------------------------------------------------
  logic [P-1:0]       rd_valid, rd_take, rd_last, rsp_valid;
  logic [P*AddrW-1:0] rd_addr;
  logic [P-1:0]       wr_valid, wr_take, wr_first, wr_last, cpl_valid, port_idle;
  logic [P*AddrW-1:0] wr_addr;
  logic [P*WordW-1:0] wr_data;
  logic [P*LenW-1:0]  wr_len;
  logic [WordW-1:0]   rsp_data;
  logic               rsp_err, cpl_err;

  for (genvar p = 0; p < P; p++) begin : g_port
    tpu_agent_port u_port (
      .clk_i,
      .rst_ni,
      .node_i         (node_i[p*NodeW +: NodeW]),
      .in_valid_i     (in_valid_i[p]),
      .in_ready_o     (in_ready_o[p]),
      .in_flit_i      (in_flit_i[p*FlitW +: FlitW]),
      .in_busy_o      (in_busy_o[p]),
      .out_valid_o    (out_valid_o[p]),
      .out_ready_i    (out_ready_i[p]),
      .out_flit_o     (out_flit_o[p*FlitW +: FlitW]),
      .out_src_o      (out_src_o[p*NodeW +: NodeW]),
      .rd_valid_o     (rd_valid[p]),
      .rd_take_i      (rd_take[p]),
      .rd_addr_o      (rd_addr[p*AddrW +: AddrW]),
      .rd_last_o      (rd_last[p]),
      .rsp_valid_i    (rsp_valid[p]),
      .rsp_data_i     (rsp_data),
      .rsp_err_i      (rsp_err),
      .wr_valid_o     (wr_valid[p]),
      .wr_take_i      (wr_take[p]),
      .wr_data_o      (wr_data[p*WordW +: WordW]),
      .wr_addr_o      (wr_addr[p*AddrW +: AddrW]),
      .wr_first_o     (wr_first[p]),
      .wr_last_o      (wr_last[p]),
      .wr_len_o       (wr_len[p*LenW +: LenW]),
      .cpl_valid_i    (cpl_valid[p]),
      .cpl_err_i      (cpl_err),
      .stray_o        (stray_o[p*16 +: 16]),
      .discarded_o    (discarded_o[p*16 +: 16]),
      .errors_in_o    (errors_in_o[p*16 +: 16]),
      .last_mismatch_o(last_mismatch_o[p*16 +: 16]),
      .idle_o         (port_idle[p])
    );
  end

  // The first requester after `prev`, cyclically (prev itself last).
  function automatic logic [PortW-1:0] next_after(input logic [P-1:0] req, input logic [PortW-1:0] prev);
    int c;
    next_after = prev;
    for (int k = P; k >= 1; k--) begin
      c = 32'(prev) + k;
      if (c >= P) c = c - P;
      if (req[c]) next_after = PortW'(c);
    end
  endfunction

  // --- Reads: a burst's worth at a time, round robin ----------------------------------
  // A port keeps the grant for RD_BURST_CAP words (one burst of tpu_axi_rd
  // where they are consecutive), of one run or several, while it has words
  // to read; then the next port with a read goes. So a short read (a unit's
  // program image) waits for a burst's worth of each other port, not for
  // their whole streams, and a port of short runs (one request a row) gets
  // as many words as a port of long ones.
  localparam int HoldW = $clog2(tpu_agent_pkg::RD_BURST_CAP + 1);
  logic             rd_lock_q, rd_any, rd_ready, rd_fire;
  logic [PortW-1:0] rd_owner_q, rd_prev_q, rd_sel;
  logic [HoldW-1:0] rd_held_q, rd_held;                            // words of the grant taken, with this one
  assign rd_sel  = (rd_lock_q && rd_valid[rd_owner_q]) ? rd_owner_q : next_after(rd_valid, rd_prev_q);
  assign rd_any  = rd_valid[rd_sel];
  assign rd_fire = rd_any && rd_ready;
  assign rd_held = ((rd_lock_q && rd_sel == rd_owner_q) ? rd_held_q : HoldW'(0)) + HoldW'(1);
  always_comb begin
    rd_take         = '0;
    rd_take[rd_sel] = rd_fire;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_lock_q  <= 1'b0;
      rd_owner_q <= '0;
      rd_prev_q  <= '0;
      rd_held_q  <= '0;
    end else if (rd_fire) begin
      rd_lock_q  <= 32'(rd_held) < tpu_agent_pkg::RD_BURST_CAP;
      rd_owner_q <= rd_sel;
      rd_prev_q  <= rd_sel;
      rd_held_q  <= rd_held;
    end
  end

  logic rd_rsp_valid, rd_err, rd_committed;
  logic [8:0] rd_words;
  tpu_axi_rd #(
    .ReqBytes   (WordBytes),
    .Id         (0),
    .AddrW      (AddrW),
    .DataBytes  (WordBytes),
    .IdW        (1),
    .MaxBurst   (tpu_agent_pkg::MAX_BURST),
    .Boundary   (tpu_agent_pkg::BOUNDARY),
    .Outstanding(tpu_agent_pkg::RD_BURSTS)
  ) u_axi_rd (
    .clk_i,
    .rst_ni,
    .req_valid_i(rd_any),
    .req_ready_o(rd_ready),
    .req_addr_i (rd_addr[32'(rd_sel)*AddrW +: AddrW]),
    .cap_i      (8'(tpu_agent_pkg::RD_BURST_CAP - 1)),
    .run_i      (8'd0),                                             // runs gather their bursts as they come
    .req_words_o(rd_words),
    .committed_o(rd_committed),
    .rsp_valid_o(rd_rsp_valid),
    .rsp_ready_i(1'b1),                                             // every port reserved its words' places
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
  assign rsp_err    = rd_err;

  // Whose word comes back: the ports' words in the order they were issued.
  logic [PortW-1:0] rd_owner;
  logic             ro_ready, ro_valid;
  if (P > 1) begin : g_read_owner
    logic [$clog2(ReadsOwed+1)-1:0] ro_usage;
    tpu_fifo #(
      .Width(PortW),
      .Depth(ReadsOwed)
    ) u_read_owner (
      .clk_i,
      .rst_ni,
      .valid_i(rd_fire),
      .ready_o(ro_ready),
      .data_i (rd_sel),
      .valid_o(ro_valid),
      .ready_i(rd_rsp_valid),
      .data_o (rd_owner),
      .usage_o(ro_usage)
    );
    logic unused_ro;
    assign unused_ro = ^ro_usage;
  end else begin : g_one_port
    assign rd_owner = '0;
    assign ro_ready = 1'b1;
    assign ro_valid = 1'b1;
  end
  always_comb begin
    rsp_valid           = '0;
    rsp_valid[rd_owner] = rd_rsp_valid;
  end

  // --- Writes: a whole write at a time, round robin -----------------------------------
  logic             wr_lock_q, wr_any, wr_ready, wr_fire, wr_go, wr_contig, wo_ready;
  logic [PortW-1:0] wr_owner_q, wr_prev_q, wr_sel;
  logic [AddrW-1:0] wr_next_q, wr_sel_addr;
  logic [PendW-1:0] wr_pend_q;                                      // words sent whose burst's AW is not taken
  assign wr_sel      = wr_lock_q ? wr_owner_q : next_after(wr_valid, wr_prev_q);
  assign wr_sel_addr = wr_addr[32'(wr_sel)*AddrW +: AddrW];
  // A write's first word: room to track it, and not joining the open burst.
  assign wr_contig   = (wr_sel_addr == wr_next_q) && (wr_pend_q != '0);
  assign wr_go       = wr_valid[wr_sel] && (!wr_first[wr_sel] || (wo_ready && !wr_contig));
  assign wr_any      = wr_go;
  assign wr_fire     = wr_any && wr_ready;
  always_comb begin
    wr_take         = '0;
    wr_take[wr_sel] = wr_fire;
  end

  logic aw_fire;
  assign aw_fire = aw_valid_o && aw_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_lock_q  <= 1'b0;
      wr_owner_q <= '0;
      wr_prev_q  <= '0;
      wr_next_q  <= '0;
      wr_pend_q  <= '0;
    end else begin
      if (wr_fire) begin
        wr_lock_q  <= !wr_last[wr_sel];
        wr_owner_q <= wr_sel;
        wr_prev_q  <= wr_sel;
        wr_next_q  <= wr_sel_addr + AddrW'(WordBytes);
      end
      wr_pend_q <= wr_pend_q + PendW'(wr_fire) - (aw_fire ? PendW'(aw_len_o) + PendW'(1) : PendW'(0));
    end
  end

  logic ack_valid, wr_err;
  tpu_axi_wr #(
    .ReqBytes   (WordBytes),
    .Id         (0),
    .AddrW      (AddrW),
    .DataBytes  (WordBytes),
    .IdW        (1),
    .MaxBurst   (Beats),
    .Boundary   (tpu_agent_pkg::BOUNDARY),
    .Outstanding(WrBursts)
  ) u_axi_wr (
    .clk_i,
    .rst_ni,
    .req_valid_i(wr_any),
    .req_ready_o(wr_ready),
    .req_addr_i (wr_sel_addr),
    .cap_i      (8'(Beats - 1)),
    .req_data_i (wr_data[32'(wr_sel)*WordW +: WordW]),
    .req_strb_i ({WordBytes{1'b1}}),
    .rsp_valid_o(ack_valid),
    .rsp_ready_i(1'b1),                                             // a port's completions fit its queue
    .aw_valid_o,
    .aw_ready_i,
    .aw_addr_o,
    .aw_len_o,
    .aw_size_o,
    .aw_id_o,
    .w_valid_o,
    .w_ready_i,
    .w_data_o,
    .w_strb_o,
    .w_last_o,
    .b_valid_i,
    .b_ready_o,
    .b_resp_i,
    .err_o      (wr_err)
  );
  assign aw_burst_o = 2'b01;  // INCR

  // The writes handed over, in order: whose, and how many words; each
  // acknowledgement counts one off, the burst's response (taken before its
  // acknowledgements) marking it.
  logic             wo_valid, wo_pop, burst_err_q, werr_q;
  logic [PortW-1:0] wo_port;
  logic [LenW-1:0]  wo_len, ack_k_q;
  logic [$clog2(WrInFlight+1)-1:0] wo_usage;
  tpu_fifo #(
    .Width(PortW + LenW),
    .Depth(WrInFlight)
  ) u_write_owner (
    .clk_i,
    .rst_ni,
    .valid_i(wr_fire && wr_first[wr_sel]),
    .ready_o(wo_ready),
    .data_i ({wr_sel, wr_len[32'(wr_sel)*LenW +: LenW]}),
    .valid_o(wo_valid),
    .ready_i(wo_pop),
    .data_o ({wo_port, wo_len}),
    .usage_o(wo_usage)
  );
  assign wo_pop  = ack_valid && (ack_k_q == wo_len);
  assign cpl_err = werr_q || burst_err_q;
  always_comb begin
    cpl_valid          = '0;
    cpl_valid[wo_port] = wo_pop;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      burst_err_q <= 1'b0;
      werr_q      <= 1'b0;
      ack_k_q     <= '0;
    end else begin
      if (b_valid_i && b_ready_o) burst_err_q <= wr_err;
      if (ack_valid) begin
        ack_k_q <= wo_pop ? '0 : ack_k_q + LenW'(1);
        werr_q  <= wo_pop ? 1'b0 : cpl_err;
      end
    end
  end

  assign idle_o = (&port_idle) && !wo_valid && (wr_pend_q == '0);

  logic unused;
  assign unused = ^{b_id_i, r_id_i, wo_usage, ro_valid, ro_ready, rd_words, rd_committed, rd_last};

`ifdef TPU_ASSERT
  // Every read word is owed to a port, and the owners' queue never fills
  // (the ports' credits bound the words in flight).
  tpu_assert_never u_read_owner_full (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (rd_fire && !ro_ready)
  );
  // An acknowledgement only for a write handed over.
  tpu_assert_never u_ack_unowed (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (ack_valid && !wo_valid)
  );
  // A locked write's port goes on with the same write.
  tpu_assert_never u_write_interleaved (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (wr_lock_q && wr_valid[wr_owner_q] && wr_first[wr_owner_q])
  );
`endif

endmodule
