#include "model/mover/philox.h"

#include <fmt/format.h>

#include "util/diag.h"

namespace tpugen::mover {

namespace {

/// The largest byte address the mover reaches is 2^40 - 1 (mover-notes §2).
constexpr int kAddressBits = 40;

/// A 32 x 32 -> 64-bit product split into its high and low halves.
struct HiLo {
  std::uint32_t hi;
  std::uint32_t lo;
};

HiLo mulhilo(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t product = std::uint64_t{a} * std::uint64_t{b};
  return {static_cast<std::uint32_t>(product >> 32), static_cast<std::uint32_t>(product)};
}

/// One Philox-4x32 round: the products of counter words 0 and 2 with the
/// multipliers M0 and M1; out = {hi1 ^ ctr1 ^ k0, lo1, hi0 ^ ctr3 ^ k1, lo0}.
std::array<std::uint32_t, 4> philox_round(const PhiloxConstants& c, const std::array<std::uint32_t, 4>& ctr,
                                          const std::array<std::uint32_t, 2>& key) {
  const HiLo p0 = mulhilo(c.multipliers[0], ctr[0]);
  const HiLo p1 = mulhilo(c.multipliers[1], ctr[2]);
  return {p1.hi ^ ctr[1] ^ key[0], p1.lo, p0.hi ^ ctr[3] ^ key[1], p0.lo};
}

/// The key schedule between rounds: each key word plus its Weyl constant, mod 2^32.
std::array<std::uint32_t, 2> bump_key(const PhiloxConstants& c, const std::array<std::uint32_t, 2>& key) {
  return {key[0] + c.weyl[0], key[1] + c.weyl[1]};
}

/// Output word j of a half goes to bits [32j+31:32j] of the half, little-endian
/// bytes, the half at bit 128 h of the word.
void place_half(MoverWord& word, int half, const std::array<std::uint32_t, 4>& out) {
  for (std::size_t j = 0; j < out.size(); ++j) {
    for (std::size_t byte = 0; byte < 4; ++byte) {
      const std::size_t at = static_cast<std::size_t>(half) * 16 + 4 * j + byte;
      word[at] = static_cast<std::uint8_t>(out[j] >> (8 * byte));
    }
  }
}

}  // namespace

std::array<std::uint32_t, 4> philox4x32(const PhiloxConstants& c, std::array<std::uint32_t, 4> counter,
                                        std::array<std::uint32_t, 2> key) {
  if (c.rounds < 0)
    throw Error("mover.model", fmt::format("Philox-4x32 with {} rounds: the count is 0 or more", c.rounds));
  for (int r = 0; r < c.rounds; ++r) {
    if (r > 0) key = bump_key(c, key);
    counter = philox_round(c, counter, key);
  }
  return counter;
}

std::array<std::uint32_t, 4> generate_counter(std::uint64_t address, int half) {
  const std::uint64_t w = address >> 5;  // W = A >> 5
  const auto ctr0 = static_cast<std::uint32_t>(w);
  const auto ctr1 = static_cast<std::uint32_t>((((w >> 32) & 0x7U) << 1) | (static_cast<std::uint64_t>(half) & 1U));
  return {ctr0, ctr1, 0, 0};
}

std::array<std::uint32_t, 2> generate_key(std::uint64_t seed) {
  return {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
}

MoverWord generate_word(const PhiloxConstants& c, std::uint64_t seed, std::uint64_t address) {
  if (address >> kAddressBits != 0) {
    throw Error("mover.model",
                fmt::format("GENERATE at address {:#x}: mover addresses are below 2^{}", address, kAddressBits));
  }
  MoverWord word{};
  for (int half = 0; half < 2; ++half)
    place_half(word, half, philox4x32(c, generate_counter(address, half), generate_key(seed)));
  return word;
}

}  // namespace tpugen::mover
