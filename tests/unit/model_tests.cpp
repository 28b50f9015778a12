// The reference model against independent integer arithmetic written here:
// GEMM tiles and shapes, 32-bit wraparound, saturation, the vector ops, row
// order, unwritten reads, bounds, images and unit steps.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "isa/image.h"
#include "isa/program.h"
#include "model/core/model.h"
#include "spec/params.h"
#include "spec/spec.h"
#include "test_support.h"

namespace {

using namespace tpugen;
using i64 = std::int64_t;
using Bytes = std::vector<std::int8_t>;

// dma_ld modes (notes: bit 0 = source B, bit 1 = destination vr).
constexpr i64 kAToSpad = 0, kBToSpad = 1, kAToVr = 2, kBToVr = 3;

const Spec& the_spec() {
  static const Spec spec = load_spec(TPUGEN_SOURCE_DIR "/spec/tinytpu_isa.yaml");
  return spec;
}

/// A build at (T, MAXDIM), with hand-written instruction helpers.
struct Build {
  Isa isa;
  i64 t, maxdim;
  Build(i64 t_, i64 maxdim_)
      : isa(the_spec(), legal_params(the_spec(), {{"T", t_}, {"MAXDIM", maxdim_}})), t(t_), maxdim(maxdim_) {}

  [[nodiscard]] Instr ins(std::string_view op, i64 nr, std::initializer_list<std::pair<std::string_view, i64>> ops,
                          int line = 0) const {
    const Opcode& o = isa.spec().opcode_named(op);
    Instr i = isa.make(o);
    i.fields[isa.nr_index()] = nr;
    for (const auto& [name, v] : ops) i.fields[isa.operand_index(o, name)] = v;
    i.line = line;
    return i;
  }
  [[nodiscard]] Instr dma_ld(i64 mode, i64 row0, i64 cb, i64 dst, i64 nr) const {
    return ins("dma_ld", nr, {{"mode", mode}, {"dram_row0", row0}, {"col_block", cb}, {"dst_row0", dst}});
  }
  [[nodiscard]] Instr vld(i64 vr0, i64 spad0, i64 nr) const { return ins("vld", nr, {{"vr0", vr0}, {"spad0", spad0}}); }
  [[nodiscard]] Instr mm(i64 vr_a, i64 ar0, i64 acc, i64 spad_w, i64 nr) const {
    return ins("mm", nr, {{"vr_a", vr_a}, {"ar0", ar0}, {"acc", acc}, {"spad_w", spad_w}});
  }
  [[nodiscard]] Instr vadd(i64 d, i64 s1, i64 s2, i64 nr) const {
    return ins("vadd", nr, {{"ar_d", d}, {"ar_s1", s1}, {"ar_s2", s2}});
  }
  [[nodiscard]] Instr vaddrelu(i64 d, i64 s1, i64 s2, i64 nr) const {
    return ins("vaddrelu", nr, {{"ar_d", d}, {"ar_s1", s1}, {"ar_s2", s2}});
  }
  [[nodiscard]] Instr vrelu(i64 d, i64 s, i64 nr) const { return ins("vrelu", nr, {{"ar_d", d}, {"ar_s", s}}); }
  [[nodiscard]] Instr mvout(i64 ar0, i64 row0, i64 cb, i64 nr) const {
    return ins("mvout", nr, {{"ar0", ar0}, {"dram_row0", row0}, {"col_block", cb}});
  }
  [[nodiscard]] Instr loop(i64 trip) const { return ins("loop", trip, {}); }
  [[nodiscard]] Instr endloop() const { return ins("endloop", 0, {}); }
  /// An AGU term driving `operand` of `op` from loop `level`.
  [[nodiscard]] AguTerm term(std::string_view op, std::string_view operand, i64 level, i64 stride) const {
    const Opcode& o = isa.spec().opcode_named(op);
    return AguTerm{isa.spec().field(o.operand(operand)->field)->agu_target, level, stride};
  }
  [[nodiscard]] Bytes zeros() const { return Bytes(static_cast<std::size_t>(maxdim * maxdim), 0); }
};

Program prog(std::vector<Instr> instrs) { return Program{std::move(instrs), "test"}; }

// --- independent arithmetic --------------------------------------------------

std::int8_t sat8(i64 v) { return static_cast<std::int8_t>(std::clamp<i64>(v, -128, 127)); }
/// Two's-complement 32-bit wrap, written with uint32 arithmetic.
i64 as_i32(std::uint32_t u) { return u >= 0x80000000u ? static_cast<i64>(u) - (i64{1} << 32) : static_cast<i64>(u); }
std::uint32_t u32(i64 v) { return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) & 0xffffffffu); }

/// sum_k A[m][k] * B[k][n] over a MAXDIM x MAXDIM row-major DRAM image (exact, in 64 bits).
std::vector<i64> matmul_ref(const Bytes& a, const Bytes& b, i64 m, i64 k, i64 n, i64 maxdim) {
  std::vector<i64> c(static_cast<std::size_t>(m * n), 0);
  for (i64 r = 0; r < m; ++r)
    for (i64 j = 0; j < n; ++j) {
      i64 s = 0;
      for (i64 i = 0; i < k; ++i)
        s += i64{a[static_cast<std::size_t>(r * maxdim + i)]} * i64{b[static_cast<std::size_t>(i * maxdim + j)]};
      c[static_cast<std::size_t>(r * n + j)] = s;
    }
  return c;
}

