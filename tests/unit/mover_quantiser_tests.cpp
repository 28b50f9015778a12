// tb/model/mover: the quantiser occupant of XFORM (mover-notes §5), FP16 to
// int7 with an E5M3 scale per 32-element lane: the worked example, the scale
// and element rules by hand, both packings, and a naive second implementation
// written from the contract text compared bit for bit on random entries.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>

#include "model/ime/fp16.h"
#include "model/mover/quantiser.h"
#include "util/diag.h"

using namespace tpugen;
using namespace tpugen::mover;

namespace {

using Entry = std::array<MoverWord, 8>;
using Output = std::array<MoverWord, 4>;

/// The contract's constants (the spec's values; the tests construct them).
QuantiserConstants contract() {
  QuantiserConstants c;
  c.reciprocal = {{8, 4096}, {9, 3641}, {10, 3277}, {11, 2979}, {12, 2731}, {13, 2520}, {14, 2341}, {15, 2185}};
  return c;
}

std::uint16_t fp16(double v) { return ime::round_to_fp16(v); }

/// Element k of `lane`: word 2 lane + k div 16, bits [16i+15:16i] with i = k mod 16.
void set_element(Entry& in, int lane, int k, std::uint16_t x) {
  auto& word = in[static_cast<std::size_t>(2 * lane + k / 16)];
  word[static_cast<std::size_t>(2 * (k % 16))] = static_cast<std::uint8_t>(x & 0xFF);
  word[static_cast<std::size_t>(2 * (k % 16) + 1)] = static_cast<std::uint8_t>(x >> 8);
}

int bit_of(const MoverWord& w, int n) { return (w[static_cast<std::size_t>(n / 8)] >> (n % 8)) & 1; }

/// Slot j (0 .. 31) of an output word: bits [255-7j : 249-7j].
int slot(const MoverWord& w, int j) {
  int v = 0;
  for (int b = 0; b < 7; ++b) v |= bit_of(w, 249 - 7 * j + b) << b;
  return v;
}

/// Bits [31:0] of a word.
std::uint32_t low32(const MoverWord& w) {
  std::uint32_t v = 0;
  for (int n = 0; n < 32; ++n) v |= static_cast<std::uint32_t>(bit_of(w, n)) << n;
  return v;
}

/// A 7-bit code as the integer it stands for (-64 .. 63).
int signed_code(int code) { return code >= 64 ? code - 128 : code; }

/// The real value of FP16 magnitude bits [14:0], exponent 31 as a number:
/// field 0 is mantissa x 2^-24, else (1024 + mantissa) x 2^(field - 25).
double magnitude_value(std::uint16_t x) {
  const int field = (x >> 10) & 31, mantissa = x & 0x3FF;
  return field == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, field - 25);
}

/// The value of an 8-bit scale field {E, M}: 2^(E - 20) x (1 + M / 8).
double field_value(int field) { return std::ldexp(1.0 + (field & 7) / 8.0, (field >> 3) - 20); }

