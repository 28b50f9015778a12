// tpu_dma_ld: operand rows from the DRAM matrices (A, B) to the channels the
// actions route them on (dma2sp, dma2vr). Everything per opcode comes from
// dma_ld's actions: the read actions name the source memory (their only_if
// selects it: dram_rd_req_sel_o numbers the sources in spec memory order),
// their base operand the first DRAM row and the memory's packed_word operand
// the column block; the emit actions' only_if choose the output channel.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "hdl/emitters.h"
#include "hdl/core/core_ports.h"
#include "hdl/core/unit_decode.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

constexpr std::string_view kUnit = "dma_ld";

struct LdOp {
  const OpPattern* p = nullptr;
  std::string row_field, row_base;                          ///< first DRAM row
  std::string word_field, word_base;                        ///< packed word (column block)
  std::vector<std::pair<std::size_t, std::string>> sels;    ///< source index, condition (SV)
  std::vector<std::pair<std::size_t, std::string>> routes;  ///< route index, condition (SV)
  std::vector<std::string> sel_texts, route_texts;          ///< the conditions as the spec writes them
};

struct LdPlan {
  std::vector<OpPattern> patterns;
  std::vector<const Memory*> sources;  ///< in spec memory order: dram_rd_req_sel_o
  std::vector<std::string> routes;     ///< emit channels, in first-use order
  std::vector<LdOp> ops;
  std::set<std::string> used{"op", "steps"};
};

std::string cond_of(const RtlContext& ctx, const OpPattern& p, const Action& a) {
  return a.only_if ? ctx.sv_of(*a.only_if, *p.op, "instr") : "1'b1";
}
std::string text_of(const Action& a) { return a.only_if ? a.only_if->text() : ""; }

/// The disjunction of the actions' conditions ("1'b1" if one has none).
std::string any_of(const std::vector<std::pair<std::size_t, std::string>>& conds) {
  std::vector<std::string> parts;
  for (const auto& [i, c] : conds) {
    if (c == "1'b1") return c;
    parts.push_back(c);
  }
  return parts.size() == 1 ? parts.front() : fmt::format("({})", fmt::join(parts, " || "));
}

void plan_reads(const RtlContext& ctx, LdPlan& plan, const OpPattern& p, LdOp& op) {
  for (const Action* rd : p.reads) {
    const Memory* m = ctx.spec().memory(rd->state);
    if (!m || !m->dram || m->owner != kUnit)
      unsupported(kUnit, p.op->name, fmt::format("{} is not a DRAM matrix dma_ld owns", rd->state));
    if (m->dram->packed_word.empty())
      unsupported(kUnit, p.op->name, fmt::format("{} names no packed-word operand", m->name));
    if (p.reads.size() > 1 && !rd->only_if)
      unsupported(kUnit, p.op->name, "it reads more than one matrix, not all under a condition");
    const std::string row = base_field(ctx, kUnit, p, *rd);
    const Operand* word = p.op->operand(m->dram->packed_word);
    if (!word) unsupported(kUnit, p.op->name, fmt::format("it has no operand {}", m->dram->packed_word));
    if (!op.row_field.empty() && (op.row_field != row || op.word_field != word->field))
      unsupported(kUnit, p.op->name, "its reads address the matrices by different operands");
    op.row_field = row;
    op.row_base = rd->base;
    op.word_field = word->field;
    op.word_base = word->name;
    if (std::find(plan.sources.begin(), plan.sources.end(), m) == plan.sources.end()) plan.sources.push_back(m);
    op.sels.emplace_back(0, cond_of(ctx, p, *rd));  // index fixed once every source is known
    op.sel_texts.push_back(text_of(*rd));
    plan.used.insert(row);
    plan.used.insert(word->field);
    if (rd->only_if) add_fields_of(*p.op, *rd->only_if, plan.used);
    if (!items_match(ctx, kUnit, p, rd->items, p.emits.front()->items))
      unsupported(kUnit, p.op->name,
                  fmt::format("it reads {} rows and emits {}", rd->items.text(), p.emits.front()->items.text()));
  }
}

