/// @file random_program.cpp
/// @brief The random program generator.
///
/// A program is built block by block at the top level. A block is a few
/// flat instructions or a loop nest (depth 1 .. LOOP_DEPTH, trips from 1 to
/// the nr field's maximum) with instructions before, inside and after its
/// inner loops. Each instruction is drawn for its place in the nest:
///
/// - its row count from a class (1, small, mid, the opcode's largest legal
///   nr in this build), capped by the work budget left;
/// - its restricted operands (a selector such as dma_ld's mode or mm's acc,
///   a packed-word column block) from their legal values, and when driven by
///   an AGU term only for as many trips as every value stays legal
///   (agu_legal_trip: acc = 0 + iv * 1 is legal for two trips);
/// - every other operand is the base of memory accesses: a read of on-chip
///   rows lands inside a run of rows that hold data, a write or a DRAM access
///   anywhere in bounds (mostly inside TEST_WINDOW), each with zero or more
///   AGU terms whose strides keep the whole walk inside; or it reuses an
///   address an earlier instruction of the block used (a read of what it
///   wrote, an in-place or overlapping write);
/// - at the top level, a read of a distance-tracked memory (ar) is moved,
///   when it can be, to the base that puts it exactly at the contract's
///   minimum distance after its write.
///
/// Every candidate is expanded and run through a Tracker from the state the
/// program so far leaves; it is kept only if it keeps the tracker's promises
/// (stricter than check_program's contracts) and the work budget. A read that
/// finds no run of data long enough leaves a "want": a later block fills that
/// many rows (with a producer of the memory, in a loop when one instruction
/// cannot write them all) and retries the instruction.
///
/// Before the random blocks, each case builds directed blocks for the aims
/// its seed owns (agu_aims, row_aims, distance_aims at seed % size): drawn as
/// if every on-chip row held data, the rows they read filled first, then
/// validated like any block. docs/fuzz.md describes the whole.
///
/// Everything about the ISA comes from IsaFacts; the only names this file
/// knows are the two loop opcodes (through IsaFacts), TEST_WINDOW (the
/// spec's fuzz row window) and the memory host role "read" (C, what mvout
/// writes: the final retiring instruction).
#include "fuzz/core/random_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "util/rng.h"
#include "fuzz/core/tracker.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/derive.h"
#include "isa/image.h"

namespace tpugen::fuzz {

std::string to_string(Dist d) {
  switch (d) {
    case Dist::Full:
      return "full";
    case Dist::Corner:
      return "corner";
    case Dist::Mid:
      return "mid";
    case Dist::Boundary:
      return "boundary";
  }
  return "?";
}

Dist parse_dist(const std::string& name) {
  for (Dist d : {Dist::Full, Dist::Corner, Dist::Mid, Dist::Boundary})
    if (to_string(d) == name) return d;
  throw Error("fuzz.dist", fmt::format("unknown operand distribution '{}' (full, corner, mid, boundary)", name));
}

namespace {

constexpr std::int64_t kDefaultBudget = 3000;

/// An operand's address: a base plus (level, stride) AGU terms.
struct Addr {
  std::int64_t base = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> terms;
};

/// An open loop of the block being built.
struct Level {
  std::int64_t trip = 1;
  std::size_t id = 0;
};

/// An address an earlier instruction used, for reuse.
struct Recent {
  std::size_t memory = 0;
  Addr addr;
  std::int64_t items = 0;
  bool write = false;
  std::vector<std::size_t> ids;  ///< the loop id of every open level when it was used
};

/// Rows of a memory some instruction needed and did not find.
struct Want {
  std::size_t memory = 0;
  std::int64_t rows = 0;
  const OpcodeFacts* op = nullptr;
  std::int64_t nr = 0;
};

/// Operands, terms and nr an instruction must take.
struct Forced {
  std::int64_t nr = 0;
  std::map<std::size_t, Addr> addr;  ///< by operand index
  /// (operand index, level): terms it must carry; with `exact`, no others.
  std::vector<std::pair<std::size_t, std::int64_t>> terms;
  bool exact = false;
  /// Every read some iteration makes needs data before the block (not only the first iteration's).
  bool all_reads = false;
  /// At the top level: the operand whose distance-tracked read aim_distance must aim.
  std::optional<std::size_t> aim;
};

bool disabled(const FuzzOptions& o, std::string_view name) {
  return std::find(o.disabled_opcodes.begin(), o.disabled_opcodes.end(), name) != o.disabled_opcodes.end();
}

class ProgramGen {
 public:
  ProgramGen(const IsaFacts& facts, const FuzzOptions& options, const std::vector<Aim>& agu_aims,
             const std::vector<Aim>& row_aims, const std::vector<Aim>& distance_aims, Rng& rng, std::int64_t budget)
      : f_(facts),
        isa_(facts.isa()),
        opt_(options),
        agu_aims_(agu_aims),
        row_aims_(row_aims),
        distance_aims_(distance_aims),
        rng_(rng),
        budget_(budget),
        state_(facts),
        frag_state_(facts) {
    max_instr_ = facts.max_instructions;
    if (options.max_instructions > 0) max_instr_ = std::min(max_instr_, options.max_instructions);
    for (const OpcodeFacts& o : facts.opcodes()) {
      if (!o.live() || facts.control(*o.op) || disabled(options, o.name())) continue;
      if (o.data() || o.operands.empty()) enabled_.push_back(&o);
    }
    loops_ = !disabled(options, facts.loop_op().name) && !disabled(options, facts.endloop_op().name);
    window_ = isa_.params().get("TEST_WINDOW").value_or(0);
  }

  std::vector<Instr> run(std::uint64_t seed) {
    if (max_instr_ <= 0 || enabled_.empty()) return {};
    const std::int64_t target = rng_.edgy(std::min<std::int64_t>(3, max_instr_), max_instr_);
    const std::int64_t reserve = rng_.chance(3, 4) ? 1 : 0;  // room for a final retiring instruction
    const std::int64_t limit = target - reserve;
    // The directed blocks this seed owns, first, while imem has room for them
    // and for the rows they need filled: seed % size of each aim list.
    if (!agu_aims_.empty() && loops_) {
      const Aim& aim = agu_aims_[seed % agu_aims_.size()];
      if (aim.flat)
        loops_ = false;
      else
        directed(aim, max_instr_ - reserve);
    }
    if (!row_aims_.empty() && rng_.chance(1, 2)) directed(row_aims_[seed % row_aims_.size()], max_instr_ - reserve);
    if (!distance_aims_.empty() && rng_.chance(1, 2)) aim_read(distance_aims_[seed % distance_aims_.size()], limit);
    if (rng_.chance(3, 4)) prologue(limit);
    for (int attempts = 0; attempts < 48 && size() < limit; ++attempts) {
      if (!wants_.empty() && rng_.chance(3, 4)) {
        const Want w = wants_.back();
        wants_.clear();
        fulfil(w, limit);
        continue;
      }
      const Aim* extra =
          agu_aims_.empty() || !loops_ || !rng_.chance(1, 6)
              ? nullptr
              : &agu_aims_[static_cast<std::size_t>(rng_.uniform(0, static_cast<std::int64_t>(agu_aims_.size()) - 1))];
      if (extra && !extra->flat)
        directed(*extra, limit);
      else
        block(limit);
    }
    if (reserve > 0) retire(target);
    return prog_;
  }

