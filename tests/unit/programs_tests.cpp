// Tests of the loop-nest builder, the program library and gemm_limits.
//
// The GEMM is checked three ways: the builder's program is bit-identical to
// the handwritten one, its issue stream equals the flat program's, and a
// small interpreter written here from the seed's semantics (not from the
// library) computes A @ B with it. Contracts (write before read, the
// accumulator distance, ranges) are re-derived here by hand from the seed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "isa/assembler.h"
#include "isa/builder.h"
#include "isa/derive.h"
#include "isa/image.h"
#include "isa/limits.h"
#include "isa/programs.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const Spec& the_spec() { return test::shipped_spec(); }

Isa isa_at(std::int64_t t, std::int64_t maxdim) {
  return Isa(the_spec(), resolve_params(the_spec(), {{"T", t}, {"MAXDIM", maxdim}}, nullptr));
}

using test::message_of;
using test::rule_of;

const Opcode& opc(std::string_view name) { return the_spec().opcode_named(name); }

bool is_control(const Issue& is) { return is.opcode->name == "loop" || is.opcode->name == "endloop"; }

std::int64_t field(const Isa& isa, const Issue& is, std::string_view operand) {
  return is.fields[isa.operand_index(*is.opcode, operand)];
}

int target_of(const Isa& isa, std::string_view opcode, std::string_view operand) {
  return the_spec().word0[isa.operand_index(opc(opcode), operand)].agu_target;
}

/// Shapes whose dims are multiples of T up to MAXDIM: all of them, or every
/// `step`-th along each axis plus the ends.
std::vector<GemmShape> shapes(std::int64_t t, std::int64_t maxdim, std::int64_t step) {
  std::vector<std::int64_t> dims;
  for (std::int64_t d = t; d <= maxdim; d += t * step) dims.push_back(d);
  if (dims.back() != maxdim) dims.push_back(maxdim);
  std::vector<GemmShape> out;
  for (auto m : dims)
    for (auto k : dims)
      for (auto n : dims) out.push_back({m, k, n});
  return out;
}

std::string name(GemmShape s) { return std::to_string(s.m) + "x" + std::to_string(s.k) + "x" + std::to_string(s.n); }

// --- A contract checker and an interpreter, from the seed's text ----------

/// The accumulator timeline of the seed: accu iterations per row and the
/// iteration (within the row) of each ar read and of the write.
struct AccuRow {
  std::int64_t steps = 0;
  std::vector<std::pair<std::string, std::int64_t>> reads;  // operand, step within the row
  std::string write;                                        // operand, on the row's last step
};

AccuRow accu_row(const Isa& isa, const Issue& is) {
  const std::string& n = is.opcode->name;
  if (n == "mm") {
    AccuRow r{1, {}, "ar0"};
    if (field(isa, is, "acc") == 1) r.reads.push_back({"ar0", 0});
    return r;
  }
  if (n == "vrelu") return {1, {{"ar_s", 0}}, "ar_d"};
  if (n == "mvout") return {1, {{"ar0", 0}}, ""};
  if (n == "vadd" || n == "vaddrelu") return {2, {{"ar_s1", 0}, {"ar_s2", 1}}, "ar_d"};
  return {0, {}, ""};
}

struct ContractReport {
  std::vector<std::string> problems;
  std::int64_t min_ar_distance = 1 << 30;  ///< over every ar read
};

/// Write-before-read over spad/vr/ar (vld copies validity), nr >= 1, every
/// resolved field in range, legal values, rows inside memories, and the
/// smallest ar read-after-write distance in accu iterations.
ContractReport check_contracts(const Isa& isa, const Program& p) {
  ContractReport rep;
  const std::int64_t maxdim = isa.param("MAXDIM");
  const std::map<std::string, std::int64_t> depth = {
      {"spad", isa.param("SPAD_ROWS")}, {"vr", isa.param("NVR")}, {"ar", isa.param("NAR")}};
  std::map<std::string, std::set<std::int64_t>> valid;
  std::map<std::int64_t, std::int64_t> ar_written_at;  // row -> accu iteration of its last write
  std::int64_t accu_now = 0;
  for (const Instr& in : p.instrs) {
    try {
      (void)isa.encode(in);
    } catch (const Error& e) {
      rep.problems.push_back(e.message());
    }
  }
  auto rows = [&](const std::string& mem, std::int64_t first, std::int64_t n, const std::string& what) {
    const std::int64_t lim = depth.count(mem) ? depth.at(mem) : maxdim;
    if (first < 0 || first + n > lim) rep.problems.push_back(what + ": rows outside " + mem);
  };
  for (const Issue& is : expand(isa, p)) {
    if (is_control(is)) continue;
    const std::string& n = is.opcode->name;
    const std::string where = std::to_string(is.pc) + " " + n;
    const std::int64_t nr = isa.nr(Instr{is.fields, {}, 0});
    if (nr < 1) rep.problems.push_back(where + ": nr < 1");
    for (const Operand& o : is.opcode->operands) {
      const std::int64_t v = field(isa, is, o.name);
      if (v < 0 || v > the_spec().field(o.field)->usable_max) rep.problems.push_back(where + ": field range " + o.name);
      if (o.legal && !o.legal->admits(v, isa.params().scope())) rep.problems.push_back(where + ": illegal " + o.name);
    }
    if (n == "dma_ld") {
      const std::int64_t mode = field(isa, is, "mode");
      const std::string dst = (mode & 2) ? "vr" : "spad";  // the notes: bit 1 = destination vr
      rows("dram", field(isa, is, "dram_row0"), nr, where);
      rows(dst, field(isa, is, "dst_row0"), nr, where);
      for (std::int64_t r = 0; r < nr; ++r) valid[dst].insert(field(isa, is, "dst_row0") + r);
    } else if (n == "vld") {
      rows("spad", field(isa, is, "spad0"), nr, where);
      rows("vr", field(isa, is, "vr0"), nr, where);
      for (std::int64_t r = 0; r < nr; ++r) {
        if (valid["spad"].count(field(isa, is, "spad0") + r))
          valid["vr"].insert(field(isa, is, "vr0") + r);
        else
          valid["vr"].erase(field(isa, is, "vr0") + r);
      }
    } else if (n == "mm") {
      rows("vr", field(isa, is, "vr_a"), nr, where);
      rows("spad", field(isa, is, "spad_w"), isa.param("T"), where);
      for (std::int64_t r = 0; r < nr; ++r)
        if (!valid["vr"].count(field(isa, is, "vr_a") + r)) rep.problems.push_back(where + ": unwritten vr row");
      for (std::int64_t r = 0; r < isa.param("T"); ++r)
        if (!valid["spad"].count(field(isa, is, "spad_w") + r)) rep.problems.push_back(where + ": unwritten spad row");
    } else if (n == "mvout") {
      rows("dram", field(isa, is, "dram_row0"), nr, where);
    }
    const AccuRow ar = accu_row(isa, is);
    for (std::int64_t r = 0; r < nr && ar.steps > 0; ++r) {
      for (const auto& [operand, step] : ar.reads) {
        const std::int64_t row = field(isa, is, operand) + r;
        rows("ar", row, 1, where);
        if (!ar_written_at.count(row)) {
          rep.problems.push_back(where + ": unwritten ar row " + std::to_string(row));
          continue;
        }
        rep.min_ar_distance = std::min(rep.min_ar_distance, accu_now + step - ar_written_at[row]);
      }
      if (!ar.write.empty()) {
        rows("ar", field(isa, is, ar.write) + r, 1, where);
        ar_written_at[field(isa, is, ar.write) + r] = accu_now + ar.steps - 1;
      }
      accu_now += ar.steps;
    }
  }
  return rep;
}

