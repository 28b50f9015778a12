// The hardening API: an image checked against its own header and spare
// bits, the issue bound callers can lower, the .npy reader over bytes, and
// the expression depth limit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"
#include "isa/programs.h"
#include "model/core/model.h"
#include "model/npy.h"
#include "spec/expr.h"
#include "test_support.h"

using namespace tpugen;

namespace {

std::vector<std::string> rules_of(const CheckResult& r) {
  std::vector<std::string> out;
  for (const auto& v : r.violations) out.push_back(v.rule);
  return out;
}

CheckResult check_words(const Isa& isa, const std::vector<std::uint64_t>& words) {
  const Program p = decode_image(isa, words, "t.bin");
  CheckResult r = check_program(isa, p);
  check_image(isa, words, p, r);
  return r;
}

/// `loop i TRIP / nop / endloop`: 1 + 2 * TRIP issues.
Program one_loop(const Isa& isa, int trip) {
  return parse_assembly(isa, "loop i " + std::to_string(trip) + "\nnop\nendloop\n", "loop.s");
}

}  // namespace

TEST_CASE("check_image: an image the encoder wrote agrees with itself", "[hardening][image]") {
  const Isa isa = test::isa_at();
  const auto words = encode_image(isa, vadd_program(isa, {4, 4, 4}));
  CHECK(check_words(isa, words).ok());
}

TEST_CASE("check_image: a header count that lies is image.header, naming the entry", "[hardening][image]") {
  const Isa isa = test::isa_at();
  const Spec& spec = isa.spec();
  const auto words = encode_image(isa, vadd_program(isa, {4, 4, 4}));
  const auto counts = unpack_header(isa, words);
  for (std::size_t e = 0; e < spec.header.size(); ++e) {
    if (spec.header[e].count.kind == HeaderCount::Static) continue;  // that one decides the decoding
    auto lying = counts;
    lying[e] += 1;
    auto image = words;
    const auto header = pack_header(isa, lying);
    std::copy(header.begin(), header.end(), image.begin());
    const CheckResult r = check_words(isa, image);
    INFO(spec.header[e].name);
    REQUIRE(r.violations.size() == 1);
    CHECK(r.violations[0].rule == "image.header");
    CHECK_THAT(r.violations[0].message, Catch::Contains(spec.header[e].name) &&
                                            Catch::Contains(std::to_string(lying[e])) &&
                                            Catch::Contains(std::to_string(counts[e])));
  }
}

TEST_CASE("check_image: a bit outside every field is image.unused_bits at its instruction", "[hardening][image]") {
  const Isa isa = test::isa_at();
  const Spec& spec = isa.spec();
  const auto words = encode_image(isa, vadd_program(isa, {4, 4, 4}));
  const auto unused = isa.unused_masks();
  for (std::size_t w = 0; w < unused.size(); ++w) {
    if (unused[w] == 0) continue;
    const std::uint64_t bit = unused[w] & (~unused[w] + 1);  // the lowest spare bit of word w
    auto image = words;
    const std::size_t pc = 2;
    image[static_cast<std::size_t>(spec.nhdr) + pc * static_cast<std::size_t>(spec.iwords) + w] |= bit;
    const CheckResult r = check_words(isa, image);
    REQUIRE(rules_of(r) == std::vector<std::string>{"image.unused_bits"});
    CHECK(r.violations[0].pc == pc);
    CHECK_THAT(r.violations[0].message, Catch::Contains("word " + std::to_string(w)));
  }
}

TEST_CASE("decode_image names the image when even the header is cut short", "[hardening][image]") {
  const Isa isa = test::isa_at();
  const auto words = encode_image(isa, vadd_program(isa, {4, 4, 4}));
  const Error e = test::error_of([&] { (void)decode_image(isa, std::span(words).first(2), "short.bin"); });
  CHECK(e.rule() == "image.truncated");
  CHECK(e.where().file == "short.bin");
}

TEST_CASE("the issue bound: check_program and the model refuse one issue past it", "[hardening][model]") {
  const Isa isa = test::isa_at();
  const Program p = one_loop(isa, 10);  // 21 issues
  CHECK(check_program(isa, p, 21).ok());
  CHECK(rules_of(check_program(isa, p, 20)) == std::vector<std::string>{"issue_bound"});
  CHECK_NOTHROW(Model(isa).run(p, 21));
  const Error e = test::error_of([&] { Model(isa).run(p, 20); });
  CHECK(e.rule() == "expand.too_long");
  CHECK_THROWS_AS(expand(isa, p, 20), Error);
  CHECK(expand(isa, p, 21).size() == 21);
}

TEST_CASE("npy: the reader over bytes equals the file reader, and npy_bytes is what is written", "[hardening][npy]") {
  Int8Matrix m{3, 5, {}};
  for (int i = 0; i < 15; ++i) m.data.push_back(static_cast<std::int8_t>(i * 37 - 100));
  const std::string bytes = npy_bytes(m);
  const Int8Matrix back = parse_npy_int8(bytes, "m.npy");
  CHECK(back.rows == 3);
  CHECK(back.cols == 5);
  CHECK(back.data == m.data);
  const auto path = (std::filesystem::temp_directory_path() / "tpugen_hardening_m.npy").string();
  write_npy_int8(path, m);
  CHECK(test::read_text(path) == bytes);
  const Error e = test::error_of([&] { (void)parse_npy_int8(bytes.substr(0, bytes.size() - 1), "cut.npy"); });
  CHECK(e.rule() == "npy.truncated");
  CHECK(e.where().file == "cut.npy");
}

TEST_CASE("expressions nested past the limit are expr.too_deep, not a stack overflow", "[hardening][expr]") {
  auto rule_of = [](const std::string& text) {
    try {
      (void)Expr::parse(text).eval([](std::string_view) { return std::optional<std::int64_t>(1); });
    } catch (const ExprError& e) {
      return e.rule();
    }
    return std::string("none");
  };
  auto repeat = [](const std::string& piece, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += piece;
    return s;
  };
  auto chain = [&](const std::string& sep, int n) { return "1" + repeat(sep + "1", n - 1); };
  const int deep = 5000;
  CHECK(rule_of(repeat("(", deep) + "x" + repeat(")", deep)) == "expr.too_deep");
  CHECK(rule_of(repeat("-", deep) + "x") == "expr.too_deep");
  CHECK(rule_of(repeat("not ", deep) + "x") == "expr.too_deep");
  CHECK(rule_of(chain(" + ", deep)) == "expr.too_deep");
  CHECK(rule_of(chain(" ** ", deep)) == "expr.too_deep");
  CHECK(rule_of(chain(" if 1 else ", deep)) == "expr.too_deep");
  CHECK(rule_of("max(" + repeat("max(", deep) + "1" + repeat(")", deep) + ")") == "expr.too_deep");
  // Real expressions are nowhere near it.
  CHECK(rule_of(repeat("(", 50) + "x" + repeat(")", 50)) == "none");
  CHECK(Expr::parse(chain(" + ", 150)).eval([](std::string_view) { return std::nullopt; }) == 150);
}
