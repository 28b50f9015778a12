// Tests for check_program / assemble: every contract of the spec, on good
// programs, on one bad program per broken rule, and on random garbage.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <random>
#include <set>

#include "isa/check.h"
#include "isa/derive.h"
#include "isa/image.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const Spec& shipped_spec() {
  static const Spec spec = load_spec(TPUGEN_SOURCE_DIR "/spec/tinytpu_isa.yaml");
  return spec;
}

Isa default_isa() { return Isa(shipped_spec(), legal_params(shipped_spec())); }

constexpr int kFirstLine = 100;  ///< the builder numbers lines from here, so a line is never its pc
int line_of(std::size_t pc) { return kFirstLine + static_cast<int>(pc); }

/// An AGU term by operand name: (operand, level, stride).
struct Term {
  std::string operand;
  std::int64_t level = 0;
  std::int64_t stride = 0;
};

/// A tiny program builder over Isa::make and operand names; instruction pc
/// gets source line kFirstLine + pc.
class Prog {
 public:
  explicit Prog(const Isa& isa, std::string source = "check_test.s") : isa_(isa) { p_.source = std::move(source); }

  Prog& op(std::string_view name, std::int64_t nr,
           std::initializer_list<std::pair<std::string_view, std::int64_t>> operands = {},
           const std::vector<Term>& terms = {}) {
    const Opcode& o = isa_.spec().opcode_named(name);
    Instr in = isa_.make(o);
    in.fields[isa_.nr_index()] = nr;
    for (const auto& [n, v] : operands) in.fields[isa_.operand_index(o, n)] = v;
    for (const Term& t : terms) in.terms.push_back({target_of(o, t.operand), t.level, t.stride});
    in.line = line_of(p_.instrs.size());
    p_.instrs.push_back(std::move(in));
    return *this;
  }
  // dma_ld modes (the reference notes): bit 0 = source B, bit 1 = destination vr.
  Prog& load_a_to_vr(std::int64_t dram_row0, std::int64_t col_block, std::int64_t dst, std::int64_t nr,
                     const std::vector<Term>& terms = {}) {
    return op("dma_ld", nr, {{"mode", 2}, {"dram_row0", dram_row0}, {"col_block", col_block}, {"dst_row0", dst}},
              terms);
  }
  Prog& load_b_to_spad(std::int64_t dram_row0, std::int64_t col_block, std::int64_t dst, std::int64_t nr,
                       const std::vector<Term>& terms = {}) {
    return op("dma_ld", nr, {{"mode", 1}, {"dram_row0", dram_row0}, {"col_block", col_block}, {"dst_row0", dst}},
              terms);
  }
  Prog& load_a_to_spad(std::int64_t dram_row0, std::int64_t col_block, std::int64_t dst, std::int64_t nr) {
    return op("dma_ld", nr, {{"mode", 0}, {"dram_row0", dram_row0}, {"col_block", col_block}, {"dst_row0", dst}});
  }
  Prog& mm(std::int64_t vr_a, std::int64_t ar0, std::int64_t acc, std::int64_t spad_w, std::int64_t nr,
           const std::vector<Term>& terms = {}) {
    return op("mm", nr, {{"vr_a", vr_a}, {"ar0", ar0}, {"acc", acc}, {"spad_w", spad_w}}, terms);
  }
  Prog& vld(std::int64_t vr0, std::int64_t spad0, std::int64_t nr) {
    return op("vld", nr, {{"vr0", vr0}, {"spad0", spad0}});
  }
  Prog& vadd(std::int64_t d, std::int64_t s1, std::int64_t s2, std::int64_t nr) {
    return op("vadd", nr, {{"ar_d", d}, {"ar_s1", s1}, {"ar_s2", s2}});
  }
  Prog& vrelu(std::int64_t d, std::int64_t s, std::int64_t nr, const std::vector<Term>& terms = {}) {
    return op("vrelu", nr, {{"ar_d", d}, {"ar_s", s}}, terms);
  }
  Prog& mvout(std::int64_t ar0, std::int64_t dram_row0, std::int64_t col_block, std::int64_t nr,
              const std::vector<Term>& terms = {}) {
    return op("mvout", nr, {{"ar0", ar0}, {"dram_row0", dram_row0}, {"col_block", col_block}}, terms);
  }
  Prog& loop(std::int64_t trip, const std::vector<Term>& terms = {}) { return op("loop", trip, {}, terms); }
  Prog& endloop() { return op("endloop", 0); }
  Prog& nop() { return op("nop", 0); }
  /// A raw AGU term on the last instruction (any target, for bad programs).
  Prog& raw_term(AguTerm t) {
    p_.instrs.back().terms.push_back(t);
    return *this;
  }
  /// The operand tiles every GEMM test starts from: A rows 0..T-1 into vr
  /// rows 0..T-1 and B rows 0..T-1 into spad rows 0..T-1 (pc 0 and 1).
  Prog& operands_loaded() {
    const std::int64_t t = isa_.param("T");
    return load_a_to_vr(0, 0, 0, t).load_b_to_spad(0, 0, 0, t);
  }

  [[nodiscard]] std::size_t size() const { return p_.instrs.size(); }
  [[nodiscard]] const Program& program() const { return p_; }
  Program& mutable_program() { return p_; }

 private:
  [[nodiscard]] std::int64_t target_of(const Opcode& o, const std::string& operand) const {
    const Operand* opd = o.operand(operand);
    REQUIRE(opd != nullptr);
    return isa_.spec().field(opd->field)->agu_target;
  }
  const Isa& isa_;
  Program p_;
};

