/// @file text.h
/// @brief The one set of helpers for reading text inputs line by line:
/// lines without their terminators, and a piece trimmed of white space.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tpugen {

/// `s` without leading and trailing white space (spaces, tabs, CR, LF, ...).
[[nodiscard]] std::string trim(std::string_view s);

/// The lines of `text`, without their "\n" or "\r\n"; a final line without a
/// terminator is a line, and the empty text is one empty line.
[[nodiscard]] std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace tpugen
