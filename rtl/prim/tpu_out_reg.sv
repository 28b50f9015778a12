// tpu_out_reg: a one-entry output register of a valid/ready stream whose
// producer checks for room itself (load_i only when the register is empty
// or handshakes in this cycle).
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration: the sequencer's dispatch registers, and the request
// registers of tpu_seq_fetch, tpu_dma_rd, tpu_dma_wr and tpu_axi_burst
// (u_req, u_ax). Stream rule (PULP common_cells): valid_o comes from a
// register and never depends on ready_i; once valid_o rises, data_o holds
// until the handshake. A load in the cycle of a handshake shows the next
// item in the next cycle (one item a cycle). The data register is not reset:
// it is read only while valid_o is high.
//
// Assertions (at the end, under `ifdef TPU_ASSERT, as in tpu_fifo): no load
// while the register holds an item that is not taken (it would be lost),
// and valid_o and data_o hold until the handshake (tpu_stream_check).
//
// Parameters:
//   Width  bits of one item
module tpu_out_reg #(
  parameter int Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // producer: load data_i (only when there is room)
  input  logic             load_i,
  input  logic [Width-1:0] data_i,
  // output stream
  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o
);

  logic             valid_q;
  logic [Width-1:0] data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else if (load_i) begin
      valid_q <= 1'b1;
    end else if (ready_i) begin
      valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (load_i) data_q <= data_i;
  end

  assign valid_o = valid_q;
  assign data_o  = data_q;

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: no load while an item waits (it would be lost), and the
  // stream rule on the output.
  // ---------------------------------------------------------------------------
  tpu_assert_never u_load_while_full (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (load_i && valid_o && !ready_i)
  );

  tpu_stream_check #(
    .Width(Width)
  ) u_check_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_o),
    .ready_i(ready_i),
    .data_i (data_o)
  );
`endif

endmodule
