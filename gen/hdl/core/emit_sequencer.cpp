// tpu_sequencer: imem fetch, header, loop stack, AGU, dispatch, completion
// and faults. Everything spec-specific (the dispatched units and what reaches
// them, the steps each unit is charged, the loop opcodes, the progress
// counters and their units) is derived here from the actions table; the SV
// names bit positions and opcode numbers only through tpu_pkg.
#include <fmt/format.h>

#include <algorithm>

#include "isa/derive.h"
#include "hdl/emitters.h"
#include "hdl/core/core_ports.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

[[noreturn]] void unsupported(const std::string& what) {
  throw Error("rtl.unsupported", fmt::format("tpu_sequencer: {}", what));
}

/// One opcode reaching a dispatched unit.
struct DispatchCase {
  const Opcode* opcode = nullptr;
  std::string when_sv;   ///< over the resolved operands (cur_f0 ..)
  std::string when_txt;  ///< the spec's only_if text, for the comment
  std::string steps_sv;  ///< the unit's steps, CountW bits
  std::string steps_txt;
};

struct DispatchUnit {
  std::string name;
  std::vector<DispatchCase> cases;
};

/// A header entry that counts a unit's work.
struct ProgressEntry {
  std::string name;  ///< the header entry (PROGRESS_<NAME>, HDR_<NAME>_*)
  std::string unit;  ///< the unit owning the counter
  std::string meaning;
};

/// Everything the sequencer needs from the spec, derived and validated.
struct SeqPlan {
  std::string seq_unit;  ///< the unit fed from imem
  const Opcode* loop = nullptr;
  const Opcode* endloop = nullptr;
  std::vector<const Opcode*> known, retired;
  std::vector<const Field*> operand_fields;  ///< the AGU targets f0..f3, in spec order
  std::string count_entry;                   ///< the header entry holding the static count
  std::vector<DispatchUnit> units;
  std::vector<ProgressEntry> progress;
};

/// Classify loop and endloop by their sequencer actions (push_loop, pop_loop).
void classify_control(const Spec& spec, SeqPlan& plan) {
  for (const auto& op : spec.opcodes) {
    bool seq = false, other = false;
    for (const Action* a : spec.actions_of(op.name)) {
      if (a->unit != plan.seq_unit) {
        other = true;
        continue;
      }
      seq = true;
      const bool push = a->kind == ActionKind::Compute && a->state == "push_loop";
      const bool pop = a->kind == ActionKind::Compute && a->state == "pop_loop";
      if (!push && !pop)
        unsupported(fmt::format("{} has a {} action '{}' the sequencer does not implement", op.name, plan.seq_unit,
                                a->state));
      const Opcode*& slot = push ? plan.loop : plan.endloop;
      if (slot && slot != &op) unsupported(fmt::format("both {} and {} {}", slot->name, op.name, a->state));
      slot = &op;
    }
    if (seq && other) unsupported(fmt::format("{} is both sequencer control flow and unit work", op.name));
  }
  if (!plan.loop || !plan.endloop) unsupported("the spec has no push_loop/pop_loop opcode pair");
}

/// The SV name of a spec name in a condition or steps form over the
/// instruction being issued.
std::string resolved_name(const Opcode& op, std::string_view name) {
  if (name == "nr") return "cur_nr";
  if (const Operand* o = op.operand(name)) return "cur_" + o->field;
  if (name == "T") return "T";
  unsupported(fmt::format("{} names '{}', which is not a parameter of tpu_sequencer", op.name, name));
}

/// A cost form c + a*nr + b*T as CountW-bit SV over cur_nr and T.
std::string steps_sv(const LinearForm& f, int count_w) {
  if (f.constant < 0 || f.per_nr < 0 || f.per_t < 0) unsupported(fmt::format("a negative steps form '{}'", f.text()));
  std::vector<std::string> parts;
  auto term = [&](std::int64_t k, const char* name) {
    if (k == 0) return;
    const std::string v = fmt::format("{}'({})", count_w, name);
    parts.push_back(k == 1 ? v : fmt::format("{} * {}'d{}", v, count_w, k));
  };
  term(f.per_nr, "cur_nr");
  term(f.per_t, "T");
  if (f.constant != 0 || parts.empty()) parts.push_back(fmt::format("{}'d{}", count_w, f.constant));
  return fmt::format("{}", fmt::join(parts, " + "));
}

