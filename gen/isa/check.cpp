#include "isa/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "isa/derive.h"
#include "isa/image.h"

namespace tpugen {

namespace {

/// What a row of a memory holds, for the write-before-read contracts.
enum class RowState : std::uint8_t {
  Unwritten,        ///< nothing has written it (and the hardware does not clear it)
  Written,          ///< written with data: by the host, or from a computation or a copy of written data
  CopiedUnwritten,  ///< written by a pure copy of an unwritten row: still garbage
};

/// The largest value `width` bits hold at all (not the encoding rule's usable range).
std::int64_t bit_capacity(int width) {
  return width >= 63 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << width) - 1;
}

std::int64_t saturating_mul(std::int64_t a, std::int64_t b, std::int64_t cap) {
  if (a == 0 || b == 0) return 0;
  return a > cap / b ? cap : std::min(cap, a * b);
}

/// One memory's rows and what each holds.
struct MemoryRows {
  const Memory* memory = nullptr;
  std::int64_t rows = 0;  ///< on-chip depth, or DRAM rows
  std::vector<RowState> state;
};

/// A distance contract (e.g. ar_raw_dist): the owner unit's iteration of the
/// last write to each row of its memory.
struct DistanceTrack {
  const Contract* contract = nullptr;
  const Memory* memory = nullptr;
  std::int64_t min_distance = 0;
  std::int64_t iteration = 0;            ///< owner-unit iterations before the current issue
  std::vector<std::int64_t> last_write;  ///< -1: never written
  std::vector<std::size_t> last_writer;  ///< pc of that write
};

/// The data flow of one issue between units, from its active actions: a unit
/// feeds another when it emits on a port the other receives on.
struct IssueFlow {
  std::set<std::string> computing;  ///< units with a non-copy, non-control compute
  std::map<std::string, std::set<std::string>> downstream, upstream;

  /// The unit and every unit its data reaches (forward) or comes from (backward).
  [[nodiscard]] std::set<std::string> closure(const std::string& unit, bool forward) const {
    std::set<std::string> seen{unit};
    std::vector<std::string> todo{unit};
    const auto& edges = forward ? downstream : upstream;
    while (!todo.empty()) {
      const std::string u = todo.back();
      todo.pop_back();
      const auto it = edges.find(u);
      if (it == edges.end()) continue;
      for (const auto& v : it->second)
        if (seen.insert(v).second) todo.push_back(v);
    }
    return seen;
  }
  [[nodiscard]] bool any_computing(const std::set<std::string>& units) const {
    return std::any_of(units.begin(), units.end(), [&](const std::string& u) { return computing.count(u) > 0; });
  }
};

/// One read or write of a memory by an issue, resolved.
struct MemoryAccessAt {
  const Action* action = nullptr;
  MemoryRows* rows = nullptr;
  std::int64_t base = 0;
  std::int64_t items = 0;
  bool consumed = false;             ///< a read whose data reaches a non-copy compute
  bool computed = false;             ///< a write of data a non-copy compute produced
  std::vector<std::size_t> sources;  ///< for a copying write: indices of the reads it copies
};

class Checker {
 public:
  Checker(const Isa& isa, const Program& program, std::size_t max_issues)
      : isa_(isa), spec_(isa.spec()), program_(program), max_issues_(max_issues) {}

  CheckResult run() {
    static_checks();
    encode_checks();
    if (expandable_) dynamic_checks();
    std::stable_sort(result_.violations.begin(), result_.violations.end(),
                     [](const Violation& a, const Violation& b) { return a.pc < b.pc; });
    return std::move(result_);
  }

 private:
  const Isa& isa_;
  const Spec& spec_;
  const Program& program_;
  std::size_t max_issues_;
  CheckResult result_;
  bool expandable_ = true;  ///< control flow is sane enough for expand()
  std::set<std::tuple<std::size_t, std::string, std::string>> reported_;
  std::set<std::size_t> field_range_pcs_;  ///< instructions with a static field_range violation
  std::vector<MemoryRows> memories_;
  std::vector<DistanceTrack> distances_;
  std::map<std::vector<const Action*>, IssueFlow> flows_;
  std::size_t issue_index_ = 0;

