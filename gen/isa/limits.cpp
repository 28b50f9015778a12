/// @file limits.cpp
/// @brief gemm_limits: every spec.program_limits entry measured on the
/// program gemm_program builds for a shape.
///
/// Predicates (`check`) are evaluated with M, K and N bound over the
/// parameter scope. When one fails the program is not built: the result
/// lists the predicates only (the measured limits are absent, not passed).
/// Measures:
///   max_nr         the largest nr of any data instruction (loop trips are
///                  the builder's to refuse)
///   max_field      the largest resolved operand field of any issue
///   header_count   every header count against its own slice's usable_max;
///                  the worst entry is reported, every entry over is named
///   program_words  NHDR + IWORDS * static instructions
///   memory_rows    the highest row each memory's reads and writes name,
///                  against depth - 1 (DRAM matrices: dram.rows - 1); the
///                  worst memory is reported
#include "isa/limits.h"

#include <fmt/format.h>

#include <algorithm>

#include "isa/derive.h"
#include "isa/image.h"

namespace tpugen {

namespace {

/// A measured quantity and where it was found.
struct Measured {
  std::int64_t value = 0, max = 0;
  std::string detail;
};

LimitResult result_of(const ProgramLimit& limit, const Measured& m) {
  LimitResult r;
  r.name = limit.name;
  r.rule = limit.rule;
  r.value = m.value;
  r.max = m.max;
  r.fits = m.value <= m.max;
  r.over = r.fits ? 0 : m.value - m.max;
  r.detail = m.detail;
  return r;
}

std::int64_t limit_max(const ProgramLimit& limit, const Scope& scope, std::int64_t fallback) {
  return limit.max ? limit.max->eval(scope) : fallback;
}

Measured max_nr(const Isa& isa, const Program& p, std::int64_t max) {
  Measured m{0, max, "no data instruction"};
  bool found = false;
  for (std::size_t pc = 0; pc < p.instrs.size(); ++pc) {
    const Opcode* op = isa.opcode_of(p.instrs[pc]);
    if (!op || op->nr != NrKind::Rows) continue;
    const std::int64_t nr = isa.nr(p.instrs[pc]);
    if (found && nr <= m.value) continue;
    found = true;
    m.value = nr;
    m.detail = fmt::format("{}: nr = {}", describe_instr(isa, p, pc), nr);
  }
  return m;
}

Measured max_field(const Isa& isa, const Program& p, const std::vector<Issue>& issues, std::int64_t max) {
  Measured m{-1, max, "no operand"};
  for (const Issue& is : issues)
    for (const Operand& o : is.opcode->operands) {
      const std::int64_t v = is.fields[isa.field_index(o.field)];
      if (v <= m.value) continue;
      m.value = v;
      m.detail = fmt::format("{}: {} = {} (field {})", describe_instr(isa, p, is.pc), o.name, v, o.field);
    }
  m.value = std::max<std::int64_t>(m.value, 0);
  return m;
}

Measured header_count(const Isa& isa, const Program& p, const std::vector<Issue>& issues) {
  const Spec& spec = isa.spec();
  const std::vector<std::int64_t> counts = header_counts(isa, p, issues);
  Measured m;
  std::size_t worst = 0;
  std::vector<std::string> over;
  for (std::size_t e = 0; e < counts.size(); ++e) {
    const HeaderEntry& h = spec.header[e];
    if (counts[e] - h.usable_max > counts[worst] - spec.header[worst].usable_max) worst = e;
    if (counts[e] > h.usable_max)
      over.push_back(
          fmt::format("{} = {} > {} (over by {})", h.name, counts[e], h.usable_max, counts[e] - h.usable_max));
  }
  if (counts.empty()) return m;
  m.value = counts[worst];
  m.max = spec.header[worst].usable_max;
  m.detail = over.empty() ? fmt::format("closest: {} = {} of {}", spec.header[worst].name, m.value, m.max)
                          : fmt::format("{}", fmt::join(over, "; "));
  return m;
}

Measured memory_rows(const Isa& isa, const Program& p, const std::vector<Issue>& issues) {
  const Spec& spec = isa.spec();
  const Scope params = isa.params().scope();
  struct Seen {
    std::int64_t highest = -1;
    std::size_t pc = 0;
  };
  std::vector<Seen> seen(spec.memories.size());
  for (const Issue& is : issues)
    for (const Action* a : active_actions(isa, *is.opcode, is.fields)) {
      if ((a->kind != ActionKind::Read && a->kind != ActionKind::Write) || a->base.empty()) continue;
      for (std::size_t k = 0; k < spec.memories.size(); ++k) {
        if (spec.memories[k].name != a->state) continue;
        const std::int64_t items = action_items(isa, *a, *is.opcode, is.fields);
        const std::int64_t last =
            isa.operand(Instr{is.fields, {}, 0}, *is.opcode, a->base) + std::max<std::int64_t>(items, 1) - 1;
        if (last > seen[k].highest) seen[k] = Seen{last, is.pc};
      }
    }
  Measured m{0, 0, "no memory named"};
  bool any = false;
  for (std::size_t k = 0; k < spec.memories.size(); ++k) {
    if (seen[k].highest < 0) continue;
    const Memory& mem = spec.memories[k];
    const std::int64_t rows = mem.dram ? mem.dram->rows.eval(params) : mem.depth.eval(params);
    const std::int64_t margin = seen[k].highest - (rows - 1);
    if (any && margin <= m.value - m.max) continue;
    any = true;
    m.value = seen[k].highest;
    m.max = rows - 1;
    m.detail = fmt::format("{} row {} ({}); {} has rows 0 .. {}", mem.name, seen[k].highest,
                           describe_instr(isa, p, seen[k].pc), mem.name, rows - 1);
  }
  return m;
}

/// Every measured limit on one program.
std::vector<LimitResult> measure(const Isa& isa, GemmShape shape, GemmOptions options, const Scope& scope) {
  const Spec& spec = isa.spec();
  std::vector<LimitResult> out;
  Program p;
  std::vector<Issue> issues;
  try {
    p = gemm_program(isa, shape, options);
    issues = expand(isa, p);
  } catch (const Error& e) {
    LimitResult r;
    r.name = "program";
    r.rule = "the generator builds and expands the program";
    r.fits = false;
    r.detail = fmt::format("[{}] {}", e.rule(), e.message());
    return {r};
  }
  const Field& nr = spec.word0[isa.nr_index()];
  for (const ProgramLimit& limit : spec.program_limits) {
    if (limit.check) continue;
    Measured m;
    if (limit.measure == "max_nr") {
      m = max_nr(isa, p, limit_max(limit, scope, nr.usable_max));
    } else if (limit.measure == "max_field") {
      std::int64_t widest = 0;
      for (const Field& f : spec.word0)
        if (f.agu_target != 0) widest = std::max(widest, f.usable_max);
      m = max_field(isa, p, issues, limit_max(limit, scope, widest));
    } else if (limit.measure == "header_count") {
      m = header_count(isa, p, issues);
    } else if (limit.measure == "program_words") {
      m.value = spec.nhdr + spec.iwords * static_cast<std::int64_t>(p.instrs.size());
      m.max = limit_max(limit, scope, isa.param("IMEM_SIZE"));
      m.detail = fmt::format("{} header words + {} instructions x {} words", spec.nhdr, p.instrs.size(), spec.iwords);
    } else if (limit.measure == "memory_rows") {
      m = memory_rows(isa, p, issues);
    } else {
      continue;  // the loader admits no other measure
    }
    out.push_back(result_of(limit, m));
  }
  return out;
}

bool all_fit(const std::vector<LimitResult>& rs) {
  return std::all_of(rs.begin(), rs.end(), [](const LimitResult& r) { return r.fits; });
}

}  // namespace

GemmLimits gemm_limits(const Isa& isa, GemmShape shape) {
  GemmLimits out;
  out.shape = shape;
  const Scope scope = scope_with({{"M", shape.m}, {"K", shape.k}, {"N", shape.n}}, isa.params().scope());
  std::vector<LimitResult> checks;
  for (const ProgramLimit& limit : isa.spec().program_limits) {
    if (!limit.check) continue;
    LimitResult r;
    r.name = limit.name;
    r.rule = limit.rule;
    r.fits = limit.check->eval_bool(scope);
    if (!r.fits) r.detail = fmt::format("{}x{}x{} fails {}", shape.m, shape.k, shape.n, limit.check->text());
    checks.push_back(std::move(r));
  }
  out.limits = checks;
  out.split = checks;
  if (all_fit(checks)) {
    for (auto& r : measure(isa, shape, GemmOptions{false, false}, scope)) out.limits.push_back(std::move(r));
    for (auto& r : measure(isa, shape, GemmOptions{false, true}, scope)) out.split.push_back(std::move(r));
  }
  out.fits = all_fit(out.limits);
  out.split_fits = all_fit(out.split);
  return out;
}

}  // namespace tpugen