// ---- A second implementation, deliberately naive, from mover-notes §5's text
// with its own numbers: per element, per slot, every output bit placed from
// the slot formula.
namespace naive {

const std::array<int, 16> kR{0, 0, 0, 0, 0, 0, 0, 0, 4096, 3641, 3277, 2979, 2731, 2520, 2341, 2185};

struct Scale {
  int sexp;
  int m8;
  int c;         // ceil(sig / 126) of the renormalised peak; 0 for a zero peak
  int peak_exp;  // the peak's exponent field
  bool clamped;
};

/// "word b carries lane b div 2; its 16-bit element i is k = 16 (b mod 2) + i":
/// the element's 16 bits read one at a time.
int element(const Entry& in, int lane, int k) {
  for (int b = 0; b < 8; ++b) {
    for (int i = 0; i < 16; ++i) {
      if (b / 2 != lane || 16 * (b % 2) + i != k) continue;
      int v = 0;
      for (int bit = 0; bit < 16; ++bit) v += bit_of(in[static_cast<std::size_t>(b)], 16 * i + bit) << bit;
      return v;
    }
  }
  return -1;
}

Scale scale(const Entry& in, int lane) {
  int peak = 0;
  for (int k = 0; k < 32; ++k) peak = std::max(peak, element(in, lane, k) % 32768);  // bits [14:0]
  int e = peak / 1024 == 0 ? 1 : peak / 1024;
  int sig = peak / 1024 == 0 ? peak % 1024 : 1024 + peak % 1024;
  if (sig == 0) return {0, 8, 0, peak / 1024, false};
  while (sig < 1024) {
    sig = sig * 2;
    e = e - 1;
  }
  int c = 0;
  while (126 * c < sig) ++c;  // the least c with 126 c >= sig
  int sexp = 0, m8 = 0;
  if (c <= 15) {
    sexp = e - 21;
    m8 = c;
  } else if (c == 16) {
    sexp = e - 20;
    m8 = 8;
  } else {  // c == 17
    sexp = e - 20;
    m8 = 9;
  }
  const bool clamped = sexp < -20 || sexp > 11;
  if (sexp < -20) sexp = -20;
  if (sexp > 11) sexp = 11;
  return {sexp, m8, c, peak / 1024, clamped};
}

int field(const Scale& s) { return (((s.sexp + 20) % 32 + 32) % 32) * 8 + (s.m8 - 8); }

int code(int x, const Scale& s) {
  const int bits = x % 32768;
  const int e = bits / 1024 == 0 ? 1 : bits / 1024;
  const int sig = bits / 1024 == 0 ? bits % 1024 : 1024 + bits % 1024;
  const int t = s.sexp + 21 - e;
  int magnitude = 0;
  if (sig == 0 || t >= 8) {
    magnitude = 0;
  } else if (t < 0) {
    magnitude = 63;
  } else {
    const long long x8 = (((static_cast<long long>(sig) * kR[static_cast<std::size_t>(s.m8)]) >> 15) % 256) >> t;
    magnitude = static_cast<int>(std::min(63LL, x8 / 2 + x8 % 2));
  }
  const int value = x >= 32768 ? -magnitude : magnitude;
  return (value + 128) % 128;
}

Output quantise(const Entry& in, bool b_packing) {
  // Each lane's scale and each element's code, once.
  std::array<Scale, 4> scales{};
  std::array<std::array<int, 32>, 4> codes{};
  for (int lane = 0; lane < 4; ++lane) {
    scales[static_cast<std::size_t>(lane)] = scale(in, lane);
    for (int k = 0; k < 32; ++k) {
      codes[static_cast<std::size_t>(lane)][static_cast<std::size_t>(k)] =
          code(element(in, lane, k), scales[static_cast<std::size_t>(lane)]);
    }
  }
  Output out{};
  for (int w = 0; w < 4; ++w) {
    for (int p = 0; p < 256; ++p) {
      int bit = 0;
      if (p < 32) {  // bits [31:0]: lane 0's field at [31:24] .. lane 3's at [7:0]
        const int lane = 3 - p / 8;
        bit = (field(scales[static_cast<std::size_t>(lane)]) >> (p % 8)) & 1;
      } else {  // slot j at [255-7j : 249-7j], its bit 6 at 255-7j
        const int from_top = 255 - p;
        const int j = from_top / 7, slot_bit = 6 - from_top % 7;
        const int lane = b_packing ? j % 4 : j / 8;
        const int k = b_packing ? 8 * w + j / 4 : 8 * w + j % 8;
        bit = (codes[static_cast<std::size_t>(lane)][static_cast<std::size_t>(k)] >> slot_bit) & 1;
      }
      out[static_cast<std::size_t>(w)][static_cast<std::size_t>(p / 8)] = static_cast<std::uint8_t>(
          out[static_cast<std::size_t>(w)][static_cast<std::size_t>(p / 8)] | (bit << (p % 8)));
    }
  }
  return out;
}

}  // namespace naive

// ---- Random entries: every exponent as a lane's peak, zeros of both signs,
// subnormals, Inf, NaN.
const std::array<std::uint16_t, 18> kSpecials{0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x3C00, 0xBC00,
                                              0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7FFF, 0xFFFF};

