// hdl/rtl_options.h: the one table of the generator options.
#include <catch2/catch.hpp>

#include <set>

#include "hdl/rtl_options.h"
#include "util/diag.h"

using namespace tpugen;
using namespace tpugen::hdl;

TEST_CASE("rtl options: one row per knob, each name used once", "[rtl_options]") {
  std::set<std::string_view> keys, params, flags;
  for (const auto& f : rtl_option_fields()) {
    CHECK(keys.insert(f.key).second);
    if (!f.param.empty()) {
      CHECK(params.insert(f.param).second);
      CHECK(f.kind == RtlOptionField::Kind::Integer);  // a SystemVerilog parameter is a number
    }
    if (f.recorded()) CHECK(flags.insert(f.flag).second);
    REQUIRE(f.get != nullptr);
    REQUIRE(f.set != nullptr);
  }
  CHECK(keys.count("imem_beat_words") == 1);
  CHECK(params == std::set<std::string_view>{"ImemBeat", "CBeat", "Watchdog"});
}

TEST_CASE("rtl options: every knob reads back what it was set to", "[rtl_options]") {
  for (const auto& f : rtl_option_fields()) {
    RtlOptions o;
    const std::string value = f.kind == RtlOptionField::Kind::Integer ? std::to_string(f.max)
                              : f.kind == RtlOptionField::Kind::Choice ? "axi"
                                                                       : "some \"text\"";
    f.set(o, value);
    CHECK(f.get(o) == value);
    if (f.kind == RtlOptionField::Kind::Text) CHECK(f.json(o) == "\"some \\\"text\\\"\"");
    if (f.kind == RtlOptionField::Kind::Integer) CHECK(f.json(o) == value);
  }
  RtlOptions o;
  CHECK(rtl_parameter_options_text(o) == "ImemBeat=0 CBeat=1 Watchdog=4096");
  CHECK(rtl_parameter_options_text(o, true) == "imem_beat_words=0 c_beat_words=1 watchdog_cycles=4096");
}

TEST_CASE("rtl options: a value of the wrong kind or out of range is refused by name", "[rtl_options]") {
  const auto& fields = rtl_option_fields();
  const auto row = [&](std::string_view key) -> const RtlOptionField& {
    for (const auto& f : fields)
      if (f.key == key) return f;
    FAIL("no row " << key);
    return fields.front();
  };
  RtlOptions o;
  CHECK_THROWS_AS(row("watchdog_cycles").set(o, "lots"), Error);
  CHECK_THROWS_AS(row("top").set(o, "fpga"), Error);
  row("c_beat_words").set(o, "3");
  CHECK_THROWS_WITH(row("c_beat_words").check(o), Catch::Contains("CBeat = 3:") && Catch::Contains("power of two"));
  row("watchdog_cycles").set(o, "15");
  CHECK_THROWS_WITH(row("watchdog_cycles").check(o), Catch::Contains("Watchdog = 15:") && Catch::Contains("16 .."));
  CHECK(row("c_beat_words").help() ==
        "packed operand words per C write beat (CBeat; a power of two; the write carries byte strobes)");
}
