// A latch: q_o is assigned only when en_i is high (no else, no default).
module bad_latch (
  input  logic       clk_i,
  input  logic       en_i,
  input  logic [3:0] d_i,
  output logic [3:0] q_o,
  output logic [3:0] r_o
);
  always_latch begin
    if (en_i) q_o = d_i;
  end
  always_ff @(posedge clk_i) r_o <= q_o;
endmodule