  // --- Reporting -------------------------------------------------------------

  [[nodiscard]] std::string opcode_name(std::size_t pc) const {
    if (pc >= program_.instrs.size()) return "end of program";
    const Instr& in = program_.instrs[pc];
    if (in.fields.size() != spec_.word0.size()) return "malformed";
    if (const Opcode* op = isa_.opcode_of(in)) return op->name;
    return fmt::format("opcode {}", in.fields[isa_.op_index()]);
  }

  /// Record a violation once per (pc, rule, subject): a loop that breaks a
  /// contract on every iteration gives one message. `rule` is a contract id of
  /// the spec (the unit tests hold every id used here to spec.contracts).
  void add(std::string_view rule, std::size_t pc, const std::string& subject, std::string message) {
    if (!reported_.emplace(pc, std::string(rule), subject).second) return;
    if (rule == "field_range") field_range_pcs_.insert(pc);
    const int line = pc < program_.instrs.size() ? program_.instrs[pc].line : 0;
    result_.violations.push_back({std::string(rule), pc, line, std::move(message), opcode_name(pc)});
  }

  // --- Static checks -----------------------------------------------------------

  void static_checks() {
    const std::int64_t depth = spec_.isa_constant("LOOP_DEPTH");
    const Opcode* loop_op = spec_.opcode("loop");
    const Opcode* endloop_op = spec_.opcode("endloop");
    std::vector<std::size_t> open;  // pcs of the loops open at this point
    for (std::size_t pc = 0; pc < program_.instrs.size(); ++pc) {
      const Instr& in = program_.instrs[pc];
      if (in.fields.size() != spec_.word0.size()) {
        add("field_range", pc, "shape",
            fmt::format("the instruction has {} word-0 fields; the spec's word 0 has {}", in.fields.size(),
                        spec_.word0.size()));
        expandable_ = false;
        continue;
      }
      const Opcode* op = isa_.opcode_of(in);
      check_fields(pc, in, op);
      if (!op) {
        add("known_opcode", pc, "op", fmt::format("opcode {} is not one the spec defines", in.fields[isa_.op_index()]));
        expandable_ = false;
      } else {
        check_opcode(pc, in, *op);
      }
      check_terms(pc, in, op, open.size());
      if (op && op == loop_op) {
        if (static_cast<std::int64_t>(open.size()) >= depth) {
          add("loop_depth", pc, "loop",
              fmt::format("this loop opens level {}; loops nest at most LOOP_DEPTH = {} deep", open.size(), depth));
          expandable_ = false;
        }
        open.push_back(pc);
      } else if (op && op == endloop_op) {
        if (open.empty()) {
          add("loop_balance", pc, "loop", "endloop without an open loop");
          expandable_ = false;
        } else {
          open.pop_back();
        }
      }
    }
    for (std::size_t pc : open) {
      add("loop_balance", pc, "loop", "this loop is never closed by an endloop");
      expandable_ = false;
    }
    check_imem();
    if (expandable_) check_issue_bound();
  }

  /// Every word-0 field within the encoding rule's range.
  void check_fields(std::size_t pc, const Instr& in, const Opcode* op) {
    for (std::size_t k = 0; k < spec_.word0.size(); ++k) {
      const Field& f = spec_.word0[k];
      const std::int64_t v = in.fields[k];
      if (k == isa_.op_index() && !op) continue;  // known_opcode says it
      if (v < 0 || v > bit_capacity(f.width)) expandable_ = false;
      if (v >= 0 && v <= f.usable_max) continue;
      std::string what = f.name;
      if (op)
        if (const Operand* o = op->operand_in_field(f.name)) what = fmt::format("{} ({})", f.name, o->name);
      add("field_range", pc, f.name,
          fmt::format("field {} = {} is outside 0 .. {} (a {}-bit field under the {} rule)", what, v, f.usable_max,
                      f.width, spec_.encoding_rule_name));
    }
  }

