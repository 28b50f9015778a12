// gen/ime: the smt.* instructions encoded, decoded and written as text from
// spec/ime.yaml; the round trip over every encoding of every instruction.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "ime/codec.h"
#include "spec/ime_spec.h"

using namespace tpugen;

namespace {

const ImeSpec& spec() {
  static const ImeSpec s = load_ime_spec(TPUGEN_SOURCE_DIR "/spec/ime.yaml");
  return s;
}

std::uint32_t assemble(const std::string& text) { return ime::encode(spec(), ime::parse(spec(), text)); }

std::string error_of(const std::string& text) {
  try {
    (void)ime::parse(spec(), text);
  } catch (const Error& e) {
    CHECK(e.rule() == "ime.asm");
    return e.message();
  }
  return "accepted";
}

/// Every value of every operand of `d`'s format from operand k on, each
/// combination handed to `visit`.
template <typename Visit>
void every_operand(const ImeFormat& f, ime::Decoded& d, std::size_t k, Visit&& visit) {
  if (k == f.operands.size()) {
    visit(d);
    return;
  }
  const ImeOperand& o = f.operands[k];
  const std::uint32_t step = o.kind == ImeOperandKind::VregEven ? 2 : 1;
  for (std::uint32_t v = 0; v < (1U << o.width); v += step) {
    d.operands[k].second = v;
    every_operand(f, d, k + 1, visit);
  }
}

}  // namespace

TEST_CASE("ime codec: the toolchains' texts assemble to their words") {
  CHECK(assemble("smt.vmadot v16, v0, v8") == 0xe280382bU);  // i8 left out, as the seed's examples do
  CHECK(assemble("smt.vmadot v16, v0, v8, i8") == 0xe280382bU);
  CHECK(assemble("smt.vmadot3 v2, v4, v5") == 0xe652b12bU);
  CHECK(assemble("smt.vmadotu.sp v2, v4, v5, v0, 3") == 0xe85281abU);
  CHECK(assemble("smt.vmadot.sp   v2 ,v4, v5, v1, 2, i8") == 0xea52b12bU);
  CHECK(assemble("smt.vmadot.hp v16, v2, v8, v0, 3, i4") == 0xd081382bU);
  CHECK(assemble("smt.vmadot.hp v16, v2, v8, v1, 4, i8") == 0xf281482bU);
  CHECK(assemble("smt.vfwmadot v2, v4, v6") == 0x9e62412bU);
  CHECK(assemble("smt.vpack.vv v2, v4, v5, 1") == 0x6652112bU);
  CHECK(assemble("smt.vnpack.vv v1, v3, v5, 1") == 0x625190abU);
  const auto d = ime::decode(spec(), 0xd081382bU);
  REQUIRE(d);
  CHECK(ime::disassemble(spec(), *d) == "smt.vmadot.hp v16, v2, v8, v0, 3, i4");
}

TEST_CASE("ime codec: text the encoding cannot express is refused, naming the rule") {
  CHECK_THAT(error_of("smt.vmadotx v2, v4, v6"), Catch::Contains("unknown mnemonic 'smt.vmadotx'"));
  CHECK_THAT(error_of("smt.vmadot v3, v4, v6"), Catch::Contains("operand vd must be an even register"));
  CHECK_THAT(error_of("smt.vmadot v2, v32, v6"), Catch::Contains("names v32; the registers are v0 .. v31"));
  CHECK_THAT(error_of("smt.vmadot v2, x4, v6"), Catch::Contains("takes a vector register v0 .. v31, not 'x4'"));
  CHECK_THAT(error_of("smt.vmadot v2, v4"), Catch::Contains("takes 3 operand(s) and a type, not 2"));
  CHECK_THAT(error_of("smt.vmadot1 v2, v4, v6, i4"), Catch::Contains("smt.vmadot1 has no i4 form (its types: i8)"));
  CHECK_THAT(error_of("smt.vfwmadot v2, v4, v6, i8"), Catch::Contains("takes 3 operand(s), not 4"));
  CHECK_THAT(error_of("smt.vmadot.sp v2, v4, v5, v2, 1"), Catch::Contains("selects v0 or v1, not v2"));
  CHECK_THAT(error_of("smt.vmadot.hp v16, v2, v8, v0, 8, i4"), Catch::Contains("imm3 = 8 does not fit its 3 bit(s)"));
  CHECK_THAT(error_of("smt.vmadot1 v2, v5, v6"), Catch::Contains("operand vs1 must be an even register"));
}

// Every instruction with every value of every operand: encode, decode (the
// same instruction and operands), write as text, read the text back (the
// same word). About 5.5 million encodings.
TEST_CASE("ime codec: every encoding of every instruction round-trips through decode and text", "[sweep]") {
  std::uint64_t count = 0;
  for (const auto& i : spec().instructions) {
    const ImeFormat& f = spec().format_of(i);
    ime::Decoded d{&i, {}};
    for (const auto& o : f.operands) d.operands.emplace_back(o.name, 0);
    bool ok = true;
    every_operand(f, d, 0, [&](const ime::Decoded& x) {
      const std::uint32_t word = ime::encode(spec(), x);
      const auto back = ime::decode(spec(), word);
      const bool same = back && *back == x && assemble(ime::disassemble(spec(), x)) == word;
      if (!same && ok) {
        ok = false;
        FAIL_CHECK(i.label() << ": " << ime::disassemble(spec(), x) << " does not round-trip");
      }
      ++count;
    });
  }
  CHECK(count > 5000000);
}

// Every word of the custom-1 opcode: it decodes as no instruction, or as one
// whose operands encode back to the word itself (no bit of a word is lost).
TEST_CASE("ime codec: every custom-1 word decodes to nothing or to itself", "[sweep]") {
  std::uint64_t decoded = 0;
  bool ok = true;
  for (std::uint32_t hi = 0; hi < (1U << 25); ++hi) {
    const std::uint32_t word = (hi << 7) | spec().opcode;
    const auto d = ime::decode(spec(), word);
    if (!d) continue;
    ++decoded;
    if (ime::encode(spec(), *d) != word && ok) {
      ok = false;
      FAIL_CHECK(fmt::format("{:08x} decodes as {} and encodes back differently", word, d->instr->label()));
    }
  }
  CHECK(decoded > 5000000);
}
