/// @file builder.h
/// @brief The loop-nest builder: programs written as C++ loop nests.
///
/// Nesting depth is the AGU level; the only handle on a level is the
/// induction variable its loop hands the body. The builder chooses nothing:
/// the programmer writes the tiling, the loop order and the layout; the
/// builder derives every level, every AGU term, every loop/endloop pair and
/// the encoded word. It refuses, at the point of writing (tpugen::Error
/// "builder.*"): a nest deeper than LOOP_DEPTH, a trip count of 0 (or over
/// the nr field), an induction variable used outside its loop, more terms
/// than AGU_TERMS, an unknown opcode or operand, a missing operand.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "isa/program.h"

namespace tpugen {

/// An induction variable: a handle on one open loop.
struct Iv {
  std::size_t id = 0;  ///< unique per builder
  std::int64_t level = 0;
  std::string name;
};

/// An address: a base plus an ordered list of (iv, stride) terms.
class Ref {
 public:
  Ref(std::int64_t base = 0) : base_(base) {}  // NOLINT: implicit on purpose
  [[nodiscard]] Ref at(const Iv& iv, std::int64_t stride) const;
  [[nodiscard]] std::int64_t base() const { return base_; }
  [[nodiscard]] const std::vector<std::pair<Iv, std::int64_t>>& terms() const { return terms_; }

 private:
  std::int64_t base_;
  std::vector<std::pair<Iv, std::int64_t>> terms_;
};

class ProgramBuilder {
 public:
  ProgramBuilder(const Isa& isa, std::string source);

  /// loop ... endloop around `body`, which receives the induction variable.
  void loop(std::int64_t trip, const std::string& name, const std::function<void(const Iv&)>& body);
  /// One instruction by opcode name, operands by name; nr is the row count
  /// (omit it, or pass 0, for an opcode whose nr is none).
  void emit(std::string_view opcode, std::initializer_list<std::pair<std::string_view, Ref>> operands,
            std::int64_t nr = 0);

  /// The program so far; throws if a loop is still open.
  [[nodiscard]] Program finish() const;

 private:
  const Isa* isa_;
  Program program_;
  std::vector<Iv> open_;
  std::size_t next_id_ = 0;
};

}  // namespace tpugen
