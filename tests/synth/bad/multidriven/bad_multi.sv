// A multiply-driven net: two continuous assignments drive y_d.
module bad_multi (
  input  logic       clk_i,
  input  logic [3:0] a_i,
  input  logic [3:0] b_i,
  output logic [3:0] q_o
);
  logic [3:0] y_d;
  assign y_d = a_i & b_i;
  assign y_d = a_i | b_i;
  always_ff @(posedge clk_i) q_o <= y_d;
endmodule
