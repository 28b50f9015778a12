/// @file model_run.h
/// @brief A fuzz case on the reference model, issue by issue, with what the
/// coverage model needs from the run: the lanes each narrowing instruction
/// (one that reads an accumulator-format memory and writes an operand-format
/// one: mvout) saturates high, saturates low or passes through.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/core/random_program.h"
#include "model/core/model.h"

namespace tpugen::fuzz {

/// Lanes of the values a narrowing instruction read, by what the narrowing
/// to the operand range did to them.
struct Saturation {
  std::int64_t high = 0;  ///< above the operand range: clipped to its maximum
  std::int64_t low = 0;   ///< below it: clipped to its minimum
  std::int64_t none = 0;  ///< inside it: passed through
};

struct ModelRun {
  /// The model after the run. It ran one issue at a time (loops expanded by
  /// for_each_issue, each data issue run as a one-instruction program), so
  /// its memories are exactly Model::run's; its issues() and unit_steps()
  /// leave out the control issues (loop, endloop), which move no data.
  std::shared_ptr<Model> model;
  /// Reads of never-written rows, with the pc and line of the static instruction.
  std::vector<UnwrittenRead> unwritten;
  /// By opcode name, for every narrowing opcode the program issued.
  std::map<std::string, Saturation> saturation;
};

/// Run a case: A, B and C's prefill in DRAM, then the program. Throws
/// tpugen::Error as Model::run does.
ModelRun run_model(const Isa& isa, const FuzzCase& c);

/// The opcodes that narrow accumulator values to operands (read a memory of
/// accumulator format, write one of operand format), and the read action
/// whose rows they narrow, from the spec's actions and memory formats.
std::vector<std::pair<const Opcode*, const Action*>> narrowing_reads(const Spec& spec);

}  // namespace tpugen::fuzz