/// C as the host expects it after a GEMM: the prefill, with the M x N tile saturated in.
Bytes expected_c(const Bytes& prefill, const std::vector<i64>& sums, i64 m, i64 n, i64 maxdim, bool relu = false) {
  Bytes c = prefill;
  for (i64 r = 0; r < m; ++r)
    for (i64 j = 0; j < n; ++j) {
      i64 v = sums[static_cast<std::size_t>(r * n + j)];
      if (relu) v = std::max<i64>(v, 0);
      c[static_cast<std::size_t>(r * maxdim + j)] = sat8(v);
    }
  return c;
}

enum class Dist { Full, Corner, Mid };

/// Stress operands: full range with -128 and 127 forced in, the corner set, or mid-range.
Bytes random_bytes(std::mt19937& rng, std::size_t n, Dist d) {
  static const std::vector<int> corner = {-128, -127, -1, 0, 1, 126, 127};
  Bytes v(n, 0);
  std::uniform_int_distribution<int> full(-128, 127), mid(-16, 16);
  std::uniform_int_distribution<std::size_t> pick(0, corner.size() - 1);
  for (auto& x : v) {
    const int r = d == Dist::Full ? full(rng) : d == Dist::Mid ? mid(rng) : corner[pick(rng)];
    x = static_cast<std::int8_t>(r);
  }
  if (d == Dist::Full && n >= 2) {
    std::uniform_int_distribution<std::size_t> at(0, n - 1);
    const std::size_t lo = at(rng);
    std::size_t hi = at(rng);
    while (hi == lo) hi = at(rng);
    v[lo] = -128;
    v[hi] = 127;
  }
  return v;
}

/// The shipped layout, fully unrolled: A into vr (kb*MAXDIM + m), B into spad
/// (nb*MAXDIM + k), the first k-tile overwriting ar, the rest accumulating.
Program flat_gemm(const Build& b, i64 m, i64 k, i64 n, bool relu = false) {
  const i64 kt = k / b.t, nt = n / b.t;
  std::vector<Instr> p;
  for (i64 kb = 0; kb < kt; ++kb) p.push_back(b.dma_ld(kAToVr, 0, kb, kb * b.maxdim, m));
  for (i64 nb = 0; nb < nt; ++nb) p.push_back(b.dma_ld(kBToSpad, 0, nb, nb * b.maxdim, k));
  for (i64 nb = 0; nb < nt; ++nb) {
    p.push_back(b.mm(0, 0, 0, nb * b.maxdim, m));
    for (i64 kb = 1; kb < kt; ++kb) p.push_back(b.mm(kb * b.maxdim, 0, 1, nb * b.maxdim + kb * b.t, m));
    if (relu) p.push_back(b.vrelu(0, 0, m));
    p.push_back(b.mvout(0, 0, nb, m));
  }
  return prog(std::move(p));
}

/// The same GEMM with hardware loops and AGU terms (the shipped looped form).
Program looped_gemm(const Build& b, i64 m, i64 k, i64 n) {
  const i64 kt = k / b.t, nt = n / b.t;
  std::vector<Instr> p;
  p.push_back(b.loop(kt));
  Instr lda = b.dma_ld(kAToVr, 0, 0, 0, m);
  lda.terms = {b.term("dma_ld", "col_block", 0, 1), b.term("dma_ld", "dst_row0", 0, b.maxdim)};
  p.push_back(lda);
  p.push_back(b.endloop());
  p.push_back(b.loop(nt));
  Instr ldb = b.dma_ld(kBToSpad, 0, 0, 0, k);
  ldb.terms = {b.term("dma_ld", "col_block", 0, 1), b.term("dma_ld", "dst_row0", 0, b.maxdim)};
  p.push_back(ldb);
  p.push_back(b.endloop());
  p.push_back(b.loop(nt));
  Instr first = b.mm(0, 0, 0, 0, m);
  first.terms = {b.term("mm", "spad_w", 0, b.maxdim)};
  p.push_back(first);
  if (kt > 1) {
    p.push_back(b.loop(kt - 1));
    Instr rest = b.mm(b.maxdim, 0, 1, b.t, m);
    rest.terms = {b.term("mm", "vr_a", 1, b.maxdim), b.term("mm", "spad_w", 0, b.maxdim),
                  b.term("mm", "spad_w", 1, b.t)};
    p.push_back(rest);
    p.push_back(b.endloop());
  }
  Instr out = b.mvout(0, 0, 0, m);
  out.terms = {b.term("mvout", "col_block", 0, 1)};
  p.push_back(out);
  p.push_back(b.endloop());
  return prog(std::move(p));
}

struct GemmCase {
  Bytes a, b, c0;
};

GemmCase random_case(const Build& b, std::mt19937& rng, Dist d) {
  const auto n = static_cast<std::size_t>(b.maxdim * b.maxdim);
  return {random_bytes(rng, n, d), random_bytes(rng, n, d), random_bytes(rng, n, Dist::Full)};
}

Bytes run_gemm(const Build& b, const GemmCase& g, const Program& p, std::unique_ptr<Model>* keep = nullptr) {
  auto model = std::make_unique<Model>(b.isa);
  model->set_dram("A", g.a);
  model->set_dram("B", g.b);
  model->set_dram("C", g.c0);
  model->run(p);
  Bytes c = model->dram("C");
  if (keep) *keep = std::move(model);
  return c;
}