void plan_emits(const RtlContext& ctx, LdPlan& plan, const OpPattern& p, LdOp& op) {
  for (const Action* tx : p.emits) {
    const Channel& c = ctx.channel(tx->port);
    if (c.width != ctx.param("VW") || c.header_items != 0)
      unsupported(kUnit, p.op->name, fmt::format("{} does not carry plain operand rows", tx->port));
    if (p.emits.size() > 1 && !tx->only_if)
      unsupported(kUnit, p.op->name, "it emits on more than one channel, not all under a condition");
    auto it = std::find(plan.routes.begin(), plan.routes.end(), tx->port);
    if (it == plan.routes.end()) it = plan.routes.insert(plan.routes.end(), tx->port);
    op.routes.emplace_back(static_cast<std::size_t>(it - plan.routes.begin()), cond_of(ctx, p, *tx));
    op.route_texts.push_back(text_of(*tx));
    if (tx->only_if) add_fields_of(*p.op, *tx->only_if, plan.used);
  }
}

LdPlan plan_dma_ld(const RtlContext& ctx) {
  LdPlan plan;
  plan.patterns = unit_patterns(ctx, kUnit);
  if (plan.patterns.empty()) unsupported(kUnit, "-", "no opcode reaches it");
  for (const auto& p : plan.patterns) {
    if (p.reads.empty() || p.emits.empty() || !p.writes.empty() || !p.receives.empty())
      unsupported(kUnit, p.op->name, "dma_ld reads DRAM rows and emits them, and does nothing else");
    for (const Action* c : p.computes) {
      const Compute* comp = ctx.spec().compute(c->state);
      if (!comp || !comp->copy) unsupported(kUnit, p.op->name, fmt::format("compute {} is not a copy", c->state));
    }
    LdOp op;
    op.p = &p;
    plan_reads(ctx, plan, p, op);
    plan_emits(ctx, plan, p, op);
    plan.ops.push_back(op);
  }
  // Sources are numbered in spec memory order (A = 0, B = 1).
  std::vector<const Memory*> ordered;
  for (const auto& m : ctx.spec().memories)
    if (std::find(plan.sources.begin(), plan.sources.end(), &m) != plan.sources.end()) ordered.push_back(&m);
  plan.sources = ordered;
  if (plan.sources.size() > 2)
    unsupported(kUnit, plan.patterns.front().op->name, "dram_rd_req_sel_o selects between two matrices");
  for (auto& op : plan.ops) {
    std::size_t k = 0;
    for (const Action* rd : op.p->reads) {
      const Memory* m = ctx.spec().memory(rd->state);
      op.sels[k++].first = static_cast<std::size_t>(std::find(ordered.begin(), ordered.end(), m) - ordered.begin());
    }
  }
  return plan;
}

std::string sel_name(const Memory& m) { return "Sel" + camel(m.name); }
std::string route_name(const std::string& port) { return "Route" + camel(port); }

/// What the unit does for an opcode, as comment lines (without "// ").
std::vector<std::string> op_comment(const LdPlan& plan, const LdOp& op) {
  std::vector<std::string> from, to;
  for (std::size_t k = 0; k < op.sels.size(); ++k) {
    const std::string& m = plan.sources[op.sels[k].first]->name;
    from.push_back(op.sel_texts[k].empty() ? m : fmt::format("{} when {}", m, op.sel_texts[k]));
  }
  for (std::size_t k = 0; k < op.routes.size(); ++k) {
    const std::string& r = plan.routes[op.routes[k].first];
    to.push_back(op.route_texts[k].empty() ? r : fmt::format("{} when {}", r, op.route_texts[k]));
  }
  return {fmt::format("{}: rows {} + r, packed word {}, of", op.p->op->name, op.row_base, op.word_base),
          fmt::format("  {};", fmt::join(from, ", ")), fmt::format("  each row out on {}", fmt::join(to, ", "))};
}

