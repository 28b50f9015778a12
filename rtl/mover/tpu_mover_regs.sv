// tpu_mover_regs: the memory mover's command registers (mover-notes §1), the
// same map from two ports: the host's control window (through the
// orchestrator) and the control processor's private port.
//
// Hand-written module of tpugen, copied unchanged into every mover
// configuration (tpugen mover gen). The offsets, the fields' places and
// reset values are tpu_mover_pkg's (from spec/system_node.yaml).
//
// Arbitration: one access a cycle. When both ports ask in the same cycle the
// one that did not win the last such contest goes first (round-robin); the
// other's ready stays low and it is taken the next cycle. A request is
// answered the cycle after it is taken (rsp_valid_o, no ready): a read with
// STATUS at REG_STATUS and 0 at any other offset (a write-only register reads
// 0, as the reference model's do), a write with 0.
//
// Writes: a select field picks the walker, dimension or axis the values go
// to; a DIM write stages its values until a DIM_BOUND write commits them
// (a commit with nothing staged, or naming dimension DIMS or above, changes
// nothing; the staged values stay for a later commit). A write to an offset
// no register has, or to STATUS, changes nothing.
//
// GO: a MOVE write with GO set starts a move when the mover is idle and no
// GO is pending (go_o is high the cycle after the write, when the registers
// hold what it wrote; the mover takes them in that cycle and is busy from
// the next). Otherwise the GO is ignored and, like every other field of the
// write, only the values are stored. Because one access is taken a cycle and
// a pending GO counts as busy, of two GOs racing from the two ports exactly
// one starts a move and each port learns which: rsp_go_o comes with a
// write's response, high when that write's GO started the move. No GO is
// lost silently. go_now_o is high in the cycle of the write whose GO starts
// the move: one access is taken a cycle, so the other registers hold the
// move's values already (the walkers start their setup then).
module tpu_mover_regs (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // port 0: the host's control window
  input  logic                                     host_req_valid_i,
  output logic                                     host_req_ready_o,
  input  logic                                     host_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0]   host_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]          host_req_wdata_i,
  output logic                                     host_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]          host_rsp_rdata_o,
  output logic                                     host_rsp_go_o,
  // port 1: the control processor's private port, the same map
  input  logic                                     cp_req_valid_i,
  output logic                                     cp_req_ready_o,
  input  logic                                     cp_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0]   cp_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]          cp_req_wdata_i,
  output logic                                     cp_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]          cp_rsp_rdata_o,
  output logic                                     cp_rsp_go_o,
  // the mover's state, for STATUS and the GO rule
  input  logic                                     busy_i,
  input  logic [tpu_mover_pkg::FAULT_W-1:0]         fault_i,
  input  logic [tpu_mover_pkg::STATUS_MOVES_DONE_W-1:0] moves_done_i,
  // a move starts: the registers below hold its descriptor this cycle
  output logic                                     go_o,
  // the GO that starts it is written now: every register but MOVE already
  // holds the move's (the walkers may start their setup)
  output logic                                     go_now_o,
  // the move's registers
  output logic [tpu_mover_pkg::MOVE_MODE_W-1:0]          mode_o,
  output logic [tpu_mover_pkg::MOVE_ELEM_WIDTH_W-1:0]    elem_width_o,
  output logic [tpu_mover_pkg::MOVE_FLAGS_W-1:0]         flags_o,
  output logic [tpu_mover_pkg::MOVE_XFORM_ID_W-1:0]      xform_id_o,
  output logic [tpu_mover_pkg::MOVE_XFORM_MODE_W-1:0]    xform_mode_o,
  output logic [tpu_mover_pkg::INDEX_INDEX_BASE_W-1:0]   index_base_o,
  output logic [tpu_mover_pkg::INDEX_INDEX_COUNT_W-1:0]  index_count_o,
  output logic [tpu_mover_pkg::SEED_SEED_W-1:0]          seed_o,
  output logic [tpu_mover_pkg::IMM_IMM_W-1:0]            imm_o,
  output logic [tpu_mover_pkg::GATHER_PITCH_W-1:0]       pitch_o,
  output logic [tpu_mover_pkg::GATHER_GATHER_WORDS_W-1:0] gather_words_o,
  // the walkers' registers: walker w at [w*W +: W], its dimension d at [(w*DIMS+d)*W +: W], axis a at [(w*AXES+a)*W +: W]
  output logic [2*tpu_mover_pkg::WALKER_BASE_W-1:0]                          base_o,
  output logic [2*tpu_mover_pkg::WALKER_NDIM_W-1:0]                          ndim_o,
  output logic [2*tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_COUNT_W-1:0]        count_o,
  output logic [2*tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_STRIDE_W-1:0]       stride_o,
  output logic [2*tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W-1:0] sel_o,
  output logic [2*tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_BOUND_ASTEP_W-1:0]  astep_o,
  output logic [2*tpu_mover_pkg::AXES*tpu_mover_pkg::AXIS_ABASE_W-1:0]       abase_o,
  output logic [2*tpu_mover_pkg::AXES*tpu_mover_pkg::AXIS_EXTENT_W-1:0]      extent_o
);

  localparam int Dims = tpu_mover_pkg::DIMS;
  localparam int Axes = tpu_mover_pkg::AXES;

  // --- Arbitration: one access a cycle, round-robin on a contest -----------------------
  logic                    take_host, take_cp, take, prefer_cp_q;
  logic                    wr;
  logic [tpu_mover_pkg::REG_OFFSET_W-1:0] addr;
  logic [tpu_mover_pkg::REG_W-1:0]        wdata;

  assign take_host = host_req_valid_i && (!cp_req_valid_i || !prefer_cp_q);
  assign take_cp   = cp_req_valid_i && !take_host;
  assign take      = take_host || take_cp;
  assign wr        = take_host ? host_req_write_i : cp_req_write_i;
  assign addr      = take_host ? host_req_addr_i : cp_req_addr_i;
  assign wdata     = take_host ? host_req_wdata_i : cp_req_wdata_i;

  assign host_req_ready_o = take_host;
  assign cp_req_ready_o   = take_cp;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) prefer_cp_q <= 1'b0;
    else if (host_req_valid_i && cp_req_valid_i) prefer_cp_q <= take_host;
  end

  // --- The write's fields ----------------------------------------------------------------
  function automatic logic [tpu_mover_pkg::REG_W-1:0] field(input logic [tpu_mover_pkg::REG_W-1:0] v, input int lsb, input int w);
    field = (v >> lsb) & ((tpu_mover_pkg::REG_W'(1) << w) - tpu_mover_pkg::REG_W'(1));
  endfunction

  logic w_move, w_walker, w_dim, w_dim_bound, w_axis, w_index, w_seed, w_imm, w_gather;
  assign w_move      = take && wr && (addr == tpu_mover_pkg::REG_MOVE);
  assign w_walker    = take && wr && (addr == tpu_mover_pkg::REG_WALKER);
  assign w_dim       = take && wr && (addr == tpu_mover_pkg::REG_DIM);
  assign w_dim_bound = take && wr && (addr == tpu_mover_pkg::REG_DIM_BOUND);
  assign w_axis      = take && wr && (addr == tpu_mover_pkg::REG_AXIS);
  assign w_index     = take && wr && (addr == tpu_mover_pkg::REG_INDEX);
  assign w_seed      = take && wr && (addr == tpu_mover_pkg::REG_SEED);
  assign w_imm       = take && wr && (addr == tpu_mover_pkg::REG_IMM);
  assign w_gather    = take && wr && (addr == tpu_mover_pkg::REG_GATHER);

  logic go_write, go_start, go_q;
  assign go_write = w_move && (field(wdata, tpu_mover_pkg::MOVE_GO_LSB, tpu_mover_pkg::MOVE_GO_W) != '0);
  assign go_start = go_write && !busy_i && !go_q;

  // --- The registers ---------------------------------------------------------------------
  logic [tpu_mover_pkg::REG_W-1:0] staged_q;   // the last DIM write
  logic             staged_valid_q;
  logic             s_walker;   // the staged write's walker and dimension
  logic [tpu_mover_pkg::DIM_DIMENSION_W-1:0] s_dim;
  assign s_walker = staged_q[tpu_mover_pkg::DIM_WALKER_LSB];
  assign s_dim    = tpu_mover_pkg::DIM_DIMENSION_W'(field(staged_q, tpu_mover_pkg::DIM_DIMENSION_LSB, tpu_mover_pkg::DIM_DIMENSION_W));

  logic             wk_walker, ax_walker;
  logic             ax_axis;
  assign wk_walker = wdata[tpu_mover_pkg::WALKER_WALKER_LSB];
  assign ax_walker = wdata[tpu_mover_pkg::AXIS_WALKER_LSB];
  assign ax_axis   = wdata[tpu_mover_pkg::AXIS_AXIS_LSB];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_o         <= tpu_mover_pkg::MOVE_MODE_RESET;
      elem_width_o   <= tpu_mover_pkg::MOVE_ELEM_WIDTH_RESET;
      flags_o        <= tpu_mover_pkg::MOVE_FLAGS_RESET;
      xform_id_o     <= tpu_mover_pkg::MOVE_XFORM_ID_RESET;
      xform_mode_o   <= tpu_mover_pkg::MOVE_XFORM_MODE_RESET;
      index_base_o   <= tpu_mover_pkg::INDEX_INDEX_BASE_RESET;
      index_count_o  <= tpu_mover_pkg::INDEX_INDEX_COUNT_RESET;
      seed_o         <= tpu_mover_pkg::SEED_SEED_RESET;
      imm_o          <= tpu_mover_pkg::IMM_IMM_RESET;
      pitch_o        <= tpu_mover_pkg::GATHER_PITCH_RESET;
      gather_words_o <= tpu_mover_pkg::GATHER_GATHER_WORDS_RESET;
      base_o         <= {2{tpu_mover_pkg::WALKER_BASE_RESET}};
      ndim_o         <= {2{tpu_mover_pkg::WALKER_NDIM_RESET}};
      count_o        <= {2*Dims{tpu_mover_pkg::DIM_COUNT_RESET}};
      stride_o       <= {2*Dims{tpu_mover_pkg::DIM_STRIDE_RESET}};
      sel_o          <= {2*Dims{tpu_mover_pkg::DIM_BOUND_BOUND_SEL_RESET}};
      astep_o        <= {2*Dims{tpu_mover_pkg::DIM_BOUND_ASTEP_RESET}};
      abase_o        <= {2*Axes{tpu_mover_pkg::AXIS_ABASE_RESET}};
      extent_o       <= {2*Axes{tpu_mover_pkg::AXIS_EXTENT_RESET}};
      staged_q       <= '0;
      staged_valid_q <= 1'b0;
    end else begin
      if (w_move) begin
        mode_o       <= tpu_mover_pkg::MOVE_MODE_W'(field(wdata, tpu_mover_pkg::MOVE_MODE_LSB, tpu_mover_pkg::MOVE_MODE_W));
        elem_width_o <= tpu_mover_pkg::MOVE_ELEM_WIDTH_W'(field(wdata, tpu_mover_pkg::MOVE_ELEM_WIDTH_LSB, tpu_mover_pkg::MOVE_ELEM_WIDTH_W));
        flags_o      <= tpu_mover_pkg::MOVE_FLAGS_W'(field(wdata, tpu_mover_pkg::MOVE_FLAGS_LSB, tpu_mover_pkg::MOVE_FLAGS_W));
        xform_id_o   <= tpu_mover_pkg::MOVE_XFORM_ID_W'(field(wdata, tpu_mover_pkg::MOVE_XFORM_ID_LSB, tpu_mover_pkg::MOVE_XFORM_ID_W));
        xform_mode_o <= tpu_mover_pkg::MOVE_XFORM_MODE_W'(field(wdata, tpu_mover_pkg::MOVE_XFORM_MODE_LSB, tpu_mover_pkg::MOVE_XFORM_MODE_W));
      end
      if (w_walker) begin
        base_o[32'(wk_walker)*tpu_mover_pkg::WALKER_BASE_W +: tpu_mover_pkg::WALKER_BASE_W] <=
            tpu_mover_pkg::WALKER_BASE_W'(field(wdata, tpu_mover_pkg::WALKER_BASE_LSB, tpu_mover_pkg::WALKER_BASE_W));
        ndim_o[32'(wk_walker)*tpu_mover_pkg::WALKER_NDIM_W +: tpu_mover_pkg::WALKER_NDIM_W] <=
            tpu_mover_pkg::WALKER_NDIM_W'(field(wdata, tpu_mover_pkg::WALKER_NDIM_LSB, tpu_mover_pkg::WALKER_NDIM_W));
      end
      if (w_dim) begin
        staged_q       <= wdata;
        staged_valid_q <= 1'b1;
      end
      if (w_dim_bound && staged_valid_q && (32'(s_dim) < Dims)) begin
        count_o[(32'(s_walker)*Dims+32'(s_dim))*tpu_mover_pkg::DIM_COUNT_W +: tpu_mover_pkg::DIM_COUNT_W] <=
            tpu_mover_pkg::DIM_COUNT_W'(field(staged_q, tpu_mover_pkg::DIM_COUNT_LSB, tpu_mover_pkg::DIM_COUNT_W));
        stride_o[(32'(s_walker)*Dims+32'(s_dim))*tpu_mover_pkg::DIM_STRIDE_W +: tpu_mover_pkg::DIM_STRIDE_W] <=
            tpu_mover_pkg::DIM_STRIDE_W'(field(staged_q, tpu_mover_pkg::DIM_STRIDE_LSB, tpu_mover_pkg::DIM_STRIDE_W));
        sel_o[(32'(s_walker)*Dims+32'(s_dim))*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W +: tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W] <=
            tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W'(field(wdata, tpu_mover_pkg::DIM_BOUND_BOUND_SEL_LSB, tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W));
        astep_o[(32'(s_walker)*Dims+32'(s_dim))*tpu_mover_pkg::DIM_BOUND_ASTEP_W +: tpu_mover_pkg::DIM_BOUND_ASTEP_W] <=
            tpu_mover_pkg::DIM_BOUND_ASTEP_W'(field(wdata, tpu_mover_pkg::DIM_BOUND_ASTEP_LSB, tpu_mover_pkg::DIM_BOUND_ASTEP_W));
      end
      if (w_axis) begin
        abase_o[(32'(ax_walker)*Axes+32'(ax_axis))*tpu_mover_pkg::AXIS_ABASE_W +: tpu_mover_pkg::AXIS_ABASE_W] <=
            tpu_mover_pkg::AXIS_ABASE_W'(field(wdata, tpu_mover_pkg::AXIS_ABASE_LSB, tpu_mover_pkg::AXIS_ABASE_W));
        extent_o[(32'(ax_walker)*Axes+32'(ax_axis))*tpu_mover_pkg::AXIS_EXTENT_W +: tpu_mover_pkg::AXIS_EXTENT_W] <=
            tpu_mover_pkg::AXIS_EXTENT_W'(field(wdata, tpu_mover_pkg::AXIS_EXTENT_LSB, tpu_mover_pkg::AXIS_EXTENT_W));
      end
      if (w_index) begin
        index_base_o  <= tpu_mover_pkg::INDEX_INDEX_BASE_W'(field(wdata, tpu_mover_pkg::INDEX_INDEX_BASE_LSB, tpu_mover_pkg::INDEX_INDEX_BASE_W));
        index_count_o <= tpu_mover_pkg::INDEX_INDEX_COUNT_W'(field(wdata, tpu_mover_pkg::INDEX_INDEX_COUNT_LSB, tpu_mover_pkg::INDEX_INDEX_COUNT_W));
      end
      if (w_seed) seed_o <= tpu_mover_pkg::SEED_SEED_W'(field(wdata, tpu_mover_pkg::SEED_SEED_LSB, tpu_mover_pkg::SEED_SEED_W));
      if (w_imm) imm_o <= tpu_mover_pkg::IMM_IMM_W'(field(wdata, tpu_mover_pkg::IMM_IMM_LSB, tpu_mover_pkg::IMM_IMM_W));
      if (w_gather) begin
        pitch_o        <= tpu_mover_pkg::GATHER_PITCH_W'(field(wdata, tpu_mover_pkg::GATHER_PITCH_LSB, tpu_mover_pkg::GATHER_PITCH_W));
        gather_words_o <= tpu_mover_pkg::GATHER_GATHER_WORDS_W'(field(wdata, tpu_mover_pkg::GATHER_GATHER_WORDS_LSB, tpu_mover_pkg::GATHER_GATHER_WORDS_W));
      end
    end
  end

  // --- GO and the responses ----------------------------------------------------------------
  logic [tpu_mover_pkg::REG_W-1:0] status;
  always_comb begin
    status = '0;
    status[tpu_mover_pkg::STATUS_BUSY_LSB +: tpu_mover_pkg::STATUS_BUSY_W]             = tpu_mover_pkg::STATUS_BUSY_W'(busy_i || go_q);
    status[tpu_mover_pkg::STATUS_FAULT_LSB +: tpu_mover_pkg::STATUS_FAULT_W]           = tpu_mover_pkg::STATUS_FAULT_W'(fault_i);
    status[tpu_mover_pkg::STATUS_MOVES_DONE_LSB +: tpu_mover_pkg::STATUS_MOVES_DONE_W] = moves_done_i;
  end

  logic             rsp_host_q, rsp_cp_q, rsp_go_q;
  logic [tpu_mover_pkg::REG_W-1:0] rsp_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      go_q       <= 1'b0;
      rsp_host_q <= 1'b0;
      rsp_cp_q   <= 1'b0;
      rsp_go_q   <= 1'b0;
      rsp_data_q <= '0;
    end else begin
      go_q       <= go_start;
      rsp_host_q <= take_host;
      rsp_cp_q   <= take_cp;
      rsp_go_q   <= go_start;
      rsp_data_q <= (take && !wr && (addr == tpu_mover_pkg::REG_STATUS)) ? status : '0;
    end
  end

  assign go_o             = go_q;
  assign go_now_o         = go_start;
  assign host_rsp_valid_o = rsp_host_q;
  assign cp_rsp_valid_o   = rsp_cp_q;
  assign host_rsp_rdata_o = rsp_host_q ? rsp_data_q : '0;
  assign cp_rsp_rdata_o   = rsp_cp_q ? rsp_data_q : '0;
  assign host_rsp_go_o    = rsp_host_q && rsp_go_q;
  assign cp_rsp_go_o      = rsp_cp_q && rsp_go_q;

`ifdef TPU_ASSERT
  // One access a cycle; a GO starts only an idle mover.
  tpu_assert_never u_two_taken (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (take_host && take_cp)
  );
  tpu_assert_never u_go_while_busy (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (go_q && busy_i)
  );
`endif

endmodule
