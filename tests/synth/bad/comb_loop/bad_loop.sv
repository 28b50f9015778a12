// A combinational loop: a_q depends on b_q, which depends on a_q.
module bad_loop (
  input  logic       clk_i,
  input  logic [3:0] d_i,
  output logic [3:0] q_o
);
  logic [3:0] a_q, b_q;
  assign a_q = b_q ^ d_i;
  assign b_q = a_q + 4'd1;
  always_ff @(posedge clk_i) q_o <= b_q;
endmodule
