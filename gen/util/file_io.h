/// @file file_io.h
/// @brief Whole-file reads and writes that fail as a tpugen::Error naming
/// the file, with the caller's rule code ("rtl.io", "fuzz.replay", ...).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace tpugen {

/// The file's bytes. Throws Error(rule, "cannot read '<path>'").
std::string read_file(const std::filesystem::path& path, std::string_view rule);

/// Write (truncate) the file. Throws Error(rule, "cannot write '<path>'").
void write_file(const std::filesystem::path& path, std::string_view text, std::string_view rule);

}  // namespace tpugen