 private:
  const IsaFacts& f_;
  const Isa& isa_;
  const FuzzOptions& opt_;
  const std::vector<Aim>& agu_aims_;
  const std::vector<Aim>& row_aims_;
  const std::vector<Aim>& distance_aims_;
  Rng& rng_;
  std::int64_t budget_;
  std::int64_t max_instr_ = 0;
  std::int64_t window_ = 0;
  bool loops_ = true;
  std::vector<const OpcodeFacts*> enabled_;
  std::vector<Instr> prog_;
  Tracker state_;  ///< after prog_
  std::vector<Recent> recent_;
  std::vector<Want> wants_;
  // The block being built.
  std::vector<Instr> frag_;
  std::vector<Level> open_;
  Tracker frag_state_;  ///< after prog_ and the block so far (its loops closed)
  std::vector<Recent> frag_recent_;
  std::size_t next_id_ = 0;

  [[nodiscard]] std::int64_t size() const { return static_cast<std::int64_t>(prog_.size()); }
  [[nodiscard]] const MemoryFacts& mem(std::size_t m) const { return f_.memories()[m]; }

  // --- Validation -------------------------------------------------------------

  /// The block so far with its open loops closed, run from `from` (the
  /// program's state unless given) into `out`. nullopt when it keeps every
  /// promise and the budget; else the index of the first instruction that
  /// does not (frag_.size(): the budget, or control flow expand refuses).
  std::optional<std::size_t> check_frag(Tracker& out, const Tracker* from = nullptr) const {
    struct Stop {};
    Program p;
    p.instrs = frag_;
    for (std::size_t i = 0; i < open_.size(); ++i) p.instrs.push_back(isa_.make(f_.endloop_op()));
    out = from ? *from : state_;
    std::optional<std::size_t> bad;
    try {
      for_each_issue(isa_, p, [&](const Issue& is) {
        if (!out.apply(is).empty())
          bad = std::min(is.pc, frag_.empty() ? 0 : frag_.size() - 1);
        else if (out.max_unit_steps() > budget_ || out.issues() > budget_)
          bad = frag_.size();
        if (bad) throw Stop{};
      });
    } catch (const Stop&) {
      return bad;
    } catch (const Error&) {
      return frag_.size();
    }
    return bad;
  }

  bool accept_frag() {
    Tracker t(f_);
    if (check_frag(t)) return false;
    frag_state_ = std::move(t);
    return true;
  }

  void begin_block() {
    frag_.clear();
    open_.clear();
    frag_state_ = state_;
    frag_recent_.clear();
  }