std::vector<i64> lanes_of(std::initializer_list<i64> v) { return v; }

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("model: a fresh model holds zero, unwritten on-chip rows and sized memories", "[model]") {
  const Build b(4, 16);
  const Model m(b.isa);
  CHECK(m.depth("vr") == b.isa.param("NVR"));
  CHECK(m.depth("spad") == b.isa.param("SPAD_ROWS"));
  CHECK(m.depth("ar") == b.isa.param("NAR"));
  CHECK(m.depth("A") == b.maxdim);
  CHECK(m.dram("A").size() == static_cast<std::size_t>(b.maxdim * b.maxdim));
  for (const char* mem : {"vr", "spad", "ar"})
    for (i64 r = 0; r < m.depth(mem); ++r) {
      REQUIRE_FALSE(m.written(mem, r));
      REQUIRE(m.row(mem, r) == std::vector<i64>(static_cast<std::size_t>(b.t), 0));
    }
  CHECK(m.issues() == 0);
  CHECK(m.unwritten_reads().empty());
  for (const auto& u : the_spec().units) CHECK(m.unit_steps().at(u.name) == 0);
}

TEST_CASE("model: host memories are checked by name and size", "[model]") {
  const Build b(4, 16);
  Model m(b.isa);
  auto rule_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.rule();
    }
    return std::string("none");
  };
  CHECK(rule_of([&] { m.set_dram("A", Bytes(16 * 16 - 1, 0)); }) == "model.size");
  CHECK(rule_of([&] { m.set_dram("B", Bytes(16, 0)); }) == "model.size");
  CHECK(rule_of([&] { m.set_dram("vr", Bytes(16 * 16, 0)); }) == "model.memory");
  CHECK(rule_of([&] { m.set_dram("Q", Bytes(16 * 16, 0)); }) == "model.memory");
  CHECK(rule_of([&] { (void)m.dram("spad"); }) == "model.memory");
  CHECK(rule_of([&] { (void)m.row("vr", b.isa.param("NVR")); }) == "model.bounds");
  CHECK(rule_of([&] { (void)m.written("ar", -1); }) == "model.bounds");
  Bytes c(16 * 16);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<std::int8_t>(i % 251);
  m.set_dram("C", c);
  CHECK(m.dram("C") == c);
}

TEST_CASE("model: single-tile GEMM equals a plain integer matmul with saturation (stress operands)", "[model]") {
  for (const i64 t : {4, 8}) {
    const Build b(t, 16);
    std::mt19937 rng(static_cast<unsigned>(1234 + t));
    for (const Dist d : {Dist::Full, Dist::Corner, Dist::Mid}) {
      for (int iter = 0; iter < 25; ++iter) {
        const GemmCase g = random_case(b, rng, d);
        const Program p = prog(
            {b.dma_ld(kAToVr, 0, 0, 0, t), b.dma_ld(kBToSpad, 0, 0, 0, t), b.mm(0, 0, 0, 0, t), b.mvout(0, 0, 0, t)});
        std::unique_ptr<Model> m;
        const Bytes c = run_gemm(b, g, p, &m);
        const auto sums = matmul_ref(g.a, g.b, t, t, t, b.maxdim);
        INFO("T=" << t << " dist=" << static_cast<int>(d) << " iter=" << iter);
        REQUIRE(c == expected_c(g.c0, sums, t, t, b.maxdim));
        // The accumulator holds the exact sums before saturation.
        for (i64 r = 0; r < t; ++r) {
          std::vector<i64> want(sums.begin() + r * t, sums.begin() + (r + 1) * t);
          REQUIRE(m->row("ar", r) == want);
          REQUIRE(m->written("ar", r));
        }
        REQUIRE(m->unwritten_reads().empty());
        REQUIRE(m->dram("A") == g.a);
        REQUIRE(m->dram("B") == g.b);
      }
    }
  }
}

TEST_CASE("model: multi-tile GEMM shapes, flat and looped, equal the plain matmul", "[model]") {
  for (const i64 t : {4, 8}) {
    const Build b(t, 16);
    std::mt19937 rng(static_cast<unsigned>(99 + t));
    for (i64 m = t; m <= b.maxdim; m += t)
      for (i64 k = t; k <= b.maxdim; k += t)
        for (i64 n = t; n <= b.maxdim; n += t) {
          const GemmCase g = random_case(b, rng, Dist::Full);
          const auto sums = matmul_ref(g.a, g.b, m, k, n, b.maxdim);
          INFO("T=" << t << " shape " << m << "x" << k << "x" << n);
          const Bytes want = expected_c(g.c0, sums, m, n, b.maxdim);
          std::unique_ptr<Model> flat;
          REQUIRE(run_gemm(b, g, flat_gemm(b, m, k, n), &flat) == want);
          REQUIRE(flat->unwritten_reads().empty());
          std::unique_ptr<Model> looped;
          REQUIRE(run_gemm(b, g, looped_gemm(b, m, k, n), &looped) == want);
          REQUIRE(looped->unwritten_reads().empty());
        }
  }
}

TEST_CASE("model: two k-tiles accumulate: the second mm adds onto the first", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(7);
  const GemmCase g = random_case(b, rng, Dist::Corner);
  // A[0:4, 0:8] into vr rows 0..3 (k-tile 0) and 16..19 (k-tile 1); B[0:8, 0:4] into spad 0..7.
  const Program p = prog({b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kAToVr, 0, 1, 16, 4), b.dma_ld(kBToSpad, 0, 0, 0, 8),
                          b.mm(0, 8, 0, 0, 4), b.mm(16, 8, 1, 4, 4), b.mvout(8, 0, 0, 4)});
  std::unique_ptr<Model> m;
  const Bytes c = run_gemm(b, g, p, &m);
  const auto sums = matmul_ref(g.a, g.b, 4, 8, 4, b.maxdim);
  CHECK(c == expected_c(g.c0, sums, 4, 4, b.maxdim));
  for (i64 r = 0; r < 4; ++r)
    CHECK(m->row("ar", 8 + r) == std::vector<i64>(sums.begin() + r * 4, sums.begin() + r * 4 + 4));
}