/// Every violation names a contract the spec declares, an instruction inside
/// the program (or one past it) and that instruction's line.
void require_well_formed(const CheckResult& r, const Program& p) {
  for (const Violation& v : r.violations) {
    INFO(v.rule << ": " << v.message);
    REQUIRE(shipped_spec().contract(v.rule) != nullptr);
    REQUIRE(v.pc <= p.instrs.size());
    REQUIRE(v.line == (v.pc < p.instrs.size() ? p.instrs[v.pc].line : 0));
    REQUIRE_FALSE(v.message.empty());
    REQUIRE_FALSE(v.opcode.empty());
  }
}

CheckResult check(const Isa& isa, const Prog& p) {
  CheckResult r;
  REQUIRE_NOTHROW(r = check_program(isa, p.program()));
  require_well_formed(r, p.program());
  return r;
}

std::multiset<std::string> rules_of(const CheckResult& r) {
  std::multiset<std::string> out;
  for (const auto& v : r.violations) out.insert(v.rule);
  return out;
}

const Violation* find(const CheckResult& r, std::string_view rule) {
  for (const auto& v : r.violations)
    if (v.rule == rule) return &v;
  return nullptr;
}

/// Exactly one violation, of `rule`, at instruction `pc` (and its line).
void require_only(const CheckResult& r, const std::string& rule, std::size_t pc) {
  INFO(r.report("check_test.s"));
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].rule == rule);
  CHECK(r.violations[0].pc == pc);
  CHECK(r.violations[0].line == line_of(pc));
}

/// The first violation of `rule`; fails the test (with the report) when there is none.
const Violation& require_violation(const CheckResult& r, std::string_view rule) {
  INFO(r.report("check_test.s"));
  const Violation* v = find(r, rule);
  REQUIRE(v != nullptr);
  return *v;
}

/// A violation of `rule` at instruction `pc` whose message says `says`.
void check_violation(const CheckResult& r, std::string_view rule, std::size_t pc, const std::string& says) {
  const Violation& v = require_violation(r, rule);
  CHECK(v.pc == pc);
  CHECK_THAT(v.message, Catch::Contains(says));
}

void require_clean(const CheckResult& r) {
  INFO(r.report("check_test.s"));
  REQUIRE(r.ok());
}

std::int64_t header_count(const Isa& isa, const CheckResult& r, std::string_view name) {
  const auto& h = isa.spec().header;
  for (std::size_t e = 0; e < h.size(); ++e)
    if (h[e].name == name) return r.header.at(e);
  FAIL("no header entry " << name);
  return -1;
}

/// The first opcode number the op field can carry that the spec does not define.
std::int64_t undefined_opcode_number(const Spec& spec) {
  for (std::int64_t v = 0; v <= spec.field("op")->usable_max; ++v)
    if (!spec.opcode(v)) return v;
  FAIL("every opcode number is defined");
  return -1;
}

/// A field that is an AGU target but carries no operand of `op`.
std::int64_t non_operand_target(const Spec& spec, const Opcode& op) {
  for (const Field& f : spec.word0)
    if (f.agu_target != 0 && !op.operand_in_field(f.name)) return f.agu_target;
  FAIL(op.name << " uses every AGU target");
  return -1;
}

/// The first AGU target value the subfield can carry that names no field.
std::int64_t dangling_target(const Spec& spec) {
  for (std::int64_t t = 1; t <= spec.term.subfield("target").usable_max; ++t)
    if (!spec.field_by_target(static_cast<int>(t))) return t;
  FAIL("every target names a field");
  return -1;
}

}  // namespace

// ---------------------------------------------------------------------------
// Good programs
// ---------------------------------------------------------------------------

TEST_CASE("check: a single-tile GEMM is accepted and its header is the hand-computed one", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa);
  p.operands_loaded().mm(0, 0, 0, 0, t).mvout(0, 0, 0, t);
  const CheckResult r = check(isa, p);
  require_clean(r);
  REQUIRE(r.issues.size() == 4);
  // M = K = N = T. Costs from the seed's per-unit cost table.
  CHECK(header_count(isa, r, "n_instr") == 4);
  CHECK(header_count(isa, r, "dma_ld_rows") == 2 * t);
  CHECK(header_count(isa, r, "spm_rows") == t + (t + 1));  // spad-bound dma_ld rows + T + 1 per mm
  CHECK(header_count(isa, r, "vru_words") == t + t);       // vr-bound dma_ld rows + mm rows
  CHECK(header_count(isa, r, "mm_count") == 1);
  CHECK(header_count(isa, r, "mm_rows") == t);
  CHECK(header_count(isa, r, "accu_iterations") == t + t);  // mm rows + mvout rows
  CHECK(header_count(isa, r, "dma_st_rows") == t);
  CHECK(header_count(isa, r, "a_span") == t);
  CHECK(header_count(isa, r, "b_span") == t);

  const auto image = assemble(isa, p.program());
  CHECK(image == encode_image(isa, p.program()));
  CHECK(unpack_header(isa, image) == r.header);
}