using Matrix = std::vector<std::int64_t>;  // MAXDIM x MAXDIM, row-major

/// Runs a program's issue stream on A and B (seed semantics) and returns C.
Matrix run(const Isa& isa, const Program& p, const Matrix& a, const Matrix& b, const Matrix& c0) {
  const std::int64_t t = isa.param("T"), maxdim = isa.param("MAXDIM");
  using Row = std::vector<std::int64_t>;
  std::map<std::int64_t, Row> spad, vr, ar;
  Matrix c = c0;
  for (const Issue& is : expand(isa, p)) {
    const std::string& n = is.opcode->name;
    const std::int64_t nr = isa.nr(Instr{is.fields, {}, 0});
    auto f = [&](std::string_view o) { return field(isa, is, o); };
    for (std::int64_t r = 0; r < nr && !is_control(is); ++r) {
      if (n == "dma_ld") {
        const Matrix& src = (f("mode") & 1) ? b : a;
        Row row(static_cast<std::size_t>(t));
        for (std::int64_t j = 0; j < t; ++j) row[j] = src[(f("dram_row0") + r) * maxdim + f("col_block") * t + j];
        ((f("mode") & 2) ? vr : spad)[f("dst_row0") + r] = row;
      } else if (n == "vld") {
        vr[f("vr0") + r] = spad.at(f("spad0") + r);
      } else if (n == "mm") {
        Row out(static_cast<std::size_t>(t), 0);
        const Row& act = vr.at(f("vr_a") + r);
        for (std::int64_t j = 0; j < t; ++j) {
          for (std::int64_t i = 0; i < t; ++i) out[j] += act[i] * spad.at(f("spad_w") + i)[j];
          if (f("acc") == 1) out[j] += ar.at(f("ar0") + r)[j];
        }
        ar[f("ar0") + r] = out;
      } else if (n == "vadd" || n == "vaddrelu") {
        Row out(static_cast<std::size_t>(t));
        for (std::int64_t j = 0; j < t; ++j) {
          out[j] = ar.at(f("ar_s1") + r)[j] + ar.at(f("ar_s2") + r)[j];
          if (n == "vaddrelu") out[j] = std::max<std::int64_t>(out[j], 0);
        }
        ar[f("ar_d") + r] = out;
      } else if (n == "vrelu") {
        Row out = ar.at(f("ar_s") + r);
        for (auto& v : out) v = std::max<std::int64_t>(v, 0);
        ar[f("ar_d") + r] = out;
      } else if (n == "mvout") {
        for (std::int64_t j = 0; j < t; ++j)
          c[(f("dram_row0") + r) * maxdim + f("col_block") * t + j] =
              std::clamp<std::int64_t>(ar.at(f("ar0") + r)[j], -128, 127);
      }
    }
  }
  return c;
}

Matrix random_matrix(std::int64_t maxdim, std::mt19937& rng, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  Matrix m(static_cast<std::size_t>(maxdim * maxdim));
  for (auto& v : m) v = d(rng);
  return m;
}

/// C with rows < m and columns < n replaced by f(A @ B) (saturated); the rest of c0 kept.
Matrix reference(std::int64_t maxdim, GemmShape s, const Matrix& a, const Matrix& b, const Matrix& c0,
                 const std::function<std::int64_t(std::int64_t)>& f) {
  Matrix c = c0;
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      std::int64_t acc = 0;
      for (std::int64_t k = 0; k < s.k; ++k) acc += a[i * maxdim + k] * b[k * maxdim + j];
      c[i * maxdim + j] = std::clamp<std::int64_t>(f(acc), -128, 127);
    }
  return c;
}

}  // namespace

// --- The builder -------------------------------------------------------------

