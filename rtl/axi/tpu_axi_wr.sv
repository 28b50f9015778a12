// tpu_axi_wr: the core's write stream as AXI4 write bursts.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi).
//
// The core writes ReqBytes bytes at a time (with byte strobes), each write
// aligned to its size, and expects one acknowledgement per write. Writes at
// consecutive addresses in consecutive cycles join one INCR burst of narrow
// beats (AWSIZE = log2(ReqBytes)) as in tpu_axi_rd: at most MaxBurst beats,
// never crossing a Boundary-byte page. Each write's data and strobes go at
// once into a beat buffer in the byte lanes of its address; the buffer sends
// a burst's beats on W once the burst is closed (its length, and so WLAST,
// known), in the same cycle as its AW at the earliest. Each B answers a
// burst: it becomes as many acknowledgements to the core as the burst had
// writes. Up to Outstanding bursts await their B.
//
// Parameters: as tpu_axi_rd.
module tpu_axi_wr #(
  parameter int AddrW       = 64,
  parameter int DataBytes   = 64,
  parameter int ReqBytes    = 8,
  parameter int IdW         = 1,
  parameter int Id          = 0,
  parameter int MaxBurst    = 16,
  parameter int Boundary    = 4096,
  parameter int Outstanding = 8
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // the core's writes: absolute byte addresses
  input  logic                   req_valid_i,
  output logic                   req_ready_o,
  input  logic [AddrW-1:0]       req_addr_i,
  input  logic [ReqBytes*8-1:0]  req_data_i,
  input  logic [ReqBytes-1:0]    req_strb_i,
  // one acknowledgement per write
  output logic                   rsp_valid_o,
  input  logic                   rsp_ready_i,
  // AXI4 write address
  output logic                   aw_valid_o,
  input  logic                   aw_ready_i,
  output logic [AddrW-1:0]       aw_addr_o,
  output logic [7:0]             aw_len_o,
  output logic [2:0]             aw_size_o,
  output logic [IdW-1:0]         aw_id_o,
  // AXI4 write data
  output logic                   w_valid_o,
  input  logic                   w_ready_i,
  output logic [DataBytes*8-1:0] w_data_o,
  output logic [DataBytes-1:0]   w_strb_o,
  output logic                   w_last_o,
  // AXI4 write response
  input  logic                   b_valid_i,
  output logic                   b_ready_o,
  input  logic [1:0]             b_resp_i,
  // a write response other than OKAY
  output logic                   err_o
);

  localparam int NLanes = DataBytes / ReqBytes;
  localparam int LaneW  = (NLanes > 1) ? $clog2(NLanes) : 1;
  localparam int PageW  = $clog2(Boundary);
  localparam int BeatW  = DataBytes * 8 + DataBytes;

  // --- The open burst (as tpu_axi_rd) --------------------------------------------
  logic             open_q;
  logic [AddrW-1:0] open_addr_q, open_next_q;
  logic [7:0]       open_len_q;

  logic             aw_valid_q;
  logic [AddrW-1:0] aw_addr_q;
  logic [7:0]       aw_len_q;

  logic beat_push_ready, wlen_push_ready, ack_push_ready;
  logic contig, absorb, can_close, close, start_new;
  assign contig    = open_q && (req_addr_i == open_next_q) && (open_len_q != 8'(MaxBurst - 1))
                   && (open_next_q[PageW-1:0] != '0);
  assign absorb    = req_valid_i && contig && beat_push_ready;
  assign can_close = (!aw_valid_q || aw_ready_i) && wlen_push_ready && ack_push_ready;
  assign close     = open_q && !absorb && can_close;
  assign start_new = req_valid_i && !contig && beat_push_ready && (!open_q || close);
  assign req_ready_o = absorb || start_new;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q      <= 1'b0;
      open_addr_q <= '0;
      open_next_q <= '0;
      open_len_q  <= '0;
    end else if (absorb) begin
      open_len_q  <= open_len_q + 8'd1;
      open_next_q <= open_next_q + AddrW'(ReqBytes);
    end else if (start_new) begin
      open_q      <= 1'b1;
      open_addr_q <= req_addr_i;
      open_next_q <= req_addr_i + AddrW'(ReqBytes);
      open_len_q  <= '0;
    end else if (close) begin
      open_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_valid_q <= 1'b0;
      aw_addr_q  <= '0;
      aw_len_q   <= '0;
    end else if (close) begin
      aw_valid_q <= 1'b1;
      aw_addr_q  <= open_addr_q;
      aw_len_q   <= open_len_q;
    end else if (aw_ready_i) begin
      aw_valid_q <= 1'b0;
    end
  end

  assign aw_valid_o = aw_valid_q;
  assign aw_addr_o  = aw_addr_q;
  assign aw_len_o   = aw_len_q;
  assign aw_size_o  = 3'($clog2(ReqBytes));
  assign aw_id_o    = IdW'(Id);

  // --- Beats: each write in the byte lanes of its address ------------------------
  logic [LaneW-1:0]       req_lane;
  logic [BeatW-1:0]       beat_push_data, beat_data;
  logic                   beat_push, beat_valid, beat_pop;
  logic [$clog2(MaxBurst+1)-1:0] beat_usage;
  assign req_lane  = (NLanes > 1) ? LaneW'(req_addr_i >> $clog2(ReqBytes)) : '0;
  assign beat_push = absorb || start_new;
  always_comb begin
    beat_push_data = '0;
    beat_push_data[32'(req_lane) * ReqBytes * 8 +: ReqBytes * 8] = req_data_i;
    beat_push_data[DataBytes * 8 + 32'(req_lane) * ReqBytes +: ReqBytes] = req_strb_i;
  end

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

  // --- W: the beats of closed bursts, WLAST on each burst's last ------------------
  logic       wlen_valid, wlen_pop;
  logic [7:0] wlen, wbeat_q;
  logic [$clog2(Outstanding+1)-1:0] wlen_usage;

  tpu_fifo #(
    .Width(8),
    .Depth(Outstanding)
  ) u_w_bursts (
    .clk_i,
    .rst_ni,
    .valid_i(close),
    .ready_o(wlen_push_ready),
    .data_i (open_len_q),
    .valid_o(wlen_valid),
    .ready_i(wlen_pop),
    .data_o (wlen),
    .usage_o(wlen_usage)
  );

  assign w_valid_o = beat_valid && wlen_valid;
  assign w_data_o  = beat_data[DataBytes*8-1:0];
  assign w_strb_o  = beat_data[BeatW-1:DataBytes*8];
  assign w_last_o  = (wbeat_q == wlen);
  assign beat_pop  = w_valid_o && w_ready_i;
  assign wlen_pop  = beat_pop && w_last_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wbeat_q <= '0;
    else if (beat_pop) wbeat_q <= w_last_o ? 8'd0 : wbeat_q + 8'd1;
  end

  // --- B: a burst's response, as one acknowledgement per write ---------------------
  logic       ack_valid, ack_pop;
  logic [7:0] ack_len, acks_q;
  logic       acking_q;
  logic [$clog2(Outstanding+1)-1:0] ack_usage;

  tpu_fifo #(
    .Width(8),
    .Depth(Outstanding)
  ) u_b_bursts (
    .clk_i,
    .rst_ni,
    .valid_i(close),
    .ready_o(ack_push_ready),
    .data_i (open_len_q),
    .valid_o(ack_valid),
    .ready_i(ack_pop),
    .data_o (ack_len),
    .usage_o(ack_usage)
  );

  // After a B, acknowledge the burst's writes one by one (acks_q counts down
  // from its beats - 1), then take the next B.
  assign b_ready_o   = !acking_q && ack_valid;
  assign rsp_valid_o = acking_q;
  assign ack_pop     = acking_q && rsp_ready_i && (acks_q == 8'd0);
  assign err_o       = b_valid_i && b_ready_o && (b_resp_i != 2'b00);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acking_q <= 1'b0;
      acks_q   <= '0;
    end else if (b_valid_i && b_ready_o) begin
      acking_q <= 1'b1;
      acks_q   <= ack_len;
    end else if (acking_q && rsp_ready_i) begin
      if (acks_q == 8'd0) acking_q <= 1'b0;
      else acks_q <= acks_q - 8'd1;
    end
  end

  logic unused_usage;
  assign unused_usage = ^{beat_usage, wlen_usage, ack_usage};

endmodule
