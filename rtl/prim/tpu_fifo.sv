// tpu_fifo: a valid/ready stream FIFO.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration. Stream rule (PULP common_cells): valid_o never depends on
// ready_i; once valid_o rises, data_o holds until the handshake.
//
// Assertions (at the end, under `ifdef TPU_ASSERT: simulation only; tpugen's
// harness build defines it and runs Verilator with --assert; synthesis
// leaves it undefined): no push while full, no pop while empty, and the
// stream rule on both ports (tpu_stream_check: the producer's valid_i and
// data_i hold while ready_o is low; valid_o and data_o hold while ready_i is
// low).
//
// Parameters:
//   Width  bits of one item
//   Depth  items it holds (>= 1); the stream depth QD of the spec
module tpu_fifo #(
  parameter int Width = 8,
  parameter int Depth = 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // input stream
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [Width-1:0] data_i,
  // output stream
  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o,
  // items held
  output logic [$clog2(Depth+1)-1:0] usage_o
);

  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int CntW = $clog2(Depth + 1);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rptr_q, wptr_q;
  logic [CntW-1:0]  count_q;

  logic push, pop;
  assign ready_o = (count_q != CntW'(Depth));
  assign valid_o = (count_q != '0);
  assign push    = valid_i & ready_o;
  assign pop     = valid_o & ready_i;
  assign data_o  = mem_q[rptr_q];
  assign usage_o = count_q;

  // The next state as data rather than as branches on push and pop (a
  // simulator's model then has no branch that follows the traffic), and in
  // the clocked block: Verilator computes it once, at the edge (as wires it
  // would depend on ready_i, which in the NoC mesh is a top-level input, and
  // be evaluated again at every eval).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      count_q <= '0;
    end else begin
      wptr_q  <= (push && wptr_q == PtrW'(Depth - 1)) ? '0 : wptr_q + PtrW'(push);
      rptr_q  <= (pop && rptr_q == PtrW'(Depth - 1)) ? '0 : rptr_q + PtrW'(pop);
      count_q <= count_q + CntW'(push) - CntW'(pop);
    end
  end

  // Storage holds data only; it needs no reset.
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
  end

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: no overflow or underflow, and the stream rule on both ports.
  // ---------------------------------------------------------------------------
  tpu_assert_never u_push_while_full (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (push && (count_q == CntW'(Depth)))
  );
  tpu_assert_never u_pop_while_empty (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (pop && (count_q == '0))
  );

  tpu_stream_check #(
    .Width(Width)
  ) u_check_in (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_i),
    .ready_i(ready_o),
    .data_i (data_i)
  );

  tpu_stream_check #(
    .Width(Width)
  ) u_check_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_o),
    .ready_i(ready_i),
    .data_i (data_o)
  );
`endif

endmodule
