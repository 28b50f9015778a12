/// @file assembler.cpp
/// @brief The text assembly format (docs/assembly.md): parse_assembly and disassemble.
///
/// Everything about opcodes, operands, fields and AGU terms comes from the spec through
/// `Isa`; the only names this file knows are the two control opcodes (`loop`, `endloop`),
/// looked up by name.
#include "isa/assembler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "util/text.h"

namespace tpugen {

namespace {

/// Expressions longer than this are refused (the evaluator recurses on nesting).
constexpr std::size_t kMaxExprChars = 1000;
/// Parenthesis nesting deeper than this is refused, for the same reason.
constexpr int kMaxParenDepth = 64;
/// Linearity is checked at every iv value 0 .. kDenseValues-1 (and at trip-1).
constexpr std::int64_t kDenseValues = 8;

/// Names the expression language reserves; a constant or an iv may not take them.
const std::set<std::string, std::less<>>& reserved_words() {
  static const std::set<std::string, std::less<>> kWords = {"if", "else", "and", "or", "not",
                                                            "min", "max", "abs"};
  return kWords;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// A piece of one source line and the 0-based column where it starts.
struct Piece {
  std::string_view text;
  std::size_t col = 0;
};

Piece trim(Piece p) {
  std::size_t b = 0;
  std::size_t e = p.text.size();
  while (b < e && is_space(p.text[b])) ++b;
  while (e > b && is_space(p.text[e - 1])) --e;
  return {p.text.substr(b, e - b), p.col + b};
}

Piece skip_space(Piece p) {
  std::size_t b = 0;
  while (b < p.text.size() && is_space(p.text[b])) ++b;
  return {p.text.substr(b), p.col + b};
}

/// The identifier at the start of `p` (empty when there is none); `rest` gets what follows.
Piece take_ident(Piece p, Piece& rest) {
  std::size_t n = 0;
  if (!p.text.empty() && is_ident_start(p.text[0])) {
    n = 1;
    while (n < p.text.size() && is_ident_char(p.text[n])) ++n;
  }
  rest = {p.text.substr(n), p.col + n};
  return {p.text.substr(0, n), p.col};
}

/// Split at commas outside parentheses.
std::vector<Piece> split_commas(Piece p) {
  std::vector<Piece> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < p.text.size(); ++i) {
    const char c = p.text[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth <= 0) {
      out.push_back({p.text.substr(start, i - start), p.col + start});
      start = i + 1;
    }
  }
  out.push_back({p.text.substr(start), p.col + start});
  return out;
}

/// Offset of `name` as a whole word in `text` (0 when not found).
std::size_t find_word(std::string_view text, std::string_view name) {
  auto word_char = [](char c) { return is_ident_char(c) || c == '.'; };
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool left = at == 0 || !word_char(text[at - 1]);
    const bool right = at + name.size() >= text.size() || !word_char(text[at + name.size()]);
    if (left && right) return at;
  }
  return 0;
}

/// Text made safe for a one-line `#` comment.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  return text;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(sep) : std::string()) + parts[i];
  return out;
}

