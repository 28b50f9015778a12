/// @file derive.h
/// @brief Properties the seed calls derived, computed from the actions table:
/// which units an opcode reaches, each unit's cost per issue (its busiest
/// port), the sequencer's nr rewrites, each memory's writers and readers,
/// and the legal trip frontier of a restricted operand driven by the AGU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/instr.h"

namespace tpugen {

// --- Per issue (numeric) ---------------------------------------------------

/// Whether an action applies: its only_if holds for these resolved fields.
bool action_active(const Isa& isa, const Action& a, const Opcode& op, const std::vector<std::int64_t>& fields);
/// The action's item count for these fields.
std::int64_t action_items(const Isa& isa, const Action& a, const Opcode& op, const std::vector<std::int64_t>& fields);
/// The opcode's active actions, in table order.
std::vector<const Action*> active_actions(const Isa& isa, const Opcode& op, const std::vector<std::int64_t>& fields);

/// Units the opcode's actions name, in first-mention order (static).
std::vector<std::string> units_reached(const Spec& spec, const Opcode& op);
/// Units with at least one active action for these fields.
std::vector<std::string> units_active(const Isa& isa, const Opcode& op, const std::vector<std::int64_t>& fields);

/// Items on one port of a unit for one issue.
std::int64_t port_items(const Isa& isa, const Opcode& op, std::string_view unit, std::string_view port,
                        const std::vector<std::int64_t>& fields);
/// A unit's steps for one issue: the busiest port (or serial port group),
/// each port's items divided by its rate, rounded up; 0 when not reached.
std::int64_t unit_cost(const Isa& isa, const Opcode& op, std::string_view unit, const std::vector<std::int64_t>& fields);

/// Within one row of a unit's work, the step (0-based) on which an action
/// happens: the k-th action on a port takes step k (divided by the port's
/// rate); a write takes the row's last step, since it depends on every read.
struct RowSchedule {
  std::int64_t steps_per_row = 0;
  std::vector<std::pair<const Action*, std::int64_t>> steps;  ///< active actions of the unit
};
RowSchedule row_schedule(const Isa& isa, const Opcode& op, std::string_view unit,
                         const std::vector<std::int64_t>& fields);

// --- Symbolic --------------------------------------------------------------

/// c + a*nr + b*T: every item count in the spec is linear in nr and T.
struct LinearForm {
  std::int64_t constant = 0, per_nr = 0, per_t = 0;
  [[nodiscard]] std::string text() const;  ///< "T + 1", "2 * nr", "nr"
  [[nodiscard]] std::int64_t at(std::int64_t nr, std::int64_t t) const { return constant + per_nr * nr + per_t * t; }
  bool operator==(const LinearForm&) const = default;
};

/// One (opcode, unit) cost: the linear form when one holds for every legal
/// value of the operands the only_if conditions read, else nullopt.
struct CostEntry {
  std::string opcode, unit;
  std::optional<LinearForm> form;
  std::int64_t at_nr8 = 0;  ///< the cost at nr = 8 and the configured T
  [[nodiscard]] std::string text() const;
};
std::vector<CostEntry> cost_table(const Isa& isa);

/// The sequencer's nr rewrites: every unit it dispatches to whose own work
/// count differs from the instruction's row count.
struct Rewrite {
  std::string opcode, unit;
  LinearForm nr;  ///< the rewritten nr
};
std::vector<Rewrite> nr_rewrites(const Isa& isa);

/// Who writes and who reads each memory, from the actions (the host included).
struct MemoryAccess {
  std::string opcode;   ///< or "the host"
  std::string operand;  ///< the base operand naming the rows
  std::string condition;  ///< the only_if text, or empty
};
std::vector<MemoryAccess> memory_writers(const Spec& spec, const Memory& mem);
std::vector<MemoryAccess> memory_readers(const Spec& spec, const Memory& mem);

/// How many trips of a loop an AGU term (base + iv * stride) can drive a
/// restricted operand and stay legal: the largest t with every
/// base + i * stride (i < t) legal; `cap` when the progression never leaves
/// the set, 0 when base itself is illegal.
std::int64_t agu_legal_trip(const Legal& legal, std::int64_t base, std::int64_t stride, const Scope& params,
                            std::int64_t cap);

}  // namespace tpugen
