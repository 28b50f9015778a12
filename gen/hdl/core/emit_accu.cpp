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
// The module's text is rtl/core/tpu_accu.sv.tpl (with its two fragments,
// tpu_accu_slot.sv.tpl and tpu_accu_ex.sv.tpl); this file fills in what the
// spec decides.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/derive.h"
#include "hdl/injected_bugs.h"
#include "hdl/emitters.h"
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
  // The issue view of one slot ("a" or "b": the step it would issue now and
  // the slot after it does) and its step entering the ALU stage.
  auto slot = [](const char* s) { return sv_template("core/tpu_accu_slot.sv.tpl", {{"S", s}}); };
  auto ex = [](const char* s, const char* e) { return sv_template("core/tpu_accu_ex.sv.tpl", {{"S", s}, {"E", e}}); };
  o += sv_template("core/tpu_accu.sv.tpl", {{"MEM", plan.mem},
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
                    {"SLOT_A", slot("a")},
                    {"SLOT_B", slot("b")},
                    {"EX_A", ex("a", "ex0")},
                    {"EX_B", ex("b", "ex1")}});
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
