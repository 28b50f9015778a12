// An undriven net: unused_d is read but nothing drives it.
module bad_undriven (
  input  logic       clk_i,
  input  logic [3:0] a_i,
  output logic [3:0] q_o
);
  logic [3:0] unused_d;
  always_ff @(posedge clk_i) q_o <= a_i ^ unused_d;
endmodule
