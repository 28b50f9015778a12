// spec/ime.yaml: the SpacemiT matrix extension's encodings and profiles as
// data, read strictly; the MATCH/MASK words derived from it against the
// public toolchains' (../shared/reference/ime-notes.md), and its tiles
// against the seed's appendix A.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "spec/ime_spec.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const std::string kPath = TPUGEN_SOURCE_DIR "/spec/ime.yaml";

const ImeSpec& shipped() {
  static const ImeSpec s = load_ime_spec(kPath);
  return s;
}

std::string edited(const std::string& from, const std::string& to) { return test::edited_text(kPath, from, to); }

/// The message of the error loading `text` raises, its location checked.
std::string error_of(const std::string& text) {
  try {
    (void)load_ime_spec_text(text, "edited.yaml");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.where().file == "edited.yaml");
    CHECK(e.where().line > 0);
    return e.what();
  }
  return "accepted";
}

const ImeInstruction& find(const std::string& mnemonic, const std::string& type = "") {
  for (const auto& i : shipped().instructions)
    if (i.mnemonic == mnemonic && i.type == type) return i;
  FAIL("no instruction " << mnemonic << " " << type);
  throw;
}

}  // namespace

TEST_CASE("ime spec: the 46 instructions load, each with its derived MATCH and MASK") {
  const ImeSpec& s = shipped();
  CHECK(s.instructions.size() == 46);
  CHECK(s.opcode == 0x2BU);
  for (const auto& i : s.instructions) {
    INFO(i.label());
    CHECK((i.match & ~i.mask) == 0);
    CHECK(s.match(i.match) == &i);  // no other instruction claims its MATCH word
  }
}

TEST_CASE("ime spec: MATCH and MASK equal the toolchains' (ime-notes.md)") {
  struct Row {
    std::string mnemonic, type;
    std::uint32_t match, mask;
  };
  const std::vector<Row> rows = {
      {"smt.vmadot", "i8", 0xE200302B, 0xFE0070FF},    {"smt.vmadot", "i4", 0xC200302B, 0xFE0070FF},
      {"smt.vmadot1", "i8", 0xE600302B, 0xFE00F0FF},   {"smt.vmadot2", "i8", 0xE600702B, 0xFE00F0FF},
      {"smt.vmadot3", "i8", 0xE600B02B, 0xFE00F0FF},   {"smt.vmadot.sp", "i8", 0xE800302B, 0xFC00707F},
      {"smt.vmadot.hp", "i8", 0xF000002B, 0xFC00007F}, {"smt.vmadotu.hp", "i8", 0xEC00002B, 0xFC00007F},
      {"smt.vfwmadot", "", 0x9E00402B, 0xFE0070FF},    {"smt.vfwmadot1", "", 0x9E00502B, 0xFE0070FF},
      {"smt.vpack.vv", "", 0x6600002B, 0xFE0040FF},    {"smt.vupack.vv", "", 0x6600402B, 0xFE0040FF},
      {"smt.vnpack.vv", "", 0x6200002B, 0xFE00407F},   {"smt.vnspack.vv", "", 0x6200402B, 0xFE00407F},
      {"smt.vnpack4.vv", "", 0x4200002B, 0xFE00407F},  {"smt.vnspack4.vv", "", 0x4200402B, 0xFE00407F},
  };
  for (const auto& r : rows) {
    INFO(r.mnemonic << " " << r.type);
    const ImeInstruction& i = find(r.mnemonic, r.type);
    CHECK(i.match == r.match);
    CHECK(i.mask == r.mask);
  }
}

