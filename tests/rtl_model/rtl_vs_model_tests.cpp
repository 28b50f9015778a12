// The generated RTL against the reference model, bit for bit: the whole of
// C after every run, at several build configurations, with the seed's stress
// operand distributions, memory latency and backpressure, and bad binaries.
// Each configuration's simulator is built once (cached by the RTL engine).
// Built twice: tpugen_rtl_tests runs every case on tpu_top through its own
// memory ports; tpugen_rtl_axi_tests (TPUGEN_RTL_TOP="axi", CTest names
// "axi_top.*") on tpu_axi_top through an AXI4 memory, a protocol checker and
// an AXI4-Lite host (tb/sim/axi/axi_harness.h).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <functional>
#include <map>
#include <random>

#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"
#include "model/core/gemm_job.h"
#include "model/core/model.h"
#include "model/core/operands.h"
#include "sim/rtl_engine.h"
#include "spec/params.h"
#include "../unit/test_support.h"

using namespace tpugen;

namespace {

/// The top under test: tpu_axi_top in the build defining TPUGEN_RTL_TOP "axi".
constexpr hdl::TopKind top_under_test() {
#ifdef TPUGEN_RTL_TOP
  static_assert(std::string_view(TPUGEN_RTL_TOP) == "axi", "TPUGEN_RTL_TOP names the AXI top only");
  return hdl::TopKind::Axi;
#else
  return hdl::TopKind::Core;
#endif
}

struct Config {
  Isa isa;
  std::filesystem::path sim;
};

/// The Isa and simulator of a parameter set (and C write beat), built on
/// first use.
const Config& config(const ParamOverrides& o, int c_beat = 1) {
  static std::map<std::pair<ParamOverrides, int>, Config> cache;
  auto it = cache.find({o, c_beat});
  if (it != cache.end()) return it->second;
  Isa isa = test::isa_at(o);
  hdl::RtlOptions options;
  options.c_beat_words = c_beat;
  options.top = top_under_test();
  const hdl::RtlContext ctx(isa, options);
  const auto sim = sim::ensure_simulator(ctx, TPUGEN_BINARY_DIR "/rtl-cache", [](const std::string& line) {
    fmt::print("{}\n", line);
  });
  return cache.emplace(std::make_pair(o, c_beat), Config{isa, sim}).first->second;
}

/// One GEMM on both engines: the whole of C must agree, and equal clip(A @ B)
/// inside the result and the prefill outside it.
void gemm_both(const ParamOverrides& o, GemmShape s, bool relu, const std::string& dist, std::uint64_t seed,
               const sim::RtlRunOptions& run = {}, int c_beat = 1) {
  const Config& cfg = config(o, c_beat);
  const Isa& isa = cfg.isa;
  INFO("T=" << isa.param("T") << " MAXDIM=" << isa.param("MAXDIM") << " QD=" << isa.param("QD") << " DMA_WORDS="
            << isa.param("DMA_WORDS") << " " << s.m << "x" << s.k << "x" << s.n << (relu ? " relu " : " ") << dist
            << " seed " << seed << " latency " << run.latency << " backpressure " << run.backpressure
            << " CBeat " << c_beat);
  const GemmJob job = test::random_gemm_job(isa, s, GemmOptions{relu, false}, dist, seed);
  const std::int64_t maxdim = isa.param("MAXDIM");
  const GemmOutcome model = run_gemm_model(isa, job);
  sim::RtlRunOptions opts = run;
  opts.seed = seed;
  const sim::RtlRunResult r = sim::run_gemm_rtl(cfg.sim, isa, job, opts);
  INFO(r.output);
  REQUIRE(r.status == "done");
  const Int8Matrix rtl_c{maxdim, maxdim, r.c_full};
  CHECK(compare_c(rtl_c, job.c_init, reference_gemm(job.a, job.b, relu)).empty());
  CHECK(r.c_full == model.c_full.data);
  CHECK(sim::compare_state(isa, *model.model, r).empty());
}

std::vector<GemmShape> sample(std::int64_t t, std::int64_t maxdim, int n, std::uint64_t seed) {
  std::vector<GemmShape> out{{t, t, t}, {maxdim, maxdim, maxdim}, {maxdim, t, 2 * t}, {t, maxdim, t}};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> tiles(1, maxdim / t);
  while (static_cast<int>(out.size()) < n) out.push_back({tiles(rng) * t, tiles(rng) * t, tiles(rng) * t});
  return out;
}

const char* kDists[] = {"full", "corner", "mid", "boundary"};

/// A program (not the GEMM) on both engines with random A, B and C.
void program_both(const ParamOverrides& o, const Program& p, std::uint64_t seed, const sim::RtlRunOptions& run = {}) {
  const Config& cfg = config(o);
  const Isa& isa = cfg.isa;
  INFO(p.source << " at T=" << isa.param("T") << " MAXDIM=" << isa.param("MAXDIM"));
  const auto image = assemble(isa, p);
  const std::int64_t maxdim = isa.param("MAXDIM");
  std::mt19937_64 rng(seed);
  const auto a = random_matrix(maxdim, maxdim, OperandDist::Full, rng).data;
  const auto b = random_matrix(maxdim, maxdim, OperandDist::Full, rng).data;
  const auto c = random_matrix(maxdim, maxdim, OperandDist::Full, rng).data;
  Model model(isa);
  model.set_dram("A", a);
  model.set_dram("B", b);
  model.set_dram("C", c);
  model.run_image(image);
  sim::RtlRunOptions opts = run;
  opts.seed = seed;
  const sim::RtlRunResult r = sim::run_rtl(cfg.sim, image, a, b, c, maxdim, opts);
  INFO(r.output);
  REQUIRE(r.status == "done");
  CHECK(r.runs_done == opts.runs);
  // Every run does the whole program again: no run ends early on a stale
  // count (without memory backpressure, runs take about the same time).
  REQUIRE(r.run_cycles.size() == opts.runs);
  if (opts.backpressure == 0.0)
    for (const auto n : r.run_cycles) CHECK(n * 10 >= r.run_cycles.front() * 9);
  CHECK(r.c_full == model.dram("C"));
  CHECK(r.c_full != c);
  // The final on-chip state, wherever the model tracks it (rows it wrote).
  CHECK(sim::compare_state(isa, model, r).empty());
}

}  // namespace

