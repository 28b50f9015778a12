// tpu_orch_axil: the orchestrator's AXI4-Lite slave (spec/compute_units.yaml
// orchestrator.data_bits: 64-bit data, every access one whole register): the
// channel handshakes, as one access at a time toward the register file,
// whose answer may take any number of cycles (the mover window waits for
// the mover).
//
// Hand-written module of tpugen, copied unchanged into every compute-unit
// configuration (hdl::generate_cu); tpu_noc_orchestrator holds one. It is
// not rtl/axi/tpu_axil_slave (32-bit, and it answers a read in the cycle
// of its AR with that cycle's data, so a read cannot wait for the mover).
//
// AW, W and AR each have a one-entry buffer, ready while it is empty. An
// access starts (acc_valid_o, one cycle, with the write flag, the byte
// address and the write data) when nothing is under way and either a write
// is whole (AW and W held, no B waiting) or a read is held (no R waiting);
// when both could, they take turns. The start frees the buffers it used.
// The register file answers with acc_done_i (one cycle, acc_rdata_i with
// it, at least a cycle after the start); then B, or R with that data, is
// answered OKAY and held until its handshake. WSTRB is ignored: every write
// is a whole 64-bit register (the spec's rule). The address's low three
// bits are passed on (the register file ignores them).
//
// Stream rules (PULP common_cells): b_valid_o and r_valid_o come from
// registers and never depend on the ready inputs; B and R hold until the
// handshake.
//
// Assertions (at the end, under `ifdef TPU_ASSERT): acc_done_i only while an
// access is under way; the stream rule on B and R (tpu_stream_check).
//
// Parameters:
//   AddrW  byte-address bits
//   DataW  data bits (64: the spec's data_bits)
module tpu_orch_axil #(
  parameter int AddrW = 13,
  parameter int DataW = 64
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // AXI4-Lite slave
  input  logic               aw_valid_i,
  output logic               aw_ready_o,
  input  logic [AddrW-1:0]   aw_addr_i,
  input  logic               w_valid_i,
  output logic               w_ready_o,
  input  logic [DataW-1:0]   w_data_i,
  input  logic [DataW/8-1:0] w_strb_i,
  output logic               b_valid_o,
  input  logic               b_ready_i,
  output logic [1:0]         b_resp_o,
  input  logic               ar_valid_i,
  output logic               ar_ready_o,
  input  logic [AddrW-1:0]   ar_addr_i,
  output logic               r_valid_o,
  input  logic               r_ready_i,
  output logic [DataW-1:0]   r_data_o,
  output logic [1:0]         r_resp_o,
  // toward the register file: an access starts ...
  output logic               acc_valid_o,
  output logic               acc_write_o,
  output logic [AddrW-1:0]   acc_addr_o,
  output logic [DataW-1:0]   acc_wdata_o,
  // ... and is answered
  input  logic               acc_done_i,
  input  logic [DataW-1:0]   acc_rdata_i
);

  logic             aw_full_q, w_full_q, ar_full_q, busy_q, busy_write_q, wr_first_q;
  logic             b_valid_q, r_valid_q;
  logic [AddrW-1:0] aw_addr_q, ar_addr_q;
  logic [DataW-1:0] w_data_q, r_data_q;
  logic             can_write, can_read, start, start_write;

  assign aw_ready_o  = !aw_full_q;
  assign w_ready_o   = !w_full_q;
  assign ar_ready_o  = !ar_full_q;
  assign can_write   = aw_full_q && w_full_q && !b_valid_q;
  assign can_read    = ar_full_q && !r_valid_q;
  assign start       = !busy_q && (can_write || can_read);
  assign start_write = can_write && (!can_read || wr_first_q);

  assign acc_valid_o = start;
  assign acc_write_o = start_write;
  assign acc_addr_o  = start_write ? aw_addr_q : ar_addr_q;
  assign acc_wdata_o = w_data_q;

  assign b_valid_o = b_valid_q;
  assign b_resp_o  = 2'b00;  // OKAY, also for an offset no register has
  assign r_valid_o = r_valid_q;
  assign r_data_o  = r_data_q;
  assign r_resp_o  = 2'b00;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q    <= 1'b0;
      w_full_q     <= 1'b0;
      ar_full_q    <= 1'b0;
      busy_q       <= 1'b0;
      busy_write_q <= 1'b0;
      wr_first_q   <= 1'b0;
      b_valid_q    <= 1'b0;
      r_valid_q    <= 1'b0;
      aw_addr_q    <= '0;
      ar_addr_q    <= '0;
      w_data_q     <= '0;
      r_data_q     <= '0;
    end else begin
      if (aw_valid_i && aw_ready_o) begin
        aw_full_q <= 1'b1;
        aw_addr_q <= aw_addr_i;
      end else if (start && start_write) begin
        aw_full_q <= 1'b0;
      end
      if (w_valid_i && w_ready_o) begin
        w_full_q <= 1'b1;
        w_data_q <= w_data_i;
      end else if (start && start_write) begin
        w_full_q <= 1'b0;
      end
      if (ar_valid_i && ar_ready_o) begin
        ar_full_q <= 1'b1;
        ar_addr_q <= ar_addr_i;
      end else if (start && !start_write) begin
        ar_full_q <= 1'b0;
      end
      if (start) begin
        busy_q       <= 1'b1;
        busy_write_q <= start_write;
        wr_first_q   <= !start_write;                               // the other kind first next time
      end else if (acc_done_i) begin
        busy_q <= 1'b0;
      end
      if (acc_done_i && busy_write_q) b_valid_q <= 1'b1;
      else if (b_ready_i) b_valid_q <= 1'b0;
      if (acc_done_i && !busy_write_q) begin
        r_valid_q <= 1'b1;
        r_data_q  <= acc_rdata_i;
      end else if (r_ready_i) begin
        r_valid_q <= 1'b0;
      end
    end
  end

  logic unused_strb;
  assign unused_strb = ^w_strb_i;

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: an answer only for an access under way; B and R keep the
  // stream rule.
  // ---------------------------------------------------------------------------
  tpu_assert_never u_done_unowed (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (acc_done_i && !busy_q)
  );

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
    .Width(DataW + 2)
  ) u_check_r (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(r_valid_o),
    .ready_i(r_ready_i),
    .data_i ({r_resp_o, r_data_o})
  );
`endif

endmodule