TEST_CASE("builder: nesting depth is the AGU level, terms follow field order then .at() order", "[builder]") {
  const Isa isa = isa_at(4, 16);
  ProgramBuilder b(isa, "test");
  b.loop(3, "n", [&](const Iv& n) {
    b.loop(2, "k", [&](const Iv& k) {
      CHECK(n.level == 0);
      CHECK(k.level == 1);
      // Operands out of field order, spad_w's terms in .at() order k then n.
      b.emit("mm", {{"spad_w", Ref(7).at(k, 4).at(n, 16)}, {"acc", 1}, {"ar0", 2}, {"vr_a", Ref(5).at(k, 16)}}, 4);
    });
  });
  const Program p = b.finish();
  REQUIRE(p.instrs.size() == 5);
  CHECK(isa.opcode_of(p.instrs[0])->name == "loop");
  CHECK(isa.nr(p.instrs[0]) == 3);
  CHECK(isa.nr(p.instrs[1]) == 2);
  CHECK(isa.opcode_of(p.instrs[3])->name == "endloop");
  CHECK(isa.opcode_of(p.instrs[4])->name == "endloop");
  const Instr& mm = p.instrs[2];
  CHECK(isa.operand(mm, opc("mm"), "vr_a") == 5);
  CHECK(isa.operand(mm, opc("mm"), "ar0") == 2);
  CHECK(isa.operand(mm, opc("mm"), "acc") == 1);
  CHECK(isa.operand(mm, opc("mm"), "spad_w") == 7);
  CHECK(isa.nr(mm) == 4);
  const std::vector<AguTerm> want = {{target_of(isa, "mm", "vr_a"), 1, 16},
                                     {target_of(isa, "mm", "spad_w"), 1, 4},
                                     {target_of(isa, "mm", "spad_w"), 0, 16}};
  CHECK(mm.terms == want);
  // Resolved: vr_a = 5 + 16k, spad_w = 7 + 4k + 16n.
  std::vector<std::pair<std::int64_t, std::int64_t>> seen;
  for (const Issue& is : expand(isa, p))
    if (is.opcode->name == "mm") seen.emplace_back(field(isa, is, "vr_a"), field(isa, is, "spad_w"));
  const std::vector<std::pair<std::int64_t, std::int64_t>> expect = {{5, 7},   {21, 11}, {5, 23},
                                                                     {21, 27}, {5, 39},  {21, 43}};
  CHECK(seen == expect);
}

TEST_CASE("builder: swapping two loops moves every term's level with its induction variable", "[builder]") {
  const Isa isa = isa_at(4, 16);
  auto build = [&](bool n_outer) {
    ProgramBuilder b(isa, "swap");
    auto body = [&](const Iv& n, const Iv& k) {
      b.emit("mvout", {{"ar0", Ref(0).at(k, 4)}, {"dram_row0", 0}, {"col_block", Ref(0).at(n, 1)}}, 4);
    };
    if (n_outer)
      b.loop(2, "n", [&](const Iv& n) { b.loop(3, "k", [&](const Iv& k) { body(n, k); }); });
    else
      b.loop(3, "k", [&](const Iv& k) { b.loop(2, "n", [&](const Iv& n) { body(n, k); }); });
    return b.finish();
  };
  const auto a = build(true).instrs[2].terms;
  const auto c = build(false).instrs[2].terms;
  REQUIRE(a.size() == 2);
  REQUIRE(c.size() == 2);
  CHECK(a[0].level == 1);  // ar0 walks k, inner
  CHECK(a[1].level == 0);
  CHECK(c[0].level == 0);  // ar0 walks k, now outer
  CHECK(c[1].level == 1);
}