/// The shipped GEMM's shape at M = N = T, K = 2T: A tiles into vr at
/// kb * MAXDIM, B into spad, the first k-tile peeled (acc 0), the second
/// accumulating (acc 1) inside a loop.
Prog looped_gemm(const Isa& isa) {
  const std::int64_t t = isa.param("T"), maxdim = isa.param("MAXDIM");
  const std::int64_t m = t, k = 2 * t, kt = k / t, nt = 1;
  Prog p(isa);
  p.loop(kt).load_a_to_vr(0, 0, 0, m, {{"col_block", 0, 1}, {"dst_row0", 0, maxdim}}).endloop();
  p.loop(nt).load_b_to_spad(0, 0, 0, k, {{"col_block", 0, 1}, {"dst_row0", 0, maxdim}}).endloop();
  p.loop(nt)
      .mm(0, 0, 0, 0, m, {{"spad_w", 0, maxdim}})
      .loop(kt - 1)
      .mm(maxdim, 0, 1, t, m, {{"vr_a", 1, maxdim}, {"spad_w", 0, maxdim}, {"spad_w", 1, t}})
      .endloop()
      .mvout(0, 0, 0, m, {{"col_block", 0, 1}})
      .endloop();
  return p;
}

TEST_CASE("check: a looped two-k-tile GEMM is accepted with hand-computed header counts", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  const Prog p = looped_gemm(isa);
  const CheckResult r = check(isa, p);
  require_clean(r);
  const std::int64_t m = t, k = 2 * t;
  CHECK(header_count(isa, r, "n_instr") == 13);
  CHECK(header_count(isa, r, "dma_ld_rows") == 2 * m + k);
  CHECK(header_count(isa, r, "spm_rows") == k + 2 * (t + 1));
  CHECK(header_count(isa, r, "vru_words") == 2 * m + 2 * m);
  CHECK(header_count(isa, r, "mm_count") == 2);
  CHECK(header_count(isa, r, "mm_rows") == 2 * m);
  CHECK(header_count(isa, r, "accu_iterations") == 2 * m + m);
  CHECK(header_count(isa, r, "dma_st_rows") == m);
  CHECK(header_count(isa, r, "a_span") == m);
  CHECK(header_count(isa, r, "b_span") == k);
  // The stream and the header are expand()'s and header_counts()'s.
  const auto issues = expand(isa, p.program());
  REQUIRE(r.issues.size() == issues.size());
  for (std::size_t i = 0; i < issues.size(); ++i) {
    CHECK(r.issues[i].pc == issues[i].pc);
    CHECK(r.issues[i].fields == issues[i].fields);
  }
  CHECK(r.header == header_counts(isa, p.program(), issues));
  CHECK_NOTHROW(assemble(isa, p.program()));
}

TEST_CASE("check: operands reaching vr through spad and a vld are written data", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa);
  p.load_a_to_spad(0, 0, 100, t).vld(0, 100, t).load_b_to_spad(0, 0, 0, t).mm(0, 0, 0, 0, t).mvout(0, 0, 0, t);
  require_clean(check(isa, p));
}

TEST_CASE("check: vrelu, vadd and vaddrelu on written rows at legal distances are accepted", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa);
  // relu(2 * (A @ B)) as the reference notes' vadd_program: two mm, vadd, vrelu, mvout.
  p.operands_loaded()
      .mm(0, 0, 0, 0, t)
      .mm(0, 16, 0, 0, t)
      .vadd(32, 0, 16, t)
      .op("vaddrelu", t, {{"ar_d", 48}, {"ar_s1", 0}, {"ar_s2", 16}});
  p.vrelu(32, 32, t).mvout(32, 0, 0, t);
  require_clean(check(isa, p));
}

// ---------------------------------------------------------------------------
// Bad programs: one per broken rule
// ---------------------------------------------------------------------------

