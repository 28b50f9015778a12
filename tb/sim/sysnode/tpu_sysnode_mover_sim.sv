// tpu_sysnode_mover_sim: the mover's harness's top for a run through the
// whole system node: tpu_noc_system_node with the memory agent's endpoints
// idle, behind the mover's own port names, so that tb/sim/mover/mover_main.cpp
// drives the mover's registers and answers the node's AXI4 port, whose IDs
// carry the multiplexer's master prefix (two bits: the mover's is 1).
// Harness-only: compiled by Verilator with the system node's configuration
// (tb/sim/mover_engine.cpp), never part of a generated one.
module tpu_sysnode_mover_sim (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // register port of the host's control window
  input  logic                                   host_req_valid_i,
  output logic                                   host_req_ready_o,
  input  logic                                   host_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0] host_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]        host_req_wdata_i,
  output logic                                   host_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]        host_rsp_rdata_o,
  output logic                                   host_rsp_go_o,
  // the control processor's private port, the same map
  input  logic                                   cp_req_valid_i,
  output logic                                   cp_req_ready_o,
  input  logic                                   cp_req_write_i,
  input  logic [tpu_mover_pkg::REG_OFFSET_W-1:0] cp_req_addr_i,
  input  logic [tpu_mover_pkg::REG_W-1:0]        cp_req_wdata_i,
  output logic                                   cp_rsp_valid_o,
  output logic [tpu_mover_pkg::REG_W-1:0]        cp_rsp_rdata_o,
  output logic                                   cp_rsp_go_o,
  // the mover's state
  output logic                                   busy_o,
  output logic                                   done_o,    // a cycle when a move ends
  output logic [tpu_mover_pkg::FAULT_W-1:0]      fault_o,   // as STATUS.fault
  // AXI4 master
  output logic                                   aw_valid_o,
  input  logic                                   aw_ready_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]       aw_addr_o,
  output logic [7:0]                             aw_len_o,
  output logic [2:0]                             aw_size_o,
  output logic [1:0]                             aw_burst_o,
  output logic [1:0]                             aw_id_o,
  output logic                                   w_valid_o,
  input  logic                                   w_ready_i,
  output logic [tpu_mover_pkg::WORD_W-1:0]       w_data_o,
  output logic [tpu_mover_pkg::WORD_BYTES-1:0]   w_strb_o,
  output logic                                   w_last_o,
  input  logic                                   b_valid_i,
  output logic                                   b_ready_o,
  input  logic [1:0]                             b_resp_i,
  input  logic [1:0]                             b_id_i,
  output logic                                   ar_valid_o,
  input  logic                                   ar_ready_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]       ar_addr_o,
  output logic [7:0]                             ar_len_o,
  output logic [2:0]                             ar_size_o,
  output logic [1:0]                             ar_burst_o,
  output logic [1:0]                             ar_id_o,
  input  logic                                   r_valid_i,
  output logic                                   r_ready_o,
  input  logic [tpu_mover_pkg::WORD_W-1:0]       r_data_i,
  input  logic [1:0]                             r_resp_i,
  input  logic                                   r_last_i,
  input  logic [1:0]                             r_id_i
);

  // The agent's endpoints idle: nothing comes in, anything out is taken.
  localparam int Ports = tpu_agent_pkg::MEM_PORTS;
  logic [Ports-1:0]                        unused_in_ready, unused_in_busy, unused_out_valid;
  logic [Ports*tpu_agent_pkg::FLIT_W-1:0]  unused_out_flit;
  logic                                    unused_agent_idle;
  logic [Ports*tpu_agent_pkg::NODE_W-1:0]  unused_out_src;
  logic [Ports*16-1:0]                     unused_stray, unused_discarded, unused_errors_in, unused_last_mismatch;

  tpu_noc_system_node u_node (
    .clk_i,
    .rst_ni,
    .node_i          ('0),
    .in_valid_i      ('0),
    .in_ready_o      (unused_in_ready),
    .in_flit_i       ('0),
    .in_busy_o       (unused_in_busy),
    .out_valid_o     (unused_out_valid),
    .out_ready_i     ('1),
    .out_flit_o      (unused_out_flit),
    .out_src_o       (unused_out_src),
    .stray_o         (unused_stray),
    .discarded_o     (unused_discarded),
    .errors_in_o     (unused_errors_in),
    .last_mismatch_o (unused_last_mismatch),
    .agent_idle_o    (unused_agent_idle),
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
    .mover_busy_o    (busy_o),
    .mover_done_o    (done_o),
    .mover_fault_o   (fault_o),
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
  assign unused = ^{unused_in_ready, unused_in_busy, unused_out_valid, unused_out_flit, unused_agent_idle,
                    unused_out_src, unused_stray, unused_discarded, unused_errors_in, unused_last_mismatch};

endmodule
