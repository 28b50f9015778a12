#include "isa/derive.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace tpugen {

bool action_active(const Isa& isa, const Action& a, const Opcode& op, const std::vector<std::int64_t>& fields) {
  if (!a.only_if) return true;
  return a.only_if->eval_bool(isa.operand_scope(op, fields));
}

std::int64_t action_items(const Isa& isa, const Action& a, const Opcode& op, const std::vector<std::int64_t>& fields) {
  return a.items.eval(isa.operand_scope(op, fields));
}

std::vector<const Action*> active_actions(const Isa& isa, const Opcode& op, const std::vector<std::int64_t>& fields) {
  std::vector<const Action*> out;
  for (const Action* a : isa.spec().actions_of(op.name))
    if (action_active(isa, *a, op, fields)) out.push_back(a);
  return out;
}

std::vector<std::string> units_reached(const Spec& spec, const Opcode& op) {
  std::vector<std::string> out;
  for (const Action* a : spec.actions_of(op.name))
    if (std::find(out.begin(), out.end(), a->unit) == out.end()) out.push_back(a->unit);
  return out;
}

std::vector<std::string> units_active(const Isa& isa, const Opcode& op, const std::vector<std::int64_t>& fields) {
  std::vector<std::string> out;
  for (const Action* a : active_actions(isa, op, fields))
    if (std::find(out.begin(), out.end(), a->unit) == out.end()) out.push_back(a->unit);
  return out;
}

std::int64_t port_items(const Isa& isa, const Opcode& op, std::string_view unit, std::string_view port,
                        const std::vector<std::int64_t>& fields) {
  std::int64_t n = 0;
  for (const Action* a : active_actions(isa, op, fields))
    if (a->unit == unit && a->port == port) n += action_items(isa, *a, op, fields);
  return n;
}

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The port groups of a unit: each serial group, then every other port alone.
std::vector<std::vector<const Port*>> port_groups(const Unit& u) {
  std::vector<std::vector<const Port*>> groups;
  std::set<std::string> grouped;
  for (const auto& g : u.serial) {
    std::vector<const Port*> ports;
    for (const auto& name : g) {
      ports.push_back(u.port(name));
      grouped.insert(name);
    }
    groups.push_back(std::move(ports));
  }
  for (const auto& p : u.ports)
    if (!grouped.count(p.name)) groups.push_back({&p});
  return groups;
}
}  // namespace

std::int64_t unit_cost(const Isa& isa, const Opcode& op, std::string_view unit, const std::vector<std::int64_t>& fields) {
  const Unit* u = isa.spec().unit(unit);
  if (!u) throw Error("spec.unknown_unit", fmt::format("no unit '{}'", unit));
  // Items per port of this unit, from one pass over the active actions.
  std::map<std::string_view, std::int64_t> items;
  for (const Action* a : active_actions(isa, op, fields))
    if (a->unit == unit) items[a->port] += action_items(isa, *a, op, fields);
  if (items.empty()) return 0;
  std::int64_t best = 0;
  for (const auto& group : port_groups(*u)) {
    std::int64_t steps = 0;
    for (const Port* p : group) {
      auto it = items.find(p->name);
      if (it != items.end()) steps += ceil_div(it->second, p->rate);
    }
    best = std::max(best, steps);
  }
  return best;
}

RowSchedule row_schedule(const Isa& isa, const Opcode& op, std::string_view unit, const std::vector<std::int64_t>& fields) {
  RowSchedule rs;
  const Unit* u = isa.spec().unit(unit);
  if (!u) throw Error("spec.unknown_unit", fmt::format("no unit '{}'", unit));
  const std::int64_t nr = std::max<std::int64_t>(1, isa.nr(Instr{fields, {}, 0}));
  const std::int64_t cost = unit_cost(isa, op, unit, fields);
  rs.steps_per_row = std::max<std::int64_t>(1, cost / nr);
  std::map<std::string, std::int64_t> seen;  // items placed per port within a row
  for (const Action* a : active_actions(isa, op, fields)) {
    if (a->unit != unit) continue;
    const Port* p = u->port(a->port);
    std::int64_t step = 0;
    if (a->kind == ActionKind::Write) {
      step = rs.steps_per_row - 1;
    } else {
      step = seen[a->port] / p->rate;
      seen[a->port] += 1;
    }
    rs.steps.emplace_back(a, std::min(step, rs.steps_per_row - 1));
  }
  return rs;
}

// --- Symbolic ---------------------------------------------------------------

std::string LinearForm::text() const {
  std::vector<std::string> parts;
  auto term = [&](std::int64_t c, const char* name) {
    if (c == 0) return;
    parts.push_back(c == 1 ? std::string(name) : fmt::format("{} * {}", c, name));
  };
  term(per_nr, "nr");
  term(per_t, "T");
  if (constant != 0 || parts.empty()) parts.push_back(std::to_string(constant));
  return fmt::format("{}", fmt::join(parts, " + "));
}

std::string CostEntry::text() const {
  if (form) return form->text();
  return fmt::format("{} at nr=8", at_nr8);
}

