/// @file bits.h
/// @brief The one sign extension: the low `bits` bits of a value as a
/// two's complement integer (an immediate field, an element, a 32-bit result).
#pragma once

#include <cstdint>

namespace tpugen {

/// The low `bits` (1 .. 64) bits of `v`, sign-extended.
[[nodiscard]] constexpr std::int64_t sign_extend(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  v &= (sign << 1) - 1;
  return static_cast<std::int64_t>(v ^ sign) - static_cast<std::int64_t>(sign);
}

}  // namespace tpugen
