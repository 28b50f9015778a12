#include "util/rng.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tpugen {

Rng::Rng(std::uint64_t seed) : engine_(splitmix64(seed)) {}

std::int64_t Rng::uniform(std::int64_t lo, std::int64_t hi) {
  if (hi < lo) throw std::invalid_argument("Rng::uniform: empty range");
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == ~std::uint64_t{0}) return static_cast<std::int64_t>(next());
  const std::uint64_t n = span + 1;
  // Accept words below the largest multiple of n, so every value is equally likely.
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n + 1) % n;
  std::uint64_t w = next();
  while (w > limit) w = next();
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + w % n);
}

bool Rng::chance(std::uint64_t num, std::uint64_t den) {
  if (den == 0) throw std::invalid_argument("Rng::chance: zero denominator");
  return static_cast<std::uint64_t>(uniform(0, static_cast<std::int64_t>(den) - 1)) < num;
}

std::size_t Rng::weighted(std::span<const std::uint64_t> weights) {
  std::uint64_t total = 0;
  for (std::uint64_t w : weights) total += w;
  if (total == 0) throw std::invalid_argument("Rng::weighted: all weights are zero");
  auto x = static_cast<std::uint64_t>(uniform(0, static_cast<std::int64_t>(total) - 1));
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  return weights.size() - 1;
}

std::int64_t Rng::edgy(std::int64_t lo, std::int64_t hi, std::uint64_t edge_den) {
  if (lo < hi && chance(2, edge_den)) return chance(1, 2) ? lo : hi;
  return uniform(lo, hi);
}

std::int64_t Rng::small(std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  const auto span = static_cast<std::uint64_t>(hi - lo);
  const int bits = static_cast<int>(std::bit_width(span));
  const auto b = uniform(0, bits);
  if (b == 0) return lo;
  const std::int64_t top = std::int64_t{1} << (b - 1);
  const std::int64_t v = uniform(top, std::min<std::int64_t>(2 * top - 1, hi - lo));
  return lo + std::min<std::int64_t>(v, hi - lo);
}

}  // namespace tpugen
