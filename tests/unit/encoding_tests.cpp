#include <catch2/catch.hpp>

#include <random>

#include "test_support.h"

using namespace tpugen;

namespace {
std::string encode_rule(const Isa& isa, const Instr& in) {
  try {
    (void)isa.encode(in);
  } catch (const Error& e) {
    return e.rule();
  }
  return "none";
}
}  // namespace

TEST_CASE("every field round-trips at every usable value boundary", "[encoding]") {
  const Isa isa = test::isa_at();
  const Spec& s = isa.spec();
  const Opcode& mm = s.opcode_named("mm");
  for (std::size_t k = 0; k < s.word0.size(); ++k) {
    for (std::int64_t v : {std::int64_t{0}, std::int64_t{1}, s.word0[k].usable_max}) {
      Instr in = isa.make(mm);
      in.fields[k] = v;
      const auto words = isa.encode(in);
      REQUIRE(words.size() == 2);
      const Instr back = isa.decode(words);
      CHECK(back == in);
      // The value sits exactly in the field's bits.
      if (s.word0[k].name != "op") {
        Instr only = isa.make(mm);
        only.fields[isa.op_index()] = 0;
        only.fields[k] = v;
        CHECK(isa.encode(only)[0] == static_cast<std::uint64_t>(v) << s.word0[k].lsb);
      }
    }
  }
}

TEST_CASE("AGU terms round-trip in term order", "[encoding]") {
  const Isa isa = test::isa_at();
  Instr in = isa.make(isa.spec().opcode_named("mm"));
  in.terms = {AguTerm{4, 0, 64}, AguTerm{4, 1, 4}, AguTerm{1, 3, 2047}};
  const auto words = isa.encode(in);
  CHECK(isa.decode(words) == in);
  // Term 0 in bits 18:0: target [3:0], level [6:4], stride [18:7].
  CHECK((words[1] & 0x7ffff) == ((64u << 7) | (0u << 4) | 4u));
  CHECK(((words[1] >> 19) & 0x7ffff) == ((4u << 7) | (1u << 4) | 4u));
  // Unused bits stay zero.
  const auto unused = isa.unused_masks();
  CHECK((words[0] & unused[0]) == 0);
  CHECK((words[1] & unused[1]) == 0);
  CHECK(unused[0] == 0xC000000000000000ull);
  CHECK(unused[1] == 0xFE00000000000000ull);
}

TEST_CASE("the spare-bit rule refuses the top half of every field", "[encoding]") {
  const Isa isa = test::isa_at();
  const Spec& s = isa.spec();
  const Opcode& mm = s.opcode_named("mm");
  for (std::size_t k = 0; k < s.word0.size(); ++k) {
    INFO(s.word0[k].name);
    Instr in = isa.make(mm);
    in.fields[k] = s.word0[k].usable_max + 1;
    CHECK(encode_rule(isa, in) == "encode.range");
    in.fields[k] = -1;
    CHECK(encode_rule(isa, in) == "encode.range");
  }
  Instr in = isa.make(mm);
  in.terms = {AguTerm{8, 0, 1}};
  CHECK(encode_rule(isa, in) == "encode.range");
  in.terms = {AguTerm{1, 4, 1}};
  CHECK(encode_rule(isa, in) == "encode.range");
  in.terms = {AguTerm{1, 0, 2048}};
  CHECK(encode_rule(isa, in) == "encode.range");
  in.terms = {AguTerm{1, 0, 1}, AguTerm{2, 0, 1}, AguTerm{3, 0, 1}, AguTerm{4, 0, 1}};
  CHECK(encode_rule(isa, in) == "encode.terms");
}

TEST_CASE("random instructions round-trip through the encoding", "[encoding]") {
  const Isa isa = test::isa_at({{"T", 8}});
  const Spec& s = isa.spec();
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    Instr in;
    for (const auto& f : s.word0) in.fields.push_back(std::uniform_int_distribution<std::int64_t>(0, f.usable_max)(rng));
    const int n = std::uniform_int_distribution<int>(0, s.term.count)(rng);
    for (int t = 0; t < n; ++t)
      in.terms.push_back(AguTerm{std::uniform_int_distribution<std::int64_t>(1, 4)(rng),
                                 std::uniform_int_distribution<std::int64_t>(0, 3)(rng),
                                 std::uniform_int_distribution<std::int64_t>(0, 2047)(rng)});
    REQUIRE(isa.decode(isa.encode(in)) == in);
  }
}