namespace {

struct BadCase {
  std::string name;
  Prog prog;
  std::string rule;                ///< the rule the case is about
  std::size_t pc;                  ///< where
  std::multiset<std::string> all;  ///< every rule the program breaks (default: just `rule`)
};

std::vector<BadCase> bad_programs(const Isa& isa) {
  const Spec& spec = isa.spec();
  const std::int64_t t = isa.param("T"), wpr = isa.param("WPR"), maxdim = isa.param("MAXDIM");
  const std::int64_t dist = spec.isa_constant("AR_RAW_DIST");
  const std::int64_t depth = spec.isa_constant("LOOP_DEPTH");
  std::vector<BadCase> cases;
  auto add = [&](std::string name, Prog p, std::string rule, std::size_t pc, std::multiset<std::string> all = {}) {
    if (all.empty()) all = {rule};
    cases.push_back({std::move(name), std::move(p), std::move(rule), pc, std::move(all)});
  };
  auto fresh = [&] { return Prog(isa); };

  add("retired dma_st", std::move(fresh().nop().op("dma_st", 0)), "retired_opcode", 1);
  {
    Prog p = fresh();
    p.nop().nop();
    p.mutable_program().instrs[1].fields[isa.op_index()] = undefined_opcode_number(spec);
    add("unknown opcode number", std::move(p), "known_opcode", 1);
  }
  add("nr = 0 on mm", std::move(fresh().operands_loaded().mm(0, 0, 0, 0, 0)), "nr_at_least_one", 2);
  add("nr = 0 on mvout", std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).mvout(0, 0, 0, 0)), "nr_at_least_one",
      3);
  add("loop trip 0", std::move(fresh().loop(0).nop().endloop()), "loop_trip", 0);
  add("endloop without loop", std::move(fresh().nop().endloop()), "loop_balance", 1);
  add("unclosed loop", std::move(fresh().nop().loop(2).nop()), "loop_balance", 1);
  {
    Prog p = fresh();
    for (std::int64_t i = 0; i <= depth; ++i) p.loop(2);
    p.nop();
    for (std::int64_t i = 0; i <= depth; ++i) p.endloop();
    add("loop depth LOOP_DEPTH + 1", std::move(p), "loop_depth", static_cast<std::size_t>(depth));
  }
  add("AGU term on a level that is not open", std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t, {{"vr_a", 0, 1}})),
      "agu_level_open", 2);
  add("AGU term on an inner level outside its loop",
      std::move(fresh().operands_loaded().loop(1).mm(0, 0, 0, 0, t, {{"vr_a", 1, 1}}).endloop()), "agu_level_open", 3);
  add("AGU term on a nop", std::move(fresh().loop(2).nop().raw_term({1, 0, 1}).endloop()), "agu_level_open", 1);
  add("AGU term on a loop", std::move(fresh().loop(2).raw_term({1, 0, 1}).nop().endloop()), "agu_level_open", 0);
  {
    Prog p = fresh();
    const std::int64_t target = non_operand_target(spec, spec.opcode_named("vrelu"));
    p.operands_loaded().mm(0, 0, 0, 0, t).loop(1).vrelu(0, 0, t).raw_term({target, 0, 1}).endloop();
    add("AGU term on a field vrelu does not use", std::move(p), "agu_target", 4);
  }
  add("AGU term target naming no field",
      std::move(fresh().loop(1).load_b_to_spad(0, 0, 0, t).raw_term({dangling_target(spec), 0, 1}).endloop()),
      "agu_target", 1);
  add("AGU term with the unused target",
      std::move(fresh().loop(1).load_b_to_spad(0, 0, 0, t).raw_term({spec.unused_target, 0, 1}).endloop()),
      "agu_target", 1);
  {
    Prog p = fresh();
    p.operands_loaded().loop(1).mm(0, 0, 0, 0, t);
    for (int i = 0; i <= spec.term.count; ++i) p.raw_term({spec.field("f0")->agu_target, 0, 0});
    p.endloop();
    add("more AGU terms than the word carries", std::move(p), "field_range", 3);
  }
  add("AGU stride over its usable range",
      std::move(fresh()
                    .loop(1)
                    .load_b_to_spad(0, 0, 0, t, {{"dst_row0", 0, spec.term.subfield("stride").usable_max + 1}})
                    .endloop()),
      "field_range", 1);
  add("loop trip MAXROWS + 1 (the 8-bit field holds it, the rule forbids it)",
      std::move(fresh().loop(isa.param("MAXROWS") + 1).nop().endloop()), "field_range", 0);
  {
    // spad_w walks past 2047: the addressing ceiling's refusal.
    const std::int64_t addr_max = isa.param("ADDR_MAX");
    Prog p = fresh();
    p.operands_loaded().loop(2).mm(0, 0, 0, addr_max - 3, t, {{"spad_w", 0, 4}}).endloop();
    add("AGU-resolved field over ADDR_MAX", std::move(p), "field_range", 3, {"field_range", "memory_bounds"});
  }
  add("acc driven by the AGU for three trips",
      std::move(fresh().operands_loaded().loop(3).mm(0, 0, 0, 0, t, {{"acc", 0, 1}}).endloop()), "legal_values", 3);
  add("dma_ld mode 4", std::move(fresh().op("dma_ld", t, {{"mode", 4}})), "legal_values", 0);
  add("dma_ld col_block = WPR", std::move(fresh().load_a_to_vr(0, wpr, 0, t)), "legal_values", 0);
  add("mvout col_block = WPR", std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).mvout(0, 0, wpr, t)),
      "legal_values", 3);
  add("mm reads never-written vr rows", std::move(fresh().load_b_to_spad(0, 0, 0, t).mm(0, 0, 0, 0, t)),
      "write_before_read_operands", 1);
  add("mm reads vr rows past the loaded ones", std::move(fresh().operands_loaded().mm(1, 0, 0, 0, t)),
      "write_before_read_operands", 2);
  add("mm weights from never-written spad", std::move(fresh().load_a_to_vr(0, 0, 0, t).mm(0, 0, 0, 0, t)),
      "write_before_read_operands", 1);
  add("vld copies unwritten spad, then mm consumes it",
      std::move(fresh().load_b_to_spad(0, 0, 0, t).vld(0, 200, t).mm(0, 0, 0, 0, t)), "vld_copies_unwritten", 2);
  add("vrelu of never-written ar", std::move(fresh().vrelu(0, 0, t)), "write_before_read_ar", 0);
  add("mvout of never-written ar", std::move(fresh().mvout(0, 0, 0, t)), "write_before_read_ar", 0);
  add("vadd with a never-written second source",
      std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).vadd(8, 0, 50, 1)), "write_before_read_ar", 3);
  add("accumulating mm onto never-written ar", std::move(fresh().operands_loaded().mm(0, 0, 1, 0, t)),
      "write_before_read_ar", 2);
  add("accumulating mm at distance AR_RAW_DIST - 1",
      std::move(fresh().operands_loaded().mm(0, 0, 0, 0, dist - 1).mm(0, 0, 1, 0, dist - 1)), "ar_raw_dist", 3);
  add("vrelu right after a short mm", std::move(fresh().operands_loaded().mm(0, 0, 0, 0, dist - 1).vrelu(0, 0, 1)),
      "ar_raw_dist", 3);
  // mm writes ar row r at accu iteration r; the vadd then reads its first
  // source on iteration T (even step) and its second on T + 1 (odd step).
  add("vadd first source one iteration too early",
      std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).vadd(8, t - dist + 1, 0, 1)), "ar_raw_dist", 3);
  add("vadd second source one iteration too early",
      std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).vadd(8, t - dist, t + 2 - dist, 1)), "ar_raw_dist", 3);
  // The vadd writes row 8 on its odd step (iteration T + 1); a filler mvout of
  // AR_RAW_DIST - 2 rows puts the vrelu's read AR_RAW_DIST - 1 after it.
  add("read of a vadd's result one iteration too early",
      std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).vadd(8, 0, 0, 1).mvout(0, 0, 0, dist - 2).vrelu(9, 8, 1)),
      "ar_raw_dist", 5);
  add("dma_ld past the end of spad", std::move(fresh().load_b_to_spad(0, 0, isa.param("SPAD_ROWS") - 2, t)),
      "memory_bounds", 0);
  add("dma_ld past the last DRAM row", std::move(fresh().load_a_to_vr(maxdim - 2, 0, 0, t)), "memory_bounds", 0);
  add("mvout past the last DRAM row of C",
      std::move(fresh().operands_loaded().mm(0, 0, 0, 0, t).mvout(0, maxdim - 1, 0, t)), "memory_bounds", 3);
  add("mm writes past the end of ar", std::move(fresh().operands_loaded().mm(0, isa.param("NAR") - 1, 0, 0, t)),
      "memory_bounds", 2);
  {
    // accu iterations: T for the mm plus 100 * 100 * T for the vrelus.
    Prog p = fresh();
    p.operands_loaded().mm(0, 0, 0, 0, t).loop(100).loop(100).vrelu(0, 0, t).endloop().endloop();
    add("header count over its slice", std::move(p), "header_fits", 5);
  }
  {
    Prog p = fresh();
    const std::int64_t fit = (isa.param("IMEM_SIZE") - spec.nhdr) / spec.iwords;
    for (std::int64_t i = 0; i <= fit; ++i) p.nop();
    add("image larger than IMEM_SIZE", std::move(p), "imem_fits", static_cast<std::size_t>(fit));
  }
  {
    Prog p = fresh();
    const std::int64_t trip = isa.param("MAXROWS");
    for (std::int64_t i = 0; i < depth; ++i) p.loop(trip);
    p.nop();
    for (std::int64_t i = 0; i < depth; ++i) p.endloop();
    add("more issues than expand() follows", std::move(p), "issue_bound", static_cast<std::size_t>(depth));
  }
  return cases;
}

}  // namespace

