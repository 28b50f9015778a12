// The fuzzer's random program generator: seeded and reproducible, every
// program legal (check_program) and runnable on the model without reading a
// never-written row, within its options, with operands from the stress
// distributions; and the model run the coverage model builds on.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fuzz/core/model_run.h"
#include "fuzz/core/random_program.h"
#include "util/rng.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"
#include "model/core/model.h"
#include "test_support.h"

namespace {

using namespace tpugen;
using fuzz::Dist;
using fuzz::FuzzCase;
using fuzz::FuzzOptions;
using fuzz::Generator;

std::vector<std::vector<std::uint64_t>> encodings(const Isa& isa, const Program& p) {
  std::vector<std::vector<std::uint64_t>> out;
  for (const Instr& in : p.instrs) out.push_back(isa.encode(in));
  return out;
}

std::size_t count_opcode(const Isa& isa, const Program& p, std::string_view name) {
  return static_cast<std::size_t>(std::count_if(p.instrs.begin(), p.instrs.end(),
                                                [&](const Instr& in) { return isa.opcode_of(in)->name == name; }));
}

/// Every case of a seed range: legal, assembles back from its text, runs on
/// the model reading only written rows, fits IMEM_SIZE, and its header
/// counts stay within four times the budget (the occasional large program).
void check_cases(const Isa& isa, std::uint64_t first, std::uint64_t count, const FuzzOptions& options = {}) {
  const Generator gen(isa, options);
  const std::int64_t budget = 4 * (options.budget > 0 ? options.budget : 3000);
  const auto n = static_cast<std::size_t>(isa.param("MAXDIM") * isa.param("MAXDIM"));
  for (std::uint64_t seed = first; seed < first + count; ++seed) {
    INFO("seed " << seed);
    const FuzzCase c = gen.make(seed);
    CHECK(c.seed == seed);
    const CheckResult check = check_program(isa, c.program);
    INFO(check.report(c.program.source) << c.assembly);
    REQUIRE(check.ok());
    REQUIRE(encodings(isa, parse_assembly(isa, c.assembly, "text")) == encodings(isa, c.program));
    const auto words = encode_image(isa, c.program);
    CHECK(static_cast<std::int64_t>(words.size()) <= isa.param("IMEM_SIZE"));
    for (std::size_t e = 0; e < isa.spec().header.size(); ++e)
      if (isa.spec().header[e].count.kind != HeaderCount::Static) CHECK(check.header[e] <= budget);
    REQUIRE(c.a.size() == n);
    REQUIRE(c.b.size() == n);
    REQUIRE(c.c.size() == n);
    Model m(isa);
    m.set_dram("A", c.a);
    m.set_dram("B", c.b);
    m.set_dram("C", c.c);
    m.run(c.program);
    REQUIRE(m.unwritten_reads().empty());
  }
}

}  // namespace

TEST_CASE("fuzz rng: splitmix64 is the reference mix and draws stay in their ranges", "[fuzzgen]") {
  // The first output of the reference splitmix64 seeded with 0 (Vigna's splitmix64.c).
  CHECK(splitmix64(0) == 0xe220a8397b1dcdafULL);
  Rng rng(7);
  std::set<std::int64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t v = rng.uniform(-3, 3);
    REQUIRE(v >= -3);
    REQUIRE(v <= 3);
    seen.insert(v);
  }
  CHECK(seen.size() == 7);
  CHECK(rng.uniform(5, 5) == 5);
  CHECK_THROWS(rng.uniform(2, 1));
  for (int i = 0; i < 200; ++i) {
    CHECK_FALSE(rng.chance(0, 5));
    CHECK(rng.chance(5, 5));
    const std::vector<std::uint64_t> w = {0, 3, 0, 1};
    const std::size_t k = rng.weighted(w);
    CHECK((k == 1 || k == 3));
    const std::int64_t s = rng.small(10, 1000);
    CHECK(s >= 10);
    CHECK(s <= 1000);
  }
  // Two generators with one seed agree; the next seed differs.
  Rng a(42), b(42), c(43);
  std::vector<std::int64_t> va, vb, vc;
  for (int i = 0; i < 16; ++i) {
    va.push_back(a.uniform(0, 1000000));
    vb.push_back(b.uniform(0, 1000000));
    vc.push_back(c.uniform(0, 1000000));
  }
  CHECK(va == vb);
  CHECK(va != vc);
}

