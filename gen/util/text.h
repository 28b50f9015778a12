/// @file text.h
/// @brief The one set of helpers for reading text inputs line by line:
/// lines without their terminators, a piece trimmed of white space, and an
/// unsigned number.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tpugen {

/// `s` without leading and trailing white space (spaces, tabs, CR, LF, ...).
[[nodiscard]] std::string trim(std::string_view s);

/// The lines of `text`, without their "\n" or "\r\n"; a final line without a
/// terminator is a line, and the empty text is one empty line.
[[nodiscard]] std::vector<std::string_view> split_lines(std::string_view text);

/// The whole of `s` as an unsigned 64-bit number, decimal or hex after "0x"
/// (or "0X"); nullopt for anything else (empty, a sign, white space, other
/// characters, out of range). A leading 0 is decimal, never octal.
[[nodiscard]] std::optional<std::uint64_t> parse_unsigned(std::string_view s);

}  // namespace tpugen