TEST_CASE("ime spec: the assembler's test vectors decode to their instruction and operands") {
  struct Vector {
    std::uint32_t word;
    std::string label;
    std::map<std::string, std::uint32_t> operands;
  };
  const std::vector<Vector> vectors = {
      {0xe241b12b, "smt.vmadot (i8)", {{"vd", 2}, {"vs1", 3}, {"vs2", 4}}},
      {0xc241b12b, "smt.vmadot (i4)", {{"vd", 2}, {"vs1", 3}, {"vs2", 4}}},
      {0xe280382b, "smt.vmadot (i8)", {{"vd", 16}, {"vs1", 0}, {"vs2", 8}}},
      {0xe652b12b, "smt.vmadot3 (i8)", {{"vd", 2}, {"vs1", 4}, {"vs2", 5}}},
      {0xe85281ab, "smt.vmadotu.sp (i8)", {{"vd", 2}, {"vs1", 4}, {"vs2", 5}, {"vmask", 0}, {"imm2", 3}}},
      {0xea52b12b, "smt.vmadot.sp (i8)", {{"vd", 2}, {"vs1", 4}, {"vs2", 5}, {"vmask", 1}, {"imm2", 2}}},
      {0xd081382b, "smt.vmadot.hp (i4)", {{"vd", 16}, {"vs1", 2}, {"vs2", 8}, {"vscale", 0}, {"imm3", 3}}},
      {0xf281482b, "smt.vmadot.hp (i8)", {{"vd", 16}, {"vs1", 2}, {"vs2", 8}, {"vscale", 1}, {"imm3", 4}}},
      {0x9e62412b, "smt.vfwmadot", {{"vd", 2}, {"vs1", 4}, {"vs2", 6}}},
      {0x6652112b, "smt.vpack.vv", {{"vd", 2}, {"vs1", 4}, {"vs2", 5}, {"imm2", 1}}},
      {0x625190ab, "smt.vnpack.vv", {{"vd", 1}, {"vs1", 3}, {"vs2", 5}, {"imm2", 1}}},
  };
  const ImeSpec& s = shipped();
  for (const auto& v : vectors) {
    INFO(fmt::format("{:08x}", v.word));
    const ImeInstruction* i = s.match(v.word);
    REQUIRE(i != nullptr);
    CHECK(i->label() == v.label);
    const ImeFormat& f = s.format_of(*i);
    CHECK(f.operands.size() == v.operands.size());
    std::uint32_t word = i->match;
    for (const auto& [name, value] : v.operands) {
      CHECK(f.operand_value(v.word, name) == value);
      word = f.with_operand(word, name, value);
    }
    CHECK(word == v.word);  // and encoding the operands gives the word back
  }
}

TEST_CASE("ime spec: an operand that does not fit is refused when encoding") {
  const ImeSpec& s = shipped();
  const ImeInstruction& i = find("smt.vmadot", "i8");
  const ImeFormat& f = s.format_of(i);
  CHECK_THROWS_WITH(f.with_operand(i.match, "vd", 3), Catch::Contains("must be an even register"));
  CHECK_THROWS_WITH(f.with_operand(i.match, "vs1", 32), Catch::Contains("does not fit its 5 bit(s)"));
  const ImeFormat& sp = s.format_of(find("smt.vmadot.sp", "i8"));
  CHECK_THROWS_WITH(sp.with_operand(i.match, "imm2", 4), Catch::Contains("does not fit its 2 bit(s)"));
}

TEST_CASE("ime spec: the profiles' tiles and MUL_C follow the seed's derivation") {
  const ImeSpec& s = shipped();
  const ImeProfile* a60 = s.profile("A60");
  const ImeProfile* a100 = s.profile("A100");
  REQUIRE(a60);
  REQUIRE(a100);
  CHECK(a60->vlen == 256);
  CHECK(a100->vlen == 1024);
  const auto* e = a60->entry("Xsmti8i32mm");
  REQUIRE(e);
  CHECK((e->m == 4 && e->k == 8 && e->n == 4 && e->mul_c == 2));
  e = a100->entry("Xsmti4i32mm_42sp");
  REQUIRE(e);
  CHECK((e->m == 8 && e->k == 64 && e->n == 8 && e->mul_c == 2));
  e = a100->entry("Xsmti8x16mm_scl16f");
  REQUIRE(e);
  CHECK((e->m == 8 && e->k == 16 && e->n == 8 && e->mul_c == 1));
  // A60 has only the int8 paths; the layout instructions run everywhere.
  CHECK_FALSE(a60->supports_sub_extension("Xsmti4i32mm"));
  CHECK(a60->supports_sub_extension("none"));
  CHECK(a100->supports_sub_extension("Xsmtx16fp32mm_slide"));
}

