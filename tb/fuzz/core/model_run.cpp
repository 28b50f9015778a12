#include "fuzz/core/model_run.h"

#include <fmt/format.h>

#include "isa/derive.h"

namespace tpugen::fuzz {

std::vector<std::pair<const Opcode*, const Action*>> narrowing_reads(const Spec& spec) {
  std::vector<std::pair<const Opcode*, const Action*>> out;
  auto format = [&](const std::string& memory) -> std::string {
    const Memory* m = spec.memory(memory);
    return m ? m->format : std::string();
  };
  for (const Opcode& op : spec.opcodes) {
    const Action* wide_read = nullptr;
    bool narrow_write = false;
    for (const Action* a : spec.actions_of(op.name)) {
      if (a->kind == ActionKind::Read && format(a->state) == "accumulator" && !wide_read) wide_read = a;
      if (a->kind == ActionKind::Write && format(a->state) == "operand") narrow_write = true;
    }
    if (wide_read && narrow_write) out.emplace_back(&op, wide_read);
  }
  return out;
}

ModelRun run_model(const Isa& isa, const FuzzCase& c) {
  const Spec& spec = isa.spec();
  const Numerics& num = spec.numerics;
  const std::int64_t lo = num.operand_signed ? -(std::int64_t{1} << (num.operand_bits - 1)) : 0;
  const std::int64_t hi =
      num.operand_signed ? (std::int64_t{1} << (num.operand_bits - 1)) - 1 : (std::int64_t{1} << num.operand_bits) - 1;
  const auto narrowing = narrowing_reads(spec);
  const Opcode& loop = spec.opcode_named("loop");
  const Opcode& endloop = spec.opcode_named("endloop");

  ModelRun run;
  run.model = std::make_shared<Model>(isa);
  Model& m = *run.model;
  for (const auto& [name, bytes] :
       {std::pair<const char*, const std::vector<std::int8_t>*>{"A", &c.a}, {"B", &c.b}, {"C", &c.c}})
    m.set_dram(name, *bytes);

  Program one;
  one.source = c.program.source;
  one.instrs.resize(1);
  for_each_issue(isa, c.program, [&](const Issue& is) {
    if (is.opcode == &loop || is.opcode == &endloop) return;
    for (const auto& [op, read] : narrowing) {
      if (op != is.opcode || !action_active(isa, *read, *op, is.fields)) continue;
      Saturation& s = run.saturation[op->name];
      const std::int64_t base = is.fields[isa.operand_index(*op, read->base)];
      const std::int64_t n = action_items(isa, *read, *op, is.fields);
      for (std::int64_t r = base; r < base + n; ++r)
        if (r >= 0 && r < m.depth(read->state))
          for (std::int64_t v : m.row(read->state, r)) ++(v > hi ? s.high : v < lo ? s.low : s.none);
    }
    one.instrs[0] = Instr{is.fields, {}, is.line};
    const std::size_t before = m.unwritten_reads().size();
    try {
      m.run(one);
    } catch (const Error& e) {  // name the static instruction, not the one-instruction program
      throw Error(e.rule(), fmt::format("{} [issue of {}]", e.message(), describe_instr(isa, c.program, is.pc)),
                  SourceLoc{c.program.source, is.line});
    }
    for (std::size_t i = before; i < m.unwritten_reads().size(); ++i) {
      UnwrittenRead u = m.unwritten_reads()[i];
      u.pc = is.pc;
      run.unwritten.push_back(u);
    }
  });
  return run;
}

}  // namespace tpugen::fuzz
