// tpu_skid: a small FIFO behind a pipelined read, and whether a read issued
// now will find an entry free when its data arrives a cycle later: what the
// FIFO holds, plus the item arriving this cycle, minus the item leaving this
// cycle, leaves room (room_o). A unit issues a read only with room, so the
// FIFO never refuses an item (valid_i needs no ready).
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration; the memory units (spm, vru) put one behind their read port
// for each output channel (u_<port>_skid).
//
// Parameters:
//   Width  bits of an item
//   Depth  items it holds
module tpu_skid #(
  parameter int Width = 8,
  parameter int Depth = 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // the item read last cycle, arriving now
  input  logic             valid_i,
  input  logic [Width-1:0] data_i,
  // the output stream
  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o,
  output logic             room_o,   // a read issued now has an entry
  output logic             pop_o,    // an item leaves this cycle
  output logic             empty_o
);

  localparam int CntW  = $clog2(Depth + 1);
  localparam int RoomW = CntW + 1;

  logic [CntW-1:0] usage;
  logic            fifo_ready;
  logic            unused_fifo_ready;  // room_o guarantees it on every push

  tpu_fifo #(
    .Width(Width),
    .Depth(Depth)
  ) u_fifo (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_i),
    .ready_o(fifo_ready),
    .data_i (data_i),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .data_o (data_o),
    .usage_o(usage)
  );

  assign pop_o             = valid_o && ready_i;
  assign room_o            = (RoomW'(usage) + RoomW'(valid_i)) < (RoomW'(Depth) + RoomW'(pop_o));
  assign empty_o           = usage == '0;
  assign unused_fifo_ready = fifo_ready;

endmodule