TEST_CASE("RTL == model: every GEMM shape at T=4, MAXDIM=16", "[rtl]") {
  int i = 0;
  for (std::int64_t m = 4; m <= 16; m += 4)
    for (std::int64_t k = 4; k <= 16; k += 4)
      for (std::int64_t n = 4; n <= 16; n += 4) {
        gemm_both({{"T", 4}, {"MAXDIM", 16}}, {m, k, n}, i % 2 == 1, kDists[i % 4], 100 + static_cast<std::uint64_t>(i));
        ++i;
      }
}

TEST_CASE("RTL == model: sampled GEMM shapes at T=4, MAXDIM=64", "[rtl]") {
  int i = 0;
  for (const auto& s : sample(4, 64, 20, 41)) {
    gemm_both({{"T", 4}, {"MAXDIM", 64}}, s, i % 2 == 0, kDists[i % 4], 200 + static_cast<std::uint64_t>(i));
    ++i;
  }
}

TEST_CASE("RTL == model: sampled GEMM shapes at T=8, MAXDIM=64", "[rtl]") {
  int i = 0;
  for (const auto& s : sample(8, 64, 20, 81)) {
    gemm_both({{"T", 8}, {"MAXDIM", 64}}, s, i % 2 == 1, kDists[i % 4], 300 + static_cast<std::uint64_t>(i));
    ++i;
  }
}

TEST_CASE("RTL == model: vadd, vector and ar_distance programs", "[rtl]") {
  for (const ParamOverrides& o : {ParamOverrides{{"T", 4}, {"MAXDIM", 16}}, ParamOverrides{{"T", 8}, {"MAXDIM", 64}}}) {
    const Isa& isa = config(o).isa;
    const std::int64_t t = isa.param("T");
    program_both(o, vadd_program(isa, {t, 2 * t, t}), 1);
    program_both(o, vector_program(isa), 2);
    program_both(o, ar_distance_program(isa, isa.param("AR_RAW_DIST")), 3);
    program_both(o, gemm_program(isa, {2 * t, 2 * t, 2 * t}, GemmOptions{true, false}), 4);
  }
}

