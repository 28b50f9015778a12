#include "noc/flit.h"

#include <fmt/format.h>

#include "util/bits.h"
#include "util/diag.h"

namespace tpugen::noc {

std::uint64_t Flit::bits(int lsb, int width) const {
  const auto word = static_cast<std::size_t>(lsb / 64);
  const int off = lsb % 64;
  std::uint64_t v = w_[word] >> off;
  if (off != 0 && off + width > 64 && word + 1 < w_.size()) v |= w_[word + 1] << (64 - off);
  return v & low_mask(width);
}

void Flit::set_bits(int lsb, int width, std::uint64_t v) {
  const std::uint64_t mask = low_mask(width);
  v &= mask;
  const auto word = static_cast<std::size_t>(lsb / 64);
  const int off = lsb % 64;
  w_[word] = (w_[word] & ~(mask << off)) | (v << off);
  if (off != 0 && off + width > 64) {
    const int spill = 64 - off;
    const std::uint64_t hi_mask = mask >> spill;
    w_[word + 1] = (w_[word + 1] & ~hi_mask) | (v >> spill);
  }
}

std::string Flit::hex_range(int lsb, int width) const {
  std::string out;
  for (int d = (width + 3) / 4 - 1; d >= 0; --d) {
    const int bit = lsb + d * 4;
    const int n = std::min(4, lsb + width - bit);
    out += "0123456789abcdef"[bits(bit, n)];
  }
  return out;
}

std::string Flit::hex(int nbits) const { return hex_range(0, nbits); }

void Flit::set_hex_range(int lsb, int width, std::string_view text, std::string_view what) {
  if (text.substr(0, 2) == "0x" || text.substr(0, 2) == "0X") text.remove_prefix(2);
  std::string digits;
  for (const char c : text) {
    if (c == '_') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      throw Error("noc.hex", fmt::format("{}: '{}' is not a hex digit", what, c));
    digits += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (digits.empty()) throw Error("noc.hex", fmt::format("{}: no hex digits", what));
  for (int b = lsb; b < lsb + width; b += 64) set_bits(b, std::min(64, lsb + width - b), 0);
  int bit = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it, bit += 4) {
    const std::uint64_t v = static_cast<std::uint64_t>(*it <= '9' ? *it - '0' : *it - 'a' + 10);
    if (v == 0) continue;
    if (bit >= width || (width - bit < 4 && (v >> (width - bit)) != 0))
      throw Error("noc.hex", fmt::format("{}: 0x{} does not fit {} bits", what, digits, width));
    set_bits(lsb + bit, std::min(4, width - bit), v);
  }
}

}  // namespace tpugen::noc
