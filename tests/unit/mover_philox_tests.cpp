// tb/model/mover: GENERATE's Philox-4x32-10 (mover-notes §3), against
// Random123's known answers, and its words as the contract places the two
// halves' outputs.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>

#include "model/mover/philox.h"
#include "util/diag.h"

using namespace tpugen;
using namespace tpugen::mover;

namespace {

using Counter = std::array<std::uint32_t, 4>;
using Key = std::array<std::uint32_t, 2>;

/// Random123's published constants (the spec's values; the tests construct them).
PhiloxConstants random123(int rounds = 10) {
  PhiloxConstants c;
  c.multipliers = {0xD2511F53U, 0xCD9E8D57U};
  c.weyl = {0x9E3779B9U, 0xBB67AE85U};
  c.rounds = rounds;
  return c;
}

/// One of Random123's known-answer vectors (kat_vectors, philox4x32 10):
/// counter and key word 0 first, and the output.
struct KnownAnswer {
  const char* name;
  Counter counter;
  Key key;
  Counter output;
};

const std::array<KnownAnswer, 3> kKnownAnswers{{
    {"all zeros", {0, 0, 0, 0}, {0, 0}, {0x6627e8d5U, 0xe169c58dU, 0xbc57ac4cU, 0x9b00dbd8U}},
    {"all ones",
     {0xffffffffU, 0xffffffffU, 0xffffffffU, 0xffffffffU},
     {0xffffffffU, 0xffffffffU},
     {0x408f276dU, 0x41c83b0eU, 0xa20bc7c6U, 0x6d5451fdU}},
    {"pi digits",
     {0x243f6a88U, 0x85a308d3U, 0x13198a2eU, 0x03707344U},
     {0xa4093822U, 0x299f31d0U},
     {0xd16cfe09U, 0x94fdccebU, 0x5001e420U, 0x24126ea1U}},
}};

/// The contract's word, computed bit by bit: W = A >> 5, key {seed[31:0],
/// seed[63:32]}, half h's counter {W[31:0], (W[34:32] << 1) | h, 0, 0}; bit
/// n of the word is bit (n mod 32) of output (n mod 128) div 32 of half n div 128.
MoverWord expected_word(const PhiloxConstants& c, std::uint64_t seed, std::uint64_t address) {
  const std::uint64_t w = address / 32;
  const Key key{static_cast<std::uint32_t>(seed & 0xffffffffU), static_cast<std::uint32_t>(seed >> 32)};
  std::array<Counter, 2> half_out{};
  for (std::uint32_t h = 0; h < 2; ++h) {
    const Counter ctr{static_cast<std::uint32_t>(w % (std::uint64_t{1} << 32)),
                      static_cast<std::uint32_t>(((w >> 32) % 8) * 2 + h), 0, 0};
    half_out[h] = philox4x32(c, ctr, key);
  }
  MoverWord word{};
  for (int n = 0; n < 256; ++n) {
    const std::uint32_t output = half_out[static_cast<std::size_t>(n / 128)][static_cast<std::size_t>(n % 128 / 32)];
    const auto bit = static_cast<std::uint8_t>((output >> (n % 32)) & 1U);
    word[static_cast<std::size_t>(n / 8)] =
        static_cast<std::uint8_t>(word[static_cast<std::size_t>(n / 8)] | (bit << (n % 8)));
  }
  return word;
}

}  // namespace

TEST_CASE("mover: Philox-4x32-10 gives Random123's known answers", "[mover][philox]") {
  const PhiloxConstants c = random123();
  for (const KnownAnswer& k : kKnownAnswers) {
    INFO(k.name);
    CHECK(philox4x32(c, k.counter, k.key) == k.output);
  }
}

TEST_CASE("mover: Philox's round count comes from the constants and 9 or 11 rounds miss the answers",
          "[mover][philox]") {
  for (const int rounds : {9, 11}) {
    const PhiloxConstants c = random123(rounds);
    for (const KnownAnswer& k : kKnownAnswers) {
      INFO(k.name << " at " << rounds << " rounds");
      CHECK(philox4x32(c, k.counter, k.key) != k.output);
    }
  }
  // 0 rounds is the counter itself; one round is the round function alone:
  // {hi(M1 ctr2) ^ ctr1 ^ k0, lo(M1 ctr2), hi(M0 ctr0) ^ ctr3 ^ k1, lo(M0 ctr0)}.
  const Counter ctr{1, 2, 3, 4};
  const Key key{5, 6};
  CHECK(philox4x32(random123(0), ctr, key) == ctr);
  const std::uint64_t p0 = std::uint64_t{0xD2511F53U} * 1U, p1 = std::uint64_t{0xCD9E8D57U} * 3U;
  const Counter one{static_cast<std::uint32_t>((p1 >> 32) ^ 2U ^ 5U), static_cast<std::uint32_t>(p1 & 0xffffffffU),
                    static_cast<std::uint32_t>((p0 >> 32) ^ 4U ^ 6U), static_cast<std::uint32_t>(p0 & 0xffffffffU)};
  CHECK(philox4x32(random123(1), ctr, key) == one);
  // The multipliers and the Weyl constants are the constants passed in.
  PhiloxConstants other_weyl = random123();
  other_weyl.weyl[1] ^= 1U;
  CHECK(philox4x32(other_weyl, kKnownAnswers[0].counter, kKnownAnswers[0].key) != kKnownAnswers[0].output);
  PhiloxConstants other_multiplier = random123();
  other_multiplier.multipliers[0] ^= 2U;
  CHECK(philox4x32(other_multiplier, kKnownAnswers[0].counter, kKnownAnswers[0].key) != kKnownAnswers[0].output);
  CHECK_THROWS_AS(philox4x32(random123(-1), ctr, key), Error);
}