TEST_CASE("RTL == model: back-to-back runs without a reset between them", "[rtl]") {
  // Each start follows the previous done_o at once: the progress counters,
  // the header and the loop stack must start afresh (a unit's counter left
  // at the previous run's count would end the run early or in OVERRUN).
  sim::RtlRunOptions run;
  run.runs = 3;
  for (const ParamOverrides& o : {ParamOverrides{{"T", 4}, {"MAXDIM", 16}}, ParamOverrides{{"T", 8}, {"MAXDIM", 64}}}) {
    const Isa& isa = config(o).isa;
    const std::int64_t t = isa.param("T");
    program_both(o, gemm_program(isa, {2 * t, 3 * t, t}, GemmOptions{true, false}), 11, run);
    program_both(o, vadd_program(isa, {t, 2 * t, t}), 12, run);
  }
}

TEST_CASE("RTL == model: non-default QD, DMA_WORDS and C write beat", "[rtl]") {
  // Four packed words a C write beat, the row in its strobed slot.
  const ParamOverrides o{{"T", 4}, {"MAXDIM", 16}, {"QD", 2}, {"DMA_WORDS", 2}};
  sim::RtlRunOptions run;
  run.latency = 1;
  run.backpressure = 0.2;
  int i = 0;
  for (const GemmShape s : {GemmShape{4, 4, 4}, GemmShape{16, 16, 16}, GemmShape{8, 12, 16}, GemmShape{16, 4, 8}}) {
    gemm_both(o, s, i % 2 == 0, kDists[i % 4], 400 + static_cast<std::uint64_t>(i), run, 4);
    ++i;
  }
}

TEST_CASE("RTL == model: memory latency and random backpressure", "[rtl]") {
  sim::RtlRunOptions run;
  run.latency = 3;
  run.backpressure = 0.3;
  int i = 0;
  for (const GemmShape s : {GemmShape{16, 16, 16}, GemmShape{12, 8, 4}, GemmShape{4, 16, 12}}) {
    gemm_both({{"T", 4}, {"MAXDIM", 16}}, s, i % 2 == 1, kDists[i % 4], 500 + static_cast<std::uint64_t>(i), run);
    ++i;
  }
}

namespace {

/// A binary the checker would refuse, built at the word level from a good
/// image: the header as the image carries it (any entry may lie), then the
/// instructions.
struct Binary {
  const Isa* isa;
  std::vector<std::int64_t> header;
  std::vector<Instr> instrs;

  Program program;

  Binary(const Isa& i, const Program& p)
      : isa(&i), header(header_counts(i, p, expand(i, p))), instrs(p.instrs), program(p) {}

  /// The header the (damaged) instructions really earn: an honest header.
  void recount() {
    program.instrs = instrs;
    header = header_counts(*isa, program, expand(*isa, program));
  }

  void add_count(std::string_view entry, std::int64_t delta) {
    const auto& h = isa->spec().header;
    for (std::size_t e = 0; e < h.size(); ++e)
      if (h[e].name == entry) header[e] += delta;
  }
  /// Insert an instruction before index `at` (the static count follows).
  void insert(std::size_t at, const Instr& in) {
    instrs.insert(instrs.begin() + static_cast<std::ptrdiff_t>(at), in);
    add_count(static_count_entry(), 1);
  }
  [[nodiscard]] std::string static_count_entry() const {
    for (const auto& h : isa->spec().header)
      if (h.count.kind == HeaderCount::Static) return h.name;
    return "";
  }
  [[nodiscard]] std::vector<std::uint64_t> image() const {
    auto words = pack_header(*isa, header);
    for (const auto& in : instrs) {
      const auto w = isa->encode(in);
      words.insert(words.end(), w.begin(), w.end());
    }
    return words;
  }
};

Instr op_instr(const Isa& isa, std::string_view name) { return isa.make(isa.spec().opcode_named(name)); }

/// An opcode number the spec does not define.
std::int64_t undefined_opcode(const Isa& isa) {
  for (std::int64_t n = 0;; ++n) {
    bool used = false;
    for (const auto& op : isa.spec().opcodes) used |= op.value == n;
    if (!used) return n;
  }
}

struct BadBinary {
  const char* what;
  std::function<void(Binary&)> damage;
  const char* status;  ///< done, or fault
  const char* fault;   ///< the fault's name, when status is fault
  const char* unit;    ///< fault_unit_o's name, or "" when it does not matter
};

}  // namespace

