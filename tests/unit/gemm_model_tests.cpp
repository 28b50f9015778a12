// The shipped GEMM through the reference model, against a plain integer
// matmul with saturation: the model's own strictest test.
#include <catch2/catch.hpp>

#include <random>

#include "isa/check.h"
#include "isa/limits.h"
#include "model/core/gemm_job.h"
#include "model/core/model.h"
#include "model/core/operands.h"
#include "test_support.h"

using namespace tpugen;

namespace {

/// Run one shape with the given distribution; the whole of C must equal the
/// reference inside the result and the prefill outside it.
void check_shape(const Isa& isa, GemmShape s, bool relu, const std::string& dist, std::uint64_t seed,
                 bool split = false) {
  INFO("T=" << isa.param("T") << " MAXDIM=" << isa.param("MAXDIM") << " " << s.m << "x" << s.k << "x" << s.n
            << (relu ? " relu" : "") << " " << dist << " seed " << seed);
  const GemmJob job = test::random_gemm_job(isa, s, GemmOptions{relu, split}, dist, seed);
  const GemmOutcome out = run_gemm_model(isa, job);
  const Int8Matrix want = reference_gemm(job.a, job.b, relu);
  const std::string diff = compare_c(out.c_full, job.c_init, want);
  INFO(diff);
  CHECK(diff.empty());
}

/// `count` shapes, multiples of T up to MAXDIM, drawn from a fixed seed,
/// always including the smallest and the largest cube.
std::vector<GemmShape> sample_shapes(std::int64_t t, std::int64_t maxdim, int count, std::uint64_t seed) {
  std::vector<GemmShape> out{{t, t, t}, {maxdim, maxdim, maxdim}, {maxdim, t, t}, {t, maxdim, t}, {t, t, maxdim}};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> tiles(1, maxdim / t);
  while (static_cast<int>(out.size()) < count) out.push_back({tiles(rng) * t, tiles(rng) * t, tiles(rng) * t});
  return out;
}

const char* kDists[] = {"full", "corner", "mid", "boundary"};

/// 30 shapes of sample_shapes at T = t, MAXDIM = 64: shape i with relu when
/// i % 2 == relu_parity, the distributions in turn, seed seed_base + i.
void check_sampled_shapes(std::int64_t t, int relu_parity, std::uint64_t seed_base) {
  const Isa isa = test::isa_at({{"T", t}, {"MAXDIM", 64}});
  int i = 0;
  for (const auto& s : sample_shapes(t, 64, 30, static_cast<std::uint64_t>(t))) {
    check_shape(isa, s, i % 2 == relu_parity, kDists[i % 4], seed_base + static_cast<std::uint64_t>(i));
    ++i;
  }
}

}  // namespace

TEST_CASE("GEMM on the model equals clip(A @ B) at T=4, MAXDIM=64", "[model][gemm]") {
  check_sampled_shapes(4, /*relu_parity=*/1, 1000);
}

TEST_CASE("GEMM on the model equals clip(A @ B) at T=8, MAXDIM=64", "[model][gemm]") {
  check_sampled_shapes(8, /*relu_parity=*/0, 2000);
}

TEST_CASE("GEMM on the model at every shape of T=4, MAXDIM=16", "[model][gemm]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  int i = 0;
  for (std::int64_t m = 4; m <= 16; m += 4)
    for (std::int64_t k = 4; k <= 16; k += 4)
      for (std::int64_t n = 4; n <= 16; n += 4) {
        check_shape(isa, {m, k, n}, i % 3 == 0, kDists[i % 4], 3000 + static_cast<std::uint64_t>(i));
        ++i;
      }
}

TEST_CASE("the split operand load computes A @ B where the shipped layout cannot", "[model][gemm]") {
  const Isa isa(test::shipped_spec(), resolve_params(test::shipped_spec(), {{"T", 8}, {"MAXDIM", 128}}, nullptr));
  REQUIRE(check_params(test::shipped_spec(), isa.params()).empty());
  for (const GemmShape s : {GemmShape{32, 128, 128}, GemmShape{64, 128, 128}}) {
    const GemmLimits lim = gemm_limits(isa, s);
    CHECK_FALSE(lim.fits);
    CHECK(lim.split_fits);
    check_shape(isa, s, false, "full", 77, true);
  }
}