TEST_CASE("model: accumulator arithmetic wraps at 32 bits (vadd doubling chains)", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(2024);
  const GemmCase g = random_case(b, rng, Dist::Full);
  constexpr i64 kDoublings = 24;  // groups of 4 rows: group 0 from mm, group k = 2 * group k-1
  std::vector<Instr> p = {b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4), b.mm(0, 0, 0, 0, 4)};
  for (i64 k = 1; k <= kDoublings; ++k) p.push_back(b.vadd(4 * k, 4 * (k - 1), 4 * (k - 1), 4));
  p.push_back(b.vadd(100, 4 * 15, 4 * 17, 4));  // a sum of two different wrapped values
  p.push_back(b.mvout(4 * kDoublings, 0, 0, 4));
  p.push_back(b.mvout(100, 4, 0, 4));
  std::unique_ptr<Model> m;
  const Bytes c = run_gemm(b, g, prog(p), &m);

  const auto sums = matmul_ref(g.a, g.b, 4, 4, 4, b.maxdim);
  std::vector<std::vector<std::uint32_t>> groups(kDoublings + 1, std::vector<std::uint32_t>(16));
  for (std::size_t i = 0; i < 16; ++i) groups[0][i] = u32(sums[i]);
  for (std::size_t k = 1; k <= kDoublings; ++k)
    for (std::size_t i = 0; i < 16; ++i) groups[k][i] = groups[k - 1][i] + groups[k - 1][i];
  bool wrapped = false;
  for (std::size_t k = 0; k <= kDoublings; ++k)
    for (i64 r = 0; r < 4; ++r) {
      std::vector<i64> want;
      for (i64 j = 0; j < 4; ++j) want.push_back(as_i32(groups[k][static_cast<std::size_t>(r * 4 + j)]));
      INFO("group " << k << " row " << r);
      REQUIRE(m->row("ar", static_cast<i64>(4 * k) + r) == want);
      for (std::size_t j = 0; j < 4; ++j) {
        const std::size_t i = static_cast<std::size_t>(r) * 4 + j;
        wrapped = wrapped || as_i32(groups[k][i]) != sums[i] * (i64{1} << k);  // exact in 64 bits
      }
    }
  CHECK(wrapped);  // the chain really crossed 2^31
  Bytes want_c = g.c0;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t j = 0; j < 4; ++j) {
      want_c[r * 16 + j] = sat8(as_i32(groups[kDoublings][r * 4 + j]));
      const std::uint32_t s = groups[15][r * 4 + j] + groups[17][r * 4 + j];
      CHECK(m->row("ar", 100 + static_cast<i64>(r))[j] == as_i32(s));
      want_c[(4 + r) * 16 + j] = sat8(as_i32(s));
    }
  CHECK(c == want_c);
  CHECK(m->unwritten_reads().empty());
}

TEST_CASE("model: an accumulating mm wraps onto a large accumulator (matmul sum, then the acc term)", "[model]") {
  const Build b(4, 16);
  Bytes a = b.zeros(), bb = b.zeros();
  // Rows 0..3 of A: all -128; rows 4..7: all -128 too (the second activation tile).
  for (i64 r = 0; r < 8; ++r)
    for (i64 c = 0; c < 4; ++c) a[static_cast<std::size_t>(r * 16 + c)] = -128;
  // B rows 0..3 (cols 0..3) all -128: products 16384, lane sums 2^16. B rows 4..7 all 127.
  for (i64 r = 0; r < 8; ++r)
    for (i64 c = 0; c < 4; ++c) bb[static_cast<std::size_t>(r * 16 + c)] = static_cast<std::int8_t>(r < 4 ? -128 : 127);
  std::vector<Instr> p = {b.dma_ld(kAToVr, 0, 0, 0, 8), b.dma_ld(kBToSpad, 0, 0, 0, 8), b.mm(0, 0, 0, 0, 4)};
  for (i64 k = 0; k < 15; ++k) p.push_back(b.vadd(0, 0, 0, 4));  // 2^16 doubled 15 times: 2^31 wraps to INT_MIN
  p.push_back(b.mm(4, 0, 1, 4, 4));                              // + 4 * (-128 * 127)
  p.push_back(b.mvout(0, 0, 0, 4));
  Model m(b.isa);
  m.set_dram("A", a);
  m.set_dram("B", bb);
  m.run(prog(p));
  const std::uint32_t acc = (std::uint32_t{1} << 16) << 15;
  const std::uint32_t want = acc + u32(4 * (-128 * 127));
  CHECK(as_i32(acc) == -2147483648LL);
  CHECK(as_i32(want) > 0);
  for (i64 r = 0; r < 4; ++r) CHECK(m.row("ar", r) == std::vector<i64>(4, as_i32(want)));
  for (i64 r = 0; r < 4; ++r)
    for (i64 c = 0; c < 4; ++c) CHECK(m.dram("C")[static_cast<std::size_t>(r * 16 + c)] == 127);
}

