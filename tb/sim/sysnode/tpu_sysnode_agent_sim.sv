// tpu_sysnode_agent_sim: the agent's harness's top for a run through the
// whole system node: tpu_noc_system_node with the memory mover idle, behind
// the agent's own port names, so that tb/sim/agent/agent_main.cpp drives the
// agent's endpoints and answers the node's AXI4 port, whose IDs carry the
// multiplexer's master prefix (two bits: the agent's is 0).
// Harness-only: compiled by Verilator with the system node's configuration
// (tb/sim/agent_engine.cpp), never part of a generated one.
module tpu_sysnode_agent_sim (
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
  output logic [1:0]                                              aw_id_o,
  output logic                                                    w_valid_o,
  input  logic                                                    w_ready_i,
  output logic [tpu_agent_pkg::WORD_W-1:0]                        w_data_o,
  output logic [tpu_agent_pkg::WORD_BYTES-1:0]                    w_strb_o,
  output logic                                                    w_last_o,
  input  logic                                                    b_valid_i,
  output logic                                                    b_ready_o,
  input  logic [1:0]                                              b_resp_i,
  input  logic [1:0]                                              b_id_i,
  output logic                                                    ar_valid_o,
  input  logic                                                    ar_ready_i,
  output logic [tpu_agent_pkg::ADDR_W-1:0]                        ar_addr_o,
  output logic [7:0]                                              ar_len_o,
  output logic [2:0]                                              ar_size_o,
  output logic [1:0]                                              ar_burst_o,
  output logic [1:0]                                              ar_id_o,
  input  logic                                                    r_valid_i,
  output logic                                                    r_ready_o,
  input  logic [tpu_agent_pkg::WORD_W-1:0]                        r_data_i,
  input  logic [1:0]                                              r_resp_i,
  input  logic                                                    r_last_i,
  input  logic [1:0]                                              r_id_i
);

  // The mover idle: no register access, its outputs unused.
  logic                                     unused_host_ready, unused_host_rsp, unused_host_go;
  logic                                     unused_cp_ready, unused_cp_rsp, unused_cp_go;
  logic [tpu_mover_pkg::REG_W-1:0]          unused_host_rdata, unused_cp_rdata;
  logic                                     unused_busy, unused_done;
  logic [tpu_mover_pkg::FAULT_W-1:0]        unused_fault;

  tpu_noc_system_node u_node (
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
    .agent_idle_o    (idle_o),
    .host_req_valid_i(1'b0),
    .host_req_ready_o(unused_host_ready),
    .host_req_write_i(1'b0),
    .host_req_addr_i ('0),
    .host_req_wdata_i('0),
    .host_rsp_valid_o(unused_host_rsp),
    .host_rsp_rdata_o(unused_host_rdata),
    .host_rsp_go_o   (unused_host_go),
    .cp_req_valid_i  (1'b0),
    .cp_req_ready_o  (unused_cp_ready),
    .cp_req_write_i  (1'b0),
    .cp_req_addr_i   ('0),
    .cp_req_wdata_i  ('0),
    .cp_rsp_valid_o  (unused_cp_rsp),
    .cp_rsp_rdata_o  (unused_cp_rdata),
    .cp_rsp_go_o     (unused_cp_go),
    .mover_busy_o    (unused_busy),
    .mover_done_o    (unused_done),
    .mover_fault_o   (unused_fault),
    .m_aw_valid_o    (aw_valid_o),
    .m_aw_ready_i    (aw_ready_i),
    .m_aw_addr_o     (aw_addr_o),
    .m_aw_len_o      (aw_len_o),
    .m_aw_size_o     (aw_size_o),
    .m_aw_burst_o    (aw_burst_o),
    .m_aw_id_o       (aw_id_o),
    .m_w_valid_o     (w_valid_o),
    .m_w_ready_i     (w_ready_i),
    .m_w_data_o      (w_data_o),
    .m_w_strb_o      (w_strb_o),
    .m_w_last_o      (w_last_o),
    .m_b_valid_i     (b_valid_i),
    .m_b_ready_o     (b_ready_o),
    .m_b_resp_i      (b_resp_i),
    .m_b_id_i        (b_id_i),
    .m_ar_valid_o    (ar_valid_o),
    .m_ar_ready_i    (ar_ready_i),
    .m_ar_addr_o     (ar_addr_o),
    .m_ar_len_o      (ar_len_o),
    .m_ar_size_o     (ar_size_o),
    .m_ar_burst_o    (ar_burst_o),
    .m_ar_id_o       (ar_id_o),
    .m_r_valid_i     (r_valid_i),
    .m_r_ready_o     (r_ready_o),
    .m_r_data_i      (r_data_i),
    .m_r_resp_i      (r_resp_i),
    .m_r_last_i      (r_last_i),
    .m_r_id_i        (r_id_i)
  );

  logic unused;
  assign unused = ^{unused_host_ready, unused_host_rsp, unused_host_go, unused_cp_ready, unused_cp_rsp, unused_cp_go,
                    unused_host_rdata, unused_cp_rdata, unused_busy, unused_done, unused_fault};

endmodule
