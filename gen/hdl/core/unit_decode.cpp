#include "hdl/core/unit_decode.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "hdl/emitters.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

std::string pad(std::string_view s, std::size_t w) {
  std::string o(s);
  if (o.size() < w) o.append(w - o.size(), ' ');
  return o;
}

/// Bits to number n values (at least 1).
int bits_for(std::size_t n) {
  int b = 1;
  while ((std::size_t{1} << b) < n) ++b;
  return b;
}

}  // namespace

// --- Classification -----------------------------------------------------------

std::vector<OpPattern> unit_patterns(const RtlContext& ctx, std::string_view unit) {
  using List = std::vector<const Action*> OpPattern::*;
  static constexpr std::pair<ActionKind, List> kByKind[] = {
      {ActionKind::Read, &OpPattern::reads},       {ActionKind::Write, &OpPattern::writes},
      {ActionKind::Emit, &OpPattern::emits},       {ActionKind::Receive, &OpPattern::receives},
      {ActionKind::Compute, &OpPattern::computes}};
  std::vector<OpPattern> out;
  for (const auto& use : ctx.uses(unit, "instr")) {
    OpPattern p;
    p.op = use.opcode;
    for (const Action* a : use.actions) {
      for (const auto& [kind, list] : kByKind)
        if (a->kind == kind) (p.*list).push_back(a);
      const Unit* u = ctx.spec().unit(unit);
      const Port* port = u ? u->port(a->port) : nullptr;
      if (port && port->rate != 1)
        unsupported(unit, use.opcode->name,
                    fmt::format("port {} moves {} items a cycle; this unit moves one", a->port, port->rate));
    }
    out.push_back(std::move(p));
  }
  return out;
}

void unsupported(std::string_view unit, std::string_view opcode, std::string_view why) {
  throw Error("rtl.unsupported", fmt::format("the {} unit cannot implement opcode {}: {}", unit, opcode, why));
}

bool items_match(const RtlContext& ctx, std::string_view unit, const OpPattern& p, const Expr& a, const Expr& b,
                 std::int64_t delta) {
  for (std::int64_t nr = 1; nr <= 3; ++nr) {
    const Scope scope = scope_with({{"nr", nr}}, ctx.isa().params().scope());
    try {
      if (a.eval(scope) != b.eval(scope) + delta) return false;
    } catch (const ExprError& e) {
      unsupported(unit, p.op->name,
                  fmt::format("item counts '{}' and '{}' must depend on nr and parameters only ({})", a.text(),
                              b.text(), e.what()));
    }
  }
  return true;
}

std::string shared_condition(const RtlContext& ctx, std::string_view unit, const OpPattern& p) {
  std::vector<const Action*> all;
  for (const auto* list : {&p.reads, &p.writes, &p.emits, &p.receives, &p.computes})
    all.insert(all.end(), list->begin(), list->end());
  const Action* first = all.front();
  for (const Action* a : all) {
    const bool same = a->only_if.has_value() == first->only_if.has_value() &&
                      (!a->only_if || a->only_if->text() == first->only_if->text());
    if (!same)
      unsupported(unit, p.op->name,
                  fmt::format("its actions on {} and {} take part under different conditions", first->port, a->port));
  }
  return first->only_if ? ctx.sv_of(*first->only_if, *p.op, "instr") : "1'b1";
}

std::string base_field(const RtlContext& ctx, std::string_view unit, const OpPattern& p, const Action& a) {
  const Operand* o = p.op->operand(a.base);
  if (!o) unsupported(unit, p.op->name, fmt::format("the {} action on {} names no base operand", a.port, a.state));
  (void)ctx;
  return o->field;
}

void add_fields_of(const Opcode& op, const Expr& e, std::set<std::string>& fields) {
  for (const auto& n : e.names()) {
    if (n == "nr")
      fields.insert("nr");
    else if (const Operand* o = op.operand(n))
      fields.insert(o->field);
  }
}

std::string progress_const(const RtlContext& ctx, std::string_view unit) {
  std::vector<const HeaderEntry*> mine;
  for (const auto& h : ctx.spec().header) {
    if (h.count.unit != unit) continue;
    if (h.count.kind == HeaderCount::PortItems)
      unsupported(unit, "-", fmt::format("header entry {} counts port items; this unit counts steps", h.name));
    if (h.count.kind == HeaderCount::UnitSteps) mine.push_back(&h);
  }
  if (mine.size() != 1)
    unsupported(unit, "-", fmt::format("it has {} step counters in the header; this unit keeps one", mine.size()));
  return "tpu_pkg::PROGRESS_" + upper(mine.front()->name);
}

// --- Rendering ----------------------------------------------------------------

std::string render_decode(const std::vector<CurField>& fields, const std::vector<DecodeArm>& arms) {
  std::vector<std::pair<std::string, std::string>> outs = {{"valid", "1'b0"}};
  for (const auto& f : fields) outs.emplace_back(f.name, f.reset);
  std::size_t w = 0;
  for (const auto& [name, dflt] : outs) w = std::max(w, name.size() + 4);
  auto assigns = [&](const std::vector<std::pair<std::string, std::string>>& sets) {
    for (const auto& set : sets)
      if (std::none_of(outs.begin(), outs.end(), [&](const auto& o) { return o.first == set.first; }))
        throw Error("rtl.internal", fmt::format("the decode has no output dec_{}", set.first));
    std::string o;
    for (const auto& [name, dflt] : outs) {
      std::string v = dflt;
      for (const auto& [n, value] : sets)
        if (n == name) v = value;
      o += fmt::format("        {} = {};\n", pad("dec_" + name, w), v);
    }
    return o;
  };
  std::string o = "  always_comb begin\n    unique case (instr.op)\n";
  for (const auto& arm : arms) {
    if (!arm.comment.empty()) o += fmt::format("      // {}\n", arm.comment);
    o += fmt::format("      {}: begin\n", arm.label) + assigns(arm.sets) + "      end\n";
  }
  o += "      default: begin\n" + assigns({}) + "      end\n    endcase\n  end\n";
  return o;
}

