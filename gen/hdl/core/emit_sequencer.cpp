// tpu_sequencer: imem fetch, header, loop stack, AGU, dispatch, completion
// and faults. Everything spec-specific (the dispatched units and what reaches
// them, the steps each unit is charged, the loop opcodes, the progress
// counters and their units) is derived here from the actions table; the SV
// names bit positions and opcode numbers only through tpu_pkg.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "isa/derive.h"
#include "hdl/emitters.h"
#include "hdl/injected_bugs.h"
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
// Fetch (u_fetch, the hand-written tpu_seq_fetch). On start_i (ignored while
// busy) the sequencer requests imem beats from word 0, several in flight, and
// captures the NHDR header words (header_o) and the instructions into a flop
// buffer of (IMEM_SIZE - NHDR) / IWORDS entries. It fetches
// NHDR + IWORDS * n_instr words, n_instr from the header (before that word
// arrives it requests the header and the first instruction only); a count
// past the buffer raises FAULT_IMEM. Responses still owed to an earlier run
// are dropped.
//
// Issue. One instruction per cycle from pc, as soon as it has arrived.
// loop pushes {body = pc + 1, iv = 0, trip = nr} (do-while); endloop adds one
// to iv and jumps back while iv < trip, else pops. An endloop right after an
// instruction other than loop or endloop is taken in the same cycle as it, so
// a loop body of n such instructions issues every n cycles. The AGU adds
// iv[level] * stride to the field each term targets, for every term whose
// target is not TARGET_UNUSED, keeping FIELD_W bits.
//
// Dispatch. Each unit has a one-entry output register (u_<unit>_out, the
// hand-written tpu_out_reg; valid never depends on ready). An instruction
// goes, with the unit's steps, to every unit whose actions are active for the
// resolved operands, and only when every one of them has room: all or
// nothing. loop, endloop and an opcode without actions
// dispatch nothing.
//
// Completion. done_o rises when pc has passed the last instruction with no
// loop open, every output register is empty, idle_i is high and every
// progress counter equals its header count; it holds until the next start.
// A fault ends the run instead (busy_o falls, done_o stays low): a decode
// fault (FAULT_OPCODE, _RETIRED, _AGU_LEVEL, _LOOP_OVERFLOW, _LOOP_UNDERFLOW)
// names the instruction in fault_pc_o; FAULT_LOOP_OPEN (the program ended
// inside a loop) and FAULT_IMEM name where pc stopped. FAULT_OVERRUN (a
// counter past its header count), FAULT_STARVED (finished and idle with a
// counter short) and FAULT_HANG (no activity for Watchdog cycles while busy)
// name the unit owning the first such counter in fault_unit_o (the
// sequencer when none is short). cycles_o counts the cycles of the run.
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
  input  logic clk_i,
  input  logic rst_ni,

  // Run control and status.
  input  logic                                     start_i,       // one-cycle pulse, ignored while busy
  output logic                                     clear_o,       // a start was taken: units clear progress
  output logic                                     busy_o,
  output logic                                     done_o,        // held until the next start
  output logic [3:0]                               fault_o,       // tpu_pkg::FAULT_*
  output logic [15:0]                              fault_pc_o,    // static instruction index
  output logic [3:0]                               fault_unit_o,  // tpu_pkg::UNIT_*
  output logic [tpu_pkg::NHDR*tpu_pkg::WORD_W-1:0] header_o,      // header words as fetched
  output logic [31:0]                              cycles_o,      // cycles of the last run

  // imem: beat requests (word index of the beat), responses in order.
  output logic                                imem_req_valid_o,
  input  logic                                imem_req_ready_i,
  output logic [15:0]                         imem_req_addr_o,
  input  logic                                imem_rsp_valid_i,
  output logic                                imem_rsp_ready_o,
  input  logic [tpu_pkg::WORD_W*ImemBeat-1:0] imem_rsp_data_i,
)",
                              ctx.param("T"), ctx.param("IMEM_SIZE"), ctx.options().imem_beat_words,
                              ctx.options().watchdog_cycles);
  for (const auto& u : plan.units)
    o += fmt::format(R"(
  // Dispatch to {0} (tpu_pkg::instr_t, flat).
  output logic                        {0}_instr_valid_o,
  input  logic                        {0}_instr_ready_i,
  output logic [tpu_pkg::INSTR_W-1:0] {0}_instr_o,
)",
                     u.name);
  o += R"(
  // Completion: work done per progress counter, all units idle, and any
  // counter or memory handshake moving this cycle.
  input  logic [tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W-1:0] progress_i,
  input  logic                                            idle_i,
  input  logic                                            activity_i
);
)";
  return o;
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
  localparam int TargetW   = tpu_pkg::TERM_TARGET_W;
  localparam int LevelW    = tpu_pkg::TERM_LEVEL_W;
  localparam int StrideW   = tpu_pkg::TERM_STRIDE_W;
  localparam int NLevels   = 2 ** LevelW;  // levels a term can name
  localparam int WdW       = $clog2(Watchdog + 1);
  // The header entry holding the static instruction count (for the fetch).
  localparam int CountWord = tpu_pkg::HDR_{0}_WORD;
  localparam int CountLsb  = tpu_pkg::HDR_{0}_LSB;
  localparam int CountBits = tpu_pkg::HDR_{0}_W;

  // Run state.
  logic              busy_q, done_q;
  logic [3:0]        fault_q, fault_d;
  logic [15:0]       fault_pc_q;
  logic [3:0]        fault_unit_q, fault_unit_d;
  logic [31:0]       cycles_q;
  logic              start_fire;
  logic [PcW-1:0]    pc_q, pc_d;
  logic [DepthW-1:0] depth_q, depth_d;
  logic [tpu_pkg::LOOP_DEPTH*PcW-1:0] stack_body;  // per level: body start, iv, trip
  logic [tpu_pkg::LOOP_DEPTH*NrW-1:0] stack_iv, stack_trip;

  assign start_fire = start_i && !busy_q;
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