  /// Validate the whole block, dropping the instructions that break it, and
  /// commit what is left. True when something was committed.
  bool end_block() {
    open_.clear();
    Tracker t(f_);
    for (int guard = 0; guard < 64; ++guard) {
      const auto bad = check_frag(t);
      if (!bad) break;
      std::size_t drop = *bad;
      if (drop == frag_.size()) {  // over budget: drop the last instruction that is not control flow
        for (std::size_t i = frag_.size(); i-- > 0;)
          if (!f_.control(*isa_.opcode_of(frag_[i]))) {
            drop = i;
            break;
          }
      }
      if (drop >= frag_.size() || f_.control(*isa_.opcode_of(frag_[drop]))) {
        frag_.clear();
        return false;
      }
      frag_.erase(frag_.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    const bool data =
        std::any_of(frag_.begin(), frag_.end(), [&](const Instr& in) { return !f_.control(*isa_.opcode_of(in)); });
    if (!data || check_frag(t)) return false;
    prog_.insert(prog_.end(), frag_.begin(), frag_.end());
    state_ = std::move(t);
    // Addresses without terms stay valid after the block.
    for (Recent& r : frag_recent_)
      if (r.addr.terms.empty()) {
        r.ids.clear();
        recent_.push_back(r);
      }
    if (recent_.size() > 12) recent_.erase(recent_.begin(), recent_.end() - 12);
    frag_.clear();
    return true;
  }

  /// Whether one more instruction fits beside what the block still needs.
  [[nodiscard]] bool room(std::int64_t limit, std::int64_t reserve) const {
    const auto used = size() + static_cast<std::int64_t>(frag_.size() + open_.size());
    return used + reserve + 1 <= limit;
  }

  void open_loop(std::int64_t trip) {
    Instr head = isa_.make(f_.loop_op());
    head.fields[isa_.nr_index()] = trip;
    frag_.push_back(std::move(head));
    open_.push_back({trip, next_id_++});
  }

  void close_loop() {
    frag_.push_back(isa_.make(f_.endloop_op()));
    open_.pop_back();
  }

  // --- Blocks -------------------------------------------------------------------

  void block(std::int64_t limit) {
    const std::int64_t room_left = limit - size();
    if (room_left <= 0) return;
    const std::int64_t dmax = loops_ ? std::min(f_.loop_depth, (room_left - 1) / 2) : 0;
    std::vector<std::uint64_t> w;
    for (std::int64_t d = 0; d <= dmax; ++d) w.push_back(d <= 1 ? 3 : 2);
    const auto depth = static_cast<std::int64_t>(rng_.weighted(w));
    begin_block();
    if (depth == 0) {
      const std::int64_t n = rng_.uniform(1, std::min<std::int64_t>(3, room_left));
      for (std::int64_t i = 0; i < n; ++i) try_instr(limit, 0);
    } else {
      nest(0, choose_trips(depth), limit);
    }
    end_block();
  }

  /// Trip counts for a nest: each level from a class (1, 2, 3..7, 8..below
  /// half the maximum, the top half), then trimmed so the innermost body's
  /// iterations stay well inside the budget (one level, drawn, keeps its trip).
  std::vector<std::int64_t> choose_trips(std::int64_t depth) {
    const std::int64_t top = f_.trip_max, half = (f_.trip_max + 1) / 2;
    const auto keep = static_cast<std::size_t>(rng_.uniform(0, depth - 1));  // this level's class is uniform
    std::vector<std::int64_t> trips;
    for (std::int64_t l = 0; l < depth; ++l) {
      static constexpr std::array<std::uint64_t, 5> w = {3, 4, 4, 2, 2}, even = {1, 1, 1, 1, 1};
      switch (rng_.weighted(static_cast<std::size_t>(l) == keep ? even : w)) {
        case 0:
          trips.push_back(1);
          break;
        case 1:
          trips.push_back(std::min<std::int64_t>(2, top));
          break;
        case 2:
          trips.push_back(rng_.uniform(std::min<std::int64_t>(3, top), std::min<std::int64_t>(7, top)));
          break;
        case 3:
          trips.push_back(rng_.uniform(std::min<std::int64_t>(8, top), std::max<std::int64_t>(1, half - 1)));
          break;
        default:
          trips.push_back(rng_.uniform(std::min(half, top), top));
          break;
      }
    }
    trim(trips, {keep});
    return trips;
  }

  /// Halve the largest trips (but those of the `keep` levels, unless nothing
  /// else is left) until the innermost body's iterations stay well inside the budget.
  void trim(std::vector<std::int64_t>& trips, const std::set<std::size_t>& keep, std::int64_t per = 6) const {
    const std::int64_t cap = std::max<std::int64_t>(1, budget_ / std::max<std::int64_t>(1, per));
    auto product = [&] {
      std::int64_t p = 1;
      for (std::int64_t t : trips) p = std::min<std::int64_t>(p * t, budget_ * 4);
      return p;
    };
    while (product() > cap) {
      std::size_t big = trips.size();
      for (int pass = 0; pass < 2 && big == trips.size(); ++pass)
        for (std::size_t l = 0; l < trips.size(); ++l)
          if ((pass == 1 || !keep.count(l)) && trips[l] > 1 && (big == trips.size() || trips[l] > trips[big])) big = l;
      if (big == trips.size()) break;
      trips[big] = std::max<std::int64_t>(1, trips[big] / 2);
    }
  }

  /// Loop level l of a nest: its instructions, its inner loop(s), its endloop.
  void nest(std::size_t l, const std::vector<std::int64_t>& trips, std::int64_t limit) {
    const std::size_t depth = trips.size();
    open_loop(trips[l]);
    const auto inner_reserve = static_cast<std::int64_t>(2 * (depth - l - 1));
    const bool innermost = l + 1 == depth;
    static constexpr std::array<std::uint64_t, 3> pre_w = {2, 3, 1};
    const std::int64_t pre = innermost ? rng_.uniform(1, 3) : static_cast<std::int64_t>(rng_.weighted(pre_w));
    for (std::int64_t i = 0; i < pre; ++i) try_instr(limit, inner_reserve);
    if (!innermost) {
      nest(l + 1, trips, limit);
      if (rng_.chance(1, 8) && room(limit, inner_reserve)) nest(l + 1, trips, limit);  // a sibling loop
      if (rng_.chance(1, 3)) try_instr(limit, 0);
    }
    close_loop();
  }

  bool try_instr(std::int64_t limit, std::int64_t reserve) {
    for (int attempt = 0; attempt < 4; ++attempt) {
      if (!room(limit, reserve)) return false;
      std::vector<Recent> used;
      auto in = gen_instr(pick_opcode(), Forced{}, used);
      if (!in) continue;
      frag_.push_back(std::move(*in));
      if (accept_frag()) {
        frag_recent_.insert(frag_recent_.end(), used.begin(), used.end());
        return true;
      }
      frag_.pop_back();
    }
    return false;
  }

  const OpcodeFacts& pick_opcode() {
    std::vector<std::uint64_t> w;
    for (const OpcodeFacts* o : enabled_) w.push_back(o->data() ? 10 : 1);
    return *enabled_[rng_.weighted(w)];
  }

  /// Data in the on-chip memories the enabled opcodes read, before anything else.
  void prologue(std::int64_t limit) {
    std::vector<std::size_t> mems;
    for (const OpcodeFacts* o : enabled_)
      for (const AccessFacts& a : o->accesses)
        if (a.read && !mem(a.memory).dram && std::find(mems.begin(), mems.end(), a.memory) == mems.end())
          mems.push_back(a.memory);
    rng_.shuffle(mems);
    for (std::size_t m : mems) {
      if (!rng_.chance(2, 3)) continue;
      const std::int64_t top = std::min(mem(m).rows, window_ > 0 ? window_ : mem(m).rows);
      fill(m, rng_.uniform(1, top), limit, 0, std::nullopt);
    }
  }

  /// Fill rows a read wanted, then retry the instruction that wanted them.
  void fulfil(const Want& w, std::int64_t limit) {
    if (!fill(w.memory, w.rows, limit, 0, std::nullopt) || !w.op) return;
    begin_block();
    Forced forced;
    forced.nr = w.nr;
    std::vector<Recent> used;
    if (room(limit, 0))
      if (auto in = gen_instr(*w.op, forced, used)) {
        frag_.push_back(std::move(*in));
        frag_recent_ = used;
      }
    end_block();
  }

  /// Write `rows` consecutive rows of a memory (from row `at`, or anywhere)
  /// with one of its producers, in a loop when one instruction cannot, after
  /// filling what that producer reads. True when the rows were written.
  bool fill(std::size_t memory, std::int64_t rows, std::int64_t limit, int depth, std::optional<std::int64_t> at) {
    const MemoryFacts& m = mem(memory);
    if (rows < 1 || depth > 2) return false;
    // A fill of a distance-tracked memory writes the contract's distance in
    // rows past the ones asked for, last, so whatever reads the asked-for
    // rows right after it reads them at least that far behind their writes.
    if (m.distance) rows = std::min(rows + m.min_distance, m.rows - (at ? *at : 0));
    if (rows > m.rows) return false;
    struct Way {
      const OpcodeFacts* op;
      std::vector<std::pair<std::size_t, std::int64_t>> combo;
      const AccessFacts* write;
    };
    std::vector<Way> ways;
    for (const OpcodeFacts* o : enabled_) {
      if (!o->data()) continue;
      for (const auto& combo : f_.selector_combinations(*o)) {
        std::vector<std::int64_t> fields = isa_.make(*o->op).fields;
        fields[isa_.nr_index()] = 1;
        for (const auto& [k, v] : combo) fields[o->operands[k].field] = v;
        const AccessFacts* write = nullptr;
        bool reads_same = false;
        for (const AccessFacts* a : f_.active(*o, fields)) {
          if (!a->read && a->memory == memory) write = a;
          if (a->read && a->memory == memory) reads_same = true;
        }
        if (write && !reads_same) ways.push_back({o, combo, write});
      }
    }
    if (ways.empty()) return false;
    const Way way = rng_.pick(ways);
    const OpcodeFacts& op = *way.op;
    std::vector<std::int64_t> fields = isa_.make(*op.op).fields;
    for (const auto& [k, v] : way.combo) fields[op.operands[k].field] = v;
    // The largest nr whose write fits the rows, and the loop trips that cover them.
    std::int64_t n = std::min(rows, op.max_rows);
    for (; n > 1; --n) {
      fields[isa_.nr_index()] = n;
      if (f_.items(op, *way.write, fields) <= rows) break;
    }
    if (n < 1) return false;
    fields[isa_.nr_index()] = n;
    const std::int64_t per = f_.items(op, *way.write, fields);
    const std::int64_t trips = (rows + per - 1) / per;
    if (trips > f_.trip_max || (trips > 1 && !loops_)) return false;
    const std::int64_t span = (trips - 1) * per + per;
    std::int64_t base = 0;
    if (at) {
      base = std::min(*at, m.rows - span);
      if (base < 0) return false;
    } else {
      const std::int64_t top = std::min(m.rows, window_ >= span && rng_.chance(3, 4) ? window_ : m.rows);
      if (span > top) return false;
      base = rng_.edgy(0, top - span);
    }
    // What the producer reads comes first.
    for (const AccessFacts* a : f_.active(op, fields)) {
      if (!a->read || mem(a->memory).dram) continue;
      const std::int64_t need = f_.items(op, *a, fields);
      if (state_.written_runs(a->memory, need).empty() && !fill(a->memory, need, limit, depth + 1, std::nullopt))
        return false;
    }
    Forced forced;
    forced.nr = n;
    for (const auto& [k, v] : way.combo) forced.addr[k] = Addr{v, {}};
    Addr dst{base, {}};
    if (trips > 1) dst.terms.emplace_back(0, per);
    forced.addr[way.write->operand] = dst;
    forced.exact = true;
    begin_block();
    if (!room(limit, trips > 1 ? 2 : 0)) return false;
    if (trips > 1) open_loop(trips);
    std::vector<Recent> used;
    auto in = gen_instr(op, forced, used);
    if (!in) return false;
    frag_.push_back(std::move(*in));
    if (trips > 1) close_loop();
    return end_block();
  }

  /// A directed block: a nest deep enough for the group's levels, trips of 2
  /// or 3 on those levels (within a restricted operand's legal frontier), and
  /// at the bottom one instruction carrying exactly the group's terms. It is
  /// drawn first as if every on-chip row held data; the rows it then reads
  /// that hold none are filled (committed as blocks before it); then it is
  /// validated from the real state like any block.
  void directed(const Aim& g, std::int64_t limit) {
    const OpcodeFacts* op = f_.opcode(g.opcode);
    if (!op) return;
    std::int64_t deepest = -1;
    Forced forced;
    forced.exact = true;
    forced.all_reads = true;
    for (const auto& [name, level] : g.terms) {
      forced.terms.emplace_back(op->operand_index(name), level);
      deepest = std::max(deepest, level);
    }
    const std::int64_t shallowest = deepest >= 0 || rng_.chance(3, 4) ? deepest + 1 : 1;
    const std::int64_t depth = loops_ ? rng_.uniform(shallowest, std::max(shallowest, f_.loop_depth)) : 0;
    if (size() + 2 * depth + 1 > limit) return;
    const Scope params = isa_.params().scope();
    std::vector<std::int64_t> trips;
    std::set<std::size_t> walked;
    for (std::int64_t l = 0; l < depth; ++l) {
      std::int64_t cap = 3;
      bool driven = false;
      for (const auto& [k, level] : forced.terms) {
        if (level != l) continue;
        driven = true;
        const OperandFacts& o = op->operands[k];
        if (o.restricted()) cap = std::min(cap, agu_legal_trip(*o.operand->legal, o.legal.front(), 1, params, 3));
      }
      // A level no term of the aim walks may run long: its trips only repeat the walk.
      const std::int64_t undriven = rng_.chance(1, 4) ? rng_.uniform(3, f_.trip_max) : rng_.uniform(1, 2);
      trips.push_back(driven ? rng_.uniform(std::min<std::int64_t>(2, cap), cap) : undriven);
      if (driven) walked.insert(static_cast<std::size_t>(l));
    }
    // What one issue of the aim costs its busiest unit, at the most rows drawn below.
    const std::int64_t most = g.nr > 0 ? g.nr : std::min<std::int64_t>(op->max_rows, 8);
    std::vector<std::int64_t> probe_fields = isa_.make(*op->op).fields;
    probe_fields[isa_.nr_index()] = most;
    const auto& costs = f_.shape(*op, probe_fields).unit_cost;
    trim(trips, walked, 2 * std::max<std::int64_t>(1, *std::max_element(costs.begin(), costs.end())));

    // Draw it against a state where every on-chip row holds data (and was
    // written long ago), until it keeps the promises within itself.
    bool drawn_ok = false;
    for (int attempt = 0; attempt < 10 && !drawn_ok; ++attempt) {
      // Later attempts take more rows: a loop that reads back what it wrote
      // one iteration before (mm with acc walking 0, 1) needs the distance in rows.
      const std::int64_t top = std::min<std::int64_t>(op->max_rows, 8);
      forced.nr = g.nr > 0 ? g.nr : rng_.uniform(std::min<std::int64_t>(top, 1 + attempt), top);
      begin_block();
      Tracker dry(f_);
      for (std::size_t m = 0; m < f_.memories().size(); ++m)
        if (!mem(m).dram) dry.assume_written(m, 0, mem(m).rows);
      frag_state_ = dry;
      for (std::int64_t t : trips) open_loop(t);
      std::vector<Recent> used;
      auto in = gen_instr(*op, forced, used);
      if (!in) continue;
      frag_.push_back(std::move(*in));
      while (!open_.empty()) close_loop();
      Tracker out(f_);
      drawn_ok = !check_frag(out, &dry);
    }
    if (!drawn_ok) return;
    const std::vector<Instr> drawn = frag_;

    // The rows it reads that hold no data yet, per memory.
    std::map<std::size_t, std::set<std::int64_t>> rows;
    Tracker probe = state_;
    Program p;
    p.instrs = drawn;
    frag_.clear();
    try {
      for_each_issue(isa_, p, [&](const Issue& is) {
        IssueEvents ev;
        (void)probe.apply(is, &ev, /*lenient=*/true);
        for (const IssueAccess& a : ev.accesses) {
          if (!a.access->read || mem(a.access->memory).dram || !a.inside) continue;
          for (std::int64_t r = a.base; r < a.base + a.items; ++r)
            if (!state_.written(a.access->memory, r)) rows[a.access->memory].insert(r);
        }
      });
    } catch (const Error&) {
      return;
    }
    // As spans of consecutive rows. A fill of a distance-tracked memory
    // writes the distance in rows past its span, last; a span that ends too
    // close to the memory's end cannot, so it is filled first and the other
    // spans' fills (or, if none, one of other rows) follow it as padding.
    struct Span {
      std::size_t memory;
      std::int64_t first, end;
    };
    std::vector<Span> spans;
    for (const auto& [m, set] : rows)
      for (std::int64_t r : set) {
        if (!spans.empty() && spans.back().memory == m && spans.back().end == r)
          ++spans.back().end;
        else
          spans.push_back({m, r, r + 1});
      }
    auto cramped = [&](const Span& x) {
      return mem(x.memory).distance && x.end + mem(x.memory).min_distance > mem(x.memory).rows;
    };
    std::stable_partition(spans.begin(), spans.end(), cramped);
    const auto room_for = [&] { return limit - static_cast<std::int64_t>(drawn.size()); };
    for (const Span& x : spans)
      if (!fill(x.memory, x.end - x.first, room_for(), 0, x.first)) return;
    if (!spans.empty() && cramped(spans.back())) {
      const Span& x = spans.back();
      const std::int64_t pad = mem(x.memory).min_distance;
      const Span& lowest = *std::min_element(spans.begin(), spans.end(), [&](const Span& u, const Span& v) {
        return (u.memory == x.memory ? u.first : mem(x.memory).rows) <
               (v.memory == x.memory ? v.first : mem(x.memory).rows);
      });
      if (lowest.first > pad) fill(x.memory, 1, room_for(), 0, std::int64_t{0});
    }
    if (size() + static_cast<std::int64_t>(drawn.size()) > limit) return;
    begin_block();
    frag_ = drawn;
    end_block();
  }

  /// A top-level instruction whose read of a distance-tracked memory comes
  /// exactly the contract's minimum after its write: a few fresh rows of the
  /// memory first, then the reader with its selectors set so the read happens.
  void aim_read(const Aim& g, std::int64_t limit) {
    const OpcodeFacts* op = f_.opcode(g.opcode);
    if (!op) return;
    const std::size_t k = op->operand_index(g.exact_read);
    for (const auto& combo : f_.selector_combinations(*op)) {
      std::vector<std::int64_t> fields = isa_.make(*op->op).fields;
      fields[isa_.nr_index()] = 1;
      for (const auto& [i, v] : combo) fields[op->operands[i].field] = v;
      const auto active = f_.active(*op, fields);
      const auto reads = std::find_if(active.begin(), active.end(), [&](const AccessFacts* a) {
        return a->operand == k && a->read && mem(a->memory).distance;
      });
      if (reads == active.end()) continue;
      if (!fill((*reads)->memory, rng_.uniform(1, 8), limit - 1, 0, std::nullopt)) return;
      Forced forced;
      for (const auto& [i, v] : combo) forced.addr[i] = Addr{v, {}};
      forced.aim = k;
      forced.nr = rng_.uniform(1, std::min<std::int64_t>(op->max_rows, 8));
      begin_block();
      std::vector<Recent> used;
      if (room(limit, 0))
        if (auto in = gen_instr(*op, forced, used)) frag_.push_back(std::move(*in));
      end_block();
      return;
    }
  }

  /// A final instruction that moves results to the host (mvout), when one fits.
  void retire(std::int64_t limit) {
    std::vector<const OpcodeFacts*> retiring;
    for (const OpcodeFacts* o : enabled_)
      for (const AccessFacts& a : o->accesses)
        if (!a.read && mem(a.memory).memory->host == "read") {
          retiring.push_back(o);
          break;
        }
    if (retiring.empty()) return;
    for (int attempt = 0; attempt < 4 && size() < limit; ++attempt) {
      begin_block();
      std::vector<Recent> used;
      if (auto in = gen_instr(*rng_.pick(retiring), Forced{}, used)) frag_.push_back(std::move(*in));
      if (end_block()) return;
    }
  }

  // --- One instruction ----------------------------------------------------------

  [[nodiscard]] std::int64_t iterations() const {
    std::int64_t p = 1;
    for (const Level& l : open_) p = std::min<std::int64_t>(p * l.trip, budget_ * 4);
    return p;
  }

  /// An open level for a term, trips of 2 or more preferred; -1 when every level is in `avoid`.
  std::int64_t pick_level(const std::set<std::int64_t>& avoid) {
    std::vector<std::uint64_t> w;
    for (std::size_t l = 0; l < open_.size(); ++l)
      w.push_back(avoid.count(static_cast<std::int64_t>(l)) ? 0 : (open_[l].trip >= 2 ? 4 : 1));
    if (std::all_of(w.begin(), w.end(), [](std::uint64_t x) { return x == 0; })) return -1;
    return static_cast<std::int64_t>(rng_.weighted(w));
  }

  /// The row count: 1, small, mid or the opcode's largest, capped by the budget left.
  std::int64_t choose_nr(const OpcodeFacts& op) {
    const std::int64_t left = std::max<std::int64_t>(1, budget_ - frag_state_.max_unit_steps());
    const std::int64_t cap = std::max<std::int64_t>(1, std::min(op.max_rows, left / iterations() / 3));
    static constexpr std::array<std::uint64_t, 4> w = {3, 3, 2, 2};
    switch (rng_.weighted(w)) {
      case 0:
        return 1;
      case 1:
        return rng_.uniform(1, std::min<std::int64_t>(cap, 8));
      case 2:
        return rng_.uniform(1, cap);
      default:
        return cap;
    }
  }

  /// Every value base + sum(i_l * stride_l) takes over the open trips.
  [[nodiscard]] std::set<std::int64_t> reachable(const Addr& a, std::size_t cap = 4096) const {
    std::set<std::int64_t> vals{a.base};
    for (const auto& [level, stride] : a.terms) {
      std::set<std::int64_t> next;
      for (std::int64_t v : vals)
        for (std::int64_t i = 0; i < open_[static_cast<std::size_t>(level)].trip && next.size() < cap; ++i)
          next.insert(v + i * stride);
      vals = std::move(next);
    }
    return vals;
  }

  [[nodiscard]] std::int64_t extent(const Addr& a, std::int64_t items) const {
    std::int64_t e = items;
    for (const auto& [level, stride] : a.terms) e += (open_[static_cast<std::size_t>(level)].trip - 1) * stride;
    return e;
  }

  /// Whether every value an address takes is one of the operand's legal values.
  [[nodiscard]] bool legal_walk(const OperandFacts& o, const Addr& a) const {
    if (a.terms.size() == 1) {  // agu_legal_trip: how many trips base + iv * stride stays legal
      const std::int64_t trip = open_[static_cast<std::size_t>(a.terms[0].first)].trip;
      return agu_legal_trip(*o.operand->legal, a.base, a.terms[0].second, isa_.params().scope(), trip) >= trip;
    }
    const std::set<std::int64_t> values = reachable(a);
    return std::all_of(values.begin(), values.end(),
                       [&](std::int64_t v) { return std::binary_search(o.legal.begin(), o.legal.end(), v); });
  }

  /// A restricted operand (a selector, a column block): a legal base and the
  /// forced terms, or now and then terms of its own, each with a stride that
  /// keeps every value the walk reaches legal. nullopt when a forced term cannot.
  std::optional<Addr> restricted_addr(const OperandFacts& o, std::int64_t& terms_left,
                                      const std::vector<std::int64_t>& forced_levels) {
    Addr a;
    a.base = o.legal[static_cast<std::size_t>(rng_.edgy(0, static_cast<std::int64_t>(o.legal.size()) - 1))];
    std::vector<std::int64_t> levels = forced_levels;
    if (levels.empty() && terms_left > 0 && !open_.empty() && rng_.chance(2, 5)) {
      std::set<std::int64_t> seen;
      for (std::int64_t i = 0, n = std::min<std::int64_t>(terms_left, rng_.chance(1, 4) ? 2 : 1); i < n; ++i) {
        const std::int64_t l = pick_level(seen);
        if (l < 0) break;
        seen.insert(l);
        levels.push_back(l);
      }
    }
    for (const std::int64_t level : levels) {
      bool placed = false;
      for (const std::int64_t base : {a.base, o.legal.front()}) {
        Addr c = a;
        c.base = base;
        c.terms.emplace_back(level, 1);
        std::int64_t hi = 0;  // the largest stride that keeps the walk legal
        for (std::int64_t s = 1; s <= f_.stride_max && legal_walk(o, c); c.terms.back().second = ++s) {
          hi = s;
          if (open_[static_cast<std::size_t>(level)].trip == 1 && s >= 4) break;
        }
        if (hi == 0) continue;
        c.terms.back().second = rng_.small(1, hi);
        a = c;
        placed = true;
        break;
      }
      if (!placed && !forced_levels.empty()) return std::nullopt;
      if (placed && forced_levels.empty()) --terms_left;
    }
    return a;
  }

  std::int64_t pick_stride(std::int64_t items, std::int64_t trip) {
    static constexpr std::array<std::uint64_t, 4> w = {3, 3, 2, 1};
    std::int64_t s = 1;
    switch (rng_.weighted(w)) {
      case 0:
        s = 1;
        break;
      case 1:
        s = items;
        break;
      case 2:
        s = rng_.uniform(2, 8);
        break;
      default:
        s = rng_.uniform(
            1, std::max<std::int64_t>(1, std::max<std::int64_t>(window_, 16) / std::max<std::int64_t>(1, trip)));
        break;
    }
    return std::clamp<std::int64_t>(s, 1, f_.stride_max);
  }

  /// A base operand: its accesses' memories, whether it must read rows that
  /// hold data, its largest item count. Reuses an address of the block, or
  /// draws a fresh one with the forced terms and maybe more.
  std::optional<Addr> base_addr(const OpcodeFacts& op, bool must_read, const std::set<std::size_t>& mems,
                                std::int64_t items, std::int64_t& terms_left, bool raw,
                                const std::vector<std::int64_t>& forced_levels) {
    std::int64_t rows = f_.trip_max * f_.stride_max;
    bool dram = false;
    for (std::size_t m : mems) {
      rows = std::min(rows, mem(m).rows);
      dram = dram || mem(m).dram;
    }
    // Reuse: the same memory, its loops still open.
    if (forced_levels.empty() && mems.size() == 1 && rng_.chance(1, must_read ? 2 : 3)) {
      std::vector<const Recent*> cands;
      for (const auto* pool : {&recent_, &frag_recent_})
        for (const Recent& r : *pool) {
          if (r.memory != *mems.begin() || static_cast<std::int64_t>(r.addr.terms.size()) > terms_left) continue;
          if (must_read && r.items < items) continue;
          bool open = r.ids.size() <= open_.size();
          for (std::size_t l = 0; open && l < r.ids.size(); ++l) open = open_[l].id == r.ids[l];
          if (open) cands.push_back(&r);
        }
      if (!cands.empty()) {
        const Recent& r = *rng_.pick(cands);
        Addr a = r.addr;
        if (must_read)
          a.base += rng_.chance(1, 2) ? 0 : rng_.uniform(0, r.items - items);
        else if (rng_.chance(1, 2))
          a.base += rng_.uniform(-(items - 1), r.items - 1);
        if (a.base >= 0 && a.base + extent(a, items) <= rows) {
          terms_left -= static_cast<std::int64_t>(a.terms.size());
          return a;
        }
      }
    }
    // Fresh: the forced terms, then maybe some of the budget left.
    Addr a;
    std::set<std::int64_t> levels(forced_levels.begin(), forced_levels.end());
    for (std::int64_t level : forced_levels)
      a.terms.emplace_back(level,
                           rng_.chance(1, 2) ? 1 : pick_stride(items, open_[static_cast<std::size_t>(level)].trip));
    const std::size_t fixed = a.terms.size();
    if (terms_left > 0 && !open_.empty()) {
      const std::int64_t n = rng_.chance(1, 2) ? terms_left : rng_.uniform(0, terms_left);
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t level = pick_level(raw ? std::set<std::int64_t>{} : levels);
        if (level < 0) break;
        levels.insert(level);
        a.terms.emplace_back(level, pick_stride(items, open_[static_cast<std::size_t>(level)].trip));
      }
    }
    for (int shrink = 0; shrink < 8; ++shrink) {
      const std::int64_t e = extent(a, items);
      if (must_read) {
        std::vector<std::pair<std::int64_t, std::int64_t>> runs;
        for (const auto& run : frag_state_.written_runs(*mems.begin(), e)) {
          bool everywhere = true;  // every memory the operand reads holds data there
          for (std::size_t m : mems)
            for (std::int64_t r = run.first; everywhere && r < run.first + e; ++r)
              everywhere = frag_state_.written(m, r);
          if (everywhere) runs.push_back(run);
        }
        if (!runs.empty()) {
          const auto& run = rng_.pick(runs);
          a.base = rng_.edgy(run.first, run.second - e);
          terms_left -= static_cast<std::int64_t>(a.terms.size() - fixed);
          return a;
        }
      } else {
        const std::int64_t top = !dram && window_ >= e && rng_.chance(3, 4) ? std::min(rows, window_) : rows;
        if (e <= top) {
          a.base = rng_.edgy(0, top - e);
          terms_left -= static_cast<std::int64_t>(a.terms.size() - fixed);
          return a;
        }
      }
      const bool strided = std::any_of(a.terms.begin(), a.terms.end(), [](const auto& t) { return t.second > 1; });
      if (strided)
        for (auto& t : a.terms) t.second = 1;
      else if (a.terms.size() > fixed)
        a.terms.pop_back();
      else
        break;
    }
    if (must_read) wants_.push_back({*mems.begin(), extent(a, items), &op, 0});
    return std::nullopt;
  }

  /// One instruction of `op` for the current place in the block.
  std::optional<Instr> gen_instr(const OpcodeFacts& op, const Forced& forced, std::vector<Recent>& used) {
    Instr in = isa_.make(*op.op);
    if (!op.data()) return in;  // nop: nothing to choose
    const std::int64_t nr = forced.nr > 0 ? std::min(forced.nr, op.max_rows) : choose_nr(op);
    in.fields[isa_.nr_index()] = nr;
    static constexpr std::array<std::uint64_t, 4> tw = {1, 2, 2, 3};
    std::int64_t terms_left = open_.empty() || forced.exact
                                  ? 0
                                  : std::min<std::int64_t>(f_.agu_terms, static_cast<std::int64_t>(rng_.weighted(tw)));
    const bool raw = opt_.raw_terms && !forced.exact && rng_.chance(1, 16);
    std::vector<std::vector<std::int64_t>> forced_levels(op.operands.size());
    for (const auto& [k, level] : forced.terms) forced_levels[k].push_back(level);
    std::vector<std::optional<Addr>> addr(op.operands.size());
    for (const auto& [k, a] : forced.addr) addr[k] = a;
    for (std::size_t k = 0; k < op.operands.size(); ++k)
      if (!addr[k] && op.operands[k].restricted()) {
        addr[k] = restricted_addr(op.operands[k], terms_left, forced_levels[k]);
        if (!addr[k]) return std::nullopt;
      }

    // Which accesses the selectors switch on: at the first iteration (their
    // reads need data before the block), and at any iteration (bounds).
    std::vector<std::int64_t> first = in.fields;
    for (std::size_t k = 0; k < op.operands.size(); ++k)
      if (addr[k]) first[op.operands[k].field] = addr[k]->base;
    std::vector<std::vector<std::int64_t>> variants{first};
    for (std::size_t k = 0; k < op.operands.size(); ++k) {
      if (!op.operands[k].selector || !addr[k] || addr[k]->terms.empty()) continue;
      std::vector<std::vector<std::int64_t>> next;
      for (const auto& v : variants)
        for (std::int64_t x : reachable(*addr[k], 16)) {
          auto c = v;
          c[op.operands[k].field] = x;
          next.push_back(std::move(c));
        }
      variants = std::move(next);
    }
    struct Need {
      std::set<std::size_t> mems;
      std::int64_t items = 0;
      bool must_read = false;
      bool any = false;
    };
    std::vector<Need> need(op.operands.size());
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const IssueShape& s = f_.shape(op, variants[v]);
      for (std::size_t i = 0; i < s.active.size(); ++i) {
        Need& n = need[s.active[i]->operand];
        n.any = true;
        n.mems.insert(s.active[i]->memory);
        n.items = std::max(n.items, s.items[i]);
        if ((v == 0 || forced.all_reads) && s.active[i]->read && !mem(s.active[i]->memory).dram) n.must_read = true;
      }
    }
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < op.operands.size(); ++k)
      if (!addr[k]) order.push_back(k);
    rng_.shuffle(order);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return need[x].must_read > need[y].must_read;  // reads first: they are the hard ones to place
    });
    for (std::size_t k : order) {
      if (!need[k].any) {  // an operand no access uses: a small value its field holds
        addr[k] = Addr{rng_.small(0, std::min<std::int64_t>(op.operands[k].field_max, 64)), {}};
        continue;
      }
      auto a = base_addr(op, need[k].must_read, need[k].mems, need[k].items, terms_left, raw, forced_levels[k]);
      if (!a) {
        if (!wants_.empty() && wants_.back().op == &op) wants_.back().nr = nr;
        return std::nullopt;
      }
      addr[k] = std::move(a);
      for (std::size_t m : need[k].mems) {
        Recent r{m, *addr[k], need[k].items, !need[k].must_read, {}};
        for (const Level& l : open_) r.ids.push_back(l.id);
        used.push_back(std::move(r));
      }
    }
    // Assemble: bases, then the terms in the assembler's canonical order (by
    // field, then level) unless this one is raw.
    std::vector<AguTerm> terms;
    for (std::size_t k = 0; k < op.operands.size(); ++k) {
      in.fields[op.operands[k].field] = addr[k]->base;
      for (const auto& [level, stride] : addr[k]->terms) terms.push_back({op.operands[k].target, level, stride});
    }
    if (raw) {
      if (static_cast<std::int64_t>(terms.size()) < f_.agu_terms && !open_.empty() && rng_.chance(1, 2)) {
        const auto& o =
            op.operands[static_cast<std::size_t>(rng_.uniform(0, static_cast<std::int64_t>(op.operands.size()) - 1))];
        terms.push_back({o.target, rng_.uniform(0, static_cast<std::int64_t>(open_.size()) - 1), 0});
      }
      rng_.shuffle(terms);
    } else {
      std::stable_sort(terms.begin(), terms.end(), [&](const AguTerm& x, const AguTerm& y) {
        return std::make_pair(isa_.target_index(x.target), x.level) <
               std::make_pair(isa_.target_index(y.target), y.level);
      });
    }
    in.terms = std::move(terms);
    if (open_.empty() && (forced.aim || rng_.chance(1, 2))) aim_distance(op, in, forced.aim);
    return in;
  }

  /// At the top level: move one read of a distance-tracked memory to a base
  /// that puts it exactly at the contract's minimum after its write, when one exists.
  void aim_distance(const OpcodeFacts& op, Instr& in, std::optional<std::size_t> operand) {
    const IssueShape& s = f_.shape(op, in.fields);
    std::vector<const AccessFacts*> reads;
    for (const AccessFacts* a : s.active)
      if (a->read && mem(a->memory).distance && (!operand || a->operand == *operand)) reads.push_back(a);
    if (reads.empty()) return;
    const AccessFacts* a = rng_.pick(reads);
    const MemoryFacts& m = mem(a->memory);
    const std::size_t field = op.operands[a->operand].field;
    // The most recently written rows, and the bases that put them under the read.
    std::vector<std::pair<std::int64_t, std::int64_t>> latest;  // (last write, row)
    for (std::int64_t r = 0; r < m.rows; ++r)
      if (frag_state_.last_write(a->memory, r) >= 0) latest.emplace_back(frag_state_.last_write(a->memory, r), r);
    std::sort(latest.rbegin(), latest.rend());
    if (latest.size() > 8) latest.resize(8);
    std::set<std::int64_t> bases;
    for (const auto& [t, r] : latest)
      for (std::int64_t j = 0; j < 8; ++j) bases.insert(r - j);
    // Exactly the minimum, or (now and then, when not aimed) one above it.
    const std::int64_t want = m.min_distance + (!operand && rng_.chance(1, 4) ? 1 : 0);
    std::vector<std::int64_t> exact;
    Issue is;
    is.opcode = op.op;
    for (std::int64_t b : bases) {
      if (b < 0 || b >= m.rows) continue;
      is.fields = in.fields;
      is.fields[field] = b;
      Tracker t = frag_state_;
      IssueEvents ev;
      if (!t.apply(is, &ev).empty()) continue;
      std::int64_t least = -1;
      for (const DistanceRead& d : ev.distances)
        if (d.access == a && (least < 0 || d.distance < least)) least = d.distance;
      if (least == want) exact.push_back(b);
    }
    if (!exact.empty()) in.fields[field] = rng_.pick(exact);
  }
};