TEST_CASE("model: mvout saturates at the 127/128 and -128/-129 boundaries", "[model]") {
  const Build b(4, 16);
  Bytes a = b.zeros(), w = b.zeros();
  auto set = [](Bytes& m, i64 r, std::vector<int> v) {
    for (std::size_t c = 0; c < v.size(); ++c) m[static_cast<std::size_t>(r * 16) + c] = static_cast<std::int8_t>(v[c]);
  };
  set(w, 0, {127, 127, -128, -128});
  set(w, 1, {0, 1, 0, -1});
  set(w, 2, {127, -128, 126, -127});
  set(w, 3, {127, -128, 1, 1});
  set(a, 0, {1, 1, 0, 0});          // 127, 128, -128, -129
  set(a, 1, {1, 0, 0, 0});          // 127, 127, -128, -128 exactly
  set(a, 2, {127, 127, 127, 127});  // large positive and negative sums
  set(a, 3, {-1, 0, 1, 0});         // -127, -255, 254, 127
  const Program p =
      prog({b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4), b.mm(0, 0, 0, 0, 4), b.mvout(0, 0, 0, 4)});
  Model m(b.isa);
  m.set_dram("A", a);
  m.set_dram("B", w);
  m.run(p);
  const auto sums = matmul_ref(a, w, 4, 4, 4, 16);
  CHECK(std::vector<i64>(sums.begin(), sums.begin() + 4) == lanes_of({127, 128, -128, -129}));
  for (i64 r = 0; r < 4; ++r) CHECK(m.row("ar", r) == std::vector<i64>(sums.begin() + r * 4, sums.begin() + r * 4 + 4));
  CHECK(m.dram("C") == expected_c(b.zeros(), sums, 4, 4, 16));
  CHECK(std::vector<int>(m.dram("C").begin(), m.dram("C").begin() + 4) == std::vector<int>{127, 127, -128, -128});
}

TEST_CASE("model: vrelu and vaddrelu", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(5);
  const GemmCase g = random_case(b, rng, Dist::Full);
  const Program p = prog({b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4), b.mm(0, 0, 0, 0, 4),
                          b.vrelu(4, 0, 4), b.vaddrelu(8, 0, 4, 4), b.vadd(12, 0, 0, 4), b.vaddrelu(16, 0, 0, 4),
                          b.mvout(4, 0, 0, 4), b.mvout(8, 4, 0, 4), b.mvout(16, 8, 0, 4)});
  std::unique_ptr<Model> m;
  const Bytes c = run_gemm(b, g, p, &m);
  const auto s = matmul_ref(g.a, g.b, 4, 4, 4, 16);
  bool some_negative = false;
  Bytes want = g.c0;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t j = 0; j < 4; ++j) {
      const i64 x = s[r * 4 + j];
      some_negative = some_negative || x < 0;
      const i64 relu = std::max<i64>(x, 0), addrelu = std::max<i64>(x + relu, 0), dbl = std::max<i64>(2 * x, 0);
      CHECK(m->row("ar", 4 + static_cast<i64>(r))[j] == relu);
      CHECK(m->row("ar", 8 + static_cast<i64>(r))[j] == addrelu);
      CHECK(m->row("ar", 12 + static_cast<i64>(r))[j] == 2 * x);
      CHECK(m->row("ar", 16 + static_cast<i64>(r))[j] == dbl);
      want[r * 16 + j] = sat8(relu);
      want[(4 + r) * 16 + j] = sat8(addrelu);
      want[(8 + r) * 16 + j] = sat8(dbl);
    }
  CHECK(some_negative);
  CHECK(c == want);
}

TEST_CASE("model: vaddrelu adds with wraparound before the relu", "[model]") {
  const Build b(4, 16);
  Bytes a = b.zeros(), w = b.zeros();
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 4; ++c) a[r * 16 + c] = w[r * 16 + c] = -128;  // lane sums 2^16
  std::vector<Instr> p = {b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4), b.mm(0, 0, 0, 0, 4)};
  for (int k = 0; k < 14; ++k) p.push_back(b.vadd(0, 0, 0, 4));  // 2^30
  p.push_back(b.vaddrelu(4, 0, 0, 4));                           // 2^31 wraps negative: relu gives 0
  p.push_back(b.vadd(8, 0, 0, 4));                               // INT_MIN
  p.push_back(b.vrelu(12, 0, 4));                                // 2^30 stays
  Model m(b.isa);
  m.set_dram("A", a);
  m.set_dram("B", w);
  m.run(prog(p));
  CHECK(m.row("ar", 0) == std::vector<i64>(4, i64{1} << 30));
  CHECK(m.row("ar", 4) == std::vector<i64>(4, 0));
  CHECK(m.row("ar", 8) == std::vector<i64>(4, as_i32(std::uint32_t{1} << 31)));
  CHECK(m.row("ar", 12) == std::vector<i64>(4, i64{1} << 30));
}

TEST_CASE("model: an instruction processes its rows in order (overlapping destination)", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(11);
  const GemmCase g = random_case(b, rng, Dist::Mid);
  // ar rows 0..3 and 20..23 from mm; then vadd ar[1+r] = ar[r] + ar[r] for r = 0..2: each row reads the
  // row before, which this same instruction has just written. vaddrelu and vrelu overlap the same way.
  const Program p =
      prog({b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4), b.mm(0, 0, 0, 0, 4), b.mm(0, 20, 0, 0, 4),
            b.vadd(1, 0, 0, 3), b.vaddrelu(21, 20, 21, 3), b.vrelu(31, 30, 1), b.vrelu(24, 23, 2)});
  std::unique_ptr<Model> m;
  run_gemm(b, g, p, &m);
  const auto s = matmul_ref(g.a, g.b, 4, 4, 4, 16);
  // The row-by-row semantics, sequentially.
  std::vector<std::vector<i64>> ar(32, std::vector<i64>(4, 0));
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t j = 0; j < 4; ++j) ar[r][j] = ar[20 + r][j] = s[r * 4 + j];
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t j = 0; j < 4; ++j) ar[1 + r][j] = ar[r][j] + ar[r][j];
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t j = 0; j < 4; ++j) ar[21 + r][j] = std::max<i64>(ar[20 + r][j] + ar[21 + r][j], 0);
  for (std::size_t r = 0; r < 2; ++r)
    for (std::size_t j = 0; j < 4; ++j) ar[24 + r][j] = std::max<i64>(ar[23 + r][j], 0);
  for (i64 r = 0; r < 4; ++r) CHECK(m->row("ar", r) == ar[static_cast<std::size_t>(r)]);
  for (i64 r = 20; r < 26; ++r) CHECK(m->row("ar", r) == ar[static_cast<std::size_t>(r)]);
  // Differs from the all-reads-first reading: ar[3] = 8 * ar[0], not 2 * old ar[2].
  for (std::size_t j = 0; j < 4; ++j) CHECK(m->row("ar", 3)[j] == 8 * s[j]);
  // vrelu of a never-written row: reported, and the (zero) result is written.
  REQUIRE(m->unwritten_reads().size() == 1);
  CHECK(m->unwritten_reads()[0].memory == "ar");
  CHECK(m->unwritten_reads()[0].row == 30);
  CHECK(m->unwritten_reads()[0].pc == 6);
  CHECK(m->written("ar", 31));
}