/// The code part of a line: everything before `#`.
std::string_view strip_comment(std::string_view line) {
  const std::size_t hash = line.find('#');
  return hash == std::string_view::npos ? line : line.substr(0, hash);
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

/// An open induction variable that an expression mentions.
struct IvUse {
  std::string name;
  std::size_t level = 0;
  std::int64_t trip = 1;
};

/// What an expression is for: decides whether induction variables may appear.
enum class Use { Constant, Trip, Nr, Operand };

/// One `name=expr` of an instruction line.
struct Item {
  Piece name;
  Piece expr;
};

class Assembler {
 public:
  Assembler(const Isa& isa, std::string source)
      : isa_(isa),
        spec_(isa.spec()),
        loop_op_(spec_.opcode_named("loop")),
        endloop_op_(spec_.opcode_named("endloop")),
        loop_depth_(spec_.isa_constant("LOOP_DEPTH")) {
    program_.source = std::move(source);
  }

  Program run(std::string_view text) {
    const std::vector<std::string_view> lines = split_lines(text);
    collect_iv_names(lines);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      line_ = static_cast<int>(i + 1);
      statement(trim(Piece{strip_comment(lines[i]), 0}));
    }
    finish();
    return std::move(program_);
  }

 private:
  struct Frame {
    std::string iv;  ///< empty for `_` and for a loop written with .raw
    int line = 0;
    std::size_t col = 0;
    bool raw = false;
  };
  struct Constant {
    std::int64_t value = 0;
    int line = 0;
  };

  [[noreturn]] void fail(const std::string& rule, std::size_t col, const std::string& message) const {
    throw Error(rule, message, SourceLoc{program_.source, line_, static_cast<int>(col) + 1});
  }

  /// Every name a `loop` line declares, and where, so that a use outside the loop can say so.
  void collect_iv_names(const std::vector<std::string_view>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      Piece rest;
      const Piece kw = take_ident(trim(Piece{strip_comment(lines[i]), 0}), rest);
      if (kw.text != loop_op_.name || rest.text.empty() || !is_space(rest.text[0])) continue;
      const Piece iv = take_ident(skip_space(rest), rest);
      if (!iv.text.empty() && iv.text != "_") iv_lines_[std::string(iv.text)].push_back(static_cast<int>(i + 1));
    }
  }

  void statement(Piece code) {
    if (code.text.empty()) return;
    if (code.text[0] == '.') return directive(code);
    Piece rest;
    const Piece word = take_ident(code, rest);
    if (word.text.empty())
      fail("asm.syntax", code.col,
           fmt::format("a line starts with an opcode, 'const', or '.raw', not '{}'", code.text.substr(0, 1)));
    if (!rest.text.empty() && !is_space(rest.text[0]))
      fail("asm.syntax", rest.col,
           fmt::format("expected a space after '{}', found '{}'", word.text, rest.text.substr(0, 1)));
    rest = skip_space(rest);
    if (word.text == "const") return constant(rest);
    const Opcode* op = spec_.opcode(word.text);
    if (!op) {
      std::vector<std::string> names;
      for (const auto& o : spec_.opcodes) names.push_back(o.name);
      fail("asm.unknown_opcode", word.col,
           fmt::format("unknown opcode '{}'; the spec defines {} (and the directives 'const' and '.raw')",
                       word.text, join(names, ", ")));
    }
    if (op == &loop_op_) return loop(word, rest);
    instruction(*op, word, rest);
  }

  // --- names and expressions ----------------------------------------------

  [[nodiscard]] bool is_parameter(std::string_view name) const { return isa_.params().get(name).has_value(); }

  [[nodiscard]] const Frame* open_iv(std::string_view name) const {
    for (const auto& f : stack_)
      if (!f.iv.empty() && f.iv == name) return &f;
    return nullptr;
  }

  /// A constant or iv name must be a plain identifier, not reserved, not a parameter, not a
  /// constant, and not an open induction variable.
  void check_new_name(Piece name, std::string_view what) const {
    if (reserved_words().count(name.text))
      fail("asm.syntax", name.col, fmt::format("'{}' is reserved by the expression language; it cannot name {}",
                                               name.text, what));
    if (is_parameter(name.text))
      fail("asm.redefined", name.col,
           fmt::format("'{}' would shadow the build parameter or ISA constant {} = {}; choose another name for {}",
                       name.text, name.text, isa_.param(name.text), what));
    if (auto it = consts_.find(name.text); it != consts_.end())
      fail("asm.redefined", name.col, fmt::format("'{}' is already a constant (line {}); a name is defined once",
                                                  name.text, it->second.line));
    if (const Frame* f = open_iv(name.text))
      fail("asm.redefined", name.col,
           fmt::format("'{}' is already the induction variable of the enclosing loop at line {}", name.text, f->line));
  }

  Expr compile(Piece p, std::string_view what) const {
    if (p.text.empty()) fail("asm.expr", p.col, fmt::format("{} has no expression", what));
    if (p.text.size() > kMaxExprChars)
      fail("asm.expr", p.col, fmt::format("the expression for {} is longer than {} characters", what, kMaxExprChars));
    int depth = 0;
    for (std::size_t i = 0; i < p.text.size(); ++i) {
      if (p.text[i] == '(' && ++depth > kMaxParenDepth)
        fail("asm.expr", p.col + i, fmt::format("parentheses nest deeper than {} in {}", kMaxParenDepth, what));
      if (p.text[i] == ')') --depth;
    }
    try {
      return Expr::parse(p.text);
    } catch (const ExprError& e) {
      fail("asm.expr", p.col + std::min(e.offset(), p.text.size()),
           fmt::format("bad expression for {}: {}", what, e.what()));
    }
  }

  /// Check every name the expression mentions; return the open ivs it uses, by level.
  std::vector<IvUse> resolve_names(const Expr& e, Piece p, Use use, std::string_view what) const {
    std::vector<std::pair<std::size_t, std::string>> names;
    for (const auto& n : e.names()) names.emplace_back(find_word(p.text, n), n);
    std::sort(names.begin(), names.end());
    std::vector<IvUse> ivs;
    for (const auto& [offset, name] : names) {
      const std::size_t col = p.col + offset;
      if (consts_.count(name) || is_parameter(name)) continue;
      if (const Frame* f = open_iv(name)) {
        if (use == Use::Operand) {
          ivs.push_back({name, static_cast<std::size_t>(f - stack_.data()), isa_.nr(program_.instrs[frame_pc(*f)])});
          continue;
        }
        if (use == Use::Nr)
          fail("asm.nr", col, fmt::format("nr cannot use the induction variable '{}': nr is not an AGU target, so it "
                                          "is the same on every iteration",
                                          name));
        fail("asm.not_constant", col,
             fmt::format("{} must be a constant expression, but it uses the induction variable '{}'", what, name));
      }
      if (name == "_")
        fail("asm.unknown_name", col, "'_' marks a loop whose induction variable is unused; it has no value");
      if (auto it = iv_lines_.find(name); it != iv_lines_.end()) {
        std::vector<std::string> at;
        for (int l : it->second) at.push_back(std::to_string(l));
        fail("asm.iv_scope", col,
             fmt::format("'{}' is an induction variable, used here outside its loop (loops over '{}' start at "
                         "line {}); an induction variable exists only between its loop and endloop",
                         name, name, join(at, ", ")));
      }
      fail("asm.unknown_name", col,
           fmt::format("unknown name '{}' in {}: not a constant defined above, a build parameter, or an open "
                       "induction variable",
                       name, what));
    }
    std::sort(ivs.begin(), ivs.end(), [](const IvUse& a, const IvUse& b) { return a.level < b.level; });
    return ivs;
  }

  /// The static index of the loop instruction that opened frame `f`.
  [[nodiscard]] std::size_t frame_pc(const Frame& f) const {
    return loop_pcs_[static_cast<std::size_t>(&f - stack_.data())];
  }

  static std::string point_text(const std::vector<IvUse>& ivs, const std::vector<std::int64_t>& values) {
    std::vector<std::string> parts;
    for (std::size_t j = 0; j < ivs.size(); ++j) parts.push_back(fmt::format("{} = {}", ivs[j].name, values[j]));
    return join(parts, ", ");
  }

  std::int64_t eval_at(const Expr& e, Piece p, std::string_view what, const std::vector<IvUse>& ivs,
                       const std::vector<std::int64_t>& values) const {
    auto scope = [&](std::string_view name) -> std::optional<std::int64_t> {
      for (std::size_t j = 0; j < ivs.size(); ++j)
        if (ivs[j].name == name) return values[j];
      if (auto it = consts_.find(name); it != consts_.end()) return it->second.value;
      return isa_.params().get(name);
    };
    try {
      return e.eval(scope);
    } catch (const ExprError& err) {
      const bool zero = std::all_of(values.begin(), values.end(), [](std::int64_t v) { return v == 0; });
      const std::string at = zero ? std::string() : fmt::format(" at {}", point_text(ivs, values));
      fail("asm.expr", p.col + std::min(err.offset(), p.text.size()),
           fmt::format("evaluating {}{} fails: {}", what, at, err.what()));
    }
  }

  /// A constant expression (no ivs): its value.
  std::int64_t constant_value(Piece p, Use use, std::string_view what) const {
    const Expr e = compile(p, what);
    resolve_names(e, p, use, what);
    return eval_at(e, p, what, {}, {});
  }

  struct Linear {
    std::int64_t base = 0;
    std::vector<std::pair<std::size_t, std::int64_t>> strides;  ///< (level, stride), level ascending, nonzero
  };

  /// An operand expression as base + sum(iv * stride), verified (docs/assembly.md, "AGU derivation").
  Linear linearize(Piece p, std::string_view operand) const {
    const std::string what = fmt::format("operand {}", operand);
    const Expr e = compile(p, what);
    const std::vector<IvUse> ivs = resolve_names(e, p, Use::Operand, what);
    std::vector<std::int64_t> point(ivs.size(), 0);
    Linear lin;
    lin.base = eval_at(e, p, what, ivs, point);
    std::vector<std::int64_t> stride(ivs.size(), 0);
    for (std::size_t j = 0; j < ivs.size(); ++j) {
      point[j] = 1;
      if (__builtin_sub_overflow(eval_at(e, p, what, ivs, point), lin.base, &stride[j]))
        fail("asm.expr", p.col, fmt::format("{}: arithmetic overflow deriving the stride of '{}'", what, ivs[j].name));
      point[j] = 0;
    }
    verify_linear(e, p, what, ivs, lin.base, stride);
    for (std::size_t j = 0; j < ivs.size(); ++j)
      if (stride[j] < 0)
        fail("asm.negative_stride", p.col + find_word(p.text, ivs[j].name),
             fmt::format("{} = {} steps by {} per iteration of '{}'; an AGU term only adds iv * stride with a "
                         "stride of 0 or more",
                         what, p.text, stride[j], ivs[j].name));
    if (lin.base < 0)
      fail("asm.negative_base", p.col,
           fmt::format("{} = {} is {} when every induction variable is 0; a field holds no negative value",
                       what, p.text, lin.base));
    const std::int64_t stride_max = spec_.term.subfield("stride").usable_max;
    for (std::size_t j = 0; j < ivs.size(); ++j) {
      if (stride[j] > stride_max)
        fail("asm.stride_range", p.col + find_word(p.text, ivs[j].name),
             fmt::format("{} steps by {} per iteration of '{}', but an AGU stride holds at most {}", what, stride[j],
                         ivs[j].name, stride_max));
      if (stride[j] != 0) lin.strides.emplace_back(ivs[j].level, stride[j]);
    }
    return lin;
  }

  /// The values each iv takes in the linearity check: 0 .. kDenseValues-1 capped at the trip,
  /// 1 and 2 always, and the last iteration trip-1.
  static std::vector<std::int64_t> check_values(std::int64_t trip) {
    std::set<std::int64_t> v = {0, 1, 2};
    for (std::int64_t x = 0; x < std::min(trip, kDenseValues); ++x) v.insert(x);
    if (trip > 0) v.insert(trip - 1);
    return {v.begin(), v.end()};
  }

  void verify_linear(const Expr& e, Piece p, const std::string& what, const std::vector<IvUse>& ivs,
                     std::int64_t base, const std::vector<std::int64_t>& stride) const {
    if (ivs.empty()) return;
    std::vector<std::vector<std::int64_t>> values;
    for (const auto& iv : ivs) values.push_back(check_values(iv.trip));
    std::vector<std::size_t> at(ivs.size(), 0);
    std::vector<std::int64_t> point(ivs.size(), 0);
    for (;;) {
      std::int64_t expect = base;
      bool overflow = false;
      for (std::size_t j = 0; j < ivs.size(); ++j) {
        point[j] = values[j][at[j]];
        std::int64_t add = 0;
        overflow = overflow || __builtin_mul_overflow(point[j], stride[j], &add) ||
                   __builtin_add_overflow(expect, add, &expect);
      }
      const std::int64_t got = eval_at(e, p, what, ivs, point);
      if (overflow || got != expect) {
        std::vector<std::string> form = {std::to_string(base)};
        for (std::size_t j = 0; j < ivs.size(); ++j) form.push_back(fmt::format("{}*{}", ivs[j].name, stride[j]));
        fail("asm.nonlinear", p.col,
             fmt::format("{} = {} is not linear in the induction variables: at {} it is {}, but {} gives {}; an AGU "
                         "term can only add iv * stride to a base",
                         what, p.text, point_text(ivs, point), got, join(form, " + "),
                         overflow ? std::string("an overflow") : std::to_string(expect)));
      }
      std::size_t j = 0;
      while (j < ivs.size() && ++at[j] == values[j].size()) at[j++] = 0;
      if (j == ivs.size()) return;
    }
  }

  // --- statements -----------------------------------------------------------

  void constant(Piece rest) {
    Piece after;
    const Piece name = take_ident(rest, after);
    if (name.text.empty())
      fail("asm.syntax", rest.col, "expected 'const NAME = expression'");
    after = skip_space(after);
    if (after.text.empty() || after.text[0] != '=' || (after.text.size() > 1 && after.text[1] == '='))
      fail("asm.syntax", after.col, fmt::format("expected '=' after 'const {}'", name.text));
    if (name.text == "_") fail("asm.syntax", name.col, "'_' cannot name a constant");
    check_new_name(name, "a constant");
    if (auto it = iv_lines_.find(name.text); it != iv_lines_.end() && it->second.front() < line_)
      fail("asm.redefined", name.col,
           fmt::format("'{}' is the induction variable of the loop at line {}; a name is either a constant or an "
                       "induction variable",
                       name.text, it->second.front()));
    const Piece expr = trim(Piece{after.text.substr(1), after.col + 1});
    const std::int64_t v = constant_value(expr, Use::Constant, fmt::format("constant {}", name.text));
    consts_[std::string(name.text)] = Constant{v, line_};
  }

  void loop(Piece kw, Piece rest) {
    const std::string usage = fmt::format("expected '{} <iv> <trip>' (use '_' for an unused iv)", kw.text);
    Piece after;
    const Piece iv = take_ident(rest, after);
    if (iv.text.empty()) fail("asm.syntax", rest.text.empty() ? kw.col : rest.col, usage);
    if (after.text.empty()) fail("asm.syntax", after.col, fmt::format("the loop has no trip count; {}", usage));
    if (!is_space(after.text[0])) fail("asm.syntax", after.col, usage);
    if (iv.text != "_") check_new_name(iv, "an induction variable");
    if (static_cast<std::int64_t>(stack_.size()) >= loop_depth_) {
      std::vector<std::string> nest;
      for (const auto& f : stack_) nest.push_back(f.iv.empty() ? "_" : f.iv);
      nest.push_back(std::string(iv.text));
      fail("asm.loop_depth", kw.col,
           fmt::format("loops nest {} deep here (the nest is {}), but the hardware loop stack holds LOOP_DEPTH = {}",
                       nest.size(), join(nest, " > "), loop_depth_));
    }
    const Piece trip_text = trim(after);
    const std::int64_t trip = constant_value(trip_text, Use::Trip, "the loop's trip count");
    if (trip < 1)
      fail("asm.loop_trip", trip_text.col,
           fmt::format("the trip count is {}; a loop runs at least once (the sequencer's loop is do-while, so a trip "
                       "of 0 would still run its body once)",
                       trip));
    Instr in = isa_.make(loop_op_);
    in.fields[isa_.nr_index()] = trip;
    push(Frame{iv.text == "_" ? std::string() : std::string(iv.text), line_, kw.col, false});
    emit(std::move(in));
  }

  void push(Frame f) {
    stack_.push_back(std::move(f));
    loop_pcs_.push_back(program_.instrs.size());
  }

  void pop() {
    stack_.pop_back();
    loop_pcs_.pop_back();
  }

  void emit(Instr in) {
    in.line = line_;
    program_.instrs.push_back(std::move(in));
  }

  std::vector<Item> items(Piece rest) const {
    std::vector<Item> out;
    if (rest.text.empty()) return out;
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < rest.text.size(); ++i) {
      if (rest.text[i] == '(') open.push_back(i);
      if (rest.text[i] == ')' && !open.empty()) open.pop_back();
    }
    if (!open.empty()) fail("asm.expr", rest.col + open.back(), "this '(' is never closed");
    for (const Piece& raw : split_commas(rest)) {
      const Piece item = trim(raw);
      if (item.text.empty()) fail("asm.syntax", item.col, "an empty operand between commas");
      Piece after;
      const Piece name = take_ident(item, after);
      if (name.text.empty())
        fail("asm.syntax", item.col, fmt::format("expected operand=expression, found '{}'", item.text));
      after = skip_space(after);
      if (after.text.empty() || after.text[0] != '=' || (after.text.size() > 1 && after.text[1] == '='))
        fail("asm.syntax", after.col, fmt::format("expected '=' after the operand name '{}'", name.text));
      out.push_back({name, trim(Piece{after.text.substr(1), after.col + 1})});
    }
    return out;
  }

  void instruction(const Opcode& op, Piece word, Piece rest) {
    const std::vector<Item> given = items(rest);
    std::map<std::string, const Item*, std::less<>> by_name;
    const Item* nr = nullptr;
    for (const Item& it : given) {
      if (auto prev = by_name.find(it.name.text); prev != by_name.end())
        fail("asm.duplicate_operand", it.name.col,
             fmt::format("{} is given twice (first at column {})", it.name.text, prev->second->name.col + 1));
      by_name[std::string(it.name.text)] = &it;
      if (it.name.text == "nr") {
        if (op.nr == NrKind::None)
          fail("asm.nr", it.name.col, fmt::format("{} takes no nr (its nr field is unused)", op.name));
        nr = &it;
      } else if (!op.operand(it.name.text)) {
        fail("asm.unknown_operand", it.name.col,
             fmt::format("{} has no operand '{}'; {}", op.name, it.name.text, operand_list(op)));
      }
    }
    std::vector<std::string> missing;
    for (const auto& o : op.operands)
      if (!by_name.count(o.name)) missing.push_back(o.name);
    if (!missing.empty())
      fail("asm.missing_operand", word.col,
           fmt::format("{} is missing operand{} {}; every operand is given exactly once ({})", op.name,
                       missing.size() > 1 ? "s" : "", join(missing, ", "), operand_list(op)));
    if (op.nr != NrKind::None && !nr)
      fail("asm.nr", word.col,
           fmt::format("{} needs nr=<{}>", op.name, op.nr_meaning.empty() ? "rows" : op.nr_meaning));
    if (&op == &endloop_op_ && stack_.empty())
      fail("asm.loop_balance", word.col, "endloop without an open loop");

    Instr in = isa_.make(op);
    std::vector<std::pair<std::size_t, Linear>> values;  // (field index, value)
    for (const Item& it : given) {
      if (&it == nr) {
        const std::int64_t v = constant_value(it.expr, Use::Nr, "nr");
        if (v < 0) fail("asm.nr", it.expr.col, fmt::format("nr = {} is negative", v));
        in.fields[isa_.nr_index()] = v;
        continue;
      }
      Linear lin = linearize(it.expr, it.name.text);
      const std::size_t field = isa_.operand_index(op, it.name.text);
      in.fields[field] = lin.base;
      if (!lin.strides.empty() && spec_.word0[field].agu_target == 0)
        fail("asm.not_agu_target", it.expr.col,
             fmt::format("operand {} travels in {}, which no AGU term can target; it cannot use an induction variable",
                         it.name.text, spec_.word0[field].name));
      values.emplace_back(field, std::move(lin));
    }
    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> usage;
    for (const auto& [field, lin] : values) {
      for (const auto& [level, stride] : lin.strides)
        in.terms.push_back(AguTerm{spec_.word0[field].agu_target, static_cast<std::int64_t>(level), stride});
      if (!lin.strides.empty())
        usage.push_back(fmt::format("{} {}", op.operand_in_field(spec_.word0[field].name)->name, lin.strides.size()));
    }
    if (static_cast<int>(in.terms.size()) > spec_.term.count)
      fail("asm.too_many_terms", word.col,
           fmt::format("this {} needs {} AGU terms ({}), but an instruction carries at most AGU_TERMS = {}", op.name,
                       in.terms.size(), join(usage, ", "), spec_.term.count));
    if (&op == &endloop_op_) pop();
    emit(std::move(in));
  }

  static std::string operand_list(const Opcode& op) {
    std::vector<std::string> names;
    for (const auto& o : op.operands) names.push_back(o.name);
    if (op.nr != NrKind::None) names.push_back("nr");
    if (names.empty()) return fmt::format("{} takes no operands", op.name);
    return fmt::format("its operands are {}", join(names, ", "));
  }

  void directive(Piece code) {
    Piece rest;
    const Piece name = take_ident(Piece{code.text.substr(1), code.col + 1}, rest);
    if (name.text != "raw")
      fail("asm.syntax", code.col,
           fmt::format("unknown directive '.{}'; the only directive is .raw", name.text));
    if (rest.text.empty() || !is_space(rest.text[0]))
      fail("asm.raw", rest.col, fmt::format(".raw takes {} words: .raw 0x<word0>, 0x<word1>", spec_.iwords));
    const std::vector<Piece> parts = split_commas(skip_space(rest));
    if (parts.size() != static_cast<std::size_t>(spec_.iwords))
      fail("asm.raw", code.col,
           fmt::format(".raw takes {} words (one instruction), found {}", spec_.iwords, parts.size()));
    std::vector<std::uint64_t> words;
    for (const Piece& raw : parts) words.push_back(hex_word(trim(raw)));
    Instr in = isa_.decode(words);
    const Opcode* op = isa_.opcode_of(in);
    if (op == &loop_op_) push(Frame{std::string(), line_, code.col, true});
    if (op == &endloop_op_ && !stack_.empty()) pop();
    emit(std::move(in));
  }

  std::uint64_t hex_word(Piece p) const {
    const std::string_view t = p.text;
    const bool prefixed = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (!prefixed) fail("asm.raw", p.col, fmt::format("expected a hex word 0x..., found '{}'", t));
    if (t.size() - 2 > 16) fail("asm.raw", p.col, fmt::format("'{}' has more than 16 hex digits", t));
    std::uint64_t v = 0;
    for (std::size_t i = 2; i < t.size(); ++i) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(t[i])));
      int d = 0;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else fail("asm.raw", p.col + i, fmt::format("'{}' is not a hex digit", t[i]));
      v = (v << 4) | static_cast<std::uint64_t>(d);
    }
    return v;
  }

  void finish() {
    for (auto f = stack_.rbegin(); f != stack_.rend(); ++f) {
      if (f->raw) continue;
      line_ = f->line;
      fail("asm.loop_balance", f->col,
           fmt::format("this loop{} is never closed: the file ends with {} loop(s) open; add an endloop",
                       f->iv.empty() ? std::string() : fmt::format(" over '{}'", f->iv), stack_.size()));
    }
  }

  const Isa& isa_;
  const Spec& spec_;
  const Opcode& loop_op_;
  const Opcode& endloop_op_;
  std::int64_t loop_depth_;
  Program program_;
  int line_ = 0;
  std::map<std::string, Constant, std::less<>> consts_;
  std::map<std::string, std::vector<int>, std::less<>> iv_lines_;
  std::vector<Frame> stack_;
  std::vector<std::size_t> loop_pcs_;  ///< for each open frame, its loop instruction's index
};

}  // namespace

