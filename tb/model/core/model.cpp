/// @file model.cpp
/// @brief The reference model: each issue runs its opcode's active actions.
///
/// How values flow. Every unit an issue reaches is a small process holding a
/// list of value sequences (a sequence is rows of lanes). A `read` appends the
/// rows base .. base+items-1 of a memory; a `receive` pops items off the
/// channel named by its port and appends them; a `compute` replaces the whole
/// list with the named compute's result; an `emit` pushes the unit's one
/// sequence onto the channel named by its port (with the port's header items
/// in front); a `write` stores the unit's one sequence at rows base... The
/// processes form a dataflow network (channels are unbounded FIFOs, a receive
/// waits for its items), so the table order across units does not matter.
///
/// Row order. A unit whose every action moves `nr` items (and touches no
/// header port) runs its actions once per row, row by row, as its hardware
/// does: row r is read, computed and written before row r+1 is read. Any
/// other unit runs each action over all its items at once.
///
/// Program order. Every memory is owned by one unit (the constructor insists
/// that only the owner reads or writes it) and every unit processes its issues
/// in program order, so executing issue after issue is exact.
#include "model/core/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <set>
#include <utility>

#include "isa/derive.h"
#include "isa/image.h"

namespace tpugen {
namespace {

/// One item on a unit's value list or on a channel: a row of lanes, or a
/// header word (not data). A row remembers where it was read from, so that an
/// arithmetic consumer of an unwritten row can name it.
struct Item {
  std::vector<std::int64_t> lanes;
  bool written = true;
  bool header = false;
  const Memory* memory = nullptr;  ///< the memory the row was read from; null when computed
  std::int64_t row = 0;
};
using Seq = std::vector<Item>;

/// A lane format: its width and signedness.
struct Format {
  int bits = 0;
  bool is_signed = true;
  [[nodiscard]] std::int64_t lo() const { return is_signed ? -(std::int64_t{1} << (bits - 1)) : 0; }
  [[nodiscard]] std::int64_t hi() const {
    return is_signed ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
  }
  /// Two's-complement wraparound to this width.
  [[nodiscard]] std::int64_t wrap(std::int64_t v) const {
    if (bits >= 64) return v;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
    if (is_signed && (u >> (bits - 1)) != 0) u |= ~mask;
    return static_cast<std::int64_t>(u);
  }
  [[nodiscard]] std::int64_t saturate(std::int64_t v) const { return std::clamp(v, lo(), hi()); }
};

Format operand_format(const Numerics& n) { return {n.operand_bits, n.operand_signed}; }
Format accumulator_format(const Numerics& n) { return {n.accumulator_bits, n.accumulator_signed}; }
Format product_format(const Numerics& n) { return {n.product_bits, n.operand_signed}; }

/// The computes the model implements arithmetic for (copies and control
/// computes need none: a copy passes its values through, control moves no data).
constexpr std::array<std::string_view, 5> kArithmetic = {"matmul", "acc_add", "add", "max0", "to_operand"};

/// The data items of a sequence: every item but the header words.
Seq data_of(const Seq& s) {
  Seq out;
  for (const Item& it : s)
    if (!it.header) out.push_back(it);
  return out;
}

std::string_view verb(ActionKind k) { return k == ActionKind::Read ? "reads" : "writes"; }

}  // namespace

// ---------------------------------------------------------------------------
// One issue
// ---------------------------------------------------------------------------

struct Model::Executor {
  /// A unit's share of the issue: its active actions and where it is in them.
  struct Process {
    std::string unit;
    std::vector<std::pair<const Action*, std::int64_t>> steps;  ///< action, items
    bool by_row = false;                                        ///< one pass per row, one item per action
    std::int64_t passes = 1;
    std::int64_t pass = 0;
    std::size_t next = 0;     ///< the next step within the pass
    std::vector<Seq> values;  ///< the unit's current values
    [[nodiscard]] bool done() const { return pass >= passes; }
  };

  Model& model;
  const Isa& isa;
  const Program& program;
  const Issue& issue;
  const Opcode& op;
  const Numerics& numerics;
  std::vector<const Action*> actions;  ///< active, in table order
  std::set<std::string> received;      ///< ports an active action receives from
  std::map<std::string, std::deque<Item>> channels;
  std::set<std::pair<const Memory*, std::int64_t>> reported;

