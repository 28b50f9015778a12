/// @file facts.h
/// @brief What the fuzzer knows about the ISA, derived once from the spec and
/// the build parameters: every opcode's operands (which field, which AGU
/// target, which legal values, whether an action's only_if reads it), the
/// memory accesses its actions make and through which base operand, the
/// largest row count a legal instance can carry, and the memories with their
/// row counts and distance contracts.
///
/// Nothing here names an opcode number, a bit position or a memory size: the
/// program generator and the coverage model both read the ISA through this.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "isa/instr.h"

namespace tpugen::fuzz {

/// One operand of an opcode.
struct OperandFacts {
  const Operand* operand = nullptr;
  std::size_t field = 0;            ///< index into Instr::fields
  std::int64_t target = 0;          ///< the AGU target that names its field (0: none)
  std::int64_t field_max = 0;       ///< the field's usable maximum under the encoding rule
  bool selector = false;            ///< an only_if of the opcode's actions reads it
  std::vector<std::int64_t> legal;  ///< its legal values, ascending, when restricted; empty when not
  [[nodiscard]] bool restricted() const { return operand->legal.has_value(); }
  [[nodiscard]] const std::string& name() const { return operand->name; }
};

/// One read or write action of an opcode, on a memory, at rows named by a base operand.
struct AccessFacts {
  const Action* action = nullptr;
  std::size_t memory = 0;   ///< index into IsaFacts::memories()
  std::size_t operand = 0;  ///< index into OpcodeFacts::operands of the base operand
  bool read = false;        ///< a read; else a write
};

/// One opcode.
struct OpcodeFacts {
  const Opcode* op = nullptr;
  std::vector<OperandFacts> operands;
  std::vector<AccessFacts> accesses;  ///< every read or write action, in table order
  /// Data opcodes: the largest nr some legal instance carries in this build
  /// (MAXROWS, or less where a memory has fewer rows than that); 0 otherwise.
  std::int64_t max_rows = 0;
  [[nodiscard]] bool live() const { return !op->retired; }
  [[nodiscard]] bool data() const { return op->nr == NrKind::Rows; }
  [[nodiscard]] const std::string& name() const { return op->name; }
  /// Index into operands of the operand with this name; operands.size() when none.
  [[nodiscard]] std::size_t operand_index(std::string_view name) const;
  /// The operands an only_if or an item count reads: with nr, what an issue's
  /// active actions and costs depend on (the others only move addresses).
  std::vector<std::size_t> shape_operands;
};

/// Everything about one issue that depends only on its opcode, nr and shape
/// operands: the active accesses and their item counts, each unit's cost,
/// and the row schedule of every distance-tracked memory's owner.
struct IssueShape {
  std::vector<const AccessFacts*> active;
  std::vector<std::int64_t> items;      ///< per active access
  std::vector<std::int64_t> unit_cost;  ///< per spec unit
  struct Distance {
    std::size_t memory = 0;
    std::int64_t cost = 0;  ///< the owner unit's iterations for the issue
    std::int64_t steps_per_row = 1;
    /// (index into active, step within the row), reads before the write on a step
    std::vector<std::pair<std::size_t, std::int64_t>> events;
  };
  std::vector<Distance> distances;  ///< one per distance-tracked memory the issue costs its owner
};

/// One memory an action reads or writes.
struct MemoryFacts {
  const Memory* memory = nullptr;
  std::int64_t rows = 0;               ///< on-chip depth, or DRAM rows
  bool dram = false;                   ///< a host-side memory with a DRAM layout
  bool host_written = false;           ///< the host fills it before the run (counts as written)
  const Contract* distance = nullptr;  ///< a read-after-write distance contract on it, if any
  std::int64_t min_distance = 0;       ///< that contract's minimum, in the owner unit's iterations
  [[nodiscard]] const std::string& name() const { return memory->name; }
};

class IsaFacts {
 public:
  explicit IsaFacts(const Isa& isa);

  [[nodiscard]] const Isa& isa() const { return *isa_; }
  /// Every opcode of the spec, in spec order (retired ones included; see live()).
  [[nodiscard]] const std::vector<OpcodeFacts>& opcodes() const { return opcodes_; }
  [[nodiscard]] const OpcodeFacts* opcode(std::string_view name) const;
  [[nodiscard]] const OpcodeFacts& of(const Opcode& op) const;
  [[nodiscard]] const std::vector<MemoryFacts>& memories() const { return memories_; }
  [[nodiscard]] std::size_t memory_index(std::string_view name) const;  ///< throws for an unknown one

  [[nodiscard]] const Opcode& loop_op() const { return *loop_; }
  [[nodiscard]] const Opcode& endloop_op() const { return *endloop_; }
  [[nodiscard]] bool control(const Opcode& op) const { return &op == loop_ || &op == endloop_; }

  std::int64_t loop_depth = 0;        ///< LOOP_DEPTH
  std::int64_t agu_terms = 0;         ///< AGU_TERMS (the term layout's count)
  std::int64_t trip_max = 0;          ///< the largest loop trip count the nr field carries
  std::int64_t stride_max = 0;        ///< the largest AGU stride
  std::int64_t max_instructions = 0;  ///< what IMEM_SIZE (and the static count's slice) holds
  std::int64_t count_max = 0;         ///< the smallest usable maximum of a dynamic header count

  /// The accesses active for these resolved fields.
  [[nodiscard]] std::vector<const AccessFacts*> active(const OpcodeFacts& op,
                                                       const std::vector<std::int64_t>& fields) const;
  [[nodiscard]] std::int64_t items(const OpcodeFacts& op, const AccessFacts& a,
                                   const std::vector<std::int64_t>& fields) const;
  /// Every combination of the selector operands' legal values (one entry,
  /// empty, when the opcode has no selector): what picks the active actions.
  [[nodiscard]] std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> selector_combinations(
      const OpcodeFacts& op) const;
  /// The issue's shape, computed once per (opcode, nr, shape operands) and
  /// cached (thread-safe).
  [[nodiscard]] const IssueShape& shape(const OpcodeFacts& op, const std::vector<std::int64_t>& fields) const;

 private:
  [[nodiscard]] IssueShape compute_shape(const OpcodeFacts& op, const std::vector<std::int64_t>& fields) const;

  const Isa* isa_;
  std::vector<OpcodeFacts> opcodes_;
  std::vector<MemoryFacts> memories_;
  const Opcode* loop_ = nullptr;
  const Opcode* endloop_ = nullptr;
  struct Cache {
    std::mutex mutex;
    std::map<std::vector<std::int64_t>, std::unique_ptr<IssueShape>> shapes;
  };
  std::unique_ptr<Cache> cache_ = std::make_unique<Cache>();
};

/// Why no AGU term on this operand can change its value in a legal
/// instruction of this build (its field is no AGU target, its legal values
/// hold no two consecutive ones, its memory has no row to move to); empty
/// when an effective term is possible.
std::string agu_blocker(const IsaFacts& facts, const OpcodeFacts& op, const OperandFacts& operand);

}  // namespace tpugen::fuzz
