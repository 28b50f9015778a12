/// @file c_compare.h
/// @brief The first difference between two images of the C matrix (the RTL's
/// and the model's), as the run and the fuzzer report it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tpugen {

/// The first element where two row-major C images of `maxdim` columns
/// differ, as "C[row][col]: rtl X, model Y" with " (and N more)" when more
/// elements differ; a size mismatch is said as such; "" when they are equal.
std::string first_c_difference(const std::vector<std::int8_t>& rtl_c, const std::vector<std::int8_t>& model_c,
                               std::int64_t maxdim);

}  // namespace tpugen