TEST_CASE("builder: refusals carry their rule codes", "[builder]") {
  const Isa isa = isa_at(4, 16);
  ProgramBuilder b(isa, "bad");
  const std::int64_t depth = the_spec().isa_constant("LOOP_DEPTH");
  REQUIRE(depth == 4);

  SECTION("a nest deeper than LOOP_DEPTH, named") {
    auto deep = [&] {
      b.loop(2, "n", [&](const Iv&) {
        b.loop(2, "k", [&](const Iv&) {
          b.loop(2, "m", [&](const Iv&) { b.loop(2, "j", [&](const Iv&) { b.loop(2, "i", [&](const Iv&) {}); }); });
        });
      });
    };
    CHECK(rule_of(deep) == "builder.loop_depth");
    CHECK_THAT(message_of(deep), Catch::Contains("the nest is n > k > m > j > i"));
    // Four deep is fine.
    ProgramBuilder ok(isa, "ok");
    ok.loop(2, "n", [&](const Iv&) {
      ok.loop(2, "k", [&](const Iv&) { ok.loop(2, "m", [&](const Iv&) { ok.loop(2, "j", [&](const Iv&) {}); }); });
    });
    CHECK(ok.finish().instrs.size() == 8);
  }
  SECTION("trip counts of 0, negative, and over the nr field") {
    const std::int64_t nr_max = the_spec().field("nr")->usable_max;
    CHECK(rule_of([&] { b.loop(0, "n", [](const Iv&) {}); }) == "builder.loop_trip");
    CHECK(rule_of([&] { b.loop(-1, "n", [](const Iv&) {}); }) == "builder.loop_trip");
    CHECK(rule_of([&] { b.loop(nr_max + 1, "n", [](const Iv&) {}); }) == "builder.loop_trip");
    CHECK(rule_of([&] { b.loop(nr_max, "n", [](const Iv&) {}); }).empty());
  }
  SECTION("an induction variable used after its loop closed, or in a sibling loop") {
    Iv stale;
    b.loop(2, "n", [&](const Iv& n) { stale = n; });
    auto use = [&] { b.emit("mvout", {{"ar0", 0}, {"dram_row0", 0}, {"col_block", Ref(0).at(stale, 1)}}, 4); };
    CHECK(rule_of(use) == "builder.iv_scope");
    CHECK(rule_of([&] { b.loop(2, "k", [&](const Iv&) { use(); }); }) == "builder.iv_scope");
    CHECK_THAT(message_of(use), Catch::Contains("'n'"));
  }
  SECTION("more terms than AGU_TERMS") {
    const auto terms = static_cast<std::size_t>(the_spec().term.count);
    REQUIRE(terms == 3);
    auto emit_terms = [&](std::size_t count) {
      b.loop(2, "n", [&](const Iv& n) {
        Ref r(0);
        for (std::size_t i = 0; i < count; ++i) r = r.at(n, 1);
        b.emit("mm", {{"vr_a", r}, {"ar0", 0}, {"acc", 0}, {"spad_w", 0}}, 4);
      });
    };
    CHECK(rule_of([&] { emit_terms(terms); }).empty());
    CHECK(rule_of([&] { emit_terms(terms + 1); }) == "builder.too_many_terms");
  }
  SECTION("unknown opcode, unknown operand, missing or duplicated operand") {
    CHECK(rule_of([&] { b.emit("frobnicate", {}, 1); }) == "builder.unknown_opcode");
    CHECK(rule_of([&] {
            b.emit("mm", {{"vr_a", 0}, {"ar0", 0}, {"acc", 0}, {"spad_w", 0}, {"bogus", 1}}, 4);
          }) == "builder.unknown_operand");
    CHECK(rule_of([&] { b.emit("mm", {{"vr_a", 0}, {"ar0", 0}, {"spad_w", 0}}, 4); }) == "builder.missing_operand");
    CHECK(rule_of([&] {
            b.emit("mm", {{"vr_a", 0}, {"ar0", 0}, {"acc", 0}, {"acc", 1}, {"spad_w", 0}}, 4);
          }) == "builder.missing_operand");
    CHECK_THAT(message_of([&] { b.emit("mm", {{"vr_a", 0}, {"ar0", 0}, {"spad_w", 0}}, 4); }), Catch::Contains("acc"));
  }
  SECTION("a negative stride") {
    CHECK(rule_of([&] {
            b.loop(2, "n", [&](const Iv& n) {
              b.emit("mvout", {{"ar0", 0}, {"dram_row0", 0}, {"col_block", Ref(1).at(n, -1)}}, 4);
            });
          }) == "builder.negative_stride");
  }
  SECTION("loop and endloop only through loop(); nr on an opcode without one") {
    CHECK(rule_of([&] { b.emit("loop", {}, 2); }) == "builder.control_flow");
    CHECK(rule_of([&] { b.emit("endloop", {}); }) == "builder.control_flow");
    CHECK(rule_of([&] { b.emit("nop", {}, 3); }) == "builder.nr");
    CHECK(rule_of([&] { b.emit("dma_st", {}); }) == "builder.retired_opcode");
  }
  SECTION("finish() inside an open loop") {
    CHECK(rule_of([&] { b.loop(2, "n", [&](const Iv&) { (void)b.finish(); }); }) == "builder.loop_open");
  }
}

TEST_CASE("builder: data fields and nr are not range-checked (the checker's job)", "[builder]") {
  const Isa isa = isa_at(4, 16);
  ProgramBuilder b(isa, "wide");
  b.emit("mm", {{"vr_a", 5000}, {"ar0", 0}, {"acc", 7}, {"spad_w", 0}}, 300);
  b.emit("mvout", {{"ar0", 0}, {"dram_row0", 0}, {"col_block", 0}}, 0);
  const Program p = b.finish();
  CHECK(isa.nr(p.instrs[0]) == 300);
  CHECK(rule_of([&] { (void)isa.encode(p.instrs[0]); }) == "encode.range");
}

// --- dma_ld modes ------------------------------------------------------------

TEST_CASE("programs: the GEMM's dma_ld modes route A to vr and B to spad", "[programs]") {
  const Isa isa = isa_at(4, 16);
  const Opcode& ld = opc("dma_ld");
  auto routes = [&](std::int64_t mode) { return test::dma_ld_route(isa, mode, 1); };
  // The notes: 0 = A->spad, 1 = B->spad, 2 = A->vr, 3 = B->vr.
  CHECK(routes(2) == "A->vr");
  CHECK(routes(1) == "B->spad");
  CHECK(routes(0) == "A->spad");
  CHECK(routes(3) == "B->vr");
  const Program p = gemm_program(isa, {8, 12, 16});
  std::vector<std::int64_t> modes;
  for (const Instr& in : p.instrs)
    if (isa.opcode_of(in) == &ld) modes.push_back(isa.operand(in, ld, "mode"));
  // B's first column block, A's k-tiles, the rest of B's.
  CHECK(modes == std::vector<std::int64_t>{1, 2, 1});
  CHECK(routes(modes[0]) == "B->spad");
  CHECK(routes(modes[1]) == "A->vr");
  CHECK(routes(modes[2]) == "B->spad");
}

// --- GEMM: builder vs handwritten vs flat -------------------------------------

