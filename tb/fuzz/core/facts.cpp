#include "fuzz/core/facts.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "isa/derive.h"

namespace tpugen::fuzz {

std::size_t OpcodeFacts::operand_index(std::string_view name) const {
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (operands[i].name() == name) return i;
  return operands.size();
}

namespace {

std::vector<std::int64_t> legal_values(const Legal& legal, const Scope& params) {
  std::vector<std::int64_t> out;
  if (legal.is_set()) {
    out = legal.values;
  } else if (legal.min && legal.max) {
    for (std::int64_t v = legal.min->eval(params), hi = legal.max->eval(params); v <= hi; ++v) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

IsaFacts::IsaFacts(const Isa& isa) : isa_(&isa) {
  const Spec& spec = isa.spec();
  const Scope params = isa.params().scope();
  loop_ = &spec.opcode_named("loop");
  endloop_ = &spec.opcode_named("endloop");
  loop_depth = spec.isa_constant("LOOP_DEPTH");
  agu_terms = spec.term.count;
  trip_max = spec.word0[isa.nr_index()].usable_max;
  stride_max = spec.term.subfield("stride").usable_max;

  // Instructions: what imem holds after the header, and what the static count's slice carries.
  max_instructions = (isa.param("IMEM_SIZE") - spec.nhdr) / std::max(1, spec.iwords);
  count_max = std::numeric_limits<std::int64_t>::max();
  for (const HeaderEntry& h : spec.header) {
    if (h.count.kind == HeaderCount::Static)
      max_instructions = std::min(max_instructions, h.usable_max);
    else
      count_max = std::min(count_max, h.usable_max);
  }

  // Memories: every one an action reads or writes.
  for (const Action& a : spec.actions) {
    if (a.kind != ActionKind::Read && a.kind != ActionKind::Write) continue;
    const bool known = std::any_of(memories_.begin(), memories_.end(),
                                   [&](const MemoryFacts& m) { return m.memory->name == a.state; });
    if (known) continue;
    const Memory* mem = spec.memory(a.state);
    if (!mem)
      throw Error("fuzz.spec",
                  fmt::format("an action of {} names memory '{}', which the spec lacks", a.opcode, a.state));
    MemoryFacts m;
    m.memory = mem;
    m.dram = mem->dram.has_value();
    m.rows = m.dram ? mem->dram->rows.eval(params) : mem->depth.eval(params);
    m.host_written = mem->host == "written";
    for (const Contract& c : spec.contracts)
      if (c.memory == mem->name && c.min_distance) {
        m.distance = &c;
        m.min_distance = c.min_distance->eval(params);
      }
    memories_.push_back(m);
  }

  // Opcodes.
  for (const Opcode& op : spec.opcodes) {
    OpcodeFacts f;
    f.op = &op;
    std::set<std::string> only_if_names;
    for (const Action* a : spec.actions_of(op.name))
      if (a->only_if)
        for (const auto& n : a->only_if->names()) only_if_names.insert(n);
    for (const Operand& o : op.operands) {
      OperandFacts of;
      of.operand = &o;
      of.field = isa.field_index(o.field);
      of.target = spec.word0[of.field].agu_target;
      of.field_max = spec.word0[of.field].usable_max;
      of.selector = only_if_names.count(o.name) > 0;
      if (o.legal) of.legal = legal_values(*o.legal, params);
      f.operands.push_back(std::move(of));
    }
    std::set<std::string> shape_names = only_if_names;
    for (const Action* a : spec.actions_of(op.name))
      for (const auto& n : a->items.names()) shape_names.insert(n);
    for (std::size_t k = 0; k < f.operands.size(); ++k)
      if (shape_names.count(f.operands[k].name())) f.shape_operands.push_back(k);
    for (const Action* a : spec.actions_of(op.name)) {
      if (a->kind != ActionKind::Read && a->kind != ActionKind::Write) continue;
      AccessFacts acc;
      acc.action = a;
      acc.memory = memory_index(a->state);
      acc.operand = f.operand_index(a->base);
      if (acc.operand == f.operands.size())
        throw Error("fuzz.spec", fmt::format("{}'s {} of {} names base '{}', which is not an operand", op.name,
                                             to_string(a->kind), a->state, a->base));
      acc.read = a->kind == ActionKind::Read;
      f.accesses.push_back(acc);
    }
    opcodes_.push_back(std::move(f));
  }
  // Row-count ceilings, now that the accesses are known.
  for (OpcodeFacts& f : opcodes_) {
    if (!f.data() || !f.live()) continue;
    for (const auto& combo : selector_combinations(f)) {
      std::vector<std::int64_t> fields = isa.make(*f.op).fields;
      for (const auto& [k, v] : combo) fields[f.operands[k].field] = v;
      for (std::int64_t n = trip_max; n > f.max_rows; --n) {
        fields[isa.nr_index()] = n;
        bool fits = true;
        for (const AccessFacts* a : active(f, fields)) fits = fits && items(f, *a, fields) <= memories_[a->memory].rows;
        if (fits) {
          f.max_rows = n;
          break;
        }
      }
    }
  }
}

const OpcodeFacts* IsaFacts::opcode(std::string_view name) const {
  for (const auto& f : opcodes_)
    if (f.op->name == name) return &f;
  return nullptr;
}

const OpcodeFacts& IsaFacts::of(const Opcode& op) const {
  for (const auto& f : opcodes_)
    if (f.op == &op) return f;
  throw Error("fuzz.spec", fmt::format("opcode {} is not one of this spec's", op.name));
}

std::size_t IsaFacts::memory_index(std::string_view name) const {
  for (std::size_t i = 0; i < memories_.size(); ++i)
    if (memories_[i].memory->name == name) return i;
  throw Error("fuzz.spec", fmt::format("no action reads or writes a memory named '{}'", name));
}

std::vector<const AccessFacts*> IsaFacts::active(const OpcodeFacts& op, const std::vector<std::int64_t>& fields) const {
  std::vector<const AccessFacts*> out;
  for (const AccessFacts& a : op.accesses)
    if (action_active(*isa_, *a.action, *op.op, fields)) out.push_back(&a);
  return out;
}

std::int64_t IsaFacts::items(const OpcodeFacts& op, const AccessFacts& a,
                             const std::vector<std::int64_t>& fields) const {
  return action_items(*isa_, *a.action, *op.op, fields);
}

std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> IsaFacts::selector_combinations(
    const OpcodeFacts& op) const {
  std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> out{{}};
  for (std::size_t k = 0; k < op.operands.size(); ++k) {
    const OperandFacts& o = op.operands[k];
    if (!o.selector) continue;
    std::vector<std::int64_t> values = o.legal;
    if (values.empty()) values = {0};
    std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> next;
    for (const auto& partial : out)
      for (std::int64_t v : values) {
        auto c = partial;
        c.emplace_back(k, v);
        next.push_back(std::move(c));
      }
    out = std::move(next);
  }
  return out;
}

const IssueShape& IsaFacts::shape(const OpcodeFacts& op, const std::vector<std::int64_t>& fields) const {
  std::vector<std::int64_t> key{static_cast<std::int64_t>(&op - opcodes_.data()), fields[isa_->nr_index()]};
  for (std::size_t k : op.shape_operands) key.push_back(fields[op.operands[k].field]);
  std::lock_guard<std::mutex> lock(cache_->mutex);
  auto& slot = cache_->shapes[key];
  if (!slot) slot = std::make_unique<IssueShape>(compute_shape(op, fields));
  return *slot;
}

IssueShape IsaFacts::compute_shape(const OpcodeFacts& op, const std::vector<std::int64_t>& fields) const {
  const Spec& spec = isa_->spec();
  IssueShape s;
  s.active = active(op, fields);
  for (const AccessFacts* a : s.active) s.items.push_back(items(op, *a, fields));
  for (const Unit& u : spec.units) s.unit_cost.push_back(unit_cost(*isa_, *op.op, u.name, fields));
  for (std::size_t mi = 0; mi < memories_.size(); ++mi) {
    const MemoryFacts& m = memories_[mi];
    if (!m.distance) continue;
    IssueShape::Distance d;
    d.memory = mi;
    d.cost = unit_cost(*isa_, *op.op, m.memory->owner, fields);
    if (d.cost <= 0) continue;
    const RowSchedule rs = row_schedule(*isa_, *op.op, m.memory->owner, fields);
    d.steps_per_row = std::max<std::int64_t>(1, rs.steps_per_row);
    for (const auto& [action, step] : rs.steps)
      for (std::size_t i = 0; i < s.active.size(); ++i)
        if (s.active[i]->action == action && s.active[i]->memory == mi) d.events.emplace_back(i, step);
    std::stable_sort(d.events.begin(), d.events.end(), [&](const auto& x, const auto& y) {
      return std::make_pair(x.second, s.active[x.first]->read ? 0 : 1) <
             std::make_pair(y.second, s.active[y.first]->read ? 0 : 1);
    });
    s.distances.push_back(std::move(d));
  }
  return s;
}

std::string agu_blocker(const IsaFacts& f, const OpcodeFacts& op, const OperandFacts& o) {
  const Scope params = f.isa().params().scope();
  if (o.target == 0) return "its field is no AGU target";
  if (o.restricted()) {
    for (std::int64_t v : o.legal)
      if (agu_legal_trip(*o.operand->legal, v, 1, params, 2) >= 2) return {};
    return fmt::format("its legal values ({}) hold no two consecutive ones", o.operand->legal->describe());
  }
  const auto k = static_cast<std::size_t>(&o - op.operands.data());
  for (const auto& combo : f.selector_combinations(op)) {
    std::vector<std::int64_t> fields = f.isa().make(*op.op).fields;
    fields[f.isa().nr_index()] = 1;
    for (const auto& [i, v] : combo) fields[op.operands[i].field] = v;
    bool room = true;
    for (const AccessFacts* a : f.active(op, fields))
      if (a->operand == k) room = room && f.items(op, *a, fields) < f.memories()[a->memory].rows;
    if (room) return {};
  }
  return "the memory it names has no row to move to";
}

}  // namespace tpugen::fuzz
