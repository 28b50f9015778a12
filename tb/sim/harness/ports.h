/// @file ports.h
/// @brief Access to Verilator's port types from a harness: ports of up to 64
/// bits are uint8/16/32/64, wider ones VlWide. Compiled by Verilator's build
/// only (it needs verilated.h); the core's and the NoC's harnesses use it.
#pragma once

#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace tpusim::sim {

template <typename P>
std::enable_if_t<std::is_integral_v<P>> set_bytes(P& port, const std::uint8_t* bytes, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < n && k < sizeof(P); ++k) v |= std::uint64_t{bytes[k]} << (8 * k);
  port = static_cast<P>(v);
}

template <std::size_t W>
void set_bytes(VlWide<W>& port, const std::uint8_t* bytes, std::size_t n) {
  for (std::size_t w = 0; w < W; ++w) port[w] = 0;
  for (std::size_t k = 0; k < n && k < 4 * W; ++k) port[k / 4] |= static_cast<EData>(bytes[k]) << (8 * (k % 4));
}

template <typename P>
std::enable_if_t<std::is_integral_v<P>, std::uint64_t> get_bits(const P& port, unsigned lsb, unsigned width) {
  const std::uint64_t v = static_cast<std::uint64_t>(port);
  const std::uint64_t shifted = lsb >= 64 ? 0 : v >> lsb;
  return width >= 64 ? shifted : shifted & ((std::uint64_t{1} << width) - 1);
}

template <std::size_t W>
std::uint64_t get_bits(const VlWide<W>& port, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width && b < 64; ++b) {
    const unsigned bit = lsb + b;
    if (bit / 32 < W && ((port[bit / 32] >> (bit % 32)) & 1U)) v |= std::uint64_t{1} << b;
  }
  return v;
}

template <typename P>
std::vector<std::uint8_t> get_bytes(const P& port, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = static_cast<std::uint8_t>(get_bits(port, static_cast<unsigned>(8 * k), 8));
  return out;
}


// Bit slices of any width, as 64-bit words (lowest first): a flit of a
// NoC's local port inside the mesh's flat port vector.
template <typename P>
std::enable_if_t<std::is_integral_v<P>> set_bit(P& port, unsigned bit, bool v) {
  const P mask = static_cast<P>(P{1} << bit);
  port = static_cast<P>(v ? (port | mask) : (port & static_cast<P>(~mask)));
}

template <std::size_t W>
void set_bit(VlWide<W>& port, unsigned bit, bool v) {
  const EData mask = EData{1} << (bit % 32);
  port[bit / 32] = v ? (port[bit / 32] | mask) : (port[bit / 32] & ~mask);
}

template <typename P>
bool get_bit(const P& port, unsigned bit) {
  return get_bits(port, bit, 1) != 0;
}

template <typename P>
void set_slice(P& port, unsigned lsb, const std::uint64_t* words, unsigned width) {
  for (unsigned b = 0; b < width; ++b) set_bit(port, lsb + b, ((words[b / 64] >> (b % 64)) & 1U) != 0);
}

template <std::size_t W>
void set_slice(VlWide<W>& port, unsigned lsb, const std::uint64_t* words, unsigned width) {
  if (lsb % 32 == 0 && width % 32 == 0) {  // whole 32-bit words: the fast path
    for (unsigned k = 0; k < width / 32; ++k)
      port[lsb / 32 + k] = static_cast<EData>(words[k / 2] >> (32 * (k % 2)));
    return;
  }
  for (unsigned b = 0; b < width; ++b) set_bit(port, lsb + b, ((words[b / 64] >> (b % 64)) & 1U) != 0);
}

template <typename P>
void get_slice(const P& port, unsigned lsb, std::uint64_t* words, unsigned width) {
  for (unsigned w = 0; w < (width + 63) / 64; ++w) words[w] = get_bits(port, lsb + 64 * w, std::min(64U, width - 64 * w));
}

template <std::size_t W>
void get_slice(const VlWide<W>& port, unsigned lsb, std::uint64_t* words, unsigned width) {
  if (lsb % 32 == 0 && width % 32 == 0) {
    for (unsigned w = 0; w < (width + 63) / 64; ++w) words[w] = 0;
    for (unsigned k = 0; k < width / 32; ++k) words[k / 2] |= static_cast<std::uint64_t>(port[lsb / 32 + k]) << (32 * (k % 2));
    return;
  }
  for (unsigned w = 0; w < (width + 63) / 64; ++w) words[w] = get_bits(port, lsb + 64 * w, std::min(64U, width - 64 * w));
}

}  // namespace tpusim::sim