TEST_CASE("model: dma_ld honours dram_row0, col_block, the source and the destination", "[model]") {
  for (const i64 t : {4, 8}) {
    const Build b(t, 16);
    std::mt19937 rng(static_cast<unsigned>(3 + t));
    const GemmCase g = random_case(b, rng, Dist::Full);
    const i64 wpr = b.maxdim / t;
    const i64 cb = wpr - 1;
    const Program p = prog({b.dma_ld(kAToVr, 3, cb, 7, 5), b.dma_ld(kBToVr, 9, 0, 20, 6),
                            b.dma_ld(kAToSpad, 11, 1, 2, 5), b.dma_ld(kBToSpad, 0, cb, 40, 16)});
    Model m(b.isa);
    m.set_dram("A", g.a);
    m.set_dram("B", g.b);
    m.run(p);
    auto packed = [&](const Bytes& src, i64 row, i64 block) {
      std::vector<i64> v;
      for (i64 l = 0; l < t; ++l) v.push_back(src[static_cast<std::size_t>(row * b.maxdim + block * t + l)]);
      return v;
    };
    INFO("T=" << t);
    for (i64 r = 0; r < 5; ++r) CHECK(m.row("vr", 7 + r) == packed(g.a, 3 + r, cb));
    for (i64 r = 0; r < 6; ++r) CHECK(m.row("vr", 20 + r) == packed(g.b, 9 + r, 0));
    for (i64 r = 0; r < 5; ++r) CHECK(m.row("spad", 2 + r) == packed(g.a, 11 + r, 1));
    for (i64 r = 0; r < 16; ++r) CHECK(m.row("spad", 40 + r) == packed(g.b, r, cb));
    for (i64 r = 0; r < m.depth("vr"); ++r) CHECK(m.written("vr", r) == ((r >= 7 && r < 12) || (r >= 20 && r < 26)));
    for (i64 r = 0; r < m.depth("spad"); ++r) CHECK(m.written("spad", r) == ((r >= 2 && r < 7) || (r >= 40 && r < 56)));
    CHECK(m.unwritten_reads().empty());
  }
}

TEST_CASE("model: mvout writes only the rows and packed word it names", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(17);
  const GemmCase g = random_case(b, rng, Dist::Full);
  // The 4x4 product lands at C rows 5..7 (three of its rows) in column block 2.
  const Program p =
      prog({b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4), b.mm(0, 0, 0, 0, 4), b.mvout(1, 5, 2, 3)});
  const Bytes c = run_gemm(b, g, p);
  const auto s = matmul_ref(g.a, g.b, 4, 4, 4, 16);
  Bytes want = g.c0;
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t j = 0; j < 4; ++j) want[(5 + r) * 16 + 8 + j] = sat8(s[(1 + r) * 4 + j]);
  CHECK(c == want);
}

TEST_CASE("model: vld copies spad rows into vr for an mm", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(23);
  const GemmCase g = random_case(b, rng, Dist::Corner);
  const Program p = prog({b.dma_ld(kAToSpad, 0, 0, 20, 4), b.vld(8, 20, 4), b.dma_ld(kBToSpad, 0, 0, 0, 4),
                          b.mm(8, 0, 0, 0, 4), b.mvout(0, 0, 0, 4)});
  std::unique_ptr<Model> m;
  const Bytes c = run_gemm(b, g, p, &m);
  CHECK(c == expected_c(g.c0, matmul_ref(g.a, g.b, 4, 4, 4, 16), 4, 4, 16));
  for (i64 r = 0; r < 4; ++r) {
    CHECK(m->row("vr", 8 + r) == m->row("spad", 20 + r));
    CHECK(m->written("vr", 8 + r));
  }
  CHECK(m->unwritten_reads().empty());
}

TEST_CASE("model: an unwritten spad row copied by vld is reported when mm consumes it", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(29);
  const GemmCase g = random_case(b, rng, Dist::Full);
  Program p = prog({b.dma_ld(kBToSpad, 0, 0, 0, 4), b.dma_ld(kAToSpad, 0, 0, 20, 3), b.vld(8, 20, 4),
                    b.mm(8, 0, 0, 0, 4), b.mvout(0, 0, 0, 4)});
  for (std::size_t i = 0; i < p.instrs.size(); ++i) p.instrs[i].line = static_cast<int>(10 + i);
  std::unique_ptr<Model> m;
  run_gemm(b, g, p, &m);
  CHECK(m->written("vr", 10));
  CHECK_FALSE(m->written("vr", 11));  // the copy of an unwritten row is unwritten
  REQUIRE(m->unwritten_reads().size() == 1);
  const UnwrittenRead& u = m->unwritten_reads()[0];
  CHECK(u.pc == 3);
  CHECK(u.line == 13);
  CHECK(u.opcode == "mm");
  CHECK(u.memory == "vr");
  CHECK(u.row == 11);
}