TEST_CASE("binaries that break contracts end in the expected fault or a defined result", "[rtl]") {
  const ParamOverrides o{{"T", 4}, {"MAXDIM", 16}};
  const Config& cfg = config(o);
  const Isa& isa = cfg.isa;
  const Program good = parse_assembly_file(isa, TPUGEN_SOURCE_DIR "/examples/asm/vadd_relu.asm");
  const std::int64_t maxdim = isa.param("MAXDIM");
  const std::string retired = [&] {
    for (const auto& op : isa.spec().opcodes)
      if (op.retired) return op.name;
    return std::string();
  }();
  REQUIRE(!retired.empty());
  auto find = [&](const Binary& b, std::string_view name) {
    for (std::size_t i = 0; i < b.instrs.size(); ++i)
      if (isa.opcode_of(b.instrs[i])->name == name) return i;
    FAIL("no " << name);
    return std::size_t{0};
  };
  const std::vector<BadBinary> cases = {
      {"mvout with nr = 0: nothing written, the run completes",
       [&](Binary& b) {
         b.instrs[find(b, "mvout")].fields[isa.nr_index()] = 0;
         b.recount();
       },
       "done", "", ""},
      {"an endloop with no open loop", [&](Binary& b) { b.insert(0, op_instr(isa, "endloop")); }, "fault",
       "LOOP_UNDERFLOW", ""},
      {"a loop never closed", [&](Binary& b) {
         Instr l = op_instr(isa, "loop");
         l.fields[isa.nr_index()] = 2;
         b.insert(b.instrs.size(), l);
       },
       "fault", "LOOP_OPEN", ""},
      {"loops nested deeper than LOOP_DEPTH",
       [&](Binary& b) {
         Instr l = op_instr(isa, "loop");
         l.fields[isa.nr_index()] = 1;
         for (std::int64_t d = 0; d <= isa.param("LOOP_DEPTH"); ++d) b.insert(0, l);
       },
       "fault", "LOOP_OVERFLOW", ""},
      {"an AGU term on a level that is not open",
       [&](Binary& b) {
         const std::size_t i = find(b, "mvout");
         const Opcode& mvout = isa.spec().opcode_named("mvout");
         b.instrs[i].terms.push_back(AguTerm{isa.spec().field(mvout.operand("dram_row0")->field)->agu_target, 1, 1});
       },
       "fault", "AGU_LEVEL", ""},
      {"the retired opcode", [&](Binary& b) { b.insert(0, op_instr(isa, retired)); }, "fault", "RETIRED", ""},
      {"an opcode the spec does not define",
       [&](Binary& b) {
         Instr x = op_instr(isa, "vadd");
         x.fields[isa.op_index()] = undefined_opcode(isa);
         b.insert(0, x);
       },
       "fault", "OPCODE", ""},
      {"a header promising accu more steps than the program gives",
       [&](Binary& b) { b.add_count("accu_iterations", 5); }, "fault", "STARVED", "accu"},
      {"a header promising dma_st fewer rows than the program writes",
       [&](Binary& b) { b.add_count("dma_st_rows", -1); }, "fault", "OVERRUN", "dma_st"},
      {"a header whose instruction count runs past IMEM_SIZE",
       [&](Binary& b) { b.add_count(b.static_count_entry(), isa.param("IMEM_SIZE")); }, "fault", "IMEM", ""},
  };
  std::mt19937_64 rng(9);
  const auto a = random_matrix(maxdim, maxdim, OperandDist::Full, rng).data;
  const auto bm = random_matrix(maxdim, maxdim, OperandDist::Full, rng).data;
  const auto c = random_matrix(maxdim, maxdim, OperandDist::Full, rng).data;
  sim::RtlRunOptions opts;
  opts.max_cycles = 100000;  // far beyond the watchdog: a hang would show as a timeout
  for (const auto& bad : cases) {
    INFO(bad.what);
    Binary bin(isa, good);
    bad.damage(bin);
    const auto image = bin.image();
    const auto r = sim::run_rtl(cfg.sim, image, a, bm, c, maxdim, opts);
    INFO(r.output);
    CHECK(r.status == bad.status);
    if (std::string_view(bad.status) == "fault") {
      CHECK(r.fault.name == bad.fault);
      if (*bad.unit) CHECK(r.fault.unit_name == bad.unit);
      CHECK(r.cycles < static_cast<std::uint64_t>(hdl::RtlOptions{}.watchdog_cycles) * 2);
    } else {
      // The defined result: the model's, for the same image.
      Model model(isa);
      model.set_dram("A", a);
      model.set_dram("B", bm);
      model.set_dram("C", c);
      model.run_image(image);
      CHECK(r.c_full == model.dram("C"));
    }
  }
}