TEST_CASE("mover: GENERATE's word holds half 0's outputs in bits 127..0 and half 1's above", "[mover][philox]") {
  const PhiloxConstants c = random123();
  // Seed 0 at address 0: half 0 is the all-zeros known answer, output 0 in
  // bytes 0 .. 3 little-endian.
  const MoverWord zero = generate_word(c, 0, 0);
  const std::array<std::uint8_t, 16> half0{0xd5, 0xe8, 0x27, 0x66, 0x8d, 0xc5, 0x69, 0xe1,
                                           0x4c, 0xac, 0x57, 0xbc, 0xd8, 0xdb, 0x00, 0x9b};
  for (std::size_t b = 0; b < half0.size(); ++b) {
    INFO("byte " << b);
    CHECK(zero[b] == half0[b]);
  }
  for (const std::uint64_t seed :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{0x0123456789abcdefULL}, ~std::uint64_t{0}}) {
    for (const std::uint64_t address :
         {std::uint64_t{0}, std::uint64_t{32}, std::uint64_t{0x1000}, std::uint64_t{0x7fffffffe0ULL},
          std::uint64_t{0xffffffffe0ULL}, std::uint64_t{0x2000000000ULL}, std::uint64_t{0xa5a5a5a5a0ULL}}) {
      INFO("seed " << seed << " address " << address);
      CHECK(generate_word(c, seed, address) == expected_word(c, seed, address));
    }
  }
}

TEST_CASE("mover: GENERATE's counter takes W from address bits 39..5 with the half in ctr1 bit 0", "[mover][philox]") {
  const PhiloxConstants c = random123();
  // W = A >> 5: the low five bits are not part of it (the mover asks for
  // 32-byte-aligned addresses; any byte of a word names the word).
  CHECK(generate_word(c, 7, 0x1240) == generate_word(c, 7, 0x1240 + 31));
  CHECK(generate_word(c, 7, 0x1240) != generate_word(c, 7, 0x1240 + 32));
  CHECK(generate_counter(0x1240, 0) == Counter{0x92, 0, 0, 0});
  CHECK(generate_counter(0x1240 + 31, 1) == Counter{0x92, 1, 0, 0});
  // W[34:32] (address bits 39..37) is ctr1 [3:1]; W[31:0] (bits 36..5) ctr0.
  CHECK(generate_counter(0x1fffffffe0ULL, 0) == Counter{0xffffffffU, 0, 0, 0});
  CHECK(generate_counter(0x2000000000ULL, 0) == Counter{0, 2, 0, 0});
  CHECK(generate_counter(0xffffffffe0ULL, 1) == Counter{0xffffffffU, 0xf, 0, 0});
  CHECK(generate_counter(0xa000000020ULL, 1) == Counter{1, 0xb, 0, 0});
  // Words whose W differ only in W[34:32] differ; so do a word's two halves.
  std::set<MoverWord> words;
  for (std::uint64_t top = 0; top < 8; ++top) words.insert(generate_word(c, 7, (top << 37) | 0x40));
  CHECK(words.size() == 8);
  const MoverWord w = generate_word(c, 7, 0x40);
  CHECK(!std::equal(w.begin(), w.begin() + 16, w.begin() + 16));
  // An address the mover never reaches (2^40 and past, fault 2) is refused.
  CHECK_THROWS_AS(generate_word(c, 7, std::uint64_t{1} << 40), Error);
  CHECK_NOTHROW(generate_word(c, 7, (std::uint64_t{1} << 40) - 32));
}

TEST_CASE("mover: GENERATE's key is the seed and different seeds give different words", "[mover][philox]") {
  const PhiloxConstants c = random123();
  CHECK(generate_key(0x0123456789abcdefULL) == Key{0x89abcdefU, 0x01234567U});
  // Seeds differing in one bit of either half, at several addresses.
  for (const std::uint64_t address : {std::uint64_t{0}, std::uint64_t{0x80}, std::uint64_t{0x3456789a0ULL}}) {
    std::set<MoverWord> words;
    for (int bit = 0; bit < 64; ++bit) words.insert(generate_word(c, std::uint64_t{1} << bit, address));
    words.insert(generate_word(c, 0, address));
    INFO("address " << address);
    CHECK(words.size() == 65);
  }
  // A pure function of (seed, A): the same pair gives the same word.
  CHECK(generate_word(c, 99, 0x400) == generate_word(c, 99, 0x400));
}
