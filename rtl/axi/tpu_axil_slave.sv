// tpu_axil_slave: the channel handshakes of an AXI4-Lite slave, as one write
// strobe and one read strobe toward a register file.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi); tpu_axi_ctrl, the control slave the
// spec's register map generates, holds one and keeps only the decode.
//
// AW and W are taken independently, each ready while its one-entry buffer is
// empty; the write (wr_en_o, with the buffered word address, data and WSTRB)
// happens in the cycle both are held and no B is waiting, and B answers OKAY
// from the next cycle. AR is taken while no R is waiting (rd_en_o with the
// word address, that same cycle); R answers OKAY with rd_data_i of that
// cycle, held until RREADY. Addresses are byte addresses; their two low
// bits are ignored.
//
// Stream rules (PULP common_cells): b_valid_o and r_valid_o never depend on
// the ready inputs, and B and R hold until the handshake.
//
// Assertions (at the end, under `ifdef TPU_ASSERT, as tpu_fifo): the stream
// rule on B and R (tpu_stream_check).
//
// Parameters:
//   AddrW  address bits (>= 3)
module tpu_axil_slave #(
  parameter int AddrW = 6
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // AXI4-Lite slave
  input  logic               aw_valid_i,
  output logic               aw_ready_o,
  input  logic [AddrW-1:0]   aw_addr_i,
  input  logic               w_valid_i,
  output logic               w_ready_o,
  input  logic [31:0]        w_data_i,
  input  logic [3:0]         w_strb_i,
  output logic               b_valid_o,
  input  logic               b_ready_i,
  output logic [1:0]         b_resp_o,
  input  logic               ar_valid_i,
  output logic               ar_ready_o,
  input  logic [AddrW-1:0]   ar_addr_i,
  output logic               r_valid_o,
  input  logic               r_ready_i,
  output logic [31:0]        r_data_o,
  output logic [1:0]         r_resp_o,
  // toward the register file: a write this cycle
  output logic               wr_en_o,
  output logic [AddrW-3:0]   wr_word_o,
  output logic [31:0]        wr_data_o,
  output logic [3:0]         wr_strb_o,
  // a read this cycle, and the value at rd_word_o
  output logic               rd_en_o,
  output logic [AddrW-3:0]   rd_word_o,
  input  logic [31:0]        rd_data_i
);

  localparam int WordW = AddrW - 2;

  // --- Write: AW and W held until both are here ----------------------------------
  logic             aw_full_q, w_full_q, b_valid_q;
  logic [WordW-1:0] aw_word_q;
  logic [31:0]      w_data_q;
  logic [3:0]       w_strb_q;
  logic             wr_en;

  assign aw_ready_o = !aw_full_q;
  assign w_ready_o  = !w_full_q;
  assign wr_en      = aw_full_q && w_full_q && !b_valid_q;
  assign b_valid_o  = b_valid_q;
  assign b_resp_o   = 2'b00;
  assign wr_en_o    = wr_en;
  assign wr_word_o  = aw_word_q;
  assign wr_data_o  = w_data_q;
  assign wr_strb_o  = w_strb_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q <= 1'b0;
      w_full_q  <= 1'b0;
      b_valid_q <= 1'b0;
      aw_word_q <= '0;
      w_data_q  <= '0;
      w_strb_q  <= '0;
    end else begin
      if (aw_valid_i && aw_ready_o) begin
        aw_full_q <= 1'b1;
        aw_word_q <= aw_addr_i[AddrW-1:2];
      end else if (wr_en) begin
        aw_full_q <= 1'b0;
      end
      if (w_valid_i && w_ready_o) begin
        w_full_q <= 1'b1;
        w_data_q <= w_data_i;
        w_strb_q <= w_strb_i;
      end else if (wr_en) begin
        w_full_q <= 1'b0;
      end
      if (wr_en) b_valid_q <= 1'b1;
      else if (b_ready_i) b_valid_q <= 1'b0;
    end
  end

  // --- Read: the value at AR, held until R is taken -------------------------------
  logic        r_valid_q, rd_en;
  logic [31:0] r_data_q;

  assign ar_ready_o = !r_valid_q;
  assign rd_en      = ar_valid_i && ar_ready_o;
  assign rd_en_o    = rd_en;
  assign rd_word_o  = ar_addr_i[AddrW-1:2];
  assign r_valid_o  = r_valid_q;
  assign r_data_o   = r_data_q;
  assign r_resp_o   = 2'b00;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_valid_q <= 1'b0;
      r_data_q  <= '0;
    end else if (rd_en) begin
      r_valid_q <= 1'b1;
      r_data_q  <= rd_data_i;
    end else if (r_ready_i) begin
      r_valid_q <= 1'b0;
    end
  end

  logic unused_addr;
  assign unused_addr = ^{aw_addr_i[1:0], ar_addr_i[1:0]};

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: B and R keep the stream rule (tpu_stream_check).
  // ---------------------------------------------------------------------------
  tpu_stream_check #(
    .Width(2)
  ) u_check_b (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(b_valid_o),
    .ready_i(b_ready_i),
    .data_i (b_resp_o)
  );

  tpu_stream_check #(
    .Width(34)
  ) u_check_r (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(r_valid_o),
    .ready_i(r_ready_i),
    .data_i ({r_resp_o, r_data_o})
  );
`endif

endmodule