std::string render_ports(const std::vector<PortDecl>& ports) {
  std::size_t tw = 0, nw = 0, last = 0;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    if (ports[i].dir.empty()) continue;
    tw = std::max(tw, ports[i].type.size());
    nw = std::max(nw, ports[i].name.size() + 1);
    last = i;
  }
  std::string o;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const auto& p = ports[i];
    if (p.dir.empty()) {
      o += fmt::format("  // {}\n", p.comment);
      continue;
    }
    const std::string name = p.name + (i == last ? "" : ",");
    std::string line =
        fmt::format("  {} {} {}", pad(p.dir, 6), pad(p.type, tw), p.comment.empty() ? name : pad(name, nw));
    if (!p.comment.empty()) line += "  // " + p.comment;
    o += line + "\n";
  }
  return o;
}

std::vector<PortDecl> head_ports() {
  return {{"input", "logic", "clk_i", "clock"},
          {"input", "logic", "rst_ni", "asynchronous reset, active low"},
          {"input", "logic", "clear_i", "a run starts: clear the progress counters"},
          {"", "", "", "instruction stream (tpu_pkg::instr_t, in program order)"},
          {"input", "logic", "instr_valid_i", ""},
          {"output", "logic", "instr_ready_o", ""},
          {"input", "logic [tpu_pkg::INSTR_W-1:0]", "instr_i", "tpu_pkg::instr_t, flat (INSTR_*_LSB)"}};
}

std::vector<PortDecl> tail_ports(const std::string& progress) {
  return {{"", "", "", "status"},
          {"output", "logic [tpu_pkg::COUNT_W-1:0]", "progress_o", fmt::format("steps done ({})", progress)},
          {"output", "logic", "idle_o", "nothing in flight inside the unit"}};
}

std::vector<PortDecl> channel_ports(const Channel& c, bool in, const std::string& type) {
  if (in)
    return {{"", "", "", fmt::format("{}: rows from {}", c.port, c.from)},
            {"input", "logic", c.port + "_valid_i", ""},
            {"output", "logic", c.port + "_ready_o", ""},
            {"input", type, c.port + "_data_i", ""}};
  std::string what = fmt::format("{}: rows to {}", c.port, c.to);
  if (c.header_items > 0) what += fmt::format(", each instruction's {} header word(s) first", c.header_items);
  return {{"", "", "", what},
          {"output", "logic", c.port + "_valid_o", ""},
          {"input", "logic", c.port + "_ready_i", ""},
          {"output", type, c.port + "_data_o", ""}};
}

std::string field_type(const CurField& f) {
  if (f.width == "1") return "logic";
  const bool number = !f.width.empty() && std::all_of(f.width.begin(), f.width.end(), [](char c) { return c >= '0' && c <= '9'; });
  return number ? fmt::format("logic [{}:0]", std::stoul(f.width) - 1) : fmt::format("logic [{}-1:0]", f.width);
}

namespace {
/// `{<prefix><name>, ...}` over the fields, in their order (the slot's flat vector).
std::string field_concat(const std::vector<CurField>& fields, const std::function<std::string(const CurField&)>& v) {
  std::vector<std::string> parts;
  for (const auto& f : fields) parts.push_back(v(f));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}
}  // namespace

std::string render_skeleton_decls(const std::vector<CurField>& fields) {
  std::size_t tw = std::string("logic [FieldW-1:0]").size();
  for (const auto& f : fields) tw = std::max(tw, field_type(f).size());
  std::vector<std::string> widths;
  for (const auto& f : fields) widths.push_back(f.width);
  std::string o = fmt::format(
      "  localparam int CountW = tpu_pkg::COUNT_W;\n"
      "  localparam int FieldW = {};  // the fields of the instruction in flight\n\n"
      "  // Decode of instr_i.\n",
      fmt::join(widths, " + "));
  o += fmt::format("  {} dec_valid;  // the opcode reaches this unit and its condition holds\n", pad("logic", tw));
  for (const auto& f : fields) o += fmt::format("  {} dec_{};\n", pad(field_type(f), tw), f.name);
  o += "\n  // The instruction in flight (u_cur).\n";
  o += fmt::format("  {} cur_valid;\n", pad("logic", tw));
  for (const auto& f : fields) o += fmt::format("  {} cur_{};  // {}\n", pad(field_type(f), tw), f.name, f.comment);
  o += fmt::format("  {} cur_fields;\n", pad("logic [FieldW-1:0]", tw));
  o += fmt::format("  {} step;  // the instruction in flight takes one step this cycle\n", pad("logic", tw));
  return o;
}

