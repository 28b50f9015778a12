// tpu_noc_tinytpu_unit: the TinyTPU-isa core as a compute unit, the
// datapath behind tpu_noc_cu_base (spec/compute_units.yaml, unit tinytpu;
// docs/compute_units.md). It executes the unit's CU_INST opcodes:
//
//   LOAD   the program image into imem by MEM_RD_REQ streams of one-word
//          entries, tagged from the `own` range: one request a round of
//          the tags (the whole image, unless it is larger than the range).
//   RUN    A's m rows and B's k rows by MEM_RD_REQ streams tagged A + row and
//          B + row, in the order the unit's GEMM program reads them, the
//          first word column first: word 0 of B's first T rows, of A's
//          rows, of the rest of B's, then the other words of A's rows and
//          of B's (each one strided stream, a row an entry; the peers of
//          a_peer / b_peer copied into each), unless a_recv / b_recv says a
//          peer's multicast brings them. Where a peer brings A, the rest of
//          B's first words wait for A's first words and B's other words for
//          all of A (A's reader is then another unit at another agent port,
//          and the core needs A first: on the memory they share, A's words
//          go first); the core starts at
//          once, and an operand read of a row that has not arrived waits for
//          it (bytes outside the block read as zeros). The core's C writes
//          are merged into whole 32-byte words (a byte mask a word); the
//          words stored in full leave while the core runs, consecutive ones
//          (along a row, on into the next where C's rows are packed) as one
//          MEM_WR_REQ burst of at most MEM_WRITE_BEATS words, their data
//          read from C in cycles the core's writes leave the RAM free; when
//          the core is done, every word stored only in part is read, merged
//          and written back. The RUN retires once every write is acknowledged.
//   STATUS one of the unit's counters.
//
// Faults (exec_fault with {code, detail}): UNKNOWN_OPCODE, MISALIGNED,
// GEOMETRY, MEMORY (an ERROR flit answered a request of the unit; the
// instruction ends once nothing of its own is outstanding, the core reset),
// CORE (the core's fault, pc and unit), ROW_TWICE (a multicast row came a
// second time before a RUN used it), ROWS_MISSING, NO_PROGRAM (a RUN before
// a LOAD retired: imem is a RAM without reset).
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
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // instructions from the wrapper, one at a time, in order
  input  logic                              inst_valid_i,
  output logic                              inst_ready_o,
  input  logic [tpu_noc_pkg::PAYLOAD_W-1:0] inst_payload_i,
  input  logic [tpu_noc_pkg::TXN_W-1:0]     inst_txn_i,
  output logic                              exec_done_o,
  output logic [tpu_noc_pkg::CU_SIGNAL_ARG_W-1:0]  exec_result_o,
  output logic                              exec_fault_o,
  // the unit's own traffic from the mesh (always drained)
  input  logic                              recv_valid_i,
  output logic                              recv_ready_o,
  input  logic [tpu_noc_pkg::FLIT_W-1:0]    recv_flit_i,
  // its requests to the mesh
  output logic                              send_valid_o,
  input  logic                              send_ready_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0]    send_flit_o,
  // CU_DATA writes into its buffers
  input  logic                              data_we_i,
  input  logic [tpu_noc_pkg::CU_DATA_BUF_ID_W-1:0] data_buf_i,
  input  logic [tpu_noc_pkg::CU_DATA_OFFSET_W-1:0] data_granule_i,
  input  logic [tpu_noc_pkg::PAYLOAD_W-1:0] data_word_i,
  // status for the wrapper's CU_CTRL registers
  output logic                              busy_o,
  output logic [tpu_noc_pkg::CU_CTRL_VALUE_W-1:0]  counters_o,
  output logic [tpu_noc_pkg::CU_CTRL_VALUE_W-1:0]  dbg_o
);

  localparam int W        = tpu_noc_pkg::PAYLOAD_W;  // a word: one flit's payload
  localparam int WB       = W / 8;                   // its bytes
  localparam int FW       = tpu_noc_pkg::FLIT_W;
  localparam int AddrW    = tpu_noc_pkg::ADDR_W;
  localparam int MaxDim   = tpu_cu_pkg::TINYTPU_MAXDIM;
  localparam int RowWords = tpu_cu_pkg::TINYTPU_ROW_WORDS;
  localparam int BufWords = MaxDim * RowWords;
  localparam int BufAW    = $clog2(BufWords);
  localparam int T        = tpu_cu_pkg::TINYTPU_T;
  localparam int RdBytes  = tpu_cu_pkg::TINYTPU_DMA_WORDS * T;  // an operand read
  localparam int ImemPerW = W / 64;                   // 64-bit imem words a mesh word
  localparam int ImemRows = (tpu_cu_pkg::TINYTPU_IMEM_SIZE + ImemPerW - 1) / ImemPerW;
  localparam int ImemAW   = (ImemRows > 1) ? $clog2(ImemRows) : 1;
  localparam int OffW     = tpu_cu_pkg::TINYTPU_OFF_W;
  localparam int ProdW    = OffW + tpu_cu_pkg::TINYTPU_RECIP_W;
  localparam int DimW     = $clog2(MaxDim + 1);
  localparam int TagA     = tpu_cu_pkg::TINYTPU_TAG_A;
  localparam int TagB     = tpu_cu_pkg::TINYTPU_TAG_B;
  localparam int OwnFirst = tpu_cu_pkg::TINYTPU_TAG_OWN;
  localparam int OwnN     = tpu_cu_pkg::TINYTPU_TAG_OWN_N;
  localparam int DetailW  = tpu_cu_pkg::FAULT_DETAIL_W;   // a fault result's detail
  localparam int WaitW    = $clog2(tpu_cu_pkg::WAIT_LIMIT + 1);
  localparam int OpLsb    = tpu_cu_pkg::TINYTPU_OP_LSB;
  localparam int OpW      = tpu_cu_pkg::TINYTPU_OP_W;
  // Widths of the flit fields and RUN operands the unit builds and reads.
  localparam int TypeW    = tpu_noc_pkg::TYPE_W;
  localparam int TxnW     = tpu_noc_pkg::TXN_W;
  localparam int RuleW    = tpu_noc_pkg::ERROR_RULE_W;
  localparam int CountW   = tpu_noc_pkg::MEM_REQ_COUNT_W;      // a stream's entries
  localparam int LoadRound = (OwnN < (1 << CountW) - 1) ? OwnN : (1 << CountW) - 1;  // a LOAD request's words
  localparam int NPeerW   = tpu_noc_pkg::MEM_REQ_N_PEER_W;
  localparam int PeersW   = tpu_cu_pkg::TINYTPU_RUN_A_PEER_W;  // a RUN's peer list (A's and B's alike)
  localparam int StrideW  = tpu_cu_pkg::TINYTPU_RUN_A_STRIDE_W;  // a row stride (A's, B's and C's alike)
  localparam int LoadW    = tpu_cu_pkg::TINYTPU_LOAD_WORDS_W;  // a LOAD's imem words
  localparam int WordsW   = $clog2(RowWords + 1);                // 32-byte words of a row, 0 .. ROW_WORDS
  localparam int BufIdW   = tpu_noc_pkg::CU_DATA_BUF_ID_W;

  // ---------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------
  function automatic logic [63:0] fld(input logic [W-1:0] p, input int lsb, input int w);
    fld = (w >= 64) ? 64'(p >> lsb) : (64'(p >> lsb) & ((64'd1 << w) - 64'd1));
  endfunction

  function automatic logic [31:0] fault_word(input logic [7:0] code,
                                             input logic [DetailW-1:0] detail);
    fault_word = (32'(code) << tpu_cu_pkg::FAULT_CODE_LSB) |
                 (32'(detail) & ((32'd1 << tpu_cu_pkg::FAULT_CODE_LSB) - 32'd1));
  endfunction

  // One part of a fault's detail: the low w bits of v at bit lsb (the
  // spec's detail layout, tpu_cu_pkg::TINYTPU_FAULT_<fault>_<part>_LSB/_W).
  function automatic logic [DetailW-1:0] detail_part(input logic [31:0] v, input int lsb,
                                                     input int w);
    detail_part = DetailW'((v & ((32'd1 << w) - 32'd1)) << lsb);
  endfunction

  // GEOMETRY: the offending field's offset in the payload.
  function automatic logic [31:0] geometry_fault(input int field_lsb);
    geometry_fault = fault_word(tpu_cu_pkg::TINYTPU_FAULT_GEOMETRY, detail_part(32'(field_lsb), 0, DetailW));
  endfunction

  // MEMORY's detail: the ERROR's rule and the low bits of its txn.
  function automatic logic [DetailW-1:0] memory_detail(input logic [TxnW-1:0] txn,
                                                       input logic [RuleW-1:0] rule);
    memory_detail = detail_part(32'(rule), tpu_cu_pkg::TINYTPU_FAULT_MEMORY_RULE_LSB,
                                tpu_cu_pkg::TINYTPU_FAULT_MEMORY_RULE_W) |
                    detail_part(32'(txn), tpu_cu_pkg::TINYTPU_FAULT_MEMORY_TXN_LSB,
                                tpu_cu_pkg::TINYTPU_FAULT_MEMORY_TXN_W);
  endfunction

  // CORE's detail: the core's fault_o, fault_unit_o and fault_pc_o.
  function automatic logic [DetailW-1:0] core_detail(input logic [31:0] code, input logic [31:0] unit,
                                                     input logic [31:0] pc);
    core_detail = detail_part(code, tpu_cu_pkg::TINYTPU_FAULT_CORE_CODE_LSB, tpu_cu_pkg::TINYTPU_FAULT_CORE_CODE_W) |
                  detail_part(unit, tpu_cu_pkg::TINYTPU_FAULT_CORE_UNIT_LSB, tpu_cu_pkg::TINYTPU_FAULT_CORE_UNIT_W) |
                  detail_part(pc, tpu_cu_pkg::TINYTPU_FAULT_CORE_PC_LSB, tpu_cu_pkg::TINYTPU_FAULT_CORE_PC_W);
  endfunction

  function automatic logic [DimW-1:0] dim(input logic [63:0] raw);
    dim = (raw == 64'd0) ? DimW'(MaxDim) : DimW'(raw);
  endfunction

  // 32-byte words that `bytes` bytes of a row take.
  function automatic logic [WordsW-1:0] words_of(input logic [DimW-1:0] bytes);
    words_of = WordsW'((32'(bytes) + WB - 1) / WB);
  endfunction

  // A byte offset in the core's MAXDIM x MAXDIM matrix: its row, by the reciprocal.
  function automatic logic [DimW-1:0] row_of(input logic [OffW-1:0] off);
    logic [ProdW-1:0] p;
    p = ProdW'(off) * ProdW'(tpu_cu_pkg::TINYTPU_ROW_RECIP);
    row_of = DimW'(p >> tpu_cu_pkg::TINYTPU_ROW_SHIFT);
  endfunction

  function automatic logic [FW-1:0] header(input logic [TypeW-1:0] typ, input logic [TxnW-1:0] txn);
    logic [FW-1:0] h;
    h = '0;
    h[tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W] = tpu_noc_pkg::DST_X_W'(AgentX);
    h[tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W] = tpu_noc_pkg::DST_Y_W'(AgentY);
    h[tpu_noc_pkg::SRC_X_LSB +: tpu_noc_pkg::SRC_X_W] = tpu_noc_pkg::SRC_X_W'(X);
    h[tpu_noc_pkg::SRC_Y_LSB +: tpu_noc_pkg::SRC_Y_W] = tpu_noc_pkg::SRC_Y_W'(Y);
    h[tpu_noc_pkg::TYPE_LSB +: tpu_noc_pkg::TYPE_W]   = typ;
    h[tpu_noc_pkg::TXN_LSB +: tpu_noc_pkg::TXN_W]     = txn;
    h[tpu_noc_pkg::LAST_LSB]                          = 1'b1;
    header = h;
  endfunction

  // A stream read: `count` entries of `words` words from `addr`, `stride`
  // words apart (0: consecutive), their words numbered from `first` (the
  // entry's place in its row), to the requester and the peers (the
  // instruction's {y, x} elements, copied by sub-field into the descriptor's).
  function automatic logic [FW-1:0] stream_req(input logic [AddrW-1:0] addr, input logic [CountW-1:0] count,
                                               input logic [WordsW-1:0] words, input logic [StrideW-1:0] stride,
                                               input logic [WordsW-1:0] first, input logic [TxnW-1:0] txn,
                                               input logic [NPeerW-1:0] npeer, input logic [PeersW-1:0] peers);
    logic [FW-1:0] f;
    f = header(tpu_noc_pkg::TYPE_MEM_RD_REQ, txn);
    f[tpu_noc_pkg::MEM_REQ_ENTRY_STRIDE_LSB +: tpu_noc_pkg::MEM_REQ_ENTRY_STRIDE_W] =
        tpu_noc_pkg::MEM_REQ_ENTRY_STRIDE_W'(stride);
    f[tpu_noc_pkg::MEM_REQ_FIRST_WORD_LSB +: tpu_noc_pkg::MEM_REQ_FIRST_WORD_W] =
        tpu_noc_pkg::MEM_REQ_FIRST_WORD_W'(first);
    f[tpu_noc_pkg::MEM_REQ_ADDR_LSB +: AddrW] = addr;
    f[tpu_noc_pkg::MEM_REQ_FLAGS_LSB + tpu_noc_pkg::MEM_REQ_FLAGS_STREAM_BIT] = 1'b1;
    f[tpu_noc_pkg::MEM_REQ_COUNT_LSB +: tpu_noc_pkg::MEM_REQ_COUNT_W] = count;
    f[tpu_noc_pkg::MEM_REQ_ENTRY_WORDS_LSB +: tpu_noc_pkg::MEM_REQ_ENTRY_WORDS_W] =
        tpu_noc_pkg::MEM_REQ_ENTRY_WORDS_W'(words);
    f[tpu_noc_pkg::MEM_REQ_N_PEER_LSB +: tpu_noc_pkg::MEM_REQ_N_PEER_W] = npeer;
    for (int i = 0; i < tpu_noc_pkg::MEM_REQ_PEER_N; i++) begin
      f[tpu_noc_pkg::MEM_REQ_PEER_LSB + i*tpu_noc_pkg::MEM_REQ_PEER_ELEM_W + tpu_noc_pkg::MEM_REQ_PEER_X_LSB +:
        tpu_noc_pkg::MEM_REQ_PEER_X_W] =
          peers[i*tpu_cu_pkg::TINYTPU_RUN_A_PEER_W/tpu_cu_pkg::TINYTPU_RUN_A_PEER_N +
                tpu_cu_pkg::TINYTPU_RUN_A_PEER_X_LSB +: tpu_noc_pkg::MEM_REQ_PEER_X_W];
      f[tpu_noc_pkg::MEM_REQ_PEER_LSB + i*tpu_noc_pkg::MEM_REQ_PEER_ELEM_W + tpu_noc_pkg::MEM_REQ_PEER_Y_LSB +:
        tpu_noc_pkg::MEM_REQ_PEER_Y_W] =
          peers[i*tpu_cu_pkg::TINYTPU_RUN_A_PEER_W/tpu_cu_pkg::TINYTPU_RUN_A_PEER_N +
                tpu_cu_pkg::TINYTPU_RUN_A_PEER_Y_LSB +: tpu_noc_pkg::MEM_REQ_PEER_Y_W];
    end
    stream_req = f;
  endfunction

  function automatic logic [FW-1:0] plain_read(input logic [AddrW-1:0] addr, input logic [TxnW-1:0] txn);
    logic [FW-1:0] f;
    f = header(tpu_noc_pkg::TYPE_MEM_RD_REQ, txn);
    f[tpu_noc_pkg::MEM_REQ_ADDR_LSB +: AddrW] = addr;  // len 0: one word
    plain_read = f;
  endfunction

  // A write of `beats` words from `addr` (acknowledgements are counted, not matched).
  function automatic logic [FW-1:0] write_req(input logic [AddrW-1:0] addr, input int beats);
    logic [FW-1:0] f;
    f = header(tpu_noc_pkg::TYPE_MEM_WR_REQ, 8'd0);
    f[tpu_noc_pkg::MEM_REQ_ADDR_LSB +: AddrW] = addr;
    f[tpu_noc_pkg::MEM_REQ_LEN_LSB +: tpu_noc_pkg::MEM_REQ_LEN_W] = tpu_noc_pkg::MEM_REQ_LEN_W'(beats - 1);
    write_req = f;
  endfunction

  // One of its words, `last` on the final one.
  function automatic logic [FW-1:0] write_data(input logic [W-1:0] word, input logic last);
    logic [FW-1:0] f;
    f = header(tpu_noc_pkg::TYPE_MEM_WR_DATA, 8'd0);
    f[tpu_noc_pkg::LAST_LSB] = last;
    f[W-1:0] = word;
    write_data = f;
  endfunction

  // A C word's buffer index, and the word after it in memory within a
  // burst: along the row's whole words, then the next row's first.
  function automatic logic [BufAW-1:0] c_index(input logic [DimW-1:0] r, input logic [BufAW-1:0] w);
    c_index = BufAW'(32'(r) * RowWords + 32'(w));
  endfunction

  function automatic logic [DimW+BufAW-1:0] c_after(input logic [DimW-1:0] r, input logic [BufAW-1:0] w,
                                                    input logic [DimW-1:0] full_words);
    c_after = (32'(w) + 1 < 32'(full_words)) ? {r, w + 1'b1} : {r + 1'b1, BufAW'(0)};
  endfunction

  // RUN's reads come in the order the unit's GEMM program reads them
  // (interleave_loads in gen/isa/programs.cpp), its first word column
  // first (the first four k-tiles of A, the first four column blocks of B):
  //   0 word 0 of B's first T rows   1 word 0 of A's rows
  //   2 word 0 of the rest of B's    3 the other words of A's rows
  //   4 the other words of B's rows  5 none left
  // Each phase is one stream, a row an entry (entry_stride the row stride,
  // first_word the entry's first word in its row). A phase is skipped when
  // a peer brings its operand or it has no words. b_head: the rows of phase 0.
  localparam logic [2:0] PhNone = 3'd5;
  function automatic logic [DimW-1:0] b_head(input logic [DimW-1:0] k);
    b_head = (32'(k) < T) ? k : DimW'(T);
  endfunction

  function automatic logic phase_b(input logic [2:0] p);
    phase_b = p == 3'd0 || p == 3'd2 || p == 3'd4;
  endfunction

  // A phase's rows [first, end).
  function automatic logic [DimW-1:0] phase_first(input logic [2:0] p, input logic [DimW-1:0] k);
    phase_first = (p == 3'd2) ? b_head(k) : '0;
  endfunction

  function automatic logic [DimW-1:0] phase_end(input logic [2:0] p, input logic [DimW-1:0] m,
                                                input logic [DimW-1:0] k);
    phase_end = (p == 3'd0) ? b_head(k) : (phase_b(p) ? k : m);
  endfunction

  // Its entries' first word in the row (word 0 in phases 0 .. 2, word 1 in 3 and 4), and their words.
  function automatic logic [WordsW-1:0] phase_word0(input logic [2:0] p);
    phase_word0 = (p < 3'd3) ? '0 : WordsW'(1);
  endfunction

  function automatic logic [WordsW-1:0] phase_words(input logic [2:0] p, input logic [WordsW-1:0] row_words);
    phase_words = (p < 3'd3) ? WordsW'(1) : row_words - WordsW'(1);
  endfunction

  // Its words in all: rows x words an entry (aw A's words a row, bw B's).
  function automatic logic [15:0] phase_total(input logic [2:0] p, input logic [DimW-1:0] m, input logic [DimW-1:0] k,
                                              input logic [WordsW-1:0] aw, input logic [WordsW-1:0] bw);
    phase_total = 16'((32'(phase_end(p, m, k)) - 32'(phase_first(p, k))) *
                      32'(phase_words(p, phase_b(p) ? bw : aw)));
  endfunction

  function automatic logic [2:0] run_phase(input logic [2:0] from, input logic ar, input logic br,
                                           input logic [DimW-1:0] m, input logic [DimW-1:0] k,
                                           input logic [WordsW-1:0] aw, input logic [WordsW-1:0] bw);
    run_phase = PhNone;
    for (int p = 4; p >= 0; p--)
      if (p >= 32'(from) && !(phase_b(3'(p)) ? br : ar) && phase_first(3'(p), k) < phase_end(3'(p), m, k) &&
          phase_words(3'(p), phase_b(3'(p)) ? bw : aw) != '0)
        run_phase = 3'(p);
  endfunction

  // The first set bit of a row-major word map, and whether there is one.
  function automatic logic [BufAW:0] first_word(input logic [BufWords-1:0] map);
    first_word = '0;
    for (int i = BufWords - 1; i >= 0; i--)
      if (map[i]) first_word = {1'b1, BufAW'(i)};
  endfunction

  // ---------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------
  typedef enum logic [3:0] {
    SIdle, SDone, SLoadIssue, SLoadWait, SRunIssue, SRunCore, SRunDrain, SMergeFind, SMergeRead, SMergeWait,
    SMergeWrite, SMergeAck
  } state_e;
  state_e state_q;

  logic [W-1:0]     inst_q;
  logic [31:0]      result_q;
  logic             fault_q, done_q;
  logic [31:0]      runs_q, last_fault_q, loaded_q;
  logic             program_q;  // imem holds a program: a LOAD retired, or CU_DATA wrote it

  // The current instruction's operands, resolved (zero means as the spec says).
  logic [AddrW-1:0] a_addr_q, b_addr_q, c_addr_q;
  logic [StrideW-1:0] a_stride_q, b_stride_q, c_stride_q;
  logic [DimW-1:0]  m_q, k_q, n_q;
  logic             a_recv_q, b_recv_q, run_used_q;
  logic [WordsW-1:0] a_words_q, b_words_q;   // 32-byte words a row of the block: A (k bytes), B (n bytes)

  // Counters of the instruction's own traffic.
  logic [15:0]      expect_q;  // words of its reads still to come
  logic [15:0]      acks_q;    // its writes not yet answered
  logic             mem_fault_q;
  logic [DetailW-1:0] mem_detail_q;
  logic [WaitW-1:0] wait_q;

  // LOAD: the image's mesh words, the next to request, the round's first and its shape.
  logic [LoadW-1:0] load_words_q, load_mesh_q, load_next_q, load_base_q, load_round_q;

  // RUN's issue: the phase (run_phase).
  logic [2:0]       issue_op_q;
  logic             core_start_q, core_seen_q;

  // The one flit register toward the wrapper, and a write's data flit owed.
  logic             send_q;
  logic [FW-1:0]    send_flit_q;
  logic             data_owed_q;
  logic [W-1:0]     data_word_q;
  logic             send_free;
  assign send_valid_o = send_q;
  assign send_flit_o  = send_flit_q;
  assign send_free    = !send_q || send_ready_i;

  // ---------------------------------------------------------------------
  // Buffers
  // ---------------------------------------------------------------------
  logic              imem_we, imem_re;
  logic [ImemAW-1:0] imem_waddr, imem_raddr;
  logic [W-1:0]      imem_wdata, imem_rdata;
  tpu_ram_1r1w #(.Width(W), .Depth(ImemRows)) u_imem (
    .clk_i,
    .we_i   (imem_we),
    .waddr_i(imem_waddr),
    .wdata_i(imem_wdata),
    .re_i   (imem_re),
    .raddr_i(imem_raddr),
    .rdata_o(imem_rdata)
  );

  logic [1:0]        ab_we;  // [0] A, [1] B
  logic [BufAW-1:0]  ab_waddr, ab_raddr;
  logic [W-1:0]      ab_wdata, a_rdata, b_rdata;
  logic              ab_re, ab_rsel;
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
  logic [TxnW-1:0]     twice_tag_q;

  // C: {byte mask, data} a word.
  logic             c_we, c_re;
  logic [BufAW-1:0] c_waddr, c_raddr;
  logic [W+WB-1:0]  c_wdata, c_rdata;
  tpu_ram_1r1w #(.Width(W + WB), .Depth(BufWords)) u_c (
    .clk_i,
    .we_i   (c_we),
    .waddr_i(c_waddr),
    .wdata_i(c_wdata),
    .re_i   (c_re),
    .raddr_i(c_raddr),
    .rdata_o(c_rdata)
  );
  logic [BufWords-1:0]             c_touched_q;  // stored into in this RUN
  logic [BufWords-1:0]             c_partial_q;  // stored into in part and not yet written, row-major
  logic [31:0]                     c_words_q;    // words stored into: the RUN's result

  // ---------------------------------------------------------------------
  // The core
  // ---------------------------------------------------------------------
  logic        core_rst_nq;
  logic        core_busy, core_done;
  logic [tpu_pkg::FAULT_W-1:0]    core_fault;
  logic [tpu_pkg::FAULT_PC_W-1:0] core_fault_pc;
  logic [tpu_pkg::UNIT_W-1:0]     core_fault_unit;
  logic        imem_req_valid, imem_rsp_valid_q;
  logic [15:0] imem_req_addr;
  logic        rd_req_valid, rd_req_ready, rd_req_sel, rd_rsp_valid, rd_rsp_ready;
  logic [31:0] rd_req_addr;
  logic [RdBytes*8-1:0] rd_rsp_data;
  logic        wr_req_valid, wr_req_ready, wr_rsp_valid, wr_rsp_ready;
  logic [31:0] wr_req_addr;
  logic [T*8-1:0] wr_req_data;
  logic [T-1:0]   wr_req_strb;
  // What the unit does not read of the core (its imem answers are always taken).
  logic [tpu_pkg::NHDR*tpu_pkg::WORD_W-1:0]        core_header;
  logic [31:0]                                     core_cycles;
  logic [tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W-1:0] core_progress;
  logic                                            core_imem_rsp_ready;

  tpu_top #(
    .ImemBeat(4),
    .CBeat   (1),
    // The unit's own limit on a peer's rows comes first (ROWS_MISSING).
    .Watchdog(2 * tpu_cu_pkg::WAIT_LIMIT)
  ) u_core (
    .clk_i,
    .rst_ni             (core_rst_nq),
    .start_i            (core_start_q),
    .busy_o             (core_busy),
    .done_o             (core_done),
    .fault_o            (core_fault),
    .fault_pc_o         (core_fault_pc),
    .fault_unit_o       (core_fault_unit),
    .header_o           (core_header),
    .cycles_o           (core_cycles),
    .progress_o         (core_progress),
    .imem_req_valid_o   (imem_req_valid),
    .imem_req_ready_i   (1'b1),
    .imem_req_addr_o    (imem_req_addr),
    .imem_rsp_valid_i   (imem_rsp_valid_q),
    .imem_rsp_ready_o   (core_imem_rsp_ready),
    .imem_rsp_data_i    (imem_rdata),
    .dram_rd_req_valid_o(rd_req_valid),
    .dram_rd_req_ready_i(rd_req_ready),
    .dram_rd_req_sel_o  (rd_req_sel),
    .dram_rd_req_addr_o (rd_req_addr),
    .dram_rd_rsp_valid_i(rd_rsp_valid),
    .dram_rd_rsp_ready_o(rd_rsp_ready),
    .dram_rd_rsp_data_i (rd_rsp_data),
    .dram_wr_req_valid_o(wr_req_valid),
    .dram_wr_req_ready_i(wr_req_ready),
    .dram_wr_req_addr_o (wr_req_addr),
    .dram_wr_req_data_o (wr_req_data),
    .dram_wr_req_strb_o (wr_req_strb),
    .dram_wr_rsp_valid_i(wr_rsp_valid),
    .dram_wr_rsp_ready_o(wr_rsp_ready)
  );

  // imem: a beat of four words is one row, answered in the next cycle
  // (the core's imem response is always ready).
  assign imem_re    = imem_req_valid;
  assign imem_raddr = ImemAW'(imem_req_addr >> 2);

  // ---------------------------------------------------------------------
  // Operand reads: wait for the word, zeros outside the block
  // ---------------------------------------------------------------------
  logic [DimW-1:0]  rd_row;
  logic [OffW-1:0]  rd_col;
  logic [BufAW-1:0] rd_word;
  logic             rd_inside, rd_have;
  assign rd_row    = row_of(rd_req_addr[OffW-1:0]);
  assign rd_col    = rd_req_addr[OffW-1:0] - OffW'(32'(rd_row) * MaxDim);
  assign rd_word   = BufAW'(32'(rd_row) * RowWords + 32'(rd_col) / WB);
  // Only the block's words arrive: a read past its last column (a dma_ld
  // of a whole MAXDIM row on a narrow block) is zeros, not a wait.
  assign rd_inside = rd_req_sel ? (rd_row < k_q && 32'(rd_col) < 32'(n_q))
                                : (rd_row < m_q && 32'(rd_col) < 32'(k_q));
  assign rd_have   = !rd_inside || (rd_req_sel ? b_arrived_q[rd_word] : a_arrived_q[rd_word]);

  // A read taken in cycle j is in the RAM stage in j+1 and in the FIFO in
  // j+2: three places let the core take a word every cycle.
  localparam int RspDepth = 3;
  logic                          rd_s_q, rd_s_sel_q, rd_s_inside_q;
  logic [OffW-1:0]               rd_s_col_q;
  logic [$clog2(RspDepth+1)-1:0] rsp_usage;
  logic [RdBytes*8-1:0]          rsp_data;
  logic                          rsp_fifo_ready;  // always: the read stage counted the room
  logic running;  // the core runs: its reads and writes are taken
  assign running      = state_q == SRunIssue || state_q == SRunCore;
  assign rd_req_ready = running && rd_have && 32'(rsp_usage) + 32'(rd_s_q) < RspDepth;
  assign ab_re        = rd_req_valid && rd_req_ready && rd_inside;
  assign ab_rsel      = rd_req_sel;
  assign ab_raddr     = rd_word;
  always_comb begin
    logic [W-1:0] word;
    word     = rd_s_sel_q ? b_rdata : a_rdata;
    rsp_data = '0;
    for (int b = 0; b < RdBytes; b++)
      if (rd_s_inside_q && 32'(rd_s_col_q) + b < (rd_s_sel_q ? 32'(n_q) : 32'(k_q)))
        rsp_data[8*b +: 8] = word[8*((32'(rd_s_col_q) % WB) + b) +: 8];
  end
  // Reset with the core: the answers of a core a fault reset are nobody's.
  tpu_fifo #(.Width(RdBytes*8), .Depth(RspDepth)) u_rd_rsp (
    .clk_i,
    .rst_ni (core_rst_nq),
    .valid_i(rd_s_q),
    .ready_o(rsp_fifo_ready),
    .data_i (rsp_data),
    .valid_o(rd_rsp_valid),
    .ready_i(rd_rsp_ready),
    .data_o (rd_rsp_data),
    .usage_o(rsp_usage)
  );

  // ---------------------------------------------------------------------
  // C writes: merged into byte-masked words, whole words written in bursts
  // ---------------------------------------------------------------------
  logic [DimW-1:0]  wr_row;
  logic [OffW-1:0]  wr_col;
  logic [BufAW-1:0] wr_word;
  logic [WB-1:0]    wr_mask;
  logic [W-1:0]     wr_bytes;
  assign wr_row  = row_of(wr_req_addr[OffW-1:0]);
  assign wr_col  = wr_req_addr[OffW-1:0] - OffW'(32'(wr_row) * MaxDim);
  assign wr_word = BufAW'(32'(wr_row) * RowWords + 32'(wr_col) / WB);
  always_comb begin
    wr_mask  = '0;
    wr_bytes = '0;
    for (int b = 0; b < T; b++)
      if (wr_req_strb[b] && wr_row < m_q && 32'(wr_col) + b < 32'(n_q)) begin
        wr_mask[(32'(wr_col) % WB) + b]             = 1'b1;
        wr_bytes[8*((32'(wr_col) % WB) + b) +: 8]   = wr_req_data[8*b +: 8];
      end
  end

  // Stage 2: the write while its word is read; forwarded from the previous write.
  logic             s2_q, s2_touched_q;
  logic [BufAW-1:0] s2_word_q;
  logic [WB-1:0]    s2_mask_q;
  logic [W-1:0]     s2_bytes_q;
  logic             fwd_q;
  logic [BufAW-1:0] fwd_word_q;
  logic [W+WB-1:0]  fwd_data_q;
  logic [W+WB-1:0]  s2_old, s2_new;
  logic             s2_full;
  always_comb begin
    s2_old = (fwd_q && fwd_word_q == s2_word_q) ? fwd_data_q : (s2_touched_q ? c_rdata : '0);
    s2_new = s2_old;
    for (int b = 0; b < WB; b++)
      if (s2_mask_q[b]) s2_new[8*b +: 8] = s2_bytes_q[8*b +: 8];
    s2_new[W +: WB] = s2_old[W +: WB] | s2_mask_q;
    s2_full = &s2_new[W +: WB];
  end

  // The C words stored in full and not yet written (once full, a word stays
  // full: a later write of it marks it again, and it is written again).
  logic [BufWords-1:0] c_ready_q;

  // The next burst: the first ready word and the ready words after it in
  // memory (along the row; into the next row's first word when C's rows are
  // packed), at most Beats. It goes out unless the word after it is being
  // filled (stored into in part): it cannot grow (Beats words, the next
  // word past the row's whole words or the block), or the next word is not
  // begun (it may come much later, or never); the drain sends the rest.
  localparam int Beats = tpu_cu_pkg::MEM_WRITE_BEATS;
  localparam int BeatW = $clog2(Beats + 1);
  logic [BufAW-1:0] wb_first;
  logic             wb_found, wb_whole;
  logic [DimW-1:0]  wb_row;
  logic [BufAW-1:0] wb_cw;
  logic [BeatW-1:0] wb_len;
  logic [DimW-1:0]  c_full_words;  // the whole 32-byte words of a block row
  logic             c_packed;      // a row's last word is followed in memory by the next row's first
  assign {wb_found, wb_first} = first_word(c_ready_q);
  assign wb_row       = DimW'(32'(wb_first) / RowWords);
  assign wb_cw        = BufAW'(32'(wb_first) % RowWords);
  assign c_full_words = DimW'(32'(n_q) / WB);
  assign c_packed     = 32'(n_q) % WB == 0 && 32'(c_stride_q) == 32'(c_full_words);
  always_comb begin
    logic [DimW-1:0]  r;
    logic [BufAW-1:0] w;
    logic             run;
    r        = wb_row;
    w        = wb_cw;
    run      = 1'b1;
    wb_len   = '0;
    wb_whole = 1'b0;
    for (int i = 0; i < Beats; i++)
      if (run) begin
        if (c_ready_q[c_index(r, w)]) begin
          wb_len = wb_len + 1'b1;
          if (32'(w) + 1 >= 32'(c_full_words) && !(c_packed && 32'(r) + 1 < 32'(m_q))) begin
            run      = 1'b0;
            wb_whole = 1'b1;
          end
          {r, w} = c_after(r, w, c_full_words);
        end else begin
          run      = 1'b0;
          wb_whole = !c_partial_q[c_index(r, w)];  // not being filled: it may come much later, or never
        end
      end
    if (32'(wb_len) == Beats) wb_whole = 1'b1;
  end

  // The bursts' flits in order: a burst's request, then its words as they
  // are read from C (a read taken in cycle j is in the FIFO in j+2).
  localparam int WbDepth = 3;
  logic                          wb_rd_q, wb_rd_last_q;
  logic [BeatW-1:0]              wb_reads_q;  // the burst's words still to read
  logic [DimW-1:0]               wb_r_q;      // the next of them: its row and word
  logic [BufAW-1:0]              wb_w_q;
  logic                          wb_re, wb_pick, wb_push, wb_valid, wb_pop;
  logic [BufAW-1:0]              wb_raddr;
  logic [FW-1:0]                 wb_in, wb_flit;
  logic [$clog2(WbDepth+1)-1:0]  wb_usage;
  logic                          wb_fifo_ready;  // always: a flit is made only with room
  logic                          c_port_free;    // the C RAM's read port: no write of the core reads it
  tpu_fifo #(.Width(FW), .Depth(WbDepth)) u_wb (
    .clk_i,
    .rst_ni,
    .valid_i(wb_push),
    .ready_o(wb_fifo_ready),
    .data_i (wb_in),
    .valid_o(wb_valid),
    .ready_i(wb_pop),
    .data_o (wb_flit),
    .usage_o(wb_usage)
  );

  // A burst starts while the core runs or drains (never while a RUN's
  // requests are still to go), once the last one's reads are all taken, its request and
  // its first read in the same cycle.
  logic wb_may_pick, wb_want, wb_turn_q;
  assign wb_may_pick = ((state_q == SRunCore && issue_op_q == PhNone) || state_q == SRunDrain) && wb_reads_q == '0 &&
                       !wb_rd_q && wb_found &&
                       (wb_whole || state_q == SRunDrain) && 32'(wb_usage) + 2 <= WbDepth;
  assign wb_want     = wb_may_pick || wb_reads_q != '0;
  // The core's writes share C's read port with the bursts: a burst denied
  // it in one cycle has it in the next (the core's writes then wait a
  // cycle), so neither starves; a burst reads no faster than the mesh takes it.
  assign wr_req_ready = running && !(wb_want && wb_turn_q);
  assign c_port_free  = !(wr_req_valid && wr_req_ready) && state_q != SMergeRead;
  assign wb_pick      = wb_may_pick;
  assign wb_re    = (wb_pick || wb_reads_q != '0) && c_port_free &&
                    32'(wb_usage) + 32'(wb_rd_q) + 32'(wb_pick) < WbDepth;
  assign wb_raddr = wb_pick ? wb_first : c_index(wb_r_q, wb_w_q);
  assign wb_push  = wb_rd_q || wb_pick;
  assign wb_in    = wb_rd_q ? write_data(c_rdata[W-1:0], wb_rd_last_q)
                            : write_req(c_addr_q + AddrW'(32'(wb_row) * 32'(c_stride_q) * WB) + AddrW'(32'(wb_cw) * WB),
                                        32'(wb_len));
  assign wb_pop   = wb_valid && send_free && !data_owed_q;

  // The C RAM: the core's writes read their word; the merge reads the word
  // it found; a burst reads its words in the cycles left.
  assign c_re    = (wr_req_valid && wr_req_ready) || state_q == SMergeRead || wb_re;
  assign c_raddr = (state_q == SMergeRead)             ? BufAW'(32'(mg_row_q) * RowWords + 32'(mg_cw_q)) :
                   (wr_req_valid && wr_req_ready)      ? wr_word : wb_raddr;
  assign c_we    = s2_q;
  assign c_waddr = s2_word_q;
  assign c_wdata = s2_new;

  logic [7:0] wr_acks_q;  // acknowledgements owed to the core, one a write taken
  assign wr_rsp_valid = wr_acks_q != 8'd0;

  // The merge: the first word stored in part, by row then word.
  logic [DimW-1:0] mg_row_q, mg_row;
  logic [WordsW-1:0] mg_cw_q, mg_cw;
  logic            mg_found;
  logic [W+WB-1:0] mg_q;
  logic [BufAW-1:0] mg_first;
  assign {mg_found, mg_first} = first_word(c_partial_q);
  assign mg_row = DimW'(32'(mg_first) / RowWords);
  assign mg_cw  = WordsW'(32'(mg_first) % RowWords);

  // Every row the RUN waits for is in: A's m rows of a_words, B's k rows of b_words.
  // col0_a_in: word 0 of each of A's rows is.
  logic rows_a_in, rows_b_in, col0_a_in;
  always_comb begin
    rows_a_in = 1'b1;
    rows_b_in = 1'b1;
    col0_a_in = 1'b1;
    for (int r = 0; r < MaxDim; r++)
      for (int w = 0; w < RowWords; w++) begin
        if (r < 32'(m_q) && w < 32'(a_words_q) && !a_arrived_q[r*RowWords + w]) rows_a_in = 1'b0;
        if (r < 32'(k_q) && w < 32'(b_words_q) && !b_arrived_q[r*RowWords + w]) rows_b_in = 1'b0;
        if (r < 32'(m_q) && w == 0 && !a_arrived_q[r*RowWords]) col0_a_in = 1'b0;
      end
  end

  // RUN's reads go out in the order the program reads them. Where a peer
  // brings A, the rest of B's first words waits until A's are in, and the
  // other words of B's rows until all of A is: the readers of A and of B are
  // then different units on different agent ports, which share one memory,
  // and A is what the core needs first.
  logic issue_gate, issue_go;
  assign issue_gate = !(a_recv_q && ((issue_op_q == 3'd2 && !col0_a_in) || (issue_op_q == 3'd4 && !rows_a_in)));
  assign issue_go   = (state_q == SRunIssue || state_q == SRunCore) && issue_op_q != PhNone && issue_gate &&
                      send_free;

  // ---------------------------------------------------------------------
  // Responses in
  // ---------------------------------------------------------------------
  logic [TypeW-1:0] rx_type, err_type;
  logic [tpu_noc_pkg::SRC_Y_W+tpu_noc_pkg::SRC_X_W-1:0] err_src;  // the offending header's source, {y, x}
  logic [TxnW-1:0]  rx_txn;
  logic [RuleW-1:0] err_rule;
  logic [1:0]       rx_word;
  logic             rx_take, rx_a, rx_b, rx_own, is_resp, is_ack, is_error;
  logic [DimW-1:0]  rx_row;
  logic [BufAW-1:0] rx_buf_word;
  assign rx_type     = recv_flit_i[tpu_noc_pkg::TYPE_LSB +: tpu_noc_pkg::TYPE_W];
  assign rx_txn      = recv_flit_i[tpu_noc_pkg::TXN_LSB +: tpu_noc_pkg::TXN_W];
  assign rx_word     = recv_flit_i[tpu_noc_pkg::RSVD_LSB +: 2];
  assign rx_a        = 32'(rx_txn) - TagA < tpu_cu_pkg::TINYTPU_TAG_A_N;  // unsigned: below TagA wraps past
  assign rx_b        = 32'(rx_txn) - TagB < tpu_cu_pkg::TINYTPU_TAG_B_N;
  assign rx_own      = 32'(rx_txn) >= OwnFirst;
  assign rx_row      = DimW'(rx_a ? 32'(rx_txn) - TagA : 32'(rx_txn) - TagB);
  assign rx_buf_word = BufAW'(32'(rx_row) * RowWords + 32'(rx_word));
  // CU_DATA writes win the buffers' write port; a response waits a cycle then.
  assign recv_ready_o = !data_we_i;
  assign rx_take      = recv_valid_i && recv_ready_o;
  assign is_resp      = rx_take && rx_type == tpu_noc_pkg::TYPE_MEM_RD_RESP;
  assign is_ack       = rx_take && rx_type == tpu_noc_pkg::TYPE_MEM_WR_ACK;
  assign is_error     = rx_take && rx_type == tpu_noc_pkg::TYPE_ERROR;
  assign err_rule     = recv_flit_i[tpu_noc_pkg::ERROR_RULE_LSB +: tpu_noc_pkg::ERROR_RULE_W];
  assign err_type     = recv_flit_i[tpu_noc_pkg::ERROR_HEADER_LSB + tpu_noc_pkg::TYPE_LSB - tpu_noc_pkg::PAYLOAD_W +:
                                    tpu_noc_pkg::TYPE_W];
  assign err_src      = {recv_flit_i[tpu_noc_pkg::ERROR_HEADER_LSB + tpu_noc_pkg::SRC_Y_LSB - tpu_noc_pkg::PAYLOAD_W +:
                                     tpu_noc_pkg::SRC_Y_W],
                         recv_flit_i[tpu_noc_pkg::ERROR_HEADER_LSB + tpu_noc_pkg::SRC_X_LSB - tpu_noc_pkg::PAYLOAD_W +:
                                     tpu_noc_pkg::SRC_X_W]};

  // A response to one of the instruction's own reads (a peer's rows are not counted).
  logic own_word;
  assign own_word = is_resp && expect_q != 16'd0 &&
                    ((rx_a && !a_recv_q && state_q != SLoadIssue && state_q != SLoadWait) ||
                     (rx_b && !b_recv_q && state_q != SLoadIssue && state_q != SLoadWait) || rx_own);

  // RUN's requests are answered in the order they were sent (one agent
  // port): ans_op_q is the phase of the oldest not yet wholly answered,
  // ans_got_q its words in. An ERROR that answers one of the unit's own
  // requests names the unit as the offending header's source (a peer's
  // multicast brings copies of the peer's).
  logic [2:0]  ans_op_q;
  logic [15:0] ans_got_q, ans_words;
  logic        own_error, ans_step, ans_refused;
  assign ans_words   = phase_total(ans_op_q, m_q, k_q, a_words_q, b_words_q);
  assign own_error   = is_error && err_src == {tpu_noc_pkg::SRC_Y_W'(Y), tpu_noc_pkg::SRC_X_W'(X)};
  assign ans_refused = own_error && err_type != tpu_noc_pkg::TYPE_MEM_WR_REQ &&
                       err_rule != tpu_cu_pkg::AGENT_ERR_AXI_RESPONSE && ans_op_q != PhNone;
  assign ans_step    = ans_op_q != PhNone && (ans_refused || (own_word && (rx_a || rx_b)) ||
                       (own_error && err_type != tpu_noc_pkg::TYPE_MEM_WR_REQ &&
                        err_rule == tpu_cu_pkg::AGENT_ERR_AXI_RESPONSE));

  // The words a refused request of the instruction would have brought.
  logic [15:0] refused_words;
  always_comb begin
    refused_words = 16'd1;  // a merge read
    if (state_q == SLoadIssue || state_q == SLoadWait) refused_words = load_round_q;
    else if (ans_op_q != PhNone) refused_words = ans_words - ans_got_q;
  end

  // The buffers' write port: CU_DATA, else a row word of A or B, or an imem row.
  logic [BufIdW-1:0] data_buf;
  assign data_buf = data_buf_i;
  always_comb begin
    ab_we      = '0;
    ab_waddr   = rx_buf_word;
    ab_wdata   = recv_flit_i[W-1:0];
    imem_we    = 1'b0;
    imem_waddr = ImemAW'(32'(load_base_q) + (32'(rx_txn) - OwnFirst));
    imem_wdata = recv_flit_i[W-1:0];
    if (data_we_i) begin
      ab_waddr   = BufAW'(data_granule_i);
      ab_wdata   = data_word_i;
      imem_waddr = ImemAW'(data_granule_i);
      imem_wdata = data_word_i;
      ab_we[0]   = data_buf == BufIdW'(tpu_cu_pkg::TINYTPU_BUF_A) && 32'(data_granule_i) < BufWords;
      ab_we[1]   = data_buf == BufIdW'(tpu_cu_pkg::TINYTPU_BUF_B) && 32'(data_granule_i) < BufWords;
      imem_we    = data_buf == BufIdW'(tpu_cu_pkg::TINYTPU_BUF_IMEM) && 32'(data_granule_i) < ImemRows;
    end else if (is_resp) begin
      ab_we[0] = rx_a && 32'(rx_word) < RowWords;
      ab_we[1] = rx_b && 32'(rx_word) < RowWords;
      imem_we  = rx_own && (state_q == SLoadIssue || state_q == SLoadWait);
    end
  end

  // ---------------------------------------------------------------------
  // The controller
  // ---------------------------------------------------------------------
  logic [OpW-1:0] op;
  assign op           = inst_payload_i[OpLsb +: OpW];
  assign inst_ready_o = state_q == SIdle;
  assign exec_done_o   = done_q;
  assign exec_result_o = result_q;
  assign exec_fault_o  = fault_q;
  assign busy_o        = state_q != SIdle;
  assign counters_o    = 64'(runs_q);
  assign dbg_o         = 64'(last_fault_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= SIdle;
      inst_q        <= '0;
      result_q      <= '0;
      fault_q       <= 1'b0;
      done_q        <= 1'b0;
      runs_q        <= '0;
      last_fault_q  <= '0;
      loaded_q      <= '0;
      program_q     <= 1'b0;
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
      run_used_q    <= 1'b0;
      a_words_q     <= '0;
      b_words_q     <= '0;
      expect_q      <= '0;
      acks_q        <= '0;
      mem_fault_q   <= 1'b0;
      mem_detail_q  <= '0;
      wait_q        <= '0;
      load_words_q  <= '0;
      load_mesh_q   <= '0;
      load_next_q   <= '0;
      load_base_q   <= '0;
      load_round_q  <= '0;
      issue_op_q    <= PhNone;
      ans_op_q      <= PhNone;
      ans_got_q     <= '0;
      core_start_q  <= 1'b0;
      core_seen_q   <= 1'b0;
      core_rst_nq   <= 1'b0;
      send_q        <= 1'b0;
      send_flit_q   <= '0;
      data_owed_q   <= 1'b0;
      data_word_q   <= '0;
      a_arrived_q   <= '0;
      b_arrived_q   <= '0;
      twice_q       <= 1'b0;
      twice_tag_q   <= '0;
      c_touched_q   <= '0;
      c_partial_q   <= '0;
      c_ready_q     <= '0;
      c_words_q     <= '0;
      wb_rd_q       <= 1'b0;
      wb_turn_q     <= 1'b0;
      wb_rd_last_q  <= 1'b0;
      wb_reads_q    <= '0;
      wb_r_q        <= '0;
      wb_w_q        <= '0;
      s2_q          <= 1'b0;
      s2_touched_q  <= 1'b0;
      s2_word_q     <= '0;
      s2_mask_q     <= '0;
      s2_bytes_q    <= '0;
      fwd_q         <= 1'b0;
      fwd_word_q    <= '0;
      fwd_data_q    <= '0;
      wr_acks_q     <= '0;
      rd_s_q        <= 1'b0;
      rd_s_sel_q    <= 1'b0;
      rd_s_inside_q <= 1'b0;
      rd_s_col_q    <= '0;
      imem_rsp_valid_q <= 1'b0;
      mg_row_q      <= '0;
      mg_cw_q       <= '0;
      mg_q          <= '0;
    end else begin
      logic [15:0] exp_n, acks_n;
      logic        core_kill;  // a fault resets the core this cycle
      exp_n     = expect_q;
      acks_n    = acks_q;
      core_kill = 1'b0;
      core_rst_nq      <= 1'b1;
      core_start_q     <= 1'b0;
      done_q           <= 1'b0;
      imem_rsp_valid_q <= imem_req_valid;
      if (send_q && send_ready_i) send_q <= 1'b0;
      if (core_busy) core_seen_q <= 1'b1;

      // Operand reads: the RAM stage.
      rd_s_q <= rd_req_valid && rd_req_ready;
      if (rd_req_valid && rd_req_ready) begin
        rd_s_sel_q    <= rd_req_sel;
        rd_s_inside_q <= rd_inside;
        rd_s_col_q    <= rd_col;
      end

      // Arrivals of A and B words (one arriving a second time unused: ROW_TWICE).
      if (!data_we_i && is_resp && (rx_a || rx_b) && 32'(rx_word) < RowWords) begin
        if ((rx_a ? a_arrived_q[rx_buf_word] : b_arrived_q[rx_buf_word]) && !twice_q) begin
          twice_q     <= 1'b1;
          twice_tag_q <= rx_txn;
        end
        if (rx_a) a_arrived_q[rx_buf_word] <= 1'b1;
        else      b_arrived_q[rx_buf_word] <= 1'b1;
      end
      if (data_we_i && 32'(data_granule_i) < BufWords) begin
        if (data_buf == BufIdW'(tpu_cu_pkg::TINYTPU_BUF_A)) a_arrived_q[BufAW'(data_granule_i)] <= 1'b1;
        if (data_buf == BufIdW'(tpu_cu_pkg::TINYTPU_BUF_B)) b_arrived_q[BufAW'(data_granule_i)] <= 1'b1;
      end
      if (own_word) exp_n = exp_n - 16'd1;
      if (is_ack && acks_n != 16'd0) acks_n = acks_n - 16'd1;
      if (ans_step) begin
        if (ans_refused || ans_got_q + 16'd1 == ans_words) begin
          ans_op_q  <= run_phase(ans_op_q + 3'd1, a_recv_q, b_recv_q, m_q, k_q, a_words_q, b_words_q);
          ans_got_q <= '0;
        end else begin
          ans_got_q <= ans_got_q + 16'd1;
        end
      end
      if (is_error) begin
        mem_fault_q  <= 1'b1;
        mem_detail_q <= memory_detail(rx_txn, err_rule);
      end
      if (own_error) begin
        if (err_type == tpu_noc_pkg::TYPE_MEM_WR_REQ) begin
          if (acks_n != 16'd0) acks_n = acks_n - 16'd1;  // the write's one answer
        end else if (err_rule == tpu_cu_pkg::AGENT_ERR_AXI_RESPONSE) begin
          if (exp_n != 16'd0) exp_n = exp_n - 16'd1;  // one word's place
        end else begin
          exp_n = (exp_n > refused_words) ? exp_n - refused_words : 16'd0;  // the whole request
        end
      end

      // A burst: its words taken off the ready map as it starts (a word the
      // core completes again meanwhile is marked again: the set below
      // wins), then read one by one.
      wb_rd_q   <= wb_re;
      wb_turn_q <= wb_want && !wb_re;
      if (wb_re) wb_rd_last_q <= (wb_pick ? wb_len : wb_reads_q) == BeatW'(1);
      if (wb_pick) begin
        logic [DimW-1:0]  r;
        logic [BufAW-1:0] w;
        r = wb_row;
        w = wb_cw;
        for (int i = 0; i < Beats; i++)
          if (i < 32'(wb_len)) begin
            c_ready_q[c_index(r, w)] <= 1'b0;
            if (i == 32'(wb_re)) {wb_r_q, wb_w_q} <= {r, w};
            {r, w} = c_after(r, w, c_full_words);
          end
        wb_reads_q <= wb_len - BeatW'(wb_re);
      end else if (wb_re) begin
        {wb_r_q, wb_w_q} <= c_after(wb_r_q, wb_w_q, c_full_words);
        wb_reads_q       <= wb_reads_q - 1'b1;
      end

      // The core's C writes: stage 1 -> stage 2 -> the RAM and the ready map.
      s2_q <= wr_req_valid && wr_req_ready;
      if (wr_req_valid && wr_req_ready) begin
        s2_word_q    <= wr_word;
        s2_mask_q    <= wr_mask;
        s2_bytes_q   <= wr_bytes;
        s2_touched_q <= c_touched_q[wr_word] || (s2_q && s2_word_q == wr_word);
      end
      fwd_q <= s2_q;
      if (s2_q) begin
        fwd_word_q <= s2_word_q;
        fwd_data_q <= c_wdata;
        if (s2_mask_q != '0) begin
          c_touched_q[s2_word_q] <= 1'b1;
          if (!c_touched_q[s2_word_q]) c_words_q <= c_words_q + 32'd1;
        end
        c_partial_q[s2_word_q] <= !s2_full && s2_new[W +: WB] != '0;
        if (s2_full) c_ready_q[s2_word_q] <= 1'b1;
      end
      wr_acks_q <= wr_acks_q + 8'(wr_req_valid && wr_req_ready) - 8'(wr_rsp_valid && wr_rsp_ready);

      // A merged word's data flit follows its request at once; a burst's
      // words follow its request as they are read.
      if (data_owed_q && send_free) begin
        send_q      <= 1'b1;
        send_flit_q <= write_data(data_word_q, 1'b1);
        data_owed_q <= 1'b0;
      end else if (wb_pop) begin
        send_q      <= 1'b1;
        send_flit_q <= wb_flit;
      end
      if (wb_pick) acks_n = acks_n + 16'd1;

      // RUN's reads, a request a cycle the flit register is free.
      if (issue_go) begin
        logic             isb;
        logic [WordsW-1:0] words, w0;
        logic [DimW-1:0]  first, rows;
        logic [StrideW-1:0] stride;
        logic [AddrW-1:0] base;
        logic [NPeerW-1:0] npeer;
        logic [PeersW-1:0] peers;
        logic [TxnW-1:0]  tag;
        logic [31:0]      at_word;  // the first word's, from the operand's base
        isb    = phase_b(issue_op_q);
        words  = phase_words(issue_op_q, isb ? b_words_q : a_words_q);
        w0     = phase_word0(issue_op_q);
        first  = phase_first(issue_op_q, k_q);
        rows   = phase_end(issue_op_q, m_q, k_q);
        stride = isb ? b_stride_q : a_stride_q;
        base   = isb ? b_addr_q : a_addr_q;
        tag    = isb ? TxnW'(TagB) : TxnW'(TagA);
        npeer  = isb ? NPeerW'(fld(inst_q, tpu_cu_pkg::TINYTPU_RUN_B_NPEER_LSB, tpu_cu_pkg::TINYTPU_RUN_B_NPEER_W))
                     : NPeerW'(fld(inst_q, tpu_cu_pkg::TINYTPU_RUN_A_NPEER_LSB, tpu_cu_pkg::TINYTPU_RUN_A_NPEER_W));
        peers  = isb ? PeersW'(fld(inst_q, tpu_cu_pkg::TINYTPU_RUN_B_PEER_LSB, tpu_cu_pkg::TINYTPU_RUN_B_PEER_W))
                     : PeersW'(fld(inst_q, tpu_cu_pkg::TINYTPU_RUN_A_PEER_LSB, tpu_cu_pkg::TINYTPU_RUN_A_PEER_W));
        send_q      <= 1'b1;
        at_word     = 32'(first) * 32'(stride) + 32'(w0);
        send_flit_q <= stream_req(base + AddrW'(at_word * WB),
                                  CountW'(32'(rows) - 32'(first)), words, stride, w0, TxnW'(32'(tag) + 32'(first)),
                                  npeer, peers);
        exp_n       = exp_n + phase_total(issue_op_q, m_q, k_q, a_words_q, b_words_q);
        issue_op_q  <= run_phase(issue_op_q + 3'd1, a_recv_q, b_recv_q, m_q, k_q, a_words_q, b_words_q);
      end

      unique case (state_q)
        SIdle: begin
          if (inst_valid_i) begin
            logic [DimW-1:0] m, k, n;
            logic [63:0]     as, bs, cs, words;
            logic        ar, br;
            inst_q      <= inst_payload_i;
            mem_fault_q <= 1'b0;
            exp_n       = 16'd0;
            acks_n      = 16'd0;
            wait_q      <= '0;
            state_q     <= SDone;
            fault_q     <= 1'b1;
            result_q    <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_UNKNOWN_OPCODE, DetailW'(op));
            run_used_q  <= 1'b0;
            words = fld(inst_payload_i, tpu_cu_pkg::TINYTPU_LOAD_WORDS_LSB, tpu_cu_pkg::TINYTPU_LOAD_WORDS_W);
            if (words == 64'd0) words = 64'(tpu_cu_pkg::TINYTPU_LOAD_WORDS_ZERO_MEANS);
            m  = dim(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_M_LSB, tpu_cu_pkg::TINYTPU_RUN_M_W));
            k  = dim(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_K_LSB, tpu_cu_pkg::TINYTPU_RUN_K_W));
            n  = dim(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_N_LSB, tpu_cu_pkg::TINYTPU_RUN_N_W));
            as = fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_A_STRIDE_LSB, tpu_cu_pkg::TINYTPU_RUN_A_STRIDE_W);
            bs = fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_B_STRIDE_LSB, tpu_cu_pkg::TINYTPU_RUN_B_STRIDE_W);
            cs = fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_C_STRIDE_LSB, tpu_cu_pkg::TINYTPU_RUN_C_STRIDE_W);
            if (as == 64'd0) as = 64'(tpu_cu_pkg::TINYTPU_RUN_A_STRIDE_ZERO_MEANS);
            if (bs == 64'd0) bs = 64'(tpu_cu_pkg::TINYTPU_RUN_B_STRIDE_ZERO_MEANS);
            if (cs == 64'd0) cs = 64'(tpu_cu_pkg::TINYTPU_RUN_C_STRIDE_ZERO_MEANS);
            ar = inst_payload_i[tpu_cu_pkg::TINYTPU_RUN_A_RECV_LSB];
            br = inst_payload_i[tpu_cu_pkg::TINYTPU_RUN_B_RECV_LSB];
            if (op == tpu_cu_pkg::TINYTPU_OP_STATUS) begin
              fault_q <= 1'b0;
              unique case (fld(inst_payload_i, tpu_cu_pkg::TINYTPU_STATUS_SELECT_LSB,
                               tpu_cu_pkg::TINYTPU_STATUS_SELECT_W))
                64'(tpu_cu_pkg::TINYTPU_SELECT_RUNS):       result_q <= runs_q;
                64'(tpu_cu_pkg::TINYTPU_SELECT_LAST_FAULT): result_q <= last_fault_q;
                64'(tpu_cu_pkg::TINYTPU_SELECT_LOADED):     result_q <= loaded_q;
                default: begin
                  fault_q  <= 1'b1;
                  result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_STATUS_SELECT_LSB);
                end
              endcase
            end else if (op == tpu_cu_pkg::TINYTPU_OP_LOAD) begin
              if (fld(inst_payload_i, tpu_cu_pkg::TINYTPU_LOAD_ADDR_LSB, 5) != 64'd0) begin
                result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MISALIGNED, DetailW'(0));
              end else if (words > 64'(tpu_cu_pkg::TINYTPU_IMEM_SIZE)) begin
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_LOAD_WORDS_LSB);
              end else begin
                fault_q       <= 1'b0;
                a_addr_q      <= AddrW'(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_LOAD_ADDR_LSB,
                                            tpu_cu_pkg::TINYTPU_LOAD_ADDR_W));
                load_words_q  <= LoadW'(words);
                load_mesh_q   <= LoadW'((words + 64'(ImemPerW) - 64'd1) / 64'(ImemPerW));
                load_next_q   <= '0;
                program_q     <= 1'b0;  // imem is rewritten: a program again once the LOAD retires
                state_q       <= SLoadIssue;
              end
            end else if (op == tpu_cu_pkg::TINYTPU_OP_RUN) begin
              runs_q <= runs_q + 32'd1;
              if (fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_M_LSB, tpu_cu_pkg::TINYTPU_RUN_M_W) > 64'(MaxDim))
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_RUN_M_LSB);
              else if (fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_K_LSB, tpu_cu_pkg::TINYTPU_RUN_K_W) > 64'(MaxDim))
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_RUN_K_LSB);
              else if (fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_N_LSB, tpu_cu_pkg::TINYTPU_RUN_N_W) > 64'(MaxDim))
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_RUN_N_LSB);
              else if (as * WB < 64'(k))
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_RUN_A_STRIDE_LSB);
              else if (bs * WB < 64'(n))
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_RUN_B_STRIDE_LSB);
              else if (cs * WB < 64'(n))
                result_q <= geometry_fault(tpu_cu_pkg::TINYTPU_RUN_C_STRIDE_LSB);
              else if (!ar && fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_A_ADDR_LSB, 5) != 64'd0)
                result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MISALIGNED, DetailW'(0));
              else if (!br && fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_B_ADDR_LSB, 5) != 64'd0)
                result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MISALIGNED, DetailW'(1));
              else if (fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_C_ADDR_LSB, 5) != 64'd0)
                result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MISALIGNED, DetailW'(2));
              else if (!program_q)
                result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_NO_PROGRAM, DetailW'(0));
              else if (twice_q) begin
                result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_ROW_TWICE, DetailW'(twice_tag_q));
                twice_q  <= 1'b0;
              end else begin
                fault_q     <= 1'b0;
                run_used_q  <= 1'b1;
                a_addr_q    <= AddrW'(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_A_ADDR_LSB,
                                          tpu_cu_pkg::TINYTPU_RUN_A_ADDR_W));
                b_addr_q    <= AddrW'(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_B_ADDR_LSB,
                                          tpu_cu_pkg::TINYTPU_RUN_B_ADDR_W));
                c_addr_q    <= AddrW'(fld(inst_payload_i, tpu_cu_pkg::TINYTPU_RUN_C_ADDR_LSB,
                                          tpu_cu_pkg::TINYTPU_RUN_C_ADDR_W));
                a_stride_q  <= StrideW'(as);
                b_stride_q  <= StrideW'(bs);
                c_stride_q  <= StrideW'(cs);
                m_q         <= m;
                k_q         <= k;
                n_q         <= n;
                a_recv_q    <= ar;
                b_recv_q    <= br;
                a_words_q   <= words_of(k);
                b_words_q   <= words_of(n);
                issue_op_q  <= run_phase(3'd0, ar, br, m, k, words_of(k), words_of(n));
                ans_op_q    <= run_phase(3'd0, ar, br, m, k, words_of(k), words_of(n));
                ans_got_q   <= '0;
                c_touched_q <= '0;
                c_partial_q <= '0;
                c_ready_q   <= '0;
                c_words_q   <= '0;
                core_seen_q <= 1'b0;
                core_start_q <= 1'b1;  // at once: its reads wait for their rows
                state_q     <= SRunIssue;
              end
            end
          end
        end

        SLoadIssue: begin
          // A round of the `own` tags (at most a stream's entries): its words
          // as one stream of one-word entries.
          if (send_free) begin
            logic [LoadW-1:0] left, round;
            left  = load_mesh_q - load_next_q;
            round = (32'(left) > LoadRound) ? LoadW'(LoadRound) : left;
            send_q       <= 1'b1;
            send_flit_q  <= stream_req(a_addr_q + AddrW'(32'(load_next_q) * WB), CountW'(round), WordsW'(1), '0,
                                       '0, TxnW'(OwnFirst), '0, '0);
            exp_n        = exp_n + round;
            load_base_q  <= load_next_q;
            load_round_q <= round;
            load_next_q  <= load_next_q + round;
            state_q      <= SLoadWait;
          end
        end

        SLoadWait: begin
          if (exp_n == 16'd0 && !send_q) begin
            if (mem_fault_q || is_error) begin
              fault_q  <= 1'b1;
              result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MEMORY,
                                    is_error ? memory_detail(rx_txn, err_rule) : mem_detail_q);
              state_q  <= SDone;
            end else if (load_next_q >= load_mesh_q) begin
              result_q <= 32'(load_words_q);
              loaded_q  <= 32'(load_words_q);
              program_q <= 1'b1;
              state_q   <= SDone;
            end else begin
              state_q <= SLoadIssue;
            end
          end
        end

        SRunIssue: begin
          // A's and B's reads (issue_go) while the core starts; the rest of
          // B's may wait in SRunCore for a peer's A.
          if (issue_op_q == PhNone || !issue_gate) state_q <= SRunCore;
        end

        SRunCore: begin
          // The core computes; whole C words leave as they complete.
          if (mem_fault_q && exp_n == 16'd0) begin
            core_rst_nq <= 1'b0;
            core_kill   = 1'b1;
            fault_q     <= 1'b1;
            result_q    <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MEMORY, mem_detail_q);
            state_q     <= SRunDrain;
          end else if (core_fault != '0) begin
            core_rst_nq <= 1'b0;
            core_kill   = 1'b1;
            fault_q     <= 1'b1;
            result_q    <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_CORE,
                                      core_detail(32'(core_fault), 32'(core_fault_unit), 32'(core_fault_pc)));
            state_q     <= SRunDrain;
          end else if (exp_n == 16'd0 && !(rows_a_in && rows_b_in) && 32'(wait_q) == tpu_cu_pkg::WAIT_LIMIT) begin
            core_rst_nq <= 1'b0;
            core_kill   = 1'b1;
            fault_q     <= 1'b1;
            result_q    <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_ROWS_MISSING, rows_a_in ? DetailW'(1) : DetailW'(0));
            state_q     <= SRunDrain;
          end else if (core_seen_q && core_done && !core_busy && !s2_q && exp_n == 16'd0 && wr_acks_q == 8'd0 &&
                       rows_a_in && rows_b_in) begin
            state_q <= SRunDrain;
          end
          // The wait for a peer's rows starts when the unit's own reads are in.
          if (exp_n == 16'd0 && !(rows_a_in && rows_b_in)) wait_q <= wait_q + 1'b1;
          else wait_q <= '0;
        end

        SRunDrain: begin
          // Every whole word out and answered; then the words stored in part.
          if (c_ready_q == '0 && !wb_valid && wb_reads_q == '0 && !wb_rd_q && !data_owed_q && !send_q &&
              acks_n == 16'd0 && exp_n == 16'd0 && !s2_q)
            state_q <= fault_q ? SDone : SMergeFind;
        end

        SMergeFind: begin
          if (mem_fault_q) begin
            fault_q  <= 1'b1;
            result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MEMORY, mem_detail_q);
            state_q  <= SDone;
          end else if (!mg_found) begin
            result_q <= c_words_q;
            state_q  <= SDone;
          end else begin
            mg_row_q <= mg_row;
            mg_cw_q  <= mg_cw;
            state_q  <= SMergeRead;
          end
        end

        SMergeRead: begin
          // The C RAM reads the word this cycle; memory's copy is asked for.
          if (send_free) begin
            send_q      <= 1'b1;
            send_flit_q <= plain_read(c_addr_q + AddrW'(32'(mg_row_q) * 32'(c_stride_q) * WB) +
                                      AddrW'(32'(mg_cw_q) * WB), TxnW'(OwnFirst));
            exp_n       = exp_n + 16'd1;
            state_q     <= SMergeWait;
          end
        end

        SMergeWait: begin
          if (state_q == SMergeWait && !is_resp && !is_error && mg_q == '0) mg_q <= c_rdata;
          if (is_resp && rx_own) begin
            logic [W+WB-1:0] mine;
            mine = (mg_q == '0) ? c_rdata : mg_q;
            for (int b = 0; b < WB; b++)
              if (!mine[W + b]) mine[8*b +: 8] = recv_flit_i[8*b +: 8];
            mg_q    <= mine;
            state_q <= SMergeWrite;
          end else if (mem_fault_q && exp_n == 16'd0) begin
            fault_q  <= 1'b1;
            result_q <= fault_word(tpu_cu_pkg::TINYTPU_FAULT_MEMORY, mem_detail_q);
            mg_q     <= '0;  // the word is not merged: the next RUN's merge starts afresh
            state_q  <= SDone;
          end
        end

        SMergeWrite: begin
          if (send_free && !data_owed_q) begin
            send_q      <= 1'b1;
            send_flit_q <= write_req(c_addr_q + AddrW'(32'(mg_row_q) * 32'(c_stride_q) * WB) +
                                     AddrW'(32'(mg_cw_q) * WB), 1);
            data_word_q <= mg_q[W-1:0];
            data_owed_q <= 1'b1;
            acks_n      = acks_n + 16'd1;
            mg_q        <= '0;
            c_partial_q[BufAW'(32'(mg_row_q) * RowWords + 32'(mg_cw_q))] <= 1'b0;
            state_q     <= SMergeAck;
          end
        end

        SMergeAck: begin
          if (!data_owed_q && !send_q && acks_n == 16'd0) state_q <= SMergeFind;
        end

        SDone: begin
          done_q   <= 1'b1;
          state_q  <= SIdle;
          ans_op_q <= PhNone;
          if (fault_q) last_fault_q <= result_q;
          // A RUN used its rows: their arrival is cleared (a peer may bring
          // the next RUN's rows any time after).
          if (run_used_q)
            for (int r = 0; r < MaxDim; r++)
              for (int w = 0; w < RowWords; w++) begin
                if (r < 32'(m_q)) a_arrived_q[r*RowWords + w] <= 1'b0;
                if (r < 32'(k_q)) b_arrived_q[r*RowWords + w] <= 1'b0;
              end
        end

        default: state_q <= SIdle;
      endcase
      expect_q <= exp_n;
      acks_q   <= acks_n;
      // The write answers owed to a core a fault resets are nobody's.
      if (core_kill) wr_acks_q <= '0;
      // A CU_DATA write into imem puts a program there, whatever the unit does.
      if (data_we_i && data_buf == BufIdW'(tpu_cu_pkg::TINYTPU_BUF_IMEM)) program_q <= 1'b1;
    end
  end

  logic unused;
  assign unused = ^{inst_txn_i, rd_req_addr[31:OffW], wr_req_addr[31:OffW], core_header, core_cycles, core_progress, core_imem_rsp_ready, rsp_fifo_ready,
                    wb_fifo_ready, data_buf_i[7:4]};

`ifdef TPU_ASSERT
  // Every operand read the core makes of a word waits for it: a RAM read of
  // an A or B word inside the block is of an arrived word.
  tpu_assert_never u_read_before_arrival (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (ab_re && rd_inside && !(rd_req_sel ? b_arrived_q[rd_word] : a_arrived_q[rd_word]))
  );
  // A response FIFO push always finds room (the read stage counted it).
  // An operand answer always finds room in its FIFO (the read stage counted it).
  tpu_assert_never u_answer_without_room (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (rd_s_q && 32'(rsp_usage) >= RspDepth)
  );
  // A burst's flit always finds room in its FIFO.
  tpu_assert_never u_burst_without_room (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (wb_push && 32'(wb_usage) >= WbDepth)
  );
  // A burst is one request and the words it names, in full.
  tpu_assert_never u_burst_beyond_block (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (wb_pick && (wb_len == '0 || 32'(wb_len) > Beats || 32'(wb_row) >= 32'(m_q)))
  );
`endif

endmodule
