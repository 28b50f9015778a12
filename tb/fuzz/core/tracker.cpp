#include "fuzz/core/tracker.h"

#include <fmt/format.h>

#include <algorithm>

namespace tpugen::fuzz {

Tracker::Tracker(const IsaFacts& facts) : facts_(&facts) {
  for (const MemoryFacts& m : facts.memories()) {
    written_.emplace_back(m.dram ? 0 : static_cast<std::size_t>(m.rows), false);
    last_.emplace_back(m.distance ? static_cast<std::size_t>(m.rows) : 0, -1);
    iteration_.push_back(0);
  }
  unit_steps_.assign(facts.isa().spec().units.size(), 0);
}

bool Tracker::written(std::size_t memory, std::int64_t row) const {
  const MemoryFacts& m = facts_->memories()[memory];
  if (row < 0 || row >= m.rows) return false;
  return m.dram ? m.host_written : written_[memory][static_cast<std::size_t>(row)];
}

void Tracker::assume_written(std::size_t memory, std::int64_t first, std::int64_t end) {
  auto& w = written_[memory];
  for (std::int64_t r = std::max<std::int64_t>(0, first); r < end && r < static_cast<std::int64_t>(w.size()); ++r)
    w[static_cast<std::size_t>(r)] = true;
}

std::int64_t Tracker::last_write(std::size_t memory, std::int64_t row) const {
  const auto& last = last_[memory];
  if (row < 0 || row >= static_cast<std::int64_t>(last.size())) return -1;
  return last[static_cast<std::size_t>(row)];
}

std::vector<std::pair<std::int64_t, std::int64_t>> Tracker::written_runs(std::size_t memory,
                                                                         std::int64_t min_length) const {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  const std::int64_t rows = facts_->memories()[memory].rows;
  std::int64_t start = -1;
  for (std::int64_t r = 0; r <= rows; ++r) {
    const bool w = r < rows && written(memory, r);
    if (w && start < 0) start = r;
    if (!w && start >= 0) {
      if (r - start >= min_length) out.emplace_back(start, r);
      start = -1;
    }
  }
  return out;
}

std::int64_t Tracker::max_unit_steps() const {
  std::int64_t m = 0;
  for (std::int64_t s : unit_steps_) m = std::max(m, s);
  return m;
}

std::string Tracker::apply(const Program& program) {
  std::string why;
  try {
    for_each_issue(facts_->isa(), program, [&](const Issue& is) {
      if (why.empty()) why = apply(is);
    });
  } catch (const Error& e) {
    return e.message();
  }
  return why;
}

std::string Tracker::apply(const Issue& is, IssueEvents* events, bool lenient) {
  const Isa& isa = facts_->isa();
  const Spec& spec = isa.spec();
  const Opcode& op = *is.opcode;
  const OpcodeFacts& f = facts_->of(op);
  ++issues_;
  std::string broken;
  // Record a broken promise: the first one is the answer; strict mode stops at it.
  auto fail = [&](std::string why) {
    if (broken.empty()) broken = std::move(why);
    return !lenient;
  };
  if (!f.live() && fail(fmt::format("{} is retired", op.name))) return broken;
  for (std::size_t k = 0; k < spec.word0.size(); ++k) {
    const std::int64_t v = is.fields[k];
    if ((v < 0 || v > spec.word0[k].usable_max) &&
        fail(fmt::format("{} resolves field {} to {}, outside 0 .. {}", op.name, spec.word0[k].name, v,
                         spec.word0[k].usable_max)))
      return broken;
  }
  for (const OperandFacts& o : f.operands) {
    if (!o.restricted()) continue;
    const std::int64_t v = is.fields[o.field];
    if (!std::binary_search(o.legal.begin(), o.legal.end(), v) &&
        fail(fmt::format("{} {} resolves to {}, not a legal value", op.name, o.name(), v)))
      return broken;
  }
  const std::int64_t nr = is.fields[isa.nr_index()];
  if (op.nr != NrKind::None && nr < 1 && fail(fmt::format("{} has nr = {}", op.name, nr))) return broken;

  // Every access inside its memory; every on-chip row read holds data.
  const IssueShape& shape = facts_->shape(f, is.fields);
  std::vector<IssueAccess> accesses;
  for (std::size_t i = 0; i < shape.active.size(); ++i) {
    const AccessFacts* a = shape.active[i];
    const MemoryFacts& m = facts_->memories()[a->memory];
    const std::int64_t base = is.fields[f.operands[a->operand].field];
    const std::int64_t n = shape.items[i];
    accesses.push_back({a, base, n});
    if (base < 0 || base + n > m.rows) {
      accesses.back().inside = false;
      if (fail(fmt::format("{} {} rows {} .. {} of {}, which has {}", op.name, a->read ? "reads" : "writes", base,
                           base + n - 1, m.name(), m.rows)))
        return broken;
      continue;
    }
    if (a->read && !m.dram)
      for (std::int64_t r = base; r < base + n; ++r)
        if (!written(a->memory, r) &&
            fail(fmt::format("{} reads {} row {}, which holds no data", op.name, m.name(), r)))
          return broken;
  }

  // Distance contracts, row by row as check_program counts them: row r of
  // the issue occupies the owner's iterations [r * spr, (r + 1) * spr), each
  // action on its step of the row schedule, reads before the write on a step.
  std::vector<DistanceRead> distances;
  for (const IssueShape::Distance& d : shape.distances) {
    const MemoryFacts& m = facts_->memories()[d.memory];
    auto& last = last_[d.memory];
    const std::int64_t rows = (d.cost + d.steps_per_row - 1) / d.steps_per_row;
    for (std::int64_t r = 0; r < rows; ++r)
      for (const auto& [index, step] : d.events) {
        const IssueAccess& e = accesses[index];
        if (r >= e.items || !e.inside) continue;
        const std::int64_t row = e.base + r;
        const std::int64_t t = iteration_[d.memory] + r * d.steps_per_row + step;
        auto& lw = last[static_cast<std::size_t>(row)];
        if (!e.access->read) {
          lw = t;
        } else if (lw >= 0) {
          distances.push_back({e.access, row, t - lw});
          if (t - lw < m.min_distance &&
              fail(fmt::format("{} reads {} row {} {} iterations after its write; the minimum is {}", op.name, m.name(),
                               row, t - lw, m.min_distance)))
            return broken;
        }
      }
    iteration_[d.memory] += d.cost;
  }

  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const IssueAccess& a = accesses[i];
    const MemoryFacts& m = facts_->memories()[a.access->memory];
    if (a.access->read || m.dram || !a.inside) continue;
    for (std::int64_t r = a.base; r < a.base + a.items; ++r)
      written_[a.access->memory][static_cast<std::size_t>(r)] = true;
  }
  for (std::size_t u = 0; u < spec.units.size(); ++u) unit_steps_[u] += shape.unit_cost[u];
  if (events) {
    events->accesses = std::move(accesses);
    events->distances = std::move(distances);
  }
  return broken;
}

}  // namespace tpugen::fuzz
