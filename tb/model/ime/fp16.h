/// @file fp16.h
/// @brief The 16-bit floating-point formats the IME reads, widened exactly
/// to binary32: IEEE binary16 (fp16) and bfloat16 (bf16, the high half of a
/// binary32). Every value of either is a binary32 value, so the widening
/// never rounds; infinities and NaNs stay what they are.
#pragma once

#include <bit>
#include <cstdint>

namespace tpugen::ime {

/// The binary32 value of fp16 bits `h` (subnormals, infinities, NaNs included).
inline float fp16_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000U) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1FU, frac = h & 0x3FFU;
  std::uint32_t bits = 0;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000U | (frac << 13);  // infinity or NaN, the payload kept
  } else if (exp != 0) {
    bits = sign | ((exp + 112U) << 23) | (frac << 13);  // rebias 15 -> 127
  } else if (frac != 0) {
    // A subnormal, frac x 2^-24: its leading one at bit l is 2^(l - 24),
    // a normal binary32 exponent, the bits below it the fraction.
    int l = 9;
    while (((frac >> l) & 1U) == 0) --l;
    bits = sign | (static_cast<std::uint32_t>(l + 103) << 23) | ((frac << (23 - l)) & 0x7FFFFFU);
  } else {
    bits = sign;  // a signed zero
  }
  return std::bit_cast<float>(bits);
}

/// The binary32 value of bf16 bits `b`.
inline float bf16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

}  // namespace tpugen::ime
