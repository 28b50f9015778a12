// tpu_accu: the accumulator registers and their ALU.
//
// Every opcode that reaches accu is classified by its actions, not by its
// name, into one micro-operation shape the datapath implements:
//   a row of `spr` steps (1 or 2: the busiest port's items per row over its
//   rate; a rate-1 read port with two reads takes two steps), reads on the
//   owned memory in step order (a two-step row holds its first read), at most
//   one receive (on the row's only step), the computes add / acc_add (sum of
//   the operands), max0 (lane-wise relu) and to_operand (saturate; only on
//   the way out), and exactly one destination: a write of the memory or an
//   emit on an operand channel. Anything else is refused (rtl.unsupported).
// The ports of rate 1 are exclusive; the decode records which ones each
// instruction uses (with its only_if conditions), and the two issue slots
// pair instructions whose exclusive ports are disjoint.
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

constexpr const char* kUnit = "accu";
constexpr const char* kInstr = "instr";

[[noreturn]] void unsupported(const std::string& what) {
  throw Error("rtl.unsupported", fmt::format("tpu_accu: {}", what));
}


/// "ar.read" -> "PortArRead".
std::string port_const(std::string_view port) { return "Port" + camel(port); }

/// One opcode's micro-operation, read off its accu actions.
struct AccuOp {
  const Opcode* op = nullptr;
  int spr = 1;  ///< steps per row
  bool receive = false;
  struct Read {
    std::string base;
    std::string cond_sv;  ///< "1'b1" or the rendered only_if
  };
  std::vector<Read> reads;  ///< read k on step k
  std::string write_base;   ///< empty: no write
  bool emit = false;
  bool relu = false;
  std::vector<std::string> summary;       ///< for the comment
  std::vector<std::string> port_cond_sv;  ///< per exclusive port: when the opcode uses it ("" = never)
  std::vector<std::string> port_cond;     ///< the same in spec text ("" = never, "*" = always)
};

struct AccuPlan {
  std::string mem;                    ///< the owned memory (ar)
  std::string read_port, write_port;  ///< its ports
  std::string in_ch, out_ch;          ///< the received and emitted channels
  std::vector<std::string> excl;      ///< exclusive (rate-1) ports, spec order
  std::vector<AccuOp> ops;
  std::string progress;  ///< PROGRESS_* of the unit's step counter
};

bool per_row(const RtlContext& ctx, const Action& a, const Opcode& op) {
  for (std::int64_t nr : {1, 2, 7}) {
    std::vector<std::int64_t> f(ctx.spec().word0.size(), 0);
    f[ctx.isa().nr_index()] = nr;
    if (action_items(ctx.isa(), a, op, f) != nr) return false;
  }
  return true;
}

/// The unit's owned memory: exactly one, in the accumulator format, NAR rows.
void plan_memory(const RtlContext& ctx, AccuPlan& plan) {
  for (const auto& m : ctx.spec().memories) {
    if (m.owner != kUnit) continue;
    if (!plan.mem.empty()) unsupported("accu owns more than one memory");
    if (m.format != "accumulator") unsupported(fmt::format("{} is not in the accumulator format", m.name));
    const Scope params = ctx.isa().params().scope();
    if (m.depth.eval(params) != ctx.param("NAR") || m.row_bits.eval(params) != ctx.param("AW"))
      unsupported(fmt::format("{} is not NAR rows of AW bits", m.name));
    plan.mem = m.name;
  }
  if (plan.mem.empty()) unsupported("accu owns no memory");
}

