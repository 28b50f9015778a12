/// @file model.h
/// @brief The bit-exact reference model: the oracle of every RTL test.
///
/// It executes a program's issue stream over the memories the spec names,
/// driven by the actions table: each action reads, writes, emits, receives
/// or computes by the names the spec gives (states, ports, computes,
/// operands). The model's code names no opcode number, no bit position and
/// no opcode; the arithmetic of each named compute follows spec.numerics
/// (wrap at the accumulator width, saturate to the operand range).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tpugen {

/// A read of a row no instruction (or host) ever wrote.
struct UnwrittenRead {
  std::size_t pc = 0;
  int line = 0;
  std::string opcode;
  std::string memory;
  std::int64_t row = 0;
};

class Model {
 public:
  explicit Model(const Isa& isa);

  /// Host-side memories with a DRAM layout (A, B, C): rows x (rows) int8
  /// values, row-major, rows = the spec's dram.rows (MAXDIM). Throws
  /// tpugen::Error("model.size") for a wrong size.
  void set_dram(std::string_view memory, std::vector<std::int8_t> bytes);
  [[nodiscard]] const std::vector<std::int8_t>& dram(std::string_view memory) const;

  /// Execute a program. Throws tpugen::Error("model.*") naming the
  /// instruction for an access outside a memory or a malformed program.
  void run(const Program& program);
  /// Decode an image (header + instructions) and run it.
  void run_image(std::span<const std::uint64_t> words);

  /// On-chip memory rows (spad, vr, ar): lane values, sign-extended.
  [[nodiscard]] std::vector<std::int64_t> row(std::string_view memory, std::int64_t index) const;
  [[nodiscard]] bool written(std::string_view memory, std::int64_t index) const;
  [[nodiscard]] std::int64_t depth(std::string_view memory) const;

  /// Reads of never-written rows by an arithmetic consumer, in issue order
  /// (a pure copy of an unwritten row is not one; its copy is unwritten).
  [[nodiscard]] const std::vector<UnwrittenRead>& unwritten_reads() const { return unwritten_; }
  /// Steps each unit spent (its cost summed over issues), by unit name.
  [[nodiscard]] const std::map<std::string, std::int64_t>& unit_steps() const { return steps_; }
  [[nodiscard]] std::size_t issues() const { return issues_; }

 private:
  struct Store;  // defined in model.cpp
  const Isa* isa_;
  std::map<std::string, std::vector<std::vector<std::int64_t>>, std::less<>> rows_;
  std::map<std::string, std::vector<bool>, std::less<>> written_;
  std::map<std::string, std::vector<std::int8_t>, std::less<>> dram_;
  std::vector<UnwrittenRead> unwritten_;
  std::map<std::string, std::int64_t> steps_;
  std::size_t issues_ = 0;
};

}  // namespace tpugen
