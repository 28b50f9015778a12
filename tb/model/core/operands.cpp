#include "model/core/operands.h"

#include <fmt/format.h>

#include <algorithm>

#include "util/diag.h"
#include "util/enum_names.h"

namespace tpugen {

namespace {
constexpr EnumName<OperandDist> kDists[] = {
    {OperandDist::Full, "full"}, {OperandDist::Corner, "corner"}, {OperandDist::Mid, "mid"}};
}  // namespace

OperandDist parse_operand_dist(const std::string& name) {
  if (const auto d = enum_value(kDists, name)) return *d;
  throw Error("run.dist", fmt::format("unknown operand distribution '{}' (full, corner, mid)", name));
}

std::string to_string(OperandDist d) { return std::string(enum_name(kDists, d)); }

Int8Matrix random_matrix(std::int64_t rows, std::int64_t cols, OperandDist dist, std::mt19937_64& rng) {
  Int8Matrix m{rows, cols, std::vector<std::int8_t>(static_cast<std::size_t>(rows * cols))};
  static constexpr std::int8_t kCorner[] = {-128, -127, -1, 0, 1, 126, 127};
  std::uniform_int_distribution<int> full(-128, 127), mid(-16, 16), corner(0, 6);
  for (auto& v : m.data) {
    switch (dist) {
      case OperandDist::Full: v = static_cast<std::int8_t>(full(rng)); break;
      case OperandDist::Corner: v = kCorner[corner(rng)]; break;
      case OperandDist::Mid: v = static_cast<std::int8_t>(mid(rng)); break;
    }
  }
  if (dist == OperandDist::Full && m.data.size() >= 2) {
    std::uniform_int_distribution<std::size_t> pos(0, m.data.size() - 1);
    const std::size_t lo = pos(rng);
    std::size_t hi = pos(rng);
    if (hi == lo) hi = (lo + 1) % m.data.size();
    m.data[lo] = -128;
    m.data[hi] = 127;
  }
  return m;
}

Int8Matrix reference_gemm(const Int8Matrix& a, const Int8Matrix& b, bool relu) {
  if (a.cols != b.rows)
    throw Error("run.shape", fmt::format("A is {}x{} and B is {}x{}: the inner dimensions differ", a.rows, a.cols, b.rows, b.cols));
  Int8Matrix c{a.rows, b.cols, std::vector<std::int8_t>(static_cast<std::size_t>(a.rows * b.cols))};
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < b.cols; ++j) {
      std::int64_t s = 0;
      for (std::int64_t k = 0; k < a.cols; ++k)
        s += std::int64_t{a.data[static_cast<std::size_t>(i * a.cols + k)]} * b.data[static_cast<std::size_t>(k * b.cols + j)];
      s = static_cast<std::int32_t>(static_cast<std::uint32_t>(s));  // the accumulator wraps at 32 bits
      if (relu) s = std::max<std::int64_t>(s, 0);
      c.data[static_cast<std::size_t>(i * b.cols + j)] = static_cast<std::int8_t>(std::clamp<std::int64_t>(s, -128, 127));
    }
  return c;
}

void boundary_operands(std::int64_t m, std::int64_t k, std::int64_t n, std::mt19937_64& rng, Int8Matrix& a,
                       Int8Matrix& b) {
  // A is ones in column 0 and a per-row offset in {-1, 0, 1} in column 1;
  // B's row 0 carries a base in {127, -128}, row 1 ones. Then C[i][j] =
  // B[0][j] + A[i][1], which covers 127, 128, -128 and -129 (and 126, -127).
  a = Int8Matrix{m, k, std::vector<std::int8_t>(static_cast<std::size_t>(m * k), 0)};
  b = Int8Matrix{k, n, std::vector<std::int8_t>(static_cast<std::size_t>(k * n), 0)};
  std::uniform_int_distribution<int> pick(0, 1), offset(-1, 1);
  for (std::int64_t i = 0; i < m; ++i) {
    a.data[static_cast<std::size_t>(i * k)] = 1;
    if (k > 1) a.data[static_cast<std::size_t>(i * k + 1)] = static_cast<std::int8_t>(offset(rng));
  }
  for (std::int64_t j = 0; j < n; ++j) {
    b.data[static_cast<std::size_t>(j)] = static_cast<std::int8_t>(pick(rng) ? 127 : -128);
    if (k > 1) b.data[static_cast<std::size_t>(n + j)] = 1;
  }
}

}  // namespace tpugen
