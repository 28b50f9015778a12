/// @file campaign.h
/// @brief How a fuzz case compares on a target and the model (Verdict),
/// shrinking a case that disagrees on any target, reproducer directories.
/// Nothing here runs a simulator: fuzz/rtl/rtl_target.h runs cases on the RTL.
///
/// The comparison is the whole of C after the run and every on-chip row the
/// model wrote (spad, vr, ar), and the RTL must reach done. A case whose
/// program the checker refuses, or that reads never-written rows on the
/// model, is not a valid case (the shrinker never keeps one).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/core/random_program.h"
#include "fuzz/core/model_run.h"

namespace tpugen::fuzz {

/// How one case ran on both engines.
struct Verdict {
  enum Kind { Agree, Status, C, State, Invalid } kind = Agree;
  std::string detail;            ///< the first difference, or why the case is invalid
  std::uint64_t rtl_cycles = 0;  ///< the RTL's cycles (0 when it did not run)
  [[nodiscard]] bool mismatch() const { return kind == Status || kind == C || kind == State; }
};
std::string to_string(Verdict::Kind k);

/// The model's run of a case (check_program, then the model without a read
/// of a never-written row), or why the case is not valid.
struct ModelOutcome {
  std::optional<ModelRun> run;
  std::string invalid;  ///< why the case is not valid (run is empty)
};
ModelOutcome run_model_checked(const Isa& isa, const FuzzCase& c);

/// Runs one case on a target (the RTL: fuzz/rtl/rtl_target.h) against the
/// model and says how they compare.
using CaseRunner = std::function<Verdict(const FuzzCase&)>;

struct ShrinkResult {
  FuzzCase shrunk;
  Verdict verdict;    ///< the shrunk case's
  int attempts = 0;   ///< candidates tried
  int accepted = 0;   ///< candidates that kept the mismatch
};

/// Make a disagreeing case smaller while it still disagrees: drop
/// instructions (a loop with its body, or unwrapped), lower loop trips and
/// row counts, drop AGU terms, then zero operand rows and C's prefill. Every
/// candidate must pass check_program and run on the model without unwritten
/// reads. Stops early when `stop` returns true.
ShrinkResult shrink(const Isa& isa, const FuzzCase& failing, const Verdict& verdict, const CaseRunner& run_case,
                    const std::function<bool()>& stop);

/// What a reproducer records besides the case itself.
struct ReproInfo {
  std::string command;            ///< the command line that found it
  std::string generator_options;  ///< JSON object: the RTL generator options
  std::string run_options;        ///< JSON object: latency, backpressure, seed, max_cycles
  std::int64_t original_instructions = 0;
  int shrink_attempts = 0;
};

/// Write a reproducer directory: program.s (the case's assembly), A.npy,
/// B.npy, C.npy (the DRAM images, MAXDIM x MAXDIM int8), case.json (build
/// parameters, options, seed, distribution, verdict) and replay.sh (the
/// exact command that reruns it).
void write_reproducer(const std::filesystem::path& dir, const Isa& isa, const FuzzCase& c, const Verdict& v,
                      const ReproInfo& info);

/// A reproducer read back: the case and the parsed case.json.
struct Reproducer {
  FuzzCase fuzz_case;
  std::string case_json;  ///< the text of case.json
};
/// Throws Error("fuzz.replay") naming the file for a missing or malformed part.
Reproducer read_reproducer(const std::filesystem::path& dir, const Isa& isa);

}  // namespace tpugen::fuzz
