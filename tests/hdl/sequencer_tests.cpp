// Tests of the generated tpu_sequencer: lint, synthesis and Icarus
// elaboration at three configurations, then functional simulations against
// tests/hdl/sequencer_tb.sv. The expected dispatch streams are computed here
// from expand() and the derived unit costs, independently of the emitter's
// SystemVerilog; the fault programs are encoded instruction by instruction
// with hand-edited headers (no checks).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>

#include <fmt/format.h>

#include "isa/builder.h"
#include "isa/check.h"
#include "isa/derive.h"
#include "isa/image.h"
#include "isa/programs.h"
#include "hdl/emitters.h"
#include "hdl/generate.h"
#include "test_support.h"

using namespace tpugen;
namespace fs = std::filesystem;

namespace {

struct Config {
  std::int64_t t = 4, maxdim = 64;
};

Isa isa_of(const Config& c) { return test::isa_at({{"T", c.t}, {"MAXDIM", c.maxdim}}); }

fs::path work_dir(const std::string& name) {
  const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "rtl_sequencer_tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

using test::write_text;

/// tpu_pkg.sv, the primitives, the core's hand-written modules (the
/// sequencer's fetch among them) and tpu_sequencer.sv in `dir`; the paths in
/// compile order.
std::vector<std::string> write_sources(const hdl::RtlContext& ctx, const fs::path& dir) {
  std::vector<std::string> files;
  write_text(dir / "tpu_pkg.sv", hdl::emit_tpu_pkg(ctx));
  files.push_back((dir / "tpu_pkg.sv").string());
  for (const auto& p : hdl::primitive_files()) {
    const fs::path name = fs::path(p).filename();
    fs::copy_file(p, dir / name, fs::copy_options::overwrite_existing);
    files.push_back((dir / name).string());
  }
  for (const auto& e : hdl::emitters()) {
    if (e.emit) continue;
    write_text(dir / (std::string(e.module) + ".sv"), hdl::module_text(ctx, e));
    files.push_back((dir / (std::string(e.module) + ".sv")).string());
  }
  write_text(dir / "tpu_sequencer.sv", hdl::emit_tpu_sequencer(ctx));
  files.push_back((dir / "tpu_sequencer.sv").string());
  return files;
}

std::string joined(const std::vector<std::string>& files) {
  std::string s;
  for (const auto& f : files) s += " " + f;
  return s;
}

using test::run_shell;

/// The sources' text without comment lines: what a tool sees.
std::string without_comments(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) {
    std::istringstream in(test::read_text(f));
    for (std::string line; std::getline(in, line);) {
      const auto first = line.find_first_not_of(' ');
      if (first == std::string::npos || line.compare(first, 2, "//") != 0) out += line + "\n";
    }
  }
  return out;
}

bool mentions_warning(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text.find("warning") != std::string::npos;
}

// --- Expected dispatch ------------------------------------------------------------

struct Dispatch {
  std::int64_t op = 0;
  std::vector<std::int64_t> f;  ///< the operand fields, FIELD_W bits
  std::int64_t nr = 0, steps = 0;
  bool operator==(const Dispatch&) const = default;
};

std::string show(const Dispatch& d) {
  return fmt::format("op {} f {} nr {} steps {}", d.op, fmt::join(d.f, ","), d.nr, d.steps);
}

using Streams = std::map<std::string, std::vector<Dispatch>>;

/// Per dispatched unit, what the sequencer must hand it: every issue whose
/// actions are active on the unit, with the unit's cost as steps.
Streams expected_streams(const Isa& isa, const Program& program) {
  const Spec& spec = isa.spec();
  const std::int64_t mask = (std::int64_t{1} << hdl::RtlContext(isa, {}).field_width()) - 1;
  Streams out;
  for (const Unit* u : hdl::RtlContext(isa, {}).dispatched_units()) out[u->name];
  for (const Issue& is : expand(isa, program)) {
    const auto active = units_active(isa, *is.opcode, is.fields);
    for (auto& [unit, stream] : out) {
      if (std::find(active.begin(), active.end(), unit) == active.end()) continue;
      Dispatch d;
      d.op = is.opcode->value;
      for (const auto& f : spec.word0)
        if (f.agu_target) d.f.push_back(is.fields[isa.field_index(f.name)] & mask);
      d.nr = is.fields[isa.nr_index()];
      d.steps = unit_cost(isa, *is.opcode, unit, is.fields);
      stream.push_back(d);
    }
  }
  return out;
}

/// The issue schedule at one instruction a cycle, an endloop right after a
/// dispatching instruction riding along with it: the slots, and the slots of
/// the first and the last instruction that dispatches.
struct Schedule {
  std::int64_t slots = 0, first_dispatch = -1, last_dispatch = -1;
};

Schedule issue_schedule(const Isa& isa, const Program& program) {
  Schedule s;
  const Opcode* prev = nullptr;
  for (const Issue& is : expand(isa, program)) {
    const bool control = is.opcode->name == "loop" || is.opcode->name == "endloop";
    const bool folds = is.opcode->name == "endloop" && prev && prev->name != "loop" && prev->name != "endloop";
    if (!control && !units_active(isa, *is.opcode, is.fields).empty()) {
      if (s.first_dispatch < 0) s.first_dispatch = s.slots;
      s.last_dispatch = s.slots;
    }
    if (!folds) ++s.slots;
    prev = is.opcode;
  }
  return s;
}

// --- Simulation --------------------------------------------------------------------

struct Testbench {
  Config config;
  fs::path dir, vvp;
};

Testbench build_tb(const Config& c, const std::string& name, int watchdog = 256) {
  Testbench tb{c, work_dir(name), {}};
  const Isa isa = isa_of(c);
  const hdl::RtlContext ctx(isa, {});
  auto files = write_sources(ctx, tb.dir);
  files.push_back(TPUGEN_SOURCE_DIR "/tests/hdl/sequencer_tb.sv");
  tb.vvp = tb.dir / "tb.vvp";
  const auto r = run_shell(fmt::format("iverilog -g2012 -s sequencer_tb -P sequencer_tb.T={} -P sequencer_tb.IMEM_SIZE={} "
                                   "-P sequencer_tb.ImemBeat={} -P sequencer_tb.Watchdog={} -o {}{}",
                                   c.t, isa.param("IMEM_SIZE"), ctx.options().imem_beat_words, watchdog,
                                   tb.vvp.string(), joined(files)),
                       tb.dir / "iverilog.log");
  INFO(r.output);
  REQUIRE(r.code == 0);
  return tb;
}

struct SimOptions {
  bool stress = false;
  int seed = 1;
  int stall = -1;  ///< a unit index in the testbench that never accepts
  int runs = 1;
};

struct RunLog {
  Streams streams;
  std::string ending;  ///< DONE / FAULT / TIMEOUT
  std::vector<std::int64_t> values;
};

std::vector<RunLog> simulate(const Testbench& tb, std::vector<std::uint64_t> image, const SimOptions& o,
                             const std::string& name) {
  const Isa isa = isa_of(tb.config);
  image.resize(static_cast<std::size_t>(isa.param("IMEM_SIZE")), 0);
  const fs::path hex = tb.dir / (name + ".hex"), log = tb.dir / (name + ".log");
  write_image_hex(hex.string(), image);
  const auto r = run_shell(fmt::format("vvp -n {} +image={} +log={} +stress={} +seed={} +stall={} +runs={}", tb.vvp.string(),
                                   hex.string(), log.string(), o.stress ? 1 : 0, o.seed, o.stall, o.runs),
                       tb.dir / (name + ".vvp.log"));
  INFO(r.output);
  REQUIRE(r.code == 0);
  std::vector<RunLog> runs;
  std::istringstream in(test::read_text(log.string()));
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag == "RUN") {
      runs.emplace_back();
      for (const Unit* u : hdl::RtlContext(isa, {}).dispatched_units()) runs.back().streams[u->name];
    } else if (tag == "D") {
      REQUIRE(!runs.empty());
      std::string unit;
      Dispatch d;
      d.f.resize(4);
      ls >> unit >> d.op >> d.f[0] >> d.f[1] >> d.f[2] >> d.f[3] >> d.nr >> d.steps;
      runs.back().streams[unit].push_back(d);
    } else {
      REQUIRE(!runs.empty());
      runs.back().ending = tag;
      for (std::int64_t v; ls >> v;) runs.back().values.push_back(v);
    }
  }
  REQUIRE(runs.size() == static_cast<std::size_t>(o.runs));
  return runs;
}

