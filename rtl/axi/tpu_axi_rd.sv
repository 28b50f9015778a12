// tpu_axi_rd: one read stream of the core as AXI4 read bursts.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi).
//
// The core asks for ReqBytes bytes at a time, each request aligned to its
// size. Consecutive requests join INCR bursts of narrow beats (AxSIZE =
// log2(ReqBytes)) of at most cap_i + 1 beats, never across a Boundary-byte
// page (tpu_axi_burst).
// Up to Outstanding bursts are in flight (tpu_axi_beats); their beats come
// back in order (one ID), and each beat's ReqBytes lane (the address's byte lanes, as AXI
// places a narrow transfer) is the response to the core.
//
// Stream rules (PULP common_cells): ar_valid_o never depends on ar_ready_i
// and the AR payload holds until the handshake; rsp_valid_o passes r_valid_i
// through, whose payload AXI holds stable.
//
// A request with run_i != 0 commits a burst for itself and the run_i
// requests sure to follow (tpu_axi_burst): its AR leaves with the first of
// them; req_words_o says how many responses a request brings if taken now
// (0 for a committed burst's later one), so that the user can reserve their
// places; the core ties run_i to 0.
//
// The master's address, data and ID widths, its burst rules and the bursts in
// flight a stream may have are parameters (the core's AXI top passes
// tpu_axi_pkg's, from the AXI spec; the memory mover its spec's), and the
// longest burst of the stream is cap_i (the core ties it to MaxBurst - 1).
//
// Parameters:
//   ReqBytes     bytes of one core request (a power of two, <= DataBytes)
//   Id           this stream's AXI ID
//   AddrW        bits of a byte address
//   DataBytes    bytes of the data bus
//   IdW          bits of an AXI ID
//   MaxBurst     the most beats a burst may have (<= 256)
//   Boundary     no burst crosses a multiple of this many bytes
//   Outstanding  bursts in flight
module tpu_axi_rd #(
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
  // the core's requests: absolute byte addresses
  input  logic                      req_valid_i,
  output logic                      req_ready_o,
  input  logic [AddrW-1:0]          req_addr_i,
  input  logic [7:0]                cap_i,            // beats - 1 of the longest burst, < MaxBurst
  input  logic [7:0]                run_i,            // requests sure to follow at consecutive addresses (0: unknown)
  output logic [8:0]                req_words_o,      // responses the request owes if taken now (tpu_axi_burst)
  output logic                      committed_o,      // a committed burst's requests are still due
  // the core's responses, in request order
  output logic                      rsp_valid_o,
  input  logic                      rsp_ready_i,
  output logic [ReqBytes*8-1:0]     rsp_data_o,
  // AXI4 read address
  output logic                      ar_valid_o,
  input  logic                      ar_ready_i,
  output logic [AddrW-1:0]          ar_addr_o,
  output logic [7:0]                ar_len_o,
  output logic [2:0]                ar_size_o,
  output logic [IdW-1:0]            ar_id_o,
  // AXI4 read data of this stream's ID
  input  logic                      r_valid_i,
  output logic                      r_ready_o,
  input  logic [DataBytes*8-1:0]    r_data_i,
  input  logic [1:0]                r_resp_i,
  input  logic                      r_last_i,
  // a beat came back with a response other than OKAY, or RLAST misplaced
  output logic                      err_o
);

  localparam int NLanes = DataBytes / ReqBytes;
  localparam int LaneW  = (NLanes > 1) ? $clog2(NLanes) : 1;
  localparam int TrkW   = LaneW + 8;

  // --- Bursts: consecutive requests joined, issued on AR ----------------------------
  logic             close, trk_push_ready, trk_valid;
  logic [AddrW-1:0] open_addr;
  logic [7:0]       open_len;
  logic [TrkW-1:0]  trk_push_data, trk_data;

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
    .run_i,
    .room_i(1'b1),
    .req_take_o(req_ready_o),
    .req_words_o,
    .committed_o,
    .issue_ready_i(trk_push_ready),
    .close_o(close),
    .open_addr_o(open_addr),
    .open_len_o(open_len),
    .ax_valid_o(ar_valid_o),
    .ax_ready_i(ar_ready_i),
    .ax_addr_o(ar_addr_o),
    .ax_len_o(ar_len_o)
  );

  assign ar_size_o = 3'($clog2(ReqBytes));
  assign ar_id_o   = IdW'(Id);

  function automatic logic [LaneW-1:0] lane_of(input logic [AddrW-1:0] addr);
    if (NLanes > 1) lane_of = LaneW'(addr >> $clog2(ReqBytes));
    else lane_of = '0;
  endfunction

  // --- Bursts in flight: first lane and length, beat by beat (tpu_axi_beats) ---
  logic [7:0]       beat;
  logic [LaneW-1:0] trk_lane, lane;
  logic             r_fire, r_final;
  assign trk_push_data = {lane_of(open_addr), open_len};

  tpu_axi_beats #(
    .Width(TrkW),
    .Depth(Outstanding)
  ) u_bursts (
    .clk_i,
    .rst_ni,
    .push_i      (close),
    .push_ready_o(trk_push_ready),
    .data_i      (trk_push_data),
    .valid_o     (trk_valid),
    .data_o      (trk_data),
    .beat_o      (beat),
    .last_o      (r_final),
    .beat_i      (r_fire)
  );

  // --- R: one beat, one response --------------------------------------------------
  assign trk_lane = trk_data[TrkW-1:8];
  assign lane     = (NLanes > 1) ? LaneW'(trk_lane + LaneW'(beat)) : '0;

  assign rsp_valid_o = r_valid_i && trk_valid;
  assign r_ready_o   = rsp_ready_i && trk_valid;
  assign rsp_data_o  = r_data_i[32'(lane) * ReqBytes * 8 +: ReqBytes * 8];
  assign r_fire      = r_valid_i && r_ready_o;
  assign err_o       = r_fire && ((r_resp_i != 2'b00) || (r_last_i != r_final));

  // A record's length is counted off in u_bursts; the lane takes the beat's
  // low bits only.
  logic unused;
  assign unused = ^{trk_data[7:0], beat};

endmodule
