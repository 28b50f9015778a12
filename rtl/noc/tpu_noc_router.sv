// tpu_noc_router: one node of the 2-D mesh. Five ports (tpu_noc_pkg::PORT_*:
// the four neighbours and the local endpoint), each with an input FIFO of
// DEPTH flits and an output register; the routing function (tpu_noc_route)
// at every FIFO's head; one round-robin arbiter per output.
//
// Hand-written module of tpugen, copied unchanged into every generated
// fabric (`tpugen noc gen`); its package, its routing and its local check
// are generated from spec/noc.yaml.
//
// Links: valid/ready, a flit crossing in a cycle with valid_i && ready_o.
// ready_o is "the input FIFO is not full", a function of the FIFO's
// registered count only, so it is the `busy` of a data/valid/busy link
// (busy = !ready_o) and never depends on anything the sender does in the same
// cycle; valid_o comes from the output register and never depends on
// ready_i (PULP common_cells' stream rule).
//
// A flit taken in at cycle t is at its FIFO's head at t + 1, wins its output
// and is loaded into the output register at the end of t + 1, and is offered
// to the next router (or the endpoint) at t + 2: two cycles a hop with no
// contention. Each output takes one flit a cycle.
//
// Order: every flit of a (source, destination) pair takes the same path, and
// each FIFO, arbiter and register keeps the order of what passes through it,
// so flits of a pair arrive in the order they were sent.
//
// Fairness: an output's arbiter (tpu_rr_arb) serves a waiting input within
// PORTS - 1 grants to others; tpu_rr_arb asserts that bound.
//
// The crossbar has only the turns the routing takes (tpu_noc_pkg::TURNS):
// under XY routing a flit that travels in y never turns into x. Each output's
// column selects among its candidates (at most four) by the granted one's
// rank, a dense select.
//
// The local input's flits pass the endpoint check first (tpu_noc_check): a
// malformed flit becomes the ERROR flit that answers it, which this router
// sends back out of its local port.
//
// wait_o says which inputs hold a flit that did not leave in the cycle: a
// testbench's watchdog names the stuck router and port from it (nothing in the
// router reads it; synthesis drops it where the mesh leaves it unconnected).
//
// Assertions (under `ifdef TPU_ASSERT): no FIFO head asks for a turn the
// crossbar does not have or for a port at the edge, and the primitives' own (no FIFO overflow, the
// stream rule on every port, one-hot grants, the fairness bound).
//
// Parameters:
//   X, Y   this router's column and row
//   Links  the ports that lead somewhere (bit tpu_noc_pkg::PORT_*): the local
//          port and the neighbours inside the mesh. A port at the mesh's edge
//          has no FIFO, arbiter or register: it takes nothing (ready_o 0) and
//          sends nothing (valid_o 0).
module tpu_noc_router #(
  parameter int                            X     = 0,
  parameter int                            Y     = 0,
  parameter logic [tpu_noc_pkg::PORTS-1:0] Links = {tpu_noc_pkg::PORTS{1'b1}}
) (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  // inputs: port p at [p], its flit at [p * FLIT_W +: FLIT_W]
  input  logic [tpu_noc_pkg::PORTS-1:0]                    valid_i,
  output logic [tpu_noc_pkg::PORTS-1:0]                    ready_o,
  input  logic [tpu_noc_pkg::PORTS*tpu_noc_pkg::FLIT_W-1:0] flit_i,
  // outputs
  output logic [tpu_noc_pkg::PORTS-1:0]                    valid_o,
  input  logic [tpu_noc_pkg::PORTS-1:0]                    ready_i,
  output logic [tpu_noc_pkg::PORTS*tpu_noc_pkg::FLIT_W-1:0] flit_o,
  // observability: input p holds a flit that does not leave in this cycle
  output logic [tpu_noc_pkg::PORTS-1:0]                    wait_o
);

  localparam int P     = tpu_noc_pkg::PORTS;
  localparam int W     = tpu_noc_pkg::FLIT_W;
  localparam int PortW = $clog2(P);

  // The crossbar: input i may go to output o at [i * P + o] (a turn the
  // routing takes, between two ports that lead somewhere).
  function automatic logic [P*P-1:0] built_turns();
    for (int i = 0; i < P; i++) begin
      for (int o = 0; o < P; o++) begin
        built_turns[i*P + o] = tpu_noc_pkg::TURNS[i*P + o] && Links[i] && Links[o];
      end
    end
  endfunction
  localparam logic [P*P-1:0] Built = built_turns();

  // Output o's candidates are the inputs it may take from, candidates(o) of
  // them; input i is the rank-th of them in port order, the rank Rank holds
  // at [(o * P + i) * PortW]. Both are constants: the logic below reads Rank
  // rather than counting at every evaluation (as a function called from an
  // always_comb, Verilator's model counted every cycle). Each function counts
  // for itself: Icarus 11 refuses a constant function that calls another one
  // in a loop.
  function automatic int candidates(input int o);
    candidates = 0;
    for (int i = 0; i < P; i++) begin
      if (Built[i*P + o]) candidates = candidates + 1;
    end
  endfunction
  function automatic logic [P*P*PortW-1:0] rank_table();
    logic [P*P*PortW-1:0] table_bits;
    int seen;
    table_bits = '0;
    for (int o = 0; o < P; o++) begin
      seen = 0;
      for (int i = 0; i < P; i++) begin
        table_bits[(o*P + i)*PortW +: PortW] = PortW'(seen);
        if (Built[i*P + o]) seen = seen + 1;
      end
    end
    rank_table = table_bits;
  endfunction
  localparam logic [P*P*PortW-1:0] Rank = rank_table();

  // ---------------------------------------------------------------------------
  // Inputs: the local check, the FIFO, the route of the head.
  // ---------------------------------------------------------------------------
  logic [P*W-1:0] in_flit;    // what each FIFO takes in
  logic [P-1:0]   head_valid, head_pop;
  logic [P*W-1:0] head_flit;
  logic [P*P-1:0] head_port;  // input i asks for output o at [i * P + o] (one-hot)

  for (genvar i = 0; i < P; i++) begin : g_in
    if (i == tpu_noc_pkg::PORT_L) begin : g_check
      logic [tpu_noc_pkg::ERROR_RULE_W-1:0] unused_rule;
      tpu_noc_check #(
        .X(X),
        .Y(Y)
      ) u_check (
        .flit_i(flit_i[i*W +: W]),
        .flit_o(in_flit[i*W +: W]),
        .rule_o(unused_rule)
      );
    end else begin : g_link
      assign in_flit[i*W +: W] = flit_i[i*W +: W];
    end

    if (Links[i]) begin : g_fifo
      logic [$clog2(tpu_noc_pkg::DEPTH+1)-1:0] unused_usage;
      tpu_fifo #(
        .Width(W),
        .Depth(tpu_noc_pkg::DEPTH)
      ) u_fifo (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .valid_i(valid_i[i]),
        .ready_o(ready_o[i]),
        .data_i (in_flit[i*W +: W]),
        .valid_o(head_valid[i]),
        .ready_i(head_pop[i]),
        .data_o (head_flit[i*W +: W]),
        .usage_o(unused_usage)
      );
    end else begin : g_edge
      logic unused_edge;
      assign unused_edge         = ^{valid_i[i], in_flit[i*W +: W], head_pop[i]};
      assign ready_o[i]          = 1'b0;
      assign head_valid[i]       = 1'b0;
      assign head_flit[i*W +: W] = '0;
    end

    tpu_noc_route #(
      .X(X),
      .Y(Y)
    ) u_route (
      .dst_x_i(head_flit[i*W + tpu_noc_pkg::DST_X_LSB +: tpu_noc_pkg::DST_X_W]),
      .dst_y_i(head_flit[i*W + tpu_noc_pkg::DST_Y_LSB +: tpu_noc_pkg::DST_Y_W]),
      .port_o (head_port[i*P +: P])
    );
  end

  // ---------------------------------------------------------------------------
  // Outputs: an arbiter over the inputs that may turn here, and the register.
  // ---------------------------------------------------------------------------
  logic [P*P-1:0] grant;  // output o takes input i's head at [o * P + i]

  for (genvar o = 0; o < P; o++) begin : g_out
    if (Links[o]) begin : g_port
      logic [P-1:0]     req;
      logic             arb_valid, room;
      logic [PortW-1:0] unused_idx;  // the crossbar selects by cand_sel
      logic             unused_data;
      logic [W-1:0]     granted_flit;
      // This output's grants, its share of grant: a variable of its own, so
      // that in Verilator's model only the local output's crossbar column
      // depends on the mesh's inputs (eject_ready_i through room), not all
      // five (a shared vector is one variable to Verilator's ordering).
      logic [P-1:0]     port_grant;
      // The granted input's rank among this output's candidates.
      localparam int CandW = (candidates(o) > 1) ? $clog2(candidates(o)) : 1;
      logic [CandW-1:0] cand_sel;

      for (genvar i = 0; i < P; i++) begin : g_req
        assign req[i] = head_valid[i] && head_port[i*P + o] && Built[i*P + o];
      end

      // The register takes a flit when it is empty or hands its flit over now.
      assign room = !valid_o[o] || ready_i[o];

      // The arbiter picks an input (its grant); the crossbar below takes that
      // input's head (the arbiter's own data path and index are not used).
      tpu_rr_arb #(
        .N    (P),
        .Width(1)
      ) u_arb (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .valid_i(req),
        .ready_o(port_grant),
        .data_i ({P{1'b0}}),
        .valid_o(arb_valid),
        .ready_i(room),
        .data_o (unused_data),
        .idx_o  (unused_idx)
      );

      // The crossbar's column for this output: the granted head, chosen by
      // its rank among the inputs that may turn here. A dense select of
      // CandW bits over at most four heads is a 6-input function a bit (the
      // sparse port index or the one-hot grant make it 7 or 8); an indexed
      // part-select of all the heads was a shifter in Yosys.
      always_comb begin
        cand_sel = '0;
        for (int i = 0; i < P; i++) begin
          if (Built[i*P + o] && port_grant[i]) cand_sel = cand_sel | CandW'(Rank[(o*P + i)*PortW +: PortW]);
        end
      end
      always_comb begin
        granted_flit = '0;
        for (int i = 0; i < P; i++) begin
          if (Built[i*P + o] && cand_sel == CandW'(Rank[(o*P + i)*PortW +: PortW])) granted_flit = head_flit[i*W +: W];
        end
      end

      assign grant[o*P +: P] = port_grant;

      tpu_out_reg #(
        .Width(W)
      ) u_out (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .load_i (arb_valid && room),
        .data_i (granted_flit),
        .valid_o(valid_o[o]),
        .ready_i(ready_i[o]),
        .data_o (flit_o[o*W +: W])
      );
    end else begin : g_edge
      logic unused_edge;
      assign unused_edge      = ready_i[o];
      assign grant[o*P +: P]  = '0;
      assign valid_o[o]       = 1'b0;
      assign flit_o[o*W +: W] = '0;
    end
  end

  // Each head goes to one output: it leaves its FIFO when that output takes it.
  always_comb begin
    head_pop = '0;
    for (int o = 0; o < P; o++) head_pop = head_pop | grant[o*P +: P];
  end
  assign wait_o = head_valid & ~head_pop;

`ifdef TPU_ASSERT
  // ---------------------------------------------------------------------------
  // Assertions: no head asks for a turn the crossbar does not have (it would
  // wait forever).
  // ---------------------------------------------------------------------------
  logic [P-1:0] turn_missing;
  for (genvar i = 0; i < P; i++) begin : g_turn
    assign turn_missing[i] = head_valid[i] && ((head_port[i*P +: P] & ~Built[i*P +: P]) != '0);
  end
  tpu_assert_never u_turn_not_built (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (turn_missing != '0)
  );
`endif

endmodule
