/// @file quantiser.h
/// @brief The quantiser occupant of XFORM (id 1, mover-notes §5): FP16 to
/// 7-bit integers with an E5M3 scale per 32-element lane. An entry is 8
/// words in (4 lanes of 32 FP16 elements) and 4 words out (32 seven-bit
/// slots and the four scale fields in each). The constants (the reciprocal
/// table R, the clamp of the scale exponent, the scale field's bias, the lane
/// shape) are passed in, as the spec (spec/system_node.yaml) gives them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>

#include "model/mover/word.h"

namespace tpugen::mover {

/// The quantiser's constants. The model lays out 4 lanes of 32 elements (8
/// words in, 4 out); other shapes are refused.
struct QuantiserConstants {
  std::map<int, std::uint32_t> reciprocal;  ///< R[m8] for m8 = 8 .. 15: {8: 4096, 9: 3641, ..., 15: 2185}
  int sexp_min = -20;                       ///< the clamp of the scale exponent sexp
  int sexp_max = 11;
  int scale_bias = 20;  ///< the scale field's exponent is (sexp + scale_bias) mod 32
  int lanes = 4;        ///< lanes of an entry
  int lane_elems = 32;  ///< FP16 elements of a lane
};

/// Words of one quantiser entry in and out.
inline constexpr std::size_t kQuantiserInWords = 8;
inline constexpr std::size_t kQuantiserOutWords = 4;

/// A decoded FP16 magnitude (bits [14:0]): exponent field 0 gives (e = 1,
/// sig = mantissa), any other field (e = field, sig = 0x400 | mantissa), so
/// the magnitude is sig x 2^(e - 25). Inf and NaN are exponent-31 numbers.
struct Fp16Magnitude {
  int e = 0;
  int sig = 0;
};
[[nodiscard]] Fp16Magnitude decode_magnitude(std::uint16_t x);

/// A lane's scale: its value is 2^sexp x m8 / 8 (m8 = 8 .. 15).
struct LaneScale {
  int sexp = 0;
  int m8 = 8;
  bool operator==(const LaneScale&) const = default;
};

/// The peak of a lane: the largest of bits [14:0] (unsigned) over its elements.
[[nodiscard]] std::uint16_t lane_peak(std::span<const std::uint16_t> lane);

/// The scale of a lane whose peak is `peak` (bits [14:0]; bit 15 is ignored):
/// (0, 8) for a zero peak; else, renormalised (sig < 1024: sig <<= 1, e -= 1)
/// and c = ceil(sig / 126): c <= 15 gives (e - 21, c), c = 16 (e - 20, 8),
/// c = 17 (e - 20, 9); sexp clamped to [sexp_min, sexp_max].
[[nodiscard]] LaneScale lane_scale(const QuantiserConstants& c, std::uint16_t peak);

/// The 8-bit scale field {(sexp + scale_bias) mod 32, m8 - 8}: bits [7:3] E,
/// bits [2:0] M; its value is 2^(E - 20) x (1 + M / 8).
[[nodiscard]] std::uint8_t scale_field(const QuantiserConstants& c, LaneScale scale);

/// The 7-bit code (bits [6:0], two's complement -63 .. 63) of FP16 element `x`
/// in a lane of scale `scale`: t = sexp + 21 - e; 0 when sig = 0 or t >= 8;
/// magnitude 63 when t < 0; else x8 = ((sig x R[m8]) >> 15) mod 256 >> t and
/// magnitude min(63, (x8 >> 1) + (x8 & 1)); then x's sign.
/// Throws Error("mover.model") when R has no entry for m8.
[[nodiscard]] std::uint8_t element_code(const QuantiserConstants& c, LaneScale scale, std::uint16_t x);

/// One entry: 8 input words -> 4 output words. Input word b carries lane
/// b div 2, its 16-bit element i being k = 16 (b mod 2) + i of that lane.
/// Output word w holds k = 8w .. 8w+7 of every lane: slot j (0 .. 31) at
/// bits [255-7j : 249-7j], (lane j div 8, k = 8w + j mod 8) in the A packing,
/// (lane j mod 4, k = 8w + j div 4) in the B packing (`b_packing`, XFORM_MODE
/// bit 0); bits [31:0] the four scale fields, lane 0 at [31:24] .. lane 3 at
/// [7:0]. Throws Error("mover.model") for a lane shape other than 4 x 32 or
/// a reciprocal table without all of R[8] .. R[15], whatever the entry holds.
[[nodiscard]] std::array<MoverWord, kQuantiserOutWords> quantise(const QuantiserConstants& c,
                                                                 const std::array<MoverWord, kQuantiserInWords>& in,
                                                                 bool b_packing);

}  // namespace tpugen::mover
