/// @file memory_image_support.h
/// @brief The memory image the mover's and the agent's model tests run
/// over: 64 KiB at 0x10000 whose byte at A is a hash of A, and a word of it.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "model/mover/memory.h"

namespace tpugen::test {

inline constexpr std::uint64_t kImageBase = 0x10000;
inline constexpr std::size_t kImageSize = 0x10000;

/// The image: byte i is a hash of i (a word is never all zero).
inline mover::MoverMemory patterned_image() {
  std::vector<std::uint8_t> bytes(kImageSize);
  for (std::size_t i = 0; i < kImageSize; ++i)
    bytes[i] = static_cast<std::uint8_t>((i * 131 + (i >> 8) * 7 + 1) & 0xFF);
  return mover::MoverMemory(kImageBase, bytes);
}

/// The word at `address`, which must be readable.
inline mover::MoverWord image_word(const mover::MoverMemory& m, std::uint64_t address) {
  mover::MoverWord w{};
  REQUIRE(m.read(address, w) == mover::Resp::Okay);
  return w;
}

}  // namespace tpugen::test
