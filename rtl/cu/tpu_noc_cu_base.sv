// tpu_noc_cu_base: the CU wrapper every compute unit's datapath sits in
// (seed 003 §2, §3, §5, §6; spec/compute_units.yaml cu_base, the tables of
// docs/compute_units.md): one mesh endpoint (an ejection and an injection
// port) toward a datapath that sees instructions, its own traffic and its
// buffers' writes, and never a flit it does not own.
//
// Hand-written module of tpugen, copied unchanged into every compute-unit
// configuration (hdl::generate_cu); the flit's fields and codes are
// tpu_noc_pkg's, the wrapper's fault codes and depths tpu_cu_pkg's.
//
// Ejection. A flit is taken while the two-flit intake queue (tpu_fifo) has
// room: in_ready_o is a function of its registered count alone (docs/noc.md
// "Links": ready = !busy). The head is steered by its type (cu_base.steering):
//   CU_INST   into the instruction FIFO (INST_DEPTH) and its in-flight record
//             {src, txn, last} (u_meta, INST_DEPTH). With INST_DEPTH
//             instructions not yet retired it is taken anyway and retired at
//             once with SIG_FAULT, argument {CU_FAULT_INST_OVERFLOW, 0}, never
//             executed (u_ovf, two entries); the head waits only while that
//             queue is full, i.e. while the injection port is busy.
//   CU_CTRL   op READ: answered with a CU_CTRL REPLY (same txn and index, the
//             64-bit value) to the flit's src, through a one-flit reply
//             register (the head waits while it is full). CAPS {CapsType,
//             CapsVersion, NBuffers, INST_DEPTH}; STATUS {busy: busy_i or an
//             instruction handed out and not done, error: sticky, an
//             instruction faulted since reset (INST_OVERFLOW included),
//             inst_space: INST_DEPTH minus the instructions not retired};
//             COUNTERS counters_i; DBG dbg_i; any other index 0. Any other
//             op is dropped (tpugen: not counted).
//   CU_DATA   tpugen framing: a descriptor, then len + 1 data flits; data
//             flit i writes its payload to granule offset + i of buffer
//             buf_id (data_we_o, one cycle, never refused). The flit count
//             closes the transfer, not `last`. After the final one, with
//             flags.SIGNAL, SIG_DATA_RECEIVED (argument buf_id, the
//             descriptor's txn) goes to (ack_x, ack_y) through a one-flit
//             register (the final data flit waits while it is full). One
//             transfer at a time: while one is open every CU_DATA flit, from
//             any source, is its data (tpugen: no hang, whatever arrives).
//   other     into the receive FIFO (RECV_DEPTH), in arrival order: the
//             unit's own traffic (MEM_RD_RESP, MEM_WR_ACK, ERROR, CU_SIGNAL,
//             and any other type); the head waits while it is full, so the
//             datapath must always drain recv_*.
// No head waits on a full instruction FIFO: the unit's memory responses come
// through the same port. The ejection port keeps draining as long as the
// receive FIFO drains and the injection port takes flits.
//
// Retirement (cu_base.retirement, the first row that applies): exec_done_i
// is one pulse per instruction handed out on inst_*, in order, with
// exec_result_i and exec_fault_i; it is queued (u_result, INST_DEPTH: never
// full, as at most INST_DEPTH instructions are not retired) and retired to
// the instruction's src with
//   exec_fault  SIG_FAULT, argument exec_result
//   last        SIG_BATCH_COMPLETE, argument {24'd0, txn}
//   otherwise   SIG_INST_COMPLETE, argument exec_result
// as a CU_SIGNAL flit: src (X, Y), the instruction's txn, last 1, rsvd 0,
// code and argument at the cu_signal fields, every other payload bit 0. Each
// instruction retires exactly once, INST_OVERFLOW ones included. The
// executed ones retire in instruction order; an INST_OVERFLOW retirement may
// go ahead of older instructions still executing (it is a source's newest
// instruction, retired at once).
//
// Injection: the retirements, the INST_OVERFLOW retirements, the CTRL
// replies, the DATA_RECEIVED signals and the datapath's send stream
// (send_*: its MEM_* requests and data, which it stamps itself) take turns
// at flit granularity (tpu_rr_arb, round robin) into the output register
// (tpu_out_reg): out_valid_o comes from a register and never waits for
// out_ready_i. Flits of one source keep their order; the wrapper's own flits
// may fall between two flits of one multi-flit send message (MEM_WR_REQ and
// its MEM_WR_DATA): the mesh orders per (source, destination) pair, and the
// wrapper's flits go to other nodes or are single-flit messages.
//
// Assertions (at the end, under `ifdef TPU_ASSERT): every exec_done matches
// an instruction handed out and not done; the retirement queue never
// overflows, nor the instruction FIFO beside its record; the stream rule on
// every stream port (tpu_stream_check).
//
// Parameters:
//   X, Y         this node (the src of every flit the wrapper sends)
//   CapsType     CAPS.type of the unit that instantiates the wrapper
//   CapsVersion  CAPS.version
//   NBuffers     CAPS.n_buffers: the unit's CU_DATA buffers
module tpu_noc_cu_base #(
  parameter int X           = 0,
  parameter int Y           = 0,
  parameter int CapsType    = 0,
  parameter int CapsVersion = 0,
  parameter int NBuffers    = 0
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // mesh ejection (flits for this node)
  input  logic                                     in_valid_i,
  output logic                                     in_ready_o,
  input  logic [tpu_noc_pkg::FLIT_W-1:0]           in_flit_i,
  // mesh injection
  output logic                                     out_valid_o,
  input  logic                                     out_ready_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0]           out_flit_o,
  // the instructions, in order
  output logic                                     inst_valid_o,
  input  logic                                     inst_ready_i,
  output logic [tpu_noc_pkg::PAYLOAD_W-1:0]        inst_payload_o,
  output logic [tpu_noc_pkg::TXN_W-1:0]            inst_txn_o,
  // one pulse per instruction taken, in order
  input  logic                                     exec_done_i,
  input  logic [tpu_noc_pkg::CU_SIGNAL_ARG_W-1:0]  exec_result_i,
  input  logic                                     exec_fault_i,
  // the unit's own traffic (the datapath must always drain it)
  output logic                                     recv_valid_o,
  input  logic                                     recv_ready_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0]           recv_flit_o,
  // the datapath's flits to the mesh (MEM_* requests and data)
  input  logic                                     send_valid_i,
  output logic                                     send_ready_o,
  input  logic [tpu_noc_pkg::FLIT_W-1:0]           send_flit_i,
  // CU_DATA: one granule of a buffer written this cycle
  output logic                                     data_we_o,
  output logic [tpu_noc_pkg::CU_DATA_BUF_ID_W-1:0] data_buf_o,
  output logic [tpu_noc_pkg::CU_DATA_OFFSET_W-1:0] data_granule_o,
  output logic [tpu_noc_pkg::PAYLOAD_W-1:0]        data_word_o,
  // the datapath's state, for CU_CTRL
  input  logic                                     busy_i,       // executing
  input  logic [tpu_noc_pkg::CU_CTRL_VALUE_W-1:0]  counters_i,   // COUNTERS
  input  logic [tpu_noc_pkg::CU_CTRL_VALUE_W-1:0]  dbg_i         // DBG
);

  localparam int FlitW    = tpu_noc_pkg::FLIT_W;
  localparam int PayloadW = tpu_noc_pkg::PAYLOAD_W;
  localparam int PosW     = tpu_noc_pkg::POS_W;
  localparam int TypeW    = tpu_noc_pkg::TYPE_W;
  localparam int TxnW     = tpu_noc_pkg::TXN_W;
  localparam int ArgW     = tpu_noc_pkg::CU_SIGNAL_ARG_W;
  localparam int CodeW    = tpu_noc_pkg::CU_SIGNAL_CODE_W;
  localparam int ValueW   = tpu_noc_pkg::CU_CTRL_VALUE_W;
  localparam int IdxW     = tpu_noc_pkg::CU_CTRL_INDEX_W;
  localparam int BufW     = tpu_noc_pkg::CU_DATA_BUF_ID_W;
  localparam int GranW    = tpu_noc_pkg::CU_DATA_OFFSET_W;
  localparam int LenW     = tpu_noc_pkg::CU_DATA_LEN_W;
  localparam int Depth    = tpu_cu_pkg::INST_DEPTH;
  localparam int UseW     = $clog2(Depth + 1);
  localparam int RecvUseW = $clog2(tpu_cu_pkg::RECV_DEPTH + 1);
  localparam int MetaW    = 2 * PosW + TxnW + 1;                    // {src_x, src_y, txn, last}
  localparam int OvfW     = 2 * PosW + TxnW;                        // {src_x, src_y, txn}
  localparam int NOut     = 5;                                      // the injection's requesters
  localparam int ORetire  = 0;
  localparam int OOvf     = 1;
  localparam int OReply   = 2;
  localparam int OAck     = 3;
  localparam int OSend    = 4;

  // A flit from this node: dst, src (X, Y), type, txn, last 1, rsvd 0, payload.
  function automatic logic [FlitW-1:0] flit_of(input logic [PosW-1:0]     dst_x,
                                               input logic [PosW-1:0]     dst_y,
                                               input logic [TypeW-1:0]    ty,
                                               input logic [TxnW-1:0]     txn,
                                               input logic [PayloadW-1:0] payload);
    flit_of = '0;
    flit_of[tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W] = dst_x;
    flit_of[tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W] = dst_y;
    flit_of[tpu_noc_pkg::SRC_X_LSB +: tpu_noc_pkg::SRC_X_W] = PosW'(X);
    flit_of[tpu_noc_pkg::SRC_Y_LSB +: tpu_noc_pkg::SRC_Y_W] = PosW'(Y);
    flit_of[tpu_noc_pkg::TYPE_LSB +: tpu_noc_pkg::TYPE_W]   = ty;
    flit_of[tpu_noc_pkg::TXN_LSB +: tpu_noc_pkg::TXN_W]     = txn;
    flit_of[tpu_noc_pkg::LAST_LSB]                          = 1'b1;
    flit_of[PayloadW-1:0]                                   = payload;
  endfunction

  // A CU_SIGNAL payload: the code and the argument, every other bit 0.
  function automatic logic [PayloadW-1:0] signal_of(input logic [CodeW-1:0] code, input logic [ArgW-1:0] arg);
    signal_of = '0;
    signal_of[tpu_noc_pkg::CU_SIGNAL_CODE_LSB +: CodeW] = code;
    signal_of[tpu_noc_pkg::CU_SIGNAL_ARG_LSB +: ArgW]   = arg;
  endfunction

  // --- The intake queue and its head --------------------------------------------------
  logic                 head_valid, head_pop;
  logic [FlitW-1:0]     head;
  logic [1:0]           in_usage;

  tpu_fifo #(
    .Width(FlitW),
    .Depth(2)
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

  logic [TypeW-1:0]    h_type;
  logic [PosW-1:0]     h_src_x, h_src_y;
  logic [TxnW-1:0]     h_txn;
  logic                h_last;
  logic [PayloadW-1:0] h_payload;
  assign h_type    = head[tpu_noc_pkg::TYPE_LSB +: TypeW];
  assign h_src_x   = head[tpu_noc_pkg::SRC_X_LSB +: PosW];
  assign h_src_y   = head[tpu_noc_pkg::SRC_Y_LSB +: PosW];
  assign h_txn     = head[tpu_noc_pkg::TXN_LSB +: TxnW];
  assign h_last    = head[tpu_noc_pkg::LAST_LSB];
  assign h_payload = head[PayloadW-1:0];

  logic is_inst, is_ctrl, is_data, is_other;
  assign is_inst  = h_type == tpu_noc_pkg::TYPE_CU_INST;
  assign is_ctrl  = h_type == tpu_noc_pkg::TYPE_CU_CTRL;
  assign is_data  = h_type == tpu_noc_pkg::TYPE_CU_DATA;
  assign is_other = !is_inst && !is_ctrl && !is_data;

  // --- Instructions: the FIFO, its in-flight record, the results ------------------------
  logic            meta_push, meta_ready, meta_valid, meta_pop, meta_last;
  logic [PosW-1:0] meta_x, meta_y;
  logic [TxnW-1:0] meta_txn;
  logic [UseW-1:0] meta_usage, inst_usage, res_usage;
  logic            inst_ready, res_ready, res_valid, res_fault, ret_pop;
  logic [ArgW-1:0] res_result;

  // Instructions not yet retired: the record holds one per instruction from
  // its arrival until its retirement flit leaves.
  assign meta_push = head_valid && is_inst && meta_ready;

  tpu_fifo #(
    .Width(MetaW),
    .Depth(Depth)
  ) u_meta (
    .clk_i,
    .rst_ni,
    .valid_i(meta_push),
    .ready_o(meta_ready),
    .data_i ({h_src_x, h_src_y, h_txn, h_last}),
    .valid_o(meta_valid),
    .ready_i(meta_pop),
    .data_o ({meta_x, meta_y, meta_txn, meta_last}),
    .usage_o(meta_usage)
  );

  // The instructions not yet handed out: never more than the record holds.
  tpu_fifo #(
    .Width(PayloadW + TxnW),
    .Depth(Depth)
  ) u_inst (
    .clk_i,
    .rst_ni,
    .valid_i(meta_push),
    .ready_o(inst_ready),
    .data_i ({h_payload, h_txn}),
    .valid_o(inst_valid_o),
    .ready_i(inst_ready_i),
    .data_o ({inst_payload_o, inst_txn_o}),
    .usage_o(inst_usage)
  );

  // The results, in order: the oldest records' (never full: at most Depth
  // instructions are not retired).
  tpu_fifo #(
    .Width(1 + ArgW),
    .Depth(Depth)
  ) u_result (
    .clk_i,
    .rst_ni,
    .valid_i(exec_done_i),
    .ready_o(res_ready),
    .data_i ({exec_fault_i, exec_result_i}),
    .valid_o(res_valid),
    .ready_i(ret_pop),
    .data_o ({res_fault, res_result}),
    .usage_o(res_usage)
  );

  // The retirement flit of the oldest instruction, once its result is in.
  logic [CodeW-1:0] ret_code;
  logic [ArgW-1:0]  ret_arg;
  logic             ret_valid;
  logic [FlitW-1:0] ret_flit;
  always_comb begin
    if (res_fault) begin
      ret_code = tpu_noc_pkg::SIG_FAULT;
      ret_arg  = res_result;
    end else if (meta_last) begin
      ret_code = tpu_noc_pkg::SIG_BATCH_COMPLETE;
      ret_arg  = ArgW'(meta_txn);
    end else begin
      ret_code = tpu_noc_pkg::SIG_INST_COMPLETE;
      ret_arg  = res_result;
    end
  end
  assign ret_valid = meta_valid && res_valid;
  assign ret_flit  = flit_of(meta_x, meta_y, tpu_noc_pkg::TYPE_CU_SIGNAL, meta_txn, signal_of(ret_code, ret_arg));
  assign meta_pop  = ret_pop;

  // Instructions handed out and not done.
  logic [UseW-1:0] infl_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) infl_q <= '0;
    else infl_q <= infl_q + UseW'(inst_valid_o && inst_ready_i) - UseW'(exec_done_i);
  end

  // --- INST_OVERFLOW: a CU_INST with Depth instructions not retired ----------------------
  logic            ovf_push, ovf_ready, ovf_valid, ovf_pop;
  logic [PosW-1:0] ovf_x, ovf_y;
  logic [TxnW-1:0] ovf_txn;
  logic [1:0]      ovf_usage;
  // The argument: the wrapper's fault code in the code field, detail 0.
  localparam logic [ArgW-1:0] OvfArg = ArgW'(tpu_cu_pkg::CU_FAULT_INST_OVERFLOW) << tpu_cu_pkg::FAULT_CODE_LSB;
  assign ovf_push = head_valid && is_inst && !meta_ready && ovf_ready;

  tpu_fifo #(
    .Width(OvfW),
    .Depth(2)
  ) u_ovf (
    .clk_i,
    .rst_ni,
    .valid_i(ovf_push),
    .ready_o(ovf_ready),
    .data_i ({h_src_x, h_src_y, h_txn}),
    .valid_o(ovf_valid),
    .ready_i(ovf_pop),
    .data_o ({ovf_x, ovf_y, ovf_txn}),
    .usage_o(ovf_usage)
  );

  // --- CU_CTRL: the register read and its reply --------------------------------------------
  logic              error_q, busy;
  logic [IdxW-1:0]   c_index;
  logic [ValueW-1:0] c_value;
  logic              is_read, reply_load, reply_valid, reply_pop;
  logic [FlitW-1:0]  reply_flit, reply_d;
  logic [PayloadW-1:0] reply_payload;

  assign c_index = h_payload[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: IdxW];
  assign is_read = h_payload[tpu_noc_pkg::CU_CTRL_OP_LSB +: tpu_noc_pkg::CU_CTRL_OP_W] == tpu_noc_pkg::CU_CTRL_READ;
  assign busy    = busy_i || (infl_q != '0);

  always_comb begin
    c_value = '0;
    if (32'(c_index) == tpu_noc_pkg::CU_REG_CAPS) begin
      c_value[tpu_noc_pkg::CU_REG_CAPS_TYPE_LSB +: tpu_noc_pkg::CU_REG_CAPS_TYPE_W] =
          tpu_noc_pkg::CU_REG_CAPS_TYPE_W'(CapsType);
      c_value[tpu_noc_pkg::CU_REG_CAPS_VERSION_LSB +: tpu_noc_pkg::CU_REG_CAPS_VERSION_W] =
          tpu_noc_pkg::CU_REG_CAPS_VERSION_W'(CapsVersion);
      c_value[tpu_noc_pkg::CU_REG_CAPS_N_BUFFERS_LSB +: tpu_noc_pkg::CU_REG_CAPS_N_BUFFERS_W] =
          tpu_noc_pkg::CU_REG_CAPS_N_BUFFERS_W'(NBuffers);
      c_value[tpu_noc_pkg::CU_REG_CAPS_INST_DEPTH_LSB +: tpu_noc_pkg::CU_REG_CAPS_INST_DEPTH_W] =
          tpu_noc_pkg::CU_REG_CAPS_INST_DEPTH_W'(Depth);
    end else if (32'(c_index) == tpu_noc_pkg::CU_REG_STATUS) begin
      c_value[tpu_noc_pkg::CU_REG_STATUS_BUSY_LSB]  = busy;
      c_value[tpu_noc_pkg::CU_REG_STATUS_ERROR_LSB] = error_q;
      c_value[tpu_noc_pkg::CU_REG_STATUS_INST_SPACE_LSB +: tpu_noc_pkg::CU_REG_STATUS_INST_SPACE_W] =
          tpu_noc_pkg::CU_REG_STATUS_INST_SPACE_W'(Depth - 32'(meta_usage));
    end else if (32'(c_index) == tpu_noc_pkg::CU_REG_COUNTERS) begin
      c_value = counters_i;
    end else if (32'(c_index) == tpu_noc_pkg::CU_REG_DBG) begin
      c_value = dbg_i;
    end
  end

  always_comb begin
    reply_payload = '0;
    reply_payload[tpu_noc_pkg::CU_CTRL_OP_LSB +: tpu_noc_pkg::CU_CTRL_OP_W] = tpu_noc_pkg::CU_CTRL_REPLY;
    reply_payload[tpu_noc_pkg::CU_CTRL_INDEX_LSB +: IdxW]                    = c_index;
    reply_payload[tpu_noc_pkg::CU_CTRL_VALUE_LSB +: ValueW]                  = c_value;
  end
  assign reply_d    = flit_of(h_src_x, h_src_y, tpu_noc_pkg::TYPE_CU_CTRL, h_txn, reply_payload);
  assign reply_load = head_valid && is_ctrl && is_read && !reply_valid;

  tpu_out_reg #(
    .Width(FlitW)
  ) u_reply (
    .clk_i,
    .rst_ni,
    .load_i (reply_load),
    .data_i (reply_d),
    .valid_o(reply_valid),
    .ready_i(reply_pop),
    .data_o (reply_flit)
  );

  // --- CU_DATA: the open transfer --------------------------------------------------------
  logic             open_q, sig_q;
  logic [LenW-1:0]  left_q;                                         // data flits to come - 1
  logic [BufW-1:0]  buf_q;
  logic [GranW-1:0] gran_q;
  logic [PosW-1:0]  ack_x_q, ack_y_q;
  logic [TxnW-1:0]  dtxn_q;
  logic             d_desc, d_word, d_final, ack_load, ack_valid, ack_pop;
  logic [FlitW-1:0] ack_flit;

  assign d_desc  = head_valid && is_data && !open_q;
  assign d_final = open_q && (left_q == '0);
  // A data flit goes when its place is sure: only the final one of a
  // transfer that signals waits, for the DATA_RECEIVED register.
  assign d_word  = head_valid && is_data && open_q && !(d_final && sig_q && ack_valid);
  assign ack_load = d_word && d_final && sig_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q  <= 1'b0;
      sig_q   <= 1'b0;
      left_q  <= '0;
      buf_q   <= '0;
      gran_q  <= '0;
      ack_x_q <= '0;
      ack_y_q <= '0;
      dtxn_q  <= '0;
    end else if (d_desc) begin
      open_q  <= 1'b1;
      sig_q   <= h_payload[tpu_noc_pkg::CU_DATA_FLAGS_LSB + tpu_noc_pkg::CU_DATA_FLAGS_SIGNAL_BIT];
      left_q  <= h_payload[tpu_noc_pkg::CU_DATA_LEN_LSB +: LenW];
      buf_q   <= h_payload[tpu_noc_pkg::CU_DATA_BUF_ID_LSB +: BufW];
      gran_q  <= h_payload[tpu_noc_pkg::CU_DATA_OFFSET_LSB +: GranW];
      ack_x_q <= h_payload[tpu_noc_pkg::CU_DATA_ACK_X_LSB +: tpu_noc_pkg::CU_DATA_ACK_X_W];
      ack_y_q <= h_payload[tpu_noc_pkg::CU_DATA_ACK_Y_LSB +: tpu_noc_pkg::CU_DATA_ACK_Y_W];
      dtxn_q  <= h_txn;
    end else if (d_word) begin
      open_q <= !d_final;
      left_q <= left_q - LenW'(!d_final);
      gran_q <= gran_q + GranW'(1);
    end
  end

  assign data_we_o      = d_word;
  assign data_buf_o     = buf_q;
  assign data_granule_o = gran_q;
  assign data_word_o    = h_payload;

  tpu_out_reg #(
    .Width(FlitW)
  ) u_ack (
    .clk_i,
    .rst_ni,
    .load_i (ack_load),
    .data_i (flit_of(ack_x_q, ack_y_q, tpu_noc_pkg::TYPE_CU_SIGNAL, dtxn_q,
                     signal_of(tpu_noc_pkg::SIG_DATA_RECEIVED, ArgW'(buf_q)))),
    .valid_o(ack_valid),
    .ready_i(ack_pop),
    .data_o (ack_flit)
  );

  // --- The receive FIFO ------------------------------------------------------------------
  logic                recv_push, recv_room;
  logic [RecvUseW-1:0] recv_usage;
  assign recv_push = head_valid && is_other && recv_room;

  tpu_fifo #(
    .Width(FlitW),
    .Depth(tpu_cu_pkg::RECV_DEPTH)
  ) u_recv (
    .clk_i,
    .rst_ni,
    .valid_i(recv_push),
    .ready_o(recv_room),
    .data_i (head),
    .valid_o(recv_valid_o),
    .ready_i(recv_ready_i),
    .data_o (recv_flit_o),
    .usage_o(recv_usage)
  );

  // The head leaves when its destination took it (a CU_CTRL of another op
  // is dropped).
  assign head_pop = meta_push || ovf_push || reply_load || (head_valid && is_ctrl && !is_read) || d_desc ||
                    d_word || recv_push;

  // STATUS.error: an instruction faulted since reset.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) error_q <= 1'b0;
    else if ((exec_done_i && exec_fault_i) || ovf_push) error_q <= 1'b1;
  end

  // --- Injection: round robin into the output register -------------------------------------
  logic [NOut-1:0]       o_valid, o_ready;
  logic [NOut*FlitW-1:0] o_flit;
  logic                  arb_valid, arb_ready;
  logic [FlitW-1:0]      arb_flit;
  logic [2:0]            arb_idx;

  assign o_valid = {send_valid_i, ack_valid, reply_valid, ovf_valid, ret_valid};
  assign o_flit  = {send_flit_i, ack_flit, reply_flit,
                    flit_of(ovf_x, ovf_y, tpu_noc_pkg::TYPE_CU_SIGNAL, ovf_txn,
                            signal_of(tpu_noc_pkg::SIG_FAULT, OvfArg)),
                    ret_flit};
  assign ret_pop      = o_ready[ORetire];
  assign ovf_pop      = o_ready[OOvf];
  assign reply_pop    = o_ready[OReply];
  assign ack_pop      = o_ready[OAck];
  assign send_ready_o = o_ready[OSend];

  tpu_rr_arb #(
    .N    (NOut),
    .Width(FlitW)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .valid_i(o_valid),
    .ready_o(o_ready),
    .data_i (o_flit),
    .valid_o(arb_valid),
    .ready_i(arb_ready),
    .data_o (arb_flit),
    .idx_o  (arb_idx)
  );
  assign arb_ready = !out_valid_o || out_ready_i;

  tpu_out_reg #(
    .Width(FlitW)
  ) u_out (
    .clk_i,
    .rst_ni,
    .load_i (arb_valid && arb_ready),
    .data_i (arb_flit),
    .valid_o(out_valid_o),
    .ready_i(out_ready_i),
    .data_o (out_flit_o)
  );

  logic unused;
  assign unused = ^{head[FlitW-1:tpu_noc_pkg::SRC_X_LSB + PosW], head[tpu_noc_pkg::RSVD_LSB +: tpu_noc_pkg::RSVD_W],
                    in_usage, inst_usage, res_usage, ovf_usage, recv_usage, arb_idx, res_ready, inst_ready};

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: exec_done only for an instruction handed out and not done;
  // the retirement queue and the instruction FIFO never overflow; the stream
  // rule on every stream port.
  // ---------------------------------------------------------------------------
  tpu_assert_never u_exec_done_unowed (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (exec_done_i && (infl_q == '0))
  );
  tpu_assert_never u_result_overflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (exec_done_i && !res_ready)
  );
  tpu_assert_never u_inst_overflow (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (meta_push && !inst_ready)
  );
  // A result for a record: results never outnumber the records.
  tpu_assert_never u_result_unrecorded (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (res_valid && !meta_valid)
  );

  tpu_stream_check #(
    .Width(FlitW)
  ) u_check_in (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(in_valid_i),
    .ready_i(in_ready_o),
    .data_i (in_flit_i)
  );
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
    .Width(PayloadW + TxnW)
  ) u_check_inst (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(inst_valid_o),
    .ready_i(inst_ready_i),
    .data_i ({inst_payload_o, inst_txn_o})
  );
  tpu_stream_check #(
    .Width(FlitW)
  ) u_check_recv (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(recv_valid_o),
    .ready_i(recv_ready_i),
    .data_i (recv_flit_o)
  );
  tpu_stream_check #(
    .Width(FlitW)
  ) u_check_send (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(send_valid_i),
    .ready_i(send_ready_o),
    .data_i (send_flit_i)
  );
`endif

endmodule
