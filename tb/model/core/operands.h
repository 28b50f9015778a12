/// @file operands.h
/// @brief Operand matrices for tests and runs: the original's stress
/// distributions, from a seed, and the plain integer GEMM they are checked
/// against (written independently of the model and of the ISA).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/npy.h"

namespace tpugen {

/// full:   uniform over the operand range, with its min and max forced in
/// corner: drawn from {-128, -127, -1, 0, 1, 126, 127}
/// mid:    uniform over [-16, 16]
enum class OperandDist { Full, Corner, Mid };

OperandDist parse_operand_dist(const std::string& name);  ///< throws Error("run.dist")
std::string to_string(OperandDist d);

Int8Matrix random_matrix(std::int64_t rows, std::int64_t cols, OperandDist dist, std::mt19937_64& rng);

/// clip(A @ B) to int8, with relu before the clip when asked: the
/// exact result, computed in 64-bit and wrapped to 32 bits as the
/// accumulator does (which no in-range int8 GEMM of MAXDIM <= 2048 reaches).
Int8Matrix reference_gemm(const Int8Matrix& a, const Int8Matrix& b, bool relu);

/// A pair of operands whose every C element is a chosen pre-saturation
/// value from {127, 128, -128, -129} (the saturation boundaries): row i of A
/// and column j of B are built so that (A @ B)[i][j] hits the boundary set.
void boundary_operands(std::int64_t m, std::int64_t k, std::int64_t n, std::mt19937_64& rng, Int8Matrix& a,
                       Int8Matrix& b);

}  // namespace tpugen