/// Classify one opcode's actions on accu.
AccuOp plan_op(const RtlContext& ctx, const AccuPlan& plan, const UnitUse& use) {
  const Unit& unit = *ctx.spec().unit(kUnit);
  AccuOp o;
  o.op = use.opcode;
  const std::string& name = use.opcode->name;
  auto fail = [&](const std::string& why) { unsupported(fmt::format("{}: {}", name, why)); };

  // Steps per row: the busiest port, items over rate.
  std::vector<std::pair<std::string, int>> per_port;
  for (const Action* a : use.actions) {
    if (!per_row(ctx, *a, *use.opcode))
      fail(fmt::format("{} on {} moves '{}' items, not one per row", to_string(a->kind), a->port, a->items.text()));
    auto it = std::find_if(per_port.begin(), per_port.end(), [&](const auto& p) { return p.first == a->port; });
    if (it == per_port.end())
      per_port.emplace_back(a->port, 1);
    else
      ++it->second;
  }
  for (const auto& [port, n] : per_port) {
    const Port* p = unit.port(port);
    if (!p) fail(fmt::format("port {} is not accu's", port));
    o.spr = std::max(o.spr, static_cast<int>((n + p->rate - 1) / p->rate));
  }
  if (o.spr > 2) fail(fmt::format("{} steps per row", o.spr));
  for (const auto& e : cost_table(ctx.isa()))
    if (e.opcode == name && e.unit == kUnit && (!e.form || !(*e.form == LinearForm{0, o.spr, 0})))
      fail(fmt::format("its accu cost is '{}', not {} step(s) per row", e.form ? e.form->text() : "not linear", o.spr));

  std::vector<std::string> computes;
  for (const Action* a : use.actions) {
    const std::string cond = a->only_if ? ctx.sv_of(*a->only_if, *use.opcode, kInstr) : "1'b1";
    switch (a->kind) {
      case ActionKind::Receive:
        if (a->port != plan.in_ch || a->only_if)
          fail(fmt::format("a receive on {} the datapath does not take", a->port));
        if (o.receive) fail("two receives");
        o.receive = true;
        o.summary.push_back(a->port);
        break;
      case ActionKind::Read:
        if (a->state != plan.mem || a->port != plan.read_port)
          fail(fmt::format("a read of {} on {}", a->state, a->port));
        if (o.spr == 2 && a->only_if) fail("a conditional read in a two-step row");
        o.reads.push_back({a->base, cond});
        o.summary.push_back(
            fmt::format("{}[{}]{}", a->state, a->base, a->only_if ? fmt::format(" if {}", a->only_if->text()) : ""));
        break;
      case ActionKind::Write:
        if (a->state != plan.mem || a->port != plan.write_port || a->only_if)
          fail(fmt::format("a write of {} on {}", a->state, a->port));
        if (!o.write_base.empty()) fail("two writes");
        o.write_base = a->base;
        break;
      case ActionKind::Emit:
        if (a->port != plan.out_ch || a->only_if)
          fail(fmt::format("an emit on {} the datapath does not drive", a->port));
        if (o.emit) fail("two emits");
        o.emit = true;
        break;
      case ActionKind::Compute:
        computes.push_back(a->state);
        o.summary.push_back(a->state);
        break;
    }
  }
  if (o.write_base.empty() == !o.emit) fail("needs exactly one destination: a write of the memory or an emit");
  o.summary.push_back(o.emit ? plan.out_ch : fmt::format("{}[{}]", plan.mem, o.write_base));

  // Reads: one per step; a two-step row holds its first read.
  if (o.reads.size() > static_cast<std::size_t>(o.spr)) fail("more reads than steps");
  if (o.spr == 2 && (o.reads.size() != 2 || o.receive))
    fail("a two-step row must read on both steps and receive nothing");
  const int operands = (o.receive ? 1 : 0) + static_cast<int>(o.reads.size());
  if (operands == 0 || operands > 2) fail(fmt::format("{} operands per row", operands));

  // Computes, in the order the datapath applies them.
  const std::vector<std::string> order = {"acc_add", "add", "max0", "to_operand"};
  int last = -1;
  bool add = false, sat = false;
  for (const auto& c : computes) {
    const auto it = std::find(order.begin(), order.end(), c);
    if (it == order.end()) fail(fmt::format("compute '{}'", c));
    const int at = static_cast<int>(it - order.begin());
    if (at < last) fail(fmt::format("compute '{}' after a later stage", c));
    last = at;
    add |= at <= 1;
    o.relu |= c == "max0";
    sat |= c == "to_operand";
  }
  if (operands == 2 && !add) fail("two operands and no add");
  if (sat != o.emit) fail("to_operand must be exactly the emitted rows' conversion");

  // Exclusive ports and when they are used.
  for (const auto& port : plan.excl) {
    std::vector<std::string> conds;
    bool always = false;
    for (const Action* a : use.actions) {
      if (a->port != port) continue;
      if (!a->only_if)
        always = true;
      else
        conds.push_back(ctx.sv_of(*a->only_if, *use.opcode, kInstr));
    }
    std::vector<std::string> texts;
    for (const Action* a : use.actions)
      if (a->port == port && a->only_if) texts.push_back(a->only_if->text());
    std::string c, t;
    if (always)
      c = "1'b1", t = "*";
    else if (!conds.empty())
      c = fmt::format("{}", fmt::join(conds, " || ")), t = fmt::format("{}", fmt::join(texts, " or "));
    o.port_cond_sv.push_back(c);
    o.port_cond.push_back(t);
  }
  return o;
}

