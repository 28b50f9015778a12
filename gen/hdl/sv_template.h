/// @file sv_template.h
/// @brief Filling SystemVerilog text templates: every `@KEY@` replaced by
/// its value. SystemVerilog has no use for '@' followed by a name and another
/// '@', so templates stay readable as SystemVerilog.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tpugen::hdl {

inline std::string fill(std::string text, const std::vector<std::pair<std::string, std::string>>& keys) {
  for (const auto& [key, value] : keys) {
    const std::string k = "@" + key + "@";
    for (std::size_t at = text.find(k); at != std::string::npos; at = text.find(k, at + value.size()))
      text.replace(at, k.size(), value);
  }
  return text;
}

}  // namespace tpugen::hdl
