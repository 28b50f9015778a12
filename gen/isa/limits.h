/// @file limits.h
/// @brief gemm_limits: which of the spec's program_limits refuses an MxKxN
/// shape, by how much, and whether the split-operand-load alternative fits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/programs.h"

namespace tpugen {

struct LimitResult {
  std::string name;   ///< spec.program_limits[].name
  std::string rule;
  bool fits = true;
  std::int64_t value = 0;  ///< the measured quantity (0 for a predicate)
  std::int64_t max = 0;
  std::int64_t over = 0;   ///< value - max when it does not fit
  std::string detail;      ///< which count, field or memory, when it does not fit
};

struct GemmLimits {
  GemmShape shape;
  std::vector<LimitResult> limits;   ///< the shipped layout
  bool fits = false;                 ///< every limit but the alternatives fits
  std::vector<LimitResult> split;    ///< with split_operand_load
  bool split_fits = false;
};

/// Measures every limit on the program the generator builds for the shape
/// (without the encoder's range checks, so an over-wide nr is measured, not
/// refused).
GemmLimits gemm_limits(const Isa& isa, GemmShape shape);

}  // namespace tpugen
