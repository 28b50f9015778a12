/// @file philox.h
/// @brief GENERATE's words (mover-notes §3): Philox-4x32 as Random123 defines
/// it, keyed by the PRNG seed and counting by word address. The constants
/// (the two multipliers, the two Weyl constants, the round count) are passed
/// in, as the spec (spec/system_node.yaml) gives them: Random123's published
/// values are 0xD2511F53, 0xCD9E8D57; 0x9E3779B9, 0xBB67AE85; 10 rounds.
#pragma once

#include <array>
#include <cstdint>

#include "model/mover/word.h"

namespace tpugen::mover {

/// Philox-4x32's constants.
struct PhiloxConstants {
  std::array<std::uint32_t, 2> multipliers{};  ///< M0 (applied to counter word 0), M1 (counter word 2)
  std::array<std::uint32_t, 2> weyl{};         ///< W0, W1: added to key words 0, 1 between rounds
  int rounds = 10;                             ///< 0 or more; Philox-4x32-10 has 10
};

/// The four output words of Philox-4x32 for `counter` and `key` (word 0
/// first): `rounds` rounds, the key bumped by the Weyl constants before every
/// round but the first. Throws Error("mover.model") for a negative round count.
[[nodiscard]] std::array<std::uint32_t, 4> philox4x32(const PhiloxConstants& c, std::array<std::uint32_t, 4> counter,
                                                      std::array<std::uint32_t, 2> key);

/// The counter of half `h` (0 or 1) of the word at byte address `address`:
/// with W = address >> 5, ctr0 = W[31:0], ctr1 = (W[34:32] << 1) | h,
/// ctr2 = ctr3 = 0.
[[nodiscard]] std::array<std::uint32_t, 4> generate_counter(std::uint64_t address, int half);

/// The key of `seed`: k0 = seed[31:0], k1 = seed[63:32].
[[nodiscard]] std::array<std::uint32_t, 2> generate_key(std::uint64_t seed);

/// GENERATE's word at byte address `address`: bits [127:0] are the four
/// outputs of half 0 (output j at [32j+31:32j]), bits [255:128] those of
/// half 1. The word is W = address >> 5, so the low five bits of `address`
/// are ignored: any byte address inside a word gives that word (the mover
/// only asks for 32-byte-aligned ones; a misaligned descriptor is fault 6).
/// Throws Error("mover.model") for an address outside [0, 2^40), which the
/// mover never reaches (fault 2), and for a negative round count.
[[nodiscard]] MoverWord generate_word(const PhiloxConstants& c, std::uint64_t seed, std::uint64_t address);

}  // namespace tpugen::mover