AccuPlan plan_accu(const RtlContext& ctx) {
  AccuPlan plan;
  plan_memory(ctx, plan);
  const Unit* unit = ctx.spec().unit(kUnit);
  if (!unit) unsupported("no unit accu");
  for (const auto& c : ctx.channels()) {
    if (c.to == kUnit) {
      if (!plan.in_ch.empty()) unsupported("more than one channel into accu");
      if (c.width != ctx.param("AW")) unsupported(fmt::format("{} does not carry accumulator rows", c.port));
      plan.in_ch = c.port;
    }
    if (c.from == kUnit) {
      if (!plan.out_ch.empty()) unsupported("more than one channel out of accu");
      if (c.width != ctx.param("VW")) unsupported(fmt::format("{} does not carry operand rows", c.port));
      plan.out_ch = c.port;
    }
  }
  for (const auto& a : ctx.spec().actions) {
    if (a.unit != kUnit || a.state != plan.mem) continue;
    std::string& p = a.kind == ActionKind::Read ? plan.read_port : plan.write_port;
    if (a.kind != ActionKind::Read && a.kind != ActionKind::Write) continue;
    if (!p.empty() && p != a.port)
      unsupported(fmt::format("{} is accessed through more than one {} port", plan.mem, to_string(a.kind)));
    p = a.port;
  }
  for (const auto& p : unit->ports) {
    if (p.rate != 1 &&
        (p.name == plan.read_port || p.name == plan.write_port || p.name == plan.in_ch || p.name == plan.out_ch))
      unsupported(fmt::format("port {} has rate {}; the datapath moves one item per cycle on it", p.name, p.rate));
    if (p.rate < 2) plan.excl.push_back(p.name);
  }
  for (const auto& use : ctx.uses(kUnit, kInstr)) plan.ops.push_back(plan_op(ctx, plan, use));

  for (const auto& h : ctx.spec().header) {
    if ((h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) || h.count.unit != kUnit)
      continue;
    if (h.count.kind != HeaderCount::UnitSteps || !plan.progress.empty())
      unsupported(fmt::format("header entry {}: accu keeps one counter, of its steps", h.name));
    plan.progress = "PROGRESS_" + upper(h.name);
  }
  if (plan.progress.empty()) unsupported("no header entry counts accu's steps");
  return plan;
}

std::string addr_of(const RtlContext& ctx, const Opcode& op, const std::string& operand) {
  return fmt::format("AddrW'({})", ctx.operand_sv(op, operand, kInstr));
}

/// The decode's case items, one per opcode.
std::string decode_items(const RtlContext& ctx, const AccuPlan& plan) {
  std::string o;
  for (const auto& u : plan.ops) {
    const Opcode& op = *u.op;
    o += fmt::format("      {}: begin  // {}: {}\n", ctx.op_const(op.name), op.name, fmt::join(u.summary, ", "));
    std::vector<std::pair<std::string, std::string>> sets;
    if (u.spr == 2) sets.emplace_back("two_step", "1'b1");
    if (u.receive) sets.emplace_back("cw", "1'b1");
    for (std::size_t r = 0; r < u.reads.size(); ++r) {
      sets.emplace_back(fmt::format("rd{}", r), u.reads[r].cond_sv);
      sets.emplace_back(fmt::format("rd{}_base", r), addr_of(ctx, op, u.reads[r].base));
    }
    if (!u.write_base.empty()) {
      sets.emplace_back("wr", "1'b1");
      sets.emplace_back("wr_base", addr_of(ctx, op, u.write_base));
    }
    if (u.emit) sets.emplace_back("em", "1'b1");
    if (u.relu) sets.emplace_back("relu", "1'b1");
    for (std::size_t p = 0; p < plan.excl.size(); ++p)
      if (!u.port_cond_sv[p].empty())
        sets.emplace_back(fmt::format("ports[{}]", port_const(plan.excl[p])), u.port_cond_sv[p]);
    std::size_t w = 0;
    for (const auto& s : sets) w = std::max(w, s.first.size());
    for (const auto& [k, v] : sets) o += fmt::format("        dec.{:<{}} = {};\n", k, w, v);
    o += "      end\n";
  }
  return o;
}

