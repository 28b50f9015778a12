/// @file coverage.h
/// @brief The fuzzer's coverage model: named bins a campaign reaches.
///
/// A bin is "family/name" (e.g. "agu/mm.acc/L1/n3", "distance/vadd.ar_s2/exact").
/// Coverage::for_isa derives from the spec and the build parameters every
/// bin a legal program can reach, and lists the bins it rules out with the
/// reason (a retired opcode, an operand that cannot take two values, ...).
/// add() counts the bins one case reaches: static ones from the program and
/// its issue stream, dynamic ones from its model run. Two Coverage values of
/// the same build merge (campaign shards), print as a table and round-trip
/// through JSON. docs/fuzz.md describes every family.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/core/facts.h"
#include "fuzz/core/model_run.h"
#include "fuzz/core/random_program.h"

namespace tpugen::fuzz {

class Coverage {
 public:
  /// No bins at all (what from_json fills).
  Coverage() = default;
  /// Every bin of a build at zero hits, and the bins the spec rules out.
  static Coverage for_isa(const Isa& isa);

  /// One case: the bins of its program, and the dynamic bins of its model
  /// run. Throws Error("fuzz.coverage_build") for an Isa of another build.
  /// Not thread-safe: one Coverage per thread, merged at the end.
  void add(const Isa& isa, const FuzzCase& c, const ModelRun& run);
  /// The same, running the model (run_model) first.
  void add(const Isa& isa, const FuzzCase& c);
  /// The static bins of a program alone: everything but the model run's.
  /// Counts as a case. Works on any program that expands (a broken promise
  /// is not an error here: the bins it reaches are counted all the same).
  void add_program(const Isa& isa, const Program& program);

  /// Add another shard's hits. Throws Error("fuzz.coverage_merge") when the
  /// two were made for different builds (spec or parameters).
  void merge(const Coverage& other);

  /// "TinyTPU-isa v1 <sha256 prefix> T=4 MAXDIM=16 ...": the build the bins belong to.
  [[nodiscard]] const std::string& build() const { return build_; }
  [[nodiscard]] std::int64_t cases() const { return cases_; }
  /// Every reachable bin and its hit count.
  [[nodiscard]] const std::map<std::string, std::int64_t>& bins() const { return hits_; }
  /// Bins the spec rules out in this build, and why.
  [[nodiscard]] const std::map<std::string, std::string>& unreachable() const { return unreachable_; }
  /// Bins hit that are not in the reachable set: a mistake in this model
  /// (or a program that breaks a contract); empty for checked programs.
  [[nodiscard]] const std::map<std::string, std::int64_t>& stray() const { return stray_; }
  [[nodiscard]] std::int64_t hits(std::string_view bin) const;
  /// Reachable bins nothing has hit yet, sorted.
  [[nodiscard]] std::vector<std::string> missing() const;
  [[nodiscard]] bool complete() const { return missing().empty(); }
  [[nodiscard]] std::size_t reached() const;

  /// A readable table: per family reached / reachable, then the missing
  /// bins and the unreachable ones with their reasons.
  [[nodiscard]] std::string table() const;
  [[nodiscard]] std::string to_json() const;
  /// Throws Error("fuzz.coverage_json") naming what is wrong.
  static Coverage from_json(std::string_view text);

  bool operator==(const Coverage& o) const {
    return build_ == o.build_ && cases_ == o.cases_ && hits_ == o.hits_ && unreachable_ == o.unreachable_ &&
           stray_ == o.stray_;
  }

 private:
  void hit(const std::string& bin);
  const IsaFacts& facts(const Isa& isa);
  void program_bins(const IsaFacts& f, const Program& program);

  std::string build_;
  std::int64_t cases_ = 0;
  std::map<std::string, std::int64_t> hits_;
  std::map<std::string, std::string> unreachable_;
  std::map<std::string, std::int64_t> stray_;
  std::shared_ptr<const IsaFacts> facts_;  ///< derived facts of the last Isa add() saw (not part of the value)
  const Isa* facts_isa_ = nullptr;
};

/// The build a Coverage belongs to: the spec's name, version and digest, and the build parameters.
std::string coverage_build(const Isa& isa);

}  // namespace tpugen::fuzz
