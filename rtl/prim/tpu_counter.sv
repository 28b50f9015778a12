// tpu_counter: a progress counter. Each cycle it adds the number of inc_i
// bits that are high (Width bits, wrapping); clear_i (a run starts) sets it
// to zero instead.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration; every unit with a progress counter instantiates it
// (u_progress, u_<counter>), with one inc_i bit per event that completes a
// step (a row written, a row leaving, an acknowledgement).
//
// Parameters:
//   Width  bits of the count (tpu_pkg::COUNT_W)
//   NInc   events that may each complete a step in the same cycle
module tpu_counter #(
  parameter int Width = 16,
  parameter int NInc  = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,  // a run starts
  input  logic [NInc-1:0]  inc_i,    // the events this cycle
  output logic [Width-1:0] count_o
);

  logic [Width-1:0] count_q, add;

  always_comb begin
    add = '0;
    for (int i = 0; i < NInc; i++) begin
      add = add + Width'(inc_i[i]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else if (clear_i) count_q <= '0;
    else count_q <= count_q + add;
  end

  assign count_o = count_q;

endmodule
