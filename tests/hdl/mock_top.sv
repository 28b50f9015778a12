// mock_top.sv: a stand-in for the generated tpu_top, for testing the
// simulation harness (tb/sim/harness/sim_main.cpp) and the RTL engine without
// the real core. It has tpu_top's parameters and ports (docs/microarch.md,
// "Top level"; docs/isa.md, "Core ports") and does something small that
// exercises every memory stream:
//
//   1. on start_i, fetch imem words 0 .. NHDR (the header and the first
//      instruction word), ImemBeat words a beat, all requests issued ahead of
//      the responses;
//   2. read one operand beat of A and one of B at byte 0;
//   3. write their bytewise sum (one operand row) to C bytes T .. 2T-1: one
//      beat at byte 0 whose strobes select slot 1 (the test builds it with
//      CBeat = 2), the other slot carrying the inverted sum, which must not
//      land; wait for the acknowledgement;
//   4. raise done_o, with every progress counter equal to its header count.
//
// Response ready is raised only every other cycle, so the memories must hold
// their valid. The first instruction word selects a misbehaviour:
//   MagicFault   fault_o = FAULT_OPCODE at instruction 0
//   MagicHang    stay busy forever, progress 0 (the harness times out)
//   MagicGlitch  pulse the operand read request valid for single cycles,
//                whether or not it was accepted (a protocol error)
//
// The test writes three includes from the spec: tpu_top_params.svh and
// tpu_top_ports.svh, the generated tpu_top's parameter and port lists (the
// generator's own, so the stand-in cannot drift from the top), and
// mock_progress.svh, which assigns hdr_counts: each progress counter's
// header slice, in PROGRESS_* order.
module tpu_top #(
`include "tpu_top_params.svh"
) (
`include "tpu_top_ports.svh"
);

  localparam int NWords = tpu_pkg::NHDR + 1;
  localparam int NBeats = (NWords + ImemBeat - 1) / ImemBeat;
  localparam int GlitchPulses = 8;
  localparam logic [63:0] MagicFault  = 64'hFA17_FA17_FA17_FA17;
  localparam logic [63:0] MagicHang   = 64'hDEAD_BEEF_DEAD_BEEF;
  localparam logic [63:0] MagicGlitch = 64'h611C_611C_611C_611C;

  typedef enum logic [3:0] {
    StIdle, StFetch, StDecide, StRead, StGlitch, StWrite, StAck, StDone, StFault, StHang
  } state_e;

  state_e state_q;
  logic [31:0] req_cnt_q, rsp_cnt_q, cycles_q;
  logic [tpu_pkg::NHDR*64-1:0] header_q;
  logic [63:0] instr0_q;
  logic [VW-1:0] a_q, b_q, sum;
  logic toggle_q;
  logic [tpu_pkg::N_PROGRESS*16-1:0] hdr_counts;

  `include "mock_progress.svh"

  logic imem_req_fire, imem_rsp_fire, rd_req_fire, rd_rsp_fire, wr_req_fire, wr_rsp_fire;
  assign imem_req_fire = imem_req_valid_o & imem_req_ready_i;
  assign imem_rsp_fire = imem_rsp_valid_i & imem_rsp_ready_o;
  assign rd_req_fire   = dram_rd_req_valid_o & dram_rd_req_ready_i;
  assign rd_rsp_fire   = dram_rd_rsp_valid_i & dram_rd_rsp_ready_o;
  assign wr_req_fire   = dram_wr_req_valid_o & dram_wr_req_ready_i;
  assign wr_rsp_fire   = dram_wr_rsp_valid_i & dram_wr_rsp_ready_o;

  // Requests and response readies, from registered state only.
  assign imem_req_valid_o    = (state_q == StFetch) && (req_cnt_q < 32'(NBeats));
  assign imem_req_addr_o     = 16'(req_cnt_q * 32'(ImemBeat));
  assign imem_rsp_ready_o    = (state_q == StFetch) && (rsp_cnt_q < 32'(NBeats)) && toggle_q;
  assign dram_rd_req_valid_o = ((state_q == StRead) && (req_cnt_q < 32'd2)) ||
                               ((state_q == StGlitch) && toggle_q);
  assign dram_rd_req_sel_o   = req_cnt_q[0];
  assign dram_rd_req_addr_o  = '0;
  assign dram_rd_rsp_ready_o = (state_q == StRead) && (rsp_cnt_q < 32'd2) && toggle_q;
  assign dram_wr_req_valid_o = (state_q == StWrite);
  assign dram_wr_req_addr_o  = '0;
  for (genvar s = 0; s < CBeat; s++) begin : gen_slot
    assign dram_wr_req_data_o[s*VW +: VW] = (s == 1) ? sum : ~sum;
    assign dram_wr_req_strb_o[s*T +: T]   = (s == 1) ? {T{1'b1}} : {T{1'b0}};
  end
  assign dram_wr_rsp_ready_o = (state_q == StAck);

  always_comb begin
    for (int b = 0; b < T; b++) sum[8*b +: 8] = a_q[8*b +: 8] + b_q[8*b +: 8];
  end

  assign busy_o       = (state_q != StIdle) && (state_q != StDone) && (state_q != StFault);
  assign done_o       = (state_q == StDone);
  assign fault_o      = (state_q == StFault) ? tpu_pkg::FAULT_OPCODE : tpu_pkg::FAULT_NONE;
  assign fault_pc_o   = '0;
  assign fault_unit_o = '0;
  assign progress_o   = (state_q == StDone) ? hdr_counts : '0;
  assign header_o     = header_q;
  assign cycles_o     = cycles_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      req_cnt_q <= '0;
      rsp_cnt_q <= '0;
      cycles_q  <= '0;
      header_q  <= '0;
      instr0_q  <= '0;
      a_q       <= '0;
      b_q       <= '0;
      toggle_q  <= 1'b0;
    end else begin
      toggle_q <= ~toggle_q;
      if (busy_o) cycles_q <= cycles_q + 32'd1;
      unique case (state_q)
        StIdle, StDone, StFault: begin
          if (start_i) begin
            state_q   <= StFetch;
            req_cnt_q <= '0;
            rsp_cnt_q <= '0;
            cycles_q  <= '0;
          end
        end
        StFetch: begin
          if (imem_req_fire) req_cnt_q <= req_cnt_q + 32'd1;
          if (imem_rsp_fire) begin
            for (int k = 0; k < ImemBeat; k++) begin
              if (rsp_cnt_q * 32'(ImemBeat) + 32'(k) < 32'(tpu_pkg::NHDR))
                header_q[64*(rsp_cnt_q*32'(ImemBeat) + 32'(k)) +: 64] <= imem_rsp_data_i[64*k +: 64];
              else if (rsp_cnt_q * 32'(ImemBeat) + 32'(k) == 32'(tpu_pkg::NHDR))
                instr0_q <= imem_rsp_data_i[64*k +: 64];
            end
            rsp_cnt_q <= rsp_cnt_q + 32'd1;
            if (rsp_cnt_q == 32'(NBeats - 1)) begin
              req_cnt_q <= '0;
              rsp_cnt_q <= '0;
              state_q   <= StDecide;
            end
          end
        end
        StDecide: begin
          if (instr0_q == MagicFault) state_q <= StFault;
          else if (instr0_q == MagicHang) state_q <= StHang;
          else if (instr0_q == MagicGlitch) state_q <= StGlitch;
          else state_q <= StRead;
        end
        StRead: begin
          if (rd_req_fire) req_cnt_q <= req_cnt_q + 32'd1;
          if (rd_rsp_fire) begin
            if (rsp_cnt_q == 32'd0) a_q <= dram_rd_rsp_data_i[VW-1:0];
            else b_q <= dram_rd_rsp_data_i[VW-1:0];
            rsp_cnt_q <= rsp_cnt_q + 32'd1;
            if (rsp_cnt_q == 32'd1) state_q <= StWrite;
          end
        end
        StGlitch: begin
          // Pulse the request for single cycles, accepted or not.
          req_cnt_q <= req_cnt_q + 32'd1;
          if (req_cnt_q == 32'(2 * GlitchPulses)) state_q <= StHang;
        end
        StWrite: if (wr_req_fire) state_q <= StAck;
        StAck:   if (wr_rsp_fire) state_q <= StDone;
        StHang:  state_q <= StHang;
        default: state_q <= StIdle;
      endcase
    end
  end

endmodule
