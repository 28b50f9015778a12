#include "model/mover/walker.h"

#include <cstdint>
#include <limits>

#include "util/bits.h"

namespace tpugen::mover {

Walk::Walk(const WalkerDesc& w, const MoverSpec& spec) : w_(w), live_(w.live_dims()) {
  for (int d = 0; d < kDims; ++d) {
    const DimDesc& dim = w.dims[static_cast<std::size_t>(d)];
    feeds_[d] = spec.bound_axis_of(dim.bound_sel);
    count_[d] = dim.count == 0 ? 1 : dim.count;
  }
  for (int d = 0; d < live_; ++d) {
    if (elements_ > std::numeric_limits<std::uint64_t>::max() / count_[d]) {
      elements_ = std::numeric_limits<std::uint64_t>::max();
      break;
    }
    elements_ *= count_[d];
  }
}

Walk::Element Walk::at(std::uint64_t e) const {
  if (e >= elements_) e = elements_ - 1;
  std::int64_t offset = 0;
  std::int64_t coord[kAxes] = {w_.axes[0].abase, w_.axes[1].abase};
  for (int d = live_ - 1; d >= 0; --d) {
    const auto index = static_cast<std::int64_t>(e % count_[d]);
    e /= count_[d];
    const DimDesc& dim = w_.dims[static_cast<std::size_t>(d)];
    offset += index * dim.stride;
    if (feeds_[d] >= 0) coord[feeds_[d]] += index * dim.astep;
  }
  Element out;
  out.address = static_cast<std::int64_t>(w_.base) + offset;
  for (int a = 0; a < kAxes; ++a) {
    const AxisDesc& axis = w_.axes[static_cast<std::size_t>(a)];
    if (axis.extent == 0) continue;
    // The coordinate is 16-bit two's complement.
    const std::int64_t c = sign_extend(static_cast<std::uint64_t>(coord[a]), 16);
    if (c < 0 || c >= static_cast<std::int64_t>(axis.extent)) out.in_bounds = false;
  }
  return out;
}

std::optional<Walk::Span> Walk::span() const {
  std::int64_t pos = 0, neg = 0;
  for (int d = 0; d < live_; ++d) {
    const std::int64_t reach = static_cast<std::int64_t>(count_[d] - 1) * w_.dims[static_cast<std::size_t>(d)].stride;
    (reach > 0 ? pos : neg) += reach;
  }
  if (pos > std::numeric_limits<std::int32_t>::max() || neg < std::numeric_limits<std::int32_t>::min())
    return std::nullopt;
  const auto base = static_cast<std::int64_t>(w_.base);
  return Span{base + neg, base + pos};
}

bool Walk::strides_misaligned(std::int64_t bytes) const {
  for (int d = 0; d < live_; ++d)
    if (count_[d] > 1 && w_.dims[static_cast<std::size_t>(d)].stride % bytes != 0) return true;
  return false;
}

bool Walk::has_bound_axis() const { return w_.axes[0].extent != 0 || w_.axes[1].extent != 0; }

}  // namespace tpugen::mover
