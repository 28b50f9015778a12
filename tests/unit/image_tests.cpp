#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "isa/image.h"
#include "test_support.h"

using namespace tpugen;

namespace {
std::string tmp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tpugen_image_" + name)).string();
}

using test::rule_of;

/// dma_ld A -> vr, 4 rows; mm of 4 rows; mvout: a one-tile program.
Program tiny(const Isa& isa) {
  const Spec& s = isa.spec();
  Program p;
  p.source = "tiny";
  auto instr = [&](const char* op, std::initializer_list<std::pair<const char*, std::int64_t>> ops, std::int64_t nr) {
    const Opcode& o = s.opcode_named(op);
    Instr in = isa.make(o);
    for (const auto& [name, v] : ops) in.fields[isa.operand_index(o, name)] = v;
    in.fields[isa.nr_index()] = nr;
    p.instrs.push_back(in);
  };
  instr("dma_ld", {{"mode", 2}, {"dram_row0", 0}, {"col_block", 0}, {"dst_row0", 0}}, 4);
  instr("dma_ld", {{"mode", 1}, {"dram_row0", 0}, {"col_block", 0}, {"dst_row0", 0}}, 4);
  instr("mm", {{"vr_a", 0}, {"ar0", 0}, {"acc", 0}, {"spad_w", 0}}, 4);
  instr("mvout", {{"ar0", 0}, {"dram_row0", 0}, {"col_block", 0}}, 4);
  return p;
}

std::int64_t count(const Isa& isa, const std::vector<std::int64_t>& counts, const std::string& name) {
  for (std::size_t e = 0; e < isa.spec().header.size(); ++e)
    if (isa.spec().header[e].name == name) return counts[e];
  FAIL("no header entry " << name);
  return -1;
}
}  // namespace

TEST_CASE("header counts come from the actions over the issue stream", "[image]") {
  const Isa isa = test::isa_at();
  const Program p = tiny(isa);
  const auto h = header_counts(isa, p, expand(isa, p));
  CHECK(count(isa, h, "n_instr") == 4);
  CHECK(count(isa, h, "dma_ld_rows") == 8);
  CHECK(count(isa, h, "spm_rows") == 4 + 5);  // the spad-bound load, then T + 1 for the mm
  CHECK(count(isa, h, "vru_words") == 4 + 4);
  CHECK(count(isa, h, "mm_count") == 1);
  CHECK(count(isa, h, "mm_rows") == 4);
  CHECK(count(isa, h, "accu_iterations") == 4 + 4);
  CHECK(count(isa, h, "dma_st_rows") == 4);
  CHECK(count(isa, h, "a_span") == 4);
  CHECK(count(isa, h, "b_span") == 4);
}

TEST_CASE("images pack the header and round-trip through both file forms", "[image]") {
  const Isa isa = test::isa_at();
  const Program p = tiny(isa);
  const auto words = encode_image(isa, p);
  REQUIRE(words.size() == 8 + 2 * 4);
  CHECK(words[0] == 4);                      // n_instr in imem[0][15:0]
  CHECK(words[4] == ((4ull << 16) | 1ull));  // mm_rows in [31:16], mm_count in [15:0]
  CHECK(words[7] == ((4ull << 16) | 4ull));  // b_span, a_span
  const Program back = decode_image(isa, words, "mem");
  REQUIRE(back.instrs.size() == p.instrs.size());
  for (std::size_t i = 0; i < p.instrs.size(); ++i) CHECK(back.instrs[i] == p.instrs[i]);

  const std::string bin = tmp_path("a.bin"), hex = tmp_path("a.hex");
  write_image_bin(bin, words);
  write_image_hex(hex, words);
  CHECK(read_image(bin) == words);
  CHECK(read_image(hex) == words);
  CHECK(std::filesystem::file_size(bin) == words.size() * 8);
  std::ifstream raw(bin, std::ios::binary);
  CHECK(raw.get() == 4);  // little-endian: the low byte of n_instr first
}

TEST_CASE("bad images are refused with a rule and a location", "[image]") {
  const Isa isa = test::isa_at();
  const auto words = encode_image(isa, tiny(isa));
  CHECK(rule_of([&] { (void)decode_image(isa, std::span(words).first(10), "cut"); }) == "image.truncated");
  CHECK(rule_of([&] { (void)decode_image(isa, std::span(words).first(3), "cut"); }) == "image.truncated");
  const std::string odd = tmp_path("odd.bin");
  std::ofstream(odd, std::ios::binary) << "123456789";
  CHECK(rule_of([&] { (void)read_image(odd); }) == "image.format");
  const std::string bad = tmp_path("bad.hex");
  std::ofstream(bad) << "0000000000000004\nnot-hex\n";
  const Error e = test::error_of([&] { (void)read_image(bad); });
  CHECK(e.rule() == "image.format");
  CHECK(e.where().line == 2);
  std::ofstream(bad) << "@10\n";
  CHECK(rule_of([&] { (void)read_image(bad); }) == "image.format");
  std::ofstream(bad) << "11112222333344445\n";
  CHECK(rule_of([&] { (void)read_image(bad); }) == "image.format");
  CHECK(rule_of([&] { (void)read_image(tmp_path("missing.bin")); }) == "image.io");
}

TEST_CASE("a header count that does not fit its slice is refused, naming it", "[image]") {
  const Isa isa = test::isa_at();
  std::vector<std::int64_t> counts(isa.spec().header.size(), 0);
  counts[5] = 32768;
  const Error e = test::error_of([&] { (void)pack_header(isa, counts); });
  CHECK(e.rule() == "header.overflow");
  CHECK_THAT(e.message(), Catch::Contains(isa.spec().header[5].name));
  counts[5] = 32767;
  CHECK(unpack_header(isa, pack_header(isa, counts)) == counts);
}

TEST_CASE("an image larger than IMEM_SIZE is refused", "[image]") {
  const Isa isa = test::isa_at();
  Program p = tiny(isa);
  while (p.instrs.size() < 30) p.instrs.push_back(p.instrs[3]);
  CHECK(rule_of([&] { (void)encode_image(isa, p); }) == "image.imem_size");
}