TEST_CASE("fuzz generator: one seed gives one case and different seeds differ", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Generator gen(isa);
  const FuzzCase x = gen.make(12345), y = gen.make(12345);
  CHECK(x == y);
  CHECK_FALSE(x == gen.make(12346));
  CHECK(x.assembly == y.assembly);
  CHECK(encodings(isa, x.program) == encodings(isa, y.program));
  CHECK(x.dist == y.dist);
  CHECK(x.a == y.a);
  CHECK(x.b == y.b);
  CHECK(x.c == y.c);
  // A fresh generator (and random_case) give the same case again.
  CHECK(fuzz::random_case(isa, 12345) == x);

  std::set<std::string> programs;
  std::set<std::vector<std::int8_t>> prefills;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const FuzzCase c = gen.make(seed);
    programs.insert(c.assembly.substr(c.assembly.find('\n') + 1));  // past the "# disassembly of fuzz seed N" line
    prefills.insert(c.c);
  }
  CHECK(programs.size() == 20);
  CHECK(prefills.size() == 20);
}

TEST_CASE("fuzz generator: every program is legal and reads only written rows at T=4 MAXDIM=16", "[fuzzgen][sweep]") {
  check_cases(test::isa_at({{"T", 4}, {"MAXDIM", 16}}), 0, 300);
}

TEST_CASE("fuzz generator: every program is legal and reads only written rows at T=8 MAXDIM=64", "[fuzzgen][sweep]") {
  check_cases(test::isa_at({{"T", 8}, {"MAXDIM", 64}}), 1000, 300);
}

TEST_CASE("fuzz generator: every program is legal at non-default NAR IMEM_SIZE SPAD_ROWS and QD", "[fuzzgen][sweep]") {
  // The smallest NAR the constraints allow, room for 64 instructions, a
  // scratchpad of exactly OPERAND_ROWS, and one packed word per DRAM row.
  check_cases(test::isa_at({{"T", 4}, {"MAXDIM", 16}, {"NAR", 34}, {"IMEM_SIZE", 136}, {"QD", 2}}), 0, 60);
  check_cases(test::isa_at({{"T", 8}, {"MAXDIM", 32}, {"SPAD_ROWS", 128}, {"NVR", 200}}), 0, 100);
  check_cases(test::isa_at({{"T", 4}, {"MAXDIM", 4}}), 0, 60);
}

TEST_CASE("fuzz generator: the programs reach every live opcode and all four dma_ld modes", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Generator gen(isa);
  const Opcode& mm = isa.spec().opcode_named("mm");
  const std::int64_t acc_target = isa.spec().word0[isa.operand_index(mm, "acc")].agu_target;
  std::set<std::string> opcodes;
  std::set<std::int64_t> modes, acc_trips;
  std::int64_t deepest = 0, most_rows = 0, longest = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const FuzzCase c = gen.make(seed);
    for (const Issue& is : expand(isa, c.program)) {
      opcodes.insert(is.opcode->name);
      if (is.opcode->name == "dma_ld") modes.insert(isa.operand(Instr{is.fields, {}, 0}, *is.opcode, "mode"));
    }
    std::vector<std::int64_t> trips;  // of the open loops
    for (const Instr& in : c.program.instrs) {
      const std::string& name = isa.opcode_of(in)->name;
      if (name == "loop") {
        trips.push_back(isa.nr(in));
        deepest = std::max(deepest, static_cast<std::int64_t>(trips.size()));
        longest = std::max(longest, isa.nr(in));
      } else if (name == "endloop") {
        trips.pop_back();
      } else if (name != "nop") {
        most_rows = std::max(most_rows, isa.nr(in));
      }
      // mm's acc driven by a term: the loop it walks runs within acc's legal frontier.
      if (name == "mm")
        for (const AguTerm& t : in.terms)
          if (t.target == acc_target && t.stride > 0) acc_trips.insert(trips[static_cast<std::size_t>(t.level)]);
    }
  }
  for (const Opcode& op : isa.spec().opcodes) CHECK(opcodes.count(op.name) == (op.retired ? 0U : 1U));
  CHECK(modes == std::set<std::int64_t>{0, 1, 2, 3});
  CHECK(deepest == isa.spec().isa_constant("LOOP_DEPTH"));
  CHECK(most_rows == isa.param("MAXROWS"));  // vadd and its kin: NAR = 128 holds MAXROWS = 127 rows
  CHECK(longest > isa.param("MAXROWS") / 2);
  // acc = 0 + iv * 1 is legal for two trips (and any stride on one).
  CHECK(acc_trips.count(2) == 1);
  CHECK(std::all_of(acc_trips.begin(), acc_trips.end(), [](std::int64_t t) { return t <= 2; }));
  // The largest row counts the build allows: DRAM rows for a load, MAXROWS for vadd.
  CHECK(gen.facts().opcode("dma_ld")->max_rows == isa.param("MAXDIM"));
  CHECK(gen.facts().opcode("vadd")->max_rows == isa.param("MAXROWS"));
  CHECK(gen.facts().opcode("mm")->max_rows == isa.param("NVR"));
}

