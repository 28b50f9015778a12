#include "model/ime/vregs.h"

#include <fmt/format.h>

#include "util/diag.h"

namespace tpugen::ime {

std::size_t VectorRegs::bit_of(int r, int width, std::size_t index) const {
  const std::size_t bit =
      static_cast<std::size_t>(r) * static_cast<std::size_t>(vlen_) + index * static_cast<std::size_t>(width);
  if (r < 0 || width <= 0 || bit + static_cast<std::size_t>(width) > bytes_.size() * 8)
    throw Error("ime.internal", fmt::format("element {} of {} bits from v{} is past v31", index, width, r));
  return bit;
}

std::uint64_t VectorRegs::get(int r, int width, std::size_t index) const {
  const std::size_t bit = bit_of(r, width, index);
  if (width == 4) return (bytes_[bit / 8] >> (bit % 8)) & 0xFU;
  std::uint64_t v = 0;
  for (int b = 0; b < width / 8; ++b) v |= std::uint64_t{bytes_[bit / 8 + static_cast<std::size_t>(b)]} << (8 * b);
  return v;
}

void VectorRegs::set(int r, int width, std::size_t index, std::uint64_t value) {
  const std::size_t bit = bit_of(r, width, index);
  if (width == 4) {
    auto& byte = bytes_[bit / 8];
    const unsigned shift = bit % 8;
    byte = static_cast<std::uint8_t>((byte & ~(0xFU << shift)) | ((value & 0xFU) << shift));
    return;
  }
  for (int b = 0; b < width / 8; ++b)
    bytes_[bit / 8 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(value >> (8 * b));
}

}  // namespace tpugen::ime