DispatchUnit plan_unit(const RtlContext& ctx, const Unit& unit, const SeqPlan& plan,
                       const std::vector<CostEntry>& costs) {
  DispatchUnit du{unit.name, {}};
  for (const UnitUse& use : ctx.uses(unit.name, "cur")) {
    const Opcode& op = *use.opcode;
    if (op.retired) continue;  // faults before dispatch
    if (&op == plan.loop || &op == plan.endloop) unsupported(fmt::format("{} reaches {}", op.name, unit.name));
    DispatchCase dc;
    dc.opcode = &op;
    bool always = false;
    std::vector<std::string> conds, texts;
    for (const Action* a : use.actions) {
      if (!a->only_if) {
        always = true;
        continue;
      }
      const std::string c = a->only_if->render_sv([&](std::string_view n) { return resolved_name(op, n); });
      if (std::find(conds.begin(), conds.end(), c) != conds.end()) continue;
      conds.push_back(c);
      texts.push_back(a->only_if->text());
    }
    dc.when_sv = always || conds.empty() ? "1'b1" : fmt::format("{}", fmt::join(conds, " || "));
    dc.when_txt = always || conds.empty() ? "" : fmt::format(" when {}", fmt::join(texts, " or "));
    auto it = std::find_if(costs.begin(), costs.end(),
                           [&](const CostEntry& e) { return e.opcode == op.name && e.unit == unit.name; });
    if (it == costs.end() || !it->form)
      unsupported(fmt::format("{} costs {} a count that is not linear in nr and T", op.name, unit.name));
    dc.steps_sv = steps_sv(*it->form, ctx.count_width());
    dc.steps_txt = it->form->text();
    du.cases.push_back(std::move(dc));
  }
  return du;
}

SeqPlan plan_sequencer(const RtlContext& ctx) {
  const Spec& spec = ctx.spec();
  SeqPlan plan;
  for (const auto& u : spec.units)
    if (u.instructions_from == "imem") plan.seq_unit = u.name;
  if (plan.seq_unit.empty()) unsupported("no unit takes its instructions from imem");
  classify_control(spec, plan);
  for (const auto& op : spec.opcodes) (op.retired ? plan.retired : plan.known).push_back(&op);
  for (const auto& f : spec.word0)
    if (f.agu_target) plan.operand_fields.push_back(&f);
  if ((std::int64_t{1} << spec.term.subfield("level").width) < ctx.param("LOOP_DEPTH"))
    unsupported("the term's level field cannot name every loop level");

  const auto costs = cost_table(ctx.isa());
  for (const Unit* u : ctx.dispatched_units()) plan.units.push_back(plan_unit(ctx, *u, plan, costs));
  // Every opcode with work must reach a dispatched unit: the others are fed
  // by channels, and an opcode reaching only them would never start.
  for (const auto& op : spec.opcodes) {
    if (op.retired || &op == plan.loop || &op == plan.endloop || spec.actions_of(op.name).empty()) continue;
    const bool reached = std::any_of(plan.units.begin(), plan.units.end(), [&](const DispatchUnit& du) {
      return std::any_of(du.cases.begin(), du.cases.end(), [&](const DispatchCase& c) { return c.opcode == &op; });
    });
    if (!reached) unsupported(fmt::format("{} reaches no dispatched unit", op.name));
  }

  for (const auto& h : spec.header) {
    if (h.count.kind == HeaderCount::Static) {
      if (!plan.count_entry.empty()) unsupported("two static instruction counts in the header");
      plan.count_entry = h.name;
    } else if (h.count.kind == HeaderCount::UnitSteps || h.count.kind == HeaderCount::PortItems) {
      if (h.width > ctx.count_width())
        unsupported(fmt::format("header entry {} is wider than a progress counter", h.name));
      plan.progress.push_back({h.name, h.count.unit, h.meaning});
    }
  }
  if (plan.count_entry.empty()) unsupported("the header has no static instruction count");
  return plan;
}

