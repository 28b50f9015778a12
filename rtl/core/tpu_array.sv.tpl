//! tpu_array's body, after the generated file header: gen/hdl/core/emit_array.cpp
//! fills it (@NAME@: the spec's channel names, T, the progress counters).
//
// The T x T weight-stationary array (spec unit `array`; opcode @OP@).
//
// An mm arrives on @WCOL@ as the header word, {flags, rows} in its low
// 2*COUNT_W bits (rows: the activation rows to take; flags: reserved), then T
// weight rows: lane j of weight row i goes to PE(i, j). The array then takes
// `rows` activation rows from @ACOL@. Lane i of an activation row enters PE
// row i and column j sums south in ascending i:
//   psum(i, j) = psum(i-1, j) + act[i] * W[i][j]
// with products exact in PRODUCT_BITS and sums wrapping at ACC_BITS. Result
// lane j (the column-j sum) leaves on @CW@ at [ACC_BITS*j +: ACC_BITS], one
// result row per activation row, in order.
//
// Pipeline. An activation row accepted in cycle c is multiplied by PE row i
// in cycle c + i: lane i waits i cycles in a skew line while the partial sums
// move one PE row south per cycle. Activations are broadcast along a PE row,
// so the T columns of a row finish together and the outputs need no de-skew:
// the result row is on @CW@ from cycle c + T (latency T, one row per cycle).
// Partial sums are only as wide as they can get: after PE row i, i + 1 exact
// products need PRODUCT_BITS + clog2(i + 1) bits (capped at ACC_BITS, where
// the sum wraps), sign-extended to ACC_BITS at the output.
//
// Weights are double-buffered: every PE holds two banks. The loader fills
// the bank after the one in use from @WCOL@ while the current mm streams, and
// each activation row carries its bank bit down the array (stg_bank_q), so
// the switch follows the wavefront: back-to-back mms take one activation row
// per cycle with no bubble once the next mm's T + 1 @WCOL@ items have arrived.
// The loader writes weight row i of a bank only when no activation row that
// has still to pass PE row i reads that bank (row_busy), so a new mm's
// weights follow the previous user of the bank south, one row per cycle.
//
// Flow control: the array advances as a whole (adv) unless the result row at
// the bottom is valid and @CW@ is not ready; then every stage holds and
// @ACOL@ is not accepted (a stall-the-array enable; no data is dropped). The
// weight loader does not depend on the stall. @CW@_valid_o and @CW@_data_o
// come straight from registers; @ACOL@_ready_o depends on @CW@_ready_i.
//
// progress_o (COUNT_W bits per counter, in PROGRESS_* order):
@COUNTERS@// idle_o: no mm loaded, being loaded or in flight.
//
// Parameters:
//   T  lanes of an operand row; the array is T x T PEs
module tpu_array #(
  parameter int T = @T@
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic                               clear_i,  // a run starts: clear progress_o
  // @WCOL@: the header word, then T weight rows
  input  logic                               @WCOL@_valid_i,
  output logic                               @WCOL@_ready_o,
  input  logic [T*tpu_pkg::OPERAND_BITS-1:0] @WCOL@_data_i,
  // @ACOL@: activation rows
  input  logic                               @ACOL@_valid_i,
  output logic                               @ACOL@_ready_o,
  input  logic [T*tpu_pkg::OPERAND_BITS-1:0] @ACOL@_data_i,
  // @CW@: result rows
  output logic                               @CW@_valid_o,
  input  logic                               @CW@_ready_i,
  output logic [T*tpu_pkg::ACC_BITS-1:0]     @CW@_data_o,
  // status
  output logic [@NCOUNT@*tpu_pkg::COUNT_W-1:0]      progress_o,
  output logic                               idle_o
);

  localparam int OpW   = tpu_pkg::OPERAND_BITS;
  localparam int AccW  = tpu_pkg::ACC_BITS;
  localparam int ProdW = tpu_pkg::PRODUCT_BITS;
  localparam int CntW  = tpu_pkg::COUNT_W;
  // @WCOL@ item of an mm: 0 the header word, i + 1 weight row i.
  localparam int IdxW  = $clog2(T + 1);
  // Partial-sum bits after the last PE row.
  localparam int LastW = (ProdW + $clog2(T) < AccW) ? ProdW + $clog2(T) : AccW;

  // ---------------------------------------------------------------------------
  // Weight banks: the loader fills bank load_bank_q, the stream reads bank
  // act_bank_q. full_q[b]: bank b holds the weights of an mm that has still to
  // take activation rows; rows_q[b]: how many.
  // ---------------------------------------------------------------------------
  logic [1:0]        full_q, full_d;
  logic [2*CntW-1:0] rows_q, rows_d;
  logic              load_bank_q, load_bank_d;
  logic [IdxW-1:0]   load_idx_q, load_idx_d;
  logic              act_bank_q, act_bank_d;

  // Stage s (0 .. T-1): the row whose partial sums have left PE row s.
  logic [T-1:0]      stg_valid_q, stg_bank_q, stg_last_q;

  logic [T-1:0]      row_busy;      // weight row i of the load bank is still in use
  logic              load_blocked;  // the next weight row must wait
  logic              wcol_hs;
  logic [T-1:0]      w_we;          // write weight row i of the load bank

  logic [CntW-1:0]   hdr_rows;      // the header word's row count
  logic [CntW-1:0]   act_rows;      // rows the streaming mm has still to take
  logic              streaming;     // an mm takes activation rows
  logic              empty_mm;      // an mm with rows == 0 retires
  logic              last_row;      // the row taken now is its mm's last
  logic              acol_hs;
  logic              adv;           // the array advances
  logic              cw_hs;

  // A weight row of the load bank is in use while a row that has still to
  // pass that PE row reads the bank: the row in stage s passes PE row s + 1
  // next.
  always_comb begin
    row_busy = '0;
    for (int i = 0; i < T; i++) begin
      for (int s = 0; s < T; s++) begin
        if ((s < i) && stg_valid_q[s] && (stg_bank_q[s] == load_bank_q)) row_busy[i] = 1'b1;
      end
    end
  end

  always_comb begin
    load_blocked = 1'b0;
    w_we = '0;
    for (int i = 0; i < T; i++) begin
      if (load_idx_q == IdxW'(i + 1)) begin
        load_blocked = row_busy[i];
        w_we[i] = wcol_hs;
      end
    end
  end

  assign @WCOL@_ready_o = !full_q[load_bank_q] && !load_blocked;
  assign wcol_hs = @WCOL@_valid_i && @WCOL@_ready_o;

  assign hdr_rows     = @WCOL@_data_i[CntW-1:0];
  assign act_rows     = rows_q[act_bank_q*CntW +: CntW];
  assign streaming    = full_q[act_bank_q] && (act_rows != '0);
  assign empty_mm     = full_q[act_bank_q] && (act_rows == '0);
  assign last_row     = (act_rows == CntW'(1));
  assign adv          = !stg_valid_q[T-1] || @CW@_ready_i;
  assign @ACOL@_ready_o = adv && streaming;
  assign acol_hs      = @ACOL@_valid_i && @ACOL@_ready_o;

  always_comb begin
    full_d      = full_q;
    rows_d      = rows_q;
    load_bank_d = load_bank_q;
    load_idx_d  = load_idx_q;
    act_bank_d  = act_bank_q;
    // The loader: the header word sets the bank's row count, the last weight
    // row makes the bank full and moves on to the other bank.
    if (wcol_hs) begin
      if (load_idx_q == '0) rows_d[load_bank_q*CntW +: CntW] = hdr_rows;
      if (load_idx_q == IdxW'(T)) begin
        load_idx_d          = '0;
        full_d[load_bank_q] = 1'b1;
        load_bank_d         = !load_bank_q;
      end else begin
        load_idx_d = load_idx_q + IdxW'(1);
      end
    end
    // The stream: the mm's last row (or an mm without rows) frees the bank.
    if (acol_hs) begin
      rows_d[act_bank_q*CntW +: CntW] = act_rows - CntW'(1);
      if (last_row) begin
        full_d[act_bank_q] = 1'b0;
        act_bank_d         = !act_bank_q;
      end
    end else if (empty_mm) begin
      full_d[act_bank_q] = 1'b0;
      act_bank_d         = !act_bank_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q      <= '0;
      rows_q      <= '0;
      load_bank_q <= 1'b0;
      load_idx_q  <= '0;
      act_bank_q  <= 1'b0;
    end else begin
      full_q      <= full_d;
      rows_q      <= rows_d;
      load_bank_q <= load_bank_d;
      load_idx_q  <= load_idx_d;
      act_bank_q  <= act_bank_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stg_valid_q <= '0;
      stg_bank_q  <= '0;
      stg_last_q  <= '0;
    end else if (adv) begin
      stg_valid_q <= {stg_valid_q[T-2:0], acol_hs};
      stg_bank_q  <= {stg_bank_q[T-2:0], act_bank_q};
      stg_last_q  <= {stg_last_q[T-2:0], acol_hs && last_row};
    end
  end

  // ---------------------------------------------------------------------------
  // The PE rows. Row i multiplies lane i of the row that entered i cycles
  // ago, with that row's bank.
  // ---------------------------------------------------------------------------
  for (genvar i = 0; i < T; i++) begin : gen_row
    localparam int InW  = (ProdW + $clog2(i) < AccW) ? ProdW + $clog2(i) : AccW;
    localparam int OutW = (ProdW + $clog2(i + 1) < AccW) ? ProdW + $clog2(i + 1) : AccW;

    logic [OpW-1:0]    act;      // activation lane i
    logic              bank;     // the bank its row reads
    logic [T*InW-1:0]  psum_in;  // column sums from PE row i - 1
    logic [T*OutW-1:0] psum;     // column sums after PE row i

    if (i == 0) begin : gen_first
      assign act     = @ACOL@_data_i[0 +: OpW];
      assign bank    = act_bank_q;
      assign psum_in = '0;
    end else begin : gen_skew
      logic [i*OpW-1:0] skew_q;  // lane i of the last i rows, newest at the bottom
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          skew_q <= '0;
        end else if (adv) begin
          skew_q[0 +: OpW] <= @ACOL@_data_i[i*OpW +: OpW];
          for (int d = 1; d < i; d++) skew_q[d*OpW +: OpW] <= skew_q[(d-1)*OpW +: OpW];
        end
      end
      assign act     = skew_q[(i-1)*OpW +: OpW];
      assign bank    = stg_bank_q[i-1];
      assign psum_in = gen_row[i-1].psum;
    end

    for (genvar j = 0; j < T; j++) begin : gen_col
      tpu_pe #(
        .PsumInW (InW),
        .PsumOutW(OutW)
      ) u_pe (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .en_i    (adv),
        .w_we_i  (w_we[i]),
        .w_bank_i(load_bank_q),
        .w_data_i(@WCOL@_data_i[j*OpW +: OpW]),
        .bank_i  (bank),
        .act_i   (act),
        .psum_i  (psum_in[j*InW +: InW]),
        .psum_o  (psum[j*OutW +: OutW])
      );
    end
  end

  // ---------------------------------------------------------------------------
  // Results and counters.
  // ---------------------------------------------------------------------------
  assign @CW@_valid_o = stg_valid_q[T-1];
  for (genvar j = 0; j < T; j++) begin : gen_out
    assign @CW@_data_o[j*AccW +: AccW] = AccW'($signed(gen_row[T-1].psum[j*LastW +: LastW]));
  end
  assign cw_hs = @CW@_valid_o && @CW@_ready_i;

@COUNTER_LOGIC@  assign idle_o = (full_q == 2'b00) && (load_idx_q == '0) && (stg_valid_q == '0);

endmodule