std::uint16_t random_element(std::mt19937_64& rng, int max_field) {
  const auto field = static_cast<std::uint16_t>(rng() % static_cast<std::uint64_t>(max_field + 1));
  const auto mantissa = static_cast<std::uint16_t>(rng() % 1024);
  const auto sign = static_cast<std::uint16_t>(rng() % 2 == 0 ? 0 : 0x8000);
  return static_cast<std::uint16_t>(sign | (field << 10) | mantissa);
}

Entry random_entry(std::mt19937_64& rng) {
  Entry in{};
  for (int lane = 0; lane < 4; ++lane) {
    const auto kind = rng() % 8;
    const int max_field = static_cast<int>(rng() % 32);
    for (int k = 0; k < 32; ++k) {
      std::uint16_t x = 0;
      if (kind == 0) {
        x = static_cast<std::uint16_t>(rng() % 2 == 0 ? 0x0000 : 0x8000);  // a zero lane, both signs
      } else if (kind == 1) {
        x = static_cast<std::uint16_t>(rng());  // any 16 bits
      } else if (kind == 2) {
        x = kSpecials[rng() % kSpecials.size()];
      } else {
        x = random_element(rng, max_field);  // exponents up to the lane's
        if (rng() % 8 == 0) x = static_cast<std::uint16_t>(x & 0x8000);
      }
      set_element(in, lane, k, x);
    }
  }
  return in;
}

/// The entry of the packing test: lane L, element k (w = k div 8) is the
/// integer +-(1 + L + 4 (k mod 8) + 31 (w div 2)), negative for odd w, so
/// the 32 slots of a word are 32 different codes. Each lane peaks at
/// +-(60 + L), so every scale is 1.0 (field 0xA0) and every code the integer.
int packing_value(int lane, int k) {
  const int w = k / 8;
  const int magnitude = 1 + lane + 4 * (k % 8) + 31 * (w / 2);
  return w % 2 == 1 ? -magnitude : magnitude;
}

}  // namespace

TEST_CASE("mover: quantiser worked example", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  // 32 x +1.0 -> scale field 0x71, every element 57.
  const LaneScale one = lane_scale(c, 0x3C00);
  CHECK(one == LaneScale{-6, 9});
  CHECK(scale_field(c, one) == 0x71);
  CHECK(element_code(c, one, 0x3C00) == 57);
  // An all-zero lane -> field 0xA0; a lane peaking at 65504 -> 0xF1, 65504 -> 57.
  CHECK(scale_field(c, lane_scale(c, 0)) == 0xA0);
  const LaneScale big = lane_scale(c, 0x7BFF);
  CHECK(scale_field(c, big) == 0xF1);
  CHECK(element_code(c, big, 0x7BFF) == 57);
  // The same through a whole entry: lane 0 all +1.0, lane 1 zeros, lane 2
  // 65504 and 1.0s (1.0 is 0 at that scale), lane 3 the integers 0 .. 31
  // (peak 31: scale 0.5, field 0x98, element k -> 2k).
  Entry in{};
  for (int k = 0; k < 32; ++k) {
    set_element(in, 0, k, 0x3C00);
    set_element(in, 2, k, k == 5 ? 0x7BFF : 0x3C00);
    set_element(in, 3, k, fp16(k));
  }
  for (const bool b : {false, true}) {
    INFO((b ? "B" : "A") << " packing");
    const Output out = quantise(c, in, b);
    for (int w = 0; w < 4; ++w) {
      for (int j = 0; j < 32; ++j) {
        const int lane = b ? j % 4 : j / 8;
        const int k = b ? 8 * w + j / 4 : 8 * w + j % 8;
        const int want = lane == 0 ? 57 : lane == 1 ? 0 : lane == 2 ? (k == 5 ? 57 : 0) : 2 * k;
        INFO("word " << w << " slot " << j);
        CHECK(slot(out[static_cast<std::size_t>(w)], j) == want);
      }
    }
  }
}