namespace {

struct Config {
  std::int64_t t, maxdim, step;
};

void check_forms(const Isa& isa, GemmShape s, GemmOptions o) {
  INFO(name(s) << (o.relu ? " relu" : "") << (o.split_operand_load ? " split" : "")
               << (o.interleave_loads ? " interleaved" : "") << " parts " << o.last_strip_parts);
  const Program built = gemm_program(isa, s, o);
  const Program hand = gemm_program_handwritten(isa, s, o);
  REQUIRE(built.instrs.size() == hand.instrs.size());
  for (std::size_t i = 0; i < built.instrs.size(); ++i) {
    INFO("instruction " << i);
    CHECK(built.instrs[i] == hand.instrs[i]);
    CHECK(isa.encode(built.instrs[i]) == isa.encode(hand.instrs[i]));
  }
  // Loop form and flat form issue the same stream, field by resolved field.
  std::vector<Issue> loop_issues;
  for (const Issue& is : expand(isa, built))
    if (!is_control(is)) loop_issues.push_back(is);
  const std::vector<Issue> flat_issues = expand(isa, gemm_program_flat(isa, s, o));
  REQUIRE(loop_issues.size() == flat_issues.size());
  for (std::size_t i = 0; i < loop_issues.size(); ++i) {
    INFO("issue " << i);
    CHECK(loop_issues[i].opcode == flat_issues[i].opcode);
    CHECK(loop_issues[i].fields == flat_issues[i].fields);
  }
  // Every instruction disassembles (its AGU terms in canonical order).
  CHECK(disassemble(isa, built).find(".raw") == std::string::npos);
  // At most 15 static instructions with relu (14 without), at every shape;
  // the last strip in parts is 7 more (8 with relu).
  CHECK(built.instrs.size() <= (o.relu ? 15u : 14u) + (o.last_strip_parts > 1 ? (o.relu ? 8u : 7u) : 0u));
}

}  // namespace

TEST_CASE("gemm: builder == handwritten (bit-identical), loop == flat (issue by issue)", "[programs][gemm]") {
  for (const Config c : {Config{4, 16, 1}, Config{4, 64, 5}, Config{8, 64, 3}}) {
    const Isa isa = isa_at(c.t, c.maxdim);
    INFO("T=" << c.t << " MAXDIM=" << c.maxdim);
    for (const GemmShape s : shapes(c.t, c.maxdim, c.step))
      for (bool relu : {false, true}) check_forms(isa, s, GemmOptions{relu, false});
  }
}

TEST_CASE("gemm: the forms agree with interleaved loads and the last strip in parts", "[programs][gemm]") {
  for (const Config c : {Config{4, 16, 1}, Config{8, 64, 3}}) {
    const Isa isa = isa_at(c.t, c.maxdim);
    INFO("T=" << c.t << " MAXDIM=" << c.maxdim);
    for (const GemmShape s : shapes(c.t, c.maxdim, c.step))
      for (bool relu : {false, true})
        for (bool interleave : {false, true})
          for (std::int64_t parts : {1, 2, 4}) {
            if (s.m % parts != 0) continue;
            GemmOptions o{relu, false};
            o.interleave_loads = interleave;
            o.last_strip_parts = parts;
            check_forms(isa, s, o);
          }
  }
}

TEST_CASE("gemm: interleaved loads and parts change the order, not the product", "[programs][gemm]") {
  const Isa isa = isa_at(4, 16);
  // Interleaved: B's first column block a k-tile (T rows) at a time, beside A's k-tile.
  GemmOptions o;
  o.interleave_loads = true;
  std::vector<std::pair<std::int64_t, std::int64_t>> loads;  // (mode, rows) of each dma_ld issue
  for (const Issue& is : expand(isa, gemm_program(isa, {8, 12, 8}, o)))
    if (is.opcode->name == "dma_ld") loads.emplace_back(field(isa, is, "mode"), isa.nr(Instr{is.fields, {}, 0}));
  CHECK(loads ==
        std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 4}, {2, 8}, {1, 4}, {2, 8}, {1, 4}, {2, 8}, {1, 12}});
  // In parts: the last strip's mvout issues are M/P rows each, from row p*M/P.
  o = GemmOptions{};
  o.last_strip_parts = 4;
  std::vector<std::pair<std::int64_t, std::int64_t>> outs;  // (dram_row0, rows) of each mvout
  for (const Issue& is : expand(isa, gemm_program(isa, {16, 8, 8}, o)))
    if (is.opcode->name == "mvout") outs.emplace_back(field(isa, is, "dram_row0"), isa.nr(Instr{is.fields, {}, 0}));
  CHECK(outs == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 16}, {0, 4}, {4, 4}, {8, 4}, {12, 4}});
  o.last_strip_parts = 3;
  CHECK(rule_of([&] { (void)gemm_program(isa, {16, 8, 8}, o); }) == "program.shape");
}

TEST_CASE("gemm: split_operand_load forms agree and the pieces cover the load", "[programs][gemm]") {
  const Isa isa = isa_at(8, 128);
  const std::int64_t maxrows = isa.param("MAXROWS");
  for (const GemmShape s : {GemmShape{32, 128, 128}, GemmShape{64, 128, 128}, GemmShape{128, 128, 128},
                            GemmShape{128, 64, 8}, GemmShape{8, 8, 8}}) {
    INFO(name(s));
    const GemmOptions o{true, true};
    const Program built = gemm_program(isa, s, o);
    const Program hand = gemm_program_handwritten(isa, s, o);
    CHECK(built.instrs == hand.instrs);
    std::vector<Issue> loop_issues;
    for (const Issue& is : expand(isa, built))
      if (!is_control(is)) loop_issues.push_back(is);
    const std::vector<Issue> flat = expand(isa, gemm_program_flat(isa, s, o));
    REQUIRE(loop_issues.size() == flat.size());
    for (std::size_t i = 0; i < flat.size(); ++i) CHECK(loop_issues[i].fields == flat[i].fields);
    // Every load fits nr, and per (source, col_block) the pieces tile rows 0 .. dim-1 in order,
    // landing at dst = base + dram row.
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> pieces;
    for (const Issue& is : loop_issues) {
      if (is.opcode->name != "dma_ld") continue;
      const std::int64_t nr = isa.nr(Instr{is.fields, {}, 0});
      CHECK(nr <= maxrows);
      const std::int64_t cb = field(isa, is, "col_block");
      CHECK(field(isa, is, "dst_row0") == cb * isa.param("MAXDIM") + field(isa, is, "dram_row0"));
      pieces[{field(isa, is, "mode"), cb}].emplace_back(field(isa, is, "dram_row0"), nr);
    }
    for (const auto& [key, list] : pieces) {
      const std::int64_t dim = (key.first & 1) ? s.k : s.m;
      CHECK(list.size() == (dim > maxrows ? 2u : 1u));
      std::int64_t next = 0;
      for (const auto& [row0, nr] : list) {
        CHECK(row0 == next);
        next += nr;
      }
      CHECK(next == dim);
    }
    // Without the split the same shape issues the same mm/mvout stream.
    const auto plain = expand(isa, gemm_program_flat(isa, s, GemmOptions{true, false}));
    auto compute_only = [](const std::vector<Issue>& v) {
      std::vector<std::vector<std::int64_t>> out;
      for (const Issue& is : v)
        if (is.opcode->name != "dma_ld") out.push_back(is.fields);
      return out;
    };
    CHECK(compute_only(plain) == compute_only(flat));
  }
}

