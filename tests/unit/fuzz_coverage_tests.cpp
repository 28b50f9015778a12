// The fuzzer's coverage model: the reachable bins derived from the spec, the
// bins hand-written programs reach (counted independently here), a
// default-size campaign that reaches every reachable bin, a restricted
// generator that cannot, and JSON, merging and the table.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/core/coverage.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/programs.h"
#include "test_support.h"

namespace {

using namespace tpugen;
using fuzz::Coverage;

std::size_t count_prefix(const std::vector<std::string>& bins, const std::string& prefix) {
  return static_cast<std::size_t>(
      std::count_if(bins.begin(), bins.end(), [&](const std::string& b) { return b.rfind(prefix, 0) == 0; }));
}

std::vector<std::string> keys(const std::map<std::string, std::int64_t>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

/// Each bin's hit count in `c` (the bin named on failure).
void check_hits(const Coverage& c, std::initializer_list<std::pair<const char*, std::int64_t>> want) {
  for (const auto& [bin, n] : want) {
    INFO(bin);
    CHECK(c.hits(bin) == n);
  }
}

/// The coverage of one hand-written program (static bins only).
Coverage of_program(const Isa& isa, const std::string& text) {
  Coverage c = Coverage::for_isa(isa);
  const Program p = parse_assembly(isa, text, "test");
  c.add_program(isa, p);
  return c;
}

Coverage campaign(const Isa& isa, std::uint64_t first, std::uint64_t count, const fuzz::FuzzOptions& options = {}) {
  const fuzz::Generator gen(isa, options);
  Coverage cov = Coverage::for_isa(isa);
  for (std::uint64_t seed = first; seed < first + count; ++seed) cov.add(isa, gen.make(seed));
  return cov;
}

}  // namespace

TEST_CASE("fuzz coverage: the reachable bins follow the spec and the build", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Spec& spec = isa.spec();
  const Coverage cov = Coverage::for_isa(isa);
  const auto bins = keys(cov.bins());
  const std::int64_t depth = spec.isa_constant("LOOP_DEPTH"), terms = spec.isa_constant("AGU_TERMS");
  std::size_t operands = 0;
  for (const Opcode& op : spec.opcodes) {
    CHECK(cov.bins().count("opcode/" + op.name) == (op.retired ? 0U : 1U));
    if (!op.retired) operands += op.operands.size();
  }
  CHECK(cov.unreachable().count("opcode/dma_st") == 1);
  // Every operand field is an AGU target: operand x level x term count.
  CHECK(count_prefix(bins, "agu/") == operands * static_cast<std::size_t>(depth * terms));
  CHECK(count_prefix(bins, "agu_slot/") == static_cast<std::size_t>(depth * terms));
  CHECK(cov.bins().count("agu/mm.acc/L3/n3") == 1);
  // dma_ld's four modes, mm's two acc values, WPR = 4 column blocks for dma_ld and mvout.
  CHECK(count_prefix(bins, "value/dma_ld.mode=") == 4);
  CHECK(count_prefix(bins, "value/mm.acc=") == 2);
  CHECK(count_prefix(bins, "value/dma_ld.col_block=") == 4);
  CHECK(count_prefix(bins, "value/mvout.col_block=") == 4);
  // Nest depths 0 .. LOOP_DEPTH, four trip classes per level.
  CHECK(count_prefix(bins, "nest/") == static_cast<std::size_t>(depth + 1));
  CHECK(count_prefix(bins, "trip/") == static_cast<std::size_t>(4 * depth));
  // The seven ar readers, three distance classes each.
  CHECK(count_prefix(bins, "distance/") == 7 * 3);
  CHECK(cov.bins().count("distance/mm.ar0/exact") == 1);
  CHECK(cov.bins().count("distance/vaddrelu.ar_s2/near") == 1);
  CHECK(cov.bins().count("saturation/mvout/high") == 1);
  CHECK(cov.bins().count("saturation/mvout/low") == 1);
  // Every DRAM row of A, B and C.
  CHECK(count_prefix(bins, "dram/") == 3 * 16);
  // An operand that names both a read and a write always aliases itself exactly.
  CHECK(cov.unreachable().count("alias/mm.ar0->ar0") == 1);
  CHECK(cov.bins().count("alias/vrelu.ar_s->ar_d/partial") == 1);
  CHECK(cov.cases() == 0);
  CHECK(cov.missing().size() == cov.bins().size());

  // With MAXDIM = T a DRAM row is one packed word: col_block cannot move.
  const Isa narrow = test::isa_at({{"T", 4}, {"MAXDIM", 4}});
  const Coverage n = Coverage::for_isa(narrow);
  CHECK(n.bins().count("agu/mvout.col_block/L0/n1") == 0);
  REQUIRE(n.unreachable().count("agu/mvout.col_block/L0/n1") == 1);
  CHECK_THAT(n.unreachable().at("agu/mvout.col_block/L0/n1"), Catch::Contains("no two consecutive"));
  CHECK(count_prefix(keys(n.bins()), "value/mvout.col_block=") == 1);
  CHECK(count_prefix(keys(n.bins()), "dram/") == 3 * 4);
}

TEST_CASE("fuzz coverage: a hand-written nest reaches the bins it should", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  // Level 0 runs 2 trips, level 1 runs 1 (a term on it adds nothing), level
  // 2 runs 100. The mm's acc walks 0, 1 on level 0 within its frontier.
  const Coverage c = of_program(isa, R"(
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=8
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
loop i 2
  mm vr_a=0, ar0=0, acc=0 + i*1, spad_w=0, nr=4
  loop j 1
    vrelu ar_d=8, ar_s=0 + j*1, nr=1
    loop k 100
      mvout ar0=0, dram_row0=0 + i*2, col_block=0 + i*3, nr=1
    endloop
  endloop
endloop
)");
  CHECK(c.cases() == 1);
  std::istringstream reached(
      "opcode/dma_ld opcode/mm opcode/vrelu opcode/mvout opcode/loop opcode/endloop agu/mm.acc/L0/n1 "
      "agu/mvout.dram_row0/L0/n2 agu/mvout.col_block/L0/n2 agu_slot/s0/L0 agu_slot/s1/L0 value/mm.acc=0 "
      "value/mm.acc=1 value/dma_ld.mode=1 value/dma_ld.mode=2 value/mvout.col_block=3 nest/depth3 trip/L0/small "
      "trip/L1/one trip/L2/large rows/dma_ld/mid rows/mvout/one dram/A/row7 dram/C/row2 hazard/vr/RAW/overlap "
      "hazard/ar/RAW/overlap alias/vrelu.ar_s->ar_d/disjoint");
  for (std::string bin; reached >> bin;) {
    INFO(bin);
    CHECK(c.hits(bin) == 1);
  }
  // A term on a loop of one trip moves nothing: not counted.
  check_hits(c, {{"agu/vrelu.ar_s/L1/n1", 0}, {"nest/depth2", 0}, {"opcode/vadd", 0}, {"value/dma_ld.mode=0", 0}});
  CHECK(c.stray().empty());
}

TEST_CASE("fuzz coverage: accumulator distances are classed against AR_RAW_DIST", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const std::int64_t d = isa.spec().isa_constant("AR_RAW_DIST");
  // ar_distance_program reads every ar row exactly `distance` accu iterations after its write.
  auto run = [&](std::int64_t distance) {
    Coverage c = Coverage::for_isa(isa);
    c.add_program(isa, ar_distance_program(isa, distance));
    return c;
  };
  const Coverage exact = run(d), near = run(d + 1), far = run(d + 3);
  check_hits(exact,
             {{"distance/vrelu.ar_s/exact", 1}, {"distance/mvout.ar0/exact", 1}, {"distance/vrelu.ar_s/near", 0}});
  check_hits(near, {{"distance/vrelu.ar_s/near", 1}, {"distance/vrelu.ar_s/exact", 0}});
  check_hits(far, {{"distance/vrelu.ar_s/far", 1}});
  // Below the contract: check_program refuses it, and coverage keeps the bin visible as stray.
  const Program short_one = ar_distance_program(isa, d - 1);
  REQUIRE_FALSE(check_program(isa, short_one).ok());
  Coverage below = Coverage::for_isa(isa);
  below.add_program(isa, short_one);
  CHECK(below.stray().count("distance/vrelu.ar_s/below") == 1);
  CHECK_THAT(below.table(), Catch::Contains("stray"));
}

TEST_CASE("fuzz coverage: hazards between issues and aliasing within one", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Coverage c = of_program(isa, R"(
dma_ld mode=0, dram_row0=0, col_block=0, dst_row0=0, nr=4
vld vr0=0, spad0=2, nr=2
dma_ld mode=0, dram_row0=0, col_block=1, dst_row0=8, nr=4
dma_ld mode=0, dram_row0=0, col_block=1, dst_row0=10, nr=4
dma_ld mode=2, dram_row0=4, col_block=0, dst_row0=8, nr=4
mm vr_a=8, ar0=0, acc=0, spad_w=0, nr=4
vadd ar_d=2, ar_s1=0, ar_s2=0, nr=2
vrelu ar_d=0, ar_s=0, nr=4
)");
  // spad: the vld reads rows the dma_ld wrote; the next dma_ld writes rows
  // the vld did not read; the one after it overlaps the one before.
  check_hits(c, {{"hazard/spad/RAW/overlap", 1},
                 {"hazard/spad/WAR/disjoint", 1},
                 {"hazard/spad/WAW/overlap", 1},
                 {"hazard/spad/WAR/overlap", 0},
                 {"hazard/vr/WAW/disjoint", 1},
                 {"hazard/vr/RAW/overlap", 1}});
  // vadd writes rows 2..3 from sources 0..1: disjoint; vrelu in place: same.
  check_hits(c, {{"alias/vadd.ar_s1->ar_d/disjoint", 1},
                 {"alias/vadd.ar_s2->ar_d/disjoint", 1},
                 {"alias/vrelu.ar_s->ar_d/same", 1},
                 {"alias/vadd.ar_s1->ar_d/partial", 0}});
}

TEST_CASE("fuzz coverage: a default-size campaign reaches every reachable bin", "[fuzzgen][sweep]") {
  for (const ParamOverrides& o : {ParamOverrides{{"T", 4}, {"MAXDIM", 16}}, ParamOverrides{{"T", 8}, {"MAXDIM", 64}}}) {
    const Isa isa = test::isa_at(o);
    const Coverage cov = campaign(isa, 0, 300);
    INFO(cov.table());
    CHECK(cov.cases() == 300);
    CHECK(cov.missing().empty());
    CHECK(cov.stray().empty());
    CHECK(cov.complete());
  }
}

TEST_CASE("fuzz coverage: a restricted generator leaves bins unreached", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  fuzz::FuzzOptions no_vaddrelu;
  no_vaddrelu.disabled_opcodes = {"vaddrelu"};
  const Coverage a = campaign(isa, 0, 100, no_vaddrelu);
  CHECK_FALSE(a.complete());
  const auto missing = a.missing();
  CHECK(std::count(missing.begin(), missing.end(), "opcode/vaddrelu") == 1);
  CHECK(count_prefix(missing, "agu/vaddrelu.") == 3 * 4 * 3);
  CHECK(count_prefix(missing, "distance/vaddrelu.") == 2 * 3);
  CHECK(a.hits("opcode/vadd") > 0);

  fuzz::FuzzOptions no_loops;
  no_loops.disabled_opcodes = {"loop", "endloop"};
  const Coverage b = campaign(isa, 0, 50, no_loops);
  CHECK(b.hits("nest/depth0") == 50);
  CHECK(count_prefix(b.missing(), "agu/") == count_prefix(keys(b.bins()), "agu/"));
  CHECK(b.hits("trip/L0/one") == 0);
}

TEST_CASE("fuzz coverage: JSON round trip and merging shards", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Coverage first = campaign(isa, 0, 30), second = campaign(isa, 30, 30), whole = campaign(isa, 0, 60);
  Coverage merged = first;
  merged.merge(second);
  CHECK(merged == whole);
  CHECK(merged.cases() == 60);
  CHECK(merged.reached() >= first.reached());

  const Coverage back = Coverage::from_json(whole.to_json());
  CHECK(back == whole);
  CHECK(back.missing() == whole.missing());
  CHECK(back.table() == whole.table());
  CHECK(whole.to_json().find("\"agu/mm.acc/L0/n1\"") != std::string::npos);

  // Cases of another build are refused, and so are its shards.
  Coverage mine = Coverage::for_isa(isa);
  const Isa t8 = test::isa_at({{"T", 8}, {"MAXDIM", 64}});
  CHECK(test::rule_of([&] { mine.add(t8, fuzz::random_case(t8, 1)); }) == "fuzz.coverage_build");
  Coverage other = Coverage::for_isa(test::isa_at({{"T", 8}, {"MAXDIM", 64}}));
  CHECK(test::rule_of([&] { other.merge(whole); }) == "fuzz.coverage_merge");
  for (const std::string& bad : {std::string("[1, 2"), std::string("{\"format\": \"other\"}"),
                                 std::string("{\"format\": \"tpugen-coverage\", \"version\": 1, \"build\": \"x\", "
                                             "\"cases\": 1, \"bins\": {\"a/b\": -3}, \"unreachable\": {}, "
                                             "\"stray\": {}}")}) {
    try {
      (void)Coverage::from_json(bad);
      FAIL("malformed coverage JSON was accepted: " << bad);
    } catch (const Error& e) {
      CHECK(e.rule() == "fuzz.coverage_json");
    }
  }
}

TEST_CASE("fuzz coverage: the table names families, missing bins and reasons", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Coverage c = of_program(isa, "dma_ld mode=0, dram_row0=0, col_block=0, dst_row0=0, nr=1\n");
  const std::string t = c.table();
  for (const char* text : {"coverage of 1 case(s)", "T=4 MAXDIM=16", "family", "agu_slot", "saturation", "hazard",
                           "missing (", "agu/mm.acc/L3/n3", "opcode/dma_st", "retired"})
    CHECK_THAT(t, Catch::Contains(text));
  CHECK_THAT(t, !Catch::Contains("opcode/dma_ld\n"));  // reached: not listed as missing
}