Program parse_assembly(const Isa& isa, std::string_view text, const std::string& source) {
  return Assembler(isa, source).run(text);
}

Program parse_assembly_file(const Isa& isa, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("asm.io", fmt::format("cannot open assembly file '{}'", path), SourceLoc{path});
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error("asm.io", fmt::format("cannot read assembly file '{}'", path), SourceLoc{path});
  return parse_assembly(isa, text.str(), path);
}

// ---------------------------------------------------------------------------
// Disassembly
// ---------------------------------------------------------------------------

namespace {

class Disassembler {
 public:
  Disassembler(const Isa& isa, const Program& program)
      : isa_(isa),
        spec_(isa.spec()),
        program_(program),
        loop_op_(spec_.opcode_named("loop")),
        endloop_op_(spec_.opcode_named("endloop")),
        loop_depth_(spec_.isa_constant("LOOP_DEPTH")) {}

  std::string run() {
    if (!program_.source.empty()) out_ += fmt::format("# disassembly of {}\n", one_line(program_.source));
    match_loops();
    for (std::size_t pc = 0; pc < program_.instrs.size(); ++pc) instruction(pc);
    return out_;
  }

 private:
  [[nodiscard]] bool well_formed(const Instr& in) const { return in.fields.size() == spec_.word0.size(); }