TEST_CASE("ime spec: each class says what it reads and writes and the rules it keeps") {
  const ImeSpec& s = shipped();
  const ImeClass& fp_slide = s.class_of(find("smt.vfwmadot2"));
  CHECK(fp_slide.has_rule("vs1_even"));  // the toolchains' vs1 field lets an odd vs1 through
  CHECK(fp_slide.registers ==
        std::vector<std::pair<std::string, int>>{{"vs1", 2}, {"vs2", 1}, {"vd", ImeClass::kMulC}});
  const ImeClass& sparse = s.class_of(find("smt.vmadot.sp", "i4"));
  CHECK(sparse.has_rule("mask_segment"));
  CHECK(sparse.segment_bits == std::vector<std::pair<std::string, int>>{{"i8", 256}, {"i4", 512}});
  const ImeClass& pack = s.class_of(find("smt.vupack.vv"));
  CHECK(pack.pack_len == std::vector<int>{0, 128, 256, 512});  // 0: SEW
  CHECK_FALSE(pack.has_rule("lmul_one"));                      // the layout instructions take any LMUL
  for (const auto& i : s.instructions) {
    INFO(i.label());
    CHECK(s.class_of(i).has_rule("sub_extension"));
  }
}

TEST_CASE("ime spec: a broken spec is refused with its line and the rule broken") {
  // A tile the derivation does not give.
  CHECK_THAT(error_of(edited("lambda: 2, sew: 32, w: 4, tile: [4, 8, 4]}\n      - {sub_extension: Xsmti8i32mm_slide",
                             "lambda: 2, sew: 32, w: 4, tile: [4, 16, 4]}\n      - {sub_extension: Xsmti8i32mm_slide")),
             Catch::Contains("the derivation gives a 4 x 8 x 4 tile, not the 4 x 16 x 4 written"));
  // A W that does not widen the type to SEW (int4 on W 4 would be 8-bit elements).
  CHECK_THAT(error_of(edited("{sub_extension: Xsmti4i32mm,         lambda: 4, sew: 32, w: 8, tile: [8, 32, 8]}",
                             "{sub_extension: Xsmti4i32mm,         lambda: 4, sew: 32, w: 4, tile: [8, 16, 8]}")),
             Catch::Contains("has 4-bit elements, but SEW 32 / W 4 is 8"));
  // A fixed value of the wrong width, and one left out.
  CHECK_THAT(error_of(edited(
                 "fixed: {funct7: \"1110001\", funct3: \"011\", vd0: \"0\"}}\n  - {mnemonic: smt.vmadotu,  type: i4",
                 "fixed: {funct7: \"111001\", funct3: \"011\", vd0: \"0\"}}\n  - {mnemonic: smt.vmadotu,  type: i4")),
             Catch::Contains("is not a string of 7 bits"));
  CHECK_THAT(error_of(edited("fixed: {funct6: \"111100\"}}", "fixed: {}}")),
             Catch::Contains("fixed gives no value for field funct6"));
  // Two instructions with one encoding.
  CHECK_THAT(
      error_of(edited("fixed: {funct7: \"0110001\", funct1: \"1\"}}", "fixed: {funct7: \"0110001\", funct1: \"0\"}}")),
      Catch::Contains("overlaps smt.vnpack.vv"));
  // A DT that is not the type's.
  CHECK_THAT(
      error_of(edited(
          "type: i4, class: base, format: mm, signedness: uu, sub_extension: Xsmti4i32mm, fixed: {funct7: \"1100001\"",
          "type: i4, class: base, format: mm, signedness: uu, sub_extension: Xsmti4i32mm, fixed: {funct7: "
          "\"1110001\"")),
      Catch::Contains("not i4's code"));
  // A bit of the word in no field, and one in two.
  CHECK_THAT(
      error_of(edited("      - {name: vd0, bits: [7, 7]}\n      - {name: opcode, bits: [6, 0]}\n  - name: mm_slide",
                      "      - {name: opcode, bits: [6, 0]}\n  - name: mm_slide")),
      Catch::Contains("bit 7 of the word is in no field"));
  CHECK_THAT(
      error_of(edited("      - {name: funct3, bits: [14, 12]}\n      - {name: vd, bits: [11, 8], operand: vreg_even}\n "
                      "     - {name: vd0, bits: [7, 7]}\n      - {name: opcode, bits: [6, 0]}\n  - name: mm_slide",
                      "      - {name: funct3, bits: [14, 11]}\n      - {name: vd, bits: [11, 8], operand: vreg_even}\n "
                      "     - {name: vd0, bits: [7, 7]}\n      - {name: opcode, bits: [6, 0]}\n  - name: mm_slide")),
      Catch::Contains("bit 11 is field funct3's already"));
  // A class naming a rule that is not listed, or a rule without its data.
  CHECK_THAT(error_of(edited("rules: [lmul_one, sub_extension, vd_disjoint, vs1_even]", "rules: [lmul_one, vs1_odd]")),
             Catch::Contains("rule vs1_odd is not in the rules"));
  CHECK_THAT(error_of(edited("    group_bits: 128\n", "")),
             Catch::Contains("the rule scale_group and the key group_bits go together"));
  // An unknown key.
  CHECK_THAT(error_of(edited("word_bits: 32", "word_bits: 32\nwords: 1")), Catch::Contains("words"));
}