TEST_CASE("mover: quantiser scale rule by hand", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  struct Case {
    std::uint16_t peak;
    LaneScale scale;
    int field;
    const char* what;
  };
  const std::array<Case, 15> cases{{
      {0x0000, {0, 8}, 0xA0, "zero"},
      {0x3C00, {-6, 9}, 0x71, "1.0: sig 1024, c 9"},
      {0x3E00, {-6, 13}, 0x75, "1.5: sig 1536, c 13"},
      {0x5360, {-1, 15}, 0x9F, "59: sig 1888, c 15"},
      {0x53E0, {0, 8}, 0xA0, "63: sig 2016, c 16: e - 20, m8 8"},
      {0x4FE0, {-1, 8}, 0x98, "31.5: c 16"},
      {0x53F8, {0, 9}, 0xA1, "63.75: sig 2040, c 17: e - 20, m8 9"},
      {0x7BFF, {10, 9}, 0xF1, "65504: c 17"},
      {0x7C00, {10, 9}, 0xF1, "Inf: an exponent-31 number, sig 1024"},
      {0x7FFF, {11, 9}, 0xF9, "NaN 0x7FFF: exponent 31, sig 2047"},
      {0x0001, {-20, 9}, 0x01, "smallest subnormal: renormalised to e -9, clamped"},
      {0x0200, {-20, 9}, 0x01, "subnormal 2^-15: e 0, sexp -21, clamped"},
      {0x03FF, {-20, 9}, 0x01, "largest subnormal: sig 2046, c 17, e - 20 = -20"},
      {0x0400, {-20, 9}, 0x01, "smallest normal"},
      {0x0500, {-20, 11}, 0x03, "e 1, sig 1280, c 11"},
  }};
  for (const Case& k : cases) {
    INFO(k.what);
    CHECK(lane_scale(c, k.peak) == k.scale);
    CHECK(scale_field(c, k.scale) == k.field);
    CHECK(lane_scale(c, static_cast<std::uint16_t>(k.peak | 0x8000)) == k.scale);  // bit 15 is not the magnitude
  }
  // The peak is the largest of bits [14:0], signs ignored, Inf and NaN included.
  const std::array<std::uint16_t, 4> lane{0x3C00, 0xFBFF, 0x4000, 0x8001};
  CHECK(lane_peak(lane) == 0x7BFF);
  const std::array<std::uint16_t, 3> with_nan{0x7C00, 0xFE00, 0x3C00};
  CHECK(lane_peak(with_nan) == 0x7E00);
  // The clamp, the bias and R are the constants passed in.
  QuantiserConstants bias21 = contract();
  bias21.scale_bias = 21;
  CHECK(scale_field(bias21, lane_scale(bias21, 0x3C00)) == 0x79);
  QuantiserConstants narrow = contract();
  narrow.sexp_min = -5;
  narrow.sexp_max = 5;
  CHECK(lane_scale(narrow, 0x3C00) == LaneScale{-5, 9});
  CHECK(lane_scale(narrow, 0x7BFF) == LaneScale{5, 9});
  CHECK(scale_field(narrow, LaneScale{5, 9}) == 0xC9);
  // The field's exponent is (sexp + bias) mod 32: unclamped, -30 + 20 wraps to 22.
  QuantiserConstants wide = contract();
  wide.sexp_min = -30;
  CHECK(lane_scale(wide, 0x0001) == LaneScale{-30, 9});
  CHECK(scale_field(wide, LaneScale{-30, 9}) == 0xB1);
}

