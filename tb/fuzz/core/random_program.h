/// @file random_program.h
/// @brief Random legal TinyTPU-isa programs with operands: the fuzzer's cases.
///
/// A case is a pure function of (spec, build parameters, options, seed):
/// the program (which check_program accepts and the model runs without
/// reading a never-written row), its assembly text, and the three DRAM
/// images A, B and C's prefill, drawn from one of the original's operand
/// stress distributions. See docs/fuzz.md for what the generator reaches.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/core/facts.h"
#include "isa/program.h"

namespace tpugen::fuzz {

/// The operand stress distributions (shared/reference/tinytpu-notes.md):
/// full:     uniform over the operand range, with its minimum and maximum forced in
/// corner:   from {min, min + 1, -1, 0, 1, max - 1, max} of the operand range
/// mid:      uniform over [-16, 16]
/// boundary: sparse operands (A from {0, 1, -1}, B from {min, max, 1, -1, 0})
///           whose products sum to the saturation edges (max, max + 1, min, min - 1)
enum class Dist { Full, Corner, Mid, Boundary };
std::string to_string(Dist d);
/// "full", "corner", "mid", "boundary"; throws Error("fuzz.dist") for anything else.
Dist parse_dist(const std::string& name);

struct FuzzOptions {
  /// The work one program may do: its busiest unit's steps and its issue
  /// count each stay under this (0: the default, 3000; programs then run
  /// typically a few hundred to a few thousand RTL cycles). Never more than
  /// a header count carries.
  std::int64_t budget = 0;
  /// One program in `large_one_in` gets four times the budget (0: never).
  std::int64_t large_one_in = 16;
  /// At most this many static instructions (0: as many as IMEM_SIZE holds).
  std::int64_t max_instructions = 0;
  /// Opcodes (spec names) the generator never emits. A generator restricted
  /// this way leaves those opcodes' coverage bins unreached.
  std::vector<std::string> disabled_opcodes;
  /// Use this distribution for every case (default: drawn per case).
  std::optional<Dist> dist;
  /// Now and then emit AGU terms the assembler's text form cannot write (out
  /// of its canonical field/level order, a repeated field and level, stride
  /// 0): legal words the disassembler keeps as `.raw`.
  bool raw_terms = true;
};

/// One fuzz case.
struct FuzzCase {
  std::uint64_t seed = 0;
  Program program;                   ///< source "fuzz seed N"; every Instr's line is its line in `assembly`
  std::string assembly;              ///< disassemble(program): parse_assembly gives the program back
  Dist dist = Dist::Full;            ///< the distribution A and B were drawn from
  std::vector<std::int8_t> a, b, c;  ///< MAXDIM x MAXDIM row-major: A, B, and C before the run

  /// Same seed, distribution, operands, text and instructions (fields and terms).
  friend bool operator==(const FuzzCase& x, const FuzzCase& y) {
    return x.seed == y.seed && x.dist == y.dist && x.assembly == y.assembly && x.program.instrs == y.program.instrs &&
           x.a == y.a && x.b == y.b && x.c == y.c;
  }
};

/// What a directed block aims at: an instruction of `opcode` carrying exactly
/// these (operand, level) AGU terms, each on a loop of two or more trips;
/// `nr` rows when nr > 0; and when `exact_read` names an operand, its read of
/// a distance-tracked memory (ar) exactly the contract's minimum after the
/// write. Every case aims blocks at agu_aims[seed % size], row_aims[seed %
/// size] and distance_aims[seed % size], so any run of consecutive seeds as
/// long as a list aims at all of it.
struct Aim {
  std::string opcode;
  std::vector<std::pair<std::string, std::int64_t>> terms;  ///< (operand, level)
  std::int64_t nr = 0;
  std::string exact_read;
  bool flat = false;  ///< instead: a program without any loop
};

/// For every enabled opcode, level and term count: the operands an effective
/// term can drive (agu_blocker), in groups of that many terms; an opcode with
/// fewer operands than the count puts the rest on other levels. Last, one
/// flat aim: a program without loops.
std::vector<Aim> agu_aims(const IsaFacts& facts, const FuzzOptions& options = {});
/// Every enabled data opcode at the largest nr it can carry in the build.
std::vector<Aim> row_aims(const IsaFacts& facts, const FuzzOptions& options = {});
/// Every operand of an enabled opcode that reads a distance-tracked memory.
std::vector<Aim> distance_aims(const IsaFacts& facts, const FuzzOptions& options = {});

/// A program generator for one build (the Isa must outlive it). make(seed)
/// is a pure function of the build, the options and the seed, identical
/// across standard libraries. make() may run on several threads at once.
class Generator {
 public:
  explicit Generator(const Isa& isa, FuzzOptions options = {});
  /// Throws Error("fuzz.generator") if the program it built breaks a
  /// contract: a bug in the generator, never expected.
  [[nodiscard]] FuzzCase make(std::uint64_t seed) const;
  [[nodiscard]] const IsaFacts& facts() const { return *facts_; }
  [[nodiscard]] const FuzzOptions& options() const { return options_; }
  [[nodiscard]] const std::vector<Aim>& agu_aims() const { return agu_aims_; }
  [[nodiscard]] const std::vector<Aim>& row_aims() const { return row_aims_; }
  [[nodiscard]] const std::vector<Aim>& distance_aims() const { return distance_aims_; }

 private:
  const Isa* isa_;
  FuzzOptions options_;
  std::shared_ptr<const IsaFacts> facts_;
  std::vector<Aim> agu_aims_, row_aims_, distance_aims_;
};

/// Generator(isa, options).make(seed).
FuzzCase random_case(const Isa& isa, std::uint64_t seed, const FuzzOptions& options = {});

/// The operand images alone, as make() draws them for a seed and distribution.
void random_operands(const Isa& isa, std::uint64_t seed, Dist dist, std::vector<std::int8_t>& a,
                     std::vector<std::int8_t>& b, std::vector<std::int8_t>& c);

}  // namespace tpugen::fuzz