/// A byte drawn from a distribution over the operand range lo .. hi.
std::int8_t draw(Rng& rng, Dist d, bool left, std::int64_t lo, std::int64_t hi) {
  switch (d) {
    case Dist::Full:
      return static_cast<std::int8_t>(rng.uniform(lo, hi));
    case Dist::Corner: {
      const std::array<std::int64_t, 7> corner = {lo, lo + 1, -1, 0, 1, hi - 1, hi};
      return static_cast<std::int8_t>(corner[static_cast<std::size_t>(rng.uniform(0, 6))]);
    }
    case Dist::Mid:
      return static_cast<std::int8_t>(rng.uniform(-16, 16));
    case Dist::Boundary:
      if (left) {
        static constexpr std::array<std::uint64_t, 3> w = {2, 1, 1};
        return static_cast<std::int8_t>(std::array<std::int64_t, 3>{0, 1, -1}[rng.weighted(w)]);
      } else {
        static constexpr std::array<std::uint64_t, 5> w = {1, 1, 1, 1, 2};
        return static_cast<std::int8_t>(std::array<std::int64_t, 5>{hi, lo, 1, -1, 0}[rng.weighted(w)]);
      }
  }
  return 0;
}

}  // namespace

void random_operands(const Isa& isa, std::uint64_t seed, Dist dist, std::vector<std::int8_t>& a,
                     std::vector<std::int8_t>& b, std::vector<std::int8_t>& c) {
  const Numerics& num = isa.spec().numerics;
  const std::int64_t lo = num.operand_signed ? -(std::int64_t{1} << (num.operand_bits - 1)) : 0;
  const std::int64_t hi =
      num.operand_signed ? (std::int64_t{1} << (num.operand_bits - 1)) - 1 : (std::int64_t{1} << num.operand_bits) - 1;
  const std::int64_t maxdim = isa.param("MAXDIM");
  const auto n = static_cast<std::size_t>(maxdim * maxdim);
  Rng rng(splitmix64(seed) ^ 0x6f706572616e6473ULL);  // "operands": a stream apart from the program's
  a.assign(n, 0);
  b.assign(n, 0);
  c.assign(n, 0);
  for (auto& v : a) v = draw(rng, dist, true, lo, hi);
  for (auto& v : b) v = draw(rng, dist, false, lo, hi);
  if (dist == Dist::Full && n >= 2)  // the range's edges forced in, as the original did
    for (auto* m : {&a, &b}) {
      const auto x = static_cast<std::size_t>(rng.uniform(0, static_cast<std::int64_t>(n) - 1));
      auto y = static_cast<std::size_t>(rng.uniform(0, static_cast<std::int64_t>(n) - 2));
      if (y >= x) ++y;
      (*m)[x] = static_cast<std::int8_t>(lo);
      (*m)[y] = static_cast<std::int8_t>(hi);
    }
  for (auto& v : c) v = static_cast<std::int8_t>(rng.uniform(lo, hi));
}

