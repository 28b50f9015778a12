/// @file npy.h
/// @brief NumPy .npy files of int8 matrices (format versions 1.0 to 3.0,
/// C order; dtype |i1, or |u1 read as two's complement only when asked).
/// Readers throw tpugen::Error("npy.*") naming the file and what is wrong:
/// a bad magic, an unsupported dtype or order, a shape that is not 2-D, a
/// truncated body.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpugen {

struct Int8Matrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int8_t> data;  ///< row-major
};

Int8Matrix read_npy_int8(const std::string& path);
void write_npy_int8(const std::string& path, const Int8Matrix& m);

/// The same reader over a file's bytes; `path` names it in errors.
Int8Matrix parse_npy_int8(std::string_view bytes, const std::string& path);
/// The bytes write_npy_int8 writes (version 1.0, '|i1', C order).
std::string npy_bytes(const Int8Matrix& m, const std::string& path = "matrix");

}  // namespace tpugen