TEST_CASE("mover: quantiser element codes round half up and saturate at 63", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  const LaneScale unit{0, 8};  // scale 1.0: the code of an integer is the integer
  struct Case {
    double x;
    int code;
  };
  for (const Case& k : std::array<Case, 14>{{{0.0, 0},
                                             {0.25, 0},
                                             {0.375, 0},
                                             {0.5, 1},
                                             {0.75, 1},
                                             {1.5, 2},
                                             {2.5, 3},
                                             {17.0, 17},
                                             {62.5, 63},
                                             {63.0, 63},
                                             {63.75, 63},  // x8 = 127: min(63, 64)
                                             {1.0 / 1024, 0},
                                             {std::ldexp(1.0, -24), 0},
                                             {std::ldexp(1023.0, -24), 0}}}) {
    INFO("x = " << k.x);
    CHECK(element_code(c, unit, fp16(k.x)) == k.code);
  }
  // 1.0 at 2^-10: t = -10 + 21 - 15 < 0 -> magnitude 63; at 2^10, t >= 8 -> 0.
  CHECK(element_code(c, LaneScale{-10, 8}, 0x3C00) == 63);
  CHECK(element_code(c, LaneScale{-10, 8}, 0xBC00) == 0x41);
  CHECK(element_code(c, LaneScale{10, 8}, 0x3C00) == 0);
  // R[13] is 2520 as listed: 0x3C03 (sig 1027) at 1.5's scale is x8 = 78 -> 39;
  // with 2521 it would be 79 -> 40.
  CHECK(element_code(c, LaneScale{-6, 13}, 0x3C03) == 39);
  QuantiserConstants r2521 = contract();
  r2521.reciprocal[13] = 2521;
  CHECK(element_code(r2521, LaneScale{-6, 13}, 0x3C03) == 40);
  // A NaN element is an exponent-31 number with its sign: 0xFE00 at (11, 9):
  // t = 1, x8 = (1536 x 3641) >> 15 >> 1 = 85, magnitude 43, code -43.
  CHECK(element_code(c, LaneScale{11, 9}, 0xFE00) == ((128 - 43) & 0x7F));
  QuantiserConstants no_r9 = contract();
  no_r9.reciprocal.erase(9);
  CHECK_THROWS_AS(element_code(no_r9, LaneScale{-6, 9}, 0x3C00), Error);
  CHECK(element_code(no_r9, LaneScale{-6, 9}, 0x0000) == 0);  // a zero needs no R
}

TEST_CASE("mover: quantiser negative elements are 7-bit two's complement", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  const LaneScale unit{0, 8};
  CHECK(element_code(c, unit, fp16(-1.0)) == 0x7F);
  CHECK(element_code(c, unit, fp16(-2.0)) == 0x7E);
  CHECK(element_code(c, unit, fp16(-63.0)) == 0x41);
  CHECK(element_code(c, unit, fp16(-63.75)) == 0x41);  // saturates at -63, never -64
  CHECK(element_code(c, unit, fp16(-0.5)) == 0x7F);
  CHECK(element_code(c, unit, fp16(-0.25)) == 0);  // rounds to zero: no sign left
  CHECK(element_code(c, unit, 0x8000) == 0);       // negative zero
  // Through an entry: lane 0 holds -1 .. -31 and -61, lane 1 -33 .. -63, lane
  // 2 63 and -1 .. -31, lane 3 -0.5, -0 and -60; each lane peaks at 60 .. 63
  // in magnitude, so its scale is 1.0.
  Entry in{};
  for (int k = 0; k < 32; ++k) {
    set_element(in, 0, k, fp16(k == 31 ? -61.0 : -(k + 1.0)));
    set_element(in, 1, k, fp16(-std::min(63.0, k + 33.0)));
    set_element(in, 2, k, fp16(k == 0 ? 63.0 : -static_cast<double>(k)));
    set_element(in, 3, k, fp16(k == 31 ? -60.0 : k == 7 ? -0.0 : -0.5));
  }
  const Output out = quantise(c, in, false);
  for (int w = 0; w < 4; ++w) {
    CHECK(low32(out[static_cast<std::size_t>(w)]) == 0xA0A0A0A0U);
    for (int j = 0; j < 32; ++j) {
      const int lane = j / 8, k = 8 * w + j % 8;
      int want = 0;
      if (lane == 0) want = k == 31 ? -61 : -(k + 1);
      if (lane == 1) want = -std::min(63, k + 33);
      if (lane == 2) want = k == 0 ? 63 : -k;
      if (lane == 3) want = k == 31 ? -60 : k == 7 ? 0 : -1;
      INFO("word " << w << " slot " << j << " lane " << lane << " k " << k);
      CHECK(slot(out[static_cast<std::size_t>(w)], j) == ((want + 128) & 0x7F));
      CHECK(signed_code(slot(out[static_cast<std::size_t>(w)], j)) == want);
    }
  }
}

