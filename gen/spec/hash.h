/// @file hash.h
/// @brief SHA-256 of bytes as lowercase hex (OpenSSL), for the spec's
/// identity in generated files and for cache keys.
#pragma once

#include <string>

namespace tpugen {

std::string sha256_hex(const std::string& bytes);

}  // namespace tpugen