  Executor(Model& m, const Program& p, const Issue& i)
      : model(m),
        isa(*m.isa_),
        program(p),
        issue(i),
        op(*i.opcode),
        numerics(m.isa_->spec().numerics),
        actions(active_actions(isa, op, i.fields)) {
    for (const Action* a : actions)
      if (a->kind == ActionKind::Receive) received.insert(a->port);
  }

  [[noreturn]] void fail(const std::string& rule, const std::string& message) const {
    throw Error(rule, fmt::format("{}: {}", describe_instr(isa, program, issue.pc), message),
                SourceLoc{program.source, issue.line});
  }

  std::int64_t operand(std::string_view name) const { return issue.fields[isa.operand_index(op, name)]; }
  std::int64_t items(const Action& a) const { return action_items(isa, a, op, issue.fields); }

  /// The header items a channel carries: the most any unit on it declares for its port.
  std::int64_t header_items(std::string_view port) const {
    std::int64_t h = 0;
    for (const Action* a : actions) {
      if (a->port != port || (a->kind != ActionKind::Emit && a->kind != ActionKind::Receive)) continue;
      if (const Port* p = isa.spec().unit(a->unit)->port(port)) h = std::max(h, p->header_items);
    }
    return h;
  }

  // --- bounds, checked for the whole issue before anything moves ------------

  void check_bounds() const {
    for (const Action* a : actions) {
      if (a->kind != ActionKind::Read && a->kind != ActionKind::Write) continue;
      const Layout& lay = model.layout(a->state);
      const std::int64_t base = operand(a->base);
      const std::int64_t n = items(*a);
      if (n <= 0) continue;
      const std::int64_t limit = lay.dram() ? lay.dram_rows : lay.depth;
      if (base < 0 || base + n > limit) {
        const std::int64_t bad = base < 0 ? base : std::max(base, limit);
        fail("model.bounds",
             fmt::format("{} {} {}rows {} .. {} ({} = {}): row {} is outside {}'s 0 .. {}", verb(a->kind), a->state,
                         lay.dram() ? "DRAM " : "", base, base + n - 1, a->base, base, bad, a->state, limit - 1));
      }
      if (lay.dram()) {
        const std::string& pw = lay.memory->dram->packed_word;
        const std::int64_t cb = operand(pw);
        if (cb < 0 || cb >= lay.words_per_row())
          fail("model.bounds",
               fmt::format("{} {}: {} = {} is outside 0 .. {} (a DRAM row of {} holds {} packed words)", verb(a->kind),
                           a->state, pw, cb, lay.words_per_row() - 1, a->state, lay.words_per_row()));
      }
    }
  }

  // --- memories ---------------------------------------------------------------

  Seq read(const Action& a, std::int64_t first, std::int64_t count) const {
    const Layout& lay = model.layout(a.state);
    Seq out;
    for (std::int64_t r = first; r < first + count; ++r) {
      Item it;
      it.memory = lay.memory;
      it.row = r;
      if (lay.dram()) {
        const auto& bytes = model.dram_.find(a.state)->second;
        const std::int64_t at = r * lay.dram_row_lanes + operand(lay.memory->dram->packed_word) * lay.packed_lanes;
        for (std::int64_t l = 0; l < lay.packed_lanes; ++l) it.lanes.push_back(bytes[static_cast<std::size_t>(at + l)]);
      } else {
        it.lanes = model.rows_.find(a.state)->second[static_cast<std::size_t>(r)];
        it.written = model.written_.find(a.state)->second[static_cast<std::size_t>(r)];
      }
      out.push_back(std::move(it));
    }
    return out;
  }

