#include "model/core/c_compare.h"

#include <fmt/format.h>

namespace tpugen {

std::string first_c_difference(const std::vector<std::int8_t>& rtl_c, const std::vector<std::int8_t>& model_c,
                               std::int64_t maxdim) {
  if (rtl_c.size() != model_c.size())
    return fmt::format("the RTL returned {} C bytes, the model {}", rtl_c.size(), model_c.size());
  std::string first;
  std::size_t more = 0;
  for (std::size_t i = 0; i < rtl_c.size(); ++i) {
    if (rtl_c[i] == model_c[i]) continue;
    if (first.empty())
      first = fmt::format("C[{}][{}]: rtl {}, model {}", static_cast<std::int64_t>(i) / maxdim,
                          static_cast<std::int64_t>(i) % maxdim, rtl_c[i], model_c[i]);
    else
      ++more;
  }
  if (!first.empty() && more) first += fmt::format(" (and {} more)", more);
  return first;
}

}  // namespace tpugen