std::vector<Aim> agu_aims(const IsaFacts& f, const FuzzOptions& options) {
  std::vector<Aim> out;
  if (disabled(options, f.loop_op().name) || disabled(options, f.endloop_op().name)) return out;
  for (const OpcodeFacts& op : f.opcodes()) {
    if (!op.live() || !op.data() || disabled(options, op.name())) continue;
    std::vector<std::string> ops;
    for (const OperandFacts& o : op.operands)
      if (agu_blocker(f, op, o).empty()) ops.push_back(o.name());
    const auto k = static_cast<std::int64_t>(ops.size());
    if (k == 0) continue;
    for (std::int64_t level = 0; level < f.loop_depth; ++level)
      for (std::int64_t n = 1; n <= f.agu_terms; ++n) {
        if (n <= k) {
          for (std::int64_t i = 0; i < k; i += n) {
            Aim g{op.name(), {}, 0, {}};
            for (std::int64_t j = 0; j < n; ++j)
              g.terms.emplace_back(ops[static_cast<std::size_t>((i + j) % k)], level);
            out.push_back(std::move(g));
          }
        } else if (f.loop_depth > 1) {  // every operand here, the rest on the other levels
          Aim g{op.name(), {}, 0, {}};
          for (std::int64_t j = 0; j < n; ++j)
            g.terms.emplace_back(ops[static_cast<std::size_t>(j % k)],
                                 j < k ? level : (level + 1 + (j - k)) % f.loop_depth);
          out.push_back(std::move(g));
        }
      }
  }
  Aim flat;
  flat.flat = true;
  out.push_back(flat);
  return out;
}