/// Operand fields no accu opcode reads.
std::string unused_fields(const RtlContext& ctx, const AccuPlan& plan) {
  std::vector<std::string> used;
  for (const auto& u : plan.ops) {
    for (const Action* a : ctx.spec().actions_of(u.op->name)) {
      if (a->unit != kUnit) continue;
      if (!a->base.empty()) used.push_back(u.op->operand(a->base)->field);
      if (a->only_if)
        for (const auto& n : a->only_if->names())
          if (const Operand* x = u.op->operand(n)) used.push_back(x->field);
    }
  }
  std::vector<std::string> out;
  for (const auto& f : ctx.spec().word0)
    if (f.agu_target && std::find(used.begin(), used.end(), f.name) == used.end())
      out.push_back(fmt::format("{}.{}", kInstr, f.name));
  return out.empty() ? "1'b0" : fmt::format("{}", fmt::join(out, ", "));
}

/// The instruction pairs the two slots admit, from the exclusive ports each
/// opcode uses: one comment line per ordered pair that can share the unit.
std::string pairs_comment(const AccuPlan& plan) {
  std::string o;
  for (const auto& x : plan.ops) {
    for (const auto& y : plan.ops) {
      bool ok = true;
      std::vector<std::string> xc, yc, both;
      for (std::size_t p = 0; p < plan.excl.size() && ok; ++p) {
        const std::string &cx = x.port_cond[p], &cy = y.port_cond[p];
        if (cx.empty() || cy.empty()) continue;
        if (cx == "*" && cy == "*")
          ok = false;
        else if (cx == "*")
          yc.push_back(cy);
        else if (cy == "*")
          xc.push_back(cx);
        else
          both.push_back(fmt::format("not ({}) in {} or not ({}) in {}", cx, x.op->name, cy, y.op->name));
      }
      if (!ok) continue;
      auto side = [](const AccuOp& u, const std::vector<std::string>& c) {
        return c.empty() ? u.op->name : fmt::format("{} with not ({})", u.op->name, fmt::join(c, " or "));
      };
      o += fmt::format("//   {}, then {}{}\n", side(x, xc), side(y, yc),
                       both.empty() ? "" : fmt::format(", when {}", fmt::join(both, "; ")));
    }
  }
  return o.empty() ? "//   none: every two opcodes share an exclusive port\n" : o;
}

const char* kAccu = R"(//
// The accumulator unit (spec unit `accu`): it owns @MEM@ (NAR rows of T
// ACC_BITS lanes) and runs its dispatched instructions in program order,
// `steps` steps each, counting every step on progress_o. Each opcode is
// decoded from its actions into one micro-operation (the case below):
@OPS@//
// Sums wrap at ACC_BITS; max0 is lane-wise max(x, 0); to_operand saturates
// each lane to [OPERAND_MIN, OPERAND_MAX] (no rounding) on the way to @OUT@.
// A two-step row (two reads on the one read port) holds its first read and
// adds the second on its second step, which also writes.
//
// Pipeline: an instruction is decoded into nx_q, then issues from one of two
// slots, one step per slot per cycle.
//   issue (cycle c):  the @MEM@ read is requested, a @IN@ row is taken
//   ALU   (cycle c+1): read data (a 1-cycle RAM), add, max0; the @MEM@ write
//                      lands at the end of the cycle, an emitted row is
//                      saturated into a OutDepth-deep output FIFO (on @OUT@
//                      from cycle c+2)
// So a step reads in its issue cycle and writes one cycle later. A read
// never issues while the ALU stage writes the same row (a one-cycle
// interlock), so a read sees every write of an earlier step, at any
// distance: the AR_RAW_DIST contract costs nothing and a program that breaks
// it still reads the value written last. Emitting steps issue only with a
// credit in the output FIFO (its usage plus the emit in the ALU stage), so
// nothing after issue ever stalls.
//
// Two issue slots. Slot a holds the oldest unfinished instruction; slot b
// may hold the next one while a is still issuing. An instruction enters b
// only if the exclusive ports it uses and the ones a uses are disjoint
// (exclusive: the rate-1 ports @EXCL@; @ALU_NOTE@);
// it enters a when a frees (b moves up first). The pairs this decode admits
// (older in a, younger in b):
@PAIRS@// Row order between the slots:
//   * b never writes a row that a has still to read (a's rows from its
//     current row on count as unread): b lags a by at least a row, so a
//     reads the old value (write-after-read);
//   * b never reads a row that a has still to write (read-after-write),
//     and the interlock above adds the cycle until the write lands.
// Both slots issue in the same cycle when they can, so two paired
// instructions of M rows each take about M + 1 cycles (write-after-read) or
// M + 2 (read-after-write), not 2M.
//
// Parameters:
//   T    lanes of a row
//   NAR  rows of @MEM@
module tpu_accu #(
  parameter int T   = @T@,
  parameter int NAR = @NAR@
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic                               clear_i,  // a run starts: clear progress_o
  // dispatched instructions: tpu_pkg::instr_t as INSTR_W bits
  input  logic                               instr_valid_i,
  output logic                               instr_ready_o,
  input  logic [tpu_pkg::INSTR_W-1:0]        instr_i,
  // @IN@: rows from the array
  input  logic                               @IN@_valid_i,
  output logic                               @IN@_ready_o,
  input  logic [T*tpu_pkg::ACC_BITS-1:0]     @IN@_data_i,
  // @OUT@: saturated rows
  output logic                               @OUT@_valid_o,
  input  logic                               @OUT@_ready_i,
  output logic [T*tpu_pkg::OPERAND_BITS-1:0] @OUT@_data_o,
  // status
  output logic [tpu_pkg::COUNT_W-1:0]        progress_o,  // tpu_pkg::@PROGRESS@
  output logic                               idle_o
);

  localparam int OpW      = tpu_pkg::OPERAND_BITS;
  localparam int AccW     = tpu_pkg::ACC_BITS;
  localparam int RowW     = T * AccW;
  localparam int CntW     = tpu_pkg::COUNT_W;
  localparam int NrW      = tpu_pkg::FLD_NR_W;
  localparam int AddrW    = (NAR > 1) ? $clog2(NAR) : 1;
  localparam int OffW     = (AddrW > NrW) ? AddrW : NrW;
  // The output FIFO: one row leaving, one in the ALU stage, one issuing,
  // so emitting steps keep one per cycle against a registered credit count.
  localparam int OutDepth = 3;
  localparam int UseW     = $clog2(OutDepth + 1);
  // Exclusive ports: bit positions in uop_t.ports.
  localparam int NPorts   = @NPORTS@;
