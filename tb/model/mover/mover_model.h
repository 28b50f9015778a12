/// @file mover_model.h
/// @brief The memory mover's reference model (mover-notes §2 - §4), the
/// oracle of its RTL: a move over a byte-addressed memory, bit-exact for
/// every mode (COPY, GATHER, GENERATE, FILL, XFORM with the transform slot's
/// occupants), the GO-time fault checks in the spec's order with nothing
/// read or written when one fires (GATHER's index-dependent range check
/// follows the index load), and AXI_RESPONSE stopping the walk; and the
/// mover as its registers see it (writes, GO, STATUS).
#pragma once

#include <cstdint>

#include "model/mover/descriptor.h"
#include "model/mover/memory.h"
#include "spec/system_node_spec.h"

namespace tpugen::mover {

struct MoveResult {
  std::uint32_t fault = 0;  ///< STATUS.fault: the spec's fault code, 0 none
  std::uint64_t words_read = 0;
  std::uint64_t words_written = 0;
  /// The move read a word it had written: its data is timing-dependent on
  /// the RTL (mover-notes §4), so a comparison must not rely on it.
  bool read_after_write = false;
};

/// What the model refuses to run (Error "mover.limit"): a move of more
/// elements than this is a descriptor no test needs and no bench finishes.
struct MoverLimits {
  std::uint64_t max_elements = std::uint64_t{1} << 24;
};

/// Run the move `d` over `mem`. Throws Error("mover.spec") when the spec
/// lacks a mode or fault the model needs, Error("mover.limit") past `limits`.
MoveResult run_move(const SystemNodeSpec& spec, const MoveDescriptor& d, MoverMemory& mem,
                    const MoverLimits& limits = {});

/// The fill word: the immediate replicated in lanes of `lane_bits`.
MoverWord fill_word(std::uint32_t imm, int lane_bits);

/// The mover behind its registers. A GO runs the move to its end at once
/// (the model is never busy), sets STATUS.fault and, fault-free, counts it.
class MoverModel {
 public:
  MoverModel(const SystemNodeSpec& spec, MoverMemory& mem, MoverLimits limits = {});
  /// Apply a register write; true when it started a move.
  bool write(std::uint32_t offset, std::uint64_t value);
  /// A register read: STATUS's fields; 0 at any other offset.
  [[nodiscard]] std::uint64_t read(std::uint32_t offset) const;
  [[nodiscard]] const MoveResult& last() const { return last_; }
  [[nodiscard]] std::uint64_t moves_done() const { return moves_done_; }
  [[nodiscard]] const MoverRegisterFile& registers() const { return regs_; }

 private:
  const SystemNodeSpec* spec_;
  MoverMemory* mem_;
  MoverLimits limits_;
  MoverRegisterFile regs_;
  MoveResult last_;
  std::uint64_t moves_done_ = 0;
};

}  // namespace tpugen::mover