void require_streams(const Streams& got, const Streams& want) {
  for (const auto& [unit, stream] : want) {
    INFO("unit " << unit);
    const auto& g = got.at(unit);
    for (std::size_t i = 0; i < std::min(g.size(), stream.size()); ++i) {
      INFO("dispatch " << i << ": got " << show(g[i]) << ", want " << show(stream[i]));
      REQUIRE(g[i] == stream[i]);
    }
    REQUIRE(g.size() == stream.size());
  }
}

/// The library programs and a 3-deep nest with multi-term addresses.
Program nest3_program(const Isa& isa) {
  ProgramBuilder b(isa, "nest3");
  b.loop(2, "i", [&](const Iv& i) {
    b.loop(3, "j", [&](const Iv& j) {
      b.loop(2, "k", [&](const Iv& k) {
        b.emit("dma_ld", {{"mode", 2}, {"dram_row0", Ref(1).at(k, 4)}, {"col_block", 1},
                          {"dst_row0", Ref(0).at(i, 24).at(j, 8)}},
               2);
      });
      b.emit("vld", {{"vr0", Ref(50).at(i, 6).at(j, 2)}, {"spad0", Ref(0).at(j, 2)}}, 2);
    });
  });
  return b.finish();
}

// --- Fault images --------------------------------------------------------------------