TEST_CASE("model: unwritten weights, accumulator and vector sources are reported once each", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(31);
  const GemmCase g = random_case(b, rng, Dist::Full);
  const Program p = prog({
      b.dma_ld(kAToVr, 0, 0, 0, 4), b.dma_ld(kBToSpad, 0, 0, 0, 2),  // spad rows 2, 3 never written
      b.mm(0, 0, 0, 0, 4),                                           // pc 2: spad 2, 3
      b.mm(0, 40, 1, 0, 2),   // pc 3: spad 2, 3 again, and ar 40, 41 (accumulating onto nothing)
      b.vadd(50, 60, 60, 1),  // pc 4: ar 60 once, although both sources name it
      b.vadd(51, 0, 61, 1),   // pc 5: ar 61
      b.mvout(2, 0, 0, 4),    // pc 6: ar 4, 5
  });
  std::unique_ptr<Model> m;
  run_gemm(b, g, p, &m);
  struct Want {
    std::size_t pc;
    const char* op;
    const char* mem;
    i64 row;
  };
  const std::vector<Want> want = {
      {2, "mm", "spad", 2}, {2, "mm", "spad", 3},  {3, "mm", "spad", 2},  {3, "mm", "spad", 3},  {3, "mm", "ar", 40},
      {3, "mm", "ar", 41},  {4, "vadd", "ar", 60}, {5, "vadd", "ar", 61}, {6, "mvout", "ar", 4}, {6, "mvout", "ar", 5}};
  const auto& got = m->unwritten_reads();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("report " << i);
    CHECK(got[i].pc == want[i].pc);
    CHECK(got[i].opcode == want[i].op);
    CHECK(got[i].memory == want[i].mem);
    CHECK(got[i].row == want[i].row);
  }
  // A computed result is written, so consuming it later reports nothing new.
  CHECK(m->written("ar", 40));
  CHECK(m->written("ar", 50));
}

TEST_CASE("model: an access outside a memory is model.bounds, naming the instruction and memory", "[model]") {
  for (const i64 t : {4, 8}) {
    const Build b(t, 16);
    const i64 nvr = b.isa.param("NVR"), nspad = b.isa.param("SPAD_ROWS"), nar = b.isa.param("NAR");
    const i64 wpr = b.isa.param("WPR"), rows = b.maxdim;
    struct Case {
      Instr bad;
      const char* memory;
    };
    const std::vector<Case> cases = {
        {b.dma_ld(kAToVr, rows - 2, 0, 0, 4), "A"},
        {b.dma_ld(kBToSpad, rows, 0, 0, 1), "B"},
        {b.dma_ld(kAToVr, 0, wpr, 0, 1), "col_block"},
        {b.dma_ld(kAToVr, 0, 0, nvr - 2, 4), "vr"},
        {b.dma_ld(kBToSpad, 0, 0, nspad - 1, 2), "spad"},
        {b.vld(nvr, 0, 1), "vr"},
        {b.vld(0, nspad - 3, 4), "spad"},
        {b.mm(nvr - 1, 0, 0, 0, 2), "vr"},
        {b.mm(0, 0, 0, nspad - t + 1, 1), "spad"},
        {b.mm(0, nar - 1, 0, 0, 2), "ar"},
        {b.vadd(0, 0, nar, 1), "ar"},
        {b.vrelu(nar - 1, 0, 2), "ar"},
        {b.mvout(nar - 1, 0, 0, 2), "ar"},
        {b.mvout(0, rows - 1, 0, 2), "C"},
        {b.mvout(0, 0, wpr, 1), "col_block"},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
      Model m(b.isa);
      std::vector<Instr> p = {b.dma_ld(kAToVr, 0, 0, 0, 1), cases[i].bad};
      p[1].line = 42;
      INFO("T=" << t << " case " << i);
      const Error e = test::error_of([&] { m.run(prog(p)); });
      CHECK(e.rule() == "model.bounds");
      CHECK_THAT(e.message(), Catch::Contains("instruction 1 (line 42") && Catch::Contains(cases[i].memory));
      CHECK(e.where().line == 42);
      // Nothing of the refused instruction happened; the one before it did.
      CHECK(m.written("vr", 0));
      for (i64 r = 1; r < nvr; ++r) REQUIRE_FALSE(m.written("vr", r));
      for (i64 r = 0; r < nspad; ++r) REQUIRE_FALSE(m.written("spad", r));
      for (i64 r = 0; r < nar; ++r) REQUIRE_FALSE(m.written("ar", r));
      CHECK(m.dram("C") == b.zeros());
    }
  }
}

TEST_CASE("model: the last rows of every memory are in bounds", "[model]") {
  const Build b(4, 16);
  const i64 nvr = b.isa.param("NVR"), nspad = b.isa.param("SPAD_ROWS"), nar = b.isa.param("NAR");
  const i64 wpr = b.isa.param("WPR");
  const Program p = prog({b.dma_ld(kAToVr, 12, wpr - 1, nvr - 4, 4), b.dma_ld(kBToSpad, 12, wpr - 1, nspad - 4, 4),
                          b.mm(nvr - 4, nar - 4, 0, nspad - 4, 4), b.mvout(nar - 4, 12, wpr - 1, 4)});
  std::mt19937 rng(41);
  const GemmCase g = random_case(b, rng, Dist::Full);
  const Bytes c = run_gemm(b, g, p);
  // C[12+m][12+j] = sat(sum_i A[12+m][12+i] * B[12+i][12+j])
  Bytes want = g.c0;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t j = 0; j < 4; ++j) {
      i64 s = 0;
      for (std::size_t i = 0; i < 4; ++i) s += i64{g.a[(12 + r) * 16 + 12 + i]} * i64{g.b[(12 + i) * 16 + 12 + j]};
      want[(12 + r) * 16 + 12 + j] = sat8(s);
    }
  CHECK(c == want);
}

