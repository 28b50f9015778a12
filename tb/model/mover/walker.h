/// @file walker.h
/// @brief One walker's walk (mover-notes §2): its elements in walk order
/// (dimension ndim-1 the innermost, the fastest), each element's byte
/// address and whether it is in bounds on both bound axes, and the extremes
/// of its address arithmetic for the GO-time range check.
#pragma once

#include <cstdint>
#include <optional>

#include "model/mover/descriptor.h"

namespace tpugen::mover {

class Walk {
 public:
  /// `spec` maps each dimension's bound_sel to the axis it feeds.
  Walk(const WalkerDesc& w, const MoverSpec& spec);

  /// Elements of the walk: the product of the live dimensions' counts (0
  /// means 1); 1 with no live dimension. Saturates at UINT64_MAX.
  [[nodiscard]] std::uint64_t elements() const { return elements_; }

  struct Element {
    std::int64_t address = 0;  ///< base + the sum of index x stride
    bool in_bounds = true;
  };
  /// Element e of the walk; past the last, the last (a walker that has
  /// reached its last element holds it).
  [[nodiscard]] Element at(std::uint64_t e) const;

  /// The lowest and highest element address the walk computes, or nullopt
  /// when its offset arithmetic (the sum of index x stride) leaves signed
  /// 32 bits (fault RANGE).
  struct Span {
    std::int64_t lowest = 0, highest = 0;
  };
  [[nodiscard]] std::optional<Span> span() const;

  /// Whether a live dimension with count > 1 has a stride that is not a
  /// multiple of `bytes`.
  [[nodiscard]] bool strides_misaligned(std::int64_t bytes) const;
  /// Whether either bound axis is on (extent not 0).
  [[nodiscard]] bool has_bound_axis() const;

 private:
  WalkerDesc w_;
  int live_ = 0;
  int feeds_[kDims] = {};  ///< the axis each dimension feeds, -1 none
  std::uint64_t count_[kDims] = {};
  std::uint64_t elements_ = 1;
};

}  // namespace tpugen::mover