  /// Which loops some endloop closes, with the parser's stack discipline: every endloop
  /// (text or .raw) pops the innermost open loop, if any.
  void match_loops() {
    closed_.assign(program_.instrs.size(), false);
    std::vector<std::size_t> open;
    for (std::size_t pc = 0; pc < program_.instrs.size(); ++pc) {
      const Instr& in = program_.instrs[pc];
      if (!well_formed(in)) continue;
      const Opcode* op = isa_.opcode_of(in);
      if (op == &loop_op_) open.push_back(pc);
      if (op == &endloop_op_ && !open.empty()) {
        closed_[open.back()] = true;
        open.pop_back();
      }
    }
  }

  /// The name of the induction variable of the loop at `level`.
  [[nodiscard]] std::string iv_name(std::size_t level) const {
    std::string name = fmt::format("i{}", level);
    while (isa_.params().get(name)) name += "_";
    return name;
  }

  void line(const std::string& text) {
    out_ += std::string(2 * frames_.size(), ' ') + text + "\n";
  }

  /// Why the text form would not parse back to `in` (empty when it would).
  [[nodiscard]] std::vector<std::string> problems(std::size_t pc, const Opcode& op, bool loop_was_open) const {
    const Instr& in = program_.instrs[pc];
    std::vector<std::string> why;
    for (std::size_t k = 0; k < spec_.word0.size(); ++k) {
      const Field& f = spec_.word0[k];
      const std::int64_t v = in.fields[k];
      if (k == isa_.op_index()) continue;
      if (k == isa_.nr_index()) {
        if (op.nr == NrKind::None && v != 0) why.push_back(fmt::format("nr = {}, but {} takes no nr", v, op.name));
        if (op.nr != NrKind::None && v < 0) why.push_back(fmt::format("nr = {} is negative", v));
        if (&op == &loop_op_ && v == 0)
          why.push_back("trip count 0 (the do-while sequencer would run the body once; the assembler refuses it)");
      } else if (const Operand* o = op.operand_in_field(f.name)) {
        if (v < 0) why.push_back(fmt::format("{} = {} is negative", o->name, v));
      } else if (v != 0) {
        why.push_back(fmt::format("{} = {}, but {} has no operand in {}", f.name, v, op.name, f.name));
      }
    }
    if (static_cast<int>(in.terms.size()) > spec_.term.count)
      why.push_back(fmt::format("{} AGU terms, more than AGU_TERMS = {}", in.terms.size(), spec_.term.count));
    const std::int64_t stride_max = spec_.term.subfield("stride").usable_max;
    std::optional<std::pair<std::size_t, std::int64_t>> prev;
    for (std::size_t t = 0; t < in.terms.size(); ++t) {
      const AguTerm& a = in.terms[t];
      const Field* f = a.target == 0 ? nullptr : spec_.field_by_target(static_cast<int>(a.target));
      if (!f) {
        why.push_back(fmt::format("AGU term {} has target {}, which names no field", t, a.target));
        continue;
      }
      if (!op.operand_in_field(f->name))
        why.push_back(fmt::format("AGU term {} adds to {}, which is not an operand of {}", t, f->name, op.name));
      if (a.stride <= 0 || a.stride > stride_max)
        why.push_back(fmt::format("AGU term {} has stride {}, outside 1 .. {}", t, a.stride, stride_max));
      if (a.level < 0 || a.level >= static_cast<std::int64_t>(frames_.size()))
        why.push_back(fmt::format("AGU term {} names loop level {}, but {} loop(s) are open", t, a.level,
                                  frames_.size()));
      else if (!frames_[static_cast<std::size_t>(a.level)])
        why.push_back(fmt::format("AGU term {} names loop level {}, whose loop is written raw", t, a.level));
      const std::pair<std::size_t, std::int64_t> key{isa_.field_index(f->name), a.level};
      if (prev && !(*prev < key))
        why.push_back(fmt::format("AGU term {} is out of the canonical order (by field, then level) or repeats one",
                                  t));
      prev = key;
    }
    if (&op == &loop_op_) {
      if (static_cast<std::int64_t>(frames_.size()) >= loop_depth_)
        why.push_back(fmt::format("nested deeper than LOOP_DEPTH = {}", loop_depth_));
      if (!closed_[pc]) why.push_back("no endloop closes it");
    }
    if (&op == &endloop_op_ && !loop_was_open) why.push_back("no loop is open");
    return why;
  }

