// tpu_assert_on: whether the assertions of the module that holds it check
// (simulation only). They check once a reset has been applied and while the
// design is out of reset: before the first reset the state is whatever the
// simulator's random initialisation left (Verilator --x-initial unique, or a
// cocotb run whose first clock edge comes before its reset), which no rule
// constrains.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration; the assertion blocks of the primitives instantiate it under
// `ifdef TPU_ASSERT (as tpu_stream_check).
module tpu_assert_on (
  input  logic clk_i,
  input  logic rst_ni,
  output logic on_o   // check now
);

`ifdef TPU_ASSERT
  logic reset_seen_q;

  initial reset_seen_q = 1'b0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) reset_seen_q <= 1'b1;
  end

  assign on_o = reset_seen_q && rst_ni;
`else
  logic unused_ports;
  assign unused_ports = ^{clk_i, rst_ni};
  assign on_o = 1'b0;
`endif

endmodule
