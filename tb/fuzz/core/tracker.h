/// @file tracker.h
/// @brief Issue-by-issue bookkeeping of what a program does to the memories:
/// which on-chip rows hold data, when each row of a distance-tracked memory
/// was last written (in its owner unit's iterations), and each unit's steps.
///
/// The generator runs every candidate through a Tracker and keeps it only if
/// it keeps the tracker's promises, which are stricter than check_program's
/// contracts: every row any action reads (a copy's source included) was
/// written before the issue, every access lies inside its memory, every
/// resolved field fits its encoding and holds a legal value, and every read
/// of a distance-tracked row comes at least the contract's distance after
/// its write. The coverage model runs the same Tracker over a finished
/// program to see its accesses and distances.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/core/facts.h"
#include "isa/program.h"

namespace tpugen::fuzz {

/// One access an issue made, resolved.
struct IssueAccess {
  const AccessFacts* access = nullptr;
  std::int64_t base = 0;
  std::int64_t items = 0;
  bool inside = true;  ///< the rows lie inside the memory (lenient mode records the others too)
};

/// One read of a row of a distance-tracked memory, and how many owner-unit
/// iterations after the write it depends on it comes.
struct DistanceRead {
  const AccessFacts* access = nullptr;
  std::int64_t row = 0;
  std::int64_t distance = 0;
};

/// What one issue did.
struct IssueEvents {
  std::vector<IssueAccess> accesses;
  std::vector<DistanceRead> distances;
};

class Tracker {
 public:
  explicit Tracker(const IsaFacts& facts);

  /// Apply one issue. Returns an empty string when it keeps every promise,
  /// else the first broken one (the state is then partly updated: apply to
  /// a copy when the answer decides whether to keep it). `events`, when
  /// given, receives the issue's accesses and distance-tracked reads.
  ///
  /// `lenient` keeps going past a broken promise (the coverage model looks at
  /// programs the generator did not make): it still returns the first one,
  /// but records every access that lies inside its memory and every distance.
  std::string apply(const Issue& issue, IssueEvents* events = nullptr, bool lenient = false);
  /// Apply every issue of a program (loops expanded); the first broken promise, or empty.
  std::string apply(const Program& program);

  /// Mark rows as holding data without a write (what-if planning); their
  /// distance bookkeeping is untouched.
  void assume_written(std::size_t memory, std::int64_t first, std::int64_t end);

  [[nodiscard]] bool written(std::size_t memory, std::int64_t row) const;
  /// Maximal runs [first, last + 1) of written rows at least `min_length` long.
  [[nodiscard]] std::vector<std::pair<std::int64_t, std::int64_t>> written_runs(std::size_t memory,
                                                                                std::int64_t min_length) const;
  /// The steps of the busiest unit so far.
  [[nodiscard]] std::int64_t max_unit_steps() const;
  [[nodiscard]] std::int64_t issues() const { return issues_; }
  /// The owner unit's iteration count so far for a distance-tracked memory.
  [[nodiscard]] std::int64_t iteration(std::size_t memory) const { return iteration_[memory]; }
  /// The iteration of the last write of a row (-1: never written).
  [[nodiscard]] std::int64_t last_write(std::size_t memory, std::int64_t row) const;

 private:
  const IsaFacts* facts_;
  std::vector<std::vector<bool>> written_;       ///< per memory (DRAM: unused)
  std::vector<std::vector<std::int64_t>> last_;  ///< per distance-tracked memory
  std::vector<std::int64_t> iteration_;          ///< per memory
  std::vector<std::int64_t> unit_steps_;         ///< per spec unit
  std::int64_t issues_ = 0;
};

}  // namespace tpugen::fuzz
