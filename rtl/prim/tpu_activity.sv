// tpu_activity: whether anything moved this cycle, for a watchdog: value_i
// differs from its value a cycle ago (a progress counter advanced), or any
// of the handshakes in fire_i took place.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration; tpu_top instantiates it (u_activity) over the progress
// counters and its memory ports' handshakes, for the sequencer's watchdog.
// The value a cycle ago is a tpu_reg (u_value).
//
// Parameters:
//   Width  bits of value_i
//   NFire  handshakes watched
module tpu_activity #(
  parameter int Width = 16,
  parameter int NFire = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] value_i,
  input  logic [NFire-1:0] fire_i,
  output logic             active_o
);

  logic [Width-1:0] value_prev;

  tpu_reg #(
    .Width(Width)
  ) u_value (
    .clk_i,
    .rst_ni,
    .d_i(value_i),
    .q_o(value_prev)
  );

  assign active_o = (value_i != value_prev) || (fire_i != '0);

endmodule