TEST_CASE("model: run_image equals run", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(43);
  const GemmCase g = random_case(b, rng, Dist::Full);
  for (const Program& p : {looped_gemm(b, 8, 12, 8), flat_gemm(b, 12, 8, 4, true)}) {
    std::unique_ptr<Model> direct;
    run_gemm(b, g, p, &direct);
    Model imaged(b.isa);
    imaged.set_dram("A", g.a);
    imaged.set_dram("B", g.b);
    imaged.set_dram("C", g.c0);
    imaged.run_image(encode_image(b.isa, p));
    CHECK(imaged.dram("C") == direct->dram("C"));
    for (const char* mem : {"vr", "spad", "ar"})
      for (i64 r = 0; r < direct->depth(mem); ++r) {
        REQUIRE(imaged.row(mem, r) == direct->row(mem, r));
        REQUIRE(imaged.written(mem, r) == direct->written(mem, r));
      }
    CHECK(imaged.unit_steps() == direct->unit_steps());
    CHECK(imaged.issues() == direct->issues());
    CHECK(imaged.issues() == expand(b.isa, p).size());
  }
}

TEST_CASE("model: unit steps follow the seed's per-unit work counts", "[model]") {
  for (const i64 t : {4, 8}) {
    const Build b(t, 16);
    std::vector<Instr> body = {b.dma_ld(kAToVr, 0, 0, 0, 5),
                               b.dma_ld(kBToSpad, 0, 0, 0, 6),
                               b.dma_ld(kAToSpad, 0, 0, 10, 3),
                               b.dma_ld(kBToVr, 0, 0, 20, 2),
                               b.vld(30, 0, 4),
                               b.mm(0, 0, 0, 0, 5),
                               b.mm(0, 8, 0, 0, 3),
                               b.vadd(16, 0, 8, 3),
                               b.vaddrelu(24, 0, 8, 2),
                               b.vrelu(32, 0, 4),
                               b.mvout(0, 0, 0, 5)};
    std::vector<Instr> p = {b.loop(2)};
    p.insert(p.end(), body.begin(), body.end());
    p.push_back(b.endloop());
    Model m(b.isa);
    m.run(prog(p));
    // Per trip, from the notes' header table.
    const i64 dma_ld_rows = 5 + 6 + 3 + 2;
    const i64 spm = (6 + 3) + 4 + 2 * (t + 1);       // spad-bound dma_ld rows + vld rows + (T+1) per mm
    const i64 vru = (5 + 2) + 4 + (5 + 3);           // vr-bound dma_ld rows + vld rows + mm rows
    const i64 accu = (5 + 3) + 4 + 5 + 2 * (3 + 2);  // mm, vrelu, mvout rows + 2 x vadd/vaddrelu rows
    const i64 dma_st = 5;
    const i64 array = (t + 1 + 5) + (t + 1 + 3);  // wcol then acol, serially, per mm
    const auto& s = m.unit_steps();
    INFO("T=" << t);
    CHECK(s.at("dma_ld") == 2 * dma_ld_rows);
    CHECK(s.at("spm") == 2 * spm);
    CHECK(s.at("vru") == 2 * vru);
    CHECK(s.at("accu") == 2 * accu);
    CHECK(s.at("dma_st") == 2 * dma_st);
    CHECK(s.at("array") == 2 * array);
    CHECK(s.at("sequencer") == 1 + 2);  // one loop issue, two endloop issues
    CHECK(m.issues() == 1 + 2 * body.size() + 2);
  }
}

TEST_CASE("model: a program the sequencer cannot follow is refused by expand's rules", "[model]") {
  const Build b(4, 16);
  Model m(b.isa);
  const Error e = test::error_of([&] { m.run(prog({b.endloop()})); });
  CHECK(e.rule() == "expand.loop_balance");
}

TEST_CASE("model: MAXDIM = 64 builds run the largest looped GEMM", "[model]") {
  for (const i64 t : {4, 8}) {
    const Build b(t, 64);
    std::mt19937 rng(static_cast<unsigned>(47 + t));
    const GemmCase g = random_case(b, rng, Dist::Full);
    const i64 n = 64;
    INFO("T=" << t);
    const Bytes c = run_gemm(b, g, looped_gemm(b, n, n, n));
    CHECK(c == expected_c(g.c0, matmul_ref(g.a, g.b, n, n, n, n), n, n, n));
  }
}

TEST_CASE("model: zero-row instructions move no rows (and neither crash nor hang)", "[model]") {
  const Build b(4, 16);
  std::mt19937 rng(53);
  const GemmCase g = random_case(b, rng, Dist::Full);
  const Program p =
      prog({b.dma_ld(kAToVr, 0, 0, 0, 0), b.dma_ld(kBToSpad, 0, 0, 0, 0), b.vld(0, 0, 0), b.mm(0, 0, 0, 0, 0),
            b.vadd(0, 0, 0, 0), b.vrelu(0, 0, 0), b.vaddrelu(0, 0, 0, 0), b.mvout(0, 0, 0, 0)});
  std::unique_ptr<Model> m;
  CHECK(run_gemm(b, g, p, &m) == g.c0);
  for (const char* mem : {"vr", "spad", "ar"})
    for (i64 r = 0; r < m->depth(mem); ++r) REQUIRE_FALSE(m->written(mem, r));
  CHECK(m->issues() == p.instrs.size());
}