std::size_t header_index(const Spec& spec, HeaderCount::Kind kind, std::string_view unit = {}) {
  for (std::size_t e = 0; e < spec.header.size(); ++e)
    if (spec.header[e].count.kind == kind && (unit.empty() || spec.header[e].count.unit == unit)) return e;
  FAIL("no such header entry");
  return 0;
}

/// The header counts of `prefix` (the instructions that run before the
/// fault), a static count covering every instruction, and the encodings.
std::vector<std::uint64_t> fault_image(const Isa& isa, const std::vector<Instr>& prefix, const std::vector<Instr>& rest) {
  Program p{prefix, "prefix"};
  auto counts = header_counts(isa, p, expand(isa, p));
  counts[header_index(isa.spec(), HeaderCount::Static)] = static_cast<std::int64_t>(prefix.size() + rest.size());
  auto words = pack_header(isa, counts);
  for (const auto* part : {&prefix, &rest})
    for (const Instr& in : *part) {
      const auto w = isa.encode(in);
      words.insert(words.end(), w.begin(), w.end());
    }
  return words;
}

Instr instr(const Isa& isa, std::string_view opcode, std::int64_t nr = 0, std::vector<AguTerm> terms = {}) {
  Instr in = isa.make(isa.spec().opcode_named(opcode));
  in.fields[isa.nr_index()] = nr;
  in.terms = std::move(terms);
  return in;
}

Instr dma_ld(const Isa& isa, std::int64_t row) {
  Instr in = instr(isa, "dma_ld", 4);
  const Opcode& op = isa.spec().opcode_named("dma_ld");
  in.fields[isa.operand_index(op, "dram_row0")] = row;
  in.fields[isa.operand_index(op, "dst_row0")] = row;
  return in;
}

std::int64_t unit_code(const Spec& spec, std::string_view unit) {
  for (std::size_t u = 0; u < spec.units.size(); ++u)
    if (spec.units[u].name == unit) return static_cast<std::int64_t>(u);
  FAIL("no unit " << unit);
  return -1;
}

/// The fault codes, by their tpu_pkg order.
enum Fault : std::int64_t { kOpcode = 1, kRetired, kLoopOverflow, kLoopUnderflow, kAguLevel, kImem, kStarved, kOverrun, kHang, kLoopOpen };

void require_fault(const RunLog& run, std::int64_t code, std::int64_t pc, std::int64_t unit) {
  INFO("ending " << run.ending << " " << fmt::format("{}", fmt::join(run.values, " ")));
  REQUIRE(run.ending == "FAULT");
  REQUIRE(run.values.size() == 4);
  CHECK(run.values[0] == code);
  CHECK(run.values[1] == pc);
  CHECK(run.values[2] == unit);
}

}  // namespace