  /// Per-opcode static rules: retired, nr, loop trip, legal base values.
  void check_opcode(std::size_t pc, const Instr& in, const Opcode& op) {
    if (op.retired) add("retired_opcode", pc, "op", fmt::format("{} is retired: {}", op.name, *op.retired));
    const std::int64_t nr = isa_.nr(in);
    if (op.nr == NrKind::Rows && nr < 1)
      add("nr_at_least_one", pc, "nr",
          fmt::format("nr = {}; a data op moves at least one row (a zero-row instruction desynchronises its units)",
                      nr));
    if (op.nr == NrKind::Trip && nr < 1)
      add("loop_trip", pc, "nr",
          fmt::format("loop trip count nr = {}; the sequencer's loop is do-while, so the minimum is 1", nr));
    const Scope params = isa_.params().scope();
    for (const Operand& o : op.operands) {
      if (!o.legal) continue;
      const std::int64_t v = in.fields[isa_.field_index(o.field)];
      if (!o.legal->admits(v, params))
        add("legal_values", pc, o.name,
            fmt::format("{} {} = {} is not a legal value ({})", op.name, o.name, v, o.legal->describe()));
    }
  }

  /// AGU terms: count, subfield ranges, targets, open levels.
  void check_terms(std::size_t pc, const Instr& in, const Opcode* op, std::size_t open_levels) {
    if (in.terms.empty()) return;
    const TermLayout& layout = spec_.term;
    if (static_cast<std::int64_t>(in.terms.size()) > layout.count)
      add("field_range", pc, "terms",
          fmt::format("{} AGU terms; an instruction carries at most {}", in.terms.size(), layout.count));
    for (std::size_t j = 0; j < in.terms.size(); ++j) check_term_subfields(pc, in.terms[j], j);
    const bool no_operands = op && op->operands.empty();
    if (no_operands)
      add("agu_level_open", pc, "terms",
          fmt::format("{} carries {} AGU term(s); an opcode without operands ({}) carries none", op->name,
                      in.terms.size(), "loop, endloop, nop"));
    for (std::size_t j = 0; j < in.terms.size(); ++j) {
      const AguTerm& t = in.terms[j];
      if (t.level < 0 || t.level >= static_cast<std::int64_t>(open_levels)) {
        expandable_ = false;
        if (!no_operands)
          add("agu_level_open", pc, fmt::format("term {}", j),
              fmt::format("AGU term {} names loop level {}, but {} loop level(s) are open here", j, t.level,
                          open_levels));
      }
      check_term_target(pc, t, j, op, no_operands);
    }
  }

  void check_term_subfields(std::size_t pc, const AguTerm& t, std::size_t j) {
    const std::pair<const char*, std::int64_t> parts[] = {
        {"target", t.target}, {"level", t.level}, {"stride", t.stride}};
    for (const auto& [name, v] : parts) {
      const Field& f = spec_.term.subfield(name);
      if (v < 0 || v > bit_capacity(f.width)) expandable_ = false;
      if (v >= 0 && v <= f.usable_max) continue;
      add("field_range", pc, fmt::format("term {} {}", j, name),
          fmt::format("AGU term {} {} = {} is outside 0 .. {} (a {}-bit subfield under the {} rule)", j, name, v,
                      f.usable_max, f.width, spec_.encoding_rule_name));
    }
  }

  void check_term_target(std::size_t pc, const AguTerm& t, std::size_t j, const Opcode* op, bool no_operands) {
    const std::string subject = fmt::format("term {}", j);
    if (t.target == spec_.unused_target) {
      if (!no_operands)
        add("agu_target", pc, subject,
            fmt::format("AGU term {} has the unused target {}: it names no field", j, t.target));
      return;
    }
    const Field* f = (t.target >= 0 && t.target <= std::numeric_limits<int>::max())
                         ? spec_.field_by_target(static_cast<int>(t.target))
                         : nullptr;
    if (!f) {
      expandable_ = false;
      if (!no_operands)
        add("agu_target", pc, subject, fmt::format("AGU term {} target {} names no field", j, t.target));
      return;
    }
    if (op && !no_operands && !op->operand_in_field(f->name))
      add("agu_target", pc, subject,
          fmt::format("AGU term {} targets {} (target {}), which is not an operand of {}", j, f->name, t.target,
                      op->name));
  }

