// Designs for ice40's per-unit place and route on a small device (hx1k,
// 1,280 logic cells): units_top is two units_chain of ~700 cells each (the
// whole does not fit, each unit does); units_big is one chain of ~1,900
// cells (a unit with no sub-unit that does not fit on its own).
module units_chain #(
  parameter int W = 32,
  parameter int N = 20
) (
  input  logic         clk_i,
  input  logic [W-1:0] d_i,
  output logic [W-1:0] q_o
);
  // N registered stages, each adding a rotation of the one before.
  for (genvar i = 0; i < N; i++) begin : g_stage
    logic [W-1:0] s_q;
    if (i == 0) begin : g_first
      always_ff @(posedge clk_i) s_q <= d_i;
    end else begin : g_next
      always_ff @(posedge clk_i) s_q <= g_stage[i-1].s_q + {g_stage[i-1].s_q[W-2:0], g_stage[i-1].s_q[W-1]};
    end
  end
  assign q_o = g_stage[N-1].s_q;
endmodule

module units_top (
  input  logic        clk_i,
  input  logic [31:0] d_i,
  output logic [31:0] q_o
);
  logic [31:0] mid;
  units_chain #(.N(20)) u_a (.clk_i, .d_i, .q_o(mid));
  units_chain #(.N(21)) u_b (.clk_i, .d_i(mid), .q_o);
endmodule

module units_big (
  input  logic        clk_i,
  input  logic [31:0] d_i,
  output logic [31:0] q_o
);
  units_chain #(.N(60)) u_chain (.clk_i, .d_i, .q_o);
endmodule