TEST_CASE("check: each bad program breaks exactly the rule it is about, at its instruction", "[check]") {
  const Isa isa = default_isa();
  for (const BadCase& c : bad_programs(isa)) {
    DYNAMIC_SECTION(c.name) {
      const CheckResult r = check(isa, c.prog);
      INFO(r.report(c.prog.program().source));
      CHECK(rules_of(r) == c.all);
      const Violation& v = require_violation(r, c.rule);
      CHECK(v.pc == c.pc);
      CHECK(v.line == line_of(c.pc));
      CHECK_THROWS_AS(assemble(isa, c.prog.program()), Error);
    }
  }
}

TEST_CASE("check: the bad programs cover every contract the spec declares", "[check]") {
  const Isa isa = default_isa();
  std::set<std::string> seen;
  std::size_t distinct = 0;
  for (const BadCase& c : bad_programs(isa)) {
    for (const auto& v : check_program(isa, c.prog.program()).violations) seen.insert(v.rule);
    ++distinct;
  }
  CHECK(distinct >= 18);
  for (const Contract& c : isa.spec().contracts) {
    INFO(c.id);
    CHECK(seen.count(c.id) == 1);
  }
}

// ---------------------------------------------------------------------------
// Edges of individual contracts
// ---------------------------------------------------------------------------

TEST_CASE("check: an AGU-driven acc is legal exactly as long as agu_legal_trip says", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  const Operand* acc = isa.spec().opcode_named("mm").operand("acc");
  REQUIRE(acc->legal.has_value());
  const std::int64_t frontier = agu_legal_trip(*acc->legal, 0, 1, isa.params().scope(), 100);
  REQUIRE(frontier == 2);  // the seed: base 0 stride 1 assembles for two k-tiles
  auto gemm = [&](std::int64_t trip) {
    Prog p(isa);
    p.operands_loaded().loop(trip).mm(0, 0, 0, 0, t, {{"acc", 0, 1}}).endloop().mvout(0, 0, 0, t);
    return p;
  };
  require_clean(check(isa, gemm(frontier)));
  const CheckResult r = check(isa, gemm(frontier + 1));
  require_only(r, "legal_values", 3);
  CHECK_THAT(r.violations[0].message, Catch::Contains("acc") && Catch::Contains(std::to_string(frontier)));
}

