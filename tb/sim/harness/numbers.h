/// @file numbers.h
/// @brief A number on a harness's command line or in its run file: a
/// non-negative integer, decimal or hex after 0x, read whole (no sign, no
/// octal, nothing after it, nothing past 64 bits). The callers say what was
/// wrong in their own words.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tpusim::sim {

/// `v` in `base` (16 for hex words), or nothing when it is not a whole number that fits 64 bits.
inline std::optional<std::uint64_t> parse_digits(std::string_view v, int base) {
  std::uint64_t x = 0;
  const char* last = v.data() + v.size();
  const auto [end, ec] = std::from_chars(v.data(), last, x, base);
  if (v.empty() || ec != std::errc{} || end != last) return std::nullopt;
  return x;
}

/// `v` as a non-negative integer, decimal or 0x hex, or nothing.
inline std::optional<std::uint64_t> parse_u64(std::string_view v) {
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) return parse_digits(v.substr(2), 16);
  return parse_digits(v, 10);
}

}  // namespace tpusim::sim
