// tpu_fifo: a valid/ready stream FIFO.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration. Stream rule (PULP common_cells): valid_o never depends on
// ready_i; once valid_o rises, data_o holds until the handshake.
//
// Assertions (at the end, under `ifdef TPU_ASSERT: simulation only; tpugen's
// harness build defines it and runs Verilator with --assert; synthesis
// leaves it undefined): no push while full, no pop while empty, and the
// stream rule on both ports (the producer's valid_i and data_i hold while
// ready_o is low; valid_o and data_o hold while ready_i is low).
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

  function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] ptr);
    if (ptr == PtrW'(Depth - 1)) next_ptr = '0;
    else next_ptr = ptr + PtrW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (push) wptr_q <= next_ptr(wptr_q);
      if (pop) rptr_q <= next_ptr(rptr_q);
      if (push && !pop) count_q <= count_q + CntW'(1);
      else if (pop && !push) count_q <= count_q - CntW'(1);
    end
  end

  // Storage holds data only; it needs no reset.
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
  end

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions. Immediate assertions in a clocked block (Yosys 0.23 has no
  // concurrent `assert property`); in_stall_q/out_stall_q: the port showed
  // valid without a handshake in the previous cycle.
  // ---------------------------------------------------------------------------
  logic             in_stall_q, out_stall_q;
  logic [Width-1:0] in_data_q, out_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_stall_q  <= 1'b0;
      out_stall_q <= 1'b0;
    end else begin
      in_stall_q  <= valid_i && !ready_o;
      out_stall_q <= valid_o && !ready_i;
    end
  end

  always_ff @(posedge clk_i) begin
    in_data_q  <= data_i;
    out_data_q <= data_o;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(push && (count_q == CntW'(Depth))))
      else $error("tpu_fifo %m: push while full (overflow)");
      assert (!(pop && (count_q == '0)))
      else $error("tpu_fifo %m: pop while empty (underflow)");
      assert (!in_stall_q || valid_i)
      else $error("tpu_fifo %m: valid_i fell before the handshake");
      assert (!in_stall_q || (data_i == in_data_q))
      else $error("tpu_fifo %m: data_i changed while stalled");
      assert (!out_stall_q || valid_o)
      else $error("tpu_fifo %m: valid_o fell before the handshake");
      assert (!out_stall_q || (data_o == out_data_q))
      else $error("tpu_fifo %m: data_o changed while stalled");
    end
  end
`endif

endmodule
