// tpu_dma_st: result rows to the DRAM matrix C. Per opcode from dma_st's
// actions: a receive on one channel (ac2sp) and a write of a DRAM matrix the
// unit owns, at the write's base operand (the first DRAM row) and the
// memory's packed_word operand (the column block).
#include <fmt/format.h>

#include "hdl/emitters.h"
#include "hdl/core/core_ports.h"
#include "hdl/core/unit_decode.h"

namespace tpugen::hdl {

namespace {

constexpr std::string_view kUnit = "dma_st";

struct StOp {
  const OpPattern* p = nullptr;
  std::string row_field, row_base, word_field, word_base, cond, cond_text;
};

struct StPlan {
  std::vector<OpPattern> patterns;
  std::string port;  ///< the one channel rows arrive on
  const Memory* mem = nullptr;
  std::vector<StOp> ops;
  std::set<std::string> used{"op", "steps"};
};

StPlan plan_dma_st(const RtlContext& ctx) {
  StPlan plan;
  plan.patterns = unit_patterns(ctx, kUnit);
  if (plan.patterns.empty()) unsupported(kUnit, "-", "no opcode reaches it");
  for (const auto& p : plan.patterns) {
    if (p.receives.size() != 1 || p.writes.size() != 1 || !p.reads.empty() || !p.emits.empty() || !p.computes.empty())
      unsupported(kUnit, p.op->name, "dma_st receives rows on one channel and writes them to DRAM, nothing else");
    const Action& rx = *p.receives.front();
    const Action& wr = *p.writes.front();
    const Memory* m = ctx.spec().memory(wr.state);
    if (!m || !m->dram || m->owner != kUnit || m->dram->packed_word.empty())
      unsupported(kUnit, p.op->name,
                  fmt::format("{} is not a DRAM matrix dma_st owns, addressed by packed word", wr.state));
    if ((plan.mem && plan.mem != m) || (!plan.port.empty() && plan.port != rx.port))
      unsupported(kUnit, p.op->name, "dma_st writes one matrix from one channel");
    plan.mem = m;
    plan.port = rx.port;
    const Channel& c = ctx.channel(rx.port);
    if (c.width != ctx.param("VW") || c.header_items != 0)
      unsupported(kUnit, p.op->name, fmt::format("{} does not carry plain operand rows", rx.port));
    if (!items_match(ctx, kUnit, p, rx.items, wr.items))
      unsupported(kUnit, p.op->name,
                  fmt::format("it receives {} rows and writes {}", rx.items.text(), wr.items.text()));
    const Operand* word = p.op->operand(m->dram->packed_word);
    if (!word) unsupported(kUnit, p.op->name, fmt::format("it has no operand {}", m->dram->packed_word));
    StOp op{&p,
            base_field(ctx, kUnit, p, wr),
            wr.base,
            word->field,
            word->name,
            shared_condition(ctx, kUnit, p),
            wr.only_if ? wr.only_if->text() : ""};
    plan.used.insert(op.row_field);
    plan.used.insert(op.word_field);
    if (wr.only_if) add_fields_of(*p.op, *wr.only_if, plan.used);
    plan.ops.push_back(op);
  }
  return plan;
}

std::string op_comment(const StPlan& plan, const StOp& op) {
  std::string s = fmt::format("{}: receive {}, write {} row {} + r, packed word {}", op.p->op->name, plan.port,
                              plan.mem->name, op.row_base, op.word_base);
  if (!op.cond_text.empty()) s += fmt::format(" (when {})", op.cond_text);
  return s;
}

std::string module_comment(const RtlContext& ctx, const StPlan& plan) {
  std::string o =
      "\n// tpu_dma_st: the dma_st unit. Works through its instruction stream in\n"
      "// program order, one row a step. Per opcode (from the actions table):\n";
  for (const auto& op : plan.ops) o += "//   " + op_comment(plan, op) + "\n";
  o += fmt::format(
      "// Row r is packed word (base + r) * (MAXDIM / T) + w of {0}, at byte\n"
      "// address ((base + r) * MAXDIM + w * T). A write request carries one\n"
      "// aligned beat of CBeat packed words: the row sits in its slot (the word\n"
      "// index modulo CBeat; the data repeats it in every slot) and the byte\n"
      "// strobes select that slot's T bytes. A step is counted on progress_o\n"
      "// when its write is acknowledged, so progress_o reaching the header count\n"
      "// means every write has landed.\n"
      "//\n"
      "// Pipelined: a row is taken from {1} into the request register each cycle\n"
      "// the register is free; writes run ahead of their acknowledgements by at\n"
      "// most MaxWrites (16, in u_wr; counting the one in the request register): one row\n"
      "// a cycle while each acknowledgement comes within MaxWrites - 2 cycles of\n"
      "// its request's handshake (memory latency up to 13, where latency 0 is an\n"
      "// acknowledgement in the next cycle). The next instruction's rows follow\n"
      "// the previous one's without a gap.\n"
      "// An instruction whose condition does not hold is consumed and ignored.\n"
      "//\n"
      "// Parameters:\n",
      plan.mem->name, plan.port);
  for (const char* p : {"T", "MAXDIM"}) o += fmt::format("//   {:<10} {}\n", p, ctx.spec().parameter(p)->role);
  o += "//   CBeat      packed words per C write beat (a power of two)\n";
  o += "//   VW         derived: bits of an operand row\n";
  return o;
}

std::string ports(const RtlContext& ctx, const StPlan& plan) {
  std::vector<PortDecl> ps = head_ports();
  auto ch = channel_ports(ctx.channel(plan.port), true, "logic [VW-1:0]");
  ps.insert(ps.end(), ch.begin(), ch.end());
  ps.push_back({"", "", "", fmt::format("DRAM writes to {}", plan.mem->name)});
  const std::vector<PortDecl> dram = interface_ports(ctx.spec(), "dram_wr");
  ps.insert(ps.end(), dram.begin(), dram.end());
  auto tail = tail_ports(progress_const(ctx, kUnit));
  ps.insert(ps.end(), tail.begin(), tail.end());
  return render_ports(ps);
}

std::string decode(const RtlContext& ctx, const StPlan& plan, const std::vector<CurField>& fields) {
  std::vector<DecodeArm> arms;
  for (const auto& op : plan.ops) {
    DecodeArm arm{ctx.op_const(op.p->op->name), op_comment(plan, op), {}};
    arm.sets = {{"valid", op.cond},
                {"row", fmt::format("32'(instr.{}) * 32'(MAXDIM / T)", op.row_field)},
                {"col", fmt::format("32'(instr.{})", op.word_field)}};
    arms.push_back(arm);
  }
  return render_decode(fields, arms);
}

}  // namespace

std::string emit_tpu_dma_st(const RtlContext& ctx) {
  const StPlan plan = plan_dma_st(ctx);
  const std::string& in = plan.port;
  const std::vector<CurField> fields = {
      {"row", "32", "'0", "cur_row + 32'(MAXDIM / T)", "packed word index of the next row's start"},
      {"col", "32", "'0", "", "packed word offset of the column block"}};

  std::string o = ctx.file_header("tpu_dma_st", "dma_st: result rows to C");
  o += module_comment(ctx, plan);
  o += "module tpu_dma_st #(\n";
  o += render_params(ctx, {"T", "MAXDIM"}, {ctx.spec().parameter("T")->role, ctx.spec().parameter("MAXDIM")->role},
                     {{"CBeat", ctx.options().c_beat_words, "packed words per C write beat, a power of two"}});
  o += ") (\n" + ports(ctx, plan) + ");\n\n";
  o += render_skeleton_decls(fields);
  o += render_instr_fields(ctx, plan.used);
  o += "\n  // The DRAM writes (u_wr, the hand-written tpu_dma_wr).\n"
       "  logic ack, wr_idle;\n\n";
  o += decode(ctx, plan, fields) + "\n";
  o += fmt::format(
      "  // A step takes a row from {0} into the write request register.\n"
      "  tpu_dma_wr #(\n"
      "    .T    (T),\n"
      "    .CBeat(CBeat),\n"
      "    .VW   (VW)\n"
      "  ) u_wr (\n"
      "    .clk_i,\n"
      "    .rst_ni,\n"
      "    .en_i   (cur_valid),\n"
      "    .word_i (cur_row + cur_col),\n"
      "    .valid_i({0}_valid_i),\n"
      "    .ready_o({0}_ready_o),\n"
      "    .data_i ({0}_data_i),\n"
      "    .step_o (step),\n"
      "{1}"
      "    .ack_o  (ack),\n"
      "    .idle_o (wr_idle)\n"
      "  );\n\n",
      in, connect_by_name(interface_ports(ctx.spec(), "dram_wr")));
  o += render_skeleton_logic(fields) + "\n";
  o += render_progress({"ack"}) + "\n";
  o += "  assign idle_o = !cur_valid && wr_idle;\n";
  o += "\nendmodule\n";
  return o;
}

}  // namespace tpugen::hdl
