// tpu_assert_never: an assertion (simulation only) that bad_i is low on every
// clock edge once a reset has been applied and while the design is out of
// reset. Before the first reset the state is whatever the simulator's random
// initialisation left (Verilator --x-initial unique, or a cocotb run whose
// first clock edge comes before its reset), which no rule constrains.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration. The primitives instantiate it under `ifdef TPU_ASSERT, one
// instance per rule, named for what breaks it (u_push_while_full,
// u_valid_dropped, ...): the message names the instance (%m), so it says
// which rule of which port broke. tpugen's harness build defines TPU_ASSERT
// and runs Verilator with --assert; synthesis leaves it undefined, and this
// module is then an empty shell that nothing instantiates. The assertion is
// immediate, in a clocked block: Yosys 0.23 has no concurrent
// `assert property`.
module tpu_assert_never (
  input logic clk_i,
  input logic rst_ni,
  input logic bad_i   // a rule is broken this cycle
);

`ifdef TPU_ASSERT
  logic reset_seen_q;

  initial reset_seen_q = 1'b0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) reset_seen_q <= 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (reset_seen_q && rst_ni) begin
      assert (!bad_i)
      else $error("%m: broken (the instance names the rule)");
    end
  end
`else
  logic unused_ports;
  assign unused_ports = ^{clk_i, rst_ni, bad_i};
`endif

endmodule