TEST_CASE("every program of the library passes every contract", "[programs][check]") {
  for (const ParamOverrides& o : {ParamOverrides{{"T", 4}, {"MAXDIM", 16}}, ParamOverrides{{"T", 4}, {"MAXDIM", 64}},
                                  ParamOverrides{{"T", 8}, {"MAXDIM", 64}}}) {
    const Isa isa = test::isa_at(o);
    const std::int64_t t = isa.param("T"), maxdim = isa.param("MAXDIM");
    INFO("T=" << t << " MAXDIM=" << maxdim);
    for (const auto& s : sample_shapes(t, maxdim, 12, 5))
      for (bool relu : {false, true}) {
        const CheckResult r = check_program(isa, gemm_program(isa, s, GemmOptions{relu, false}));
        INFO(r.report("gemm"));
        CHECK(r.ok());
      }
    for (const Program& p : {vadd_program(isa, {t, t, t}), vadd_program(isa, {maxdim, maxdim, maxdim}),
                             vector_program(isa), ar_distance_program(isa, isa.param("AR_RAW_DIST")),
                             ar_distance_program(isa, t)}) {
      const CheckResult r = check_program(isa, p);
      INFO(p.source << "\n" << r.report(p.source));
      CHECK(r.ok());
    }
    const CheckResult short_distance = check_program(isa, ar_distance_program(isa, isa.param("AR_RAW_DIST") - 1));
    REQUIRE_FALSE(short_distance.ok());
    CHECK(short_distance.violations.front().rule == "ar_raw_dist");
  }
}

TEST_CASE("vadd_program computes relu(2 * (A @ B)) on the first tile", "[model][programs]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const std::int64_t t = 4, maxdim = 16;
  const GemmShape s{16, 16, 16};
  std::mt19937_64 rng(9);
  const Int8Matrix a = random_matrix(maxdim, maxdim, OperandDist::Mid, rng);
  const Int8Matrix b = random_matrix(maxdim, maxdim, OperandDist::Mid, rng);
  Model model(isa);
  model.set_dram("A", a.data);
  model.set_dram("B", b.data);
  const Int8Matrix c0 = random_matrix(maxdim, maxdim, OperandDist::Full, rng);
  model.set_dram("C", c0.data);
  model.run(vadd_program(isa, s));
  CHECK(model.unwritten_reads().empty());
  const auto& c = model.dram("C");
  for (std::int64_t i = 0; i < maxdim; ++i)
    for (std::int64_t j = 0; j < maxdim; ++j) {
      std::int64_t want = c0.data[static_cast<std::size_t>(i * maxdim + j)];
      if (i < t && j < t) {
        std::int64_t sum = 0;
        for (std::int64_t k = 0; k < s.k; ++k)
          sum += std::int64_t{a.data[static_cast<std::size_t>(i * maxdim + k)]} * b.data[static_cast<std::size_t>(k * maxdim + j)];
        want = std::clamp<std::int64_t>(std::max<std::int64_t>(2 * sum, 0), -128, 127);
      }
      INFO("C[" << i << "][" << j << "]");
      CHECK(c[static_cast<std::size_t>(i * maxdim + j)] == want);
    }
}

TEST_CASE("vector_program reads nothing it did not write", "[model][programs]") {
  for (const ParamOverrides& o : {ParamOverrides{{"T", 4}, {"MAXDIM", 16}}, ParamOverrides{{"T", 8}, {"MAXDIM", 64}}}) {
    const Isa isa = test::isa_at(o);
    Model model(isa);
    std::mt19937_64 rng(3);
    const std::int64_t maxdim = isa.param("MAXDIM");
    for (const char* m : {"A", "B", "C"}) model.set_dram(m, random_matrix(maxdim, maxdim, OperandDist::Full, rng).data);
    const auto before = model.dram("C");
    model.run(vector_program(isa));
    CHECK(model.unwritten_reads().empty());
    CHECK(model.dram("C") != before);
  }
}