  /// `name=base + iL*stride ...` for every operand, then `nr=`.
  [[nodiscard]] std::string text_form(const Instr& in, const Opcode& op) const {
    std::vector<std::string> parts;
    for (const auto& o : op.operands) {
      const std::size_t k = isa_.field_index(o.field);
      std::string value = std::to_string(in.fields[k]);
      for (const AguTerm& a : in.terms) {
        const Field* f = a.target == 0 ? nullptr : spec_.field_by_target(static_cast<int>(a.target));
        if (f && f->name == o.field && a.level >= 0)
          value += fmt::format(" + {}*{}", iv_name(static_cast<std::size_t>(a.level)), a.stride);
      }
      parts.push_back(fmt::format("{}={}", o.name, value));
    }
    if (op.nr != NrKind::None) parts.push_back(fmt::format("nr={}", isa_.nr(in)));
    std::string text = op.name;
    if (!parts.empty()) text += " " + join(parts, ", ");
    if (op.retired) text += fmt::format("  # retired: {}", one_line(*op.retired));
    return text;
  }

  /// The instruction's words, packed by the spec's field layout. Unlike Isa::encode this does
  /// not apply the encoding rule: a field only has to fit its bits, so that any word a binary
  /// holds can be written back. nullopt when some value does not fit its bits or decoding the
  /// words would not give `in` back.
  [[nodiscard]] std::optional<std::vector<std::uint64_t>> pack(const Instr& in) const {
    std::vector<std::uint64_t> words(static_cast<std::size_t>(spec_.iwords), 0);
    auto put = [](std::uint64_t& word, const Field& f, std::int64_t v) {
      if (v < 0 || f.width >= 63 || v >= (std::int64_t{1} << f.width)) return false;
      word |= static_cast<std::uint64_t>(v) << f.lsb;
      return true;
    };
    if (words.size() < 2 || static_cast<int>(in.terms.size()) > spec_.term.count) return std::nullopt;
    for (std::size_t k = 0; k < spec_.word0.size(); ++k)
      if (!put(words[0], spec_.word0[k], in.fields[k])) return std::nullopt;
    for (std::size_t t = 0; t < in.terms.size(); ++t) {
      std::uint64_t term = 0;
      const AguTerm& a = in.terms[t];
      if (!put(term, spec_.term.subfield("target"), a.target) || !put(term, spec_.term.subfield("level"), a.level) ||
          !put(term, spec_.term.subfield("stride"), a.stride))
        return std::nullopt;
      words[1] |= term << (static_cast<int>(t) * spec_.term.width);
    }
    if (!(isa_.decode(words) == in)) return std::nullopt;
    return words;
  }

