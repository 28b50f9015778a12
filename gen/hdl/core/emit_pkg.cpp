// tpu_pkg: every ISA fact the RTL uses, as named constants from the spec.
#include <fmt/format.h>

#include <algorithm>

#include "hdl/emitters.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {
/// The members of instr_t, most significant first: steps, nr, the operand
/// fields in descending AGU target order, op. One width expression per member.
std::vector<std::pair<std::string, std::string>> instr_members(const RtlContext& ctx) {
  std::vector<std::pair<std::string, std::string>> m = {{"steps", "COUNT_W"}, {"nr", "FLD_NR_W"}};
  std::vector<const Field*> ops;
  for (const auto& f : ctx.spec().word0)
    if (f.agu_target) ops.push_back(&f);
  std::reverse(ops.begin(), ops.end());
  for (const Field* f : ops) m.emplace_back(f->name, "FIELD_W");
  m.emplace_back("op", "FLD_OP_W");
  return m;
}
}  // namespace

std::string instr_members_sv(const RtlContext& ctx, std::string_view scope, std::string_view indent) {
  std::string o;
  for (const auto& [name, width] : instr_members(ctx))
    o += fmt::format("{}logic [{}{}-1:0] {};\n", indent, scope, width, name);
  return o;
}

std::string instr_width_sv(const RtlContext& ctx) {
  std::string o;
  for (const auto& [name, width] : instr_members(ctx)) o += (o.empty() ? "" : " + ") + width;
  return o;
}

namespace {
/// One localparam int per (suffix, value): `<name>_<suffix> = <value>;`.
std::string int_params(const std::string& name, std::initializer_list<std::pair<const char*, std::int64_t>> values) {
  std::string o;
  for (const auto& [suffix, v] : values) o += fmt::format("  localparam int {}_{} = {};\n", name, suffix, v);
  return o;
}
}  // namespace

