// util/text.h: trimming, lines, unsigned numbers.
#include <catch2/catch.hpp>
#include <limits>

#include "util/text.h"

using namespace tpugen;

TEST_CASE("text: parse_unsigned takes decimal and 0x hex, whole, and nothing else", "[util][text]") {
  CHECK(parse_unsigned("0") == 0u);
  CHECK(parse_unsigned("61440") == 61440u);
  CHECK(parse_unsigned("010") == 10u);  // decimal, not octal
  CHECK(parse_unsigned("0xf000") == 0xf000u);
  CHECK(parse_unsigned("0XF000") == 0xf000u);
  CHECK(parse_unsigned("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
  CHECK(parse_unsigned("0xffffffffffffffff") == std::numeric_limits<std::uint64_t>::max());
  for (const char* bad : {"", "0x", "-1", "+1", " 1", "1 ", "1k", "0x-1", "0x 1", "abc", "18446744073709551616",
                          "0x10000000000000000", "0b101"})
    CHECK_FALSE(parse_unsigned(bad).has_value());
}

TEST_CASE("text: trim and split_lines", "[util][text]") {
  CHECK(trim(" \t a b \r\n") == "a b");
  CHECK(trim("   ").empty());
  const auto lines = split_lines("a\r\nb\n\nc");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "a");
  CHECK(lines[1] == "b");
  CHECK(lines[2].empty());
  CHECK(lines[3] == "c");
  CHECK(split_lines("").size() == 1);
}