TEST_CASE("check: the accumulator distance is legal at AR_RAW_DIST and refused one below", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  const std::int64_t dist = isa.spec().isa_constant("AR_RAW_DIST");
  const Contract* c = isa.spec().contract("ar_raw_dist");
  REQUIRE(c != nullptr);
  REQUIRE(c->min_distance->eval(isa.params().scope()) == dist);

  SECTION("mm accumulating onto the previous mm: the distance is its row count") {
    Prog ok(isa);
    ok.operands_loaded().mm(0, 0, 0, 0, dist).mm(0, 0, 1, 0, dist);
    require_clean(check(isa, ok));
    Prog bad(isa);
    bad.operands_loaded().mm(0, 0, 0, 0, dist - 1).mm(0, 0, 1, 0, dist - 1);
    require_only(check(isa, bad), "ar_raw_dist", 3);
  }
  SECTION("vadd: first source on the even step, second source and the write on the odd one") {
    Prog ok(isa);
    ok.operands_loaded().mm(0, 0, 0, 0, t).vadd(8, t - dist, t + 1 - dist, 1);
    require_clean(check(isa, ok));
    Prog s1(isa);
    s1.operands_loaded().mm(0, 0, 0, 0, t).vadd(8, t - dist + 1, t - dist, 1);
    require_only(check(isa, s1), "ar_raw_dist", 3);
    Prog s2(isa);
    s2.operands_loaded().mm(0, 0, 0, 0, t).vadd(8, t - dist, t + 2 - dist, 1);
    require_only(check(isa, s2), "ar_raw_dist", 3);
  }
  SECTION("the vadd's write lands on its odd step") {
    Prog ok(isa);
    ok.operands_loaded().mm(0, 0, 0, 0, t).vadd(8, 0, 0, 1).mvout(0, 0, 0, dist - 1).vrelu(9, 8, 1);
    require_clean(check(isa, ok));
    Prog bad(isa);
    bad.operands_loaded().mm(0, 0, 0, 0, t).vadd(8, 0, 0, 1).mvout(0, 0, 0, dist - 2).vrelu(9, 8, 1);
    const CheckResult r = check(isa, bad);
    require_only(r, "ar_raw_dist", 5);
    CHECK_THAT(r.violations[0].message, Catch::Contains("row 8"));
  }
  SECTION("across loop iterations") {
    // vrelu of T rows in place: each iteration reads row 0 T iterations after the previous wrote it.
    Prog ok(isa);
    ok.operands_loaded().mm(0, 0, 0, 0, t).loop(3).vrelu(0, 0, dist).endloop();
    require_clean(check(isa, ok));
    Prog bad(isa);
    bad.operands_loaded().mm(0, 0, 0, 0, t).loop(3).vrelu(0, 0, dist - 1).endloop();
    require_only(check(isa, bad), "ar_raw_dist", 4);
  }
}

TEST_CASE("check: memory bounds follow the configured depths", "[check]") {
  const Spec& spec = shipped_spec();
  // A scratchpad smaller than legal_params admits: resolve_params alone.
  const Isa small(spec, resolve_params(spec, {{"SPAD_ROWS", 8}}));
  const std::int64_t t = small.param("T");
  Prog ok(small);
  ok.load_b_to_spad(0, 0, 8 - t, t);
  require_clean(check(small, ok));
  Prog bad(small);
  bad.load_b_to_spad(0, 0, 8 - t + 1, t);
  const CheckResult r = check(small, bad);
  require_only(r, "memory_bounds", 0);
  CHECK_THAT(r.violations[0].message, Catch::Contains("spad") && Catch::Contains("0 .. 7"));

  // DRAM rows: 0 .. MAXDIM - 1 whatever the memory's element depth.
  const Isa isa = default_isa();
  const std::int64_t maxdim = isa.param("MAXDIM");
  Prog last(isa);
  last.load_a_to_vr(maxdim - t, 0, 0, t);
  require_clean(check(isa, last));
  Prog over(isa);
  over.load_a_to_vr(maxdim - t + 1, 0, 0, t);
  require_only(check(isa, over), "memory_bounds", 0);
}

TEST_CASE("check: a header count past its slice is refused, the static count is not double-reported", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa);
  p.operands_loaded().mm(0, 0, 0, 0, t).loop(100).loop(100).vrelu(0, 0, t).endloop().endloop();
  const CheckResult r = check(isa, p);
  require_only(r, "header_fits", 5);
  CHECK(header_count(isa, r, "accu_iterations") == t + 100 * 100 * t);
  CHECK_THAT(r.violations[0].message, Catch::Contains("accu_iterations") && Catch::Contains("15 bits"));
}

TEST_CASE("check: a static field over its usable range, on data ops and in terms", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  SECTION("nr = MAXROWS + 1 on a dma_ld") {
    Prog p(isa);
    p.load_b_to_spad(0, 0, 0, isa.param("MAXROWS") + 1);
    check_violation(check(isa, p), "field_range", 0, "nr");
  }
  SECTION("an address field = ADDR_MAX + 1") {
    Prog p(isa);
    p.operands_loaded()
        .mm(0, 0, 0, 0, t)
        .mvout(0, 0, 0, t)
        .op("vrelu", 1, {{"ar_d", 0}, {"ar_s", isa.param("ADDR_MAX") + 1}});
    check_violation(check(isa, p), "field_range", 4, "ar_s");
  }
  SECTION("an instruction with the wrong number of fields") {
    Prog p(isa);
    p.nop();
    p.mutable_program().instrs[0].fields.pop_back();
    const CheckResult r = check(isa, p);
    require_only(r, "field_range", 0);
  }
}