TEST_CASE("tpu_sequencer: Verilator, Yosys and Icarus accept it at three configurations", "[rtl][sequencer][hdl]") {
  struct Job {
    std::string config, tool;
    std::future<test::ShellRun> result;
  };
  std::vector<Job> jobs;
  std::set<std::string> synthesized;  // the sources without comments: T=4 at MAXDIM 16 and 64 are one design
  for (const Config c : {Config{4, 16}, Config{4, 64}, Config{8, 64}}) {
    const Isa isa = isa_of(c);
    const fs::path dir = work_dir(fmt::format("lint_t{}_m{}", c.t, c.maxdim));
    const auto files = write_sources(hdl::RtlContext(isa, {}), dir);
    const std::string config = fmt::format("T={} MAXDIM={}", c.t, c.maxdim);
    auto run = [&](const char* tool, std::string cmd) {
      jobs.push_back({config, tool, std::async(std::launch::async, [cmd, log = dir / (std::string(tool) + ".log")] {
                        return run_shell(cmd, log);
                      })});
    };
    run("verilator", "verilator --lint-only -Wall --top-module tpu_sequencer" + joined(files));
    run("iverilog", "iverilog -g2012 -s tpu_sequencer -o " + (dir / "seq.vvp").string() + joined(files));
    if (synthesized.insert(without_comments(files)).second)
      run("yosys", fmt::format("yosys -q -p 'read_verilog -sv{}; hierarchy -check -top tpu_sequencer; proc; "
                               "check -assert; synth -top tpu_sequencer; select -assert-none t:*latch* t:*LATCH*'",
                               joined(files)));
  }
  CHECK(jobs.size() == 8);
  for (auto& job : jobs) {
    const test::ShellRun r = job.result.get();
    INFO(job.config << ", " << job.tool << ":\n" << r.output);
    CHECK(r.code == 0);
    CHECK(!mentions_warning(r.output));
  }
}

TEST_CASE("tpu_sequencer: dispatch streams, completion and issue rate", "[rtl][sequencer][hdl]") {
  struct Case {
    std::string name;
    Config config;
    std::function<Program(const Isa&)> program;
  };
  const std::vector<Case> cases = {
      {"gemm16", {4, 64}, [](const Isa& isa) { return gemm_program(isa, {16, 16, 16}); }},
      {"gemm64x32x48_relu", {4, 64}, [](const Isa& isa) { return gemm_program(isa, {64, 32, 48}, {true, false}); }},
      {"nest3", {4, 64}, nest3_program},
      {"vadd", {4, 64}, [](const Isa& isa) { return vadd_program(isa, {16, 16, 16}); }},
      {"vector", {4, 64}, vector_program},
      {"ar_distance", {4, 64}, [](const Isa& isa) { return ar_distance_program(isa, 4); }},
      {"gemm_t8", {8, 64}, [](const Isa& isa) { return gemm_program(isa, {64, 64, 32}); }},
  };
  std::map<std::int64_t, Testbench> tbs;
  for (const auto& c : cases) {
    if (!tbs.count(c.config.t)) tbs.emplace(c.config.t, build_tb(c.config, fmt::format("sim_t{}", c.config.t)));
    const Testbench& tb = tbs.at(c.config.t);
    const Isa isa = isa_of(c.config);
    const Program program = c.program(isa);
    const auto image = assemble(isa, program);
    const Streams want = expected_streams(isa, program);
    INFO(c.name);

    // No backpressure, imem latency 0: exact timing.
    const auto calm = simulate(tb, image, {}, c.name);
    REQUIRE(calm[0].ending == "DONE");
    require_streams(calm[0].streams, want);
    const std::int64_t cycles = calm[0].values[0], first = calm[0].values[1];
    const Schedule s = issue_schedule(isa, program);
    INFO("cycles " << cycles << ", first dispatch " << first << ", issue slots " << s.slots);
    // start_i in cycle 0; beats 0 and 1 (the header and the first four
    // instructions) land in cycles 2 and 3; slot k issues in cycle 4 + k; a
    // dispatch shows on its port the cycle after its issue and is accepted
    // there; the run finishes when pc has passed the end (cycle 4 + slots)
    // and the last dispatch has left (cycle 6 + its slot); busy_o is high
    // from cycle 1 through that cycle, which cycles_o counts.
    CHECK(first == 5 + s.first_dispatch);
    CHECK(cycles == std::max(4 + s.slots, 6 + s.last_dispatch));

    // Random imem latency and backpressure, two runs back to back.
    const auto stress = simulate(tb, image, {true, 7, -1, 2}, c.name + "_stress");
    for (const auto& run : stress) {
      REQUIRE(run.ending == "DONE");
      require_streams(run.streams, want);
      CHECK(run.values[0] >= cycles);
    }
  }
}

