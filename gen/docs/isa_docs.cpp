#include "docs/isa_docs.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "docs/markdown.h"
#include "isa/derive.h"

namespace tpugen {

namespace {


std::string bits(const Field& f) { return fmt::format("[{}:{}]", f.msb(), f.lsb); }

std::string code(const std::string& s) { return s.empty() ? "–" : "`" + s + "`"; }

void section_encoding(const Spec& spec, std::string& out) {
  out += "## Instruction words\n\n";
  out += fmt::format("An instruction is {} {}-bit words (IWORDS). Encoding rule `{}`: an N-bit field carries "
                     "0 .. `{}` (with `width` = N).\n\n",
                     spec.iwords, spec.word_bits, spec.encoding_rule_name, spec.usable_max_rule.text());
  out += "### Word 0\n\n";
  Table t({"field", "bits", "width", "usable range", "AGU target", "role"});
  for (const auto& f : spec.word0)
    t.row({code(f.name), bits(f), std::to_string(f.width), fmt::format("0 .. {}", f.usable_max),
           f.agu_target ? std::to_string(f.agu_target) : "–", f.role});
  out += t.str();
  int used = 0;
  for (const auto& f : spec.word0) used = std::max(used, f.lsb + f.width);
  if (used < spec.word_bits) out += fmt::format("Bits {}:{} of word 0 are unused.\n\n", spec.word_bits - 1, used);
  out += fmt::format("### Word 1: {} AGU terms of {} bits\n\n", spec.term.count, spec.term.width);
  Table w({"term", "bits"});
  for (int i = 0; i < spec.term.count; ++i)
    w.row({std::to_string(i), fmt::format("[{}:{}]", (i + 1) * spec.term.width - 1, i * spec.term.width)});
  out += w.str();
  Table s({"subfield", "bits", "width", "usable range", "role"});
  for (const auto& f : spec.term.subfields)
    s.row({code(f.name), bits(f), std::to_string(f.width), fmt::format("0 .. {}", f.usable_max), f.role});
  out += s.str();
  out += fmt::format("A term resolves to `{}`. Target {} is unused.\n\n", spec.agu_semantics, spec.unused_target);
}

std::string nr_text(const Opcode& op) {
  switch (op.nr) {
    case NrKind::None: return "none";
    case NrKind::Rows: return "rows: " + op.nr_meaning;
    case NrKind::Trip: return "trip: " + op.nr_meaning;
  }
  return "";
}

void section_opcodes(const Spec& spec, std::string& out) {
  out += "## Opcodes\n\nThe units column is derived from the actions: an opcode reaches every unit its actions name.\n\n";
  Table t({"value", "name", "operands", "nr", "units"});
  for (const auto& op : spec.opcodes) {
    std::vector<std::string> ops;
    for (const auto& o : op.operands) {
      std::string s = fmt::format("{} = {}: {}", o.field, o.name, o.meaning);
      if (o.legal) s += fmt::format(" (legal {})", o.legal->describe());
      ops.push_back(s);
    }
    if (op.retired) ops.push_back("Retired: " + *op.retired);
    const auto units = units_reached(spec, op);
    t.row({std::to_string(op.value), code(op.name), ops.empty() ? "–" : fmt::format("{}", fmt::join(ops, "; ")),
           nr_text(op), units.empty() ? "–" : fmt::format("{}", fmt::join(units, ", "))});
  }
  out += t.str();
}

void section_actions(const Spec& spec, std::string& out) {
  out += "## Actions\n\nEvery instruction as an ordered list of per-unit effects.\n\n";
  Table t({"opcode", "unit", "port", "kind", "state", "base", "items", "only if"});
  for (const auto& a : spec.actions)
    t.row({a.opcode, a.unit, a.port, std::string(to_string(a.kind)), a.state.empty() ? "–" : a.state,
           a.base.empty() ? "–" : a.base, a.items.text(), a.only_if ? code(a.only_if->text()) : "–"});
  out += t.str();
  out += "## Units\n\n";
  Table u({"unit", "ports (items per cycle)", "serial port groups", "II", "elastic", "instructions from"});
  for (const auto& un : spec.units) {
    std::vector<std::string> ports, groups;
    for (const auto& p : un.ports) {
      std::string s = p.name;
      if (p.rate != 1) s += fmt::format(" x{}", p.rate);
      if (p.header_items) s += fmt::format(" (+{} header)", p.header_items);
      ports.push_back(s);
    }
    for (const auto& g : un.serial) groups.push_back(fmt::format("{}", fmt::join(g, " + ")));
    u.row({un.name, fmt::format("{}", fmt::join(ports, ", ")), groups.empty() ? "–" : fmt::format("{}", fmt::join(groups, "; ")),
           std::to_string(un.ii), un.elastic ? "yes" : "no", un.instructions_from});
  }
  out += u.str();
  out += "## Computes\n\n";
  Table c({"compute", "kind", "role"});
  for (const auto& cp : spec.computes)
    c.row({code(cp.name), cp.control ? "control" : (cp.copy ? "copy" : "arithmetic"), cp.role});
  out += c.str();
}

void section_derived(const Isa& isa, std::string& out) {
  out += "## Derived: per-unit cost\n\nA unit's cost for an instruction is its busiest port's item count "
         "(divided by the port's rate; a serial group's ports add). Values at nr = 8 use the default T.\n\n";
  Table t({"opcode", "unit", "steps", "at nr=8"});
  for (const auto& e : cost_table(isa)) t.row({e.opcode, e.unit, code(e.text()), std::to_string(e.at_nr8)});
  out += t.str();
  out += "## Derived: per-unit rewrites\n\nEvery unit the sequencer dispatches to whose own work count differs "
         "from the instruction's row count gets a rewritten `nr`.\n\n";
  Table r({"opcode", "unit", "rewritten to"});
  for (const auto& rw : nr_rewrites(isa)) r.row({rw.opcode, rw.unit, code("nr = " + rw.nr.text())});
  out += r.str();
}

void section_header(const Spec& spec, std::string& out) {
  out += fmt::format("## Instruction memory header\n\nimem[0:{}] (NHDR = {}, the words the table names) holds per-unit "
                     "work counts; instructions follow, {} words each.\n\n",
                     spec.nhdr, spec.nhdr, spec.iwords);
  Table t({"word", "bits", "name", "count", "usable max", "consumer", "meaning"});
  for (const auto& h : spec.header) {
    std::string count;
    switch (h.count.kind) {
      case HeaderCount::Static: count = "static instruction count"; break;
      case HeaderCount::UnitSteps: count = "steps of " + h.count.unit; break;
      case HeaderCount::PortItems: count = fmt::format("items on {}.{}", h.count.unit, h.count.port); break;
      case HeaderCount::StateSpan: count = fmt::format("max(base + items) over reads of {}", h.count.state); break;
    }
    t.row({fmt::format("imem[{}]", h.word), fmt::format("[{}:{}]", h.lsb + h.width - 1, h.lsb), code(h.name), count,
           std::to_string(h.usable_max), h.consumer, h.meaning});
  }
  out += t.str();
}

void section_memories(const Isa& isa, std::string& out) {
  const Spec& spec = isa.spec();
  out += "## Memories\n\nWriters and readers are derived from the actions. Depths at the default parameters.\n\n";
  Table t({"memory", "owner", "depth", "row bits", "format", "written by", "read by", "cleared"});
  auto who = [](const std::vector<MemoryAccess>& v) {
    std::vector<std::string> s;
    for (const auto& a : v) s.push_back(a.condition.empty() ? a.opcode : fmt::format("{} [{}]", a.opcode, a.condition));
    return s.empty() ? std::string("–") : fmt::format("{}", fmt::join(s, ", "));
  };
  for (const auto& m : spec.memories)
    t.row({code(m.name), m.owner, fmt::format("{} = {}", m.depth.text(), m.depth.eval(isa.params().scope())),
           fmt::format("{} = {}", m.row_bits.text(), m.row_bits.eval(isa.params().scope())),
           m.format.empty() ? "–" : m.format, who(memory_writers(spec, m)), who(memory_readers(spec, m)),
           m.cleared ? "yes" : "no"});
  out += t.str();
}

void section_contracts(const Spec& spec, std::string& out) {
  out += "## Contracts\n\nEnforced by `check_program`; each violation names its contract id.\n\n";
  Table t({"id", "rule"});
  for (const auto& c : spec.contracts) {
    std::string rule = c.rule;
    if (c.min_distance) rule += fmt::format(" (memory `{}`, distance `{}`)", c.memory, c.min_distance->text());
    t.row({code(c.id), rule});
  }
  out += t.str();
}

void section_parameters(const Spec& spec, const Isa& isa, std::string& out) {
  out += "## Build parameters\n\nSet by flag (wins) or environment variable; otherwise the default expression.\n\n";
  Table t({"parameter", "environment", "default", "at defaults", "legal range", "role"});
  for (const auto& p : spec.parameters)
    t.row({code(p.name), code(p.env), code(p.default_value.text()), std::to_string(isa.param(p.name)),
           fmt::format("{} .. {}", p.min ? std::to_string(*p.min) : "-inf", p.max ? std::to_string(*p.max) : "unbounded"),
           p.role});
  out += t.str();
  out += "## ISA and derived constants\n\n";
  Table c({"constant", "value", "at defaults", "role"});
  for (const auto& k : spec.isa_constants) c.row({code(k.name), k.value.text(), std::to_string(isa.param(k.name)), k.role});
  c.row({code("NHDR"), "header words (from the header table)", std::to_string(spec.nhdr), "imem header words"});
  c.row({code("IWORDS"), "instruction words (from the word table)", std::to_string(spec.iwords), "words per instruction"});
  for (const auto& k : spec.derived_constants) c.row({code(k.name), code(k.value.text()), std::to_string(isa.param(k.name)), k.role});
  out += c.str();
  out += "## Cross-parameter constraints\n\n";
  Table x({"constraint", "why"});
  for (const auto& k : spec.constraints) x.row({code(k.expr.text()), k.rule + (k.ceiling.empty() ? "" : " (the " + k.ceiling + " ceiling)")});
  out += x.str();
}

void section_ceilings(const Spec& spec, std::string& out) {
  out += "## What bounds MAXDIM\n\nThe largest multiple of T for which each predicate holds, computed.\n\n";
  Table t({"ceiling", "at T=4", "at T=8", "predicate", "question", "refused by"});
  for (const auto& c : spec.ceilings) {
    std::vector<std::string> at;
    for (std::int64_t tv : {4, 8}) {
      const Params p = resolve_params(spec, {{"T", tv}}, nullptr);
      const auto v = maxdim_ceiling(spec, c, p);
      at.push_back(v ? std::to_string(*v) : "none");
    }
    t.row({c.name, at[0], at[1], code(c.predicate.text()), c.question, c.refused_by});
  }
  out += t.str();
}

void section_numerics(const Spec& spec, std::string& out) {
  const Numerics& n = spec.numerics;
  out += fmt::format("## Numerics: {}\n\nOperand {} {} bits, accumulator {} {} bits, product {} bits.\n\n", n.name,
                     n.operand_signed ? "signed" : "unsigned", n.operand_bits,
                     n.accumulator_signed ? "signed" : "unsigned", n.accumulator_bits, n.product_bits);
  Table t({"stage", "operation", "range, or exactness", "where / note"});
  for (const auto& s : n.stages) t.row({s.stage, s.operation, s.exactness, s.where});
  out += t.str();
}

void section_limits(const Spec& spec, std::string& out) {
  out += fmt::format("## Program limits ({})\n\n", spec.limits_program);
  Table t({"limit", "check or measure", "max", "rule", "alternative"});
  for (const auto& l : spec.program_limits)
    t.row({l.name, l.check ? code(l.check->text()) : code(l.measure), l.max ? code(l.max->text()) : "–", l.rule,
           l.alternative.empty() ? "–" : l.alternative});
  out += t.str();
  if (!spec.split_operand_load.empty()) out += "split_operand_load: " + spec.split_operand_load + "\n\n";
}

void section_faults(const Spec& spec, std::string& out) {
  out += fmt::format("## Fault codes\n\nThe core's `fault_o` ({} bits; `tpu_pkg::FAULT_*`, the AXI top's STATUS and FAULT "
                     "registers). A nonzero code ends the run; `fault_pc_o` ({} bits) names the instruction and "
                     "`fault_unit_o` ({} bits, `tpu_pkg::UNIT_*`) the unit.\n\n",
                     spec.fault_width, spec.fault_pc_width, spec.fault_unit_width);
  Table t({"code", "name", "meaning"});
  for (const auto& f : spec.faults) t.row({std::to_string(f.code), code("FAULT_" + f.name), f.meaning});
  out += t.str();
}

void section_interfaces(const Spec& spec, std::string& out) {
  out += "## Core ports\n\n`tpu_top`'s ports besides the clock, the reset and `progress_o`, by interface. A port's "
         "direction is its suffix; the width is SystemVerilog over `tpu_pkg` and the top's parameters.\n\n";
  Table t({"interface", "port", "bits", "role"});
  for (const auto& itf : spec.interfaces)
    for (const auto& p : itf.ports) t.row({itf.name, code(p.name), code(p.bits), p.role});
  out += t.str();
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

std::string render_isa_markdown(const Spec& spec) {
  const Isa isa(spec, resolve_params(spec, {}, nullptr));
  std::string out;
  out += fmt::format("# {} (version {})\n\n", spec.name, spec.version);
  out += fmt::format("<!-- Generated by `tpugen docs` from spec/{} (sha256 {}). Do not edit: change the spec and "
                     "regenerate; CI runs `tpugen docs --check`. -->\n\n",
                     file_name(spec.path), spec.sha256);
  out += "Every table below is generated from the spec; derived tables (units reached, costs, rewrites, "
         "writers and readers, ceilings) are computed, not transcribed.\n\n";
  section_encoding(spec, out);
  section_opcodes(spec, out);
  section_actions(spec, out);
  section_derived(isa, out);
  section_header(spec, out);
  section_memories(isa, out);
  section_contracts(spec, out);
  section_parameters(spec, isa, out);
  section_ceilings(spec, out);
  section_numerics(spec, out);
  section_limits(spec, out);
  section_faults(spec, out);
  section_interfaces(spec, out);
  return out;
}

std::string docs_drift(const Spec& spec, const std::string& path) { return text_drift(render_isa_markdown(spec), path); }

std::string replace_between_markers(const std::string& text, const std::string& begin, const std::string& end,
                                    const std::string& content, const std::string& path, const std::string& rule) {
  const std::string b = begin + "\n", e = end + "\n";
  const std::size_t from = text.find(b);
  const std::size_t to = from == std::string::npos ? std::string::npos : text.find(e, from + b.size());
  if (to == std::string::npos)
    throw Error(rule, fmt::format("no markers '{}' ... '{}'", begin, end), SourceLoc{path});
  return text.substr(0, from + b.size()) + content + text.substr(to);
}

std::string text_drift(const std::string& want, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fmt::format("{} does not exist", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string have = ss.str();
  if (have == want) return {};
  std::istringstream a(have), b(want);
  std::string la, lb;
  int line = 0;
  while (true) {
    ++line;
    const bool ga = static_cast<bool>(std::getline(a, la));
    const bool gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) break;
    if (!ga || !gb || la != lb)
      return fmt::format("{}:{}: differs from the spec's rendering\n  file: {}\n  spec: {}", path, line,
                         ga ? la : "<end of file>", gb ? lb : "<end of rendering>");
  }
  return fmt::format("{} differs from the spec's rendering", path);
}

}  // namespace tpugen
