/// @file vregs.h
/// @brief The vector register file the IME works on: 32 registers of VLEN
/// bits, register r at byte r x VLEN / 8 (the layout of `tpugen ime run`'s
/// register images), elements little-endian in RVV's linear order: element
/// k of width w is bits [k w + w - 1 : k w] (seed 2.7; a 4-bit element 2n in
/// byte n's low nibble). An index past the register runs into the next one,
/// as a register group (vd and vd+1 hold one C tile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpugen::ime {

class VectorRegs {
 public:
  static constexpr int kRegs = 32;
  explicit VectorRegs(int vlen) : vlen_(vlen), bytes_(static_cast<std::size_t>(kRegs * vlen / 8), 0) {}

  [[nodiscard]] int vlen() const { return vlen_; }
  [[nodiscard]] std::vector<std::uint8_t>& bytes() { return bytes_; }
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }

  /// Element `index` of `width` bits (4, 8, 16, 32 or 64) from register r on,
  /// zero-extended. Throws Error("ime.internal") past v31.
  [[nodiscard]] std::uint64_t get(int r, int width, std::size_t index) const;
  /// Sets it to the low `width` bits of `value`.
  void set(int r, int width, std::size_t index, std::uint64_t value);

 private:
  [[nodiscard]] std::size_t bit_of(int r, int width, std::size_t index) const;
  int vlen_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace tpugen::ime