std::string render_skeleton_logic(const std::vector<CurField>& fields) {
  return fmt::format(
      "  // The instruction in flight (u_cur, the hand-written tpu_instr_slot): one\n"
      "  // step whenever step is high; the next instruction is taken in the cycle\n"
      "  // of the last step.\n"
      "  tpu_instr_slot #(\n"
      "    .FieldW(FieldW)\n"
      "  ) u_cur (\n"
      "    .clk_i,\n"
      "    .rst_ni,\n"
      "    .instr_valid_i,\n"
      "    .instr_ready_o,\n"
      "    .claim_i (dec_valid),\n"
      "    .steps_i (instr.steps),\n"
      "    .fields_i({}),\n"
      "    .valid_o (cur_valid),\n"
      "    .fields_o(cur_fields),\n"
      "    .step_i  (step),\n"
      "    .next_i  ({})\n"
      "  );\n"
      "  assign {} = cur_fields;\n",
      field_concat(fields, [](const CurField& f) { return "dec_" + f.name; }),
      field_concat(fields, [](const CurField& f) { return f.on_step.empty() ? "cur_" + f.name : f.on_step; }),
      field_concat(fields, [](const CurField& f) { return "cur_" + f.name; }));
}

std::string render_progress(const std::vector<std::string>& increments) {
  return fmt::format(
      "  // Steps done, counted as they complete (the hand-written tpu_counter).\n"
      "  tpu_counter #(\n"
      "    .Width(CountW),\n"
      "    .NInc ({})\n"
      "  ) u_progress (\n"
      "    .clk_i,\n"
      "    .rst_ni,\n"
      "    .clear_i,\n"
      "    .inc_i  ({{{}}}),\n"
      "    .count_o(progress_o)\n"
      "  );\n",
      increments.size(), fmt::join(increments, ", "));
}

std::string render_instr_fields(const RtlContext& ctx, const std::set<std::string>& used,
                                const std::set<std::string>& truncated) {
  std::vector<std::string> members = {"steps", "nr"}, operands, unused, high;
  for (const auto& f : ctx.spec().word0)
    if (f.agu_target) operands.push_back(f.name);
  members.insert(members.end(), operands.rbegin(), operands.rend());
  members.emplace_back("op");
  for (const auto& m : members) {
    if (!used.count(m)) unused.push_back("instr." + m);
    if (truncated.count(m)) high.push_back("instr." + m);
  }
  std::string o =
      "\n  // instr_i as tpu_pkg::instr_t, through a local copy of the type (Icarus 11\n"
      "  // cannot elaborate the package's struct type in a module).\n"
      "  typedef struct packed {\n" +
      instr_members_sv(ctx, "tpu_pkg::", "    ") +
      "  } instr_t;\n"
      "  instr_t instr;\n"
      "  assign instr = instr_i;\n";
  if (!unused.empty())
    o += fmt::format(
        "  // Members no opcode of this unit reads.\n  logic unused_instr;\n  assign unused_instr = ^{{{}}};\n",
        fmt::join(unused, ", "));
  if (!high.empty())
    o += fmt::format(
        "  // Address members are truncated to AddrW bits: the bits above are unused.\n"
        "  logic unused_instr_high;\n  assign unused_instr_high = ^{{{}}};\n",
        fmt::join(high, ", "));
  return o;
}

std::string render_params(const RtlContext& ctx, const std::vector<std::string>& params,
                          const std::vector<std::string>& comments, const std::vector<OptionParam>& options) {
  std::string o;
  std::size_t nw = 0;
  for (const auto& p : params) nw = std::max(nw, p.size());
  for (const auto& p : options) nw = std::max(nw, p.name.size());
  const Constant* vw = nullptr;
  for (const auto& c : ctx.spec().derived_constants)
    if (c.name == "VW") vw = &c;
  if (!vw) throw Error("rtl.unsupported", "the spec derives no operand row width VW");
  const std::string vw_sv = vw->value.render_sv([&](std::string_view n) -> std::string {
    if (std::find(params.begin(), params.end(), n) == params.end())
      throw Error("rtl.unsupported",
                  fmt::format("VW = {} names {}, not a parameter of this module", vw->value.text(), n));
    return std::string(n);
  });
  for (std::size_t i = 0; i < params.size(); ++i)
    o += fmt::format("  parameter int {} = {},  // {}\n", pad(params[i], nw), ctx.param(params[i]), comments[i]);
  for (const auto& p : options) o += fmt::format("  parameter int {} = {},  // {}\n", pad(p.name, nw), p.value, p.comment);
  o += fmt::format("  parameter int {} = {}   // derived: leave at its default. {}\n", pad("VW", nw), vw_sv, vw->role);
  return o;
}

// --- The memory units -----------------------------------------------------------