TEST_CASE("fuzz generator: options restrict what it emits", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  FuzzOptions o;
  o.disabled_opcodes = {"vaddrelu", "nop"};
  o.max_instructions = 10;
  o.budget = 400;
  o.large_one_in = 0;
  o.dist = Dist::Mid;
  const Generator gen(isa, o);
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const FuzzCase c = gen.make(seed);
    INFO(c.assembly);
    CHECK(count_opcode(isa, c.program, "vaddrelu") == 0);
    CHECK(count_opcode(isa, c.program, "nop") == 0);
    CHECK(c.program.instrs.size() <= 10);
    CHECK(c.dist == Dist::Mid);
    const CheckResult check = check_program(isa, c.program);
    REQUIRE(check.ok());
    for (std::size_t e = 0; e < isa.spec().header.size(); ++e)
      if (isa.spec().header[e].count.kind != HeaderCount::Static) CHECK(check.header[e] <= 400);
  }
  // Without loops there are no loops.
  FuzzOptions flat;
  flat.disabled_opcodes = {"loop"};
  for (std::uint64_t seed = 0; seed < 20; ++seed)
    CHECK(count_opcode(isa, Generator(isa, flat).make(seed).program, "loop") == 0);
  FuzzOptions bad;
  bad.disabled_opcodes = {"mmm"};
  const Error e = test::error_of([&] { Generator g(isa, bad); });
  CHECK(e.rule() == "fuzz.options");
  CHECK_THAT(e.message(), Catch::Contains("mmm"));
}

TEST_CASE("fuzz generator: AGU terms out of canonical order come out as raw assembly and back", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Generator gen(isa);
  std::size_t raw = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const FuzzCase c = gen.make(seed);
    if (c.assembly.find(".raw") != std::string::npos) ++raw;
  }
  CHECK(raw > 0);
  FuzzOptions text;
  text.raw_terms = false;
  const Generator canonical(isa, text);
  for (std::uint64_t seed = 0; seed < 200; ++seed)
    CHECK(canonical.make(seed).assembly.find(".raw") == std::string::npos);
}

