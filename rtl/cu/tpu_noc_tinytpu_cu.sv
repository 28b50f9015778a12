// tpu_noc_tinytpu_cu: one TinyTPU compute unit as a mesh node sees it: the
// CU wrapper (tpu_noc_cu_base: the instruction FIFO, retirement, credits,
// CU_CTRL and CU_DATA) around the TinyTPU unit (tpu_noc_tinytpu_unit: the
// core and its memory traffic through the agent), joined port for port.
// The generated system top (tpu_noc_cu_system) places one on each compute
// unit's node.
//
// Hand-written module of tpugen; the CAPS the wrapper answers are the unit's
// (tpu_cu_pkg::TINYTPU_TYPE, _VERSION, _BUFFERS).
module tpu_noc_tinytpu_cu #(
  parameter int X      = 0,  // this unit's node
  parameter int Y      = 0,
  parameter int AgentX = 0,  // the memory agent's port its requests go to
  parameter int AgentY = 0
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  // mesh ejection (flits for this node)
  input  logic                           in_valid_i,
  output logic                           in_ready_o,
  input  logic [tpu_noc_pkg::FLIT_W-1:0] in_flit_i,
  // mesh injection
  output logic                           out_valid_o,
  input  logic                           out_ready_i,
  output logic [tpu_noc_pkg::FLIT_W-1:0] out_flit_o,
  // the unit executes an instruction
  output logic                           busy_o
);

  logic                                     inst_valid, inst_ready;
  logic [tpu_noc_pkg::PAYLOAD_W-1:0]        inst_payload;
  logic [tpu_noc_pkg::TXN_W-1:0]            inst_txn;
  logic                                     exec_done, exec_fault;
  logic [tpu_noc_pkg::CU_SIGNAL_ARG_W-1:0]  exec_result;
  logic                                     recv_valid, recv_ready;
  logic [tpu_noc_pkg::FLIT_W-1:0]           recv_flit;
  logic                                     send_valid, send_ready;
  logic [tpu_noc_pkg::FLIT_W-1:0]           send_flit;
  logic                                     data_we;
  logic [tpu_noc_pkg::CU_DATA_BUF_ID_W-1:0] data_buf;
  logic [tpu_noc_pkg::CU_DATA_OFFSET_W-1:0] data_granule;
  logic [tpu_noc_pkg::PAYLOAD_W-1:0]        data_word;
  logic [tpu_noc_pkg::CU_CTRL_VALUE_W-1:0]  counters, dbg;

  tpu_noc_cu_base #(
    .X          (X),
    .Y          (Y),
    .CapsType   (tpu_cu_pkg::TINYTPU_TYPE),
    .CapsVersion(tpu_cu_pkg::TINYTPU_VERSION),
    .NBuffers   (tpu_cu_pkg::TINYTPU_BUFFERS)
  ) u_cu_base (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .in_valid_i    (in_valid_i),
    .in_ready_o    (in_ready_o),
    .in_flit_i     (in_flit_i),
    .out_valid_o   (out_valid_o),
    .out_ready_i   (out_ready_i),
    .out_flit_o    (out_flit_o),
    .inst_valid_o  (inst_valid),
    .inst_ready_i  (inst_ready),
    .inst_payload_o(inst_payload),
    .inst_txn_o    (inst_txn),
    .exec_done_i   (exec_done),
    .exec_result_i (exec_result),
    .exec_fault_i  (exec_fault),
    .recv_valid_o  (recv_valid),
    .recv_ready_i  (recv_ready),
    .recv_flit_o   (recv_flit),
    .send_valid_i  (send_valid),
    .send_ready_o  (send_ready),
    .send_flit_i   (send_flit),
    .data_we_o     (data_we),
    .data_buf_o    (data_buf),
    .data_granule_o(data_granule),
    .data_word_o   (data_word),
    .busy_i        (busy_o),
    .counters_i    (counters),
    .dbg_i         (dbg)
  );

  tpu_noc_tinytpu_unit #(
    .X     (X),
    .Y     (Y),
    .AgentX(AgentX),
    .AgentY(AgentY)
  ) u_unit (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .inst_valid_i  (inst_valid),
    .inst_ready_o  (inst_ready),
    .inst_payload_i(inst_payload),
    .inst_txn_i    (inst_txn),
    .exec_done_o   (exec_done),
    .exec_result_o (exec_result),
    .exec_fault_o  (exec_fault),
    .recv_valid_i  (recv_valid),
    .recv_ready_o  (recv_ready),
    .recv_flit_i   (recv_flit),
    .send_valid_o  (send_valid),
    .send_ready_i  (send_ready),
    .send_flit_o   (send_flit),
    .data_we_i     (data_we),
    .data_buf_i    (data_buf),
    .data_granule_i(data_granule),
    .data_word_i   (data_word),
    .busy_o        (busy_o),
    .counters_o    (counters),
    .dbg_o         (dbg)
  );

endmodule
