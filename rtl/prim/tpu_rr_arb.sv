// tpu_rr_arb: N valid/ready streams taking turns on one, round robin.
//
// Hand-written primitive of tpugen, copied unchanged into every generated
// configuration that holds rtl/prim (the AXI top's read streams share AR
// through one).
//
// Fair round robin: the grant goes to the first requester with valid_i up
// after the last one whose item was taken (the requester taken last has the
// lowest priority; after reset, requester 0 counts as taken last). Lock-in:
// a grant whose item was shown (valid_o) and not taken (no ready_i) is held
// in the next cycle, so that the output keeps the stream rule when the
// inputs do (PULP common_cells: valid_o never depends on ready_i; once
// valid_o rises, data_o and idx_o hold until the handshake). ready_o is
// ready_i toward the granted requester only; with no requester valid, no
// grant.
//
// Assertions (at the end, under `ifdef TPU_ASSERT, as tpu_fifo): the grant
// is one-hot or zero, and the fairness bound: a requester that keeps valid_i
// up is taken before N other items are (the NoC router's outputs rely on it:
// no input starves). The stream rule of the ports is the requesters' and the
// consumer's to check: in the AXI top each requester's (tpu_axi_burst's
// address register, a tpu_out_reg) checks its own, and the AR channel's is
// the AXI protocol checker's (tb/sim/axi/axi_checker.h), which
// rtl.axi_broken_master_* expect to report a broken master.
//
// Parameters:
//   N      requesters (>= 2)
//   Width  bits of one item
module tpu_rr_arb #(
  parameter int N     = 2,
  parameter int Width = 8
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // requesters: item i is data_i[i*Width +: Width]
  input  logic [N-1:0]       valid_i,
  output logic [N-1:0]       ready_o,
  input  logic [N*Width-1:0] data_i,
  // the granted requester's stream
  output logic               valid_o,
  input  logic               ready_i,
  output logic [Width-1:0]   data_o,
  output logic [$clog2(N)-1:0] idx_o
);

  localparam int IdxW = $clog2(N);

  logic [N-1:0]    after, first, pick, gnt, gnt_q;
  logic            hold_q;
  logic [IdxW-1:0] last_q;

  // The first valid requester after last_q, cyclically (last_q itself
  // last): the lowest requester above last_q, or else the lowest of all. A
  // mask and a lowest-set-bit, where a walk from last_q would index the
  // requests by a running sum (an adder and a shifter in synthesis).
  always_comb begin
    for (int i = 0; i < N; i++) after[i] = 32'(i) > 32'(last_q);
  end
  assign first = ((valid_i & after) != '0) ? (valid_i & after) : valid_i;
  assign pick  = first & (~first + N'(1));

  assign gnt     = hold_q ? gnt_q : pick;
  assign ready_o = gnt & {N{ready_i}};
  assign valid_o = |(gnt & valid_i);

  // The granted item and its index (an AND-OR mux: the grant is one-hot).
  always_comb begin
    data_o = '0;
    idx_o  = '0;
    for (int i = 0; i < N; i++) begin
      data_o = data_o | ({Width{gnt[i]}} & data_i[i*Width +: Width]);
      if (gnt[i]) idx_o = IdxW'(i);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= '0;
      hold_q <= 1'b0;
      gnt_q  <= '0;
    end else begin
      hold_q <= valid_o && !ready_i;
      gnt_q  <= gnt;
      if (valid_o && ready_i) last_q <= idx_o;
    end
  end

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: a one-hot (or zero) grant.
  // ---------------------------------------------------------------------------
  tpu_assert_never u_grant_not_onehot (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i ((gnt & (gnt - N'(1))) != '0)
  );

  // Items taken from others while requester i waits; it must be served first.
  for (genvar i = 0; i < N; i++) begin : g_fair
    logic [$clog2(N+1)-1:0] passed_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) passed_q <= '0;
      else if (!valid_i[i] || (valid_o && ready_i && gnt[i])) passed_q <= '0;
      else if (valid_o && ready_i) passed_q <= passed_q + 1'b1;
    end
    tpu_assert_never u_starved (
      .clk_i (clk_i),
      .rst_ni(rst_ni),
      .bad_i (32'(passed_q) >= N)
    );
  end
`endif

endmodule