TEST_CASE("gemm: static instruction counts", "[programs][gemm]") {
  const Isa isa = isa_at(4, 64);
  // The looped GEMM is 15 instructions with relu whenever there are k and n loops.
  CHECK(gemm_program(isa, {64, 64, 64}, {true, false}).instrs.size() == 15);
  CHECK(gemm_program(isa, {4, 4, 4}, {true, false}).instrs.size() == 9);  // no inner k loop, no second B loop
  // The unrolled reference reaches 32 / 96 / 320 at 16^3 / 32^3 / 64^3 (with relu, the notes' counts).
  CHECK(gemm_program_flat(isa, {16, 16, 16}, {true, false}).instrs.size() == 32);
  CHECK(gemm_program_flat(isa, {32, 32, 32}, {true, false}).instrs.size() == 96);
  CHECK(gemm_program_flat(isa, {64, 64, 64}, {true, false}).instrs.size() == 320);
}

TEST_CASE("gemm: shapes the layout cannot express are refused", "[programs][gemm]") {
  const Isa isa = isa_at(4, 16);
  CHECK(rule_of([&] { (void)gemm_program(isa, {6, 8, 8}); }) == "program.shape");
  CHECK(rule_of([&] { (void)gemm_program_handwritten(isa, {8, 0, 8}); }) == "program.shape");
  CHECK(rule_of([&] { (void)gemm_program_flat(isa, {8, 8, -4}); }) == "program.shape");
  CHECK(rule_of([&] { (void)vadd_program(isa, {8, 9, 8}); }) == "program.shape");
}

TEST_CASE("gemm: header counts match the hand-derived formulas", "[programs][gemm]") {
  for (const Config c : {Config{4, 16, 1}, Config{4, 64, 1}, Config{8, 64, 1}}) {
    const Isa isa = isa_at(c.t, c.maxdim);
    const std::int64_t t = c.t;
    for (const GemmShape s : {GemmShape{t, t, t}, GemmShape{2 * t, 3 * t, t}, GemmShape{c.maxdim, t, 2 * t},
                              GemmShape{c.maxdim, c.maxdim, c.maxdim}})
      for (bool relu : {false, true}) {
        INFO("T=" << t << " MAXDIM=" << c.maxdim << " " << name(s) << (relu ? " relu" : ""));
        const Program p = gemm_program(isa, s, {relu, false});
        const auto counts = header_counts(isa, p, expand(isa, p));
        std::map<std::string, std::int64_t> got;
        for (std::size_t e = 0; e < counts.size(); ++e) got[the_spec().header[e].name] = counts[e];
        const std::int64_t kt = s.k / t, nt = s.n / t, m = s.m, k = s.k;
        // B's first load, the A loop, the rest of B's loop, the n loop, its k loop, vrelu, mm and mvout.
        const std::int64_t static_count = 1 + 3 + (nt > 1 ? 3 : 0) + 2 + (kt > 1 ? 3 : 0) + (relu ? 1 : 0) + 2;
        CHECK(got["n_instr"] == static_count);
        CHECK(got["dma_ld_rows"] == kt * m + nt * k);
        CHECK(got["spm_rows"] == k * nt + nt * kt * (t + 1));
        CHECK(got["vru_words"] == kt * m + nt * kt * m);
        CHECK(got["mm_count"] == nt * kt);
        CHECK(got["mm_rows"] == nt * kt * m);
        CHECK(got["accu_iterations"] == nt * kt * m + nt * m + (relu ? nt * m : 0));
        CHECK(got["dma_st_rows"] == nt * m);
        CHECK(got["a_span"] == m);
        CHECK(got["b_span"] == k);
      }
  }
}