TEST_CASE("mover: quantiser A and B packings place every slot as the contract says", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  Entry in{};
  for (int lane = 0; lane < 4; ++lane) {
    for (int k = 0; k < 32; ++k) set_element(in, lane, k, fp16(packing_value(lane, k)));
  }
  const Output a = quantise(c, in, false);
  const Output b = quantise(c, in, true);
  for (int w = 0; w < 4; ++w) {
    std::set<int> a_codes, b_codes;
    for (int j = 0; j < 32; ++j) {
      INFO("word " << w << " slot " << j);
      // A: slot j = (lane j div 8, k = 8w + j mod 8).
      CHECK(signed_code(slot(a[static_cast<std::size_t>(w)], j)) == packing_value(j / 8, 8 * w + j % 8));
      // B: slot j = (lane j mod 4, k = 8w + j div 4).
      CHECK(signed_code(slot(b[static_cast<std::size_t>(w)], j)) == packing_value(j % 4, 8 * w + j / 4));
      a_codes.insert(slot(a[static_cast<std::size_t>(w)], j));
      b_codes.insert(slot(b[static_cast<std::size_t>(w)], j));
    }
    CHECK(a_codes.size() == 32);  // every slot of a word a different code: a misplaced one shows
    CHECK(b_codes == a_codes);    // the same 32 codes, in another order
    CHECK(a[static_cast<std::size_t>(w)] != b[static_cast<std::size_t>(w)]);
    CHECK(low32(a[static_cast<std::size_t>(w)]) == 0xA0A0A0A0U);
    CHECK(low32(b[static_cast<std::size_t>(w)]) == 0xA0A0A0A0U);
  }
  // Slot 0 is the top seven bits, slot 31 bits [38:32]: word 0's slot 0 is
  // (lane 0, k 0) = 1 in both packings; slot 31 is (3, 7) = 32 in A, (3, 7) in B too.
  CHECK(a[0][31] >> 1 == 1);
  CHECK(signed_code(slot(a[0], 31)) == 32);
  CHECK(signed_code(slot(b[0], 1)) == packing_value(1, 0));
  CHECK(signed_code(slot(a[0], 1)) == packing_value(0, 1));
}

TEST_CASE("mover: quantiser scale fields fill bits 31..0 of every output word", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  // Lanes of scale fields 0x71 (1.0), 0xA0 (zero), 0xF1 (65504), 0x98 (31.5).
  Entry in{};
  for (int k = 0; k < 32; ++k) {
    set_element(in, 0, k, 0x3C00);
    set_element(in, 1, k, k % 2 == 0 ? 0x0000 : 0x8000);
    set_element(in, 2, k, k == 31 ? 0xFBFF : 0x4000);
    set_element(in, 3, k, k == 0 ? 0x4FE0 : 0x3800);
  }
  for (const bool b : {false, true}) {
    const Output out = quantise(c, in, b);
    for (const MoverWord& w : out) {
      CHECK(low32(w) == 0x71A0F198U);
      CHECK(w[3] == 0x71);  // lane 0 at [31:24]
      CHECK(w[0] == 0x98);  // lane 3 at [7:0]
    }
  }
}

TEST_CASE("mover: quantiser refuses constants it cannot lay out", "[mover][quantiser]") {
  const Entry in{};
  QuantiserConstants eight_lanes = contract();
  eight_lanes.lanes = 8;
  eight_lanes.lane_elems = 16;
  CHECK_THROWS_AS(quantise(eight_lanes, in, false), Error);
  QuantiserConstants no_r8 = contract();
  no_r8.reciprocal.erase(8);
  // Refused whatever the entry: this one (all zeros) would need no R at all.
  CHECK_THROWS_AS(quantise(no_r8, in, false), Error);
  QuantiserConstants no_r15 = contract();
  no_r15.reciprocal.erase(15);
  CHECK_THROWS_AS(quantise(no_r15, in, true), Error);
  CHECK_NOTHROW(quantise(contract(), in, false));
}

