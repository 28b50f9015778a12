// tpu_pkg: every ISA fact the RTL uses, as named constants from the spec.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "rtl/emitters.h"

namespace tpugen::rtl {

namespace {
std::string upper(std::string s) {
  for (auto& c : s) c = (c == '.') ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
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
  for (const auto& f : s.word0) {
    const std::string n = "FLD_" + upper(f.name);
    o += fmt::format("  localparam int {0}_LSB = {1};\n  localparam int {0}_W = {2};\n"
                     "  localparam int {0}_MAX = {3};\n",
                     n, f.lsb, f.width, f.usable_max);
  }
  o += "\n  // Instruction word 1: AGU terms (spec: words[1].term).\n";
  o += fmt::format("  localparam int TERM_W = {};  // AGU_TERMS = {} terms, below\n", s.term.width, s.term.count);
  for (const auto& f : s.term.subfields) {
    const std::string n = "TERM_" + upper(f.name);
    o += fmt::format("  localparam int {0}_LSB = {1};\n  localparam int {0}_W = {2};\n", n, f.lsb, f.width);
  }
  o += fmt::format("  localparam int TARGET_UNUSED = {};\n", s.unused_target);
  for (const auto& f : s.word0)
    if (f.agu_target) o += fmt::format("  localparam int TARGET_{} = {};\n", upper(f.name), f.agu_target);

  o += "\n  // ISA constants.\n";
  for (const auto& c : s.isa_constants)
    o += fmt::format("  localparam int {} = {};\n", c.name, ctx.param(c.name));
  o += fmt::format("  localparam int NHDR = {};\n  localparam int IWORDS = {};\n", s.nhdr, s.iwords);
  o += fmt::format("  localparam int WORD_W = {};\n", s.word_bits);

  o += "\n  // imem header entries (spec: imem.entries): word, lsb, width.\n";
  for (const auto& h : s.header) {
    const std::string n = "HDR_" + upper(h.name);
    o += fmt::format("  localparam int {0}_WORD = {1};\n  localparam int {0}_LSB = {2};\n"
                     "  localparam int {0}_W = {3};\n",
                     n, h.word, h.lsb, h.width);
  }

  o += "\n  // Progress counters: one per header entry that counts a unit's work, in\n"
       "  // spec order; progress_o carries COUNT_W bits for each.\n";
  int idx = 0;
  for (const auto& h : s.header)
    if (h.count.kind == HeaderCount::UnitSteps || h.count.kind == HeaderCount::PortItems)
      o += fmt::format("  localparam int PROGRESS_{} = {};\n", upper(h.name), idx++);
  o += fmt::format("  localparam int N_PROGRESS = {};\n", idx);

  o += "\n  // Units (spec: units), for fault_unit_o.\n";
  for (std::size_t u = 0; u < s.units.size(); ++u)
    o += fmt::format("  localparam logic [3:0] UNIT_{} = 4'd{};\n", upper(s.units[u].name), u);

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

  o += "\n  // Fault codes (fault_o).\n";
  const char* faults[][2] = {{"NONE", "no fault"},
                             {"OPCODE", "an opcode the spec does not define"},
                             {"RETIRED", "a retired opcode"},
                             {"LOOP_OVERFLOW", "a loop nested deeper than LOOP_DEPTH"},
                             {"LOOP_UNDERFLOW", "an endloop with no open loop"},
                             {"AGU_LEVEL", "an AGU term on a loop level that is not open"},
                             {"IMEM", "a header whose instruction count overruns IMEM_SIZE"},
                             {"STARVED", "a unit promised more work than it received (fault_unit_o)"},
                             {"OVERRUN", "a unit received more work than its header count (fault_unit_o)"},
                             {"HANG", "no progress for the watchdog interval (fault_unit_o: the first unit short of its count)"},
                             {"LOOP_OPEN", "the program ends with a loop still open"}};
  for (std::size_t f = 0; f < std::size(faults); ++f)
    o += fmt::format("  localparam logic [3:0] FAULT_{} = 4'd{};  // {}\n", faults[f][0], f, faults[f][1]);

  o += "\n  // One dispatched instruction: the opcode, every operand field resolved\n"
       "  // by the AGU, the instruction's nr, and `steps`: this unit's work count\n"
       "  // for it (nr, or the spec's rewrite of nr for this unit).\n";
  o += "  typedef struct packed {\n    logic [COUNT_W-1:0] steps;\n    logic [FLD_NR_W-1:0] nr;\n";
  std::vector<const Field*> ops;
  for (const auto& f : s.word0)
    if (f.agu_target) ops.push_back(&f);
  std::reverse(ops.begin(), ops.end());
  for (const Field* f : ops) o += fmt::format("    logic [FIELD_W-1:0] {};\n", f->name);
  o += "    logic [FLD_OP_W-1:0] op;\n  } instr_t;\n";

  // Icarus 11 cannot declare a package struct type inside a module (it
  // aborts in elab_type.cc), so ports carry instr_t as a flat vector of the
  // same layout and modules slice it with these constants.
  o += "\n  // instr_t as a flat vector (ports): member lsbs and the total width.\n";
  std::vector<std::pair<std::string, std::string>> members = {{"OP", "FLD_OP_W"}};
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) members.emplace_back(upper((*it)->name), "FIELD_W");
  members.emplace_back("NR", "FLD_NR_W");
  members.emplace_back("STEPS", "COUNT_W");
  std::string lsb = "0";
  for (const auto& [name, width] : members) {
    o += fmt::format("  localparam int INSTR_{}_LSB = {};\n", name, lsb);
    lsb = fmt::format("INSTR_{}_LSB + {}", name, width);
  }
  o += fmt::format("  localparam int INSTR_W = {};\n", lsb);
  o += "\nendpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  return o;
}

}  // namespace tpugen::rtl