TEST_CASE("ime spec: the host's section loads and a broken one is refused with its line") {
  const ImeHost& h = shipped().host;
  CHECK(h.xlen == 64);
  CHECK(h.xreg("a0") == 10);
  CHECK(h.xreg("fp") == 8);
  CHECK(h.xreg("x31") == 31);
  CHECK_FALSE(h.xreg("x32"));
  CHECK_FALSE(h.xreg("x01"));
  REQUIRE(h.csr("mcpm"));
  CHECK(h.csr("mcpm")->number == 0x7C0);
  CHECK(h.instruction("vle8.v")->eew == 8);
  // Two host instructions one word would decode as.
  CHECK_THAT(error_of(edited("operation: addiw,  fixed: {funct3: \"000\", opcode: \"0011011\"}",
                             "operation: addiw,  fixed: {funct3: \"000\", opcode: \"0010011\"}")),
             Catch::Contains("overlaps addi"));
  // A host instruction an smt.* word would decode as (custom-1's opcode).
  CHECK_THAT(error_of(edited("operation: lui,    fixed: {opcode: \"0110111\"}",
                             "operation: lui,    fixed: {opcode: \"0101011\"}")),
             Catch::Contains("overlaps smt."));
  CHECK_THAT(
      error_of(edited("{name: rs2, bits: [24, 20], operand: xreg}", "{name: rs2, bits: [24, 20], operand: freg}")),
      Catch::Contains("operand kind 'freg' is none of"));
  CHECK_THAT(error_of(edited("{name: csr, bits: [31, 20], operand: csr}\n        - {name: rs1",
                             "{name: csr, bits: [31, 21], operand: csr}\n        - {name: rs1")),
             Catch::Contains("a csr field is 12 bit(s) wide"));
  CHECK_THAT(error_of(edited("expansion: \"addi rd, rs1, 0\"", "expansion: \"addu rd, rs1, 0\"")),
             Catch::Contains("its expansion's addu is not a host instruction"));
  CHECK_THAT(error_of(edited("{name: e16, code: \"001\", value: \"16\"}", "{name: e16, code: \"000\", value: \"16\"}")),
             Catch::Contains("share a name or a code"));
  CHECK_THAT(error_of(edited("number: 0x7C0", "number: 0x1000")), Catch::Contains("number"));
  CHECK_THAT(error_of(edited("xreg_aliases: {fp: s0}", "xreg_aliases: {fp: s12}")),
             Catch::Contains("fp -> s12 is not a new name"));
}