std::vector<Aim> row_aims(const IsaFacts& f, const FuzzOptions& options) {
  std::vector<Aim> out;
  for (const OpcodeFacts& op : f.opcodes())
    if (op.live() && op.data() && !disabled(options, op.name())) out.push_back(Aim{op.name(), {}, op.max_rows, {}});
  return out;
}

std::vector<Aim> distance_aims(const IsaFacts& f, const FuzzOptions& options) {
  std::vector<Aim> out;
  for (const OpcodeFacts& op : f.opcodes()) {
    if (!op.live() || !op.data() || disabled(options, op.name())) continue;
    for (const AccessFacts& a : op.accesses) {
      const std::string& name = op.operands[a.operand].name();
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const Aim& x) { return x.opcode == op.name() && x.exact_read == name; });
      if (a.read && f.memories()[a.memory].distance && !seen) out.push_back(Aim{op.name(), {}, 0, name});
    }
  }
  return out;
}

Generator::Generator(const Isa& isa, FuzzOptions options)
    : isa_(&isa), options_(std::move(options)), facts_(std::make_shared<const IsaFacts>(isa)) {
  for (const auto& name : options_.disabled_opcodes)
    if (!isa.spec().opcode(name))
      throw Error("fuzz.options", fmt::format("cannot disable opcode '{}': the spec has no such opcode", name));
  agu_aims_ = fuzz::agu_aims(*facts_, options_);
  row_aims_ = fuzz::row_aims(*facts_, options_);
  distance_aims_ = fuzz::distance_aims(*facts_, options_);
}