TEST_CASE("gemm: the program computes A @ B (and relu) on an interpreter of the seed's semantics", "[programs][gemm]") {
  std::mt19937 rng(12345);
  for (const Config c : {Config{4, 16, 1}, Config{8, 64, 1}}) {
    const Isa isa = isa_at(c.t, c.maxdim);
    for (const GemmShape s : {GemmShape{c.t, c.t, c.t}, GemmShape{2 * c.t, c.maxdim, c.t},
                              GemmShape{c.maxdim, 2 * c.t, c.maxdim}, GemmShape{c.maxdim, c.maxdim, c.maxdim}})
      for (bool relu : {false, true}) {
        INFO("T=" << c.t << " MAXDIM=" << c.maxdim << " " << name(s) << (relu ? " relu" : ""));
        const Matrix a = random_matrix(c.maxdim, rng, -128, 127), b = random_matrix(c.maxdim, rng, -128, 127);
        const Matrix c0 = random_matrix(c.maxdim, rng, -128, 127);
        const Matrix want =
            reference(c.maxdim, s, a, b, c0, [&](std::int64_t v) { return relu ? std::max<std::int64_t>(v, 0) : v; });
        CHECK(run(isa, gemm_program(isa, s, {relu, false}), a, b, c0) == want);
        const auto rep = check_contracts(isa, gemm_program(isa, s, {relu, false}));
        CHECK(rep.problems.empty());
        CHECK(rep.min_ar_distance >= the_spec().isa_constant("AR_RAW_DIST"));
      }
  }
  // Split loads compute the same product (mid-range values so nothing saturates the comparison away).
  const Isa isa = isa_at(8, 128);
  const GemmShape s{32, 128, 128};
  const Matrix a = random_matrix(128, rng, -16, 16), b = random_matrix(128, rng, -16, 16), c0(128 * 128, 0);
  CHECK(run(isa, gemm_program(isa, s, {false, true}), a, b, c0) ==
        reference(128, s, a, b, c0, [](std::int64_t v) { return v; }));
}

// --- gemm_limits ---------------------------------------------------------------

namespace {
const LimitResult& limit(const std::vector<LimitResult>& rs, const std::string& n) {
  for (const auto& r : rs)
    if (r.name == n) return r;
  FAIL("no limit named " << n);
  return rs.front();
}
}  // namespace

TEST_CASE("gemm_limits: T=8 MAXDIM=128", "[limits]") {
  const Isa isa = isa_at(8, 128);
  INFO("check_params: " << check_params(the_spec(), isa.params()).size() << " violation(s)");
  CHECK(check_params(the_spec(), isa.params()).empty());
  for (const GemmShape s : {GemmShape{32, 128, 128}, GemmShape{64, 128, 128}}) {
    INFO(name(s));
    const GemmLimits g = gemm_limits(isa, s);
    CHECK_FALSE(g.fits);
    const LimitResult& rc = limit(g.limits, "row_count");
    CHECK_FALSE(rc.fits);
    CHECK(rc.value == 128);
    CHECK(rc.max == 127);
    CHECK(rc.over == 1);
    for (const auto& r : g.limits)
      if (r.name != "row_count") CHECK(r.fits);
    CHECK(g.split_fits);
    CHECK(limit(g.split, "row_count").value == std::max<std::int64_t>(s.m, 64));
  }
  const GemmLimits big = gemm_limits(isa, {128, 128, 128});
  CHECK_FALSE(big.fits);
  CHECK_FALSE(big.split_fits);
  CHECK(limit(big.split, "row_count").over == 1);
  CHECK(limit(big.limits, "row_count").over == 1);
  const LimitResult& h = limit(big.split, "header");
  CHECK_FALSE(h.fits);
  CHECK(h.over == 2049);
  CHECK_THAT(h.detail, Catch::Contains("accu_iterations = 34816"));
  CHECK(limit(big.split, "address").fits);
  CHECK(limit(big.split, "imem").fits);
  CHECK(limit(big.split, "memories").fits);
}

TEST_CASE("gemm_limits: T=4 MAXDIM=64, and shapes the predicates refuse", "[limits]") {
  const Isa isa = isa_at(4, 64);
  const GemmLimits g = gemm_limits(isa, {64, 64, 64});
  CHECK(g.fits);
  CHECK(g.split_fits);
  CHECK(limit(g.limits, "row_count").value == 64);
  // accu is the busiest header count of the cubic GEMM: MAXDIM^3/T^2 + MAXDIM^2/T.
  CHECK(limit(g.limits, "header").value == 64 * 64 * 64 / 16 + 64 * 64 / 4);
  CHECK(limit(g.limits, "imem").value == the_spec().nhdr + the_spec().iwords * 14);
  // The highest operand row: the last k-tile's weights of the last n-tile.
  CHECK(limit(g.limits, "address").value == 15 * 64 + 15 * 4);
  CHECK(limit(g.limits, "memories").fits);

  const GemmLimits odd = gemm_limits(isa, {6, 8, 8});
  CHECK_FALSE(odd.fits);
  CHECK_FALSE(odd.split_fits);
  CHECK_FALSE(limit(odd.limits, "shape").fits);
  CHECK(limit(odd.limits, "dims").fits);
  CHECK(odd.limits.size() == 2);  // nothing built, nothing measured

  const GemmLimits wide = gemm_limits(isa, {4, 68, 4});
  CHECK_FALSE(limit(wide.limits, "dims").fits);
  CHECK(wide.limits.size() == 2);
}

TEST_CASE("gemm_limits: a small imem and small memories are measured", "[limits]") {
  const Isa isa(the_spec(),
                resolve_params(the_spec(), {{"T", 4}, {"MAXDIM", 16}, {"IMEM_SIZE", 16}, {"NAR", 8}}, nullptr));
  const GemmLimits g = gemm_limits(isa, {16, 16, 16});
  const LimitResult& im = limit(g.limits, "imem");
  CHECK_FALSE(im.fits);
  CHECK(im.value == the_spec().nhdr + the_spec().iwords * 14);
  CHECK(im.over == im.value - 16);
  const LimitResult& mem = limit(g.limits, "memories");
  CHECK_FALSE(mem.fits);
  CHECK(mem.value == 15);  // ar rows 0 .. M-1
  CHECK(mem.max == 7);
  CHECK_THAT(mem.detail, Catch::Contains("ar"));
}

// --- vadd, vector and ar_distance programs -----------------------------------

