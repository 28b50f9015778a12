/// @file expr.h
/// @brief The spec's small, safe expression language.
///
/// Integers only (64-bit, overflow is an error), Python-like syntax:
///   a if c else b | or | and | not | == != < <= > >= | | ^ & | << >>
///   | + - | * // % | unary - + ~ | ** | min(..) max(..) abs(.) | names
/// Names may be dotted (`fields.nr.usable_max`). Nothing else: no calls
/// besides the three builtins, no attribute access, no strings. Nesting
/// deeper than 200 levels (parentheses, unary operators, chains of binary
/// ones) is refused with expr.too_deep, since every pass over the tree recurses.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace tpugen {

/// Resolves a name to a value, or nullopt when it is unknown.
using Scope = std::function<std::optional<std::int64_t>(std::string_view)>;

/// Thrown by parse and eval; `offset` is the 0-based position in the text.
class ExprError : public std::runtime_error {
 public:
  ExprError(std::string rule, const std::string& message, std::size_t offset)
      : std::runtime_error(message), rule_(std::move(rule)), offset_(offset) {}
  [[nodiscard]] const std::string& rule() const { return rule_; }
  [[nodiscard]] std::size_t offset() const { return offset_; }

 private:
  std::string rule_;
  std::size_t offset_;
};

struct ExprNode;

/// A parsed expression: a value type, cheap to copy.
class Expr {
 public:
  Expr() = default;
  static Expr parse(std::string_view text);
  static Expr constant(std::int64_t value);

  [[nodiscard]] std::int64_t eval(const Scope& scope) const;
  [[nodiscard]] bool eval_bool(const Scope& scope) const { return eval(scope) != 0; }
  /// Every name the expression mentions.
  [[nodiscard]] std::set<std::string> names() const;
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] bool empty() const { return root_ == nullptr; }

  /// The expression in SystemVerilog syntax, fully parenthesised, with every
  /// name replaced by `name_text(name)` (throw from it to refuse a name).
  /// `//` becomes `/` and `%` stays `%`: the callers render expressions over
  /// non-negative values (fields, counts, parameters), where they agree.
  /// and/or/not become && || !, `a if c else b` becomes `c ? a : b`, min/max
  /// become conditionals, and integer literals are written unsized.
  [[nodiscard]] std::string render_sv(const std::function<std::string(std::string_view)>& name_text) const;

 private:
  std::shared_ptr<const ExprNode> root_;
  std::string text_;
};

/// A scope over a fixed set of name/value pairs layered over a parent scope.
Scope scope_with(std::initializer_list<std::pair<std::string_view, std::int64_t>> bindings,
                 Scope parent);

}  // namespace tpugen