@PORT_CONSTS@
  // tpu_pkg::instr_t, as a local type (Icarus 11 cannot elaborate a package
  // struct type in a module).
  typedef struct packed {
@INSTR_MEMBERS@  } instr_t;

  // One instruction, decoded.
  typedef struct packed {
    logic [NrW-1:0]    rows;      // nr: the rows it works on
    logic [NPorts-1:0] ports;     // exclusive ports it uses
    logic              two_step;  // two steps per row, the first read held
    logic              cw;        // adds the @IN@ row (one-step rows)
    logic              rd0;       // reads @MEM@[rd0_base + row] on the row's first step
    logic [AddrW-1:0]  rd0_base;
    logic              rd1;       // reads @MEM@[rd1_base + row] on the row's second step
    logic [AddrW-1:0]  rd1_base;
    logic              wr;        // writes @MEM@[wr_base + row] on the row's last step
    logic [AddrW-1:0]  wr_base;
    logic              em;        // emits the saturated row on the row's last step
    logic              relu;      // max(x, 0) before the write or emit
  } uop_t;

  // An issue slot.
  typedef struct packed {
    logic            valid;
    logic            phase;  // two-step rows: the second step is next
    logic [NrW-1:0]  row;    // the row the next step works on
    logic [CntW-1:0] steps;  // steps left
    uop_t            u;
  } slot_t;

  // A step in the ALU stage.
  typedef struct packed {
    logic             valid;
    logic             hold;  // keep the read row for the row's second step
    logic             rd;    // add the read row
    logic             cw;    // add the @IN@ row
    logic             held;  // add the held row
    logic             wr;
    logic [AddrW-1:0] waddr;
    logic             em;
    logic             relu;
  } ex_t;

  // `off`, a row's offset from one of a's bases, is a row a has still to
  // reach: a's next row is `row` of `rows`.
  function automatic logic ahead(input logic [AddrW-1:0] off, input logic [NrW-1:0] row,
                                 input logic [NrW-1:0] rows);
    ahead = (OffW'(off) >= OffW'(row)) && (OffW'(off) < OffW'(rows));
  endfunction

  // ---------------------------------------------------------------------------
  // Decode.
  // ---------------------------------------------------------------------------
  instr_t instr;
  uop_t   dec;
  logic   unused_instr;

  assign instr = instr_i;
  assign unused_instr = ^{@UNUSED@};

  always_comb begin
    dec      = '0;
    dec.rows = instr.nr;
    unique case (instr.op)