TEST_CASE("tpu_sequencer: faults", "[rtl][sequencer][hdl]") {
  const Config c{4, 64};
  const Isa isa = isa_of(c);
  const Spec& spec = isa.spec();
  const Testbench tb = build_tb(c, "faults", 64);
  const std::int64_t seq = unit_code(spec, "sequencer");
  const std::int64_t n_max = (isa.param("IMEM_SIZE") - spec.nhdr) / spec.iwords;

  SECTION("an empty program completes") {
    const auto runs = simulate(tb, fault_image(isa, {}, {}), {}, "empty");
    REQUIRE(runs[0].ending == "DONE");
    for (const auto& [unit, stream] : runs[0].streams) CHECK(stream.empty());
  }
  SECTION("an unknown opcode") {
    std::int64_t unknown = 0;
    while (spec.opcode(unknown)) ++unknown;
    Instr bad = instr(isa, "nop");
    bad.fields[isa.op_index()] = unknown;
    const auto runs = simulate(tb, fault_image(isa, {dma_ld(isa, 0)}, {bad, dma_ld(isa, 4)}), {}, "opcode");
    require_fault(runs[0], kOpcode, 1, seq);
    CHECK(runs[0].streams.at("dma_ld").size() == 1);
  }
  SECTION("a retired opcode") {
    const Opcode* retired = nullptr;
    for (const auto& op : spec.opcodes)
      if (op.retired) retired = &op;
    REQUIRE(retired);
    const auto runs = simulate(tb, fault_image(isa, {dma_ld(isa, 0), dma_ld(isa, 4)}, {instr(isa, retired->name)}), {},
                               "retired");
    require_fault(runs[0], kRetired, 2, seq);
    CHECK(runs[0].streams.at("dma_ld").size() == 2);
  }
  SECTION("an endloop without a loop") {
    const auto runs = simulate(tb, fault_image(isa, {dma_ld(isa, 0)}, {instr(isa, "endloop")}), {}, "underflow");
    require_fault(runs[0], kLoopUnderflow, 1, seq);
  }
  SECTION("loops five deep") {
    std::vector<Instr> rest(5, instr(isa, "loop", 2));
    rest.push_back(dma_ld(isa, 0));
    for (int i = 0; i < 5; ++i) rest.push_back(instr(isa, "endloop"));
    const auto runs = simulate(tb, fault_image(isa, {}, rest), {}, "overflow");
    require_fault(runs[0], kLoopOverflow, 4, seq);
  }
  SECTION("a term on a level that is not open") {
    const std::int64_t f3 = spec.field("f3")->agu_target;
    Instr ld = dma_ld(isa, 0);
    ld.terms = {{f3, 0, 4}, {f3, 1, 8}};  // level 0 is open, level 1 is not
    const auto runs = simulate(tb, fault_image(isa, {}, {instr(isa, "loop", 2), ld, instr(isa, "endloop")}), {}, "level");
    require_fault(runs[0], kAguLevel, 1, seq);
    CHECK(runs[0].streams.at("dma_ld").empty());
  }
  SECTION("an endloop carrying a term on a closed level is not folded, and faults") {
    Instr end = instr(isa, "endloop");
    end.terms = {{spec.field("f0")->agu_target, 2, 1}};
    const auto runs = simulate(tb, fault_image(isa, {}, {instr(isa, "loop", 2), dma_ld(isa, 0), end}), {}, "endlevel");
    require_fault(runs[0], kAguLevel, 2, seq);
    CHECK(runs[0].streams.at("dma_ld").size() == 1);
  }
  SECTION("a program that ends inside a loop") {
    const auto runs = simulate(tb, fault_image(isa, {}, {instr(isa, "loop", 2), dma_ld(isa, 0)}), {}, "open");
    require_fault(runs[0], kLoopOpen, 2, seq);
  }
  SECTION("an instruction count past imem") {
    auto words = fault_image(isa, {dma_ld(isa, 0)}, {});
    auto counts = unpack_header(isa, words);
    counts[header_index(spec, HeaderCount::Static)] = n_max + 1;
    const auto header = pack_header(isa, counts);
    std::copy(header.begin(), header.end(), words.begin());
    const auto runs = simulate(tb, words, {}, "imem");
    require_fault(runs[0], kImem, 0, seq);
    CHECK(runs[0].streams.at("dma_ld").empty());
  }
  SECTION("a header promising more or fewer dma_ld rows than the program has") {
    const Program gemm = gemm_program(isa, {16, 16, 16});
    const auto good = assemble(isa, gemm);
    const std::size_t rows = header_index(spec, HeaderCount::UnitSteps, "dma_ld");
    for (const std::int64_t delta : {1, -1}) {
      auto counts = unpack_header(isa, good);
      counts[rows] += delta;
      auto words = good;
      const auto header = pack_header(isa, counts);
      std::copy(header.begin(), header.end(), words.begin());
      const auto runs = simulate(tb, words, {}, delta > 0 ? "starved" : "overrun");
      INFO("delta " << delta);
      if (delta > 0) require_fault(runs[0], kStarved, static_cast<std::int64_t>(gemm.instrs.size()), unit_code(spec, "dma_ld"));
      else require_fault(runs[0], kOverrun, runs[0].values[1], unit_code(spec, "dma_ld"));
    }
  }
  SECTION("a unit that never accepts: the watchdog") {
    const auto runs = simulate(tb, assemble(isa, gemm_program(isa, {16, 16, 16})), {false, 1, 0, 1}, "hang");
    require_fault(runs[0], kHang, runs[0].values[1], unit_code(spec, "dma_ld"));
    CHECK(runs[0].values[3] < 200);  // bounded: Watchdog = 64 cycles after the stall
  }
  SECTION("a run after a fault starts clean") {
    // Two runs of a faulting image: the second must fault identically.
    const auto runs = simulate(tb, fault_image(isa, {dma_ld(isa, 0)}, {instr(isa, "endloop")}), {true, 3, -1, 2}, "again");
    for (const auto& run : runs) {
      require_fault(run, kLoopUnderflow, 1, seq);
      CHECK(run.streams.at("dma_ld").size() == 1);
    }
  }
}

