// tpu_stream_check: assertions on one valid/ready stream port (simulation
// only). Once valid_i rises it holds until the handshake (valid_i && ready_i),
// and data_i does not change while valid_i waits.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration. The primitives instantiate it (u_check_*) under
// `ifdef TPU_ASSERT: tpugen's harness build defines it and runs Verilator
// with --assert; synthesis leaves it undefined, and this module is then an
// empty shell that nothing instantiates.
//
// Parameters:
//   Width  bits of data_i
module tpu_stream_check #(
  parameter int Width = 8
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic             ready_i,
  input logic [Width-1:0] data_i
);

`ifdef TPU_ASSERT
  // stall_q: the port showed valid without a handshake in the previous cycle.
  logic             stall_q;
  logic [Width-1:0] data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) stall_q <= 1'b0;
    else stall_q <= valid_i && !ready_i;
  end

  // Only a stalled item's data is compared in the next cycle, so only it is
  // kept (a wide stream that moves costs the simulation nothing here).
  always_ff @(posedge clk_i) begin
    if (valid_i && !ready_i) data_q <= data_i;
  end

  tpu_assert_never u_valid_dropped (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (stall_q && !valid_i)
  );
  tpu_assert_never u_data_changed (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (stall_q && (data_i != data_q))
  );
`else
  logic unused_check;
  assign unused_check = ^{clk_i, rst_ni, valid_i, ready_i, data_i};
`endif

endmodule