TEST_CASE("check: AGU-resolved fields are named as such", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  const std::int64_t addr_max = isa.param("ADDR_MAX");
  Prog p(isa);
  p.operands_loaded().loop(2).mm(0, 0, 0, addr_max - 3, t, {{"spad_w", 0, 4}}).endloop();
  const CheckResult r = check(isa, p);
  const Violation& v = require_violation(r, "field_range");
  CHECK_THAT(v.message, Catch::Contains("AGU-resolved") && Catch::Contains(std::to_string(addr_max + 1)) &&
                             Catch::Contains(fmt::format("0..{}", addr_max)));
}

// ---------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------

TEST_CASE("check: every violation of a program is reported, in instruction order", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa);
  p.op("dma_st", 0)                    // 0 retired
      .load_a_to_vr(0, 0, 0, t)        // 1
      .op("dma_ld", t, {{"mode", 6}})  // 2 illegal mode (A into vr)
      .mm(0, 0, 1, 0, t)               // 3 spad never written; ar never written
      .loop(0)                         // 4 trip 0
      .mvout(0, 0, 0, 0)               // 5 nr 0
      .endloop();                      // 6
  const CheckResult r = check(isa, p);
  INFO(r.report("check_test.s"));
  const std::vector<std::pair<std::string, std::size_t>> expected = {
      {"retired_opcode", 0},       {"legal_values", 2}, {"write_before_read_operands", 3},
      {"write_before_read_ar", 3}, {"loop_trip", 4},    {"nr_at_least_one", 5}};
  std::multiset<std::pair<std::string, std::size_t>> got;
  for (const auto& v : r.violations) got.insert({v.rule, v.pc});
  CHECK(got == std::multiset<std::pair<std::string, std::size_t>>(expected.begin(), expected.end()));
  for (std::size_t i = 1; i < r.violations.size(); ++i) CHECK(r.violations[i - 1].pc <= r.violations[i].pc);
}

TEST_CASE("check: a static error stops expansion but the other static rules still report", "[check]") {
  const Isa isa = default_isa();
  Prog p(isa);
  p.op("dma_st", 0).mvout(0, 0, 0, 0).endloop();
  const CheckResult r = check(isa, p);
  CHECK(rules_of(r) == std::multiset<std::string>{"retired_opcode", "nr_at_least_one", "loop_balance"});
  CHECK(r.issues.empty());
  CHECK(r.header.empty());
}

TEST_CASE("check: a violation repeated on every loop iteration is reported once", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa);
  p.loop(100).mvout(0, 0, 0, t).endloop();  // reads never-written ar 100 times
  const CheckResult r = check(isa, p);
  require_only(r, "write_before_read_ar", 1);
  CHECK(r.issues.size() == 1 + 100 * 2);
}

TEST_CASE("check: report() puts one line per violation in the compiler's format", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa, "prog.s");
  p.nop().vrelu(0, 0, t).op("dma_st", 0);
  const CheckResult r = check(isa, p);
  REQUIRE(r.violations.size() == 2);
  const std::string text = r.report("prog.s");
  const std::string first =
      fmt::format("prog.s:{}: instruction 1 (vrelu): [write_before_read_ar] {}\n", line_of(1), r.violations[0].message);
  const std::string second =
      fmt::format("prog.s:{}: instruction 2 (dma_st): [retired_opcode] {}\n", line_of(2), r.violations[1].message);
  CHECK(text == first + second);

  // Without a line: no ":<line>"; an unknown opcode is named by its number.
  Prog q(isa);
  q.nop();
  const std::int64_t bad = undefined_opcode_number(isa.spec());
  q.mutable_program().instrs[0].fields[isa.op_index()] = bad;
  q.mutable_program().instrs[0].line = 0;
  const CheckResult rq = check_program(isa, q.program());
  REQUIRE(rq.violations.size() == 1);
  CHECK(rq.report("x.s") ==
        fmt::format("x.s: instruction 0 (opcode {}): [known_opcode] {}\n", bad, rq.violations[0].message));
}

TEST_CASE("check: assemble throws check.<first rule> listing every violation", "[check]") {
  const Isa isa = default_isa();
  const std::int64_t t = isa.param("T");
  Prog p(isa, "bad.s");
  p.vrelu(0, 0, t).loop(0).nop().endloop();
  const CheckResult r = check(isa, p);
  REQUIRE(r.violations.size() == 2);
  const Error e = test::error_of([&] { (void)assemble(isa, p.program()); });
  CHECK(e.rule() == "check.write_before_read_ar");
  CHECK(e.where().file == "bad.s");
  CHECK(e.where().line == line_of(0));
  CHECK_THAT(e.message(), Catch::Contains("[write_before_read_ar]") && Catch::Contains("[loop_trip]") &&
                              Catch::Contains(r.report("bad.s")));
}

// ---------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------

namespace {

std::int64_t random_value(std::mt19937_64& rng, std::int64_t usable_max, int width) {
  const std::int64_t cap = (std::int64_t{1} << width) - 1;
  switch (rng() % 10) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
    case 3:
      return static_cast<std::int64_t>(rng() % 6);
    case 4:
      return usable_max;
    case 5:
      return usable_max + 1;
    case 6:
      return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(cap + 1));
    case 7:
      return -static_cast<std::int64_t>(rng() % 1000) - 1;
    case 8:
      return static_cast<std::int64_t>(rng() >> 1);
    default:
      return static_cast<std::int64_t>(rng());
  }
}

