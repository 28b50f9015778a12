/// @file bits.h
/// @brief Bit fields of a word: the mask of the low `width` bits, and the one
/// sign extension (the low `bits` bits of a value as a two's complement
/// integer: an immediate field, an element, a 32-bit result).
#pragma once

#include <cstdint>

namespace tpugen {

/// The mask of the low `width` (0 .. 64) bits: all ones at 64 and past.
[[nodiscard]] constexpr std::uint64_t low_mask(int width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

/// The low `bits` (1 .. 64) bits of `v`, sign-extended.
[[nodiscard]] constexpr std::int64_t sign_extend(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  v &= low_mask(bits);
  return static_cast<std::int64_t>(v ^ sign) - static_cast<std::int64_t>(sign);
}

}  // namespace tpugen