namespace {

/// One way the memory unit streams: a channel it receives rows from and
/// writes, or one it reads rows onto (with the channel's header words first).
struct MemAct {
  std::string port;
  bool in = false;
  int header = 0;
  [[nodiscard]] std::string name() const { return "Act" + camel(port); }
};

/// One opcode's decode.
struct MemOp {
  const OpPattern* p = nullptr;
  std::size_t act = 0;
  std::string field;      ///< the base operand's field
  std::string base;       ///< the base operand's name
  std::string cond;       ///< shared_condition
  std::string cond_text;  ///< the condition as the spec writes it (empty: none)
  std::string rows_sv;    ///< the header word's row count (header acts only)
  std::string rows_text;
  std::string len_sv;  ///< rows of the memory it touches (the read or write action's items)
};

struct MemPlan {
  std::string unit, module, description;
  const Memory* mem = nullptr;
  std::string depth;  ///< the build parameter giving the memory's depth
  std::vector<OpPattern> patterns;
  std::vector<MemAct> acts;
  std::vector<MemOp> ops;
  std::set<std::string> used{"op", "steps"};
  bool any_header = false;
};

std::size_t act_index(MemPlan& plan, const std::string& port, bool in, int header) {
  for (std::size_t i = 0; i < plan.acts.size(); ++i)
    if (plan.acts[i].port == port && plan.acts[i].in == in) return i;
  plan.acts.push_back(MemAct{port, in, header});
  return plan.acts.size() - 1;
}

void check_channel(const RtlContext& ctx, const MemPlan& plan, const OpPattern& p, const Channel& c) {
  if (c.width != ctx.param("VW"))
    unsupported(plan.unit, p.op->name,
                fmt::format("channel {} carries {}-bit items, not operand rows", c.port, c.width));
}

const Memory& the_memory(const RtlContext& ctx, MemPlan& plan, const OpPattern& p, const Action& a) {
  const Memory* m = ctx.spec().memory(a.state);
  if (!m || m->owner != plan.unit || m->dram)
    unsupported(plan.unit, p.op->name, fmt::format("{} is not an on-chip memory this unit owns", a.state));
  if (plan.mem && plan.mem != m)
    unsupported(plan.unit, p.op->name,
                fmt::format("it touches {} and {}; this unit owns one memory", plan.mem->name, m->name));
  plan.mem = m;
  return *m;
}

/// What a memory opcode's two engines share: its memory (the unit's one), the
/// channel of `port` (operand rows), and its step: the action on that port,
/// the base and the rows of `mem` (a write's or a read's action).
MemOp plan_op(const RtlContext& ctx, MemPlan& plan, const OpPattern& p, const Action& mem, const Action& port,
              bool in) {
  the_memory(ctx, plan, p, mem);
  const Channel& c = ctx.channel(port.port);
  check_channel(ctx, plan, p, c);
  MemOp op{&p, act_index(plan, port.port, in, in ? 0 : c.header_items), base_field(ctx, plan.unit, p, mem), mem.base,
           "", "", "", "", ""};
  op.len_sv = ctx.sv_of(mem.items, *p.op, "instr");
  add_fields_of(*p.op, mem.items, plan.used);
  return op;
}

void plan_write(const RtlContext& ctx, MemPlan& plan, const OpPattern& p) {
  const Action& rx = *p.receives.front();
  const Action& wr = *p.writes.front();
  const MemOp op = plan_op(ctx, plan, p, wr, rx, true);
  if (ctx.channel(rx.port).header_items != 0)
    unsupported(plan.unit, p.op->name, fmt::format("{} carries a header word into a memory write", rx.port));
  if (!items_match(ctx, plan.unit, p, rx.items, wr.items))
    unsupported(plan.unit, p.op->name,
                fmt::format("it receives {} items and writes {}", rx.items.text(), wr.items.text()));
  plan.ops.push_back(op);
}

void plan_read(const RtlContext& ctx, MemPlan& plan, const OpPattern& p) {
  const Action& rd = *p.reads.front();
  const Action& tx = *p.emits.front();
  MemOp op = plan_op(ctx, plan, p, rd, tx, false);
  const Channel& c = ctx.channel(tx.port);
  if (c.header_items > 1)
    unsupported(plan.unit, p.op->name,
                fmt::format("{} takes {} header words; this unit sends one", tx.port, c.header_items));
  if (!items_match(ctx, plan.unit, p, tx.items, rd.items, c.header_items))
    unsupported(plan.unit, p.op->name,
                fmt::format("it emits {} items for {} reads and {} header word(s)", tx.items.text(), rd.items.text(),
                            c.header_items));
  if (c.header_items == 1) {
    // The header word's row count: what the receiver takes on its other
    // port for this opcode (the array: nr activation rows on acol).
    const Action* other = nullptr;
    for (const Action* a : ctx.spec().actions_of(p.op->name)) {
      if (a->unit != c.to || a->kind != ActionKind::Receive || a->port == c.port) continue;
      if (other) unsupported(plan.unit, p.op->name, fmt::format("{} receives on more than one other port", c.to));
      other = a;
    }
    if (!other)
      unsupported(plan.unit, p.op->name,
                  fmt::format("{}'s header word has no row count: {} receives nothing else", c.port, c.to));
    op.rows_sv = ctx.sv_of(other->items, *p.op, "instr");
    op.rows_text = other->items.text();
    add_fields_of(*p.op, other->items, plan.used);
    plan.any_header = true;
  }
  plan.ops.push_back(op);
}

MemPlan plan_memory_unit(const RtlContext& ctx, std::string_view unit, std::string_view module,
                         std::string_view description) {
  MemPlan plan;
  plan.unit = unit;
  plan.module = module;
  plan.description = description;
  plan.patterns = unit_patterns(ctx, unit);
  if (plan.patterns.empty()) unsupported(unit, "-", "no opcode reaches it");
  for (const auto& p : plan.patterns) {
    const bool write = p.receives.size() == 1 && p.writes.size() == 1 && p.reads.empty() && p.emits.empty();
    const bool read = p.reads.size() == 1 && p.emits.size() == 1 && p.receives.empty() && p.writes.empty();
    if (!p.computes.empty() || (!write && !read))
      unsupported(unit, p.op->name,
                  "a memory unit either receives rows and writes them or reads rows and emits them, "
                  "one of each per instruction");
    if (write)
      plan_write(ctx, plan, p);
    else
      plan_read(ctx, plan, p);
    MemOp& op = plan.ops.back();
    op.cond = shared_condition(ctx, unit, p);
    op.cond_text = p.receives.empty() ? (p.reads.front()->only_if ? p.reads.front()->only_if->text() : "")
                                      : (p.writes.front()->only_if ? p.writes.front()->only_if->text() : "");
    plan.used.insert(op.field);
    for (const auto* list : {&p.reads, &p.writes, &p.emits, &p.receives})
      for (const Action* a : *list)
        if (a->only_if) add_fields_of(*p.op, *a->only_if, plan.used);
  }
  const auto names = plan.mem->depth.names();
  if (names.size() != 1 || plan.mem->depth.text() != *names.begin() || !ctx.spec().parameter(*names.begin()))
    unsupported(unit, "-",
                fmt::format("{}'s depth {} is not a build parameter", plan.mem->name, plan.mem->depth.text()));
  plan.depth = *names.begin();
  if (plan.mem->row_bits.eval(ctx.isa().params().scope()) != ctx.param("VW"))
    unsupported(unit, "-",
                fmt::format("{} rows are {} bits, not operand rows", plan.mem->name, plan.mem->row_bits.text()));
  const auto ins = std::count_if(plan.acts.begin(), plan.acts.end(), [](const MemAct& a) { return a.in; });
  if (ins == 0 || ins == static_cast<std::ptrdiff_t>(plan.acts.size()))
    unsupported(unit, "-", fmt::format("a memory unit both writes {} from a channel and reads it onto one", plan.mem->name));
  return plan;
}

std::string act_comment(const MemPlan& plan, const MemAct& a) {
  if (a.in) return fmt::format("receive a row on {} and write it to {}", a.port, plan.mem->name);
  if (a.header) return fmt::format("send the header word, then read rows of {} onto {}", plan.mem->name, a.port);
  return fmt::format("read a row of {} and emit it on {}", plan.mem->name, a.port);
}

std::string op_comment(const MemPlan& plan, const MemOp& op) {
  const MemAct& a = plan.acts[op.act];
  std::string what;
  if (a.in)
    what = fmt::format("receive {}, write {}[{} + r]", a.port, plan.mem->name, op.base);
  else if (a.header)
    what = fmt::format("emit the {} header word (rows = {}), then read {}[{} + r] onto {}", a.port, op.rows_text,
                       plan.mem->name, op.base, a.port);
  else
    what = fmt::format("read {}[{} + r], emit on {}", plan.mem->name, op.base, a.port);
  if (!op.cond_text.empty()) what += fmt::format(" (when {})", op.cond_text);
  return fmt::format("{}: {}", op.p->op->name, what);
}

std::string mem_module_comment(const RtlContext& ctx, const MemPlan& plan) {
  const Parameter* depth = ctx.spec().parameter(plan.depth);
  const Parameter* t = ctx.spec().parameter("T");
  const Parameter* qd = ctx.spec().parameter("QD");
  std::string o = fmt::format(
      "\n// {0}: the {1} unit. Owns {2} ({3} rows of VW bits, a tpu_ram_1r1w), one\n"
      "// step per cycle and engine, for `steps` steps an instruction (counted on\n"
      "// progress_o as each row is written or leaves the unit). Per opcode (from\n"
      "// the actions table):\n",
      plan.module, plan.unit, plan.mem->name, plan.depth);
  for (const auto& op : plan.ops) o += "//   " + op_comment(plan, op) + "\n";
  o += fmt::format(
      "// An instruction whose condition does not hold, or with no steps, is\n"
      "// consumed and ignored (the sequencer sends none).\n"
      "//\n"
      "// Two engines: instructions that receive rows and write {0} queue for\n"
      "// the write engine, those that read {0} and emit for the read engine,\n"
      "// up to QD pending instructions each. Each engine works through its\n"
      "// queue in program order, one row per cycle (on the RAM's write and read\n"
      "// port respectively), starting an instruction in the cycle after the\n"
      "// previous one's last step. Between the engines program order holds only\n"
      "// where the rows overlap: an instruction's rows are [base, base + items)\n"
      "// of its read or write action (a range past the end of {0} counts as\n"
      "// overlapping everything); a read waits while an earlier write of an\n"
      "// overlapping range is pending (not fully written), a write while an\n"
      "// earlier read of an overlapping range is pending (not fully read).\n"
      "// `Earlier` is exact: each queued instruction carries the set of the\n"
      "// other queue's slots that held pending instructions when it arrived,\n"
      "// and a slot leaves every set when its instruction completes.\n"
      "// A write lands at the end of its cycle, so a read released by it (in a\n"
      "// later cycle) sees the new data; a read issued before a write of the\n"
      "// same row keeps the old data (read-first RAM).\n"
      "//\n"
      "// Reads: the RAM answers one cycle after the request, into a {1}-entry\n"
      "// skid FIFO per output; a read is issued only when its FIFO has room for\n"
      "// it (counting the read in the RAM and the item leaving this cycle), so\n"
      "// valid never depends on ready and no row is lost under backpressure.\n"
      "// Sustained: one row per cycle in and one out.\n"
      "// Addresses are $clog2({2}) bits: a wider field is truncated.\n",
      plan.mem->name, 2, plan.depth);
  if (plan.any_header)
    o += "// The header word is an operand row whose low 2*COUNT_W bits are\n"
         "// {flags = 0, rows}: rows is the count the receiver takes on its other\n"
         "// port for this instruction.\n";
  o += fmt::format(
      "//\n"
      "// Parameters:\n"
      "//   T          {}\n"
      "//   {} {}\n"
      "//   QD         {}; here also the pending instructions per engine\n"
      "//   VW         derived: bits of an operand row\n",
      t->role, pad(plan.depth, 10), depth->role, qd ? qd->role : "queue depth");
  return o;
}

std::string mem_ports(const RtlContext& ctx, const MemPlan& plan) {
  std::vector<PortDecl> ports = head_ports();
  for (const auto& a : plan.acts) {
    auto ch = channel_ports(ctx.channel(a.port), a.in, "logic [VW-1:0]");
    ports.insert(ports.end(), ch.begin(), ch.end());
  }
  auto tail = tail_ports(progress_const(ctx, plan.unit));
  ports.insert(ports.end(), tail.begin(), tail.end());
  return render_ports(ports);
}

/// The decode's outputs (render_decode takes names and defaults only).
std::vector<CurField> mem_fields(const MemPlan& plan) {
  std::vector<CurField> f = {
      {"act", "ActW", plan.acts.front().name(), "", "what it does each step"},
      {"write", "1", "1'b0", "", "it writes the memory (write engine)"},
      {"addr", "AddrW", "'0", "", "base row"},
      {"len", "CountW", "'0", "", "rows it touches"}};
  if (plan.any_header) {
    f.push_back({"hdr", "1", "1'b0", "", "it sends a header word first"});
    f.push_back({"rows", "CountW", "'0", "", "the header word's row count"});
  }
  return f;
}

std::string mem_decode(const RtlContext& ctx, const MemPlan& plan) {
  std::vector<DecodeArm> arms;
  for (const auto& op : plan.ops) {
    const MemAct& a = plan.acts[op.act];
    DecodeArm arm{ctx.op_const(op.p->op->name), op_comment(plan, op), {}};
    arm.sets = {{"valid", op.cond},
                {"act", a.name()},
                {"write", a.in ? "1'b1" : "1'b0"},
                {"addr", fmt::format("AddrW'(instr.{})", op.field)},
                {"len", fmt::format("CountW'({})", op.len_sv)}};
    if (a.header) {
      arm.sets.emplace_back("hdr", "1'b1");
      arm.sets.emplace_back("rows", fmt::format("CountW'({})", op.rows_sv));
    }
    arms.push_back(arm);
  }
  return render_decode(mem_fields(plan), arms);
}

/// One engine's queue: `q` is "wq" or "rq", `other` the other queue, `e`
/// the engine's prefix ("w" or "r"). Declarations and logic.
/// One engine's queue (u_wq, u_rq: the hand-written tpu_mem_queue), its
/// slots crossed with the other queue's for the hazard check. The read queue
/// keeps the header flag and row count with each instruction when the unit
/// sends header words.
std::string mem_queue(const std::string& q, const std::string& other, const std::string& e, bool header) {
  const std::string what = q == "wq" ? "write" : "read";
  return fmt::format(
      "  // The {0} engine's queue: pending {0} instructions, oldest at the head.\n"
      "  tpu_mem_queue #(\n"
      "    .QD    (QD),\n"
      "    .AddrW (AddrW),\n"
      "    .ActW  (ActW),\n"
      "    .ExtraW({4})\n"
      "  ) u_{1} (\n"
      "    .clk_i,\n"
      "    .rst_ni,\n"
      "    .push_i       ({1}_push),\n"
      "    .act_i        (dec_act),\n"
      "    .base_i       (dec_addr),\n"
      "    .hi_i         (dec_hi),\n"
      "    .wide_i       (dec_wide),\n"
      "    .steps_i      (instr.steps),\n"
      "    .extra_i      ({5}),\n"
      "    .full_o       ({1}_full),\n"
      "    .empty_o      ({1}_empty),\n"
      "    .step_i       ({3}_step),\n"
      "    .valid_o      ({3}_valid),\n"
      "    .go_o         ({3}_go),\n"
      "    .last_o       ({3}_last),\n"
      "    .act_o        ({3}_act),\n"
      "    .base_o       ({3}_base),\n"
      "    .done_o       ({3}_done),\n"
      "    .extra_o      ({3}_extra),\n"
      "    .slot_valid_o ({1}_slot_valid),\n"
      "    .slot_free_o  ({1}_slot_free),\n"
      "    .slot_base_o  ({1}_slot_base),\n"
      "    .slot_hi_o    ({1}_slot_hi),\n"
      "    .slot_wide_o  ({1}_slot_wide),\n"
      "    .other_valid_i({2}_slot_valid),\n"
      "    .other_free_i ({2}_slot_free),\n"
      "    .other_base_i ({2}_slot_base),\n"
      "    .other_hi_i   ({2}_slot_hi),\n"
      "    .other_wide_i ({2}_slot_wide)\n"
      "  );\n\n",
      what, q, other, e, header ? "1 + CountW" : "1", header ? "{dec_hdr, dec_rows}" : "1'b0");
}

std::string emit_memory_unit_text(const RtlContext& ctx, const MemPlan& plan) {
  const std::string& m = plan.mem->name;
  std::string o = ctx.file_header(plan.module, plan.description);
  o += mem_module_comment(ctx, plan);
  o += fmt::format("module {} #(\n", plan.module);
  o += render_params(ctx, {"T", plan.depth, "QD"},
                     {ctx.spec().parameter("T")->role, ctx.spec().parameter(plan.depth)->role,
                      "pending instructions per engine"});
  o += ") (\n" + mem_ports(ctx, plan) + ");\n\n";

  // Declarations.
  const int act_w = bits_for(plan.acts.size());
  o += fmt::format("  localparam int AddrW     = ({0} > 1) ? $clog2({0}) : 1;  // {1} address bits\n", plan.depth, m);
  o += "  localparam int CountW    = tpu_pkg::COUNT_W;\n"
       "  localparam int RangeW    = ((AddrW > CountW) ? AddrW : CountW) + 1;  // end of a row range\n"
       "  localparam int SkidDepth = 2;  // items each output FIFO holds\n";
  o += fmt::format("  localparam int ActW      = {};\n", act_w);
  if (plan.any_header)
    o += "  localparam logic [tpu_pkg::COUNT_W-1:0] HdrFlags = '0;  // header word flags: reserved, zero\n";
  o += "\n  // What an instruction does on each step.\n";
  std::size_t aw = 0;
  for (const auto& a : plan.acts) aw = std::max(aw, a.name().size());
  for (std::size_t i = 0; i < plan.acts.size(); ++i)
    o += fmt::format("  localparam logic [ActW-1:0] {} = ActW'({});  // {}\n", pad(plan.acts[i].name(), aw), i,
                     act_comment(plan, plan.acts[i]));

  o += "\n  // Decode of instr_i.\n"
       "  logic              dec_valid;  // the opcode reaches this unit and its condition holds\n";
  for (const auto& f : mem_fields(plan))
    o += fmt::format("  {} dec_{};  // {}\n", pad(field_type(f), 18), f.name, f.comment);
  o += "  logic              dec_take;  // ... and it has steps: it joins a queue\n"
       "  logic [RangeW-1:0] dec_hi;    // base + rows\n"
       "  logic              dec_wide;  // the range runs past the memory: overlaps everything\n";
  std::set<std::string> addr_fields;
  for (const auto& op : plan.ops) addr_fields.insert(op.field);
  o += render_instr_fields(ctx, plan.used, addr_fields);

  o += "\n  // The engines' queues (tpu_mem_queue) and their heads.\n";
  for (const auto& [e, q] : {std::pair{"w", "wq"}, std::pair{"r", "rq"}})
    o += fmt::format(
        "  logic              {1}_push, {1}_full, {1}_empty;  // instr_i joins the queue; QD pending; none\n"
        "  logic              {0}_valid, {0}_go, {0}_step, {0}_last;  // head pending, free of hazards, steps, last step\n"
        "  logic [ActW-1:0]   {0}_act;\n"
        "  logic [AddrW-1:0]  {0}_base;\n"
        "  logic [CountW-1:0] {0}_done;  // steps the head took\n"
        "  logic [{2}-1:0]    {0}_extra;\n"
        "  logic [QD-1:0]        {1}_slot_valid, {1}_slot_free, {1}_slot_wide;\n"
        "  logic [QD*AddrW-1:0]  {1}_slot_base;\n"
        "  logic [QD*RangeW-1:0] {1}_slot_hi;\n",
        e, q, std::string(q) == "rq" && plan.any_header ? "1 + CountW" : "1");
  o += "  logic              r_hdr;  // the read head's step sends the header word\n"
       "  logic [AddrW-1:0]  w_addr, r_addr;\n\n";
  o += fmt::format("  // {}: one write and one read port, read data a cycle later.\n", m);
  o += fmt::format("  logic          {0}_we, {0}_re;\n  logic [VW-1:0] {0}_wdata, {0}_rdata;\n\n", m);
  o += "  // The read stage: what was read (or sent as the header word) last cycle.\n"
       "  logic            p1_valid;\n  logic [ActW-1:0] p1_act;\n";
  if (plan.any_header) o += "  logic p1_hdr;\n  logic [CountW-1:0] p1_rows;\n";
  o += "  logic [VW-1:0] p1_data;\n\n  // Per port: the engine's head takes a step there.\n";
  for (const auto& a : plan.acts) o += fmt::format("  logic {}_take;\n", a.port);
  o += "\n  // Per output: its skid FIFO and the room a new read needs.\n";
  for (const auto& a : plan.acts)
    if (!a.in)
      o += fmt::format("  logic {0}_push, {0}_pop, {0}_room, {0}_empty;\n",
                       a.port);
  o += "\n";

  o += mem_decode(ctx, plan) + "\n";
  o += fmt::format(
      "  // Dispatch: in program order, into the queue of the engine that does it.\n"
      "  assign dec_take      = dec_valid && (instr.steps != '0);\n"
      "  assign dec_hi        = RangeW'(dec_addr) + RangeW'(dec_len);\n"
      "  assign dec_wide      = dec_hi > RangeW'({0});\n"
      "  assign instr_ready_o = !dec_take || (dec_write ? !wq_full : !rq_full);\n"
      "  assign wq_push       = instr_valid_i && instr_ready_o && dec_take && dec_write;\n"
      "  assign rq_push       = instr_valid_i && instr_ready_o && dec_take && !dec_write;\n\n",
      plan.depth);
  o += mem_queue("wq", "rq", "w", false);
  o += mem_queue("rq", "wq", "r", plan.any_header);
  o += fmt::format("  // The engines go on go_o (valid and free of hazards) and the queues see\n"
                   "  // their own last steps; the addresses take AddrW bits of the step counts; the\n"
                   "  // write queue keeps no extra bits.\n"
                   "  logic unused_heads;\n  assign unused_heads = ^{{w_valid, r_valid, w_last, r_last, w_done, r_done, w_extra{}}};\n\n",
                   plan.any_header ? "" : ", r_extra");

  // The engines' steps.
  std::vector<std::string> wtakes, rtakes, wdata;
  o += "  // The write engine: a row from the head's input, written at base + done.\n";
  for (const auto& a : plan.acts) {
    if (!a.in) continue;
    o += fmt::format("  assign {0}_ready_o = w_go && (w_act == {1});\n  assign {0}_take    = {0}_ready_o && {0}_valid_i;\n",
                     a.port, a.name());
    wtakes.push_back(a.port + "_take");
    wdata.push_back(a.port);
  }
  std::string data = wdata.back() + "_data_i";
  for (std::size_t i = wdata.size(); i-- > 1;)
    data = fmt::format("(w_act == {0}) ? {1}_data_i : {2}", MemAct{wdata[i - 1], true, 0}.name(), wdata[i - 1], data);
  o += fmt::format("  assign w_step = {};\n", fmt::join(wtakes, " || "));
  o += "  assign w_addr = w_base + AddrW'(w_done);\n";
  o += fmt::format("  assign {0}_we  = w_step;\n  assign {0}_wdata = {1};\n\n", m, data);
  o += "  // The read engine: a read at base + done (after the header word, if any)\n"
       "  // for the head's output, when it has room.\n";
  for (const auto& a : plan.acts) {
    if (a.in) continue;
    o += fmt::format("  assign {0}_take = r_go && (r_act == {1}) && {0}_room;\n", a.port, a.name());
    rtakes.push_back(a.port + "_take");
  }
  o += fmt::format("  assign r_step = {};\n", fmt::join(rtakes, " || "));
  if (plan.any_header) {
    o += "  assign r_hdr  = r_extra[CountW] && (r_done == '0);  // {header flag, row count}\n"
         "  assign r_addr = r_base + AddrW'(r_done) - AddrW'(r_extra[CountW]);\n";
  } else {
    o += "  assign r_hdr  = 1'b0;\n"
         "  assign r_addr = r_base + AddrW'(r_done);\n";
  }
  o += fmt::format("  assign {}_re  = r_step && !r_hdr;\n\n", m);

  o += fmt::format(
      "  tpu_ram_1r1w #(\n"
      "    .Width(VW),\n"
      "    .Depth({0})\n"
      "  ) u_{1} (\n"
      "    .clk_i  (clk_i),\n"
      "    .we_i   ({1}_we),\n"
      "    .waddr_i(w_addr),\n"
      "    .wdata_i({1}_wdata),\n"
      "    .re_i   ({1}_re),\n"
      "    .raddr_i(r_addr),\n"
      "    .rdata_o({1}_rdata)\n"
      "  );\n\n",
      plan.depth, m);

  // The read stage (zero after reset: no read, the first action).
  const bool hdr = plan.any_header;
  o += fmt::format(
      "  tpu_reg #(\n"
      "    .Width(1 + ActW{0})\n"
      "  ) u_p1 (\n"
      "    .clk_i,\n"
      "    .rst_ni,\n"
      "    .d_i({{r_step, r_act{1}}}),\n"
      "    .q_o({{p1_valid, p1_act{2}}})\n"
      "  );\n",
      hdr ? " + 1 + CountW" : "", hdr ? ", r_hdr, r_extra[CountW-1:0]" : "", hdr ? ", p1_hdr, p1_rows" : "");
  if (plan.any_header)
    o += fmt::format("  assign p1_data = p1_hdr ? VW'({{HdrFlags, p1_rows}}) : {}_rdata;\n\n", m);
  else
    o += fmt::format("  assign p1_data = {}_rdata;\n\n", m);

  std::vector<std::string> progress, idle = {"wq_empty", "rq_empty", "!p1_valid"};
  for (const auto& a : plan.acts) {
    if (a.in) {
      progress.push_back(a.port + "_take");
      continue;
    }
    o += fmt::format(
        "  // {0}: its skid FIFO (tpu_skid), and room for a read issued now.\n"
        "  assign {0}_push = p1_valid && (p1_act == {1});\n\n"
        "  tpu_skid #(\n"
        "    .Width(VW),\n"
        "    .Depth(SkidDepth)\n"
        "  ) u_{0}_skid (\n"
        "    .clk_i,\n"
        "    .rst_ni,\n"
        "    .valid_i({0}_push),\n"
        "    .data_i (p1_data),\n"
        "    .valid_o({0}_valid_o),\n"
        "    .ready_i({0}_ready_i),\n"
        "    .data_o ({0}_data_o),\n"
        "    .room_o ({0}_room),\n"
        "    .pop_o  ({0}_pop),\n"
        "    .empty_o({0}_empty)\n"
        "  );\n\n",
        a.port, a.name());
    progress.push_back(a.port + "_pop");
    idle.push_back(a.port + "_empty");
  }
  o += render_progress(progress) + "\n";
  o += fmt::format("  assign idle_o = {};\n", fmt::join(idle, " && "));
  o += "\nendmodule\n";
  return o;
}

}  // namespace