/// A plausible instruction: a defined opcode, fields mostly in range and small
/// (so rows collide and the write-before-read and distance rules fire), terms
/// on operand fields at levels that are mostly open.
Instr plausible_instr(std::mt19937_64& rng, const Isa& isa, std::size_t open_levels) {
  const Spec& spec = isa.spec();
  const Opcode& op = spec.opcodes[rng() % spec.opcodes.size()];
  Instr in = isa.make(op);
  for (const Operand& o : op.operands) {
    const std::size_t k = isa.field_index(o.field);
    in.fields[k] = rng() % 20 == 0 ? random_value(rng, spec.word0[k].usable_max, spec.word0[k].width)
                                   : static_cast<std::int64_t>(rng() % 12);
  }
  if (const Operand* mode = op.operand("mode"))
    in.fields[isa.field_index(mode->field)] = static_cast<std::int64_t>(rng() % 4);
  in.fields[isa.nr_index()] = static_cast<std::int64_t>(rng() % 7);
  const std::size_t nterms = (open_levels > 0 && rng() % 2 == 0) ? 1 + rng() % 3 : 0;
  for (std::size_t j = 0; j < nterms && !op.operands.empty(); ++j) {
    const Operand& o = op.operands[rng() % op.operands.size()];
    const std::int64_t level = static_cast<std::int64_t>(rng() % (open_levels + 1));
    in.terms.push_back({spec.field(o.field)->agu_target, level, static_cast<std::int64_t>(rng() % 5)});
  }
  return in;
}

Instr random_instr(std::mt19937_64& rng, const Isa& isa) {
  const Spec& spec = isa.spec();
  Instr in;
  for (const Field& f : spec.word0) in.fields.push_back(random_value(rng, f.usable_max, f.width));
  if (rng() % 4 != 0) in.fields[isa.op_index()] = spec.opcodes[rng() % spec.opcodes.size()].value;
  // Loop trips mostly small, so random nests stay quick to expand.
  if (rng() % 8 != 0) in.fields[isa.nr_index()] = static_cast<std::int64_t>(rng() % 9);
  const std::size_t nterms = rng() % 3 == 0 ? rng() % 5 : 0;
  for (std::size_t j = 0; j < nterms; ++j) {
    AguTerm t;
    t.target = static_cast<std::int64_t>(rng() % 10) - 1;
    t.level = static_cast<std::int64_t>(rng() % 6) - 1;
    t.stride = rng() % 3 == 0 ? random_value(rng, 2047, 12) : static_cast<std::int64_t>(rng() % 64);
    in.terms.push_back(t);
  }
  if (rng() % 100 == 0) in.fields.resize(rng() % (spec.word0.size() + 3));
  in.line = static_cast<int>(rng() % 50);
  return in;
}

}  // namespace

TEST_CASE("check: random instructions never throw and never hang", "[check][fuzz]") {
  const Isa isa = default_isa();
  std::mt19937_64 rng(0x7e57c0de);
  const auto start = std::chrono::steady_clock::now();
  std::size_t rejected = 0, expanded = 0;
  for (int n = 0; n < 3000; ++n) {
    Program p;
    p.source = fmt::format("fuzz {}", n);
    const std::size_t len = rng() % 12;
    for (std::size_t i = 0; i < len; ++i) p.instrs.push_back(random_instr(rng, isa));
    CheckResult r;
    REQUIRE_NOTHROW(r = check_program(isa, p));
    require_well_formed(r, p);
    REQUIRE(r.issues.size() <= kMaxIssues);
    if (!r.issues.empty()) ++expanded;
    if (r.ok()) {
      REQUIRE_NOTHROW(assemble(isa, p));
    } else {
      ++rejected;
      REQUIRE_THROWS_AS(assemble(isa, p), Error);
    }
  }
  WARN("fuzz: " << rejected << " rejected, " << expanded << " expanded");
  CHECK(rejected > 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
}

TEST_CASE("check: plausible random programs are checked without throwing", "[check][fuzz]") {
  const Isa isa = default_isa();
  const Opcode& loop = isa.spec().opcode_named("loop");
  const Opcode& endloop = isa.spec().opcode_named("endloop");
  std::mt19937_64 rng(0x5eed);
  std::size_t accepted = 0, expanded = 0;
  std::set<std::string> rules;
  for (int n = 0; n < 3000; ++n) {
    Program p;
    p.source = fmt::format("plausible {}", n);
    std::size_t open = 0;
    const std::size_t len = 1 + rng() % 14;
    for (std::size_t i = 0; i < len; ++i) {
      Instr in = plausible_instr(rng, isa, open);
      const Opcode* op = isa.opcode_of(in);
      if (op == &loop) ++open;
      if (op == &endloop && open > 0) --open;
      p.instrs.push_back(std::move(in));
    }
    for (; open > 0 && rng() % 4 != 0; --open) p.instrs.push_back(isa.make(endloop));
    CheckResult r;
    REQUIRE_NOTHROW(r = check_program(isa, p));
    require_well_formed(r, p);
    for (const auto& v : r.violations) rules.insert(v.rule);
    if (!r.issues.empty()) ++expanded;
    if (r.ok()) {
      ++accepted;
      REQUIRE_NOTHROW(assemble(isa, p));
    } else {
      REQUIRE_THROWS_AS(assemble(isa, p), Error);
    }
  }
  WARN("plausible fuzz: " << accepted << " accepted, " << expanded
                          << " expanded, rules seen: " << fmt::format("{}", fmt::join(rules, " ")));
  CHECK(accepted > 0);
  CHECK(expanded > 500);
}
