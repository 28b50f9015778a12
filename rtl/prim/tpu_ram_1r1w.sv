// tpu_ram_1r1w: a memory with one write and one read port, read data one
// cycle after the read request.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration. A read of the address written in the same cycle returns the
// old contents (read-first). The contents are not reset: no on-chip memory of
// TinyTPU-isa is cleared at start (spec: memories[].cleared).
//
// Parameters:
//   Width  bits of one row
//   Depth  rows
// Derived (localparam): AddrW, the bits of a row address.
module tpu_ram_1r1w #(
  parameter  int Width = 32,
  parameter  int Depth = 16,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  // write port
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  // read port
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);

  // Public to simulators (a Verilator metacomment) so a testbench can read
  // the final contents and compare them with the reference model.
  logic [Width-1:0] mem_q [Depth] /* verilator public_flat_rw */;
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (re_i) rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule
