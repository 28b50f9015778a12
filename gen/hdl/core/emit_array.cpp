// tpu_array and tpu_pe: the T x T weight-stationary array.
//
// The array has no dispatch queue: an mm reaches it as the header word on
// wcol. What the emitter reads from the spec, and refuses when it differs
// from what the RTL below implements:
//   * exactly one opcode reaches the array, with the actions receive wcol
//     (header_items + T items), receive acol (nr), compute matmul (nr), emit
//     cw (nr) and emit instructions (1), none conditional;
//   * the channel widths: wcol and acol operand rows, cw accumulator rows;
//   * the array's progress counters (header entries counting its ports):
//     a port with one item per mm counts completed mms, a port with nr items
//     counts result rows.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/derive.h"
#include "hdl/injected_bugs.h"
#include "hdl/emitters.h"
#include "hdl/sv_template.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

constexpr const char* kUnit = "array";

[[noreturn]] void unsupported(const std::string& what) {
  throw Error("rtl.unsupported", fmt::format("tpu_array: {}", what));
}


/// How one of the array's items counts: once per mm or once per row.
enum class Per { Mm, Row };

/// An item count as a function of nr (T fixed): 1 (once per mm), nr (once
/// per row), or something the array does not implement.
std::optional<Per> per_of(const RtlContext& ctx, const Action& a, const Opcode& op) {
  auto at = [&](std::int64_t nr) {
    return action_items(ctx.isa(), a, op, [&] {
      std::vector<std::int64_t> f(ctx.spec().word0.size(), 0);
      f[ctx.isa().nr_index()] = nr;
      return f;
    }());
  };
  if (at(1) == 1 && at(2) == 1 && at(5) == 1) return Per::Mm;
  if (at(1) == 1 && at(2) == 2 && at(5) == 5) return Per::Row;
  return std::nullopt;
}

struct ArrayPlan {
  const Opcode* op = nullptr;
  std::string wcol, acol, cw;  ///< channel (port) names
  struct Counter {
    std::string progress;  ///< PROGRESS_* constant name
    std::string name;      ///< the header entry's name
    std::string port;
    Per per = Per::Row;
  };
  std::vector<Counter> counters;  ///< in PROGRESS_* order
};

/// Read the array's actions and check them against what the RTL implements.
ArrayPlan plan_array(const RtlContext& ctx) {
  ArrayPlan plan;
  const auto uses = ctx.uses(kUnit, "instr");
  if (uses.size() != 1)
    unsupported(
        fmt::format("{} opcodes reach the array; its only instruction is the wcol header word, which "
                    "carries no opcode, so exactly one can",
                    uses.size()));
  const UnitUse& use = uses.front();
  plan.op = use.opcode;
  const std::int64_t t = ctx.param("T");
  for (const Action* a : use.actions) {
    if (a->only_if)
      unsupported(fmt::format("{}: the {} action on {} is conditional", use.opcode->name, to_string(a->kind), a->port));
    const auto per = per_of(ctx, *a, *use.opcode);
    switch (a->kind) {
      case ActionKind::Receive: {
        const Channel& c = ctx.channel(a->port);
        if (c.header_items > 0) {
          if (!plan.wcol.empty()) unsupported("more than one channel carries a header word");
          if (c.header_items != 1)
            unsupported(fmt::format("{} carries {} header items; the array takes one", c.port, c.header_items));
          std::vector<std::int64_t> f(ctx.spec().word0.size(), 0);
          if (action_items(ctx.isa(), *a, *use.opcode, f) != t + c.header_items)
            unsupported(fmt::format("{} carries '{}' items per mm; the array takes the header word and T weight rows",
                                    c.port, a->items.text()));
          plan.wcol = c.port;
        } else {
          if (!plan.acol.empty() || per != Per::Row)
            unsupported(fmt::format("receive on {} is not one row per activation row", c.port));
          plan.acol = c.port;
        }
        if (c.width != ctx.param("VW")) unsupported(fmt::format("{} is not an operand row", c.port));
        break;
      }
      case ActionKind::Emit: {
        if (per == Per::Mm) break;  // the instructions port: one item per mm, a counter only
        if (!plan.cw.empty() || per != Per::Row)
          unsupported(fmt::format("emit on {} is not one row per activation row", a->port));
        if (ctx.channel(a->port).width != ctx.param("AW"))
          unsupported(fmt::format("{} is not an accumulator row", a->port));
        plan.cw = a->port;
        break;
      }
      case ActionKind::Compute:
        if (a->state != "matmul" || per != Per::Row)
          unsupported(
              fmt::format("compute '{}' ('{}' items): the array computes the weight-stationary matmul, one row per "
                          "activation row",
                          a->state, a->items.text()));
        break;
      default:
        unsupported(
            fmt::format("{}: a {} of {} (the array owns no memory)", use.opcode->name, to_string(a->kind), a->state));
    }
  }
  if (plan.wcol.empty() || plan.acol.empty() || plan.cw.empty())
    unsupported("the array needs a weight channel with a header word, an activation channel and a result channel");

  for (const auto& h : ctx.spec().header) {
    if (h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) continue;
    if (h.count.unit != kUnit) continue;
    if (h.count.kind == HeaderCount::UnitSteps)
      unsupported(fmt::format("header entry {} counts the array's steps", h.name));
    std::optional<Per> per;
    for (const Action* a : use.actions)
      if (a->port == h.count.port) per = per_of(ctx, *a, *use.opcode);
    if (!per)
      unsupported(fmt::format("header entry {} counts port {}, which is neither once per mm nor once per row", h.name,
                              h.count.port));
    plan.counters.push_back({"PROGRESS_" + upper(h.name), h.name, h.count.port, *per});
  }
  return plan;
}

const char* kPeBody = R"(//
// One processing element of the weight-stationary array: a signed
// OPERAND_BITS x OPERAND_BITS multiply, exact in PRODUCT_BITS, added to the
// partial sum arriving from the PE above:
//   psum_o <= psum_i + act_i * w[bank_i]     (registered while en_i)
// The sum wraps at PsumOutW bits; tpu_array sizes PsumOutW so that it never
// does before ACC_BITS. Two weight registers (banks) let the array load the
// next mm's weight while the current mm still multiplies with the other.
//
// Parameters (set by tpu_array):
//   PsumInW   bits of psum_i
//   PsumOutW  bits of psum_o (>= PsumInW, >= PRODUCT_BITS)
module tpu_pe #(
  parameter int PsumInW  = @PROD@,
  parameter int PsumOutW = @PROD@
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             en_i,      // the array advances: register the sum
  // weight load
  input  logic                             w_we_i,    // write w_data_i into bank w_bank_i
  input  logic                             w_bank_i,
  input  logic [tpu_pkg::OPERAND_BITS-1:0] w_data_i,
  // activation and partial sums
  input  logic                             bank_i,    // the bank act_i's row multiplies with
  input  logic [tpu_pkg::OPERAND_BITS-1:0] act_i,
  input  logic [PsumInW-1:0]               psum_i,    // from the PE above (two's complement)
  output logic [PsumOutW-1:0]              psum_o     // to the PE below (two's complement)
);

  localparam int OpW   = tpu_pkg::OPERAND_BITS;
  localparam int ProdW = tpu_pkg::PRODUCT_BITS;

  logic [OpW-1:0]          w0_q, w1_q, w_sel;
  logic signed [ProdW-1:0] act_x, w_x, prod;
  logic [PsumOutW-1:0]     sum, psum_q;

  assign w_sel = bank_i ? w1_q : w0_q;
  assign act_x = ProdW'($signed(act_i));
  assign w_x   = ProdW'($signed(w_sel));
  assign prod  = act_x * w_x;  // exact: an operand product fits PRODUCT_BITS
  assign sum   = PsumOutW'($signed(psum_i)) + PsumOutW'(prod);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q   <= '0;
      w1_q   <= '0;
      psum_q <= '0;
    end else begin
      if (w_we_i && !w_bank_i) w0_q <= w_data_i;
      if (w_we_i && w_bank_i) w1_q <= w_data_i;
      if (en_i) psum_q <= sum;
    end
  end

  assign psum_o = psum_q;

endmodule
)";

const char* kArrayHead = R"(//
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
)";

std::string counter_comment(const ArrayPlan::Counter& c) {
  return fmt::format("//   {}: +1 {}\n", c.progress,
                     c.per == Per::Mm
                         ? "per mm, when its last result row leaves\n//     (or when an mm with rows == 0 retires)"
                         : "per result row that leaves");
}

std::string counter_logic(const ArrayPlan& plan) {
  std::string o;
  for (std::size_t k = 0; k < plan.counters.size(); ++k) {
    const auto& c = plan.counters[k];
    const std::string q = c.name + "_q";
    const std::string inc = c.per == Per::Mm ? "CntW'(cw_hs && stg_last_q[T-1]) + CntW'(empty_mm)" : "CntW'(cw_hs)";
    o += fmt::format(
        "  // tpu_pkg::{0}: items on the array's {1} port.\n"
        "  logic [CntW-1:0] {2};\n"
        "  always_ff @(posedge clk_i or negedge rst_ni) begin\n"
        "    if (!rst_ni) {2} <= '0;\n"
        "    else if (clear_i) {2} <= '0;\n"
        "    else {2} <= {2} + {3};\n"
        "  end\n"
        "  assign progress_o[{4}*CntW +: CntW] = {2};\n\n",
        c.progress, c.port, q, inc, k);
  }
  return o;
}

}  // namespace

std::string emit_tpu_pe(const RtlContext& ctx) {
  plan_array(ctx);
  std::string o = ctx.file_header("tpu_pe", "one processing element of the weight-stationary array");
  o += fill(kPeBody, {{"PROD", std::to_string(ctx.spec().numerics.product_bits)}});
  if (ctx.injected("pe_product_width"))
    inject_defect(o, "pe_product_width", "assign prod  = act_x * w_x;  // exact: an operand product fits PRODUCT_BITS",
                  "assign prod  = ProdW'($signed((ProdW-1)'(act_x * w_x)));  // INJECTED DEFECT: one bit short");
  return o;
}

std::string emit_tpu_array(const RtlContext& ctx) {
  const ArrayPlan plan = plan_array(ctx);
  if (plan.counters.empty()) unsupported("no header entry counts the array's work");
  std::string counters;
  for (const auto& c : plan.counters) counters += counter_comment(c);
  std::string o = ctx.file_header("tpu_array", "the T x T weight-stationary array");
  o += fill(kArrayHead, {{"OP", plan.op->name},
                         {"WCOL", plan.wcol},
                         {"ACOL", plan.acol},
                         {"CW", plan.cw},
                         {"T", std::to_string(ctx.param("T"))},
                         {"NCOUNT", std::to_string(plan.counters.size())},
                         {"COUNTERS", counters},
                         {"COUNTER_LOGIC", counter_logic(plan)}});
  return o;
}

}  // namespace tpugen::hdl
