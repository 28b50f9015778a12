#include "isa/builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace tpugen {

Ref Ref::at(const Iv& iv, std::int64_t stride) const {
  Ref r = *this;
  r.terms_.emplace_back(iv, stride);
  return r;
}

ProgramBuilder::ProgramBuilder(const Isa& isa, std::string source) : isa_(&isa) { program_.source = std::move(source); }

namespace {

/// "n > k > m": the names of a nest, outermost first.
std::string nest_text(const std::vector<Iv>& open, const std::string& innermost) {
  std::vector<std::string> names;
  for (const Iv& iv : open) names.push_back(iv.name);
  names.push_back(innermost);
  return fmt::format("{}", fmt::join(names, " > "));
}

std::string operand_names(const Opcode& op) {
  std::vector<std::string> names;
  for (const auto& o : op.operands) names.push_back(o.name);
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

/// Pops the loop it guards even when the body throws, so the builder's nest
/// never outlives the C++ scope that opened it.
class OpenLoop {
 public:
  OpenLoop(std::vector<Iv>& open, Iv iv) : open_(open) { open_.push_back(std::move(iv)); }
  OpenLoop(const OpenLoop&) = delete;
  OpenLoop& operator=(const OpenLoop&) = delete;
  ~OpenLoop() { open_.pop_back(); }

 private:
  std::vector<Iv>& open_;
};

}  // namespace

void ProgramBuilder::loop(std::int64_t trip, const std::string& name, const std::function<void(const Iv&)>& body) {
  const Spec& spec = isa_->spec();
  const SourceLoc where{program_.source};
  const std::int64_t depth = spec.isa_constant("LOOP_DEPTH");
  if (static_cast<std::int64_t>(open_.size()) >= depth)
    throw Error(
        "builder.loop_depth",
        fmt::format("loop '{}' would nest {} deep, past the LOOP_DEPTH = {} hardware loop stack: the nest is {}", name,
                    open_.size() + 1, depth, nest_text(open_, name)),
        where);
  const std::int64_t trip_max = spec.word0[isa_->nr_index()].usable_max;
  if (trip < 1)
    throw Error("builder.loop_trip",
                fmt::format("loop '{}' has trip count {}; the sequencer's loop is do-while, so a trip below 1 would "
                            "still run the body once",
                            name, trip),
                where);
  if (trip > trip_max)
    throw Error("builder.loop_trip",
                fmt::format("loop '{}' has trip count {}; the nr field carries at most {}", name, trip, trip_max),
                where);

  Instr head = isa_->make(spec.opcode_named("loop"));
  head.fields[isa_->nr_index()] = trip;
  program_.instrs.push_back(std::move(head));
  {
    OpenLoop guard(open_, Iv{next_id_++, static_cast<std::int64_t>(open_.size()), name});
    const Iv iv = open_.back();
    body(iv);
  }
  program_.instrs.push_back(isa_->make(spec.opcode_named("endloop")));
}

void ProgramBuilder::emit(std::string_view opcode, std::initializer_list<std::pair<std::string_view, Ref>> operands,
                          std::int64_t nr) {
  const Spec& spec = isa_->spec();
  const SourceLoc where{program_.source};
  const std::size_t pc = program_.instrs.size();
  const Opcode* op = spec.opcode(opcode);
  if (!op)
    throw Error("builder.unknown_opcode", fmt::format("instruction {}: the spec has no opcode '{}'", pc, opcode),
                where);
  auto fail = [&](const std::string& rule, const std::string& msg) {
    throw Error(rule, fmt::format("instruction {} ({}): {}", pc, op->name, msg), where);
  };
  if (op->retired) fail("builder.retired_opcode", fmt::format("the opcode is retired: {}", *op->retired));
  if (op == &spec.opcode_named("loop") || op == &spec.opcode_named("endloop"))
    fail("builder.control_flow", "write loops with ProgramBuilder::loop, which pairs loop and endloop");
  if (op->nr == NrKind::None && nr != 0) fail("builder.nr", fmt::format("nr = {}, but the opcode carries no nr", nr));

  // Every operand exactly once, each by a name the opcode has.
  std::set<std::string_view> given;
  for (const auto& [name, ref] : operands) {
    if (!op->operand(name))
      fail("builder.unknown_operand", fmt::format("no operand '{}' (operands: {})", name, operand_names(*op)));
    if (!given.insert(name).second) fail("builder.missing_operand", fmt::format("operand '{}' is given twice", name));
  }
  for (const auto& o : op->operands)
    if (!given.count(o.name)) fail("builder.missing_operand", fmt::format("operand '{}' is missing", o.name));

  Instr in = isa_->make(*op);
  in.fields[isa_->nr_index()] = nr;
  // Terms in word-0 field order, then in the order of the .at() calls.
  std::vector<std::pair<std::size_t, const std::pair<std::string_view, Ref>*>> by_field;
  for (const auto& operand : operands) by_field.emplace_back(isa_->operand_index(*op, operand.first), &operand);
  std::stable_sort(by_field.begin(), by_field.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto max_terms = static_cast<std::size_t>(spec.term.count);
  for (const auto& [index, operand] : by_field) {
    const auto& [name, ref] = *operand;
    in.fields[index] = ref.base();
    for (const auto& [iv, stride] : ref.terms()) {
      const bool open = std::any_of(open_.begin(), open_.end(),
                                    [&used = iv](const Iv& o) { return o.id == used.id && o.level == used.level; });
      if (!open)
        fail("builder.iv_scope",
             fmt::format("operand '{}' uses induction variable '{}' outside its loop", name, iv.name));
      if (stride < 0)
        fail("builder.negative_stride",
             fmt::format("operand '{}' walks '{}' with stride {}; AGU strides are unsigned", name, iv.name, stride));
      const int target = spec.word0[index].agu_target;
      if (target == 0)
        fail("builder.not_agu_target",
             fmt::format("operand '{}' travels in field {}, which no AGU term can name", name, spec.word0[index].name));
      if (in.terms.size() == max_terms)
        fail("builder.too_many_terms",
             fmt::format("more than AGU_TERMS = {} address terms (operand '{}' on '{}' is one too many)", max_terms,
                         name, iv.name));
      in.terms.push_back(AguTerm{target, iv.level, stride});
    }
  }
  program_.instrs.push_back(std::move(in));
}

Program ProgramBuilder::finish() const {
  if (!open_.empty())
    throw Error("builder.loop_open",
                fmt::format("finish() inside loop '{}': the nest is still open", open_.back().name),
                SourceLoc{program_.source});
  return program_;
}

}  // namespace tpugen