  /// The header and the instructions fit IMEM_SIZE, and the static count fits its slice.
  void check_imem() {
    const auto n = static_cast<std::int64_t>(program_.instrs.size());
    const std::int64_t imem = isa_.param("IMEM_SIZE");
    const std::int64_t words = spec_.nhdr + spec_.iwords * n;
    if (words > imem) {
      const std::int64_t fit = imem >= spec_.nhdr ? (imem - spec_.nhdr) / std::max(1, spec_.iwords) : 0;
      add("imem_fits", static_cast<std::size_t>(fit), "imem",
          fmt::format("the image is NHDR + IWORDS * {} = {} words; IMEM_SIZE is {} (instructions from {} on do not "
                      "fit)",
                      n, words, imem, fit));
    }
    for (const HeaderEntry& h : spec_.header) {
      if (h.count.kind != HeaderCount::Static || n <= h.usable_max) continue;
      add("imem_fits", static_cast<std::size_t>(h.usable_max), h.name,
          fmt::format("{} static instructions; the header count {} carries at most {} ({}-bit slice)", n, h.name,
                      h.usable_max, h.width));
    }
  }

  /// The issue count of a structured program is exact statically: each
  /// instruction issues once per iteration of every enclosing loop.
  void check_issue_bound() {
    const Opcode* loop_op = spec_.opcode("loop");
    const Opcode* endloop_op = spec_.opcode("endloop");
    const auto cap = static_cast<std::int64_t>(max_issues_) + 1;
    std::vector<std::int64_t> times{1};
    std::int64_t total = 0, worst = 0;
    std::size_t worst_pc = 0;
    for (std::size_t pc = 0; pc < program_.instrs.size(); ++pc) {
      const Instr& in = program_.instrs[pc];
      const Opcode* op = isa_.opcode_of(in);
      const std::int64_t count = times.back();
      if (op == loop_op) times.push_back(saturating_mul(count, std::max<std::int64_t>(1, isa_.nr(in)), cap));
      const std::int64_t issued = op == endloop_op ? times.back() : count;
      if (op == endloop_op && times.size() > 1) times.pop_back();
      total = std::min(cap, total + issued);
      if (issued > worst) {
        worst = issued;
        worst_pc = pc;
      }
    }
    if (total <= static_cast<std::int64_t>(max_issues_)) return;
    expandable_ = false;
    add("issue_bound", worst_pc, "issues",
        fmt::format("this instruction issues {}{} times and the program more than {} in all (the expansion bound)",
                    worst >= cap ? "over " : "", std::min(worst, cap - 1), max_issues_));
  }

  /// A safety net: encode() asserts the encoding rule on every field; an
  /// error it raises that the static checks missed is still a violation.
  void encode_checks() {
    for (std::size_t pc = 0; pc < program_.instrs.size(); ++pc) {
      const Instr& in = program_.instrs[pc];
      if (field_range_pcs_.count(pc) || in.fields.size() != spec_.word0.size() || !isa_.opcode_of(in)) continue;
      try {
        (void)isa_.encode(in);
      } catch (const Error& e) {
        add("field_range", pc, "encode", e.message());
      }
    }
  }

  // --- Dynamic checks ------------------------------------------------------------

  [[nodiscard]] std::int64_t memory_rows(const Memory& m) const {
    try {
      const Scope s = isa_.params().scope();
      return std::max<std::int64_t>(0, m.dram ? m.dram->rows.eval(s) : m.depth.eval(s));
    } catch (const ExprError&) {
      return 0;
    }
  }

  void init_dynamic_state() {
    memories_.clear();
    memories_.reserve(spec_.memories.size());
    for (const Memory& m : spec_.memories) {
      MemoryRows r{&m, memory_rows(m), {}};
      const bool host_written = m.host == "written";
      r.state.assign(static_cast<std::size_t>(r.rows), host_written ? RowState::Written : RowState::Unwritten);
      memories_.push_back(std::move(r));
    }
    for (const Contract& c : spec_.contracts) {
      if (!c.min_distance || c.memory.empty()) continue;
      MemoryRows* rows = memory_state(c.memory);
      if (!rows) continue;
      DistanceTrack d;
      d.contract = &c;
      d.memory = rows->memory;
      d.min_distance = c.min_distance->eval(isa_.params().scope());
      d.last_write.assign(static_cast<std::size_t>(rows->rows), -1);
      d.last_writer.assign(static_cast<std::size_t>(rows->rows), 0);
      distances_.push_back(std::move(d));
    }
  }

