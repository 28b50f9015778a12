// tpu_noc_system_node: the KohakuTPU system node (seed 003 §4): the memory
// agent (tpu_noc_mem_agent, MEM_PORTS NoC endpoints) and the memory mover
// (tpu_noc_mover, its register window for the orchestrator and the control
// processor's private port), their two AXI4 masters joined onto the node's
// one AXI4 master port to memory by tpu_axi_mux.
//
// Hand-written module of tpugen, copied unchanged into every system-node
// configuration (tpugen sysnode gen). On the memory port an ID is {master,
// the master's own ID}: the master's prefix is its AXI_MASTER_* of the spec
// (spec/system_node.yaml axi.masters; the agent 0, the mover 1), so R and B
// find their way back by it and a memory's trace tells the two apart.
//
// The mover forms its write bursts ahead of its data (a COPY's AW goes out
// when its addresses are issued); the multiplexer routes W in AW order, so
// an agent's write granted after such an AW waits for the mover's data:
// ordering, never a deadlock (the mover's data comes from reads, which do
// not wait for writes).
module tpu_noc_system_node (
  input  logic                                                      clk_i,
  input  logic                                                      rst_ni,
  // the memory agent's NoC endpoints: port p's node {y, x} at [p*NODE_W +: NODE_W]
  input  logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::NODE_W-1:0] node_i,
  input  logic [tpu_agent_pkg::MEM_PORTS-1:0]                       in_valid_i,
  output logic [tpu_agent_pkg::MEM_PORTS-1:0]                       in_ready_o,
  input  logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::FLIT_W-1:0] in_flit_i,
  output logic [tpu_agent_pkg::MEM_PORTS-1:0]                       in_busy_o,
  output logic [tpu_agent_pkg::MEM_PORTS-1:0]                       out_valid_o,
  input  logic [tpu_agent_pkg::MEM_PORTS-1:0]                       out_ready_i,
  output logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::FLIT_W-1:0] out_flit_o,
  // the agent's observability: the requester each out_flit_o answers, and
  // its counters (16 bits a port, wrapping; tpu_noc_mem_agent's)
  output logic [tpu_agent_pkg::MEM_PORTS*tpu_agent_pkg::NODE_W-1:0] out_src_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                    stray_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                    discarded_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                    errors_in_o,
  output logic [tpu_agent_pkg::MEM_PORTS*16-1:0]                    last_mismatch_o,
  output logic                                                      agent_idle_o,
  // the mover's register window (the orchestrator's) ...
  input  logic                                                      host_req_valid_i,
  output logic                                                      host_req_ready_o,
  input  logic                                                      host_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0]                    host_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]                           host_req_wdata_i,
  output logic                                                      host_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]                           host_rsp_rdata_o,
  output logic                                                      host_rsp_go_o,
  // ... and the control processor's private port, the same map
  input  logic                                                      cp_req_valid_i,
  output logic                                                      cp_req_ready_o,
  input  logic                                                      cp_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0]                    cp_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]                           cp_req_wdata_i,
  output logic                                                      cp_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]                           cp_rsp_rdata_o,
  output logic                                                      cp_rsp_go_o,
  output logic                                                      mover_busy_o,
  output logic                                                      mover_done_o,
  output logic [tpu_mover_pkg::FAULT_W-1:0]                         mover_fault_o,
  // the node's AXI4 master port to memory
  output logic                                                      m_aw_valid_o,
  input  logic                                                      m_aw_ready_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]                          m_aw_addr_o,
  output logic [7:0]                                                m_aw_len_o,
  output logic [2:0]                                                m_aw_size_o,
  output logic [1:0]                                                m_aw_burst_o,
  output logic [1:0]                                                m_aw_id_o,
  output logic                                                      m_w_valid_o,
  input  logic                                                      m_w_ready_i,
  output logic [tpu_mover_pkg::WORD_W-1:0]                          m_w_data_o,
  output logic [tpu_mover_pkg::WORD_BYTES-1:0]                      m_w_strb_o,
  output logic                                                      m_w_last_o,
  input  logic                                                      m_b_valid_i,
  output logic                                                      m_b_ready_o,
  input  logic [1:0]                                                m_b_resp_i,
  input  logic [1:0]                                                m_b_id_i,
  output logic                                                      m_ar_valid_o,
  input  logic                                                      m_ar_ready_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]                          m_ar_addr_o,
  output logic [7:0]                                                m_ar_len_o,
  output logic [2:0]                                                m_ar_size_o,
  output logic [1:0]                                                m_ar_burst_o,
  output logic [1:0]                                                m_ar_id_o,
  input  logic                                                      m_r_valid_i,
  output logic                                                      m_r_ready_o,
  input  logic [tpu_mover_pkg::WORD_W-1:0]                          m_r_data_i,
  input  logic [1:0]                                                m_r_resp_i,
  input  logic                                                      m_r_last_i,
  input  logic [1:0]                                                m_r_id_i
);

  localparam int AddrW = tpu_mover_pkg::ADDR_W;
  localparam int WordW = tpu_mover_pkg::WORD_W;
  localparam int Bytes = tpu_mover_pkg::WORD_BYTES;
  localparam int A     = tpu_mover_pkg::AXI_MASTER_AGENT;  // each master's slice of the multiplexer
  localparam int M     = tpu_mover_pkg::AXI_MASTER_MOVER;

  // The multiplexer's master-side vectors.
  logic [1:0]         ar_valid, ar_ready, r_valid, r_ready, aw_valid, aw_ready, w_valid, w_ready, w_last;
  logic [1:0]         b_valid, b_ready, r_last;
  logic [2*AddrW-1:0] ar_addr, aw_addr;
  logic [2*8-1:0]     ar_len, aw_len;
  logic [2*3-1:0]     ar_size, aw_size;
  logic [2*2-1:0]     ar_burst, aw_burst, r_resp, b_resp;
  logic [1:0]         ar_id, aw_id, r_id, b_id;
  logic [2*WordW-1:0] r_data, w_data;
  logic [2*Bytes-1:0] w_strb;

  // --- The memory agent ---------------------------------------------------------------

  tpu_noc_mem_agent u_agent (
    .clk_i,
    .rst_ni,
    .node_i,
    .in_valid_i,
    .in_ready_o,
    .in_flit_i,
    .in_busy_o,
    .out_valid_o,
    .out_ready_i,
    .out_flit_o,
    .out_src_o,
    .stray_o,
    .discarded_o,
    .errors_in_o,
    .last_mismatch_o,
    .idle_o         (agent_idle_o),
    .aw_valid_o     (aw_valid[A]),
    .aw_ready_i     (aw_ready[A]),
    .aw_addr_o      (aw_addr[A*AddrW +: AddrW]),
    .aw_len_o       (aw_len[A*8 +: 8]),
    .aw_size_o      (aw_size[A*3 +: 3]),
    .aw_burst_o     (aw_burst[A*2 +: 2]),
    .aw_id_o        (aw_id[A +: 1]),
    .w_valid_o      (w_valid[A]),
    .w_ready_i      (w_ready[A]),
    .w_data_o       (w_data[A*WordW +: WordW]),
    .w_strb_o       (w_strb[A*Bytes +: Bytes]),
    .w_last_o       (w_last[A]),
    .b_valid_i      (b_valid[A]),
    .b_ready_o      (b_ready[A]),
    .b_resp_i       (b_resp[A*2 +: 2]),
    .b_id_i         (b_id[A +: 1]),
    .ar_valid_o     (ar_valid[A]),
    .ar_ready_i     (ar_ready[A]),
    .ar_addr_o      (ar_addr[A*AddrW +: AddrW]),
    .ar_len_o       (ar_len[A*8 +: 8]),
    .ar_size_o      (ar_size[A*3 +: 3]),
    .ar_burst_o     (ar_burst[A*2 +: 2]),
    .ar_id_o        (ar_id[A +: 1]),
    .r_valid_i      (r_valid[A]),
    .r_ready_o      (r_ready[A]),
    .r_data_i       (r_data[A*WordW +: WordW]),
    .r_resp_i       (r_resp[A*2 +: 2]),
    .r_last_i       (r_last[A]),
    .r_id_i         (r_id[A +: 1])
  );

  // --- The memory mover -----------------------------------------------------------------
  tpu_noc_mover u_mover (
    .clk_i,
    .rst_ni,
    .host_req_valid_i,
    .host_req_ready_o,
    .host_req_write_i,
    .host_req_addr_i,
    .host_req_wdata_i,
    .host_rsp_valid_o,
    .host_rsp_rdata_o,
    .host_rsp_go_o,
    .cp_req_valid_i,
    .cp_req_ready_o,
    .cp_req_write_i,
    .cp_req_addr_i,
    .cp_req_wdata_i,
    .cp_rsp_valid_o,
    .cp_rsp_rdata_o,
    .cp_rsp_go_o,
    .busy_o    (mover_busy_o),
    .done_o    (mover_done_o),
    .fault_o   (mover_fault_o),
    .aw_valid_o(aw_valid[M]),
    .aw_ready_i(aw_ready[M]),
    .aw_addr_o (aw_addr[M*AddrW +: AddrW]),
    .aw_len_o  (aw_len[M*8 +: 8]),
    .aw_size_o (aw_size[M*3 +: 3]),
    .aw_burst_o(aw_burst[M*2 +: 2]),
    .aw_id_o   (aw_id[M +: 1]),
    .w_valid_o (w_valid[M]),
    .w_ready_i (w_ready[M]),
    .w_data_o  (w_data[M*WordW +: WordW]),
    .w_strb_o  (w_strb[M*Bytes +: Bytes]),
    .w_last_o  (w_last[M]),
    .b_valid_i (b_valid[M]),
    .b_ready_o (b_ready[M]),
    .b_resp_i  (b_resp[M*2 +: 2]),
    .b_id_i    (b_id[M +: 1]),
    .ar_valid_o(ar_valid[M]),
    .ar_ready_i(ar_ready[M]),
    .ar_addr_o (ar_addr[M*AddrW +: AddrW]),
    .ar_len_o  (ar_len[M*8 +: 8]),
    .ar_size_o (ar_size[M*3 +: 3]),
    .ar_burst_o(ar_burst[M*2 +: 2]),
    .ar_id_o   (ar_id[M +: 1]),
    .r_valid_i (r_valid[M]),
    .r_ready_o (r_ready[M]),
    .r_data_i  (r_data[M*WordW +: WordW]),
    .r_resp_i  (r_resp[M*2 +: 2]),
    .r_last_i  (r_last[M]),
    .r_id_i    (r_id[M +: 1])
  );

  // --- One AXI4 master port -------------------------------------------------------------
  tpu_axi_mux #(
    .NumMasters(2),
    .SlvIdW    (1),
    .AddrW     (AddrW),
    .DataBytes (Bytes),
    .MaxWTrans (tpu_mover_pkg::WR_BURSTS + tpu_agent_pkg::MEM_PORTS * tpu_agent_pkg::WR_SLOTS)
  ) u_mux (
    .clk_i,
    .rst_ni,
    .s_ar_valid_i(ar_valid),
    .s_ar_ready_o(ar_ready),
    .s_ar_addr_i (ar_addr),
    .s_ar_len_i  (ar_len),
    .s_ar_size_i (ar_size),
    .s_ar_burst_i(ar_burst),
    .s_ar_id_i   (ar_id),
    .s_r_valid_o (r_valid),
    .s_r_ready_i (r_ready),
    .s_r_data_o  (r_data),
    .s_r_resp_o  (r_resp),
    .s_r_last_o  (r_last),
    .s_r_id_o    (r_id),
    .s_aw_valid_i(aw_valid),
    .s_aw_ready_o(aw_ready),
    .s_aw_addr_i (aw_addr),
    .s_aw_len_i  (aw_len),
    .s_aw_size_i (aw_size),
    .s_aw_burst_i(aw_burst),
    .s_aw_id_i   (aw_id),
    .s_w_valid_i (w_valid),
    .s_w_ready_o (w_ready),
    .s_w_data_i  (w_data),
    .s_w_strb_i  (w_strb),
    .s_w_last_i  (w_last),
    .s_b_valid_o (b_valid),
    .s_b_ready_i (b_ready),
    .s_b_resp_o  (b_resp),
    .s_b_id_o    (b_id),
    .m_ar_valid_o,
    .m_ar_ready_i,
    .m_ar_addr_o,
    .m_ar_len_o,
    .m_ar_size_o,
    .m_ar_burst_o,
    .m_ar_id_o,
    .m_r_valid_i,
    .m_r_ready_o,
    .m_r_data_i,
    .m_r_resp_i,
    .m_r_last_i,
    .m_r_id_i,
    .m_aw_valid_o,
    .m_aw_ready_i,
    .m_aw_addr_o,
    .m_aw_len_o,
    .m_aw_size_o,
    .m_aw_burst_o,
    .m_aw_id_o,
    .m_w_valid_o,
    .m_w_ready_i,
    .m_w_data_o,
    .m_w_strb_o,
    .m_w_last_o,
    .m_b_valid_i,
    .m_b_ready_o,
    .m_b_resp_i,
    .m_b_id_i
  );

  // The spec's two masters are slices 0 and 1 of the multiplexer; any other
  // numbering is refused at elaboration by a module that does not exist (the
  // refusal all three tools report: Icarus 11 has no elaboration-time $error).
  if (A == M || A < 0 || A > 1 || M < 0 || M > 1) begin : g_masters_check
    tpu_noc_system_node_masters_unsupported u_refuse ();
  end

endmodule
