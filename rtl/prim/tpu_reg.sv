// tpu_reg: a register: q_o is d_i of the previous cycle; zero after reset.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration; the memory units (spm, vru) hold their read stage in one
// (u_p1: the read issued last cycle, what it was for, and the header word it
// may carry instead of the RAM's data).
//
// Parameters:
//   Width  bits held
module tpu_reg #(
  parameter int Width = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

  logic [Width-1:0] q_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_q <= '0;
    else q_q <= d_i;
  end

  assign q_o = q_q;

endmodule
