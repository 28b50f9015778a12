/// @file yaml_reader.h
/// @brief Strict reading of YAML mappings: every key must be known, every
/// value of the right type, and every error names file:line:column.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/diag.h"
#include "spec/expr.h"

namespace tpugen {

/// Where a node sits in its file.
SourceLoc loc_of(const std::string& file, const YAML::Node& node);

/// A YAML mapping read key by key. `finish()` refuses keys nobody asked for.
class YamlMap {
 public:
  YamlMap(const YAML::Node& node, std::string file, std::string what);

  [[nodiscard]] bool has(const std::string& key) const;
  [[nodiscard]] YAML::Node node(const std::string& key);  ///< required
  [[nodiscard]] std::string str(const std::string& key);
  [[nodiscard]] std::string str_or(const std::string& key, const std::string& fallback);
  [[nodiscard]] std::int64_t integer(const std::string& key);
  [[nodiscard]] std::optional<std::int64_t> integer_opt(const std::string& key);
  /// An integer in lo .. hi; Error(rule) naming the key, the value and the range otherwise.
  [[nodiscard]] std::int64_t integer_in(const std::string& key, std::int64_t lo, std::int64_t hi,
                                        std::string_view rule);
  /// `key: [msb, lsb]`, a bit range within [0, frame_bits); Error(rule)
  /// naming `what` and the key otherwise.
  [[nodiscard]] std::pair<int, int> bit_range(const std::string& key, int frame_bits, std::string_view what,
                                              std::string_view rule);
  [[nodiscard]] bool boolean_or(const std::string& key, bool fallback);
  /// A sequence of integers (decimal or 0x hex).
  [[nodiscard]] std::vector<std::int64_t> integer_list(const std::string& key);
  /// An expression; scalars that look like numbers are expressions too.
  [[nodiscard]] Expr expr(const std::string& key);
  [[nodiscard]] std::optional<Expr> expr_opt(const std::string& key);
  /// A sequence; each element is handed over as a node.
  [[nodiscard]] std::vector<YAML::Node> seq(const std::string& key);
  [[nodiscard]] std::vector<YAML::Node> seq_or_empty(const std::string& key);

  void finish() const;
  [[nodiscard]] SourceLoc loc() const { return loc_of(file_, node_); }
  [[nodiscard]] SourceLoc loc(const std::string& key) const;
  [[nodiscard]] const std::string& file() const { return file_; }

 private:
  [[nodiscard]] YAML::Node scalar(const std::string& key);
  YAML::Node node_;
  std::string file_;
  std::string what_;
  std::set<std::string> used_;
};

/// The bits of a frame already taken by fields, to refuse overlaps: every
/// bit layout of the specs (flit payloads, registers) checks with it.
class BitOccupancy {
 public:
  BitOccupancy(int bits, std::string rule) : taken_(static_cast<std::size_t>(bits), false), rule_(std::move(rule)) {}
  /// Take bits [lsb, msb]; Error(rule) naming `what` at the first bit taken twice.
  void take(int msb, int lsb, const std::string& what, const SourceLoc& where);
  /// The first free bit in [lo, hi], or -1.
  [[nodiscard]] int first_free(int lo, int hi) const;

 private:
  std::vector<bool> taken_;
  std::string rule_;
};

/// Parse an expression found at `where`, turning parse errors into Errors.
Expr parse_expr_at(const std::string& text, const SourceLoc& where);

}  // namespace tpugen
