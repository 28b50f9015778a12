/// @file rtl_coverage.h
/// @brief The generated RTL's own coverage over a campaign: Verilator's
/// line, toggle and branch points (a simulator verilated with --coverage),
/// merged over every program with verilator_coverage.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tpugen::sim {

struct PointCount {
  std::int64_t covered = 0, total = 0;
  [[nodiscard]] double percent() const { return total ? 100.0 * static_cast<double>(covered) / static_cast<double>(total) : 0.0; }
};

struct RtlCoverage {
  std::map<std::string, PointCount> by_kind;  ///< "line", "toggle", "branch", ... (Verilator's page kinds)
  std::map<std::string, std::map<std::string, PointCount>> by_module;  ///< module -> kind -> points
  std::filesystem::path merged;     ///< the merged coverage.dat
  std::filesystem::path annotated;  ///< verilator_coverage --annotate output
  [[nodiscard]] std::string table() const;
};

/// Count the points of a coverage.dat (SystemC::Coverage-3 format, as
/// Verilator writes it): a point is covered when its count is nonzero.
/// Throws Error("fuzz.rtl_coverage") naming the file and line when it is
/// not that format.
RtlCoverage read_coverage_dat(const std::filesystem::path& path);

/// Merge the per-program files into `dir`/merged.dat and annotate the
/// sources (found in `sources`) into `dir`/annotated (verilator_coverage),
/// then count. Throws Error("fuzz.rtl_coverage") when verilator_coverage fails.
RtlCoverage merge_rtl_coverage(const std::filesystem::path& dir, const std::vector<std::filesystem::path>& files,
                               const std::filesystem::path& sources);

}  // namespace tpugen::sim
