// One instance of the broken RAM primitive (tpu_ram_1r1w.sv beside it).
module bad_memory_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,
  input  logic [5:0]  waddr_i,
  input  logic [15:0] wdata_i,
  input  logic [5:0]  raddr_i,
  output logic [15:0] rdata_o
);
  tpu_ram_1r1w #(.Width(16), .Depth(64)) u_ram (
    .clk_i, .rst_ni, .we_i, .waddr_i, .wdata_i, .re_i(1'b1), .raddr_i, .rdata_o
  );
endmodule
