#include <catch2/catch.hpp>

#include "spec/expr.h"

using tpugen::Expr;
using tpugen::ExprError;

namespace {
std::int64_t ev(const char* text) {
  return Expr::parse(text).eval(tpugen::scope_with({{"T", 4}, {"MAXDIM", 64}, {"mode", 3}, {"fields.nr.usable_max", 127}}, nullptr));
}
std::string rule_of(const char* text) {
  try {
    ev(text);
  } catch (const ExprError& e) {
    return e.rule();
  }
  return "none";
}
}  // namespace

TEST_CASE("expressions follow Python's integer semantics", "[expr]") {
  CHECK(ev("T + 1") == 5);
  CHECK(ev("2 ** (8 - 1) - 1") == 127);
  CHECK(ev("(MAXDIM // T) * MAXDIM") == 1024);
  CHECK(ev("-7 // 2") == -4);
  CHECK(ev("-7 % 2") == 1);
  CHECK(ev("7 % -2") == -1);
  CHECK(ev("(mode & 2) == 2") == 1);
  CHECK(ev("(mode & 1) == 0") == 0);
  CHECK(ev("max(64, (MAXDIM // T) * MAXDIM)") == 1024);
  CHECK(ev("min(16, max(1, 64 // (32 // 8))) if 1 == 1 else 1") == 16);
  CHECK(ev("min(16, max(1, 64 // (32 // 8))) if 0 == 1 else 1") == 1);
  CHECK(ev("not 0 and 1 or 0") == 1);
  CHECK(ev("1 << 4 | 1") == 17);
  CHECK(ev("~0 ^ 1") == -2);
  CHECK(ev("MAXDIM ** 3 // T ** 2 + MAXDIM ** 2 // T <= 32767") == 1);
  CHECK(ev("fields.nr.usable_max") == 127);
  CHECK(ev("abs(-3) + -(-2)") == 5);
  CHECK(ev("2 ** 3 ** 2") == 512);  // right-associative like Python
}

TEST_CASE("expressions refuse what they cannot evaluate, with a rule", "[expr]") {
  CHECK(rule_of("T +") == "expr.syntax");
  CHECK(rule_of("(T") == "expr.syntax");
  CHECK(rule_of("T / 2") == "expr.syntax");
  CHECK(rule_of("1 if 1") == "expr.syntax");
  CHECK(rule_of("UNKNOWN + 1") == "expr.unknown_name");
  CHECK(rule_of("pow(2, 3)") == "expr.unknown_function");
  CHECK(rule_of("T // 0") == "expr.div_zero");
  CHECK(rule_of("T % 0") == "expr.div_zero");
  CHECK(rule_of("2 ** 64") == "expr.overflow");
  CHECK(rule_of("9223372036854775807 + 1") == "expr.overflow");
  CHECK(rule_of("99999999999999999999") == "expr.overflow");
  CHECK(rule_of("2 ** -1") == "expr.negative_power");
  CHECK(rule_of("1 << 63") == "expr.shift");
  CHECK(rule_of("T $ 2") == "expr.syntax");
  CHECK(rule_of("3T") == "expr.syntax");
}

TEST_CASE("an expression reports the names it uses and its error offset", "[expr]") {
  const Expr e = Expr::parse("max(TEST_WINDOW, OPERAND_ROWS) + fields.f0.usable_max");
  CHECK(e.names() == std::set<std::string>{"TEST_WINDOW", "OPERAND_ROWS", "fields.f0.usable_max"});
  try {
    (void)Expr::parse("T + + )");
    FAIL("parsed");
  } catch (const ExprError& err) {
    CHECK(err.offset() == 6);
  }
}

TEST_CASE("random garbage never escapes as anything but ExprError", "[expr][fuzz]") {
  std::uint64_t x = 88172645463325252ull;
  const std::string alphabet = "T0123456789+-*/%()<>=!&|^~, abcifelsnotmax_.";
  for (int i = 0; i < 3000; ++i) {
    std::string s;
    const int len = static_cast<int>(x % 24);
    for (int k = 0; k < len; ++k) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      s += alphabet[x % alphabet.size()];
    }
    try {
      (void)Expr::parse(s).eval(tpugen::scope_with({{"T", 4}}, nullptr));
    } catch (const ExprError&) {
    }
  }
  SUCCEED("no crash and no foreign exception");
}

TEST_CASE("hexadecimal literals are 64-bit two's complement patterns", "[expr]") {
  CHECK(ev("0x7C0") == 0x7C0);
  CHECK(ev("0X10 + 0xf") == 31);
  CHECK(ev("0xFFFFFFFFFFFFFFFF") == -1);
  CHECK(ev("0x8000000000000000") == INT64_MIN);
  CHECK(rule_of("0x") == "expr.syntax");
  CHECK(rule_of("0x1g") == "expr.syntax");
  CHECK(rule_of("0x10000000000000000") == "expr.overflow");  // 17 digits: past 64 bits
}
