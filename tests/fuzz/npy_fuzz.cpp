/// @file npy_fuzz.cpp
/// @brief libFuzzer harness: bytes -> the .npy reader (tb/model/npy.h).
///
/// The contract: a file is an int8 matrix of its header's shape or it is
/// refused with tpugen::Error("npy.*"); a matrix read writes back and reads
/// again unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz_support.h"
#include "model/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpugen;
  Int8Matrix m;
  try {
    m = parse_npy_int8(fuzz::text_of(data, size), "fuzz.npy");
  } catch (const Error&) {
    return 0;
  }
  const auto cells = static_cast<std::uint64_t>(m.rows) * static_cast<std::uint64_t>(m.cols);
  if (m.rows < 0 || m.cols < 0 || cells != m.data.size()) std::abort();
  const Int8Matrix again = parse_npy_int8(npy_bytes(m), "fuzz.npy");
  if (again.rows != m.rows || again.cols != m.cols || again.data != m.data) std::abort();
  return 0;
}