namespace {

/// Every combination of legal values of the operands the opcode's only_if
/// conditions read, as field vectors (other fields zero, nr = `nr`).
std::vector<std::vector<std::int64_t>> condition_cases(const Isa& isa, const Opcode& op, std::int64_t nr, std::int64_t t_value) {
  std::set<std::string> names;
  for (const Action* a : isa.spec().actions_of(op.name))
    if (a->only_if)
      for (const auto& n : a->only_if->names())
        if (op.operand(n)) names.insert(n);
  std::vector<std::vector<std::int64_t>> cases(1, std::vector<std::int64_t>(isa.spec().word0.size(), 0));
  cases[0][isa.nr_index()] = nr;
  const Scope params = scope_with({{"T", t_value}}, isa.params().scope());
  for (const auto& n : names) {
    const Operand* o = op.operand(n);
    std::vector<std::int64_t> values;
    if (o->legal && o->legal->is_set()) values = o->legal->values;
    else if (o->legal && o->legal->min && o->legal->max)
      for (std::int64_t v = o->legal->min->eval(params); v <= o->legal->max->eval(params) && values.size() < 64; ++v) values.push_back(v);
    else values = {0, 1};
    std::vector<std::vector<std::int64_t>> next;
    for (const auto& c : cases)
      for (auto v : values) {
        auto d = c;
        d[isa.operand_index(op, n)] = v;
        next.push_back(std::move(d));
      }
    cases = std::move(next);
  }
  return cases;
}

/// The cost over (nr, T) for one case, as a linear form if it is one. T is
/// sampled at multiples of 4, where every parameter set resolves.
std::optional<LinearForm> fit_linear(const std::function<std::int64_t(std::int64_t, std::int64_t)>& f) {
  LinearForm lf;
  const std::int64_t base = f(0, 4);
  const std::int64_t dt = f(0, 8) - base;
  if (dt % 4 != 0) return std::nullopt;
  lf.per_t = dt / 4;
  lf.per_nr = f(1, 4) - base;
  lf.constant = base - 4 * lf.per_t;
  for (auto [nr, t] : {std::pair{2, 12}, {5, 16}, {8, 4}, {127, 8}})
    if (f(nr, t) != lf.at(nr, t)) return std::nullopt;
  return lf;
}

}  // namespace

std::vector<CostEntry> cost_table(const Isa& isa) {
  std::vector<CostEntry> out;
  const Spec& spec = isa.spec();
  const std::int64_t t_now = isa.param("T");
  for (const auto& op : spec.opcodes) {
    for (const auto& unit : units_reached(spec, op)) {
      CostEntry e{op.name, unit, std::nullopt, 0};
      std::optional<LinearForm> agreed;
      bool consistent = true;
      const auto cases0 = condition_cases(isa, op, 0, t_now);
      for (std::size_t k = 0; k < cases0.size(); ++k) {
        // T enters the item counts through the parameters, so a cost at
        // another T is evaluated against parameters resolved at that T.
        auto f = [&](std::int64_t nr, std::int64_t t) -> std::int64_t {
          if (t == t_now) return unit_cost(isa, op, unit, condition_cases(isa, op, nr, t)[k]);
          const Isa at_t(spec, resolve_params(spec, {{"T", t}, {"MAXDIM", 4 * t}}, nullptr));
          return unit_cost(at_t, op, unit, condition_cases(at_t, op, nr, t)[k]);
        };
        const std::int64_t at8 = f(8, t_now);
        if (at8 == 0) continue;  // the unit is not reached in this case
        e.at_nr8 = std::max(e.at_nr8, at8);
        auto lf = fit_linear(f);
        if (!lf) consistent = false;
        else if (!agreed) agreed = lf;
        else if (!(*agreed == *lf)) consistent = false;
      }
      if (consistent) e.form = agreed;
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<Rewrite> nr_rewrites(const Isa& isa) {
  std::vector<Rewrite> out;
  const LinearForm identity{0, 1, 0};
  for (const auto& e : cost_table(isa)) {
    const Unit* u = isa.spec().unit(e.unit);
    if (!u->dispatched()) continue;
    if (e.form && *e.form == identity) continue;
    if (!e.form)
      throw Error("derive.rewrite", fmt::format("{} costs {} a count that is not linear in nr and T", e.opcode, e.unit));
    out.push_back({e.opcode, e.unit, *e.form});
  }
  return out;
}

namespace {
std::vector<MemoryAccess> accesses(const Spec& spec, const Memory& mem, ActionKind kind) {
  std::vector<MemoryAccess> out;
  const bool host = (kind == ActionKind::Write && mem.host == "written") || (kind == ActionKind::Read && mem.host == "read");
  if (host) out.push_back({"the host", "", ""});
  for (const auto& a : spec.actions) {
    if (a.kind != kind || a.state != mem.name) continue;
    MemoryAccess m{a.opcode, a.base, a.only_if ? a.only_if->text() : ""};
    const bool seen = std::any_of(out.begin(), out.end(), [&](const MemoryAccess& x) {
      return x.opcode == m.opcode && x.condition == m.condition;
    });
    if (!seen) out.push_back(std::move(m));
  }
  return out;
}
}  // namespace

std::vector<MemoryAccess> memory_writers(const Spec& spec, const Memory& mem) { return accesses(spec, mem, ActionKind::Write); }
std::vector<MemoryAccess> memory_readers(const Spec& spec, const Memory& mem) {
  auto out = accesses(spec, mem, ActionKind::Read);
  // A memory no action reads (imem) is read by its owner unit.
  if (out.empty()) out.push_back({mem.owner, "", ""});
  return out;
}

std::int64_t agu_legal_trip(const Legal& legal, std::int64_t base, std::int64_t stride, const Scope& params, std::int64_t cap) {
  std::int64_t t = 0;
  while (t < cap && legal.admits(base + t * stride, params)) ++t;
  return t;
}

}  // namespace tpugen