TEST_CASE("vadd_program: relu(2 * (A @ B)) on the first tile, within the contracts", "[programs]") {
  std::mt19937 rng(7);
  for (const Config c : {Config{4, 16, 1}, Config{8, 64, 1}}) {
    const Isa isa = isa_at(c.t, c.maxdim);
    for (const GemmShape s : {GemmShape{c.t, c.t, c.t}, GemmShape{2 * c.t, c.maxdim, 2 * c.t}}) {
      INFO("T=" << c.t << " MAXDIM=" << c.maxdim << " " << name(s));
      const Program p = vadd_program(isa, s);
      const auto rep = check_contracts(isa, p);
      CHECK(rep.problems.empty());
      CHECK(rep.min_ar_distance >= the_spec().isa_constant("AR_RAW_DIST"));
      std::set<std::string> ops;
      for (const Instr& in : p.instrs) ops.insert(isa.opcode_of(in)->name);
      CHECK(ops.count("vadd") == 1);
      CHECK(ops.count("vrelu") == 1);
      const Matrix a = random_matrix(c.maxdim, rng, -8, 8), b = random_matrix(c.maxdim, rng, -8, 8);
      const Matrix c0 = random_matrix(c.maxdim, rng, -128, 127);
      const GemmShape tile{c.t, s.k, c.t};
      CHECK(run(isa, p, a, b, c0) ==
            reference(c.maxdim, tile, a, b, c0, [](std::int64_t v) { return std::max<std::int64_t>(2 * v, 0); }));
    }
  }
}

TEST_CASE("vector_program: varies what GEMM holds constant, legal at T=4/8, MAXDIM=16/64", "[programs]") {
  for (const Config c : {Config{4, 16, 1}, Config{4, 64, 1}, Config{8, 16, 1}, Config{8, 64, 1}}) {
    const Isa isa = isa_at(c.t, c.maxdim);
    INFO("T=" << c.t << " MAXDIM=" << c.maxdim);
    const Program p = vector_program(isa);
    const auto rep = check_contracts(isa, p);
    for (const auto& problem : rep.problems) INFO(problem);
    CHECK(rep.problems.empty());
    CHECK(rep.min_ar_distance >= the_spec().isa_constant("AR_RAW_DIST"));
    std::set<std::int64_t> modes, mm_ar, dma_row0, dma_cb;
    std::set<std::pair<std::int64_t, std::int64_t>> mvout_at;
    std::set<std::string> ops;
    bool accumulates = false;
    for (const Issue& is : expand(isa, p)) {
      const std::string& n = is.opcode->name;
      ops.insert(n);
      if (n == "dma_ld") {
        modes.insert(field(isa, is, "mode"));
        dma_row0.insert(field(isa, is, "dram_row0"));
        dma_cb.insert(field(isa, is, "col_block"));
      } else if (n == "mm") {
        mm_ar.insert(field(isa, is, "ar0"));
        accumulates = accumulates || field(isa, is, "acc") == 1;
      } else if (n == "mvout") {
        mvout_at.insert({field(isa, is, "dram_row0"), field(isa, is, "col_block")});
      }
    }
    CHECK(modes == std::set<std::int64_t>{0, 1, 2, 3});
    for (const char* op : {"vld", "vadd", "vrelu", "vaddrelu", "mvout", "mm"}) CHECK(ops.count(op) == 1);
    CHECK(mm_ar.size() >= 2);
    CHECK(accumulates);
    CHECK(*dma_row0.rbegin() > 0);
    CHECK(*dma_cb.rbegin() > 0);
    CHECK(mvout_at.size() >= 2);
    bool nonzero = false;
    for (const auto& [row, cb] : mvout_at) nonzero = nonzero || (row > 0 && cb > 0);
    CHECK(nonzero);
  }
}

TEST_CASE("vector_program: computes what its instructions say", "[programs]") {
  // r1 = A1 W + A2 W, r2 = Bv A3', r3 = r1 + r2, r5 = relu(r1 + relu(r3)): run it, and check
  // that the first mvout is nonnegative (it retires a relu) and C rows no mvout names are untouched.
  const Isa isa = isa_at(4, 16);
  std::mt19937 rng(3);
  const Matrix a = random_matrix(16, rng, -8, 8), b = random_matrix(16, rng, -8, 8), c0(16 * 16, -99);
  const Matrix c = run(isa, vector_program(isa), a, b, c0);
  std::int64_t changed = 0;
  for (std::size_t i = 0; i < c.size(); ++i) changed += c[i] != c0[i];
  CHECK(changed > 0);
  CHECK(changed <= 2 * 4 * 4);
}

TEST_CASE("ar_distance_program: an ar row read exactly d accu iterations after its write", "[programs]") {
  const Isa isa = isa_at(4, 16);
  const std::int64_t dist = the_spec().isa_constant("AR_RAW_DIST");
  std::mt19937 rng(11);
  for (std::int64_t d = 1; d <= 16; ++d) {
    INFO("d = " << d);
    const Program p = ar_distance_program(isa, d);
    const auto rep = check_contracts(isa, p);
    CHECK(rep.problems.empty());
    CHECK(rep.min_ar_distance == d);
    CHECK((rep.min_ar_distance >= dist) == (d >= dist));
    const Matrix a = random_matrix(16, rng, -128, 127), b = random_matrix(16, rng, -128, 127), c0(16 * 16, 5);
    CHECK(run(isa, p, a, b, c0) ==
          reference(16, {d, 4, 4}, a, b, c0, [](std::int64_t v) { return std::max<std::int64_t>(v, 0); }));
  }
  CHECK(rule_of([&] { (void)ar_distance_program(isa, 0); }) == "program.distance");
  CHECK(rule_of([&] { (void)ar_distance_program(isa, 17); }) == "program.distance");
}
