#include <catch2/catch.hpp>

#include "test_support.h"

using namespace tpugen;
using tpugen::test::read_text;
using tpugen::test::shipped_spec;
using tpugen::test::spec_path;

namespace {

/// The shipped spec with one exact substring replaced; the replacement must
/// exist so a test cannot silently check nothing.
std::string mutated(const std::string& from, const std::string& to) {
  std::string text = read_text(spec_path());
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

/// Load mutated text and return the error; fails the test if it loads.
Error load_error(const std::string& text) {
  try {
    (void)load_spec_text(text, "bad.yaml");
  } catch (const Error& e) {
    return e;
  }
  FAIL("the mutated spec loaded");
  return Error("none", "");
}

}  // namespace

TEST_CASE("the shipped spec loads and holds the seed's encoding", "[spec]") {
  const Spec& s = shipped_spec();
  CHECK(s.name == "TinyTPU-isa");
  CHECK(s.iwords == 2);
  CHECK(s.nhdr == 8);
  CHECK(s.sha256.size() == 64);
  struct F {
    const char* name;
    int lsb, width;
    std::int64_t max;
  };
  for (const F& f : {F{"op", 0, 6, 31}, F{"f0", 6, 12, 2047}, F{"f1", 18, 12, 2047}, F{"f2", 30, 12, 2047},
                     F{"f3", 42, 12, 2047}, F{"nr", 54, 8, 127}}) {
    INFO(f.name);
    const Field* field = s.field(f.name);
    REQUIRE(field);
    CHECK(field->lsb == f.lsb);
    CHECK(field->width == f.width);
    CHECK(field->usable_max == f.max);
  }
  CHECK(s.term.count == 3);
  CHECK(s.term.width == 19);
  CHECK(s.term.subfield("target").usable_max == 7);
  CHECK(s.term.subfield("level").usable_max == 3);
  CHECK(s.term.subfield("stride").lsb == 7);
  CHECK(s.term.subfield("stride").usable_max == 2047);
  CHECK(s.isa_constant("LOOP_DEPTH") == 4);
  CHECK(s.isa_constant("AR_RAW_DIST") == 4);
  // The opcode numbers of the seed's table.
  const std::pair<const char*, int> ops[] = {{"nop", 0}, {"dma_ld", 1}, {"dma_st", 2}, {"vld", 3}, {"mm", 4}, {"vadd", 5},
                                              {"vrelu", 6}, {"mvout", 7}, {"loop", 8}, {"endloop", 9}, {"vaddrelu", 10}};
  for (const auto& [name, value] : ops) CHECK(s.opcode_named(name).value == value);
  CHECK(s.opcode_named("dma_st").retired.has_value());
  CHECK(s.opcode_named("mm").operand("acc")->field == "f2");
  CHECK(s.opcode_named("mm").operand("acc")->legal->values == std::vector<std::int64_t>{0, 1});
  CHECK(s.header.size() == 10);
}

TEST_CASE("spec validation names the file, the line and the rule", "[spec]") {
  // One mutation of the shipped spec each: the error's rule ("": not
  // checked), what its message must contain, and the text whose line it
  // must name ("": the line is not checked).
  struct Mutation {
    const char* name;
    const char* from;
    const char* to;
    const char* rule;
    std::vector<const char*> says;
    const char* at = "";
  };
  const Mutation mutations[] = {
      {"overlapping fields", "{name: f1, lsb: 18,", "{name: f1, lsb: 17,", "spec.field_overlap", {"f1", "f0"},
       "{name: f1, lsb: 17,"},
      {"a field wider than its word", "{name: nr, lsb: 54, width: 8,", "{name: nr, lsb: 60, width: 8,",
       "spec.field_too_wide", {}, "{name: nr, lsb: 60"},
      {"AGU terms wider than word 1", "      width: 19\n", "      width: 22\n", "spec.field_too_wide", {}},
      {"a reused opcode number", "  - value: 10\n    name: vaddrelu", "  - value: 5\n    name: vaddrelu",
       "spec.opcode_reused", {"vadd", "vaddrelu"}, "  - value: 5\n    name: vaddrelu"},
      {"an opcode past the op field", "  - value: 10\n    name: vaddrelu", "  - value: 40\n    name: vaddrelu",
       "spec.opcode_range", {}},
      {"an action naming an unknown unit", "{opcode: vld, unit: spm, port: sp2vr, kind: emit",
       "{opcode: vld, unit: spx, port: sp2vr, kind: emit", "spec.unknown_unit", {}, "unit: spx"},
      {"an action naming a port its unit lacks", "{opcode: vld, unit: spm, port: sp2vr, kind: emit",
       "{opcode: vld, unit: spm, port: acol, kind: emit", "spec.unknown_port", {}},
      {"an action naming an unknown operand", "kind: read, state: spad, base: spad0,",
       "kind: read, state: spad, base: spad9,", "spec.unknown_operand", {"spad9"}},
      {"an action naming an unknown memory", "kind: read, state: spad, base: spad0,",
       "kind: read, state: spud, base: spad0,", "spec.unknown_memory", {}},
      {"an unknown identifier in an action's expression", "items: T + 1}", "items: T + ONE}", "spec.unknown_name",
       {"ONE"}, "items: T + ONE}"},
      {"fault codes out of order", "{name: RETIRED,        code: 2,", "{name: RETIRED,        code: 7,",
       "spec.fault_code", {"RETIRED has code 7", "this one is 2"}, "{name: RETIRED,        code: 7,"},
      {"a fault code past fault_o's width", "faults:\n  width: 4", "faults:\n  width: 3", "",
       {"fault OVERRUN has code 8, past the 3-bit fault_o"}},
      {"fault codes that do not start with NONE", "{name: NONE,           code: 0,",
       "{name: NOTHING,        code: 0,", "spec.fault_code", {}},
      {"an unknown identifier in a parameter default", "default: \"max(TEST_WINDOW, OPERAND_ROWS)\"",
       "default: \"max(TEST_WINDOW, OPERAND_ROWZ)\"", "spec.unknown_name", {}},
      {"a syntax error in an expression points into it", "only_if: acc == 1}", "only_if: acc === 1}",
       "expr.syntax", {}, "acc === 1"},
      {"an unknown key", "  - name: sequencer\n    ii: 1", "  - name: sequencer\n    iii: 1\n    ii: 1",
       "spec.unknown_key", {"iii"}, "iii: 1"},
      {"a missing key", "  - name: sequencer\n    ii: 1\n", "  - name: sequencer\n", "spec.missing_key", {}},
      {"a wrong type", "word_bits: 64", "word_bits: sixty-four", "spec.type", {}},
      {"a header slice overlapping another", "{word: 4, lsb: 16, width: 16, name: mm_rows",
       "{word: 4, lsb: 8, width: 16, name: mm_rows", "spec.field_overlap", {}},
      {"two fields with one AGU target", "agu_target: 4}", "agu_target: 3}", "spec.duplicate_target", {}},
      {"an operand in a field that is not an operand field", "{name: vr0, field: f0,", "{name: vr0, field: nr,",
       "spec.unknown_field", {}},
      {"a loop stack deeper than the level subfield can name", "{name: LOOP_DEPTH,  value: 4,",
       "{name: LOOP_DEPTH,  value: 5,", "spec.field_too_narrow", {}},
  };
  for (const Mutation& m : mutations) {
    DYNAMIC_SECTION(m.name) {
      const std::string text = mutated(m.from, m.to);
      const Error e = load_error(text);
      INFO("error: " << e.what());
      if (*m.rule) CHECK(e.rule() == m.rule);
      CHECK(e.where().file == "bad.yaml");
      for (const char* says : m.says) CHECK_THAT(e.message(), Catch::Contains(says));
      if (*m.at) CHECK(e.where().line == line_of(text, m.at));
    }
  }
  SECTION("a YAML syntax error") {
    const Error e = load_error(mutated("name: TinyTPU-isa", "name: [TinyTPU-isa"));
    CHECK(e.rule() == "spec.yaml");
    CHECK(e.where().line > 0);
  }
}

TEST_CASE("a missing spec file is a clear error", "[spec]") {
  const Error e = test::error_of([&] { (void)load_spec("/nonexistent/spec.yaml"); });
  CHECK(e.rule() == "spec.io");
  CHECK_THAT(std::string(e.what()), Catch::Contains("/nonexistent/spec.yaml"));
}

TEST_CASE("the spec's core ports and fault widths are checked where they are written", "[spec][interfaces]") {
  SECTION("the shipped interfaces, in order, with their directions") {
    const Spec s = load_spec(spec_path());
    REQUIRE(s.interfaces.size() == 4);
    CHECK(s.interfaces[0].name == "status");
    CHECK(s.interface("imem").ports.front().name == "imem_req_valid_o");
    CHECK_FALSE(s.interface("imem").ports.front().input());
    CHECK(s.interface("dram_wr").ports.at(1).input());
    CHECK(s.interface("dram_rd").ports.at(3).bits == "32");
    CHECK(s.fault_pc_width == 16);
    CHECK(s.fault_unit_width == 4);
    CHECK_THROWS_AS(s.interface("noc"), Error);
  }
  SECTION("a port whose name gives no direction") {
    const std::string text = mutated("{name: busy_o, ", "{name: busy, ");
    const Error e = load_error(text);
    CHECK(e.rule() == "spec.bad_value");
    CHECK_THAT(e.message(), Catch::Contains("port busy of interface status") && Catch::Contains("_i or _o"));
    CHECK(e.where().line == line_of(text, "{name: busy, "));
  }
  SECTION("a port in two interfaces") {
    const std::string text = mutated("{name: dram_wr_rsp_ready_o,", "{name: dram_rd_rsp_ready_o,");
    const Error e = load_error(text);
    CHECK(e.rule() == "spec.duplicate_name");
    CHECK_THAT(e.message(), Catch::Contains("dram_rd_rsp_ready_o is in two interfaces"));
  }
  SECTION("a unit width too narrow to name every unit") {
    const Error e = load_error(mutated("unit_width: 4", "unit_width: 2"));
    CHECK(e.rule() == "spec.bad_value");
    CHECK_THAT(e.message(), Catch::Contains("fault_unit_o cannot name"));
  }
  SECTION("a fault pc width out of range") {
    CHECK_THAT(load_error(mutated("pc_width: 16", "pc_width: 0")).message(),
               Catch::Contains("faults.pc_width = 0: fault_pc_o is 1 to 32 bits"));
  }
}