TEST_CASE("mover: quantiser equals a naive re-derivation bit for bit on random entries", "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  std::mt19937_64 rng(20260518);
  std::set<int> peak_exponents, ceilings;
  int clamped = 0, zero_lanes = 0, mismatches = 0;
  for (int n = 0; n < 2000; ++n) {
    const Entry in = random_entry(rng);
    for (int lane = 0; lane < 4; ++lane) {
      const naive::Scale s = naive::scale(in, lane);
      peak_exponents.insert(s.peak_exp);
      ceilings.insert(s.c);
      clamped += s.clamped ? 1 : 0;
      zero_lanes += s.c == 0 ? 1 : 0;
    }
    for (const bool b : {false, true}) {
      const Output model = quantise(c, in, b), want = naive::quantise(in, b);
      if (model == want) continue;
      ++mismatches;
      for (std::size_t w = 0; w < 4; ++w) {
        for (std::size_t byte = 0; byte < 32; ++byte) {
          INFO("entry " << n << (b ? " B" : " A") << " packing, word " << w << " byte " << byte);
          CHECK(int{model[w][byte]} == int{want[w][byte]});
        }
      }
    }
  }
  CHECK(mismatches == 0);
  // The entries reached every peak exponent, every branch of the scale rule
  // (c = 9 .. 17 and a zero peak), and the clamp.
  CHECK(peak_exponents.size() == 32);
  CHECK(ceilings == std::set<int>{0, 9, 10, 11, 12, 13, 14, 15, 16, 17});
  CHECK(clamped > 0);
  CHECK(zero_lanes > 0);
}

TEST_CASE("mover: quantiser in real arithmetic: 63 scales cover the peak and codes are within half a step",
          "[mover][quantiser]") {
  const QuantiserConstants c = contract();
  // Every peak magnitude: the field's value 2^(E - 20) (1 + M / 8) times 63 is
  // at least the peak (exponent 31 as a number); a normal peak's own code is
  // 56 .. 63. Every element a lane of that scale can hold (|x| <= the largest
  // peak giving it) has |code x scale - |x|| <= scale / 2, the negative
  // element the negated code. (Exact in binary64: all are short dyadic numbers.)
  std::map<int, std::pair<LaneScale, std::uint16_t>> largest_peak;  // by field
  for (int p = 1; p < 0x8000; ++p) {
    const auto peak = static_cast<std::uint16_t>(p);
    const LaneScale s = lane_scale(c, peak);
    const int field = scale_field(c, s);
    const double scale = field_value(field);
    INFO("peak " << p);
    REQUIRE(63.0 * scale >= magnitude_value(peak));
    if (p >= 0x400) {
      const int own = element_code(c, s, peak);
      REQUIRE(own >= 56);
      REQUIRE(own <= 63);
    }
    auto& entry = largest_peak[field];
    entry = {s, std::max(entry.second, peak)};
  }
  int checked = 0;
  for (const auto& [field, scale_and_peak] : largest_peak) {
    const auto& [s, peak] = scale_and_peak;
    const double scale = field_value(field);
    for (int x = 0; x <= peak; ++x) {
      const auto bits = static_cast<std::uint16_t>(x);
      const int code = element_code(c, s, bits);
      INFO("field " << field << " element " << x << " code " << code);
      REQUIRE(std::fabs(code * scale - magnitude_value(bits)) <= scale / 2);
      REQUIRE(signed_code(element_code(c, s, static_cast<std::uint16_t>(bits | 0x8000))) == -code);
      ++checked;
    }
  }
  CHECK(checked > 1000000);
  // And through whole entries: each lane's slots against its field, from the output alone.
  std::mt19937_64 rng(77);
  for (int n = 0; n < 300; ++n) {
    Entry in{};
    for (int lane = 0; lane < 4; ++lane) {
      const int max_field = static_cast<int>(rng() % 31);  // finite values
      for (int k = 0; k < 32; ++k) set_element(in, lane, k, random_element(rng, max_field));
    }
    const Output out = quantise(c, in, n % 2 == 1);
    for (int w = 0; w < 4; ++w) {
      for (int j = 0; j < 32; ++j) {
        const int lane = n % 2 == 1 ? j % 4 : j / 8;
        const int k = n % 2 == 1 ? 8 * w + j / 4 : 8 * w + j % 8;
        const double scale =
            field_value(static_cast<int>(low32(out[static_cast<std::size_t>(w)]) >> (8 * (3 - lane)) & 0xFF));
        const double x = ime::fp16_to_float(static_cast<std::uint16_t>(naive::element(in, lane, k)));
        const int code = signed_code(slot(out[static_cast<std::size_t>(w)], j));
        INFO("entry " << n << " word " << w << " slot " << j);
        REQUIRE(std::fabs(code * scale - x) <= scale / 2);
      }
    }
  }
}