  [[nodiscard]] std::optional<std::string> raw_form(const Instr& in) const {
    const auto words = pack(in);
    if (!words) return std::nullopt;
    std::vector<std::string> hex;
    for (std::uint64_t w : *words) hex.push_back(fmt::format("0x{:016x}", w));
    return ".raw " + join(hex, ", ");
  }

  [[nodiscard]] std::string describe_fields(const Instr& in) const {
    std::vector<std::string> parts;
    for (std::size_t k = 0; k < spec_.word0.size(); ++k)
      parts.push_back(fmt::format("{}={}", spec_.word0[k].name, in.fields[k]));
    for (const AguTerm& a : in.terms)
      parts.push_back(fmt::format("term(target={}, level={}, stride={})", a.target, a.level, a.stride));
    return join(parts, " ");
  }

  void instruction(std::size_t pc) {
    const Instr& in = program_.instrs[pc];
    if (!well_formed(in)) {
      line(fmt::format("# error: instruction {} has {} fields where the spec has {}; it cannot be written", pc,
                       in.fields.size(), spec_.word0.size()));
      return;
    }
    const Opcode* op = isa_.opcode_of(in);
    const bool loop_was_open = !frames_.empty();
    if (op == &endloop_op_ && loop_was_open) frames_.pop_back();  // endloop lines sit at the outer indent
    const std::vector<std::string> why =
        op ? problems(pc, *op, loop_was_open)
           : std::vector<std::string>{fmt::format("opcode {} is not in the spec", in.fields[isa_.op_index()])};
    const bool text = why.empty();
    if (text) {
      if (op == &loop_op_)
        line(fmt::format("{} {} {}", op->name, iv_name(frames_.size()), isa_.nr(in)));
      else
        line(text_form(in, *op));
    } else if (auto raw = raw_form(in)) {
      line(fmt::format("# instruction {} kept raw: {}", pc, join(why, "; ")));
      line(fmt::format("#   decoded: {}", describe_fields(in)));
      line(*raw);
    } else {
      line(fmt::format("# error: instruction {} cannot be written in this format or encoded: {}", pc,
                       join(why, "; ")));
      line(fmt::format("#   fields: {}", describe_fields(in)));
      if (op) line(op == &loop_op_ ? fmt::format("{} {} {}", op->name, iv_name(frames_.size()), isa_.nr(in))
                                   : text_form(in, *op));
    }
    if (op == &loop_op_) frames_.push_back(text);
  }

  const Isa& isa_;
  const Spec& spec_;
  const Program& program_;
  const Opcode& loop_op_;
  const Opcode& endloop_op_;
  std::int64_t loop_depth_;
  std::vector<bool> closed_;
  std::vector<bool> frames_;  ///< open loops, innermost last: true when written as text (named)
  std::string out_;
};

}  // namespace

std::string disassemble(const Isa& isa, const Program& program) { return Disassembler(isa, program).run(); }

}  // namespace tpugen