TEST_CASE("tpu_sequencer: deterministic, spec-derived, and refuses what it cannot implement", "[rtl][sequencer]") {
  const hdl::RtlContext ctx(test::isa_at({}), {});
  const std::string sv = hdl::emit_tpu_sequencer(ctx);
  CHECK(sv == hdl::emit_tpu_sequencer(ctx));
  CHECK(sv.find("tpu_pkg::OP_MM") != std::string::npos);
  CHECK(sv.find("16'(T) + 16'd1") != std::string::npos);       // mm on spm: T + 1
  CHECK(sv.find("16'(cur_nr) * 16'd2") != std::string::npos);  // vadd on accu: 2 * nr

  // A spec whose vadd costs accu nr * nr steps: no linear form, no RTL.
  std::string text = test::read_text(test::spec_path());
  const std::string from = "{opcode: vadd, unit: accu, port: ar.read, kind: read, state: ar, base: ar_s1, items: nr}";
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "{opcode: vadd, unit: accu, port: ar.read, kind: read, state: ar, base: ar_s1, items: nr * nr}");
  const fs::path dir = work_dir("refuse");
  write_text(dir / "spec.yaml", text);
  const Spec spec = load_spec((dir / "spec.yaml").string());
  const Isa isa(spec, legal_params(spec, {}, nullptr));
  try {
    (void)hdl::emit_tpu_sequencer(hdl::RtlContext(isa, {}));
    FAIL("a nonlinear steps form was emitted");
  } catch (const Error& e) {
    CHECK(e.rule() == "rtl.unsupported");
    CHECK(e.message().find("vadd") != std::string::npos);
  }
}
