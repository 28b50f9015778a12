// tpu_pe: one processing element of the weight-stationary array.
//
// Hand-written module of tpugen's core, copied unchanged into every generated
// configuration; its widths come from tpu_pkg (OPERAND_BITS, PRODUCT_BITS).
//
// A signed OPERAND_BITS x OPERAND_BITS multiply, exact in PRODUCT_BITS, added
// to the partial sum arriving from the PE above:
//   psum_o <= psum_i + act_i * w[bank_i]     (registered while en_i)
// The sum wraps at PsumOutW bits; tpu_array sizes PsumOutW so that it never
// does before ACC_BITS. Two weight registers (banks) let the array load the
// next mm's weight while the current mm still multiplies with the other.
//
// Parameters (set by tpu_array):
//   PsumInW   bits of psum_i
//   PsumOutW  bits of psum_o (>= PsumInW, >= PRODUCT_BITS)
module tpu_pe #(
  parameter int PsumInW  = tpu_pkg::PRODUCT_BITS,
  parameter int PsumOutW = tpu_pkg::PRODUCT_BITS
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             en_i,      // the array advances: register the sum
  // weight load
  input  logic                             w_we_i,    // write w_data_i into bank w_bank_i
  input  logic                             w_bank_i,
  input  logic [tpu_pkg::OPERAND_BITS-1:0] w_data_i,
  // activation and partial sums
  input  logic                             bank_i,    // the bank act_i's row multiplies with
  input  logic [tpu_pkg::OPERAND_BITS-1:0] act_i,
  input  logic [PsumInW-1:0]               psum_i,    // from the PE above (two's complement)
  output logic [PsumOutW-1:0]              psum_o     // to the PE below (two's complement)
);

  localparam int OpW   = tpu_pkg::OPERAND_BITS;
  localparam int ProdW = tpu_pkg::PRODUCT_BITS;

  logic [OpW-1:0]          w0_q, w1_q, w_sel;
  logic signed [ProdW-1:0] act_x, w_x, prod;
  logic [PsumOutW-1:0]     sum, psum_q;

  assign w_sel = bank_i ? w1_q : w0_q;
  assign act_x = ProdW'($signed(act_i));
  assign w_x   = ProdW'($signed(w_sel));
  assign prod  = act_x * w_x;  // exact: an operand product fits PRODUCT_BITS
  assign sum   = PsumOutW'($signed(psum_i)) + PsumOutW'(prod);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q   <= '0;
      w1_q   <= '0;
      psum_q <= '0;
    end else begin
      if (w_we_i && !w_bank_i) w0_q <= w_data_i;
      if (w_we_i && w_bank_i) w1_q <= w_data_i;
      if (en_i) psum_q <= sum;
    end
  end

  assign psum_o = psum_q;

endmodule
