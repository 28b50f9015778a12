/// @file flit.h
/// @brief A flit as bits: up to 512 (a NoC spec's header and payload; the
/// KohakuTPU flit is 288), little-endian 64-bit words, with bit-range reads
/// and writes and hexadecimal text. What the bits mean is the codec's
/// (codec.h), read from the spec.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tpugen::noc {

class Flit {
 public:
  static constexpr int kMaxBits = 512;

  /// Bits [lsb, lsb + width), width 1 .. 64.
  [[nodiscard]] std::uint64_t bits(int lsb, int width) const;
  /// Set bits [lsb, lsb + width) to the low `width` bits of v.
  void set_bits(int lsb, int width, std::uint64_t v);

  /// `nbits / 4` hex digits (rounded up), most significant first.
  [[nodiscard]] std::string hex(int nbits) const;
  /// Bits [lsb, lsb + width) as hex digits (width / 4 rounded up), most significant first.
  [[nodiscard]] std::string hex_range(int lsb, int width) const;
  /// Set bits [lsb, lsb + width) from hex digits (an optional 0x, '_' ignored).
  /// Throws Error("noc.hex") for a character that is not a hex digit or a
  /// value wider than `width` bits, naming `what`.
  void set_hex_range(int lsb, int width, std::string_view hex, std::string_view what);

  bool operator==(const Flit&) const = default;

  [[nodiscard]] const std::array<std::uint64_t, kMaxBits / 64>& words() const { return w_; }

 private:
  std::array<std::uint64_t, kMaxBits / 64> w_{};
};

}  // namespace tpugen::noc