  void write(const Action& a, std::int64_t first, std::int64_t count, const Seq& value) {
    const Layout& lay = model.layout(a.state);
    const Seq rows = data_of(value);
    if (static_cast<std::int64_t>(rows.size()) != count)
      fail("model.spec", fmt::format("{} writes {} rows of {} but holds {}", a.unit, count, a.state, rows.size()));
    const std::int64_t lanes = lay.dram() ? lay.packed_lanes : lay.lanes;
    for (std::int64_t i = 0; i < count; ++i) {
      const Item& it = rows[static_cast<std::size_t>(i)];
      if (static_cast<std::int64_t>(it.lanes.size()) != lanes)
        fail("model.format",
             fmt::format("a row of {} lanes written to {}, whose rows hold {}", it.lanes.size(), a.state, lanes));
      for (std::int64_t v : it.lanes)
        if (v < lay.lo || v > lay.hi)
          fail("model.format", fmt::format("lane value {} does not fit {}'s {} format ({} .. {})", v, a.state,
                                           lay.memory->format, lay.lo, lay.hi));
      const std::int64_t r = first + i;
      if (lay.dram()) {
        auto& bytes = model.dram_.find(a.state)->second;
        const std::int64_t at = r * lay.dram_row_lanes + operand(lay.memory->dram->packed_word) * lay.packed_lanes;
        auto& stored = model.dram_stored_.find(a.state)->second;
        for (std::int64_t l = 0; l < lanes; ++l) {
          bytes[static_cast<std::size_t>(at + l)] = static_cast<std::int8_t>(it.lanes[static_cast<std::size_t>(l)]);
          stored[static_cast<std::size_t>(at + l)] = true;
        }
      } else {
        model.rows_.find(a.state)->second[static_cast<std::size_t>(r)] = it.lanes;
        model.written_.find(a.state)->second[static_cast<std::size_t>(r)] = it.written;
      }
    }
  }

  // --- computes ---------------------------------------------------------------

  /// An arithmetic consumer takes these rows: report every unwritten one (once per issue).
  void consume(const Seq& rows) {
    for (const Item& it : rows) {
      if (it.header || it.written || !it.memory) continue;
      if (!reported.emplace(it.memory, it.row).second) continue;
      model.unwritten_.push_back({issue.pc, issue.line, op.name, it.memory->name, it.row});
    }
  }

  static Item computed(std::vector<std::int64_t> lanes) {
    Item it;
    it.lanes = std::move(lanes);
    return it;
  }

  /// Weight-stationary product: values = [weights, activations]; output lane j
  /// of row r = sum over i ascending of act[r][i] * W[i][j], wrapping at the
  /// accumulator width.
  Seq matmul(const std::vector<Seq>& values) {
    if (values.size() != 2)
      fail("model.spec", fmt::format("matmul takes [weights, activations], not {} values", values.size()));
    const Seq w = data_of(values[0]);
    const Seq act = data_of(values[1]);
    consume(w);
    consume(act);
    if (w.empty()) fail("model.spec", "matmul received no weight rows");
    const std::size_t cols = w[0].lanes.size();
    for (const Item& row : w)
      if (row.lanes.size() != cols) fail("model.spec", "matmul's weight rows differ in width");
    const Format acc = accumulator_format(numerics);
    const Format prod = product_format(numerics);
    Seq out;
    for (const Item& a : act) {
      if (a.lanes.size() != w.size())
        fail("model.spec", fmt::format("an activation row of {} lanes meets {} weight rows", a.lanes.size(), w.size()));
      std::vector<std::int64_t> lanes(cols, 0);
      for (std::size_t j = 0; j < cols; ++j) {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < w.size(); ++i) sum = acc.wrap(sum + prod.wrap(a.lanes[i] * w[i].lanes[j]));
        lanes[j] = sum;
      }
      out.push_back(computed(std::move(lanes)));
    }
    return out;
  }

