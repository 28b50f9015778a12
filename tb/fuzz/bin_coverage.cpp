#include "fuzz/bin_coverage.h"

#include <fmt/format.h>

#include <utility>

#include "util/diag.h"

namespace tpugen::fuzz {

void BinCoverage::hit(const std::string& bin) {
  const auto it = hits_.find(bin);
  if (it == hits_.end()) throw Error("fuzz.coverage", fmt::format("{} has no bin '{}'", model_, bin));
  ++it->second;
}

void BinCoverage::merge(const BinCoverage& other) {
  for (const auto& [bin, n] : other.hits_) hits_[bin] += n;
  cases_ += other.cases_;
}

std::vector<std::string> BinCoverage::missing() const {
  std::vector<std::string> out;
  for (const auto& [bin, n] : hits_)
    if (n == 0) out.push_back(bin);
  return out;
}

std::string BinCoverage::table() const {
  std::map<std::string, std::pair<int, int>> families;  // reached, bins
  for (const auto& [bin, n] : hits_) {
    auto& f = families[bin.substr(0, bin.find('/'))];
    f.second++;
    if (n > 0) f.first++;
  }
  std::string out = fmt::format("coverage: {} of {} bins over {} case(s)\n", reached(), hits_.size(), cases_);
  for (const auto& [name, f] : families) out += fmt::format("  {:<12} {:>3} / {:<3}\n", name, f.first, f.second);
  const auto miss = missing();
  if (!miss.empty()) {
    out += "  missing:";
    for (const auto& b : miss) out += " " + b;
    out += "\n";
  }
  return out;
}

}  // namespace tpugen::fuzz
