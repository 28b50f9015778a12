/// @file rng.h
/// @brief A seeded random source whose every draw is defined here, so a
/// fuzz case or a NoC traffic pattern is the same on every standard library.
///
/// std::mt19937_64's output sequence is fixed by the C++ standard, but the
/// standard distributions (uniform_int_distribution and friends) are not:
/// libstdc++ and libc++ turn the same engine output into different numbers.
/// Every helper below maps engine words to values by a rule written here
/// (rejection sampling for ranges), so (seed -> case) is portable.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace tpugen {

class Rng {
 public:
  /// The engine is seeded with splitmix64(seed), so neighbouring seeds start far apart.
  explicit Rng(std::uint64_t seed);

  /// The next raw 64-bit engine word.
  std::uint64_t next() { return engine_(); }
  /// Uniform over lo .. hi inclusive (lo <= hi), unbiased (rejection sampling).
  std::int64_t uniform(std::int64_t lo, std::int64_t hi);
  /// True with probability num / den (0 < den).
  bool chance(std::uint64_t num, std::uint64_t den);
  /// An index drawn with the given non-negative weights (not all zero).
  std::size_t weighted(std::span<const std::uint64_t> weights);
  /// Uniform over lo .. hi, but lo and hi each come up one time in `edge_den`
  /// more often: the edges of a range are where hardware goes wrong.
  std::int64_t edgy(std::int64_t lo, std::int64_t hi, std::uint64_t edge_den = 8);
  /// Biased towards small values: a bit length uniform over 0 .. bits(hi - lo),
  /// then a value of that length, clamped into lo .. hi.
  std::int64_t small(std::int64_t lo, std::int64_t hi);

  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(items.size()) - 1))];
  }
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(i) - 1));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

/// splitmix64: a bijective 64-bit mix (Steele, Lea, Flood 2014), used to
/// derive independent seeds from one. Inline, so that a Verilator harness can
/// draw the same stateless numbers as the models (tb/model/noc/eject_busy.h).
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace tpugen