@DECODE@      default: begin
        // Not an accu opcode: its steps pass with no effect.
      end
    endcase
  end

  logic            nx_valid_q, nx_valid_d;
  logic [CntW-1:0] nx_steps_q, nx_steps_d;
  uop_t            nx_q, nx_d;
  slot_t a_q, a_d, b_q, b_d;
  ex_t   ex0_q, ex0_d, ex1_q, ex1_d;  // the ALU stage: steps of slots a and b
  logic  take;                        // nx_q moves into a slot

  assign instr_ready_o = !nx_valid_q || take;

  always_comb begin
    nx_valid_d = nx_valid_q && !take;
    nx_steps_d = nx_steps_q;
    nx_d       = nx_q;
    if (instr_valid_i && instr_ready_o) begin
      nx_valid_d = 1'b1;
      nx_steps_d = instr.steps;
      nx_d       = dec;
    end
  end

  // ---------------------------------------------------------------------------
  // Issue.
  // ---------------------------------------------------------------------------
  logic [UseW-1:0] out_usage;   // rows in the output FIFO
  logic            out_credit;  // an emitting step may issue
  logic            b_hazard;    // b's step would break row order against a
  logic            a_go, b_go;  // the slot issues its step

@SLOT_A@
@SLOT_B@
  assign out_credit = (32'(out_usage) + 32'(ex0_q.em || ex1_q.em)) < OutDepth;

  // b against a: read-after-write and write-after-read on the rows a has
  // still to work on.
  assign b_hazard = a_q.valid &&
                    ((a_q.u.wr && b_rd && ahead(b_raddr - a_q.u.wr_base, a_q.row, a_q.u.rows)) ||
                     (a_q.u.rd0 && b_wr && ahead(b_waddr - a_q.u.rd0_base, a_q.row, a_q.u.rows)) ||
                     (a_q.u.rd1 && b_wr && ahead(b_waddr - a_q.u.rd1_base, a_q.row, a_q.u.rows)));

  assign a_go = a_q.valid && (a_q.steps != '0) && (!a_cw || @IN@_valid_i) && (!a_em || out_credit) &&
                !a_rd_wait;
  assign b_go = b_q.valid && (b_q.steps != '0) && (!b_cw || @IN@_valid_i) && (!b_em || out_credit) &&
                !b_rd_wait && !b_hazard;

  assign @IN@_ready_o = (a_go && a_cw) || (b_go && b_cw);

  // Slots: a step moves to the next step; a finished slot frees, b moves up
  // into a free a, and nx_q enters a free slot (b only beside an a whose
  // exclusive ports are disjoint from its own).
  logic  move_up, take_a, take_b;
  slot_t a_keep, b_keep, fresh;
  assign move_up = !a_next.valid && b_next.valid;
  assign a_keep  = move_up ? b_next : a_next;
  assign b_keep  = move_up ? '0 : b_next;
  assign fresh   = {1'b1, 1'b0, NrW'(0), nx_steps_q, nx_q};
  assign take_a  = nx_valid_q && !a_keep.valid;
  assign take_b  = nx_valid_q && a_keep.valid && !b_keep.valid && ((a_keep.u.ports & nx_q.ports) == '0);
  assign take    = take_a || take_b;
  assign a_d     = take_a ? fresh : a_keep;
  assign b_d     = take_b ? fresh : b_keep;

  always_comb begin
@EX_A@@EX_B@  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nx_valid_q <= 1'b0;
      nx_steps_q <= '0;
      nx_q       <= '0;
      a_q        <= '0;
      b_q        <= '0;
      ex0_q      <= '0;
      ex1_q      <= '0;
    end else begin
      nx_valid_q <= nx_valid_d;
      nx_steps_q <= nx_steps_d;
      nx_q       <= nx_d;
      a_q        <= a_d;
      b_q        <= b_d;
      ex0_q      <= ex0_d;
      ex1_q      <= ex1_d;
    end
  end

  // ---------------------------------------------------------------------------
  // @MEM@ and the ALU stage.
  // ---------------------------------------------------------------------------
  logic             ram_we, ram_re;
  logic [AddrW-1:0] ram_waddr, ram_raddr;
  logic [RowW-1:0]  ram_wdata, ram_rdata;
  logic [RowW-1:0]  cw_q;    // the @IN@ row taken at issue
  logic [RowW-1:0]  held_q;  // a two-step row's first read
  logic [RowW-1:0]  x0, y0, v0, x1, y1, v1;  // ALU lanes 0 and 1: operands, result
  logic [T*OpW-1:0] out_row;
  logic             out_push, out_ready_unused;

  assign ram_re    = (a_go && a_rd) || (b_go && b_rd);
  assign ram_raddr = (a_go && a_rd) ? a_raddr : b_raddr;

  tpu_ram_1r1w #(
    .Width(RowW),
    .Depth(NAR)
  ) u_@MEM@ (
    .clk_i  (clk_i),
    .we_i   (ram_we),
    .waddr_i(ram_waddr),
    .wdata_i(ram_wdata),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cw_q   <= '0;
      held_q <= '0;
    end else begin
      if (@IN@_valid_i && @IN@_ready_o) cw_q <= @IN@_data_i;
      if (ex0_q.hold || ex1_q.hold) held_q <= ram_rdata;
    end
  end

  assign x0 = ex0_q.cw ? cw_q : (ex0_q.held ? held_q : '0);
  assign y0 = ex0_q.rd ? ram_rdata : '0;
  assign x1 = ex1_q.cw ? cw_q : (ex1_q.held ? held_q : '0);
  assign y1 = ex1_q.rd ? ram_rdata : '0;

  for (genvar l = 0; l < T; l++) begin : gen_lane
    logic [AccW-1:0] s0, s1, e;
    assign s0 = x0[l*AccW +: AccW] + y0[l*AccW +: AccW];
    assign s1 = x1[l*AccW +: AccW] + y1[l*AccW +: AccW];
    assign v0[l*AccW +: AccW] = (ex0_q.relu && s0[AccW-1]) ? '0 : s0;
    assign v1[l*AccW +: AccW] = (ex1_q.relu && s1[AccW-1]) ? '0 : s1;
    // to_operand: saturate the emitted lane to the operand range.
    assign e = ex0_q.em ? v0[l*AccW +: AccW] : v1[l*AccW +: AccW];
    assign out_row[l*OpW +: OpW] =
        ($signed(e) > $signed(AccW'(tpu_pkg::OPERAND_MAX))) ? OpW'(tpu_pkg::OPERAND_MAX) :
        ($signed(e) < $signed(AccW'(tpu_pkg::OPERAND_MIN))) ? OpW'(tpu_pkg::OPERAND_MIN) : e[OpW-1:0];
  end

  // At most one ALU-stage step writes and at most one emits (the slots
  // share no exclusive port).
  assign ram_we    = ex0_q.wr || ex1_q.wr;
  assign ram_waddr = ex0_q.wr ? ex0_q.waddr : ex1_q.waddr;
  assign ram_wdata = ex0_q.wr ? v0 : v1;
  assign out_push  = ex0_q.em || ex1_q.em;

  // The credit check guarantees room: out_ready_unused is always 1 on a push.
  tpu_fifo #(
    .Width(T*OpW),
    .Depth(OutDepth)
  ) u_out (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(out_push),
    .ready_o(out_ready_unused),
    .data_i (out_row),
    .valid_o(@OUT@_valid_o),
    .ready_i(@OUT@_ready_i),
    .data_o (@OUT@_data_o),
    .usage_o(out_usage)
  );

  // ---------------------------------------------------------------------------
  // Status.
  // ---------------------------------------------------------------------------
  logic [CntW-1:0] steps_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) steps_q <= '0;
    else if (clear_i) steps_q <= '0;
    else steps_q <= steps_q + CntW'(a_go) + CntW'(b_go);
  end
  assign progress_o = steps_q;

  assign idle_o = !nx_valid_q && !a_q.valid && !b_q.valid && !ex0_q.valid && !ex1_q.valid &&
                  (out_usage == '0);

endmodule
)";

/// The issue view of one slot ("a" or "b"): the step it would issue now and
/// the slot after it does.
/// One issue slot's step entering the ALU stage: slot @S@ feeds @E@.
const char* kExStage = R"(    @E@_d = '0;
    if (@S@_go) begin
      @E@_d.valid = 1'b1;
      @E@_d.hold  = @S@_rd && !@S@_last;
      @E@_d.rd    = @S@_rd && @S@_last;
      @E@_d.cw    = @S@_cw;
      @E@_d.held  = @S@_q.u.two_step && @S@_last;
      @E@_d.wr    = @S@_wr;
      @E@_d.waddr = @S@_waddr;
      @E@_d.em    = @S@_em;
      @E@_d.relu  = @S@_q.u.relu;
    end
)";

const char* kSlot = R"(  // Slot @S@: the step it issues next, and the slot after this cycle.
  logic             @S@_last, @S@_rd, @S@_cw, @S@_wr, @S@_em, @S@_rd_wait, @S@_second, @S@_fin;
  logic [AddrW-1:0] @S@_raddr, @S@_waddr;
  slot_t            @S@_next;
  assign @S@_last    = !@S@_q.u.two_step || @S@_q.phase;
  assign @S@_rd      = @S@_q.phase ? @S@_q.u.rd1 : @S@_q.u.rd0;
  assign @S@_raddr   = (@S@_q.phase ? @S@_q.u.rd1_base : @S@_q.u.rd0_base) + AddrW'(@S@_q.row);
  assign @S@_cw      = @S@_q.u.cw && @S@_last;
  assign @S@_wr      = @S@_q.u.wr && @S@_last;
  assign @S@_waddr   = @S@_q.u.wr_base + AddrW'(@S@_q.row);
  assign @S@_em      = @S@_q.u.em && @S@_last;
  // The ALU stage writes the row this step reads: wait for it to land.
  assign @S@_rd_wait = @S@_rd && ((ex0_q.wr && (ex0_q.waddr == @S@_raddr)) ||
                                (ex1_q.wr && (ex1_q.waddr == @S@_raddr)));
  assign @S@_second  = @S@_q.u.two_step && !@S@_q.phase;
  assign @S@_fin     = @S@_q.valid && ((@S@_q.steps == '0) || (@S@_go && (@S@_q.steps == CntW'(1))));
  assign @S@_next    = @S@_fin ? '0 :
                     !@S@_go ? @S@_q :
                     {1'b1, @S@_second, @S@_second ? @S@_q.row : @S@_q.row + NrW'(1), @S@_q.steps - CntW'(1),
                      @S@_q.u};
)";

}  // namespace

std::string emit_tpu_accu(const RtlContext& ctx) {
  const AccuPlan plan = plan_accu(ctx);
  std::string ops, consts, excl;
  for (const auto& u : plan.ops)
    ops += fmt::format("//   {:<9} {} step(s) a row: {}\n", u.op->name, u.spr, fmt::join(u.summary, " -> "));
  std::size_t w = 0;
  for (const auto& p : plan.excl) w = std::max(w, port_const(p).size());
  for (std::size_t i = 0; i < plan.excl.size(); ++i) {
    consts += fmt::format("  localparam int {:<{}} = {};  // {}\n", port_const(plan.excl[i]), w, i, plan.excl[i]);
    excl += (i ? ", " : "") + plan.excl[i];
  }
  std::string alu_note;
  for (const auto& p : ctx.spec().unit(kUnit)->ports)
    if (p.rate >= 2)
      alu_note += fmt::format("{}{} has rate {}, one item a slot", alu_note.empty() ? "" : "; ", p.name, p.rate);
  if (alu_note.empty()) alu_note = "every port is exclusive";

  std::string o = ctx.file_header("tpu_accu", "the accumulator registers and their ALU");
  o += fill(kAccu, {{"MEM", plan.mem},
                    {"IN", plan.in_ch},
                    {"OUT", plan.out_ch},
                    {"OPS", ops},
                    {"EXCL", excl},
                    {"PAIRS", pairs_comment(plan)},
                    {"ALU_NOTE", alu_note},
                    {"T", std::to_string(ctx.param("T"))},
                    {"NAR", std::to_string(ctx.param("NAR"))},
                    {"PROGRESS", plan.progress},
                    {"NPORTS", std::to_string(plan.excl.size())},
                    {"PORT_CONSTS", consts},
                    {"INSTR_MEMBERS", instr_members_sv(ctx, "tpu_pkg::", "    ")},
                    {"UNUSED", unused_fields(ctx, plan)},
                    {"DECODE", decode_items(ctx, plan)},
                    {"SLOT_A", fill(kSlot, {{"S", "a"}})},
                    {"SLOT_B", fill(kSlot, {{"S", "b"}})},
                    {"EX_A", fill(kExStage, {{"S", "a"}, {"E", "ex0"}})},
                    {"EX_B", fill(kExStage, {{"S", "b"}, {"E", "ex1"}})}});
  if (ctx.injected("sat_bound_off_by_one"))
    inject_defect(o, "sat_bound_off_by_one",
                  "($signed(e) > $signed(AccW'(tpu_pkg::OPERAND_MAX))) ? OpW'(tpu_pkg::OPERAND_MAX) :",
                  "($signed(e) > $signed(AccW'(tpu_pkg::OPERAND_MAX + 1))) ? OpW'(tpu_pkg::OPERAND_MAX) :"
                  "  // INJECTED DEFECT");
  if (ctx.injected("accu_raw_interlock"))
    inject_defect(o, "accu_raw_interlock", "assign b_rd_wait = b_rd && ((ex0_q.wr && (ex0_q.waddr == b_raddr)) ||",
                  "assign b_rd_wait = 1'b0 && ((ex0_q.wr && (ex0_q.waddr == b_raddr)) ||  // INJECTED DEFECT");
  return o;
}

}  // namespace tpugen::hdl