std::string module_comment(const RtlContext& ctx, const LdPlan& plan) {
  std::string o =
      "\n// tpu_dma_ld: the dma_ld unit. Works through its instruction stream in\n"
      "// program order, one DRAM row a step, for `steps` steps an instruction\n"
      "// (counted on progress_o as each row leaves). Per opcode (from the actions\n"
      "// table):\n";
  for (const auto& op : plan.ops)
    for (const auto& line : op_comment(plan, op)) o += "//   " + line + "\n";
  std::vector<std::string> sels;
  for (std::size_t i = 0; i < plan.sources.size(); ++i)
    sels.push_back(fmt::format("{} = {}", i, plan.sources[i]->name));
  o += fmt::format("// dram_rd_req_sel_o: {}.\n", fmt::join(sels, ", "));
  o += ""
       "// Row r of a matrix row base and packed word w is requested at byte\n"
       "// address (base + r) * MAXDIM + w * T, aligned down to a multiple of\n"
       "// DMA_WORDS * T; the row is packed word (w % DMA_WORDS) of the\n"
       "// DMA_WORDS * VW-bit response.\n"
       "//\n"
       "// Pipelined: one request a cycle. Every request takes a credit, returned\n"
       "// when its row leaves the unit; QD credits, and the response FIFO holds QD\n"
       "// rows, so a response is always accepted and never dropped. Each\n"
       "// outstanding request carries its route and packed-word index in a tag\n"
       "// FIFO (responses come in request order). Rows leave in program order on\n"
       "// the channel their instruction selects. Sustained one row a cycle when QD\n"
       "// covers the round trip, QD >= memory latency + 3 (latency 0: the response\n"
       "// comes the cycle after the request's handshake); the next instruction's\n"
       "// requests follow the previous one's without a gap. A row leaves 4 cycles\n"
       "// plus the memory latency after its instruction's handshake.\n"
       "// An instruction whose conditions select no source or no channel is\n"
       "// consumed and ignored (the sequencer sends none).\n"
       "//\n"
       "// Parameters:\n";
  for (const char* p : {"T", "MAXDIM", "DMA_WORDS", "QD"})
    o += fmt::format("//   {:<10} {}\n", p, ctx.spec().parameter(p)->role);
  o += "//   VW         derived: bits of an operand row\n";
  return o;
}

std::string ports(const RtlContext& ctx, const LdPlan& plan) {
  std::vector<PortDecl> ps = head_ports();
  ps.push_back({"", "", "", "DRAM reads"});
  const std::vector<PortDecl> dram = interface_ports(ctx.spec(), "dram_rd");
  ps.insert(ps.end(), dram.begin(), dram.end());
  for (const auto& r : plan.routes) {
    auto ch = channel_ports(ctx.channel(r), false, "logic [VW-1:0]");
    ps.insert(ps.end(), ch.begin(), ch.end());
  }
  auto tail = tail_ports(progress_const(ctx, kUnit));
  ps.insert(ps.end(), tail.begin(), tail.end());
  return render_ports(ps);
}

/// `c0 ? v0 : c1 ? v1 : ... : fallback` over (index, condition) pairs.
std::string select(const std::vector<std::pair<std::size_t, std::string>>& conds,
                   const std::function<std::string(std::size_t)>& value, const std::string& fallback) {
  std::string o = fallback;
  for (auto it = conds.rbegin(); it != conds.rend(); ++it)
    o = it->second == "1'b1" ? value(it->first) : fmt::format("{} ? {} : {}", it->second, value(it->first), o);
  return o;
}

std::string decode(const RtlContext& ctx, const LdPlan& plan, const std::vector<CurField>& fields) {
  std::vector<DecodeArm> arms;
  for (const auto& op : plan.ops) {
    std::vector<std::string> from, to;
    for (const auto& [i, c] : op.sels) from.push_back(plan.sources[i]->name);
    for (const auto& [i, c] : op.routes) to.push_back(plan.routes[i]);
    DecodeArm arm{ctx.op_const(op.p->op->name),
                  fmt::format("{}: rows {} + r, packed word {}, of {} onto {}", op.p->op->name, op.row_base,
                              op.word_base, fmt::join(from, " / "), fmt::join(to, " / ")),
                  {}};
    arm.sets = {
        {"valid", fmt::format("{} && {}", any_of(op.sels), any_of(op.routes))},
        {"sel", select(
                    op.sels, [&](std::size_t i) { return sel_name(*plan.sources[i]); }, sel_name(*plan.sources[0]))},
        {"route",
         select(
             op.routes, [&](std::size_t i) { return route_name(plan.routes[i]); }, route_name(plan.routes[0]))},
        {"word", fmt::format("WordW'(32'(instr.{}) % 32'(DMA_WORDS))", op.word_field)},
        {"row", fmt::format("32'(instr.{}) * 32'(MAXDIM)", op.row_field)},
        {"col", fmt::format("(32'(instr.{0}) - 32'(instr.{0}) % 32'(DMA_WORDS)) * 32'(T)", op.word_field)}};
    arms.push_back(arm);
  }
  return render_decode(fields, arms);
}

