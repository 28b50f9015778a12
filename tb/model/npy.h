/// @file npy.h
/// @brief NumPy .npy files of int8 matrices (format versions 1.0 to 3.0,
/// C order; dtype |i1, or |u1 read as two's complement only when asked).
/// Readers throw tpugen::Error("npy.*") naming the file and what is wrong:
/// a bad magic, an unsupported dtype or order, a shape that is not 2-D, a
/// truncated body.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tpugen {

struct Int8Matrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int8_t> data;  ///< row-major
};

Int8Matrix read_npy_int8(const std::string& path);
void write_npy_int8(const std::string& path, const Int8Matrix& m);

}  // namespace tpugen