  /// Lane-wise sum of every value sequence, in list order, wrapping at the accumulator width.
  Seq lane_sum(const std::string& name, const std::vector<Seq>& values) {
    if (values.empty()) fail("model.spec", fmt::format("{} has nothing to add", name));
    const Format acc = accumulator_format(numerics);
    Seq out;
    for (const Seq& s : values) {
      const Seq rows = data_of(s);
      consume(rows);
      if (&s == &values.front()) {
        for (const Item& r : rows) out.push_back(computed(r.lanes));
        continue;
      }
      if (rows.size() != out.size())
        fail("model.spec", fmt::format("{} adds sequences of {} and {} rows", name, out.size(), rows.size()));
      for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k].lanes.size() != out[k].lanes.size())
          fail("model.spec", fmt::format("{} adds rows of different widths", name));
        for (std::size_t l = 0; l < rows[k].lanes.size(); ++l)
          out[k].lanes[l] = acc.wrap(out[k].lanes[l] + rows[k].lanes[l]);
      }
    }
    return out;
  }

  /// A lane-wise function of one value sequence.
  template <class F>
  Seq lane_map(const std::string& name, const std::vector<Seq>& values, F f) {
    if (values.size() != 1) fail("model.spec", fmt::format("{} takes one value sequence, not {}", name, values.size()));
    const Seq rows = data_of(values.front());
    consume(rows);
    Seq out;
    for (const Item& r : rows) {
      std::vector<std::int64_t> lanes;
      for (std::int64_t v : r.lanes) lanes.push_back(f(v));
      out.push_back(computed(std::move(lanes)));
    }
    return out;
  }

  std::vector<Seq> compute(const Action& a, std::vector<Seq> values) {
    const Compute& c = *isa.spec().compute(a.state);
    if (c.control || c.copy) return values;  // control moves no data; a copy passes rows (and validity) through
    const Format opnd = operand_format(numerics);
    if (c.name == "matmul") return {matmul(values)};
    if (c.name == "acc_add" || c.name == "add") return {lane_sum(c.name, values)};
    if (c.name == "max0")
      return {lane_map(c.name, values, [](std::int64_t v) { return std::max<std::int64_t>(v, 0); })};
    if (c.name == "to_operand") return {lane_map(c.name, values, [&](std::int64_t v) { return opnd.saturate(v); })};
    fail("model.compute", fmt::format("the model has no arithmetic for compute '{}'", c.name));
  }

  // --- processes ----------------------------------------------------------------

  const Seq& single(const Process& p, const Action& a) const {
    if (p.values.size() != 1)
      fail("model.spec", fmt::format("{} holds {} value sequences at its {} {}; it needs one", p.unit, p.values.size(),
                                     a.port, to_string(a.kind)));
    return p.values.front();
  }

  void emit(const Process& p, const Action& a, std::int64_t count) {
    if (!received.count(a.port)) return;  // nobody receives it in this issue: a counter, not data
    const Seq rows = data_of(single(p, a));
    const std::int64_t header = p.by_row ? 0 : header_items(a.port);
    if (header + static_cast<std::int64_t>(rows.size()) != count)
      fail("model.spec", fmt::format("{} emits {} items on {} but holds {} rows and {} header items", p.unit, count,
                                     a.port, rows.size(), header));
    auto& ch = channels[a.port];
    for (std::int64_t h = 0; h < header; ++h) {
      Item it;
      it.header = true;
      ch.push_back(std::move(it));
    }
    for (const Item& it : rows) ch.push_back(it);
  }

  /// Perform one step of a process; false when a receive must wait for items.
  bool perform(Process& p, const Action& a, std::int64_t count, std::int64_t offset) {
    switch (a.kind) {
      case ActionKind::Read:
        p.values.push_back(read(a, operand(a.base) + offset, count));
        return true;
      case ActionKind::Write:
        write(a, operand(a.base) + offset, count, single(p, a));
        return true;
      case ActionKind::Compute:
        p.values = compute(a, std::move(p.values));
        return true;
      case ActionKind::Emit:
        emit(p, a, count);
        return true;
      case ActionKind::Receive: {
        auto& ch = channels[a.port];
        if (static_cast<std::int64_t>(ch.size()) < count) return false;
        Seq s(ch.begin(), ch.begin() + count);
        ch.erase(ch.begin(), ch.begin() + count);
        p.values.push_back(std::move(s));
        return true;
      }
    }
    return true;
  }

  /// Run a process until it finishes or waits on a channel; true if it moved.
  bool advance(Process& p) {
    bool moved = false;
    while (!p.done()) {
      const auto& [a, n] = p.steps[p.next];
      if (!perform(p, *a, p.by_row ? 1 : n, p.by_row ? p.pass : 0)) return moved;
      moved = true;
      if (++p.next == p.steps.size()) {
        p.next = 0;
        ++p.pass;
        p.values.clear();
      }
    }
    return moved;
  }

  std::vector<Process> processes() const {
    std::vector<Process> out;
    for (const Action* a : actions) {
      auto it = std::find_if(out.begin(), out.end(), [&](const Process& p) { return p.unit == a->unit; });
      if (it == out.end()) {
        out.push_back(Process{});
        out.back().unit = a->unit;
        it = out.end() - 1;
      }
      it->steps.emplace_back(a, items(*a));
    }
    const std::int64_t nr = isa.nr(Instr{issue.fields, {}, 0});
    for (Process& p : out) {
      p.by_row = std::all_of(p.steps.begin(), p.steps.end(), [&](const auto& s) {
        const bool channel = s.first->kind == ActionKind::Emit || s.first->kind == ActionKind::Receive;
        return s.second == nr && !(channel && header_items(s.first->port) > 0);
      });
      p.passes = p.by_row ? std::max<std::int64_t>(nr, 0) : 1;
    }
    return out;
  }

  void run() {
    check_bounds();
    std::vector<Process> procs = processes();
    for (;;) {
      bool moved = false;
      bool finished = true;
      for (Process& p : procs) {
        moved = advance(p) || moved;
        finished = finished && p.done();
      }
      if (finished) break;
      if (!moved) {
        std::string waiting;
        for (const Process& p : procs)
          if (!p.done()) waiting += fmt::format(" {} (on {})", p.unit, p.steps[p.next].first->port);
        fail("model.dataflow", fmt::format("the units wait on each other:{}", waiting));
      }
    }
    for (const auto& [port, ch] : channels)
      if (!ch.empty())
        fail("model.dataflow", fmt::format("{} items emitted on {} were never received", ch.size(), port));
  }
};

