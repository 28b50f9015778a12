#include "spec/expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace tpugen {

enum class NodeKind { Number, Name, Unary, Binary, Call, Conditional };

struct ExprNode {
  NodeKind kind = NodeKind::Number;
  std::int64_t value = 0;
  std::string name;  // Name: the identifier; Unary/Binary: the operator; Call: the function
  std::vector<std::shared_ptr<const ExprNode>> args;
  std::size_t offset = 0;
  int depth = 1;  // the longest path to a leaf, this node included
};

namespace {

using NodePtr = std::shared_ptr<const ExprNode>;

/// Parsing, evaluating, rendering and freeing an expression all recurse on its
/// nesting, so an expression nested deeper than this (parentheses, unary
/// operators, or a long chain of binary ones) is refused rather than allowed
/// to exhaust the stack.
constexpr int kMaxDepth = 200;

[[noreturn]] void too_deep(std::size_t offset) {
  throw ExprError("expr.too_deep", fmt::format("the expression nests deeper than {} levels", kMaxDepth), offset);
}

struct Token {
  enum Kind { Number, Name, Op, End } kind = End;
  std::string text;
  std::int64_t value = 0;
  std::size_t offset = 0;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  static constexpr std::string_view kTwoChar[] = {"**", "//", "==", "!=", "<=", ">=", "<<", ">>"};
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.offset = i;
    if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
      // A hexadecimal literal: up to 64 bits, the two's complement pattern
      // of the value (0xFFFFFFFFFFFFFFFF is -1), as assemblers read it.
      std::uint64_t v = 0;
      std::size_t j = i + 2;
      while (j < s.size() && std::isxdigit(static_cast<unsigned char>(s[j]))) {
        if (j - (i + 2) >= 16) throw ExprError("expr.overflow", "hexadecimal literal is wider than 64 bits", i);
        const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(s[j])));
        v = (v << 4) | static_cast<std::uint64_t>(d <= '9' ? d - '0' : d - 'a' + 10);
        ++j;
      }
      if (j == i + 2) throw ExprError("expr.syntax", "0x needs hexadecimal digits", i);
      if (j < s.size() && (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_'))
        throw ExprError("expr.syntax", "a name cannot start with a digit", i);
      t.kind = Token::Number;
      t.value = static_cast<std::int64_t>(v);
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::int64_t v = 0;
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[j] - '0', &v))
          throw ExprError("expr.overflow", "integer literal is too large", i);
        ++j;
      }
      if (j < s.size() && (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_'))
        throw ExprError("expr.syntax", "a name cannot start with a digit", i);
      t.kind = Token::Number;
      t.value = v;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' ||
                              (s[j] == '.' && j + 1 < s.size() &&
                               (std::isalpha(static_cast<unsigned char>(s[j + 1])) || s[j + 1] == '_'))))
        ++j;
      t.kind = Token::Name;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else {
      t.kind = Token::Op;
      bool two = false;
      if (i + 1 < s.size()) {
        for (auto op : kTwoChar) {
          if (s.substr(i, 2) == op) {
            t.text = std::string(op);
            two = true;
            break;
          }
        }
      }
      if (!two) {
        if (std::string_view("+-*%()<>&|^~,").find(c) == std::string_view::npos) {
          if (c == '/')
            throw ExprError("expr.syntax", "'/' is not integer division; write '//'", i);
          throw ExprError("expr.syntax", fmt::format("unexpected character '{}'", c), i);
        }
        t.text = std::string(1, c);
      }
      i += t.text.size();
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.offset = s.size();
  out.push_back(end);
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : toks_(tokenize(text)) {}

  NodePtr parse_all() {
    NodePtr n = conditional();
    if (peek().kind != Token::End)
      throw ExprError("expr.syntax", fmt::format("unexpected '{}'", peek().text), peek().offset);
    return n;
  }

 private:
  const Token& peek() const { return toks_[pos_]; }
  bool is(Token::Kind kind, std::string_view text) const { return peek().kind == kind && peek().text == text; }
  bool is_op(std::string_view op) const { return is(Token::Op, op); }
  bool is_word(std::string_view w) const { return is(Token::Name, w); }
  Token take() { return toks_[pos_++]; }

  /// Counts the parser's own recursion (parentheses and unary operators build no node each).
  class Nesting {
   public:
    Nesting(int& depth, std::size_t offset) : depth_(depth) {
      if (++depth_ > kMaxDepth) too_deep(offset);
    }
    ~Nesting() { --depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    int& depth_;
  };

  static NodePtr make(NodeKind kind, std::string name, std::vector<NodePtr> args, std::size_t off,
                      std::int64_t value = 0) {
    int depth = 0;
    for (const auto& a : args) depth = std::max(depth, a->depth);
    if (depth + 1 > kMaxDepth) too_deep(off);
    auto n = std::make_shared<ExprNode>();
    n->depth = depth + 1;
    n->kind = kind;
    n->name = std::move(name);
    n->args = std::move(args);
    n->offset = off;
    n->value = value;
    return n;
  }

  NodePtr conditional() {
    const Nesting nest(nesting_, peek().offset);
    NodePtr then = or_expr();
    if (is_word("if")) {
      const std::size_t off = take().offset;
      NodePtr cond = or_expr();
      if (!is_word("else")) throw ExprError("expr.syntax", "'if' without 'else'", peek().offset);
      take();
      NodePtr other = conditional();
      return make(NodeKind::Conditional, "if", {cond, then, other}, off);
    }
    return then;
  }

  NodePtr or_expr() { return left_assoc(Token::Name, {"or"}, &Parser::and_expr); }
  NodePtr and_expr() { return left_assoc(Token::Name, {"and"}, &Parser::not_expr); }
  NodePtr not_expr() {
    if (is_word("not")) {
      const Nesting nest(nesting_, peek().offset);
      const std::size_t off = take().offset;
      return make(NodeKind::Unary, "not", {not_expr()}, off);
    }
    return comparison();
  }
  NodePtr comparison() { return left_assoc(Token::Op, {"==", "!=", "<", "<=", ">", ">="}, &Parser::bit_or); }
  /// `next` (op `next`)*, folded to the left; `ops` are tokens of `kind`
  /// (operators, or the words "and" and "or").
  template <typename Next>
  NodePtr left_assoc(Token::Kind kind, std::initializer_list<std::string_view> ops, Next next) {
    NodePtr l = (this->*next)();
    for (;;) {
      bool matched = false;
      for (auto op : ops) {
        if (is(kind, op)) {
          Token t = take();
          l = make(NodeKind::Binary, t.text, {l, (this->*next)()}, t.offset);
          matched = true;
          break;
        }
      }
      if (!matched) return l;
    }
  }
  NodePtr bit_or() { return left_assoc(Token::Op, {"|"}, &Parser::bit_xor); }
  NodePtr bit_xor() { return left_assoc(Token::Op, {"^"}, &Parser::bit_and); }
  NodePtr bit_and() { return left_assoc(Token::Op, {"&"}, &Parser::shift); }
  NodePtr shift() { return left_assoc(Token::Op, {"<<", ">>"}, &Parser::arith); }
  NodePtr arith() { return left_assoc(Token::Op, {"+", "-"}, &Parser::term); }
  NodePtr term() { return left_assoc(Token::Op, {"*", "//", "%"}, &Parser::factor); }
  NodePtr factor() {
    if (is_op("-") || is_op("+") || is_op("~")) {
      const Nesting nest(nesting_, peek().offset);
      Token t = take();
      return make(NodeKind::Unary, t.text, {factor()}, t.offset);
    }
    return power();
  }
  NodePtr power() {
    NodePtr base = primary();
    if (is_op("**")) {
      const Nesting nest(nesting_, peek().offset);
      Token t = take();
      return make(NodeKind::Binary, "**", {base, factor()}, t.offset);
    }
    return base;
  }
  NodePtr primary() {
    const Token& t = peek();
    if (t.kind == Token::Number) {
      Token n = take();
      return make(NodeKind::Number, n.text, {}, n.offset, n.value);
    }
    if (t.kind == Token::Name) {
      static const std::set<std::string, std::less<>> kReserved = {"if", "else", "and", "or", "not"};
      if (kReserved.count(t.text))
        throw ExprError("expr.syntax", fmt::format("unexpected '{}'", t.text), t.offset);
      Token n = take();
      if (is_op("(")) {
        if (n.text != "min" && n.text != "max" && n.text != "abs")
          throw ExprError("expr.unknown_function",
                          fmt::format("unknown function '{}' (min, max and abs are defined)", n.text),
                          n.offset);
        take();
        std::vector<NodePtr> args;
        if (!is_op(")")) {
          args.push_back(conditional());
          while (is_op(",")) {
            take();
            args.push_back(conditional());
          }
        }
        if (!is_op(")")) throw ExprError("expr.syntax", "expected ')'", peek().offset);
        take();
        if (args.empty() || (n.text == "abs" && args.size() != 1))
          throw ExprError("expr.syntax", fmt::format("wrong number of arguments to {}()", n.text),
                          n.offset);
        return make(NodeKind::Call, n.text, std::move(args), n.offset);
      }
      return make(NodeKind::Name, n.text, {}, n.offset);
    }
    if (is_op("(")) {
      take();
      NodePtr inner = conditional();
      if (!is_op(")")) throw ExprError("expr.syntax", "expected ')'", peek().offset);
      take();
      return inner;
    }
    if (t.kind == Token::End) throw ExprError("expr.syntax", "unexpected end of expression", t.offset);
    throw ExprError("expr.syntax", fmt::format("unexpected '{}'", t.text), t.offset);
  }

  std::vector<Token> toks_;
  std::size_t pos_ = 0;
  int nesting_ = 0;
};

template <typename Op>
std::int64_t checked(Op op, std::int64_t a, std::int64_t b, std::size_t off) {
  std::int64_t r = 0;
  if (op(a, b, &r)) throw ExprError("expr.overflow", "arithmetic overflow", off);
  return r;
}
constexpr auto kAdd = [](std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_add_overflow(a, b, r); };
constexpr auto kSub = [](std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_sub_overflow(a, b, r); };
constexpr auto kMul = [](std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_mul_overflow(a, b, r); };

std::int64_t floor_div(std::int64_t a, std::int64_t b, std::size_t off) {
  if (b == 0) throw ExprError("expr.div_zero", "division by zero", off);
  if (a == INT64_MIN && b == -1) throw ExprError("expr.overflow", "arithmetic overflow", off);
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t eval_node(const ExprNode& n, const Scope& scope) {
  switch (n.kind) {
    case NodeKind::Number:
      return n.value;
    case NodeKind::Name: {
      auto v = scope ? scope(n.name) : std::nullopt;
      if (!v) throw ExprError("expr.unknown_name", fmt::format("unknown name '{}'", n.name), n.offset);
      return *v;
    }
    case NodeKind::Conditional:
      return eval_node(*n.args[0], scope) != 0 ? eval_node(*n.args[1], scope)
                                              : eval_node(*n.args[2], scope);
    case NodeKind::Call: {
      std::int64_t v = eval_node(*n.args[0], scope);
      if (n.name == "abs") {
        if (v == INT64_MIN) throw ExprError("expr.overflow", "arithmetic overflow", n.offset);
        return v < 0 ? -v : v;
      }
      for (std::size_t i = 1; i < n.args.size(); ++i) {
        const std::int64_t w = eval_node(*n.args[i], scope);
        v = (n.name == "min") ? std::min(v, w) : std::max(v, w);
      }
      return v;
    }
    case NodeKind::Unary: {
      const std::int64_t v = eval_node(*n.args[0], scope);
      if (n.name == "not") return v == 0 ? 1 : 0;
      if (n.name == "~") return ~v;
      if (n.name == "+") return v;
      return checked(kSub, 0, v, n.offset);
    }
    case NodeKind::Binary: {
      const std::string& op = n.name;
      if (op == "and") return (eval_node(*n.args[0], scope) != 0 && eval_node(*n.args[1], scope) != 0) ? 1 : 0;
      if (op == "or") return (eval_node(*n.args[0], scope) != 0 || eval_node(*n.args[1], scope) != 0) ? 1 : 0;
      const std::int64_t a = eval_node(*n.args[0], scope);
      const std::int64_t b = eval_node(*n.args[1], scope);
      if (op == "+") return checked(kAdd, a, b, n.offset);
      if (op == "-") return checked(kSub, a, b, n.offset);
      if (op == "*") return checked(kMul, a, b, n.offset);
      if (op == "//") return floor_div(a, b, n.offset);
      if (op == "%") return a - floor_div(a, b, n.offset) * b;
      if (op == "**") {
        if (b < 0) throw ExprError("expr.negative_power", "negative exponent", n.offset);
        if (a == -1) return (b % 2 == 0) ? 1 : -1;  // the loop below stops once acc is 0 or 1
        std::int64_t acc = 1;
        for (std::int64_t i = 0; i < b; ++i) {
          if (__builtin_mul_overflow(acc, a, &acc))
            throw ExprError("expr.overflow", "arithmetic overflow", n.offset);
          if (acc == 0 || acc == 1) break;
        }
        return acc;
      }
      if (op == "==") return a == b;
      if (op == "!=") return a != b;
      if (op == "<") return a < b;
      if (op == "<=") return a <= b;
      if (op == ">") return a > b;
      if (op == ">=") return a >= b;
      if (op == "&") return a & b;
      if (op == "|") return a | b;
      if (op == "^") return a ^ b;
      if (op == "<<" || op == ">>") {
        if (b < 0 || b > 62) throw ExprError("expr.shift", "shift count out of 0 .. 62", n.offset);
        if (op == ">>") return a >> b;
        if (a < 0 || a > (INT64_MAX >> b)) throw ExprError("expr.overflow", "arithmetic overflow", n.offset);
        return a << b;
      }
      break;
    }
  }
  throw ExprError("expr.internal", "malformed expression", n.offset);
}

std::string render_sv_node(const ExprNode& n, const std::function<std::string(std::string_view)>& name) {
  auto sub = [&](std::size_t i) { return render_sv_node(*n.args[i], name); };
  switch (n.kind) {
    case NodeKind::Number:
      return std::to_string(n.value);
    case NodeKind::Name:
      return name(n.name);
    case NodeKind::Conditional:
      return fmt::format("({} ? {} : {})", sub(0), sub(1), sub(2));
    case NodeKind::Call: {
      if (n.name == "abs") return fmt::format("(({0}) < 0 ? -({0}) : ({0}))", sub(0));
      std::string acc = sub(0);
      const char* cmp = n.name == "min" ? "<" : ">";
      for (std::size_t i = 1; i < n.args.size(); ++i) {
        const std::string b = sub(i);
        acc = fmt::format("(({0}) {2} ({1}) ? ({0}) : ({1}))", acc, b, cmp);
      }
      return acc;
    }
    case NodeKind::Unary:
      if (n.name == "not") return fmt::format("(!{})", sub(0));
      return fmt::format("({}{})", n.name, sub(0));
    case NodeKind::Binary: {
      std::string op = n.name;
      if (op == "and") op = "&&";
      else if (op == "or") op = "||";
      else if (op == "//") op = "/";
      return fmt::format("({} {} {})", sub(0), op, sub(1));
    }
  }
  return "?";
}

void collect_names(const ExprNode& n, std::set<std::string>& out) {
  if (n.kind == NodeKind::Name) out.insert(n.name);
  for (const auto& a : n.args) collect_names(*a, out);
}

}  // namespace

Expr Expr::parse(std::string_view text) {
  Expr e;
  e.text_ = std::string(text);
  e.root_ = Parser(text).parse_all();
  return e;
}

Expr Expr::constant(std::int64_t value) { return parse(std::to_string(value)); }

std::int64_t Expr::eval(const Scope& scope) const {
  if (!root_) throw ExprError("expr.empty", "empty expression", 0);
  return eval_node(*root_, scope);
}

std::string Expr::render_sv(const std::function<std::string(std::string_view)>& name_text) const {
  if (!root_) throw ExprError("expr.empty", "empty expression", 0);
  return render_sv_node(*root_, name_text);
}

std::set<std::string> Expr::names() const {
  std::set<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

Scope scope_with(std::initializer_list<std::pair<std::string_view, std::int64_t>> bindings,
                 Scope parent) {
  std::vector<std::pair<std::string, std::int64_t>> own;
  for (const auto& [k, v] : bindings) own.emplace_back(std::string(k), v);
  return [own = std::move(own), parent = std::move(parent)](std::string_view name)
             -> std::optional<std::int64_t> {
    for (const auto& [k, v] : own)
      if (k == name) return v;
    return parent ? parent(name) : std::nullopt;
  };
}

}  // namespace tpugen
