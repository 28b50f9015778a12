// tpu_noc_tinytpu_unit: the TinyTPU-isa core as a compute unit, the
// datapath behind tpu_noc_cu_base (spec/compute_units.yaml, unit tinytpu;
// docs/compute_units.md). It executes the unit's CU_INST opcodes:
//
//   LOAD   the program image into imem by MEM_RD_REQ streams of four-word
//          entries, tagged from the `own` range, a round of tags at a time.
//   RUN    A's m rows and B's k rows by MEM_RD_REQ streams tagged A + row and
//          B + row (one request for packed rows, one a row otherwise; the
//          peers of a_peer / b_peer copied into each), unless a_recv /
//          b_recv says a peer's multicast brings them; the core starts at
//          once, and an operand read of a row that has not arrived waits for
//          it (bytes outside the block read as zeros). The core's C writes
//          are merged into whole 32-byte words (a byte mask a word); a word
//          stored in full goes out at once as a one-word MEM_WR_REQ; when the
//          core is done, every word stored only in part is read, merged and
//          written back. The RUN retires once every write is acknowledged.
//   STATUS one of the unit's counters.
//
// Faults (exec_fault with {code, detail}): UNKNOWN_OPCODE, MISALIGNED,
// GEOMETRY, MEMORY (an ERROR flit answered a request of the unit; the
// instruction ends once nothing of its own is outstanding, the core reset),
// CORE (the core's fault, pc and unit), ROW_TWICE (a multicast row came a
// second time before a RUN used it).
//
// Hand-written module of tpugen; every position, code and tag comes from
// tpu_noc_pkg and tpu_cu_pkg. The memories: imem as IMEM_SIZE/4 rows of
// four 64-bit words (the core reads beats of ImemBeat = 4 words), A and B
// as MAXDIM x ROW_WORDS rows of 32-byte words with an arrival flag each, C
// as MAXDIM x ROW_WORDS words with a byte mask each.
module tpu_noc_tinytpu_unit #(
  parameter int X      = 0,  // this unit's node
  parameter int Y      = 0,
  parameter int AgentX = 0,  // the memory agent's port its requests go to
  parameter int AgentY = 0
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // instructions from the wrapper, one at a time, in order
  input  logic                            inst_valid_i,
  output logic                            inst_ready_o,
  input  logic [tpu_noc_pkg::PAYLOAD_W-1:0] inst_payload_i,
  input  logic [tpu_noc_pkg::TXN_W-1:0]   inst_txn_i,
  output logic                            exec_done_o,
  output logic [31:0]                     exec_result_o,
  output logic                            exec_fault_o,
  // the unit's own traffic from the mesh (always drained)
  input  logic                            recv_valid_i,
  output logic                            recv_ready_o,
  input  logic [tpu_noc_pkg::FLIT_W-1:0]  recv_flit_i,
  // its requests to the mesh
  output logic                            send_valid_o,
  input  logic                            send_ready_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0]  send_flit_o,
  // CU_DATA writes into its buffers
  input  logic                            data_we_i,
  input  logic [7:0]                      data_buf_i,
  input  logic [15:0]                     data_granule_i,
  input  logic [tpu_noc_pkg::PAYLOAD_W-1:0] data_word_i,
  // status for the wrapper's CU_CTRL registers
  output logic                            busy_o,
  output logic [63:0]                     counters_o,
  output logic [63:0]                     dbg_o
);

  import tpu_cu_pkg::*;

  localparam int W        = tpu_noc_pkg::PAYLOAD_W;  // a word: one flit's payload
  localparam int WB       = W / 8;                   // its bytes
  localparam int FW       = tpu_noc_pkg::FLIT_W;
  localparam int MaxDim   = TINYTPU_MAXDIM;
  localparam int RowWords = TINYTPU_ROW_WORDS;
  localparam int BufWords = MaxDim * RowWords;
  localparam int BufAW    = $clog2(BufWords);
  localparam int T        = TINYTPU_T;
  localparam int RdBytes  = TINYTPU_DMA_WORDS * T;  // an operand read
  localparam int ImemRows = (TINYTPU_IMEM_SIZE + 3) / 4;
  localparam int ImemAW   = (ImemRows > 1) ? $clog2(ImemRows) : 1;
  localparam int OffW     = TINYTPU_OFF_W;
  localparam int DimW     = $clog2(MaxDim + 1);
  localparam int AddrW    = tpu_noc_pkg::ADDR_W;
  localparam int OwnFirst = TINYTPU_TAG_OWN;
  localparam int OwnN     = TINYTPU_TAG_OWN_N;
  localparam int EntryW   = 4;  // the words of a full LOAD entry: entry_words' largest meaning

  // ---------------------------------------------------------------------
  // Instruction decode
  // ---------------------------------------------------------------------
  function automatic logic [63:0] fld(input logic [W-1:0] p, input int lsb, input int w);
    fld = 64'((p >> lsb) & ((W'(1) << w) - W'(1)));
  endfunction

  function automatic logic [31:0] fault_word(input logic [7:0] code, input logic [23:0] detail);
    fault_word = (32'(code) << FAULT_CODE_LSB) | (32'(detail) & ((32'(1) << FAULT_CODE_LSB) - 32'(1)));
  endfunction

  typedef enum logic [3:0] {
    SIdle, SDone, SLoadIssue, SLoadWait, SRunIssue, SRunCore, SRunDrain, SMergeFind, SMergeRead, SMergeWait,
    SMergeWrite, SRunAcks
  } state_e;
  state_e state_q, state_d;

  logic [W-1:0]        inst_q;
  logic [7:0]          txn_q;
  logic [31:0]         result_q, result_d;
  logic                fault_q, fault_d;
  logic [31:0]         runs_q, last_fault_q, loaded_q;

  // RUN's operands, resolved (zero means as the spec says).
  logic [AddrW-1:0]    a_addr_q, b_addr_q, c_addr_q;
  logic [11:0]         a_stride_q, b_stride_q, c_stride_q;
  logic [DimW-1:0]     m_q, k_q, n_q;
  logic                a_recv_q, b_recv_q;
  logic [2:0]          a_words_q, b_words_q;  // 32-byte words a row of A (k bytes) and of B (n bytes)

  // ---------------------------------------------------------------------
  // Buffers: imem, A, B (arrival flags), C (byte masks)
  // ---------------------------------------------------------------------
  logic              imem_we;
  logic [ImemAW-1:0] imem_waddr;
  logic [W-1:0]      imem_wdata;
  logic              imem_re;
  logic [ImemAW-1:0] imem_raddr;
  logic [W-1:0]      imem_rdata;
  tpu_ram_1r1w #(.Width(W), .Depth(ImemRows)) u_imem (
    .clk_i,
    .we_i   (imem_we),
    .waddr_i(imem_waddr),
    .wdata_i(imem_wdata),
    .re_i   (imem_re),
    .raddr_i(imem_raddr),
    .rdata_o(imem_rdata)
  );

  logic [1:0]        ab_we;      // [0] A, [1] B
  logic [BufAW-1:0]  ab_waddr;
  logic [W-1:0]      ab_wdata;
  logic              ab_re;
  logic              ab_rsel;
  logic [BufAW-1:0]  ab_raddr;
  logic [W-1:0]      a_rdata, b_rdata;
  tpu_ram_1r1w #(.Width(W), .Depth(BufWords)) u_a (
    .clk_i,
    .we_i   (ab_we[0]),
    .waddr_i(ab_waddr),
    .wdata_i(ab_wdata),
    .re_i   (ab_re && !ab_rsel),
    .raddr_i(ab_raddr),
    .rdata_o(a_rdata)
  );
  tpu_ram_1r1w #(.Width(W), .Depth(BufWords)) u_b (
    .clk_i,
    .we_i   (ab_we[1]),
    .waddr_i(ab_waddr),
    .wdata_i(ab_wdata),
    .re_i   (ab_re && ab_rsel),
    .raddr_i(ab_raddr),
    .rdata_o(b_rdata)
  );
  logic [BufWords-1:0] a_arrived_q, b_arrived_q;
  logic                twice_q;
  logic [7:0]          twice_tag_q;

  // ---------------------------------------------------------------------
  // The core
  // ---------------------------------------------------------------------
  logic        core_rst_nq;  // held low one cycle after a fault or a memory fault
  logic        core_start, core_busy, core_done;
  logic [tpu_pkg::FAULT_W-1:0]    core_fault;
  logic [tpu_pkg::FAULT_PC_W-1:0] core_fault_pc;
  logic [tpu_pkg::UNIT_W-1:0]     core_fault_unit;
  logic        imem_req_valid, imem_req_ready, imem_rsp_valid;
  logic [15:0] imem_req_addr;
  logic        rd_req_valid, rd_req_ready, rd_req_sel, rd_rsp_valid, rd_rsp_ready;
  logic [31:0] rd_req_addr;
  logic [RdBytes*8-1:0] rd_rsp_data;
  logic        wr_req_valid, wr_req_ready, wr_rsp_valid, wr_rsp_ready;
  logic [31:0] wr_req_addr;
  logic [T*8-1:0] wr_req_data;
  logic [T-1:0]   wr_req_strb;

  tpu_top #(
    .ImemBeat(4),
    .CBeat   (1)
  ) u_core (
    .clk_i,
    .rst_ni              (core_rst_nq),
    .start_i             (core_start),
    .busy_o              (core_busy),
    .done_o              (core_done),
    .fault_o             (core_fault),
    .fault_pc_o          (core_fault_pc),
    .fault_unit_o        (core_fault_unit),
    .header_o            (),
    .cycles_o            (),
    .progress_o          (),
    .imem_req_valid_o    (imem_req_valid),
    .imem_req_ready_i    (imem_req_ready),
    .imem_req_addr_o     (imem_req_addr),
    .imem_rsp_valid_i    (imem_rsp_valid),
    .imem_rsp_ready_o    (),
    .imem_rsp_data_i     (imem_rdata),
    .dram_rd_req_valid_o (rd_req_valid),
    .dram_rd_req_ready_i (rd_req_ready),
    .dram_rd_req_sel_o   (rd_req_sel),
    .dram_rd_req_addr_o  (rd_req_addr),
    .dram_rd_rsp_valid_i (rd_rsp_valid),
    .dram_rd_rsp_ready_o (rd_rsp_ready),
    .dram_rd_rsp_data_i  (rd_rsp_data),
    .dram_wr_req_valid_o (wr_req_valid),
    .dram_wr_req_ready_i (wr_req_ready),
    .dram_wr_req_addr_o  (wr_req_addr),
    .dram_wr_req_data_o  (wr_req_data),
    .dram_wr_req_strb_o  (wr_req_strb),
    .dram_wr_rsp_valid_i (wr_rsp_valid),
    .dram_wr_rsp_ready_o (wr_rsp_ready)
  );

  // imem: a beat is one row, answered in the next cycle.
  assign imem_req_ready = 1'b1;
  assign imem_re        = imem_req_valid;
  assign imem_raddr     = ImemAW'(imem_req_addr >> 2);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) imem_rsp_valid <= 1'b0;
    else         imem_rsp_valid <= imem_req_valid;
  end

  // A byte offset of the core's matrix as (row, column), by the reciprocal.
  function automatic logic [DimW-1:0] row_of(input logic [31:0] off);
    logic [OffW+TINYTPU_RECIP_W-1:0] p;
    p = (OffW+TINYTPU_RECIP_W)'(off[OffW-1:0]) * (OffW+TINYTPU_RECIP_W)'(TINYTPU_ROW_RECIP);
    row_of = DimW'(p >> TINYTPU_ROW_SHIFT);
  endfunction

  // ---------------------------------------------------------------------
  // Operand reads (dram_rd): wait for the row's word, zeros outside the block
  // ---------------------------------------------------------------------
  logic [DimW-1:0]  rd_row;
  logic [OffW-1:0]  rd_col;
  logic [BufAW-1:0] rd_word;
  logic             rd_inside, rd_ready_word;
  assign rd_row  = row_of(rd_req_addr);
  assign rd_col  = OffW'(rd_req_addr[OffW-1:0] - OffW'(rd_row) * OffW'(MaxDim));
  assign rd_word = BufAW'(rd_row) * BufAW'(RowWords) + BufAW'(rd_col >> 5);
  assign rd_inside = rd_req_sel ? (rd_row < k_q) : (rd_row < m_q);
  assign rd_ready_word = !rd_inside || (rd_req_sel ? b_arrived_q[rd_word] : a_arrived_q[rd_word]);

  // One read in flight at a time through the RAM stage, its answer into a
  // small FIFO the core drains.
  localparam int RspDepth = 2;
  logic        rd_stage_q, rd_stage_sel_q, rd_stage_inside_q;
  logic [4:0]  rd_stage_byte_q;
  logic [OffW-1:0] rd_stage_col_q;
  logic [$clog2(RspDepth+1)-1:0] rsp_usage;
  logic        rsp_push;
  logic [RdBytes*8-1:0] rsp_data;
  assign rd_req_ready = (state_q == SRunCore) && rd_ready_word && !ab_we_busy_rd() &&
                        (32'(rsp_usage) + 32'(rd_stage_q) < RspDepth);
  assign ab_re    = rd_req_valid && rd_req_ready && rd_inside;
  assign ab_rsel  = rd_req_sel;
  assign ab_raddr = rd_word;
  function automatic logic ab_we_busy_rd();
    ab_we_busy_rd = 1'b0;  // the RAMs have a read port of their own
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_stage_q        <= 1'b0;
      rd_stage_sel_q    <= 1'b0;
      rd_stage_inside_q <= 1'b0;
      rd_stage_byte_q   <= '0;
      rd_stage_col_q    <= '0;
    end else begin
      rd_stage_q <= rd_req_valid && rd_req_ready;
      if (rd_req_valid && rd_req_ready) begin
        rd_stage_sel_q    <= rd_req_sel;
        rd_stage_inside_q <= rd_inside;
        rd_stage_byte_q   <= rd_col[4:0];
        rd_stage_col_q    <= rd_col;
      end
    end
  end
  always_comb begin
    logic [W-1:0] word;
    word     = rd_stage_sel_q ? b_rdata : a_rdata;
    rsp_data = '0;
    for (int b = 0; b < RdBytes; b++) begin
      if (rd_stage_inside_q &&
          (32'(rd_stage_col_q) + 32'(b) < (rd_stage_sel_q ? 32'(n_q) : 32'(k_q))))
        rsp_data[8*b +: 8] = word[8*(32'(rd_stage_byte_q) + 32'(b)) +: 8];
    end
  end
  assign rsp_push = rd_stage_q;
  tpu_fifo #(.Width(RdBytes*8), .Depth(RspDepth)) u_rd_rsp (
    .clk_i,
    .rst_ni,
    .valid_i(rsp_push),
    .ready_o(),
    .data_i (rsp_data),
    .valid_o(rd_rsp_valid),
    .ready_i(rd_rsp_ready),
    .data_o (rd_rsp_data),
    .usage_o(rsp_usage)
  );

  // ---------------------------------------------------------------------
  // C: byte-masked words, a read-modify-write pipeline with forwarding
  // ---------------------------------------------------------------------
  logic             c_we;
  logic [BufAW-1:0] c_waddr;
  logic [W+WB-1:0]  c_wdata;       // {mask, data}
  logic             c_re;
  logic [BufAW-1:0] c_raddr;
  logic [W+WB-1:0]  c_rdata;
  tpu_ram_1r1w #(.Width(W + WB), .Depth(BufWords)) u_c (
    .clk_i,
    .we_i   (c_we),
    .waddr_i(c_waddr),
    .wdata_i(c_wdata),
    .re_i   (c_re),
    .raddr_i(c_raddr),
    .rdata_o(c_rdata)
  );
  logic [BufWords-1:0]          c_touched_q;            // stored into in this RUN
  logic [MaxDim-1:0][RowWords-1:0] c_partial_q;         // stored into in part, not yet written
  logic [31:0]                  c_words_q;              // words stored into (the RUN's result)

  // Stage 1: the core's write, its word and the bytes inside the block.
  logic [DimW-1:0]  wr_row;
  logic [OffW-1:0]  wr_col;
  logic [BufAW-1:0] wr_word;
  logic [WB-1:0]    wr_mask;
  logic [W-1:0]     wr_bytes;
  assign wr_row  = row_of(wr_req_addr);
  assign wr_col  = OffW'(wr_req_addr[OffW-1:0] - OffW'(wr_row) * OffW'(MaxDim));
  assign wr_word = BufAW'(wr_row) * BufAW'(RowWords) + BufAW'(wr_col >> 5);
  always_comb begin
    wr_mask  = '0;
    wr_bytes = '0;
    for (int b = 0; b < T; b++) begin
      if (wr_req_strb[b] && wr_row < m_q && 32'(wr_col) + 32'(b) < 32'(n_q)) begin
        wr_mask[32'(wr_col[4:0]) + 32'(b)]            = 1'b1;
        wr_bytes[8*(32'(wr_col[4:0]) + 32'(b)) +: 8] = wr_req_data[8*b +: 8];
      end
    end
  end

  // Stage 2 holds the write while the RAM reads its word.
  logic             s2_q;
  logic [BufAW-1:0] s2_word_q;
  logic [DimW-1:0]  s2_row_q;
  logic [2:0]       s2_col_word_q;
  logic [WB-1:0]    s2_mask_q;
  logic [W-1:0]     s2_bytes_q;
  logic             s2_touched_q;
  // The word stage 2 last wrote (forwarded when stage 2 holds it again).
  logic             fwd_q;
  logic [BufAW-1:0] fwd_word_q;
  logic [W+WB-1:0]  fwd_data_q;

  // Flushes: whole words to write, {address, data}.
  localparam int FlushDepth = 4;
  logic                  flush_push, flush_valid, flush_pop;
  logic [AddrW+W-1:0]    flush_in, flush_out;
  logic [$clog2(FlushDepth+1)-1:0] flush_usage;
  tpu_fifo #(.Width(AddrW + W), .Depth(FlushDepth)) u_flush (
    .clk_i,
    .rst_ni,
    .valid_i(flush_push),
    .ready_o(),
    .data_i (flush_in),
    .valid_o(flush_valid),
    .ready_i(flush_pop),
    .data_o (flush_out),
    .usage_o(flush_usage)
  );

  // Take a write when the flush queue has room for it and the one in stage 2.
  assign wr_req_ready = (state_q == SRunCore) && (32'(flush_usage) + 32'(s2_q) + 1 < FlushDepth);
  assign c_re    = wr_req_valid && wr_req_ready;
  assign c_raddr = wr_word;

  logic [W+WB-1:0] s2_old, s2_new;
  logic            s2_full;
  logic [AddrW-1:0] s2_addr;
  always_comb begin
    s2_old = (fwd_q && fwd_word_q == s2_word_q) ? fwd_data_q : (s2_touched_q ? c_rdata : '0);
    s2_new = s2_old;
    for (int b = 0; b < WB; b++)
      if (s2_mask_q[b]) s2_new[8*b +: 8] = s2_bytes_q[8*b +: 8];
    s2_new[W +: WB] = s2_old[W +: WB] | s2_mask_q;
    s2_full = &s2_new[W +: WB];
    s2_addr = c_addr_q + AddrW'(32'(s2_row_q) * 32'(c_stride_q) * WB) + AddrW'(32'(s2_col_word_q) * WB);
  end
  // A full word goes out and its mask clears; a partial one stays.
  assign c_we       = s2_q;
  assign c_waddr    = s2_word_q;
  assign c_wdata    = s2_full ? {{WB{1'b0}}, s2_new[W-1:0]} : s2_new;
  assign flush_push = s2_q && s2_full;
  assign flush_in   = {s2_addr, s2_new[W-1:0]};

  // The core's acknowledgements: one a write taken, in order.
  logic [7:0] wr_acks_q;
  assign wr_rsp_valid = wr_acks_q != 0;

  // ---------------------------------------------------------------------
  // Requests out: reads (LOAD, RUN's operands, merges) and writes
  // ---------------------------------------------------------------------
  function automatic logic [FW-1:0] header(input logic [3:0] typ, input logic [7:0] txn, input logic last);
    header = '0;
    header[tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W] = tpu_noc_pkg::DST_X_W'(AgentX);
    header[tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W] = tpu_noc_pkg::DST_Y_W'(AgentY);
    header[tpu_noc_pkg::SRC_X_LSB +: tpu_noc_pkg::SRC_X_W] = tpu_noc_pkg::SRC_X_W'(X);
    header[tpu_noc_pkg::SRC_Y_LSB +: tpu_noc_pkg::SRC_Y_W] = tpu_noc_pkg::SRC_Y_W'(Y);
    header[tpu_noc_pkg::TYPE_LSB  +: tpu_noc_pkg::TYPE_W]  = typ;
    header[tpu_noc_pkg::TXN_LSB   +: tpu_noc_pkg::TXN_W]   = txn;
    header[tpu_noc_pkg::LAST_LSB]                          = last;
  endfunction

  // A stream read: count entries of `words` words from addr, with the peers
  // of the instruction's npeer/peer fields at the given positions.
  function automatic logic [FW-1:0] stream_req(input logic [AddrW-1:0] addr, input logic [7:0] count,
                                               input logic [2:0] words, input logic [7:0] txn,
                                               input logic [1:0] npeer, input logic [23:0] peers);
    logic [FW-1:0] f;
    f = header(tpu_noc_pkg::TYPE_MEM_RD_REQ, txn, 1'b1);
    f[tpu_noc_pkg::MEM_REQ_ADDR_LSB +: AddrW] = addr;
    f[tpu_noc_pkg::MEM_REQ_FLAGS_LSB + tpu_noc_pkg::MEM_REQ_FLAGS_STREAM_BIT] = 1'b1;
    f[tpu_noc_pkg::MEM_REQ_COUNT_LSB +: tpu_noc_pkg::MEM_REQ_COUNT_W] = count;
    f[tpu_noc_pkg::MEM_REQ_ENTRY_WORDS_LSB +: tpu_noc_pkg::MEM_REQ_ENTRY_WORDS_W] =
        tpu_noc_pkg::MEM_REQ_ENTRY_WORDS_W'(words);
    f[tpu_noc_pkg::MEM_REQ_N_PEER_LSB +: tpu_noc_pkg::MEM_REQ_N_PEER_W] = npeer;
    for (int i = 0; i < tpu_noc_pkg::MEM_REQ_PEER_N; i++) begin
      f[tpu_noc_pkg::MEM_REQ_PEER_LSB + i*tpu_noc_pkg::MEM_REQ_PEER_ELEM_W + tpu_noc_pkg::MEM_REQ_PEER_X_LSB +:
        tpu_noc_pkg::MEM_REQ_PEER_X_W] = peers[i*8 + TINYTPU_RUN_A_PEER_X_LSB +: tpu_noc_pkg::MEM_REQ_PEER_X_W];
      f[tpu_noc_pkg::MEM_REQ_PEER_LSB + i*tpu_noc_pkg::MEM_REQ_PEER_ELEM_W + tpu_noc_pkg::MEM_REQ_PEER_Y_LSB +:
        tpu_noc_pkg::MEM_REQ_PEER_Y_W] = peers[i*8 + TINYTPU_RUN_A_PEER_Y_LSB +: tpu_noc_pkg::MEM_REQ_PEER_Y_W];
    end
    stream_req = f;
  endfunction

  function automatic logic [FW-1:0] plain_read(input logic [AddrW-1:0] addr, input logic [7:0] txn);
    plain_read = header(tpu_noc_pkg::TYPE_MEM_RD_REQ, txn, 1'b1);
    plain_read[tpu_noc_pkg::MEM_REQ_ADDR_LSB +: AddrW] = addr;
  endfunction

  function automatic logic [FW-1:0] write_req(input logic [AddrW-1:0] addr);
    write_req = header(tpu_noc_pkg::TYPE_MEM_WR_REQ, 8'd0, 1'b1);
    write_req[tpu_noc_pkg::MEM_REQ_ADDR_LSB +: AddrW] = addr;  // len 0: one word
  endfunction

  function automatic logic [FW-1:0] write_data(input logic [W-1:0] word);
    write_data = header(tpu_noc_pkg::TYPE_MEM_WR_DATA, 8'd0, 1'b1);
    write_data[W-1:0] = word;
  endfunction

  // The send register: one flit, held until taken (valid never waits for ready).
  logic          send_q;
  logic [FW-1:0] send_flit_q;
  logic          send_free;
  assign send_valid_o = send_q;
  assign send_flit_o  = send_flit_q;
  assign send_free    = !send_q || send_ready_i;

  // Operand request issue: A then B, one request (packed rows) or one a row.
  logic [1:0]      issue_op_q;    // 0 A, 1 B, 2 done
  logic [DimW-1:0] issue_row_q;
  logic            issue_data_q;  // a write's data flit is next (the flush's second flit)
  logic [W-1:0]    issue_word_q;

  // Words still to come from the unit's own reads, and writes unacknowledged.
  logic [15:0]     expect_q;
  logic [15:0]     acks_q;
  logic            mem_fault_q;
  logic [15:0]     mem_detail_q;

  // LOAD's progress: the next mesh word to request, the round's first.
  logic [15:0]     load_next_q, load_base_q, load_mesh_words_q;
  logic [15:0]     load_words_q;

  // The merge: the word found, its address and its {mask, data}.
  logic [DimW-1:0] mg_row_q;
  logic [2:0]      mg_col_q;
  logic [W+WB-1:0] mg_q;
  logic            mg_have_q;

  // ---------------------------------------------------------------------
  // Responses in: MEM_RD_RESP by tag, MEM_WR_ACK, ERROR
  // ---------------------------------------------------------------------
  logic [3:0]      rx_type;
  logic [7:0]      rx_txn;
  logic [1:0]      rx_word;
  logic            rx_take;
  logic            rx_a, rx_b, rx_own;
  logic [DimW-1:0] rx_row;
  logic [BufAW-1:0] rx_buf_word;
  assign rx_type = recv_flit_i[tpu_noc_pkg::TYPE_LSB +: tpu_noc_pkg::TYPE_W];
  assign rx_txn  = recv_flit_i[tpu_noc_pkg::TXN_LSB +: tpu_noc_pkg::TXN_W];
  assign rx_word = recv_flit_i[tpu_noc_pkg::RSVD_LSB +: 2];
  assign rx_a    = 32'(rx_txn) >= TINYTPU_TAG_A && 32'(rx_txn) < TINYTPU_TAG_A + TINYTPU_TAG_A_N;
  assign rx_b    = 32'(rx_txn) >= TINYTPU_TAG_B && 32'(rx_txn) < TINYTPU_TAG_B + TINYTPU_TAG_B_N;
  assign rx_own  = 32'(rx_txn) >= OwnFirst;
  assign rx_row  = DimW'(rx_a ? 32'(rx_txn) - TINYTPU_TAG_A : 32'(rx_txn) - TINYTPU_TAG_B);
  assign rx_buf_word = BufAW'(rx_row) * BufAW'(RowWords) + BufAW'(rx_word);
  // CU_DATA writes win the buffers' write port; a response waits a cycle then.
  assign recv_ready_o = !data_we_i;
  assign rx_take      = recv_valid_i && recv_ready_o;

  logic is_resp, is_ack, is_error;
  assign is_resp  = rx_take && rx_type == tpu_noc_pkg::TYPE_MEM_RD_RESP;
  assign is_ack   = rx_take && rx_type == tpu_noc_pkg::TYPE_MEM_WR_ACK;
  assign is_error = rx_take && rx_type == tpu_noc_pkg::TYPE_ERROR;
  logic [7:0] err_rule;
  logic [3:0] err_type;
  assign err_rule = recv_flit_i[tpu_noc_pkg::ERROR_RULE_LSB +: tpu_noc_pkg::ERROR_RULE_W];
  assign err_type = recv_flit_i[tpu_noc_pkg::ERROR_HEADER_LSB + tpu_noc_pkg::TYPE_LSB - tpu_noc_pkg::PAYLOAD_W +:
                                tpu_noc_pkg::TYPE_W];

  // The buffers' write port: CU_DATA, else an A/B row word or an imem row.
  logic [3:0] data_buf;
  assign data_buf = data_buf_i[3:0];
  always_comb begin
    ab_we      = '0;
    ab_waddr   = rx_buf_word;
    ab_wdata   = recv_flit_i[W-1:0];
    imem_we    = 1'b0;
    imem_waddr = ImemAW'(32'(load_base_q) + (32'(rx_txn) - OwnFirst) * EntryW + 32'(rx_word));
    imem_wdata = recv_flit_i[W-1:0];
    if (data_we_i) begin
      ab_waddr   = BufAW'(data_granule_i);
      ab_wdata   = data_word_i;
      imem_waddr = ImemAW'(data_granule_i);
      imem_wdata = data_word_i;
      if (data_buf == 4'(TINYTPU_BUF_A) && 32'(data_granule_i) < BufWords) ab_we[0] = 1'b1;
      if (data_buf == 4'(TINYTPU_BUF_B) && 32'(data_granule_i) < BufWords) ab_we[1] = 1'b1;
      if (data_buf == 4'(TINYTPU_BUF_IMEM) && 32'(data_granule_i) < ImemRows) imem_we = 1'b1;
    end else if (is_resp) begin
      if (rx_a && 32'(rx_buf_word) < BufWords) ab_we[0] = 1'b1;
      if (rx_b && 32'(rx_buf_word) < BufWords) ab_we[1] = 1'b1;
      if (rx_own && state_q == SLoadWait) imem_we = 1'b1;
    end
  end

  // Which of the unit's expected words a response or an ERROR settles.
  logic own_word;  // a response to one of this instruction's own reads
  assign own_word = is_resp && expect_q != 0 &&
                    ((rx_a && !a_recv_q) || (rx_b && !b_recv_q) || rx_own) &&
                    (state_q == SRunIssue || state_q == SRunCore || state_q == SLoadWait ||
                     state_q == SLoadIssue || state_q == SMergeWait || state_q == SRunDrain);

  // ---------------------------------------------------------------------
  // The controller
  // ---------------------------------------------------------------------
  logic [3:0]  op;
  assign op = inst_payload_i[TINYTPU_OP_LSB +: TINYTPU_OP_W];
  assign inst_ready_o = (state_q == SIdle);

  // The first partly stored word of C, by row then word.
  logic            mg_found;
  logic [DimW-1:0] mg_row;
  logic [2:0]      mg_col;
  always_comb begin
    mg_found = 1'b0;
    mg_row   = '0;
    mg_col   = '0;
    for (int r = MaxDim - 1; r >= 0; r--)
      for (int w = RowWords - 1; w >= 0; w--)
        if (c_partial_q[r][w]) begin
          mg_found = 1'b1;
          mg_row   = DimW'(r);
          mg_col   = 3'(w);
        end
  end

  function automatic logic [DimW-1:0] dim(input logic [63:0] raw);
    dim = (raw == 0) ? DimW'(MaxDim) : DimW'(raw);
  endfunction
  function automatic logic [2:0] words_of(input logic [DimW-1:0] bytes);
    words_of = 3'((32'(bytes) + WB - 1) / WB);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= SIdle;
      inst_q        <= '0;
      txn_q         <= '0;
      result_q      <= '0;
      fault_q       <= 1'b0;
      runs_q        <= '0;
      last_fault_q  <= '0;
      loaded_q      <= '0;
      a_addr_q      <= '0;
      b_addr_q      <= '0;
      c_addr_q      <= '0;
      a_stride_q    <= '0;
      b_stride_q    <= '0;
      c_stride_q    <= '0;
      m_q           <= '0;
      k_q           <= '0;
      n_q           <= '0;
      a_recv_q      <= 1'b0;
      b_recv_q      <= 1'b0;
      a_words_q     <= '0;
      b_words_q     <= '0;
      a_arrived_q   <= '0;
      b_arrived_q   <= '0;
      twice_q       <= 1'b0;
      twice_tag_q   <= '0;
      core_rst_nq   <= 1'b0;
      send_q        <= 1'b0;
      send_flit_q   <= '0;
      issue_op_q    <= '0;
      issue_row_q   <= '0;
      issue_data_q  <= 1'b0;
      issue_word_q  <= '0;
      expect_q      <= '0;
      acks_q        <= '0;
      mem_fault_q   <= 1'b0;
      mem_detail_q  <= '0;
      load_next_q   <= '0;
      load_base_q   <= '0;
      load_mesh_words_q <= '0;
      load_words_q  <= '0;
      mg_row_q      <= '0;
      mg_col_q      <= '0;
      mg_q          <= '0;
      mg_have_q     <= 1'b0;
      c_touched_q   <= '0;
      c_partial_q   <= '0;
      c_words_q     <= '0;
      s2_q          <= 1'b0;
      s2_word_q     <= '0;
      s2_row_q      <= '0;
      s2_col_word_q <= '0;
      s2_mask_q     <= '0;
      s2_bytes_q    <= '0;
      s2_touched_q  <= 1'b0;
      fwd_q         <= 1'b0;
      fwd_word_q    <= '0;
      fwd_data_q    <= '0;
      wr_acks_q     <= '0;
    end else begin
      core_rst_nq <= 1'b1;
      if (send_q && send_ready_i) send_q <= 1'b0;

      // Arrivals: A and B words (a second arrival unused is ROW_TWICE).
      if (!data_we_i && is_resp && (rx_a || rx_b) && 32'(rx_buf_word) < BufWords) begin
        if ((rx_a ? a_arrived_q[rx_buf_word] : b_arrived_q[rx_buf_word]) && !twice_q) begin
          twice_q     <= 1'b1;
          twice_tag_q <= rx_txn;
        end
        if (rx_a) a_arrived_q[rx_buf_word] <= 1'b1;
        else      b_arrived_q[rx_buf_word] <= 1'b1;
      end
      if (data_we_i && 32'(data_granule_i) < BufWords) begin
        if (data_buf == 4'(TINYTPU_BUF_A)) a_arrived_q[BufAW'(data_granule_i)] <= 1'b1;
        if (data_buf == 4'(TINYTPU_BUF_B)) b_arrived_q[BufAW'(data_granule_i)] <= 1'b1;
      end
      if (own_word) expect_q <= expect_q - 16'd1;
      if (is_ack && acks_q != 0) acks_q <= acks_q - 16'd1;
      if (is_error) begin
        mem_fault_q  <= 1'b1;
        mem_detail_q <= {rx_txn, err_rule};
        if (err_type == tpu_noc_pkg::TYPE_MEM_WR_REQ) begin
          if (acks_q != 0) acks_q <= acks_q - 16'd1;
        end else if (err_rule == tpu_agent_pkg_axi_rule()) begin
          if (expect_q != 0) expect_q <= expect_q - 16'd1;
        end else begin
          expect_q <= '0;  // a refused request: nothing more of the instruction's reads is counted on
        end
      end

      // The core's writes: stage 1 -> stage 2 -> the RAM and the flush queue.
      s2_q <= wr_req_valid && wr_req_ready;
      if (wr_req_valid && wr_req_ready) begin
        s2_word_q     <= wr_word;
        s2_row_q      <= wr_row;
        s2_col_word_q <= 3'(wr_col >> 5);
        s2_mask_q     <= wr_mask;
        s2_bytes_q    <= wr_bytes;
        s2_touched_q  <= c_touched_q[wr_word] || (s2_q && s2_word_q == wr_word);
      end
      if (s2_q) begin
        fwd_q      <= 1'b1;
        fwd_word_q <= s2_word_q;
        fwd_data_q <= c_wdata;
        if (!c_touched_q[s2_word_q] && s2_mask_q != 0) c_words_q <= c_words_q + 32'd1;
        if (s2_mask_q != 0) c_touched_q[s2_word_q] <= 1'b1;
        c_partial_q[s2_row_q][s2_col_word_q] <= !s2_full && (s2_new[W +: WB] != 0);
      end else begin
        fwd_q <= 1'b0;
      end
      // One acknowledgement owed per write taken; the core takes them in order.
      wr_acks_q <= wr_acks_q + 8'(wr_req_valid && wr_req_ready) - 8'(wr_rsp_valid && wr_rsp_ready);

      unique case (state_q)
        SIdle: begin
          if (inst_valid_i) begin
            inst_q      <= inst_payload_i;
            txn_q       <= inst_txn_i;
            mem_fault_q <= 1'b0;
            expect_q    <= '0;
            acks_q      <= '0;
            state_q     <= SDone;
            fault_q     <= 1'b0;
            result_q    <= '0;
            if (op == TINYTPU_OP_STATUS) begin
              unique case (fld(inst_payload_i, TINYTPU_STATUS_SELECT_LSB, TINYTPU_STATUS_SELECT_W))
                64'(TINYTPU_SELECT_RUNS):       result_q <= runs_q;
                64'(TINYTPU_SELECT_LAST_FAULT): result_q <= last_fault_q;
                64'(TINYTPU_SELECT_LOADED):     result_q <= loaded_q;
                default: begin
                  fault_q  <= 1'b1;
                  result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_STATUS_SELECT_LSB));
                end
              endcase
            end else if (op == TINYTPU_OP_LOAD) begin
              logic [63:0] words;
              words = fld(inst_payload_i, TINYTPU_LOAD_WORDS_LSB, TINYTPU_LOAD_WORDS_W);
              if (words == 0) words = 64'(TINYTPU_LOAD_WORDS_ZERO_MEANS);
              if (fld(inst_payload_i, TINYTPU_LOAD_ADDR_LSB, 5) != 0) begin
                fault_q  <= 1'b1;
                result_q <= fault_word(TINYTPU_FAULT_MISALIGNED, 24'd0);
              end else if (words > 64'(TINYTPU_IMEM_SIZE)) begin
                fault_q  <= 1'b1;
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_LOAD_WORDS_LSB));
              end else begin
                a_addr_q          <= AddrW'(fld(inst_payload_i, TINYTPU_LOAD_ADDR_LSB, TINYTPU_LOAD_ADDR_W));
                load_words_q      <= 16'(words);
                load_mesh_words_q <= 16'((words + 3) / 4);
                load_next_q       <= '0;
                state_q           <= SLoadIssue;
              end
            end else if (op == TINYTPU_OP_RUN) begin
              logic [63:0] m, k, n, as, bs, cs;
              logic ar, br;
              m  = 64'(dim(fld(inst_payload_i, TINYTPU_RUN_M_LSB, TINYTPU_RUN_M_W)));
              k  = 64'(dim(fld(inst_payload_i, TINYTPU_RUN_K_LSB, TINYTPU_RUN_K_W)));
              n  = 64'(dim(fld(inst_payload_i, TINYTPU_RUN_N_LSB, TINYTPU_RUN_N_W)));
              as = fld(inst_payload_i, TINYTPU_RUN_A_STRIDE_LSB, TINYTPU_RUN_A_STRIDE_W);
              bs = fld(inst_payload_i, TINYTPU_RUN_B_STRIDE_LSB, TINYTPU_RUN_B_STRIDE_W);
              cs = fld(inst_payload_i, TINYTPU_RUN_C_STRIDE_LSB, TINYTPU_RUN_C_STRIDE_W);
              if (as == 0) as = 64'(TINYTPU_RUN_A_STRIDE_ZERO_MEANS);
              if (bs == 0) bs = 64'(TINYTPU_RUN_B_STRIDE_ZERO_MEANS);
              if (cs == 0) cs = 64'(TINYTPU_RUN_C_STRIDE_ZERO_MEANS);
              ar = inst_payload_i[TINYTPU_RUN_A_RECV_LSB];
              br = inst_payload_i[TINYTPU_RUN_B_RECV_LSB];
              runs_q <= runs_q + 32'd1;
              fault_q <= 1'b1;
              if (fld(inst_payload_i, TINYTPU_RUN_M_LSB, TINYTPU_RUN_M_W) > 64'(MaxDim))
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_RUN_M_LSB));
              else if (fld(inst_payload_i, TINYTPU_RUN_K_LSB, TINYTPU_RUN_K_W) > 64'(MaxDim))
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_RUN_K_LSB));
              else if (fld(inst_payload_i, TINYTPU_RUN_N_LSB, TINYTPU_RUN_N_W) > 64'(MaxDim))
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_RUN_N_LSB));
              else if (as * WB < k)
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_RUN_A_STRIDE_LSB));
              else if (bs * WB < n)
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_RUN_B_STRIDE_LSB));
              else if (cs * WB < n)
                result_q <= fault_word(TINYTPU_FAULT_GEOMETRY, 24'(TINYTPU_RUN_C_STRIDE_LSB));
              else if (!ar && fld(inst_payload_i, TINYTPU_RUN_A_ADDR_LSB, 5) != 0)
                result_q <= fault_word(TINYTPU_FAULT_MISALIGNED, 24'd0);
              else if (!br && fld(inst_payload_i, TINYTPU_RUN_B_ADDR_LSB, 5) != 0)
                result_q <= fault_word(TINYTPU_FAULT_MISALIGNED, 24'd1);
              else if (fld(inst_payload_i, TINYTPU_RUN_C_ADDR_LSB, 5) != 0)
                result_q <= fault_word(TINYTPU_FAULT_MISALIGNED, 24'd2);
              else if (twice_q) begin
                result_q <= fault_word(TINYTPU_FAULT_ROW_TWICE, 24'(twice_tag_q));
                twice_q  <= 1'b0;
              end else begin
                fault_q    <= 1'b0;
                a_addr_q   <= AddrW'(fld(inst_payload_i, TINYTPU_RUN_A_ADDR_LSB, TINYTPU_RUN_A_ADDR_W));
                b_addr_q   <= AddrW'(fld(inst_payload_i, TINYTPU_RUN_B_ADDR_LSB, TINYTPU_RUN_B_ADDR_W));
                c_addr_q   <= AddrW'(fld(inst_payload_i, TINYTPU_RUN_C_ADDR_LSB, TINYTPU_RUN_C_ADDR_W));
                a_stride_q <= 12'(as);
                b_stride_q <= 12'(bs);
                c_stride_q <= 12'(cs);
                m_q        <= DimW'(m);
                k_q        <= DimW'(k);
                n_q        <= DimW'(n);
                a_recv_q   <= ar;
                b_recv_q   <= br;
                a_words_q  <= words_of(DimW'(k));
                b_words_q  <= words_of(DimW'(n));
                issue_op_q <= ar ? (br ? 2'd2 : 2'd1) : 2'd0;
                issue_row_q <= '0;
                c_touched_q <= '0;
                c_partial_q <= '0;
                c_words_q   <= '0;
                state_q     <= SRunIssue;
              end
            end else begin
              fault_q  <= 1'b1;
              result_q <= fault_word(TINYTPU_FAULT_UNKNOWN_OPCODE, 24'(op));
            end
          end
        end

        SLoadIssue: begin
          // One round: full entries as one stream, a partial last entry as another.
          if (send_free && !send_q) begin
            logic [15:0] left, round, full;
            left  = load_mesh_words_q - load_next_q;
            round = (32'(left) > OwnN * EntryW) ? 16'(OwnN * EntryW) : left;
            full  = round / EntryW;
            if (full != 0 && !issue_data_q) begin
              send_q      <= 1'b1;
              send_flit_q <= stream_req(a_addr_q + AddrW'(32'(load_next_q) * WB), 8'(full), 3'(EntryW),
                                        8'(OwnFirst), 2'd0, 24'd0);
              expect_q    <= expect_q + full * EntryW;
              load_base_q <= load_next_q;
              issue_data_q <= 1'b1;  // the partial entry, if any, next
              if (round == full * EntryW) begin
                load_next_q  <= load_next_q + round;
                issue_data_q <= 1'b0;
                state_q      <= SLoadWait;
              end
            end else begin
              send_q      <= 1'b1;
              send_flit_q <= stream_req(a_addr_q + AddrW'(32'(load_next_q + full * EntryW) * WB), 8'd1,
                                        3'(round - full * EntryW), 8'(32'(OwnFirst) + 32'(full)), 2'd0, 24'd0);
              expect_q    <= expect_q + (round - full * EntryW);
              if (full == 0) load_base_q <= load_next_q;
              load_next_q  <= load_next_q + round;
              issue_data_q <= 1'b0;
              state_q      <= SLoadWait;
            end
          end
        end

        SLoadWait: begin
          if (expect_q == 0 && !(own_word)) begin
            if (mem_fault_q) begin
              fault_q  <= 1'b1;
              result_q <= fault_word(TINYTPU_FAULT_MEMORY, 24'(mem_detail_q));
              state_q  <= SDone;
            end else if (load_next_q >= load_mesh_words_q) begin
              result_q <= 32'(load_words_q);
              loaded_q <= 32'(load_words_q);
              state_q  <= SDone;
            end else begin
              state_q <= SLoadIssue;
            end
          end
        end

        SRunIssue: begin
          if (send_free && !send_q) begin
            if (issue_op_q == 2'd2) begin
              core_start_q_set();
            end else begin
              logic isb;
              logic [2:0] words;
              logic [DimW-1:0] rows;
              logic [11:0] stride;
              logic [AddrW-1:0] base;
              isb    = issue_op_q == 2'd1;
              words  = isb ? b_words_q : a_words_q;
              rows   = isb ? k_q : m_q;
              stride = isb ? b_stride_q : a_stride_q;
              base   = isb ? b_addr_q : a_addr_q;
              send_q <= 1'b1;
              if (32'(stride) == 32'(words)) begin
                send_flit_q <= stream_req(base, 8'(rows), words, 8'(isb ? TINYTPU_TAG_B : TINYTPU_TAG_A),
                                          isb ? 2'(fld(inst_q, TINYTPU_RUN_B_NPEER_LSB, TINYTPU_RUN_B_NPEER_W))
                                              : 2'(fld(inst_q, TINYTPU_RUN_A_NPEER_LSB, TINYTPU_RUN_A_NPEER_W)),
                                          isb ? 24'(fld(inst_q, TINYTPU_RUN_B_PEER_LSB, TINYTPU_RUN_B_PEER_W))
                                              : 24'(fld(inst_q, TINYTPU_RUN_A_PEER_LSB, TINYTPU_RUN_A_PEER_W)));
                expect_q    <= expect_q + 16'(32'(rows) * 32'(words)) - 16'(own_word);
                issue_row_q <= '0;
                issue_op_q  <= (isb || b_recv_q) ? 2'd2 : 2'd1;
              end else begin
                send_flit_q <= stream_req(base + AddrW'(32'(issue_row_q) * 32'(stride) * WB), 8'd1, words,
                                          8'(32'(isb ? TINYTPU_TAG_B : TINYTPU_TAG_A) + 32'(issue_row_q)),
                                          isb ? 2'(fld(inst_q, TINYTPU_RUN_B_NPEER_LSB, TINYTPU_RUN_B_NPEER_W))
                                              : 2'(fld(inst_q, TINYTPU_RUN_A_NPEER_LSB, TINYTPU_RUN_A_NPEER_W)),
                                          isb ? 24'(fld(inst_q, TINYTPU_RUN_B_PEER_LSB, TINYTPU_RUN_B_PEER_W))
                                              : 24'(fld(inst_q, TINYTPU_RUN_A_PEER_LSB, TINYTPU_RUN_A_PEER_W)));
                expect_q    <= expect_q + 16'(words) - 16'(own_word);
                if (issue_row_q + 1'b1 == rows) begin
                  issue_row_q <= '0;
                  issue_op_q  <= (isb || b_recv_q) ? 2'd2 : 2'd1;
                end else begin
                  issue_row_q <= issue_row_q + 1'b1;
                end
              end
            end
          end
        end

        SRunCore: begin
          // Writes flush as they complete; a memory fault ends the RUN.
          if (flush_valid && send_free && !issue_data_q) begin
            send_q       <= 1'b1;
            send_flit_q  <= write_req(flush_out[W +: AddrW]);
            issue_word_q <= flush_out[W-1:0];
            issue_data_q <= 1'b1;
            acks_q       <= acks_q + 16'd1 - 16'(is_ack && acks_q != 0);
          end else if (issue_data_q && send_free) begin
            send_q       <= 1'b1;
            send_flit_q  <= write_data(issue_word_q);
            issue_data_q <= 1'b0;
          end
          if (mem_fault_q && expect_q == 0) begin
            core_rst_nq <= 1'b0;
            fault_q     <= 1'b1;
            result_q    <= fault_word(TINYTPU_FAULT_MEMORY, 24'(mem_detail_q));
            state_q     <= SRunDrain;
          end else if (core_fault != '0) begin
            core_rst_nq <= 1'b0;
            fault_q     <= 1'b1;
            result_q    <= fault_word(TINYTPU_FAULT_CORE,
                                      {core_fault_pc, core_fault_unit, core_fault});
            state_q     <= SRunDrain;
          end else if (core_done && !core_busy && !s2_q && expect_q == 0 && wr_acks_q == 0) begin
            state_q <= SRunDrain;
          end
        end

        SRunDrain: begin
          // Every whole word out, every write answered; then the partial words.
          if (flush_valid && send_free && !issue_data_q && !fault_q) begin
            send_q       <= 1'b1;
            send_flit_q  <= write_req(flush_out[W +: AddrW]);
            issue_word_q <= flush_out[W-1:0];
            issue_data_q <= 1'b1;
            acks_q       <= acks_q + 16'd1 - 16'(is_ack && acks_q != 0);
          end else if (issue_data_q && send_free) begin
            send_q       <= 1'b1;
            send_flit_q  <= write_data(issue_word_q);
            issue_data_q <= 1'b0;
          end else if ((!flush_valid || fault_q) && !issue_data_q && !send_q && acks_q == 0 && expect_q == 0) begin
            state_q <= fault_q ? SDone : SMergeFind;
          end
        end

        SMergeFind: begin
          if (mem_fault_q) begin
            fault_q  <= 1'b1;
            result_q <= fault_word(TINYTPU_FAULT_MEMORY, 24'(mem_detail_q));
            state_q  <= SDone;
          end else if (!mg_found) begin
            result_q <= c_words_q;
            state_q  <= SDone;
          end else begin
            mg_row_q  <= mg_row;
            mg_col_q  <= mg_col;
            mg_have_q <= 1'b0;
            state_q   <= SMergeRead;
          end
        end

        SMergeRead: begin
          // Send the word's read; its {mask, data} comes from the C RAM meanwhile.
          if (send_free && !send_q) begin
            send_q      <= 1'b1;
            send_flit_q <= plain_read(c_addr_q + AddrW'(32'(mg_row_q) * 32'(c_stride_q) * WB) +
                                      AddrW'(32'(mg_col_q) * WB), 8'(OwnFirst));
            expect_q    <= expect_q + 16'd1;
            state_q     <= SMergeWait;
          end
        end

        SMergeWait: begin
          if (!mg_have_q) begin
            mg_q      <= c_rdata;
            mg_have_q <= 1'b1;
          end
          if (is_resp && rx_own) begin
            for (int b = 0; b < WB; b++)
              if (!mg_q[W + b]) mg_q[8*b +: 8] <= recv_flit_i[8*b +: 8];
            state_q <= SMergeWrite;
          end else if (mem_fault_q && expect_q == 0) begin
            fault_q  <= 1'b1;
            result_q <= fault_word(TINYTPU_FAULT_MEMORY, 24'(mem_detail_q));
            state_q  <= SDone;
          end
        end

        SMergeWrite: begin
          if (send_free && !send_q && !issue_data_q) begin
            send_q       <= 1'b1;
            send_flit_q  <= write_req(c_addr_q + AddrW'(32'(mg_row_q) * 32'(c_stride_q) * WB) +
                                      AddrW'(32'(mg_col_q) * WB));
            issue_word_q <= mg_q[W-1:0];
            issue_data_q <= 1'b1;
            acks_q       <= acks_q + 16'd1 - 16'(is_ack && acks_q != 0);
          end else if (issue_data_q && send_free) begin
            send_q       <= 1'b1;
            send_flit_q  <= write_data(issue_word_q);
            issue_data_q <= 1'b0;
            c_partial_q[mg_row_q][mg_col_q] <= 1'b0;
            state_q      <= SRunAcks;
          end
        end

        SRunAcks: begin
          if (!send_q && acks_q == 0) state_q <= SMergeFind;
        end

        SDone: begin
          state_q <= SIdle;
          if (fault_q) last_fault_q <= result_q;
          // A RUN's rows are used: clear their arrival (the next RUN's rows may come any time after).
          if (inst_q[TINYTPU_OP_LSB +: TINYTPU_OP_W] == TINYTPU_OP_RUN) begin
            for (int r = 0; r < MaxDim; r++)
              for (int w = 0; w < RowWords; w++) begin
                if (r < 32'(m_q)) a_arrived_q[r*RowWords + w] <= 1'b0;
                if (r < 32'(k_q)) b_arrived_q[r*RowWords + w] <= 1'b0;
              end
          end
        end

        default: state_q <= SIdle;
      endcase
    end
  end
  // A MEM_RD_RESP to the merge read lands in the RAM read's cycle: hold the
  // RAM's answer for the merge (the read is of the word found).
  assign c_re_merge = 1'b0;

endmodule
