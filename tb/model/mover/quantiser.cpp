#include "model/mover/quantiser.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "util/diag.h"

namespace tpugen::mover {

namespace {

// The formats of mover-notes §5 (not spec constants): FP16 elements, 7-bit
// slots, 8-bit scale fields with a 5-bit exponent and a 3-bit mantissa.
constexpr int kElemBits = 16;
constexpr int kSlotBits = 7;
constexpr int kFieldBits = 8;
constexpr int kFieldMantissaBits = 3;
constexpr int kFieldExponents = 32;  // the 5-bit exponent is (sexp + bias) mod 32
constexpr std::uint16_t kMagnitudeMask = 0x7FFF;
constexpr std::uint16_t kSignBit = 0x8000;
constexpr int kHiddenBit = 0x400;  // sig of a normal number is 0x400 | mantissa
constexpr int kMantissaMask = 0x3FF;
constexpr int kMantissaBits = 10;
// The scale rule: c = ceil(sig / 126), sexp = e - 21 (c <= 15) or e - 20 (c = 16, 17).
constexpr int kCeilDivisor = 126;
constexpr int kSexpOffset = 21;
constexpr int kSexpCarryOffset = 20;
// The element rule: t = sexp + 21 - e; t >= 8 is 0; x8 = (sig x R) >> 15; at most 63.
constexpr int kShiftLimit = 8;
constexpr int kReciprocalShift = 15;
constexpr int kCodeMax = 63;

/// Sets bits [lsb + width - 1 : lsb] of `word` to the low `width` bits of `value`.
void put_bits(MoverWord& word, int lsb, int width, std::uint32_t value) {
  for (int b = 0; b < width; ++b) {
    const int at = lsb + b;
    const auto mask = static_cast<std::uint8_t>(1U << (at % 8));
    auto& byte = word[static_cast<std::size_t>(at / 8)];
    byte = ((value >> b) & 1U) != 0 ? static_cast<std::uint8_t>(byte | mask) : static_cast<std::uint8_t>(byte & ~mask);
  }
}

/// Element i (bits [16i+15:16i]) of input word `word`.
std::uint16_t element_of(const MoverWord& word, int i) {
  const auto lo = static_cast<std::size_t>(2 * i);
  return static_cast<std::uint16_t>(word[lo] | (word[lo + 1] << 8));
}

/// R[m8], from the constants' table.
std::uint32_t reciprocal_of(const QuantiserConstants& c, int m8) {
  const auto it = c.reciprocal.find(m8);
  if (it == c.reciprocal.end()) {
    throw Error("mover.model",
                fmt::format("the quantiser's reciprocal table has no R[{}] (it needs m8 = 8 .. 15)", m8));
  }
  return it->second;
}

/// The model's fixed entry: lanes x lane_elems FP16 elements fill the 8 input
/// words exactly; each output word holds lane_elems / 4 elements of every lane
/// in 7-bit slots and one 8-bit scale field a lane. And R has every m8.
void check_constants(const QuantiserConstants& c) {
  const bool fits =
      c.lanes > 0 && c.lane_elems > 0 && c.lane_elems % (kWordBits / kElemBits) == 0 &&
      c.lane_elems % static_cast<int>(kQuantiserOutWords) == 0 &&
      c.lanes * c.lane_elems * kElemBits == static_cast<int>(kQuantiserInWords) * kWordBits &&
      c.lanes * (kFieldBits + c.lane_elems / static_cast<int>(kQuantiserOutWords) * kSlotBits) == kWordBits;
  if (!fits) {
    throw Error("mover.model", fmt::format("the quantiser model lays out 4 lanes of 32 elements (8 words in, 4 out); "
                                           "the constants give {} lane(s) of {}",
                                           c.lanes, c.lane_elems));
  }
  // Every m8 a lane can have (8 .. 15) has its R, whatever the data.
  for (int m8 = 8; m8 <= 15; ++m8) (void)reciprocal_of(c, m8);
}

/// The (lane, k) of slot j of output word w in the chosen packing.
struct SlotSource {
  int lane;
  int k;
};

SlotSource slot_source(const QuantiserConstants& c, int w, int j, bool b_packing) {
  const int per_word = c.lane_elems / static_cast<int>(kQuantiserOutWords);  // k = 8w .. 8w+7
  if (b_packing) return {j % c.lanes, per_word * w + j / c.lanes};           // B: (lane j mod 4, 8w + j div 4)
  return {j / per_word, per_word * w + j % per_word};                        // A: (lane j div 8, 8w + j mod 8)
}

}  // namespace

Fp16Magnitude decode_magnitude(std::uint16_t x) {
  const int field = (x & kMagnitudeMask) >> kMantissaBits;
  const int mantissa = x & kMantissaMask;
  if (field == 0) return {1, mantissa};
  return {field, kHiddenBit | mantissa};
}

std::uint16_t lane_peak(std::span<const std::uint16_t> lane) {
  std::uint16_t peak = 0;
  for (const std::uint16_t x : lane) peak = std::max(peak, static_cast<std::uint16_t>(x & kMagnitudeMask));
  return peak;
}

LaneScale lane_scale(const QuantiserConstants& c, std::uint16_t peak) {
  auto [e, sig] = decode_magnitude(peak);
  LaneScale s;
  if (sig != 0) {
    while (sig < kHiddenBit) {  // renormalise: while sig < 1024
      sig <<= 1;
      e -= 1;
    }
    const int ceil = (sig + kCeilDivisor - 1) / kCeilDivisor;  // c = ceil(sig / 126), 9 .. 17
    if (ceil <= 15) {
      s = {e - kSexpOffset, ceil};
    } else if (ceil == 16) {
      s = {e - kSexpCarryOffset, 8};
    } else {
      s = {e - kSexpCarryOffset, 9};
    }
  }
  s.sexp = std::clamp(s.sexp, c.sexp_min, c.sexp_max);
  return s;
}

std::uint8_t scale_field(const QuantiserConstants& c, LaneScale scale) {
  const int exponent = ((scale.sexp + c.scale_bias) % kFieldExponents + kFieldExponents) % kFieldExponents;
  return static_cast<std::uint8_t>((exponent << kFieldMantissaBits) | ((scale.m8 - 8) & 0x7));
}

std::uint8_t element_code(const QuantiserConstants& c, LaneScale scale, std::uint16_t x) {
  const auto [e, sig] = decode_magnitude(x);
  const int t = scale.sexp + kSexpOffset - e;
  int magnitude = 0;
  if (sig == 0 || t >= kShiftLimit) {
    magnitude = 0;
  } else if (t < 0) {
    magnitude = kCodeMax;
  } else {
    const std::uint64_t product = static_cast<std::uint64_t>(sig) * reciprocal_of(c, scale.m8);
    const auto x8 = static_cast<int>(((product >> kReciprocalShift) & 0xFFU) >> t);
    magnitude = std::min(kCodeMax, (x8 >> 1) + (x8 & 1));  // x8 is twice the code: round half up
  }
  const int code = (x & kSignBit) != 0 ? -magnitude : magnitude;
  return static_cast<std::uint8_t>(code & ((1 << kSlotBits) - 1));  // 7-bit two's complement
}

std::array<MoverWord, kQuantiserOutWords> quantise(const QuantiserConstants& c,
                                                   const std::array<MoverWord, kQuantiserInWords>& in, bool b_packing) {
  check_constants(c);
  const int elems_per_word = kWordBits / kElemBits;  // 16
  const int words_per_lane = c.lane_elems / elems_per_word;
  const auto lanes = static_cast<std::size_t>(c.lanes);
  // Word b carries lane b div 2; its element i is k = 16 (b mod 2) + i.
  std::vector<std::vector<std::uint16_t>> elements(lanes,
                                                   std::vector<std::uint16_t>(static_cast<std::size_t>(c.lane_elems)));
  for (int b = 0; b < static_cast<int>(kQuantiserInWords); ++b) {
    for (int i = 0; i < elems_per_word; ++i) {
      const int k = elems_per_word * (b % words_per_lane) + i;
      elements[static_cast<std::size_t>(b / words_per_lane)][static_cast<std::size_t>(k)] =
          element_of(in[static_cast<std::size_t>(b)], i);
    }
  }
  std::vector<std::vector<std::uint8_t>> codes(lanes);
  std::vector<std::uint8_t> fields(lanes);
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    const LaneScale scale = lane_scale(c, lane_peak(elements[lane]));
    fields[lane] = scale_field(c, scale);
    for (const std::uint16_t x : elements[lane]) codes[lane].push_back(element_code(c, scale, x));
  }
  std::array<MoverWord, kQuantiserOutWords> out{};
  const int slots = c.lanes * (c.lane_elems / static_cast<int>(kQuantiserOutWords));  // 32
  for (int w = 0; w < static_cast<int>(kQuantiserOutWords); ++w) {
    auto& word = out[static_cast<std::size_t>(w)];
    for (int j = 0; j < slots; ++j) {  // slot j at bits [255-7j : 249-7j]
      const SlotSource from = slot_source(c, w, j, b_packing);
      put_bits(word, kWordBits - kSlotBits * (j + 1), kSlotBits,
               codes[static_cast<std::size_t>(from.lane)][static_cast<std::size_t>(from.k)]);
    }
    for (int lane = 0; lane < c.lanes; ++lane) {  // lane 0 at [31:24] .. lane 3 at [7:0]
      put_bits(word, kFieldBits * (c.lanes - 1 - lane), kFieldBits, fields[static_cast<std::size_t>(lane)]);
    }
  }
  return out;
}

}  // namespace tpugen::mover
