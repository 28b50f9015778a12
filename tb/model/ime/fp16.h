/// @file fp16.h
/// @brief The 16-bit floating-point formats the IME reads and writes: IEEE
/// binary16 (fp16) and bfloat16 (bf16, the high half of a binary32). Widening
/// to binary32 is exact (every value of either is a binary32 value;
/// infinities and NaNs stay what they are); rounding a double to either is
/// to nearest, ties to even, with subnormals, overflow to infinity and the
/// canonical NaN (fp16 0x7E00, bf16 0x7FC0).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
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

/// `x` rounded to nearest even in a binary format of `frac_bits` fraction
/// bits and `exp_bits` exponent bits: its 1 + exp_bits + frac_bits bits.
inline std::uint32_t round_to_binary(double x, int frac_bits, int exp_bits) {
  const std::uint32_t sign = std::signbit(x) ? 1U << (exp_bits + frac_bits) : 0U;
  const std::uint32_t exp_all = (1U << exp_bits) - 1U;
  if (std::isnan(x)) return (exp_all << frac_bits) | (1U << (frac_bits - 1));  // canonical: positive, quiet
  if (std::isinf(x)) return sign | (exp_all << frac_bits);
  if (x == 0.0) return sign;
  const int bias = (1 << (exp_bits - 1)) - 1, emin = 1 - bias;
  int e = 0;
  (void)std::frexp(x, &e);  // |x| = m x 2^e, m in [0.5, 1): its exponent is e - 1
  const int quantum = std::max(e - 1, emin) - frac_bits;
  // |x| / 2^quantum rounded to an integer, ties to even (the default mode).
  const double n = std::nearbyint(std::ldexp(std::fabs(x), -quantum));
  const auto units = static_cast<std::uint64_t>(n);                              // at most 2^(frac_bits + 1)
  if (units >> frac_bits == 0) return sign | static_cast<std::uint32_t>(units);  // a subnormal (or the first normal)
  // A normal: units in [2^frac_bits, 2^(frac_bits + 1)], the top one a carry.
  int exponent = quantum + frac_bits;
  std::uint64_t m = units;
  if (m >> (frac_bits + 1) != 0) {
    m >>= 1;
    ++exponent;
  }
  if (exponent > bias) return sign | (exp_all << frac_bits);  // overflow
  return sign | (static_cast<std::uint32_t>(exponent + bias) << frac_bits) |
         static_cast<std::uint32_t>(m & ((1U << frac_bits) - 1U));
}

inline std::uint16_t round_to_fp16(double x) { return static_cast<std::uint16_t>(round_to_binary(x, 10, 5)); }
inline std::uint16_t round_to_bf16(double x) { return static_cast<std::uint16_t>(round_to_binary(x, 7, 8)); }

}  // namespace tpugen::ime
