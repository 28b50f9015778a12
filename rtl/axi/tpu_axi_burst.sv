// tpu_axi_burst: a stream of aligned, equal-size requests as AXI4 INCR bursts.
//
// Hand-written primitive of tpugen, copied unchanged into every AXI
// configuration (tpugen gen --top axi) and into the memory mover's (tpugen
// mover gen); tpu_axi_rd and tpu_axi_wr each use one for their address
// channel, the mover one for its reads and one for its writes.
//
// Requests that follow each other in consecutive cycles at consecutive
// addresses join one burst: a burst is open while the next request continues
// it, and closes (is issued on the address channel) in the first cycle that
// does not, when it reaches cap_i + 1 beats, or when its next beat would start
// a new Boundary-byte page (AXI: no burst crosses 4 KB). With hold_i, a cycle
// with no request does not close an open burst that can still grow (the
// memory mover's XFORM sends an entry's addresses in a run, then waits while
// the rest of the entry is read): the user holds only while its requests are
// sure to come, so that a burst never waits for a request its own data holds
// back. The cost is one
// cycle from the last request of a burst to its address. A request is taken
// only with room_i (the user's buffer for its data); a burst closes only with
// issue_ready_i (the user's record of bursts in flight has room), and close_o
// names the cycle, with the burst's start address and length.
//
// A committed burst: a request with run_i != 0 says that run_i more requests
// will follow it at consecutive addresses (the memory mover's COPY knows the
// rest of a contiguous row). With no burst open it is issued at once, with
// min(run_i, cap_i, what is left of its page) + 1 beats, not after its
// last request: the requests that make up the rest are taken as its beats (committed_o while they are due; they must come, at consecutive
// addresses, and do, by the assertion). req_words_o tells the user how many
// places in its buffer a request takes if taken now: 0 for a committed
// burst's later beat, the burst's beats for one that commits, else 1.
//
// Stream rules: the address channel's register is a tpu_out_reg (u_ax):
// ax_valid_o never depends on ax_ready_i, and the address and length hold
// until the handshake, which its assertions check.
//
// The package-free primitive takes the address width, the longest burst and
// the page no burst crosses as parameters (the core's adapters pass
// tpu_axi_pkg's, from the AXI spec; the mover its spec's), and the longest
// burst of this stream as cap_i (the mover's burst cap flag; the core ties it
// to MaxBurst - 1).
//
// Parameters:
//   ReqBytes  bytes of one request (a power of two); requests are aligned to it
//   AddrW     bits of a byte address
//   MaxBurst  the most beats a burst may have (<= 256)
//   Boundary  no burst crosses a multiple of this many bytes (a power of two)
module tpu_axi_burst #(
  parameter int ReqBytes = 8,
  parameter int AddrW    = 64,
  parameter int MaxBurst = 16,
  parameter int Boundary = 4096
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  // requests: absolute byte addresses
  input  logic                           req_valid_i,
  input  logic [AddrW-1:0]               req_addr_i,
  input  logic                           room_i,
  input  logic [7:0]                     cap_i,         // beats - 1 of the longest burst, < MaxBurst
  input  logic                           hold_i,        // no request this cycle: keep the open burst open
  input  logic [7:0]                     run_i,         // requests sure to follow at consecutive addresses (0: unknown)
  output logic                           req_take_o,
  output logic [8:0]                     req_words_o,   // places the request takes if taken now
  output logic                           committed_o,   // a committed burst's beats are still due
  // the burst closing this cycle
  input  logic                           issue_ready_i,
  output logic                           close_o,
  output logic [AddrW-1:0]               open_addr_o,
  output logic [7:0]                     open_len_o,   // beats - 1
  // the address channel (AR or AW)
  output logic                           ax_valid_o,
  input  logic                           ax_ready_i,
  output logic [AddrW-1:0]               ax_addr_o,
  output logic [7:0]                     ax_len_o
);

  localparam int PageW = $clog2(Boundary);
  localparam int ReqW  = $clog2(ReqBytes);

  logic             open_q;
  logic [AddrW-1:0] open_addr_q, open_next_q;
  logic [7:0]       open_len_q;
  logic             ax_valid;

  // A committed burst's beats still due, and the address the next one has.
  logic [7:0]       commit_q;
  logic [AddrW-1:0] commit_next_q;
  logic             following, commit_start, plain;
  assign following = commit_q != '0;
  assign plain     = !following && (run_i == '0);   // the request joins bursts as they come

  // A committed burst's length: run_i, cap_i, the page's rest, MaxBurst.
  logic [PageW-1:0] page_rest;                      // bytes after the request's first in its page
  logic [31:0]      page_left, commit_len;
  assign page_rest = PageW'(Boundary - 1) - req_addr_i[PageW-1:0];
  assign page_left = 32'(page_rest) >> ReqW;
  always_comb begin
    commit_len = 32'(run_i);
    if (32'(cap_i) < commit_len) commit_len = 32'(cap_i);
    if (page_left < commit_len) commit_len = page_left;
    if (MaxBurst - 1 < commit_len) commit_len = MaxBurst - 1;
  end

  logic contig, absorb, can_close, close, start_new, full, waiting;
  assign full      = (open_len_q == cap_i) || (32'(open_len_q) >= MaxBurst - 1)
                   || (open_next_q[PageW-1:0] == '0);
  assign contig    = open_q && (req_addr_i == open_next_q) && !full;
  assign waiting   = hold_i && !req_valid_i && !full;
  assign absorb    = req_valid_i && plain && contig && room_i;
  assign can_close = (!ax_valid || ax_ready_i) && issue_ready_i;
  assign close     = open_q && !absorb && !waiting && can_close;
  assign start_new = req_valid_i && plain && !contig && room_i && (!open_q || close);
  assign commit_start = req_valid_i && !following && (run_i != '0) && !open_q && room_i && can_close;

  assign req_take_o   = absorb || start_new || commit_start || (following && req_valid_i);
  assign req_words_o  = following ? 9'd0 : (run_i != '0) ? 9'(commit_len) + 9'd1 : 9'd1;
  assign committed_o  = following;
  assign close_o      = close || commit_start;
  assign open_addr_o  = commit_start ? req_addr_i : open_addr_q;
  assign open_len_o   = commit_start ? 8'(commit_len) : open_len_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      commit_q      <= '0;
      commit_next_q <= '0;
    end else if (commit_start) begin
      commit_q      <= 8'(commit_len);
      commit_next_q <= req_addr_i + AddrW'(ReqBytes);
    end else if (following && req_valid_i) begin
      commit_q      <= commit_q - 8'd1;
      commit_next_q <= commit_next_q + AddrW'(ReqBytes);
    end
  end

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

  // The address channel: the burst that closes, held until the handshake
  // (a burst closes only when the register is free: can_close).
  tpu_out_reg #(
    .Width(AddrW + 8)
  ) u_ax (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (close || commit_start),
    .data_i ({open_addr_o, open_len_o}),
    .valid_o(ax_valid),
    .ready_i(ax_ready_i),
    .data_o ({ax_addr_o, ax_len_o})
  );
  assign ax_valid_o = ax_valid;

`ifdef TPU_ASSERT
  // A burst never grows past the longest AXI allows here.
  tpu_assert_never u_cap_past_max_burst (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (32'(cap_i) >= MaxBurst)
  );
  // A committed burst's beats come at the addresses it was issued for.
  tpu_assert_never u_commit_broken (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (following && req_valid_i && (req_addr_i != commit_next_q))
  );
`endif

endmodule