  MemoryRows* memory_state(std::string_view name) {
    for (auto& m : memories_)
      if (m.memory->name == name) return &m;
    return nullptr;
  }

  void dynamic_checks() {
    std::size_t last_pc = 0;
    try {
      init_dynamic_state();
      for_each_issue(isa_, program_, [&](const Issue& is) {
        last_pc = is.pc;
        result_.issues.push_back(is);
        check_issue(is);
        ++issue_index_;
      }, max_issues_);
    } catch (const Error& e) {
      add(rule_for_expand_error(e.rule()), last_pc, "expand", e.message());
      result_.issues.clear();
      return;
    } catch (const ExprError& e) {
      add("field_range", last_pc, "expression", fmt::format("an action's expression fails: {}", e.what()));
      result_.issues.clear();
      return;
    }
    header_checks();
  }

  /// expand() refuses what the static checks already refuse; should it still
  /// throw, its rule maps to the contract that covers it.
  static std::string rule_for_expand_error(const std::string& rule) {
    static const std::pair<const char*, const char*> map[] = {
        {"expand.unknown_opcode", "known_opcode"}, {"expand.loop_depth", "loop_depth"},
        {"expand.loop_balance", "loop_balance"},   {"expand.level_not_open", "agu_level_open"},
        {"expand.bad_target", "agu_target"},       {"expand.too_long", "issue_bound"}};
    for (const auto& [from, to] : map)
      if (rule == from) return to;
    return "field_range";
  }

  void check_issue(const Issue& is) {
    const Opcode& op = *is.opcode;
    check_resolved_fields(is);
    check_legal_values(is, op);
    const auto actions = active_actions(isa_, op, is.fields);
    auto accesses = memory_accesses(is, op, actions);
    check_bounds(is, op, accesses);
    track_rows(is, op, accesses);
    for (auto& d : distances_) track_distance(is, op, d);
  }

  void check_resolved_fields(const Issue& is) {
    const Instr& in = program_.instrs[is.pc];
    for (std::size_t k = 0; k < spec_.word0.size(); ++k) {
      const Field& f = spec_.word0[k];
      const std::int64_t v = is.fields[k];
      if (v >= 0 && v <= f.usable_max) continue;
      const Operand* o = is.opcode->operand_in_field(f.name);
      add("field_range", is.pc, f.name,
          fmt::format("AGU-resolved {}={}{} is outside the 0..{} range the {} rule admits (static value {}, "
                      "issue {})",
                      f.name, v, o ? fmt::format(" ({})", o->name) : "", f.usable_max, spec_.encoding_rule_name,
                      in.fields[k], issue_index_));
    }
  }

  void check_legal_values(const Issue& is, const Opcode& op) {
    const Scope params = isa_.params().scope();
    for (const Operand& o : op.operands) {
      if (!o.legal) continue;
      const std::int64_t v = is.fields[isa_.field_index(o.field)];
      if (o.legal->admits(v, params)) continue;
      add("legal_values", is.pc, o.name,
          fmt::format("{} {} resolves to {} at issue {}, outside its legal values {}", op.name, o.name, v, issue_index_,
                      o.legal->describe()));
    }
  }

  /// The data flow of an issue's active actions (cached: it depends only on which are active).
  const IssueFlow& flow_of(const std::vector<const Action*>& actions) {
    auto it = flows_.find(actions);
    if (it != flows_.end()) return it->second;
    IssueFlow fl;
    std::map<std::string, std::set<std::string>> emitters, receivers;  // port -> units
    for (const Action* a : actions) {
      if (a->kind == ActionKind::Compute) {
        const Compute* c = spec_.compute(a->state);
        if (!c || (!c->copy && !c->control)) fl.computing.insert(a->unit);
      } else if (a->kind == ActionKind::Emit) {
        emitters[a->port].insert(a->unit);
      } else if (a->kind == ActionKind::Receive) {
        receivers[a->port].insert(a->unit);
      }
    }
    for (const auto& [port, from] : emitters)
      for (const auto& u : from)
        for (const auto& v : receivers[port]) {
          fl.downstream[u].insert(v);
          fl.upstream[v].insert(u);
        }
    return flows_.emplace(actions, std::move(fl)).first->second;
  }