std::string emit_tpu_pkg(const RtlContext& ctx) {
  const Spec& s = ctx.spec();
  const int op_w = ctx.op_width();
  std::string o = ctx.file_header("tpu_pkg", "ISA constants and the dispatched instruction type, from the spec");
  o += "\n// The package publishes every ISA constant for the modules, testbenches and\n"
       "// software; no single configuration uses all of them, so unused-parameter\n"
       "// lint is waived for this file only (documented in docs/microarch.md).\n"
       "/* verilator lint_off UNUSEDPARAM */\npackage tpu_pkg;\n\n";

  o += "  // Opcodes (spec: opcodes).\n";
  for (const auto& op : s.opcodes)
    o += fmt::format("  localparam logic [{}:0] OP_{} = {}'d{};{}\n", op_w - 1, upper(op.name), op_w, op.value,
                     op.retired ? "  // retired" : "");

  o += "\n  // Instruction word 0 (spec: words[0].fields): lsb, width, usable maximum.\n";
  for (const auto& f : s.word0)
    o += int_params("FLD_" + upper(f.name), {{"LSB", f.lsb}, {"W", f.width}, {"MAX", f.usable_max}});
  o += "\n  // Instruction word 1: AGU terms (spec: words[1].term).\n";
  o += fmt::format("  localparam int TERM_W = {};  // AGU_TERMS = {} terms, below\n", s.term.width, s.term.count);
  for (const auto& f : s.term.subfields) o += int_params("TERM_" + upper(f.name), {{"LSB", f.lsb}, {"W", f.width}});
  o += fmt::format("  localparam int TARGET_UNUSED = {};\n", s.unused_target);
  for (const auto& f : s.word0)
    if (f.agu_target) o += fmt::format("  localparam int TARGET_{} = {};\n", upper(f.name), f.agu_target);

  o += "\n  // ISA constants.\n";
  for (const auto& c : s.isa_constants)
    o += fmt::format("  localparam int {} = {};\n", c.name, ctx.param(c.name));
  o += fmt::format("  localparam int NHDR = {};\n  localparam int IWORDS = {};\n", s.nhdr, s.iwords);
  o += fmt::format("  localparam int WORD_W = {};\n", s.word_bits);

  o += "\n  // imem header entries (spec: imem.entries): word, lsb, width.\n";
  for (const auto& h : s.header)
    o += int_params("HDR_" + upper(h.name), {{"WORD", h.word}, {"LSB", h.lsb}, {"W", h.width}});

  o += "\n  // Progress counters: one per header entry that counts a unit's work, in\n"
       "  // spec order; progress_o carries COUNT_W bits for each.\n";
  int idx = 0;
  for (const auto& h : s.header)
    if (h.count.kind == HeaderCount::UnitSteps || h.count.kind == HeaderCount::PortItems)
      o += fmt::format("  localparam int PROGRESS_{} = {};\n", upper(h.name), idx++);
  o += fmt::format("  localparam int N_PROGRESS = {};\n", idx);

  o += "\n  // Units (spec: units), for fault_unit_o (spec: faults.unit_width).\n";
  o += fmt::format("  localparam int UNIT_W = {};\n", s.fault_unit_width);
  for (std::size_t u = 0; u < s.units.size(); ++u)
    o += fmt::format("  localparam logic [{}:0] UNIT_{} = {}'d{};\n", s.fault_unit_width - 1, upper(s.units[u].name),
                     s.fault_unit_width, u);

  o += "\n  // Numerics (spec: numerics, active configuration).\n";
  const Numerics& n = s.numerics;
  o += fmt::format("  localparam int OPERAND_BITS = {};\n  localparam int ACC_BITS = {};\n"
                   "  localparam int PRODUCT_BITS = {};\n",
                   n.operand_bits, n.accumulator_bits, n.product_bits);
  const std::int64_t lo = n.operand_signed ? -(std::int64_t{1} << (n.operand_bits - 1)) : 0;
  const std::int64_t hi = n.operand_signed ? (std::int64_t{1} << (n.operand_bits - 1)) - 1 : (std::int64_t{1} << n.operand_bits) - 1;
  o += fmt::format("  localparam int OPERAND_MIN = {};\n  localparam int OPERAND_MAX = {};\n", lo, hi);

  o += "\n  // Widths of a dispatched instruction.\n";
  o += fmt::format("  localparam int FIELD_W = {};\n  localparam int COUNT_W = {};\n", ctx.field_width(),
                   ctx.count_width());

  o += "\n  // Fault codes (fault_o) and the width of fault_pc_o (spec: faults).\n";
  const int fw = ctx.spec().fault_width;
  o += fmt::format("  localparam int FAULT_W = {};\n  localparam int FAULT_PC_W = {};\n", fw, s.fault_pc_width);
  for (const FaultCode& f : ctx.spec().faults)
    o += fmt::format("  localparam logic [{}:0] FAULT_{} = {}'d{};  // {}\n", fw - 1, f.name, fw, f.code, f.meaning);

  o += "\n  // One dispatched instruction: the opcode, every operand field resolved\n"
       "  // by the AGU, the instruction's nr, and `steps`: this unit's work count\n"
       "  // for it (nr, or the spec's rewrite of nr for this unit).\n";
  o += "  typedef struct packed {\n" + instr_members_sv(ctx, "", "    ") + "  } instr_t;\n";
  o += "  // Bits of instr_t. Icarus 11 cannot elaborate a package struct type in a\n"
       "  // module, so a unit takes the instruction as a vector of INSTR_W bits and\n"
       "  // reads it through a local copy of instr_t (instr_members_sv).\n";
  o += fmt::format("  localparam int INSTR_W = {};\n", instr_width_sv(ctx));
  o += "  // The lsb of each member in that vector (op at bit 0).\n";
  std::string lsb = "0";
  auto members = instr_members(ctx);
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    o += fmt::format("  localparam int INSTR_{}_LSB = {};\n", upper(it->first), lsb);
    lsb = fmt::format("INSTR_{}_LSB + {}", upper(it->first), it->second);
  }
  o += "\nendpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  return o;
}

}  // namespace tpugen::hdl