// --- Emission -----------------------------------------------------------------

std::string module_comment(const SeqPlan& plan) {
  std::string o = R"(
// The spec-independent parts are hand-written modules this one instantiates:
// the fetch (u_fetch, tpu_seq_fetch: imem beats, the header words, the
// instruction buffer, the instructions at pc and pc + 1), the AGU (u_agu,
// tpu_seq_agu), the issue control and loop stack (u_issue, tpu_seq_issue)
// and the run state, faults and watchdog (u_run, tpu_seq_run). What is
// written here is what the spec decides: which opcodes are known, retired,
// loop and endloop; which operand field each AGU target adds to; which
// units an instruction reaches, with how many steps; and which header
// counts the progress counters are held to.
//
// Dispatch. Each unit has a one-entry output register (u_<unit>_out, the
// hand-written tpu_out_reg; valid never depends on ready). An instruction
// goes, with the unit's steps, to every unit whose actions are active for the
// resolved operands, and only when every one of them has room: all or
// nothing. loop, endloop and an opcode without actions dispatch nothing.
//
// Completion. done_o rises when pc has passed the last instruction with no
// loop open, every output register is empty, idle_i is high and every
// progress counter equals its header count; it holds until the next start.
// A counter past its header count (FAULT_OVERRUN) or short of it when all is
// idle (FAULT_STARVED), or a hang, names the unit owning the first such
// counter in fault_unit_o (the sequencer when none is short). cycles_o counts
// the cycles of the run.
//
// Dispatched units: )";
  std::vector<std::string> names;
  for (const auto& u : plan.units) names.push_back(u.name);
  o += fmt::format("{}.\n", fmt::join(names, ", "));
  o += R"(//
// Parameters:
//   T          SIMD width (the steps of some rewrites depend on it)
//   IMEM_SIZE  instruction memory depth in 64-bit words, header included
//   ImemBeat   64-bit words per imem beat
//   Watchdog   cycles without activity while busy before FAULT_HANG
)";
  return o;
}

std::string ports(const RtlContext& ctx, const SeqPlan& plan) {
  std::string o = fmt::format(R"(module tpu_sequencer #(
  parameter int T         = {},
  parameter int IMEM_SIZE = {},
  parameter int ImemBeat  = {},
  parameter int Watchdog  = {}
) (
)",
                              ctx.param("T"), ctx.param("IMEM_SIZE"), ctx.options().imem_beat_words,
                              ctx.options().watchdog_cycles);
  std::vector<PortDecl> ps = {{"input", "logic", "clk_i", "clock"},
                              {"input", "logic", "rst_ni", "asynchronous reset, active low"},
                              {"", "", "", "Run control and status."},
                              {"output", "logic", "clear_o", "a start was taken: units clear progress"}};
  for (const char* itf : {"status", "imem"}) {
    if (std::string_view(itf) == "imem") ps.push_back({"", "", "", fmt::format("imem: {}.", ctx.spec().interface(itf).role)});
    for (const PortDecl& p : interface_ports(ctx.spec(), itf)) ps.push_back(p);
  }
  for (const auto& u : plan.units) {
    ps.push_back({"", "", "", fmt::format("Dispatch to {} (tpu_pkg::instr_t, flat).", u.name)});
    ps.push_back({"output", "logic", u.name + "_instr_valid_o", ""});
    ps.push_back({"input", "logic", u.name + "_instr_ready_i", ""});
    ps.push_back({"output", "logic [tpu_pkg::INSTR_W-1:0]", u.name + "_instr_o", ""});
  }
  ps.push_back({"", "", "", "Completion: progress per counter, all units idle, anything moving this cycle."});
  ps.push_back({"input", "logic [tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W-1:0]", "progress_i", ""});
  ps.push_back({"input", "logic", "idle_i", ""});
  ps.push_back({"input", "logic", "activity_i", ""});
  return o + render_ports(ps) + ");\n";
}

