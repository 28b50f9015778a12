// tpu_ap_ctrl_hs: the Vitis ap_ctrl_hs handshake between the control
// registers and the core.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi); tpu_axi_top holds one between its
// control slave (tpu_axi_ctrl) and the core.
//
// A start (ap_start_i) is taken (start_taken_o: the host's ap_ready) when
// the core is not busy, not faulted and not held in reset; it starts the
// core (core_start_o) only with aligned bases, else the run ends at once with
// base_error_o. done_event_o (the host's ap_done) is one cycle per run,
// whether the run ended in done, a fault or a refused start. A memory
// response other than OKAY sets rresp_error_o or bresp_error_o until the
// next start. The interrupt is GIE and any ISR bit. The core and the master
// adapters are held in reset (core_rst_no) by rst_ni or core_reset_i.
// The core's fault code is tpu_pkg::FAULT_W bits.
module tpu_ap_ctrl_hs (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // control fields
  input  logic                        ap_start_i,
  input  logic                        core_reset_i,
  input  logic                        gie_i,
  input  logic                        isr_done_i,
  input  logic                        isr_ready_i,
  input  logic                        bases_aligned_i,
  // the core and its memory adapters
  input  logic                        core_busy_i,
  input  logic                        core_done_i,
  input  logic [tpu_pkg::FAULT_W-1:0] core_fault_i,
  input  logic                        rd_err_i,
  input  logic                        wr_err_i,
  // events and status
  output logic                        start_taken_o,
  output logic                        core_start_o,
  output logic                        done_event_o,
  output logic                        interrupt_o,
  output logic                        core_rst_no,
  output logic                        base_error_o,
  output logic                        rresp_error_o,
  output logic                        bresp_error_o
);

  // ended_q: the current run has ended (so done_event_o is one cycle a run).
  logic ended_q, ended_d, start_taken, done_event;
  logic base_error_q, rresp_error_q, bresp_error_q;

  assign start_taken = ap_start_i && !core_busy_i && (core_fault_i == '0) && !core_reset_i;

  always_comb begin
    ended_d    = ended_q;
    done_event = 1'b0;
    if (start_taken) begin
      ended_d    = !bases_aligned_i;
      done_event = !bases_aligned_i;
    end else if (!ended_q && !core_busy_i && (core_done_i || (core_fault_i != '0))) begin
      ended_d    = 1'b1;
      done_event = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ended_q       <= 1'b1;
      base_error_q  <= 1'b0;
      rresp_error_q <= 1'b0;
      bresp_error_q <= 1'b0;
    end else begin
      ended_q <= ended_d;
      if (start_taken) begin
        base_error_q  <= !bases_aligned_i;
        rresp_error_q <= 1'b0;
        bresp_error_q <= 1'b0;
      end else begin
        if (rd_err_i) rresp_error_q <= 1'b1;
        if (wr_err_i) bresp_error_q <= 1'b1;
      end
    end
  end

  assign start_taken_o = start_taken;
  assign core_start_o  = start_taken && bases_aligned_i;
  assign done_event_o  = done_event;
  assign interrupt_o   = gie_i && (isr_done_i || isr_ready_i);
  assign core_rst_no   = rst_ni && !core_reset_i;
  assign base_error_o  = base_error_q;
  assign rresp_error_o = rresp_error_q;
  assign bresp_error_o = bresp_error_q;

endmodule