TEST_CASE("fuzz operands: each distribution draws what it names", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  std::vector<std::int8_t> a, b, c;
  auto all_in = [](const std::vector<std::int8_t>& v, std::set<int> allowed) {
    return std::all_of(v.begin(), v.end(), [&](std::int8_t x) { return allowed.count(x) > 0; });
  };
  fuzz::random_operands(isa, 3, Dist::Full, a, b, c);
  for (const auto* m : {&a, &b}) {
    CHECK(std::count(m->begin(), m->end(), -128) >= 1);
    CHECK(std::count(m->begin(), m->end(), 127) >= 1);
    CHECK(std::set<std::int8_t>(m->begin(), m->end()).size() > 100);
  }
  fuzz::random_operands(isa, 3, Dist::Corner, a, b, c);
  CHECK(all_in(a, {-128, -127, -1, 0, 1, 126, 127}));
  CHECK(all_in(b, {-128, -127, -1, 0, 1, 126, 127}));
  fuzz::random_operands(isa, 3, Dist::Mid, a, b, c);
  for (const auto* m : {&a, &b})
    CHECK(std::all_of(m->begin(), m->end(), [](std::int8_t x) { return x >= -16 && x <= 16; }));
  fuzz::random_operands(isa, 3, Dist::Boundary, a, b, c);
  CHECK(all_in(a, {-1, 0, 1}));
  CHECK(all_in(b, {-128, -1, 0, 1, 127}));
  // C's prefill is random bytes over the whole range, whatever the distribution.
  CHECK(std::set<std::int8_t>(c.begin(), c.end()).size() > 100);
  CHECK(fuzz::parse_dist("boundary") == Dist::Boundary);
  for (Dist d : {Dist::Full, Dist::Corner, Dist::Mid, Dist::Boundary}) CHECK(fuzz::parse_dist(fuzz::to_string(d)) == d);
  const Error e = test::error_of([&] { (void)fuzz::parse_dist("gauss"); });
  CHECK(e.rule() == "fuzz.dist");
}

TEST_CASE("fuzz model run: issue by issue it leaves the memories Model::run leaves", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const Generator gen(isa);
  const std::int64_t t = isa.param("T");
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const FuzzCase c = gen.make(seed);
    const fuzz::ModelRun run = fuzz::run_model(isa, c);
    Model whole(isa);
    whole.set_dram("A", c.a);
    whole.set_dram("B", c.b);
    whole.set_dram("C", c.c);
    whole.run(c.program);
    CHECK(run.unwritten.empty());
    CHECK(run.model->dram("C") == whole.dram("C"));
    for (const char* mem : {"spad", "vr", "ar"})
      for (std::int64_t r = 0; r < whole.depth(mem); ++r) {
        REQUIRE(run.model->written(mem, r) == whole.written(mem, r));
        REQUIRE(run.model->row(mem, r) == whole.row(mem, r));
      }
    // mvout narrows T lanes a row: every lane is counted once, as high, low or none.
    std::int64_t lanes = 0;
    for (const Issue& is : expand(isa, c.program))
      if (is.opcode->name == "mvout") lanes += t * is.fields[isa.nr_index()];
    const auto it = run.saturation.find("mvout");
    const std::int64_t counted = it == run.saturation.end() ? 0 : it->second.high + it->second.low + it->second.none;
    CHECK(counted == lanes);
  }
}

TEST_CASE("fuzz model run: saturation is counted against the operand range", "[fuzzgen]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  // A (rows 0..3) times B (rows 0..3) with A's column block 0 all 127 and
  // B's all 127 in row 0 and 0 elsewhere: each lane is 127 * 127 (clips
  // high). Row 1 of A is -127 (clips low), row 2 is 0 (passes through).
  FuzzCase c;
  c.program = parse_assembly(isa, R"(
dma_ld mode=2, dram_row0=0, col_block=0, dst_row0=0, nr=3
dma_ld mode=1, dram_row0=0, col_block=0, dst_row0=0, nr=4
mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=3
mvout ar0=0, dram_row0=0, col_block=0, nr=3
)",
                             "saturation");
  const auto n = static_cast<std::size_t>(16 * 16);
  c.a.assign(n, 0);
  c.b.assign(n, 0);
  c.c.assign(n, 0);
  for (int k = 0; k < 4; ++k) {
    c.a[static_cast<std::size_t>(0 * 16 + k)] = 127;
    c.a[static_cast<std::size_t>(1 * 16 + k)] = -127;
    c.b[static_cast<std::size_t>(0 * 16 + k)] = 127;
  }
  const fuzz::ModelRun run = fuzz::run_model(isa, c);
  REQUIRE(run.saturation.count("mvout") == 1);
  CHECK(run.saturation.at("mvout").high == 4);
  CHECK(run.saturation.at("mvout").low == 4);
  CHECK(run.saturation.at("mvout").none == 4);
  CHECK(run.model->dram("C")[0] == 127);
  CHECK(run.model->dram("C")[16] == -128);
  CHECK(fuzz::narrowing_reads(isa.spec()).size() == 1);
}