std::string declarations(const SeqPlan& plan) {
  std::string o = fmt::format(R"(
  localparam int WordW     = tpu_pkg::WORD_W;
  localparam int InstrBits = tpu_pkg::IWORDS * WordW;  // one instruction in imem
  localparam int NInstrMax = (IMEM_SIZE - tpu_pkg::NHDR) / tpu_pkg::IWORDS;
  localparam int AguBits   = tpu_pkg::AGU_TERMS * tpu_pkg::TERM_W;
  localparam int PcW       = $clog2(NInstrMax + 1);
  localparam int DepthW    = $clog2(tpu_pkg::LOOP_DEPTH + 1);
  localparam int OpW       = tpu_pkg::FLD_OP_W;
  localparam int NrW       = tpu_pkg::FLD_NR_W;
  localparam int FieldW    = tpu_pkg::FIELD_W;
  localparam int CountW    = tpu_pkg::COUNT_W;
  localparam int InstrW    = tpu_pkg::INSTR_W;
  localparam int NTargets  = 2 ** tpu_pkg::TERM_TARGET_W;
  // The header entry holding the static instruction count (for the fetch).
  localparam int CountWord = tpu_pkg::HDR_{0}_WORD;
  localparam int CountLsb  = tpu_pkg::HDR_{0}_LSB;
  localparam int CountBits = tpu_pkg::HDR_{0}_W;

  // Run state (u_run) and issue state (u_issue).
  logic                               busy, start_fire, stop;
  logic [PcW-1:0]                     pc;
  logic [DepthW-1:0]                  depth;
  logic [tpu_pkg::LOOP_DEPTH*NrW-1:0] stack_iv;
  logic [tpu_pkg::FAULT_W-1:0]        cur_fault;
  logic                               issue, ctl_loop, ctl_endloop;

  assign start_fire = start_i && !busy;
  assign clear_o    = start_fire;
)",
                              upper(plan.count_entry));
  o += "\n  // Per dispatched unit: reached, its steps, and the output register.\n";
  for (const auto& u : plan.units)
    o += fmt::format(R"(  logic                        {0}_take, {0}_valid;
  logic [CountW-1:0]           {0}_steps;
  logic [tpu_pkg::INSTR_W-1:0] {0}_instr;
)",
                     u.name);
  return o;
}

std::string fetch_section(const Spec& spec) {
  // The fetch is hand-written (rtl/core/tpu_seq_fetch.sv); what the spec
  // decides is where the header holds the instruction count.
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Fetch (tpu_seq_fetch): imem beats, the header words, the instruction
  // buffer, and the instructions at pc and pc + 1.
  // ---------------------------------------------------------------------------
  logic                           count_known, hdr_known, fetch_active;
  logic [CountBits-1:0]           n_instr;
  logic [tpu_pkg::NHDR*WordW-1:0] hdr_words;
  logic [InstrBits-1:0]           cur_raw, next_raw;
  logic                           cur_valid, next_valid;

  tpu_seq_fetch #(
    .IMEM_SIZE(IMEM_SIZE),
    .ImemBeat (ImemBeat),
    .CountWord(CountWord),
    .CountLsb (CountLsb),
    .CountBits(CountBits)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .start_i         (start_fire),
    .busy_i          (busy),
)" + connect_by_name(interface_ports(spec, "imem")) + R"(    .count_known_o   (count_known),
    .hdr_known_o     (hdr_known),
    .n_instr_o       (n_instr),
    .hdr_words_o     (hdr_words),
    .active_o        (fetch_active),
    .pc_i            (pc),
    .cur_raw_o       (cur_raw),
    .cur_valid_o     (cur_valid),
    .next_raw_o      (next_raw),
    .next_valid_o    (next_valid)
  );
  assign header_o = hdr_words;
)";
  return o;
}