// ---------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------

namespace {
std::int64_t eval_expr(const Expr& e, const Scope& scope, const std::string& what) {
  try {
    return e.eval(scope);
  } catch (const ExprError& err) {
    throw Error("model.spec", fmt::format("cannot evaluate {} = {}: {}", what, e.text(), err.what()));
  }
}
}  // namespace

Model::Model(const Isa& isa) : isa_(&isa) {
  const Spec& spec = isa.spec();
  const Scope scope = isa.params().scope();
  for (const Memory& m : spec.memories) {
    if (m.format.empty()) continue;  // raw words (imem): no action moves them as data
    const Format f = m.format == "accumulator" ? accumulator_format(spec.numerics) : operand_format(spec.numerics);
    Layout lay;
    lay.memory = &m;
    lay.lo = f.lo();
    lay.hi = f.hi();
    const std::int64_t row_bits = eval_expr(m.row_bits, scope, m.name + ".row_bits");
    lay.depth = eval_expr(m.depth, scope, m.name + ".depth");
    if (row_bits <= 0 || row_bits % f.bits != 0 || lay.depth <= 0)
      throw Error("model.spec", fmt::format("memory {}: {} rows of {} bits do not hold whole {}-bit lanes", m.name,
                                            lay.depth, row_bits, f.bits));
    lay.lanes = row_bits / f.bits;
    if (m.dram) {
      lay.dram_rows = eval_expr(m.dram->rows, scope, m.name + ".dram.rows");
      lay.packed_lanes = isa.param("T");
      const std::int64_t total = lay.depth * lay.lanes;
      if (lay.dram_rows <= 0 || total % lay.dram_rows != 0 || (total / lay.dram_rows) % lay.packed_lanes != 0)
        throw Error("model.spec", fmt::format("memory {}: {} lanes do not make {} rows of whole {}-lane packed words",
                                              m.name, total, lay.dram_rows, lay.packed_lanes));
      if (lay.lo < -128 || lay.hi > 127)
        throw Error("model.spec",
                    fmt::format("memory {}: the host side holds int8 values, not {} .. {}", m.name, lay.lo, lay.hi));
      lay.dram_row_lanes = total / lay.dram_rows;
      dram_[m.name].assign(static_cast<std::size_t>(total), 0);
      dram_stored_[m.name].assign(static_cast<std::size_t>(total), false);
    } else {
      rows_[m.name].assign(static_cast<std::size_t>(lay.depth),
                           std::vector<std::int64_t>(static_cast<std::size_t>(lay.lanes), 0));
      written_[m.name].assign(static_cast<std::size_t>(lay.depth), false);
    }
    layouts_.emplace(m.name, lay);
  }
  for (const Unit& u : spec.units) steps_[u.name] = 0;
  check_actions();
}