  std::vector<MemoryAccessAt> memory_accesses(const Issue& is, const Opcode& op,
                                              const std::vector<const Action*>& actions) {
    const IssueFlow& fl = flow_of(actions);
    std::vector<MemoryAccessAt> out;
    for (const Action* a : actions) {
      if (a->kind != ActionKind::Read && a->kind != ActionKind::Write) continue;
      MemoryRows* rows = memory_state(a->state);
      const Operand* base = op.operand(a->base);
      if (!rows || !base) continue;
      MemoryAccessAt m;
      m.action = a;
      m.rows = rows;
      m.base = is.fields[isa_.field_index(base->field)];
      m.items = action_items(isa_, *a, op, is.fields);
      if (a->kind == ActionKind::Read)
        m.consumed = fl.any_computing(fl.closure(a->unit, true));
      else
        m.computed = fl.any_computing(fl.closure(a->unit, false));
      out.push_back(std::move(m));
    }
    // A copying write copies the reads made in the units its data comes from.
    for (auto& w : out) {
      if (w.action->kind != ActionKind::Write || w.computed) continue;
      const auto from = fl.closure(w.action->unit, false);
      for (std::size_t r = 0; r < out.size(); ++r)
        if (out[r].action->kind == ActionKind::Read && from.count(out[r].action->unit)) w.sources.push_back(r);
    }
    return out;
  }

  [[nodiscard]] static bool in_rows(const MemoryAccessAt& m, std::int64_t row) {
    return row >= 0 && row < m.rows->rows;
  }

  void check_bounds(const Issue& is, const Opcode& op, const std::vector<MemoryAccessAt>& accesses) {
    for (const auto& m : accesses) {
      if (m.items < 1) continue;
      const std::int64_t last = m.base + m.items - 1;
      if (m.base >= 0 && last < m.rows->rows) continue;
      const Memory& mem = *m.rows->memory;
      add("memory_bounds", is.pc, m.action->base,
          fmt::format("{} {}s {} rows {} .. {} ({} = {}, {} rows) at issue {}; {} has rows 0 .. {}{}", op.name,
                      to_string(m.action->kind), mem.name, m.base, last, m.action->base, m.base, m.items, issue_index_,
                      mem.name, m.rows->rows - 1, mem.dram ? " (DRAM rows)" : ""));
    }
  }