std::string decode_section(const RtlContext& ctx, const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Decode the instruction at pc (and the opcode and terms at pc + 1).
  // ---------------------------------------------------------------------------
  logic [AguBits-1:0] cur_agu, next_agu;  // word 1: the AGU terms
  logic [OpW-1:0]     cur_op, next_op;
  logic [NrW-1:0]     cur_nr;
  logic               cur_known, cur_retired, cur_loop, cur_endloop, next_endloop;
  logic               unused_raw;

  assign cur_agu    = cur_raw[WordW +: AguBits];
  assign next_agu   = next_raw[WordW +: AguBits];
  assign cur_op     = cur_raw[tpu_pkg::FLD_OP_LSB +: OpW];
  assign next_op    = next_raw[tpu_pkg::FLD_OP_LSB +: OpW];
  assign cur_nr     = cur_raw[tpu_pkg::FLD_NR_LSB +: NrW];
  // The spare bits of both words, and the fields and strides of pc + 1,
  // are not needed.
  assign unused_raw = ^{cur_raw, next_raw, next_agu};

  // Opcodes the spec defines; retired ones fault.
  always_comb begin
    cur_known   = 1'b1;
    cur_retired = 1'b0;
    unique case (cur_op)
)";
  std::vector<std::string> known;
  for (const Opcode* op : plan.known) known.push_back(ctx.op_const(op->name));
  o += fmt::format("      {}: cur_known = 1'b1;\n", fmt::join(known, ",\n      "));
  for (const Opcode* op : plan.retired)
    o += fmt::format("      {}: cur_retired = 1'b1;  // retired\n", ctx.op_const(op->name));
  o += fmt::format(R"(      default: cur_known = 1'b0;
    endcase
  end
  assign cur_loop     = cur_op == {};
  assign cur_endloop  = cur_op == {};
  assign next_endloop = next_op == {};
)",
                   ctx.op_const(plan.loop->name), ctx.op_const(plan.endloop->name),
                   ctx.op_const(plan.endloop->name));
  return o;
}

std::string agu_section(const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // AGU (tpu_seq_agu): each operand field plus the terms that target it.
  // ---------------------------------------------------------------------------
  logic [NTargets*FieldW-1:0] agu_add;
  logic                       cur_term_bad, next_term_bad;
  logic                       unused_agu_add;  // the targets no operand field takes

  tpu_seq_agu u_agu (
    .cur_agu_i (cur_agu),
    .next_agu_i(next_agu),
    .iv_i      (stack_iv),
    .depth_i   (depth),
    .add_o     (agu_add),
    .cur_bad_o (cur_term_bad),
    .next_bad_o(next_term_bad)
  );

  // The resolved operand fields.
)";
  std::vector<std::string> names, bases;
  for (const Field* f : plan.operand_fields) {
    names.push_back("cur_" + f->name);
    bases.push_back("base_" + f->name);
  }
  o += fmt::format("  logic [FieldW-1:0] {};\n  logic [FieldW-1:0] {};\n\n", fmt::join(bases, ", "),
                   fmt::join(names, ", "));
  for (const Field* f : plan.operand_fields)
    o += fmt::format("  assign base_{0} = FieldW'(cur_raw[tpu_pkg::FLD_{1}_LSB +: tpu_pkg::FLD_{1}_W]);\n", f->name,
                     upper(f->name));
  o += "\n";
  for (const Field* f : plan.operand_fields)
    o += fmt::format("  assign cur_{0} = base_{0} + agu_add[tpu_pkg::TARGET_{1}*FieldW +: FieldW];\n", f->name,
                     upper(f->name));
  o += "  assign unused_agu_add = ^agu_add;\n";
  return o;
}

