// tpu_mover_walker: one of the memory mover's two walkers (mover-notes §2):
// a base, ndim live dimensions of six (dimension ndim-1 the innermost, the
// fastest), each {count (0 means 1), signed byte stride, bound selector,
// signed axis step}, and two bound axes {signed base, extent}.
//
// Hand-written module of tpugen, copied unchanged into every mover
// configuration (tpugen mover gen); tpu_noc_mover has one for the source and
// one for the destination.
//
// start_i takes the walker's registers (the mover's register file may change
// them while the move runs). Setup takes ndim cycles (one for ndim 0), the
// first the cycle of start_i itself, one live dimension a cycle from the
// innermost, with one multiplier: each dimension's reach
// ((count - 1) x stride), the extremes of the address offset, the element
// count and the two checks the mover makes at GO (a stride that is not a
// word multiple, a bound axis that is on). It also prepares, for every
// dimension k, what a step that increments k and rewinds every inner
// dimension adds to the address (stride k minus the inner reaches) and to
// each axis coordinate, so that a step is one add. ready_o rises with the
// figures, and the walk stands at its first element.
//
// Each step_i moves to the next element in walk order; at the last element
// (last_o) a step changes nothing: the walker holds it. run_o counts the
// in-bound elements that follow the current one, in bounds too, in its row
// of the innermost live dimension (they are sure to come: the walk ends only
// after the row), and
// contig_o says whether that dimension steps one word (so that they are at
// consecutive addresses), for a reader that commits bursts ahead. addr_o is the
// element's byte address, in_bounds_o whether both axes hold it: an axis is
// off with extent 0, else its 16-bit two's complement coordinate (axis base
// plus index x step over the dimensions that feed it) is in [0, extent).
//
// The register widths, the dimension and axis counts, the word and the
// bound selectors' meaning are tpu_mover_pkg's (from the spec).
//
// Parameters:
//   ElemsW  bits of the element count, which saturates at 2^ElemsW - 1
module tpu_mover_walker #(
  parameter int ElemsW = 34
) (
  input  logic                                                      clk_i,
  input  logic                                                      rst_ni,
  // the walker's registers, taken at start_i; dimension d at [d*W +: W], axis a at [a*W +: W]
  input  logic                                                      start_i,
  input  logic [tpu_mover_pkg::WALKER_BASE_W-1:0]                   base_i,
  input  logic [tpu_mover_pkg::WALKER_NDIM_W-1:0]                   ndim_i,
  input  logic [tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_COUNT_W-1:0]  count_i,
  input  logic [tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_STRIDE_W-1:0] stride_i,
  input  logic [tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W-1:0] sel_i,
  input  logic [tpu_mover_pkg::DIMS*tpu_mover_pkg::DIM_BOUND_ASTEP_W-1:0]     astep_i,
  input  logic [tpu_mover_pkg::AXES*tpu_mover_pkg::AXIS_ABASE_W-1:0]          abase_i,
  input  logic [tpu_mover_pkg::AXES*tpu_mover_pkg::AXIS_EXTENT_W-1:0]         extent_i,
  // the walk's figures, from ready_o until the next start_i
  output logic                                                      ready_o,
  output logic                                                      finishing_o,    // setup ends this cycle: ready_o next
  output logic                                                      span_ok_o,      // offsets within signed 32 bits
  output logic signed [tpu_mover_pkg::ADDR_W+1:0]                   lowest_o,       // the lowest element address
  output logic signed [tpu_mover_pkg::ADDR_W+1:0]                   highest_o,      // the highest
  output logic [ElemsW-1:0]                                         elems_o,        // elements, saturating
  output logic [2:0]                                                elems_mod8_o,   // elements mod 8, exact
  output logic                                                      misaligned_o,   // a stride not a word multiple
  output logic                                                      has_bound_o,    // a bound axis is on
  // the walk
  input  logic                                                      step_i,
  output logic [tpu_mover_pkg::ADDR_W-1:0]                          addr_o,
  output logic                                                      in_bounds_o,
  output logic                                                      last_o,
  output logic [7:0]                                                run_o,          // in-bound elements after this one in its innermost row, saturating
  output logic                                                      contig_o        // the innermost dimension's stride is one word
);

  localparam int Dims    = tpu_mover_pkg::DIMS;
  localparam int Axes    = tpu_mover_pkg::AXES;
  localparam int AddrW   = tpu_mover_pkg::ADDR_W;
  localparam int CountW  = tpu_mover_pkg::DIM_COUNT_W;
  localparam int StrideW = tpu_mover_pkg::DIM_STRIDE_W;
  localparam int SelW    = tpu_mover_pkg::DIM_BOUND_BOUND_SEL_W;
  localparam int CoordW  = tpu_mover_pkg::DIM_BOUND_ASTEP_W;
  localparam int ExtW    = tpu_mover_pkg::AXIS_EXTENT_W;
  localparam int ReachW  = CountW + StrideW + 1;          // (count - 1) x stride, signed
  localparam int SumW    = ReachW + $clog2(Dims) + 1;     // a sum of Dims reaches
  localparam int DimW    = $clog2(Dims);
  localparam int AlignW  = $clog2(tpu_mover_pkg::WORD_BYTES);

  // --- The registers, taken at start_i ------------------------------------------------
  logic [AddrW-1:0]        base_q;
  logic [Dims*CountW-1:0]  c1_q;        // count - 1 of each dimension; 0 for a dead one
  logic [Dims*StrideW-1:0] stride_q;
  logic [Dims*SelW-1:0]    sel_q;
  logic [Dims*CoordW-1:0]  astep_q;
  logic [Axes*CoordW-1:0]  abase_q;
  logic [Axes*ExtW-1:0]    extent_q;
  logic [Dims*CountW-1:0]  c1_d;
  logic [DimW-1:0]         inner_q;     // the innermost live dimension (0 for ndim 0)

  // Setup starts at the innermost live dimension: a dead one (at or past
  // ndim) has count 1, reaches nothing and is never the one a step
  // increments, so its figures are not needed.
  logic [DimW-1:0] k_first;
  assign k_first = (ndim_i == '0) ? '0
                 : (32'(ndim_i) > Dims) ? DimW'(Dims - 1) : DimW'(32'(ndim_i) - 1);

  always_comb begin
    c1_d = '0;
    for (int d = 0; d < Dims; d++) begin
      if ((32'(ndim_i) > d) && (count_i[d*CountW +: CountW] != '0))
        c1_d[d*CountW +: CountW] = count_i[d*CountW +: CountW] - CountW'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (start_i) begin
      inner_q  <= k_first;
      base_q   <= AddrW'(base_i);
      c1_q     <= c1_d;
      stride_q <= stride_i;
      sel_q    <= sel_i;
      astep_q  <= astep_i;
      abase_q  <= abase_i;
      extent_q <= extent_i;
    end
  end

  // --- Setup: one dimension a cycle, innermost first -----------------------------------
  logic                     setup_q, ready_q;
  logic [DimW-1:0]          k_q;
  logic signed [SumW-1:0]   suffix_q, pos_q, neg_q;
  logic [Axes*CoordW-1:0]   asuffix_q;
  logic [ElemsW-1:0]        elems_q;
  logic [2:0]               mod8_q;
  logic                     misaligned_q;
  logic [Dims*AddrW-1:0]    rew_q;       // what a step that increments dimension k adds to the address
  logic [Axes*Dims*CoordW-1:0] crew_q;   // ... and to axis a's coordinate, at [(a*Dims+k)*CoordW +: CoordW]

  // The dimension a setup step works on: in the cycle of start_i the
  // innermost live one, from the inputs (the multiplier is free then), so
  // that ndim 1 needs no cycle more; later k_q's, from the registers.
  logic                      step;
  logic [DimW-1:0]           k_now;
  logic [Dims*CountW-1:0]    c1_src;
  logic [Dims*StrideW-1:0]   stride_src;
  logic [Dims*SelW-1:0]      sel_src;
  logic [Dims*CoordW-1:0]    astep_src;
  assign step       = start_i || setup_q;
  assign k_now      = start_i ? k_first : k_q;
  assign c1_src     = start_i ? c1_d : c1_q;
  assign stride_src = start_i ? stride_i : stride_q;
  assign sel_src    = start_i ? sel_i : sel_q;
  assign astep_src  = start_i ? astep_i : astep_q;

  // What the step adds to: nothing yet in the cycle of start_i.
  logic signed [SumW-1:0]   suffix_in, pos_in, neg_in;
  logic [Axes*CoordW-1:0]   asuffix_in;
  logic [ElemsW-1:0]        elems_in;
  logic [2:0]               mod8_in;
  logic                     misaligned_in;
  assign suffix_in     = start_i ? '0 : suffix_q;
  assign pos_in        = start_i ? '0 : pos_q;
  assign neg_in        = start_i ? '0 : neg_q;
  assign asuffix_in    = start_i ? '0 : asuffix_q;
  assign elems_in      = start_i ? ElemsW'(1) : elems_q;
  assign mod8_in       = start_i ? 3'd1 : mod8_q;
  assign misaligned_in = start_i ? 1'b0 : misaligned_q;

  logic [CountW-1:0]         c1_k;
  logic signed [StrideW-1:0] stride_k;
  logic signed [ReachW-1:0]  reach_k;
  logic [CoordW-1:0]         astep_k, areach_k;
  logic [SelW-1:0]           sel_k;
  logic [ElemsW+CountW:0]    elems_next;
  assign c1_k       = c1_src[k_now*CountW +: CountW];
  assign stride_k   = stride_src[k_now*StrideW +: StrideW];
  assign sel_k      = sel_src[k_now*SelW +: SelW];
  assign astep_k    = astep_src[k_now*CoordW +: CoordW];
  assign reach_k    = $signed({1'b0, c1_k}) * stride_k;
  assign areach_k   = CoordW'(c1_k * astep_k);
  logic [CountW:0]          count_k;   // count (1 for 0)
  assign count_k    = {1'b0, c1_k} + (CountW + 1)'(1);
  assign elems_next = (ElemsW + CountW + 1)'(elems_in) * (ElemsW + CountW + 1)'(count_k);

  function automatic logic feeds(input logic [SelW-1:0] sel, input int axis);
    if (axis == 0) feeds = tpu_mover_pkg::BOUND_SEL_FEEDS_0[sel];
    else feeds = tpu_mover_pkg::BOUND_SEL_FEEDS_1[sel];
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      setup_q <= 1'b0;
      ready_q <= 1'b0;
      k_q     <= '0;
    end else if (start_i) begin
      setup_q <= k_first != '0;
      ready_q <= k_first == '0;
      k_q     <= k_first - DimW'(1);
    end else if (setup_q) begin
      k_q <= k_q - DimW'(1);
      if (k_q == '0) begin
        setup_q <= 1'b0;
        ready_q <= 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (step) begin
      rew_q[k_now*AddrW +: AddrW] <= AddrW'(SumW'(stride_k) - suffix_in);
      suffix_q <= suffix_in + SumW'(reach_k);
      pos_q    <= pos_in + ((reach_k > 0) ? SumW'(reach_k) : '0);
      neg_q    <= neg_in + ((reach_k > 0) ? '0 : SumW'(reach_k));
      for (int a = 0; a < Axes; a++) begin
        crew_q[(a*Dims+32'(k_now))*CoordW +: CoordW] <=
            (feeds(sel_k, a) ? astep_k : '0) - asuffix_in[a*CoordW +: CoordW];
        asuffix_q[a*CoordW +: CoordW] <= asuffix_in[a*CoordW +: CoordW] + (feeds(sel_k, a) ? areach_k : '0);
      end
      elems_q      <= (elems_next[ElemsW+CountW:ElemsW] != '0) ? '1 : elems_next[ElemsW-1:0];
      mod8_q       <= mod8_in * count_k[2:0];
      misaligned_q <= misaligned_in || ((c1_k != '0) && (stride_k[AlignW-1:0] != '0));
    end
  end

  logic finishing;
  assign finishing = (start_i && (k_first == '0)) || (setup_q && (k_q == '0));

  assign ready_o      = ready_q;
  assign finishing_o  = finishing;
  assign span_ok_o    = (pos_q <= SumW'(32'sh7fff_ffff)) && (neg_q >= -SumW'(64'sh8000_0000));
  assign lowest_o     = $signed({2'b00, base_q}) + (AddrW + 2)'(neg_q);
  assign highest_o    = $signed({2'b00, base_q}) + (AddrW + 2)'(pos_q);
  assign elems_o      = elems_q;
  assign elems_mod8_o = mod8_q;
  assign misaligned_o = misaligned_q;

  // --- The walk ---------------------------------------------------------------------
  logic [Dims*CountW-1:0]  idx_q;
  logic [AddrW-1:0]        addr_q;
  logic [Axes*CoordW-1:0]  coord_q;
  logic                    found;
  logic [DimW-1:0]         adv;   // the innermost dimension not at its last index

  always_comb begin
    found = 1'b0;
    adv   = '0;
    for (int d = Dims - 1; d >= 0; d--) begin
      if (!found && (idx_q[d*CountW +: CountW] != c1_q[d*CountW +: CountW])) begin
        found = 1'b1;
        adv   = DimW'(d);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (finishing) begin
      idx_q   <= '0;
      addr_q  <= start_i ? AddrW'(base_i) : base_q;
      coord_q <= start_i ? abase_i : abase_q;
    end else if (ready_q && step_i && found) begin
      for (int d = 0; d < Dims; d++) begin
        if (d == 32'(adv)) idx_q[d*CountW +: CountW] <= idx_q[d*CountW +: CountW] + CountW'(1);
        else if (d > 32'(adv)) idx_q[d*CountW +: CountW] <= '0;
      end
      addr_q <= addr_q + rew_q[adv*AddrW +: AddrW];
      for (int a = 0; a < Axes; a++)
        coord_q[a*CoordW +: CoordW] <= coord_q[a*CoordW +: CoordW] + crew_q[(a*Dims+32'(adv))*CoordW +: CoordW];
    end
  end

  logic in_bounds;
  logic on;
  always_comb begin
    in_bounds = 1'b1;
    on        = 1'b0;
    for (int a = 0; a < Axes; a++) begin
      if (extent_q[a*ExtW +: ExtW] != '0) begin
        on = 1'b1;
        if (coord_q[a*CoordW + CoordW - 1] ||
            (ExtW'(coord_q[a*CoordW +: CoordW]) >= extent_q[a*ExtW +: ExtW]))
          in_bounds = 1'b0;
      end
    end
  end

  // The in-bound elements that follow in the row: all of its rest, but for
  // an axis the innermost dimension feeds, which with step +1 (-1) leaves its
  // range after extent - 1 - coordinate (coordinate) more and with step 0
  // never does; with another step none is counted. None when this element is
  // out of bounds.
  logic [CountW-1:0] row_left;
  logic [31:0]       in_left, lim;
  logic [SelW-1:0]   sel_in;
  logic [CoordW-1:0] astep_in;
  assign row_left = c1_q[inner_q*CountW +: CountW] - idx_q[inner_q*CountW +: CountW];
  assign sel_in   = sel_q[inner_q*SelW +: SelW];
  assign astep_in = astep_q[inner_q*CoordW +: CoordW];
  always_comb begin
    in_left = in_bounds ? 32'(row_left) : 32'd0;
    for (int a = 0; a < Axes; a++) begin
      lim = 32'hffff_ffff;
      if ((extent_q[a*ExtW +: ExtW] != '0) && feeds(sel_in, a)) begin
        if (astep_in == CoordW'(1))
          lim = 32'(extent_q[a*ExtW +: ExtW]) - 32'd1 - 32'(ExtW'(coord_q[a*CoordW +: CoordW]));
        else if (astep_in == '1) lim = 32'(coord_q[a*CoordW +: CoordW]);
        else if (astep_in != '0) lim = 32'd0;
      end
      if (lim < in_left) in_left = lim;
    end
  end
  assign run_o    = (in_left > 32'd255) ? 8'd255 : 8'(in_left);
  assign contig_o    = $signed(stride_q[inner_q*StrideW +: StrideW]) == StrideW'(tpu_mover_pkg::WORD_BYTES);

  assign addr_o      = addr_q;
  assign in_bounds_o = in_bounds;
  assign last_o      = !found;
  assign has_bound_o = on;

`ifdef TPU_ASSERT
  // No step before the walk is ready, none while it sets up.
  tpu_assert_never u_step_before_ready (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .bad_i (step_i && !ready_q)
  );
`endif

endmodule
