#include "model/mover/memory.h"

#include <algorithm>

namespace tpugen::mover {

Resp MoverMemory::response(std::uint64_t address) const {
  if (address < base_ || address - base_ > bytes_.size() || bytes_.size() - (address - base_) < kWordBytes)
    return Resp::Decerr;
  if (slverr_.count(address)) return Resp::Slverr;
  return Resp::Okay;
}

Resp MoverMemory::read(std::uint64_t address, MoverWord& out) const {
  const Resp r = response(address);
  if (r == Resp::Okay)
    std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(address - base_), kWordBytes, out.begin());
  return r;
}

Resp MoverMemory::write(std::uint64_t address, const MoverWord& w) {
  const Resp r = response(address);
  if (r == Resp::Okay)
    std::copy_n(w.begin(), kWordBytes, bytes_.begin() + static_cast<std::ptrdiff_t>(address - base_));
  return r;
}

}  // namespace tpugen::mover
