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
#include <string_view>
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

  /// Host-side memories with a DRAM layout (A, B, C): the memory's depth
  /// (MAXDIM * MAXDIM) int8 values, row-major, dram.rows (MAXDIM) rows of
  /// depth / dram.rows lanes. Throws tpugen::Error("model.size") for a wrong
  /// size and Error("model.memory") for a memory without a DRAM layout.
  /// Host memories count as written from the start (their initial value is 0).
  void set_dram(std::string_view memory, std::vector<std::int8_t> bytes);
  [[nodiscard]] const std::vector<std::int8_t>& dram(std::string_view memory) const;
  /// Which bytes of a DRAM memory a program's writes stored (set_dram does
  /// not count), one flag a byte in dram()'s order: the bytes a unit that
  /// writes back only what the core wrote (a compute unit on the mesh) writes.
  [[nodiscard]] const std::vector<bool>& dram_stored(std::string_view memory) const;

  /// Execute a program. Throws tpugen::Error("model.*") naming the
  /// instruction for an access outside a memory or a malformed program, and
  /// Error("expand.*") for control flow the sequencer cannot follow or more
  /// than `max_issues` issues (see for_each_issue).
  void run(const Program& program, std::size_t max_issues = kMaxIssues);
  /// Decode an image (header + instructions) and run it.
  void run_image(std::span<const std::uint64_t> words, std::size_t max_issues = kMaxIssues);

  /// On-chip memory rows (spad, vr, ar): lane values, sign-extended. Every
  /// on-chip row starts 0 and unwritten (the hardware clears nothing). For a
  /// DRAM memory, a row is one DRAM row; depth() is then dram.rows. Throws
  /// Error("model.memory") for an unknown memory, Error("model.bounds") for a
  /// row outside it.
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
  /// How one memory is laid out, from its depth and row_bits expressions and its format.
  struct Layout {
    const Memory* memory = nullptr;
    std::int64_t depth = 0;       ///< rows (on-chip), or lanes in all (DRAM)
    std::int64_t lanes = 0;       ///< lanes per row (on-chip), or per depth entry (DRAM)
    std::int64_t lo = 0, hi = 0;  ///< the range of one lane in the memory's format
    std::int64_t dram_rows = 0;   ///< DRAM: rows, lanes per row, lanes per packed word
    std::int64_t dram_row_lanes = 0;
    std::int64_t packed_lanes = 0;
    [[nodiscard]] bool dram() const { return dram_rows > 0; }
    [[nodiscard]] std::int64_t words_per_row() const { return dram_row_lanes / packed_lanes; }
  };
  struct Executor;  ///< one issue's execution over the actions table; defined in model.cpp

  [[nodiscard]] const Layout& layout(std::string_view memory) const;
  void check_actions() const;

  const Isa* isa_;
  std::map<std::string, Layout, std::less<>> layouts_;
  std::map<std::string, std::vector<std::vector<std::int64_t>>, std::less<>> rows_;
  std::map<std::string, std::vector<bool>, std::less<>> written_;
  std::map<std::string, std::vector<std::int8_t>, std::less<>> dram_;
  std::map<std::string, std::vector<bool>, std::less<>> dram_stored_;
  std::vector<UnwrittenRead> unwritten_;
  std::map<std::string, std::int64_t> steps_;
  std::size_t issues_ = 0;
};

}  // namespace tpugen