std::string body(const RtlContext& ctx, const LdPlan& plan) {
  std::string o;
  o += "  // Requests, their tags and the rows (u_rd, the hand-written tpu_dma_rd).\n"
       "  tpu_dma_rd #(\n"
       "    .VW       (VW),\n"
       "    .DMA_WORDS(DMA_WORDS),\n"
       "    .QD       (QD),\n"
       "    .RouteW   (RouteW)\n"
       "  ) u_rd (\n"
       "    .clk_i,\n"
       "    .rst_ni,\n"
       "    .en_i       (cur_valid),\n"
       "    .sel_i      (cur_sel),\n"
       "    .addr_i     (cur_row + cur_col),\n"
       "    .route_i    (cur_route),\n"
       "    .word_i     (cur_word),\n"
       "    .step_o     (step),\n" +
       connect_by_name(interface_ports(ctx.spec(), "dram_rd")) +
       "    .out_valid_o(out_valid),\n"
       "    .out_ready_i(out_take),\n"
       "    .out_route_o(out_route),\n"
       "    .out_row_o  (out_row),\n"
       "    .out_pop_o  (out_pop),\n"
       "    .idle_o     (rd_idle)\n"
       "  );\n\n"
       "  // Each row leaves on its route's channel.\n";
  std::vector<std::string> takes;
  for (const auto& r : plan.routes) takes.push_back(fmt::format("((out_route == {}) && {}_ready_i)", route_name(r), r));
  o += fmt::format("  assign out_take = {};\n", fmt::join(takes, " || "));
  for (const auto& r : plan.routes)
    o += fmt::format(
        "  assign {0}_valid_o = out_valid && (out_route == {1});\n"
        "  assign {0}_data_o  = out_row;\n",
        r, route_name(r));
  return o;
}

}  // namespace

std::string emit_tpu_dma_ld(const RtlContext& ctx) {
  const LdPlan plan = plan_dma_ld(ctx);
  const std::vector<CurField> fields = {
      {"sel", "1", sel_name(*plan.sources.front()), "", "the matrix it reads"},
      {"route", "RouteW", route_name(plan.routes.front()), "", "the channel its rows leave on"},
      {"word", "WordW", "'0", "", "packed word within a response"},
      {"row", "32", "'0", "cur_row + 32'(MAXDIM)", "byte address of the next row"},
      {"col", "32", "'0", "", "byte offset of the aligned column block"}};

  std::string o = ctx.file_header("tpu_dma_ld", "dma_ld: operand rows from A and B");
  o += module_comment(ctx, plan);
  o += "module tpu_dma_ld #(\n";
  o += render_params(ctx, {"T", "MAXDIM", "DMA_WORDS", "QD"},
                     {ctx.spec().parameter("T")->role, ctx.spec().parameter("MAXDIM")->role,
                      ctx.spec().parameter("DMA_WORDS")->role, ctx.spec().parameter("QD")->role});
  o += ") (\n" + ports(ctx, plan) + ");\n\n";

  o += "  localparam int WordW   = (DMA_WORDS > 1) ? $clog2(DMA_WORDS) : 1;  // packed word index bits\n";
  o += fmt::format("  localparam int NRoutes = {};  // output channels\n", plan.routes.size());
  o += "  localparam int RouteW  = (NRoutes > 1) ? $clog2(NRoutes) : 1;\n\n";
  for (std::size_t i = 0; i < plan.sources.size(); ++i)
    o += fmt::format("  localparam logic {} = 1'b{};  // dram_rd_req_sel_o for {}\n", sel_name(*plan.sources[i]), i,
                     plan.sources[i]->name);
  for (std::size_t i = 0; i < plan.routes.size(); ++i)
    o += fmt::format("  localparam logic [RouteW-1:0] {} = RouteW'({});\n", route_name(plan.routes[i]), i);
  o += "\n" + render_skeleton_decls(fields);
  o += render_instr_fields(ctx, plan.used);
  o += "\n  // The rows of u_rd, with their routes.\n"
       "  logic              out_valid, out_take, out_pop, rd_idle;\n"
       "  logic [RouteW-1:0] out_route;\n"
       "  logic [VW-1:0]     out_row;\n\n";
  o += decode(ctx, plan, fields) + "\n";
  o += render_skeleton_logic(fields) + "\n";
  o += body(ctx, plan) + "\n";
  o += render_progress({"out_pop"}) + "\n";
  o += "  assign idle_o = !cur_valid && rd_idle;\n";
  o += "\nendmodule\n";
  return o;
}

}  // namespace tpugen::hdl
