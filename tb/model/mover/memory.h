/// @file memory.h
/// @brief The byte-addressed memory a move runs over: an image covering
/// [base, base + size), word accesses, and the AXI response each access
/// gets (DECERR for a word not wholly inside the image, SLVERR where a test
/// injects one): the model's view of what the RTL benches' AXI memory holds.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "model/mover/word.h"

namespace tpugen::mover {

/// An AXI response (the RESP codes' order: OKAY 0, EXOKAY 1, SLVERR 2, DECERR 3).
enum class Resp : std::uint8_t { Okay = 0, Slverr = 2, Decerr = 3 };

class MoverMemory {
 public:
  MoverMemory() = default;
  MoverMemory(std::uint64_t base, std::vector<std::uint8_t> bytes) : base_(base), bytes_(std::move(bytes)) {}

  /// The word at byte address `address` (word-aligned): its response, and
  /// into `out` its bytes when OKAY.
  Resp read(std::uint64_t address, MoverWord& out) const;
  /// Write the word at `address`; nothing changes unless OKAY.
  Resp write(std::uint64_t address, const MoverWord& w);

  /// Answer SLVERR for the word at `address` from now on (reads and writes).
  void inject_slverr(std::uint64_t address) { slverr_.insert(address); }
  /// The word addresses inject_slverr named.
  [[nodiscard]] const std::set<std::uint64_t>& slverr() const { return slverr_; }

  [[nodiscard]] std::uint64_t base() const { return base_; }
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  [[nodiscard]] Resp response(std::uint64_t address) const;
  std::uint64_t base_ = 0;
  std::vector<std::uint8_t> bytes_;
  std::set<std::uint64_t> slverr_;
};

}  // namespace tpugen::mover
