/// @file machine.h
/// @brief What `tpugen ime run` runs a program on: the host core (XLEN 64,
/// the scalar and RVV instructions of spec/ime.yaml's `host`) and its
/// matrix unit (matrix_unit.h), over a flat byte-addressed memory. Every
/// instruction is checked before it changes anything: an exception (an
/// illegal instruction, an access fault) leaves the machine as it was
/// before the instruction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ime/program.h"
#include "model/ime/matrix_unit.h"
#include "spec/ime_spec.h"

namespace tpugen::ime {

struct Machine {
  /// The state a run starts from: registers and memory zero, vtype
  /// e8, m1, tu, mu with vl = VLMAX (as after `vsetvli t0, zero, e8, m1`:
  /// a program of smt.* instructions alone runs), MCPM.BF16 = bf16.
  Machine(const ImeSpec& spec, const ImeProfile& profile, std::size_t memory_bytes, bool bf16);

  MatrixState unit;  ///< the vector registers, vtype's LMUL and SEW, MCPM.BF16 as the matrix unit reads them
  std::array<std::uint64_t, 32> x{};
  std::uint64_t vl = 0;
  std::uint32_t vtype = 0;  ///< vsetvli's immediate, as written
  bool vill = false;
  std::uint64_t mcpm = 0;
  std::vector<std::uint8_t> memory;
};

/// An exception: its cause ("illegal_instruction" or "access_fault"), the
/// rule broken (the spec's) and what broke it.
struct Exception {
  std::string cause, rule, message;
};

/// Where a run stopped, if it did: the exception and the instruction.
struct Stop {
  Exception exception;
  std::size_t index = 0;  ///< the instruction's index in the program
  int line = 0;           ///< its source line, 0 for a binary
  std::uint32_t word = 0;
  std::string text;  ///< the instruction, disassembled
};

struct RunResult {
  std::size_t retired = 0;
  std::optional<Stop> stop;
};

/// One instruction; an exception leaves `m` unchanged.
[[nodiscard]] std::optional<Exception> step(const ImeSpec& spec, const ImeProfile& profile, std::uint32_t word,
                                            Machine& m);

/// The program from its first word to its last, stopping at an exception.
/// Throws Error("ime.model") when the spec names a host operation the
/// model does not implement.
[[nodiscard]] RunResult run(const ImeSpec& spec, const ImeProfile& profile, const Program& program, Machine& m);

/// Every illegal instruction of a program on a profile, in order: the
/// program runs on a machine with no memory, and an instruction that
/// raises an exception is skipped (no rule depends on the data, and the
/// scalar registers, vtype and MCPM follow from the program alone). Access
/// faults, which depend on the memory a run is given, are not reported.
[[nodiscard]] std::vector<Stop> illegal_instructions(const ImeSpec& spec, const ImeProfile& profile,
                                                     const Program& program, bool bf16);

}  // namespace tpugen::ime