  /// Walk the issue row by row: every read of item i, then every write of
  /// item i. A consumed read must find written data; a write records what it
  /// wrote (computed data, or a row-by-row copy of its source reads).
  void track_rows(const Issue& is, const Opcode& op, const std::vector<MemoryAccessAt>& accesses) {
    std::int64_t n = 0;
    for (const auto& m : accesses) n = std::max(n, m.items);
    std::vector<RowState> read_state(accesses.size(), RowState::Written);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < accesses.size(); ++k) {
        const auto& m = accesses[k];
        if (m.action->kind != ActionKind::Read || i >= m.items || !in_rows(m, m.base + i)) continue;
        read_state[k] = m.rows->state[static_cast<std::size_t>(m.base + i)];
        if (m.consumed && read_state[k] != RowState::Written) report_unwritten(is, op, m, m.base + i, read_state[k]);
      }
      for (const auto& m : accesses) {
        if (m.action->kind != ActionKind::Write || i >= m.items || !in_rows(m, m.base + i)) continue;
        RowState s = RowState::Written;
        if (!m.computed)
          for (std::size_t r : m.sources)
            if (i < accesses[r].items && read_state[r] != RowState::Written) s = RowState::CopiedUnwritten;
        m.rows->state[static_cast<std::size_t>(m.base + i)] = s;
      }
    }
  }

  /// The write-before-read contract of a memory: write_before_read_<memory>
  /// (ar), else the one of its format (operand memories: ..._operands).
  std::string write_before_read_rule(const Memory& mem) const {
    for (const std::string& id : {"write_before_read_" + mem.name, "write_before_read_" + mem.format + "s"})
      if (spec_.contract(id)) return id;
    return "write_before_read_operands";
  }

  void report_unwritten(const Issue& is, const Opcode& op, const MemoryAccessAt& m, std::int64_t row, RowState s) {
    const Memory& mem = *m.rows->memory;
    if (s == RowState::CopiedUnwritten) {
      add("vld_copies_unwritten", is.pc, m.action->base,
          fmt::format("{} {} reads {} row {} at issue {}, which a pure copy filled from an unwritten row", op.name,
                      m.action->base, mem.name, row, issue_index_));
      return;
    }
    add(write_before_read_rule(mem), is.pc, m.action->base,
        fmt::format("{} {} reads {} row {} at issue {}, which nothing in this program has written", op.name,
                    m.action->base, mem.name, row, issue_index_));
  }

  /// The owner unit's iterations: within an issue, row r occupies steps
  /// [r * steps_per_row, (r + 1) * steps_per_row), each action on its step
  /// from the row schedule; reads on a step come before the write on it.
  void track_distance(const Issue& is, const Opcode& op, DistanceTrack& d) {
    const std::string& unit = d.memory->owner;
    const std::int64_t cost = unit_cost(isa_, op, unit, is.fields);
    if (cost <= 0) return;
    const RowSchedule rs = row_schedule(isa_, op, unit, is.fields);
    const std::int64_t spr = std::max<std::int64_t>(1, rs.steps_per_row);
    struct Event {
      const Action* action;
      std::int64_t step, base, items;
    };
    std::vector<Event> events;
    for (const auto& [a, step] : rs.steps) {
      if ((a->kind != ActionKind::Read && a->kind != ActionKind::Write) || a->state != d.memory->name) continue;
      const Operand* base = op.operand(a->base);
      if (!base) continue;
      events.push_back({a, step, is.fields[isa_.field_index(base->field)], action_items(isa_, *a, op, is.fields)});
    }
    std::stable_sort(events.begin(), events.end(), [](const Event& x, const Event& y) {
      return std::tie(x.step, x.action->kind) < std::tie(y.step, y.action->kind);
    });
    const std::int64_t rows = (cost + spr - 1) / spr;
    for (std::int64_t r = 0; r < rows; ++r)
      for (const Event& e : events) {
        const std::int64_t row = e.base + r;
        if (r >= e.items || row < 0 || row >= static_cast<std::int64_t>(d.last_write.size())) continue;
        const std::int64_t t = d.iteration + r * spr + e.step;
        const auto x = static_cast<std::size_t>(row);
        if (e.action->kind == ActionKind::Write) {
          d.last_write[x] = t;
          d.last_writer[x] = is.pc;
        } else if (d.last_write[x] >= 0 && t - d.last_write[x] < d.min_distance) {
          add(d.contract->id, is.pc, e.action->base,
              fmt::format("{} {} reads {} row {} at {} iteration {}, {} after the write at iteration {} "
                          "(instruction {}, {}); the distance must be at least {} ({})",
                          op.name, e.action->base, d.memory->name, row, unit, t, t - d.last_write[x], d.last_write[x],
                          d.last_writer[x], opcode_name(d.last_writer[x]), d.min_distance,
                          d.contract->min_distance->text()));
        }
      }
    d.iteration += cost;
  }

  // --- Header --------------------------------------------------------------------

  void header_checks() {
    try {
      result_.header = header_counts(isa_, program_, result_.issues);
    } catch (const Error& e) {
      add("header_fits", 0, "header", e.message());
      return;
    } catch (const ExprError& e) {
      add("header_fits", 0, "header", e.what());
      return;
    }
    for (std::size_t e = 0; e < spec_.header.size(); ++e) {
      const HeaderEntry& h = spec_.header[e];
      const std::int64_t c = result_.header[e];
      if (h.count.kind == HeaderCount::Static || (c >= 0 && c <= h.usable_max)) continue;
      add("header_fits", header_culprit(h), h.name,
          fmt::format("header count {} = {} does not fit {} bits: its {}-bit slice imem[{}][{}:{}] carries 0 .. {} "
                      "(this instruction's issue takes it past)",
                      h.name, c, h.width - 1, h.width, h.word, h.lsb + h.width - 1, h.lsb, h.usable_max));
    }
  }

  /// The instruction whose issue first takes the count past its slice.
  std::size_t header_culprit(const HeaderEntry& h) const {
    std::int64_t running = 0;
    for (const Issue& is : result_.issues) {
      const Opcode& op = *is.opcode;
      switch (h.count.kind) {
        case HeaderCount::Static:
          return 0;
        case HeaderCount::UnitSteps:
          running += unit_cost(isa_, op, h.count.unit, is.fields);
          break;
        case HeaderCount::PortItems:
          running += port_items(isa_, op, h.count.unit, h.count.port, is.fields);
          break;
        case HeaderCount::StateSpan:
          for (const Action* a : active_actions(isa_, op, is.fields))
            if (a->kind == ActionKind::Read && a->state == h.count.state)
              if (const Operand* o = op.operand(a->base))
                running =
                    std::max(running, is.fields[isa_.field_index(o->field)] + action_items(isa_, *a, op, is.fields));
          break;
      }
      if (running > h.usable_max) return is.pc;
    }
    return result_.issues.empty() ? 0 : result_.issues.back().pc;
  }
};

}  // namespace

