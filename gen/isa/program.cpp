#include "isa/program.h"

#include <fmt/format.h>

namespace tpugen {

std::string describe_instr(const Isa& isa, const Program& program, std::size_t pc) {
  if (pc >= program.instrs.size()) return fmt::format("instruction {}", pc);
  const Instr& in = program.instrs[pc];
  const Opcode* op = isa.opcode_of(in);
  const std::string name = op ? op->name : fmt::format("opcode {}", in.fields[isa.op_index()]);
  if (in.line > 0) return fmt::format("instruction {} (line {}, {})", pc, in.line, name);
  return fmt::format("instruction {} ({})", pc, name);
}

void for_each_issue(const Isa& isa, const Program& program, const std::function<void(const Issue&)>& visit,
                    std::size_t max_issues) {
  const Spec& spec = isa.spec();
  const std::int64_t depth = spec.isa_constant("LOOP_DEPTH");
  const Opcode& loop_op = spec.opcode_named("loop");
  const Opcode& endloop_op = spec.opcode_named("endloop");
  struct Frame {
    std::size_t body_start;
    std::int64_t iv;
    std::int64_t trip;
  };
  std::vector<Frame> stack;
  std::size_t issued = 0;
  auto fail = [&](const std::string& rule, std::size_t pc, const std::string& msg) {
    const int line = pc < program.instrs.size() ? program.instrs[pc].line : 0;
    throw Error(rule, fmt::format("{}: {}", describe_instr(isa, program, pc), msg), SourceLoc{program.source, line});
  };
  Issue issue;
  for (std::size_t pc = 0; pc < program.instrs.size();) {
    const Instr& in = program.instrs[pc];
    const Opcode* op = isa.opcode_of(in);
    if (!op) fail("expand.unknown_opcode", pc, fmt::format("opcode {} is not in the spec", in.fields[isa.op_index()]));
    if (++issued > max_issues)
      fail("expand.too_long", pc, fmt::format("the program issues more than {} instructions", max_issues));
    issue.pc = pc;
    issue.opcode = op;
    issue.line = in.line;
    issue.fields = in.fields;
    for (const AguTerm& t : in.terms) {
      if (t.target == spec.unused_target) continue;
      if (t.level < 0 || t.level >= static_cast<std::int64_t>(stack.size()))
        fail("expand.level_not_open", pc,
             fmt::format("an AGU term names loop level {}, but {} loop(s) are open", t.level, stack.size()));
      std::size_t idx = 0;
      try {
        idx = isa.target_index(t.target);
      } catch (const Error&) {
        fail("expand.bad_target", pc, fmt::format("AGU target {} names no field", t.target));
      }
      issue.fields[idx] += stack[static_cast<std::size_t>(t.level)].iv * t.stride;
    }
    visit(issue);
    if (op == &loop_op) {
      if (static_cast<std::int64_t>(stack.size()) >= depth)
        fail("expand.loop_depth", pc, fmt::format("a loop nested deeper than LOOP_DEPTH = {}", depth));
      stack.push_back({pc + 1, 0, in.fields[isa.nr_index()]});
      ++pc;
    } else if (op == &endloop_op) {
      if (stack.empty()) fail("expand.loop_balance", pc, "endloop without an open loop");
      Frame& f = stack.back();
      f.iv += 1;
      if (f.iv < f.trip) {
        pc = f.body_start;
      } else {
        stack.pop_back();
        ++pc;
      }
    } else {
      ++pc;
    }
  }
  if (!stack.empty())
    fail("expand.loop_balance", program.instrs.size() - 1, fmt::format("{} loop(s) are never closed", stack.size()));
}

std::vector<Issue> expand(const Isa& isa, const Program& program, std::size_t max_issues) {
  std::vector<Issue> out;
  for_each_issue(isa, program, [&](const Issue& i) { out.push_back(i); }, max_issues);
  return out;
}

}  // namespace tpugen