std::string emit_memory_unit(const RtlContext& ctx, std::string_view unit, std::string_view module,
                             std::string_view description) {
  return emit_memory_unit_text(ctx, plan_memory_unit(ctx, unit, module, description));
}

bool is_memory_unit(const RtlContext& ctx, std::string_view unit) {
  const auto uses = ctx.uses(unit, "instr");
  if (uses.empty()) return false;
  for (const auto& use : uses) {
    std::size_t n[5] = {0, 0, 0, 0, 0};
    for (const Action* a : use.actions) {
      ++n[static_cast<int>(a->kind)];
      if (a->kind == ActionKind::Read || a->kind == ActionKind::Write) {
        const Memory* m = ctx.spec().memory(a->state);
        if (!m || m->owner != unit || m->dram) return false;
      }
    }
    auto count = [&](ActionKind k) { return n[static_cast<int>(k)]; };
    const bool write = count(ActionKind::Receive) == 1 && count(ActionKind::Write) == 1 &&
                       count(ActionKind::Read) == 0 && count(ActionKind::Emit) == 0;
    const bool read = count(ActionKind::Read) == 1 && count(ActionKind::Emit) == 1 &&
                      count(ActionKind::Receive) == 0 && count(ActionKind::Write) == 0;
    if (count(ActionKind::Compute) != 0 || (!write && !read)) return false;
  }
  return true;
}

}  // namespace tpugen::hdl
