/// @file localparams.h
/// @brief A generated package's `localparam` lines, aligned, with a comment
/// each: the one writer of the NoC's and the system node's packages.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tpugen::hdl {

/// `localparam <type> NAME = value;  // comment` lines, aligned.
class Localparams {
 public:
  void add(const std::string& name, const std::string& value, const std::string& comment = {}) {
    rows_.push_back({"int", name, value, comment});
  }
  void add(const std::string& name, std::int64_t value, const std::string& comment = {}) {
    add(name, std::to_string(value), comment);
  }
  /// A `logic [width-1:0]` constant, written as width'<base><digits>.
  void add_bits(const std::string& name, int width, const std::string& value, const std::string& comment = {}) {
    rows_.push_back({fmt::format("logic [{}:0]", width - 1), name, fmt::format("{}'{}", width, value), comment});
  }
  /// A `logic [width-1:0]` constant with `value` written as is (a concatenation, say).
  void add_vector(const std::string& name, int width, const std::string& value, const std::string& comment = {}) {
    rows_.push_back({fmt::format("logic [{}:0]", width - 1), name, value, comment});
  }
  void blank() { rows_.push_back({}); }
  [[nodiscard]] std::string str() const {
    std::size_t tw = 0, nw = 0, lw = 0;
    for (const auto& r : rows_) {
      tw = std::max(tw, r[0].size());
      nw = std::max(nw, r[1].size());
    }
    for (const auto& r : rows_) lw = std::max(lw, tw + nw + r[2].size() + 20);
    lw = std::min<std::size_t>(lw, tw + nw + 28);
    std::string o;
    for (const auto& r : rows_) {
      if (r[1].empty()) {
        o += "\n";
        continue;
      }
      std::string line = fmt::format("  localparam {:<{}} {:<{}} = {};", r[0], tw, r[1], nw, r[2]);
      if (!r[3].empty()) line = fmt::format("{:<{}}  // {}", line, lw, r[3]);
      o += line + "\n";
    }
    return o;
  }

 private:
  std::vector<std::array<std::string, 4>> rows_;
};

/// A role short enough for a comment at the end of a line.
inline std::string short_role(const std::string& role) { return role.size() > 64 ? role.substr(0, 61) + "..." : role; }

}  // namespace tpugen::hdl