FuzzCase Generator::make(std::uint64_t seed) const {
  const IsaFacts& f = *facts_;
  Rng rng(seed);
  std::int64_t budget = options_.budget > 0 ? options_.budget : kDefaultBudget;
  if (options_.large_one_in > 0 && rng.chance(1, static_cast<std::uint64_t>(options_.large_one_in))) budget *= 4;
  budget = std::min(budget, f.count_max);
  ProgramGen gen(f, options_, agu_aims_, row_aims_, distance_aims_, rng, budget);
  Program raw;
  raw.instrs = gen.run(seed);
  raw.source = fmt::format("fuzz seed {}", seed);

  FuzzCase c;
  c.seed = seed;
  c.assembly = disassemble(*isa_, raw);
  c.program = parse_assembly(*isa_, c.assembly, raw.source);
  bool same = c.program.instrs.size() == raw.instrs.size();
  for (std::size_t i = 0; same && i < raw.instrs.size(); ++i)
    same = isa_->encode(c.program.instrs[i]) == isa_->encode(raw.instrs[i]);
  if (!same)
    throw Error("fuzz.generator", fmt::format("seed {}: the program's assembly does not assemble back to it", seed));
  const CheckResult check = check_program(*isa_, c.program);
  if (!check.ok())
    throw Error("fuzz.generator",
                fmt::format("seed {}: the generated program breaks a contract (a generator bug):\n{}{}", seed,
                            check.report(c.program.source), c.assembly));
  static constexpr std::array<std::uint64_t, 4> dw = {3, 2, 2, 2};
  c.dist = options_.dist ? *options_.dist : static_cast<Dist>(rng.weighted(dw));
  random_operands(*isa_, seed, c.dist, c.a, c.b, c.c);
  return c;
}

FuzzCase random_case(const Isa& isa, std::uint64_t seed, const FuzzOptions& options) {
  return Generator(isa, options).make(seed);
}

}  // namespace tpugen::fuzz