std::string fetch_section() {
  // The fetch is hand-written (rtl/core/tpu_seq_fetch.sv); what the spec
  // decides is where the header holds the instruction count.
  return R"(
  // ---------------------------------------------------------------------------
  // Fetch (tpu_seq_fetch): imem beats, the header words, the instruction buffer.
  // ---------------------------------------------------------------------------
  logic [31:0]                    words_rcvd;
  logic                           count_known, hdr_known, fetch_active;
  logic [CountBits-1:0]           n_instr;
  logic [tpu_pkg::NHDR*WordW-1:0] hdr_words;
  logic [NInstrMax*InstrBits-1:0] ibuf;

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
    .busy_i          (busy_q),
    .imem_req_valid_o,
    .imem_req_ready_i,
    .imem_req_addr_o,
    .imem_rsp_valid_i,
    .imem_rsp_ready_o,
    .imem_rsp_data_i,
    .words_rcvd_o    (words_rcvd),
    .count_known_o   (count_known),
    .hdr_known_o     (hdr_known),
    .n_instr_o       (n_instr),
    .hdr_words_o     (hdr_words),
    .ibuf_o          (ibuf),
    .active_o        (fetch_active)
  );
  assign header_o = hdr_words;
)";
}

std::string decode_section(const RtlContext& ctx, const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Decode the instruction at pc (and the opcode and terms at pc + 1).
  // ---------------------------------------------------------------------------
  logic [InstrBits-1:0] cur_raw, next_raw;
  logic [AguBits-1:0]   cur_agu, next_agu;  // word 1: the AGU terms
  logic [OpW-1:0]       cur_op, next_op;
  logic [NrW-1:0]       cur_nr;
  logic                 cur_arrived, next_arrived, cur_valid, next_valid;
  logic                 cur_known, cur_retired, cur_loop, cur_endloop;
  logic                 unused_raw;

  // Entry `index` of the buffer as an AND-OR mux; zero past the end.
  function automatic logic [InstrBits-1:0] ibuf_read(input logic [NInstrMax*InstrBits-1:0] entries,
                                                     input logic [PcW-1:0] index);
    ibuf_read = '0;
    for (int i = 0; i < NInstrMax; i++) begin
      ibuf_read = ibuf_read | (entries[i*InstrBits +: InstrBits] & {InstrBits{32'(index) == i}});
    end
  endfunction

  assign cur_raw      = ibuf_read(ibuf, pc_q);
  assign next_raw     = ibuf_read(ibuf, pc_q + PcW'(1));
  assign cur_agu      = cur_raw[WordW +: AguBits];
  assign next_agu     = next_raw[WordW +: AguBits];
  assign cur_op       = cur_raw[tpu_pkg::FLD_OP_LSB +: OpW];
  assign next_op      = next_raw[tpu_pkg::FLD_OP_LSB +: OpW];
  assign cur_nr       = cur_raw[tpu_pkg::FLD_NR_LSB +: NrW];
  // The spare bits of both words, and the fields and strides of pc + 1,
  // are not needed.
  assign unused_raw   = ^{cur_raw, next_raw, next_agu};
  assign cur_arrived  = words_rcvd >= 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS) * (32'(pc_q) + 32'd1);
  assign next_arrived = words_rcvd >= 32'(tpu_pkg::NHDR) + 32'(tpu_pkg::IWORDS) * (32'(pc_q) + 32'd2);
  assign cur_valid    = busy_q && count_known && (32'(pc_q) < 32'(n_instr)) && cur_arrived;
  assign next_valid   = (32'(pc_q) + 32'd1 < 32'(n_instr)) && next_arrived;

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
  assign cur_loop    = cur_op == {};
  assign cur_endloop = cur_op == {};
)",
                   ctx.op_const(plan.loop->name), ctx.op_const(plan.endloop->name));
  return o;
}

std::string agu_section(const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // AGU: field[target] += iv[level] * stride for every term in use; a term
  // on a level that is not open faults (at pc + 1: the endloop is not folded).
  // ---------------------------------------------------------------------------
  logic [tpu_pkg::AGU_TERMS*TargetW-1:0] term_target;
  logic [tpu_pkg::AGU_TERMS*FieldW-1:0]  term_add;
  logic [tpu_pkg::AGU_TERMS-1:0]         cur_term_bad, next_term_bad;
  logic [NLevels*NrW-1:0]                level_ivs;  // iv by level, 0 past the stack

  assign level_ivs = (NLevels*NrW)'(stack_iv);

  // A field plus the terms that target it.
  function automatic logic [FieldW-1:0] agu_field(input logic [FieldW-1:0] base, input int target,
                                                  input logic [tpu_pkg::AGU_TERMS*TargetW-1:0] targets,
                                                  input logic [tpu_pkg::AGU_TERMS*FieldW-1:0] adds);
    agu_field = base;
    for (int t = 0; t < tpu_pkg::AGU_TERMS; t++) begin
      if (32'(targets[t*TargetW +: TargetW]) == 32'(target)) agu_field = agu_field + adds[t*FieldW +: FieldW];
    end
  endfunction

  for (genvar t = 0; t < tpu_pkg::AGU_TERMS; t++) begin : gen_term
    localparam int Lsb = t * tpu_pkg::TERM_W;
    logic [TargetW-1:0] target, next_target;
    logic [LevelW-1:0]  level, next_level;
    logic [StrideW-1:0] stride;
    logic [NrW-1:0]     iv;
    assign target      = cur_agu[Lsb + tpu_pkg::TERM_TARGET_LSB +: TargetW];
    assign level       = cur_agu[Lsb + tpu_pkg::TERM_LEVEL_LSB +: LevelW];
    assign stride      = cur_agu[Lsb + tpu_pkg::TERM_STRIDE_LSB +: StrideW];
    assign next_target = next_agu[Lsb + tpu_pkg::TERM_TARGET_LSB +: TargetW];
    assign next_level  = next_agu[Lsb + tpu_pkg::TERM_LEVEL_LSB +: LevelW];
    assign iv          = level_ivs[32'(level)*NrW +: NrW];
    assign term_target[t*TargetW +: TargetW] = target;
    assign term_add[t*FieldW +: FieldW]      = FieldW'(iv) * FieldW'(stride);
    assign cur_term_bad[t]  = (32'(target) != 32'(tpu_pkg::TARGET_UNUSED)) && (32'(level) >= 32'(depth_q));
    assign next_term_bad[t] = (32'(next_target) != 32'(tpu_pkg::TARGET_UNUSED)) &&
                              (32'(next_level) >= 32'(depth_q));
  end

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
    o += fmt::format("  assign cur_{0} = agu_field(base_{0}, tpu_pkg::TARGET_{1}, term_target, term_add);\n", f->name,
                     upper(f->name));
  return o;
}

std::string control_section(const RtlContext& ctx, const SeqPlan& plan) {
  std::string o = R"(
  // ---------------------------------------------------------------------------
  // Issue: decode faults, all-or-nothing dispatch, the loop stack.
  // ---------------------------------------------------------------------------
  logic [3:0]     cur_fault;
  logic           stop, exec, issue, fold, ctl_loop, ctl_endloop, pop_step, back;
  logic           all_room, outputs_empty, dispatch_fire, next_endloop;
  logic [PcW-1:0] top_body, endloop_pc;
  logic [NrW-1:0] top_iv, top_trip;

  always_comb begin
    if (!cur_known) cur_fault = tpu_pkg::FAULT_OPCODE;
    else if (cur_retired) cur_fault = tpu_pkg::FAULT_RETIRED;
    else if (|cur_term_bad) cur_fault = tpu_pkg::FAULT_AGU_LEVEL;
    else if (cur_loop && depth_q == DepthW'(tpu_pkg::LOOP_DEPTH)) cur_fault = tpu_pkg::FAULT_LOOP_OVERFLOW;
    else if (cur_endloop && depth_q == '0) cur_fault = tpu_pkg::FAULT_LOOP_UNDERFLOW;
    else cur_fault = tpu_pkg::FAULT_NONE;
  end

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
  o += fmt::format("  assign next_endloop  = next_op == {};\n", ctx.op_const(plan.endloop->name));
  o += R"(
  // exec: the instruction at pc runs this cycle unless it faults or the run
  // ends; loop and endloop always run, the rest when every target has room.
  // fold: an endloop at pc + 1 runs in the same cycle as the instruction at pc.
  assign exec        = cur_valid && (cur_fault == tpu_pkg::FAULT_NONE) && !stop;
  assign ctl_loop    = exec && cur_loop;
  assign ctl_endloop = exec && cur_endloop;
  assign issue       = exec && !cur_loop && !cur_endloop && all_room;
  assign fold        = issue && next_valid && next_endloop && (depth_q != '0) && !(|next_term_bad);
  assign pop_step    = ctl_endloop || fold;
  assign endloop_pc  = fold ? pc_q + PcW'(1) : pc_q;

  // The loop stack: one register set per level; the top is level depth - 1.
  logic [DepthW-1:0] top_idx;

  for (genvar l = 0; l < tpu_pkg::LOOP_DEPTH; l++) begin : gen_level
    logic [PcW-1:0] body_q;
    logic [NrW-1:0] iv_q, trip_q;
    logic           push_here, bump_here;
    assign push_here = ctl_loop && (32'(depth_q) == l);
    assign bump_here = pop_step && back && (32'(top_idx) == l);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        body_q <= '0;
        iv_q   <= '0;
        trip_q <= '0;
      end else if (push_here) begin
        body_q <= pc_q + PcW'(1);
        iv_q   <= '0;
        trip_q <= cur_nr;
      end else if (bump_here) begin
        iv_q <= iv_q + NrW'(1);
      end
    end
    assign stack_body[l*PcW +: PcW] = body_q;
    assign stack_iv[l*NrW +: NrW]   = iv_q;
    assign stack_trip[l*NrW +: NrW] = trip_q;
  end

  assign top_idx  = (depth_q == '0) ? '0 : depth_q - DepthW'(1);
  assign top_body = stack_body[32'(top_idx)*PcW +: PcW];
  assign top_iv   = stack_iv[32'(top_idx)*NrW +: NrW];
  assign top_trip = stack_trip[32'(top_idx)*NrW +: NrW];
  assign back     = 32'(top_iv) + 32'd1 < 32'(top_trip);

  always_comb begin
    if (start_fire) begin
      pc_d    = '0;
      depth_d = '0;
    end else if (ctl_loop) begin
      pc_d    = pc_q + PcW'(1);
      depth_d = depth_q + DepthW'(1);
    end else if (pop_step && back) begin
      pc_d    = top_body;
      depth_d = depth_q;
    end else if (pop_step) begin
      pc_d    = endloop_pc + PcW'(1);
      depth_d = depth_q - DepthW'(1);
    end else if (issue) begin
      pc_d    = pc_q + PcW'(1);
      depth_d = depth_q;
    end else begin
      pc_d    = pc_q;
      depth_d = depth_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q    <= '0;
      depth_q <= '0;
    end else begin
      pc_q    <= pc_d;
      depth_q <= depth_d;
    end
  end
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
  logic       short_any, over_any;
  logic [3:0] short_unit, over_unit;

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

  logic           at_end, finished, loop_open, imem_fault, overrun, active, hang;
  logic [WdW-1:0] quiet_q;

  assign at_end     = busy_q && count_known && hdr_known && (32'(pc_q) == 32'(n_instr));
  assign finished   = at_end && (depth_q == '0) && outputs_empty;
  assign loop_open  = at_end && (depth_q != '0);
  assign imem_fault = busy_q && count_known && (32'(n_instr) > 32'(NInstrMax));
  assign overrun    = busy_q && hdr_known && over_any;
  assign stop       = imem_fault || overrun;

  // Watchdog: cycles in a row while busy with no counter, memory handshake,
  // imem beat or issue.
  assign active = activity_i || fetch_active || issue || ctl_loop || ctl_endloop || dispatch_fire;
  assign hang   = busy_q && !active && (quiet_q == WdW'(Watchdog - 1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      quiet_q <= '0;
    end else if (start_fire || active) begin
      quiet_q <= '0;
    end else if (busy_q) begin
      quiet_q <= quiet_q + WdW'(1);
    end
  end

  always_comb begin
    fault_d      = tpu_pkg::FAULT_NONE;
    fault_unit_d = {0};
    if (imem_fault) begin
      fault_d = tpu_pkg::FAULT_IMEM;
    end else if (overrun) begin
      fault_d      = tpu_pkg::FAULT_OVERRUN;
      fault_unit_d = over_unit;
    end else if (cur_valid && cur_fault != tpu_pkg::FAULT_NONE) begin
      fault_d = cur_fault;
    end else if (loop_open) begin
      fault_d = tpu_pkg::FAULT_LOOP_OPEN;
    end else if (finished && idle_i && short_any) begin
      fault_d      = tpu_pkg::FAULT_STARVED;
      fault_unit_d = short_unit;
    end else if (hang) begin
      fault_d      = tpu_pkg::FAULT_HANG;
      fault_unit_d = (hdr_known && short_any) ? short_unit : {0};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= 1'b0;
      done_q       <= 1'b0;
      fault_q      <= tpu_pkg::FAULT_NONE;
      fault_pc_q   <= '0;
      fault_unit_q <= {0};
      cycles_q     <= '0;
    end else if (start_fire) begin
      busy_q       <= 1'b1;
      done_q       <= 1'b0;
      fault_q      <= tpu_pkg::FAULT_NONE;
      fault_pc_q   <= '0;
      fault_unit_q <= {0};
      cycles_q     <= '0;
    end else if (busy_q) begin
      cycles_q <= cycles_q + 32'd1;
      if (fault_d != tpu_pkg::FAULT_NONE) begin
        busy_q       <= 1'b0;
        fault_q      <= fault_d;
        fault_pc_q   <= 16'(pc_q);
        fault_unit_q <= fault_unit_d;
      end else if (finished && idle_i) begin
        busy_q <= 1'b0;
        done_q <= 1'b1;
      end
    end
  end

  assign busy_o       = busy_q;
  assign done_o       = done_q;
  assign fault_o      = fault_q;
  assign fault_pc_o   = fault_pc_q;
  assign fault_unit_o = fault_unit_q;
  assign cycles_o     = cycles_q;

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
  o += fetch_section();
  o += decode_section(ctx, plan);
  std::string agu = agu_section(plan);
  if (ctx.injected("agu_level2_term"))
    inject_defect(agu, "agu_level2_term",
                  "assign term_add[t*FieldW +: FieldW]      = FieldW'(iv) * FieldW'(stride);",
                  "assign term_add[t*FieldW +: FieldW]      = (t == tpu_pkg::AGU_TERMS - 1 && 32'(level) == 2) ? '0 :\n"
                  "                                               FieldW'(iv) * FieldW'(stride);  // INJECTED DEFECT");
  o += agu;
  o += control_section(ctx, plan);
  o += dispatch_section(ctx, plan);
  o += completion_section(plan);
  // The faults this module raises are tpu_pkg's FAULT_* constants, which the
  // package writes from the spec's faults: each must be there.
  static const std::regex kFault(R"(tpu_pkg::FAULT_([A-Z0-9_]+))");
  for (auto it = std::sregex_iterator(o.begin(), o.end(), kFault); it != std::sregex_iterator(); ++it)
    if (!ctx.spec().fault((*it)[1].str()))
      throw Error("rtl.unsupported", fmt::format("tpu_sequencer raises FAULT_{}, which the spec's faults do not define",
                                                 (*it)[1].str()));
  return o;
}

}  // namespace tpugen::hdl