std::string CheckResult::report(const std::string& source) const {
  std::string out;
  const std::string where = source.empty() ? "<program>" : source;
  for (const Violation& v : violations) {
    const std::string loc = v.line > 0 ? fmt::format("{}:{}", where, v.line) : where;
    out += fmt::format("{}: instruction {} ({}): [{}] {}\n", loc, v.pc, v.opcode, v.rule, v.message);
  }
  return out;
}

CheckResult check_program(const Isa& isa, const Program& program, std::size_t max_issues) {
  return Checker(isa, program, max_issues).run();
}

void check_image(const Isa& isa, std::span<const std::uint64_t> words, const Program& program, CheckResult& checked) {
  const Spec& spec = isa.spec();
  if (!checked.header.empty()) {
    const auto given = unpack_header(isa, words);
    for (std::size_t e = 0; e < spec.header.size() && e < checked.header.size(); ++e) {
      if (given[e] == checked.header[e]) continue;
      const HeaderEntry& h = spec.header[e];
      checked.violations.push_back(
          {"image.header", 0, 0,
           fmt::format("the header's {} (imem[{}][{}:{}]) is {}, but the program needs {}", h.name, h.word,
                       h.lsb + h.width - 1, h.lsb, given[e], checked.header[e]),
           "header"});
    }
  }
  const auto unused = isa.unused_masks();
  const auto iwords = static_cast<std::size_t>(spec.iwords);
  for (std::size_t pc = 0; pc < program.instrs.size(); ++pc) {
    for (std::size_t w = 0; w < iwords; ++w) {
      const std::size_t at = static_cast<std::size_t>(spec.nhdr) + pc * iwords + w;
      if (at >= words.size()) break;
      const std::uint64_t spare = words[at] & unused[w];
      if (spare == 0) continue;
      const Instr& in = program.instrs[pc];
      const Opcode* op = isa.opcode_of(in);
      checked.violations.push_back({"image.unused_bits", pc, in.line,
                                    fmt::format("word {} sets bits {:#x} that belong to no field", w, spare),
                                    op ? op->name : fmt::format("opcode {}", in.fields[isa.op_index()])});
    }
  }
  std::stable_sort(checked.violations.begin(), checked.violations.end(),
                   [](const Violation& x, const Violation& y) { return x.pc < y.pc; });
}

std::vector<std::uint64_t> assemble(const Isa& isa, const Program& program) {
  const CheckResult r = check_program(isa, program);
  if (!r.ok()) {
    const Violation& first = r.violations.front();
    throw Error("check." + first.rule,
                fmt::format("{} breaks {} contract(s):\n{}", program.source.empty() ? "the program" : program.source,
                            r.violations.size(), r.report(program.source)),
                SourceLoc{program.source, first.line});
  }
  return encode_image(isa, program);
}

}  // namespace tpugen