std::string control_section(const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Issue (tpu_seq_issue): decode faults, all-or-nothing dispatch, the loop
  // stack and pc.
  // ---------------------------------------------------------------------------
  logic all_room, outputs_empty, dispatch_fire;

)";
  std::vector<std::string> room, empty, fire;
  for (const auto& u : plan.units) {
    room.push_back(fmt::format("(!{0}_take || !{0}_valid || {0}_instr_ready_i)", u.name));
    empty.push_back(fmt::format("!{}_valid", u.name));
    fire.push_back(fmt::format("({0}_valid && {0}_instr_ready_i)", u.name));
  }
  o += fmt::format("  assign all_room      = {};\n", fmt::join(room, " &&\n                         "));
  o += fmt::format("  assign outputs_empty = {};\n", fmt::join(empty, " && "));
  o += fmt::format("  assign dispatch_fire = {};\n", fmt::join(fire, " ||\n                         "));
  o += R"(
  tpu_seq_issue #(
    .NInstrMax(NInstrMax)
  ) u_issue (
    .clk_i,
    .rst_ni,
    .start_i        (start_fire),
    .stop_i         (stop),
    .cur_valid_i    (cur_valid),
    .cur_known_i    (cur_known),
    .cur_retired_i  (cur_retired),
    .cur_loop_i     (cur_loop),
    .cur_endloop_i  (cur_endloop),
    .cur_term_bad_i (cur_term_bad),
    .cur_nr_i       (cur_nr),
    .all_room_i     (all_room),
    .next_valid_i   (next_valid),
    .next_endloop_i (next_endloop),
    .next_term_bad_i(next_term_bad),
    .cur_fault_o    (cur_fault),
    .issue_o        (issue),
    .loop_o         (ctl_loop),
    .endloop_o      (ctl_endloop),
    .pc_o           (pc),
    .depth_o        (depth),
    .iv_o           (stack_iv)
  );
)";
  return o;
}

std::string dispatch_section(const RtlContext& ctx, const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Dispatch: per unit, whether the instruction reaches it (the only_if
  // conditions of its actions over the resolved operands) and its steps.
  // ---------------------------------------------------------------------------
  logic [tpu_pkg::INSTR_W-1:0] cur_instr;  // instr_t, steps zero

  assign cur_instr[tpu_pkg::INSTR_OP_LSB +: OpW] = cur_op;
)";
  for (const Field* f : plan.operand_fields)
    o += fmt::format("  assign cur_instr[tpu_pkg::INSTR_{}_LSB +: FieldW] = cur_{};\n", upper(f->name), f->name);
  o += "  assign cur_instr[tpu_pkg::INSTR_NR_LSB +: NrW] = cur_nr;\n"
       "  assign cur_instr[tpu_pkg::INSTR_STEPS_LSB +: CountW] = '0;\n";

  for (const auto& u : plan.units) {
    o += fmt::format("\n  // {}:\n", u.name);
    for (const auto& c : u.cases)
      o += fmt::format("  //   {}{}, steps {}\n", c.opcode->name, c.when_txt, c.steps_txt);
    o += fmt::format(R"(  always_comb begin
    {0}_take  = 1'b0;
    {0}_steps = '0;
    unique case (cur_op)
)",
                     u.name);
    // Opcodes with the same condition and steps share a case item.
    std::vector<bool> done(u.cases.size(), false);
    for (std::size_t i = 0; i < u.cases.size(); ++i) {
      if (done[i]) continue;
      std::vector<std::string> labels;
      for (std::size_t j = i; j < u.cases.size(); ++j)
        if (!done[j] && u.cases[j].when_sv == u.cases[i].when_sv && u.cases[j].steps_sv == u.cases[i].steps_sv) {
          labels.push_back(ctx.op_const(u.cases[j].opcode->name));
          done[j] = true;
        }
      o += fmt::format(R"(      {1}: begin
        {0}_take  = {2};
        {0}_steps = {3};
      end
)",
                       u.name, fmt::join(labels, ", "), u.cases[i].when_sv, u.cases[i].steps_sv);
    }
    o += fmt::format(R"(      default: ;
    endcase
  end
  assign {0}_instr = cur_instr | (InstrW'({0}_steps) << tpu_pkg::INSTR_STEPS_LSB);

  // The output register (all_room: loaded only when it has room).
  tpu_out_reg #(
    .Width(InstrW)
  ) u_{0}_out (
    .clk_i,
    .rst_ni,
    .load_i (issue && {0}_take),
    .data_i ({0}_instr),
    .valid_o({0}_valid),
    .ready_i({0}_instr_ready_i),
    .data_o ({0}_instr_o)
  );
  assign {0}_instr_valid_o = {0}_valid;
)",
                     u.name);
  }
  return o;
}

