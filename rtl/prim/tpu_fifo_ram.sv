// tpu_fifo_ram: a deep valid/ready stream FIFO kept in a memory
// (tpu_ram_1r1w, one read and one write port, which synthesis maps to block
// or distributed RAM) with a two-item register stage behind it (tpu_skid),
// for buffers too deep to build from flip-flops: the memory mover's read-ahead
// data and its write operations.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration. Stream rule (PULP common_cells): valid_o never depends on
// ready_i; once valid_o rises, data_o holds until the handshake (the skid's
// FIFO and its assertions). An item pushed into an empty FIFO (nothing in
// the memory, nothing on its way out of it, room in the stage) goes straight
// into the stage and is at the output the next cycle (still a register: no
// path from the input to the output within a cycle); otherwise it goes
// through the memory, two cycles more; one item a cycle passes at full rate.
//
// The memory is read whenever it holds an item and the stage will have room
// for it (tpu_skid's room_o); a row written in a cycle is never read in the
// same cycle (the memory is read-first), as only rows written before count.
//
// Parameters:
//   Width  bits of one item
//   Depth  items the memory holds (>= 2); the FIFO holds Depth + 2
module tpu_fifo_ram #(
  parameter int Width = 8,
  parameter int Depth = 16
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // input stream
  input  logic                       valid_i,
  output logic                       ready_o,
  input  logic [Width-1:0]           data_i,
  // output stream
  output logic                       valid_o,
  input  logic                       ready_i,
  output logic [Width-1:0]           data_o,
  // items held (the memory's and the stage's)
  output logic [$clog2(Depth+3)-1:0] usage_o
);

  localparam int PtrW = $clog2(Depth);
  localparam int CntW = $clog2(Depth + 1);
  localparam int UseW = $clog2(Depth + 3);

  logic [PtrW-1:0] wptr_q, rptr_q;
  logic [CntW-1:0] count_q;      // items in the memory
  logic            push, read, read_q, room, pop, unused_empty, bypass, stored;
  logic [Width-1:0] rdata;
  logic [1:0]      stage_q;      // items in the stage or on their way to it

  assign ready_o = count_q != CntW'(Depth);
  assign push    = valid_i && ready_o;
  assign read    = (count_q != '0) && room;
  // Straight into the stage: the memory empty, no read of it arriving, and
  // the stage (which holds stage_q items then) not full (its FIFO takes an
  // item only with an entry free at the start of the cycle).
  assign bypass  = push && (count_q == '0) && !read_q && (stage_q < 2'd2);
  assign stored  = push && !bypass;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
      read_q  <= 1'b0;
      stage_q <= '0;
    end else begin
      if (stored) wptr_q <= (32'(wptr_q) == Depth - 1) ? '0 : wptr_q + PtrW'(1);
      if (read) rptr_q <= (32'(rptr_q) == Depth - 1) ? '0 : rptr_q + PtrW'(1);
      count_q <= count_q + CntW'(stored) - CntW'(read);
      read_q  <= read;
      stage_q <= stage_q + 2'(read) + 2'(bypass) - 2'(pop);
    end
  end

  tpu_ram_1r1w #(
    .Width(Width),
    .Depth(Depth)
  ) u_ram (
    .clk_i  (clk_i),
    .we_i   (stored),
    .waddr_i(wptr_q),
    .wdata_i(data_i),
    .re_i   (read),
    .raddr_i(rptr_q),
    .rdata_o(rdata)
  );

  tpu_skid #(
    .Width(Width),
    .Depth(2)
  ) u_stage (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(read_q || bypass),                     // never both: a bypass needs no read arriving
    .data_i (read_q ? rdata : data_i),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .data_o (data_o),
    .room_o (room),
    .pop_o  (pop),
    .empty_o(unused_empty)
  );

  assign usage_o = UseW'(count_q) + UseW'(stage_q);

`ifdef TPU_ASSERT
  // The memory is never read empty nor written full.
  tpu_assert_never u_read_empty (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (read && (count_q == '0))
  );
  tpu_assert_never u_stage_over (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (stage_q > 2'd2)
  );
`endif

endmodule
