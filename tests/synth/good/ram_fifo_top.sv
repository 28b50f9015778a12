// A small design around the RAM primitive (rtl/prim/tpu_ram_1r1w.sv, listed in
// files.f beside this file): a counter writes the RAM, another reads it, and
// an accumulator sums what it reads. Small enough to place and route on an
// iCE40 UP5K, so the ice40 flow's Fmax path is exercised by a test.
module ram_fifo_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,
  input  logic [15:0] wdata_i,
  output logic [23:0] sum_o
);
  logic [7:0] waddr_q, raddr_q;
  logic [15:0] rdata;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      waddr_q <= '0;
      raddr_q <= '0;
      sum_o <= '0;
    end else begin
      if (we_i) waddr_q <= waddr_q + 8'd1;
      raddr_q <= raddr_q + 8'd3;
      sum_o <= sum_o + {8'd0, rdata};
    end
  end
  tpu_ram_1r1w #(.Width(16), .Depth(256)) u_ram (
    .clk_i, .we_i, .waddr_i(waddr_q), .wdata_i, .re_i(1'b1), .raddr_i(raddr_q), .rdata_o(rdata)
  );
endmodule
