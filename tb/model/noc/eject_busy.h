/// @file eject_busy.h
/// @brief The random busy of the ejection ports: whether node n's local
/// output is not ready in cycle c, a pure function of (seed, n, c), so the
/// delivery model and the Verilator harness (which includes this header)
/// apply the same pattern without sharing any state.
#pragma once

#include <cstdint>

#include "util/rng.h"

namespace tpugen::noc {

/// The threshold for a busy probability p in 0 .. 1: busy when a draw is below it.
constexpr std::uint64_t busy_threshold(double p) {
  if (p <= 0.0) return 0;
  const double scaled = p * 18446744073709551616.0;  // p * 2^64
  if (p >= 1.0 || scaled >= 18446744073709551616.0) return ~std::uint64_t{0};  // a p just below 1 rounds to 2^64
  return static_cast<std::uint64_t>(scaled);
}

/// Is node `node`'s ejection port busy in `cycle`?
constexpr bool eject_busy(std::uint64_t seed, int node, std::uint64_t cycle, std::uint64_t threshold) {
  if (threshold == 0) return false;
  const std::uint64_t draw =
      splitmix64(splitmix64(seed ^ 0x656a656374ULL) ^ (static_cast<std::uint64_t>(node) << 40) ^ cycle);
  return draw < threshold;
}

}  // namespace tpugen::noc
