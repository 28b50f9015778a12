/// @file bin_coverage.h
/// @brief A coverage model's bookkeeping: named bins "family/name", each to
/// be reached, counted over a campaign's cases; shards merge; a table per
/// family. The system node's campaigns (tb/fuzz/mover, tb/fuzz/agent) build
/// their models on it, each deciding its bins and what a case reaches.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tpugen::fuzz {

class BinCoverage {
 public:
  /// `model` names the model in errors ("the mover's coverage model").
  explicit BinCoverage(std::string model) : model_(std::move(model)) {}

  /// Declare a bin, at zero hits.
  void declare(const std::string& bin) { hits_.emplace(bin, 0); }
  /// Count a hit; throws Error("fuzz.coverage") for a bin not declared.
  void hit(const std::string& bin);
  /// Count a case.
  void count_case() { ++cases_; }
  /// Add another shard's hits and cases.
  void merge(const BinCoverage& other);

  [[nodiscard]] std::int64_t cases() const { return cases_; }
  [[nodiscard]] const std::map<std::string, std::int64_t>& bins() const { return hits_; }
  /// The bins nothing has hit yet, sorted.
  [[nodiscard]] std::vector<std::string> missing() const;
  [[nodiscard]] std::size_t reached() const { return hits_.size() - missing().size(); }
  /// Per family reached / bins, then the missing bins.
  [[nodiscard]] std::string table() const;

 private:
  std::string model_;
  std::map<std::string, std::int64_t> hits_;
  std::int64_t cases_ = 0;
};

}  // namespace tpugen::fuzz