void Model::check_actions() const {
  const Spec& spec = isa_->spec();
  for (const Action& a : spec.actions) {
    const auto where = [&] {
      return fmt::format("{} action of {} on {}.{}", to_string(a.kind), a.opcode, a.unit, a.port);
    };
    if (a.kind == ActionKind::Read || a.kind == ActionKind::Write) {
      const auto it = layouts_.find(a.state);
      if (it == layouts_.end())
        throw Error("model.spec", fmt::format("{}: memory {} has no lane format", where(), a.state));
      if (it->second.memory->owner != a.unit)
        throw Error("model.spec", fmt::format("{}: memory {} is owned by {}; only its owner may touch it", where(),
                                              a.state, it->second.memory->owner));
      if (it->second.dram() && !spec.opcode_named(a.opcode).operand(it->second.memory->dram->packed_word))
        throw Error("model.spec", fmt::format("{}: {} has no operand {} selecting the packed word", where(), a.opcode,
                                              it->second.memory->dram->packed_word));
    }
    if (a.kind == ActionKind::Compute) {
      const Compute* c = spec.compute(a.state);
      const bool known = c && (c->copy || c->control ||
                               std::find(kArithmetic.begin(), kArithmetic.end(), c->name) != kArithmetic.end());
      if (!known)
        throw Error("model.compute", fmt::format("{}: the model has no arithmetic for compute '{}'", where(), a.state));
    }
  }
}

const Model::Layout& Model::layout(std::string_view memory) const {
  const auto it = layouts_.find(memory);
  if (it == layouts_.end()) throw Error("model.memory", fmt::format("the model holds no memory '{}'", memory));
  return it->second;
}

void Model::set_dram(std::string_view memory, std::vector<std::int8_t> bytes) {
  const Layout& lay = layout(memory);
  if (!lay.dram()) throw Error("model.memory", fmt::format("memory '{}' has no DRAM layout", memory));
  auto& mine = dram_.find(memory)->second;
  if (bytes.size() != mine.size())
    throw Error("model.size", fmt::format("{} holds {} values ({} rows of {}); {} were given", memory, mine.size(),
                                          lay.dram_rows, lay.dram_row_lanes, bytes.size()));
  mine = std::move(bytes);
}

const std::vector<std::int8_t>& Model::dram(std::string_view memory) const {
  const Layout& lay = layout(memory);
  if (!lay.dram()) throw Error("model.memory", fmt::format("memory '{}' has no DRAM layout", memory));
  return dram_.find(memory)->second;
}

const std::vector<bool>& Model::dram_stored(std::string_view memory) const {
  const Layout& lay = layout(memory);
  if (!lay.dram()) throw Error("model.memory", fmt::format("memory '{}' has no DRAM layout", memory));
  return dram_stored_.find(memory)->second;
}

std::int64_t Model::depth(std::string_view memory) const {
  const Layout& lay = layout(memory);
  return lay.dram() ? lay.dram_rows : lay.depth;
}

std::vector<std::int64_t> Model::row(std::string_view memory, std::int64_t index) const {
  const Layout& lay = layout(memory);
  if (index < 0 || index >= depth(memory))
    throw Error("model.bounds", fmt::format("row {} is outside {}'s 0 .. {}", index, memory, depth(memory) - 1));
  if (!lay.dram()) return rows_.find(memory)->second[static_cast<std::size_t>(index)];
  const auto& bytes = dram_.find(memory)->second;
  const auto first = bytes.begin() + index * lay.dram_row_lanes;
  return {first, first + lay.dram_row_lanes};
}

bool Model::written(std::string_view memory, std::int64_t index) const {
  const Layout& lay = layout(memory);
  if (index < 0 || index >= depth(memory))
    throw Error("model.bounds", fmt::format("row {} is outside {}'s 0 .. {}", index, memory, depth(memory) - 1));
  return lay.dram() || written_.find(memory)->second[static_cast<std::size_t>(index)];
}

void Model::run(const Program& program, std::size_t max_issues) {
  const Spec& spec = isa_->spec();
  for_each_issue(*isa_, program, [&](const Issue& issue) {
    Executor(*this, program, issue).run();
    for (const Unit& u : spec.units) steps_[u.name] += unit_cost(*isa_, *issue.opcode, u.name, issue.fields);
    ++issues_;
  }, max_issues);
}

void Model::run_image(std::span<const std::uint64_t> words, std::size_t max_issues) {
  run(decode_image(*isa_, words, "image"), max_issues);
}

}  // namespace tpugen
