// tpu_axi_wr: the core's write stream as AXI4 write bursts.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi).
//
// The core writes ReqBytes bytes at a time (with byte strobes), each write
// aligned to its size, and expects one acknowledgement per write. Consecutive
// writes join INCR bursts of narrow beats (AWSIZE = log2(ReqBytes)) as in
// tpu_axi_rd (tpu_axi_burst). Each write's data, strobes and byte lane go at
// once into a beat buffer (ReqBytes wide, not the bus: the write is placed in
// the lanes of its address on the way out); the buffer sends a burst's beats
// on W once the burst is closed (its length, and so WLAST,
// known), in the same cycle as its AW at the earliest. Each B answers a
// burst: it becomes as many acknowledgements to the core as the burst had
// writes. Up to Outstanding bursts await their B.
//
// Parameters: as tpu_axi_rd.
module tpu_axi_wr #(
  parameter int ReqBytes    = 8,
  parameter int Id          = 0,
  parameter int AddrW       = 64,
  parameter int DataBytes   = 32,
  parameter int IdW         = 1,
  parameter int MaxBurst    = 16,
  parameter int Boundary    = 4096,
  parameter int Outstanding = 8
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // the core's writes: absolute byte addresses
  input  logic                      req_valid_i,
  output logic                      req_ready_o,
  input  logic [AddrW-1:0]          req_addr_i,
  input  logic [7:0]                cap_i,            // beats - 1 of the longest burst, < MaxBurst
  input  logic [ReqBytes*8-1:0]     req_data_i,
  input  logic [ReqBytes-1:0]       req_strb_i,
  // one acknowledgement per write
  output logic                      rsp_valid_o,
  input  logic                      rsp_ready_i,
  // AXI4 write address
  output logic                      aw_valid_o,
  input  logic                      aw_ready_i,
  output logic [AddrW-1:0]          aw_addr_o,
  output logic [7:0]                aw_len_o,
  output logic [2:0]                aw_size_o,
  output logic [IdW-1:0]            aw_id_o,
  // AXI4 write data
  output logic                      w_valid_o,
  input  logic                      w_ready_i,
  output logic [DataBytes*8-1:0]    w_data_o,
  output logic [DataBytes-1:0]      w_strb_o,
  output logic                      w_last_o,
  // AXI4 write response
  input  logic                      b_valid_i,
  output logic                      b_ready_o,
  input  logic [1:0]                b_resp_i,
  // a write response other than OKAY
  output logic                      err_o
);

  localparam int NLanes = DataBytes / ReqBytes;
  localparam int LaneW  = (NLanes > 1) ? $clog2(NLanes) : 1;
  localparam int BeatW  = ReqBytes * 8 + ReqBytes + LaneW;  // a write, its strobes and its lane

  // --- Bursts: consecutive writes joined, issued on AW -------------------------------
  logic             beat_push_ready, wlen_push_ready, ack_push_ready, close, beat_push;
  logic [AddrW-1:0] open_addr;
  logic [7:0]       open_len;
  logic [8:0]       burst_words;        // writes commit no bursts (run_i 0)
  logic             burst_committed;

  tpu_axi_burst #(
    .ReqBytes(ReqBytes),
    .AddrW   (AddrW),
    .MaxBurst(MaxBurst),
    .Boundary(Boundary)
  ) u_burst (
    .clk_i,
    .rst_ni,
    .req_valid_i,
    .req_addr_i,
    .cap_i,
    .hold_i(1'b0),
    .run_i(8'd0),
    .room_i(beat_push_ready),
    .req_take_o(beat_push),
    .req_words_o(burst_words),
    .committed_o(burst_committed),
    .issue_ready_i(wlen_push_ready && ack_push_ready),
    .close_o(close),
    .open_addr_o(open_addr),
    .open_len_o(open_len),
    .ax_valid_o(aw_valid_o),
    .ax_ready_i(aw_ready_i),
    .ax_addr_o(aw_addr_o),
    .ax_len_o(aw_len_o)
  );

  assign req_ready_o = beat_push;
  assign aw_size_o   = 3'($clog2(ReqBytes));
  assign aw_id_o     = IdW'(Id);

  // --- Beats: each write with its strobes and lane --------------------------------
  logic [LaneW-1:0]              req_lane;
  logic [BeatW-1:0]              beat_push_data, beat_data;
  logic                          beat_valid, beat_pop;
  logic [$clog2(MaxBurst+1)-1:0] beat_usage;
  assign req_lane       = (NLanes > 1) ? LaneW'(req_addr_i >> $clog2(ReqBytes)) : '0;
  assign beat_push_data = {req_lane, req_strb_i, req_data_i};

  tpu_fifo #(
    .Width(BeatW),
    .Depth(MaxBurst)
  ) u_beats (
    .clk_i,
    .rst_ni,
    .valid_i(beat_push),
    .ready_o(beat_push_ready),
    .data_i (beat_push_data),
    .valid_o(beat_valid),
    .ready_i(beat_pop),
    .data_o (beat_data),
    .usage_o(beat_usage)
  );

  // --- W: the beats of closed bursts, WLAST on each burst's last (tpu_axi_beats) --
  logic       wlen_valid, w_final;
  logic [7:0] wlen, wbeat;

  tpu_axi_beats #(
    .Width(8),
    .Depth(Outstanding)
  ) u_w_bursts (
    .clk_i,
    .rst_ni,
    .push_i      (close),
    .push_ready_o(wlen_push_ready),
    .data_i      (open_len),
    .valid_o     (wlen_valid),
    .data_o      (wlen),
    .beat_o      (wbeat),
    .last_o      (w_final),
    .beat_i      (beat_pop)
  );

  assign w_valid_o = beat_valid && wlen_valid;
  // The buffered write in the byte lanes of its address (the rest of the beat
  // is zero and not strobed).
  logic [LaneW-1:0] beat_lane;
  assign beat_lane = beat_data[BeatW-1 -: LaneW];
  always_comb begin
    w_data_o = '0;
    w_strb_o = '0;
    w_data_o[32'(beat_lane) * ReqBytes * 8 +: ReqBytes * 8] = beat_data[ReqBytes*8-1:0];
    w_strb_o[32'(beat_lane) * ReqBytes +: ReqBytes]         = beat_data[ReqBytes*8 +: ReqBytes];
  end
  assign w_last_o  = w_final;
  assign beat_pop  = w_valid_o && w_ready_i;

  // --- B: a burst's response, as one acknowledgement per write (tpu_axi_beats) ----
  // After a B, acknowledge the burst's writes one by one, then take the next B
  // (in the cycle of the last acknowledgement).
  logic       ack_valid, ack_final, ack;
  logic [7:0] ack_len, ack_beat;
  logic       acking_q;

  tpu_axi_beats #(
    .Width(8),
    .Depth(Outstanding)
  ) u_b_bursts (
    .clk_i,
    .rst_ni,
    .push_i      (close),
    .push_ready_o(ack_push_ready),
    .data_i      (open_len),
    .valid_o     (ack_valid),
    .data_o      (ack_len),
    .beat_o      (ack_beat),
    .last_o      (ack_final),
    .beat_i      (ack)
  );

  // The next B is taken in the cycle the last write of the burst before is
  // acknowledged, so a burst of n writes costs n cycles of acknowledgements.
  assign b_ready_o   = ack_valid && (!acking_q || (ack && ack_final));
  assign rsp_valid_o = acking_q;
  assign ack         = acking_q && rsp_ready_i;
  assign err_o       = b_valid_i && b_ready_o && (b_resp_i != 2'b00);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) acking_q <= 1'b0;
    else if (b_valid_i && b_ready_o) acking_q <= 1'b1;
    else if (ack && ack_final) acking_q <= 1'b0;
  end

  // The burst's start address is on AW already; the beats carry their lanes;
  // the W and B records are their lengths only.
  logic unused;
  assign unused = ^{beat_usage, open_addr, wlen, wbeat, ack_len, ack_beat, burst_words, burst_committed};

endmodule
