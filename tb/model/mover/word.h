/// @file word.h
/// @brief The memory mover's data word (mover-notes: a word is 256 bits,
/// DATA_W): 32 bytes, byte k holding bits [8k+7:8k], so the word at a
/// 32-byte-aligned address A holds memory byte A+k in byte k.
#pragma once

#include <array>
#include <cstdint>

namespace tpugen::mover {

/// One 256-bit word; byte k is bits [8k+7:8k].
using MoverWord = std::array<std::uint8_t, 32>;

/// The bits of a word.
inline constexpr int kWordBits = 256;
/// The bytes of a word, and so the alignment of a word address.
inline constexpr int kWordBytes = 32;

}  // namespace tpugen::mover
