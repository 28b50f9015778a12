// tpu_axi_beats: the bursts of one stream in flight, in issue order, and the
// beats of the oldest one counted off.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi); tpu_axi_rd counts its R beats with
// one, tpu_axi_wr its W beats and its acknowledgements per B.
//
// A record goes in when a burst closes (push_i: tpu_axi_burst's close_o);
// its low 8 bits are the burst's length (AxLEN: beats - 1), the rest is the
// user's. The oldest record is shown (valid_o, data_o) with the index of its
// next beat (beat_o, from 0) and whether that beat is its last (last_o);
// each beat_i counts one off, and the last one drops the record. The users
// count beats only while valid_o is up.
//
// Assertions: those of its tpu_fifo (no record pushed while full, none
// dropped while empty, the stream rule on both ports).
//
// Parameters:
//   Width  bits of a record (>= 8; the low 8 are the length)
//   Depth  records it holds: the bursts in flight
module tpu_axi_beats #(
  parameter int Width = 8,
  parameter int Depth = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // a burst closed
  input  logic             push_i,
  output logic             push_ready_o,
  input  logic [Width-1:0] data_i,
  // the oldest burst, beat by beat
  output logic             valid_o,
  output logic [Width-1:0] data_o,
  output logic [7:0]       beat_o,
  output logic             last_o,
  input  logic             beat_i
);

  logic       pop;
  logic [7:0] beat_q;
  logic [$clog2(Depth+1)-1:0] usage;

  tpu_fifo #(
    .Width(Width),
    .Depth(Depth)
  ) u_records (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(push_i),
    .ready_o(push_ready_o),
    .data_i (data_i),
    .valid_o(valid_o),
    .ready_i(pop),
    .data_o (data_o),
    .usage_o(usage)
  );

  assign beat_o = beat_q;
  assign last_o = (beat_q == data_o[7:0]);
  assign pop    = beat_i && last_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) beat_q <= '0;
    else if (beat_i) beat_q <= last_o ? 8'd0 : beat_q + 8'd1;
  end

  logic unused_usage;
  assign unused_usage = ^usage;

endmodule