std::string completion_section(const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Completion: every progress counter against its header count.
  // ---------------------------------------------------------------------------
)";
  for (const auto& p : plan.progress) {
    const std::string n = upper(p.name);
    o += fmt::format(R"(  // {0}: {1} ({2})
  logic [CountW-1:0] want_{0}, got_{0};
  assign want_{0} = CountW'(hdr_words[tpu_pkg::HDR_{3}_WORD*WordW + tpu_pkg::HDR_{3}_LSB +: tpu_pkg::HDR_{3}_W]);
  assign got_{0}  = progress_i[tpu_pkg::PROGRESS_{3}*CountW +: CountW];
)",
                     p.name, p.meaning, p.unit, n);
  }
  const std::string seq = "tpu_pkg::UNIT_" + upper(plan.seq_unit);
  o += R"(
  logic                       short_any, over_any, active;
  logic [tpu_pkg::UNIT_W-1:0] short_unit, over_unit;

  // The first counter short of its count, and the first past it.
  always_comb begin
)";
  auto chain = [&](const char* kind, const char* cmp) {
    std::string c;
    for (std::size_t i = 0; i < plan.progress.size(); ++i)
      c += fmt::format(R"({0}if (got_{1} {2} want_{1}) begin
      {3}_any  = 1'b1;
      {3}_unit = tpu_pkg::UNIT_{4};
    end else )",
                       i == 0 ? "    " : "", plan.progress[i].name, cmp, kind, upper(plan.progress[i].unit));
    c += fmt::format(R"(begin
      {0}_any  = 1'b0;
      {0}_unit = {1};
    end
)",
                     kind, seq);
    return c;
  };
  o += chain("short", "<");
  o += "  end\n\n  always_comb begin\n";
  o += chain("over", ">");
  o += fmt::format(R"(  end

  // Activity for the watchdog: a counter or memory handshake, an imem beat,
  // an issue or a dispatch.
  assign active = activity_i || fetch_active || issue || ctl_loop || ctl_endloop || dispatch_fire;

  tpu_seq_run #(
    .Watchdog (Watchdog),
    .CountBits(CountBits),
    .NInstrMax(NInstrMax),
    .IdleUnit ({0})
  ) u_run (
    .clk_i,
    .rst_ni,
    .start_i        (start_i),
    .count_known_i  (count_known),
    .hdr_known_i    (hdr_known),
    .n_instr_i      (n_instr),
    .pc_i           (pc),
    .loops_open_i   (depth != '0),
    .outputs_empty_i(outputs_empty),
    .idle_i,
    .active_i       (active),
    .cur_valid_i    (cur_valid),
    .cur_fault_i    (cur_fault),
    .over_any_i     (over_any),
    .over_unit_i    (over_unit),
    .short_any_i    (short_any),
    .short_unit_i   (short_unit),
    .busy_o         (busy),
    .done_o,
    .stop_o         (stop),
    .fault_o,
    .fault_pc_o,
    .fault_unit_o,
    .cycles_o
  );
  assign busy_o = busy;

endmodule
)",
                   seq);
  return o;
}

}  // namespace

std::string emit_tpu_sequencer(const RtlContext& ctx) {
  const SeqPlan plan = plan_sequencer(ctx);
  std::string o = ctx.file_header("tpu_sequencer", "imem fetch, header, loop stack, AGU and dispatch");
  o += module_comment(plan);
  o += ports(ctx, plan);
  o += declarations(plan);
  o += fetch_section(ctx.spec());
  o += decode_section(ctx, plan);
  o += agu_section(plan);
  o += control_section(plan);
  o += dispatch_section(ctx, plan);
  o += completion_section(plan);
  return o;
}

}  // namespace tpugen::hdl
