// The Verilator harness (tb/sim/harness/sim_main.cpp) and the RTL engine's cached
// build and runs, against a mock tpu_top (tests/hdl/mock_top.sv) that has the
// documented ports. The Verilator build is cached in the build tree, so only
// the first run pays for it.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "isa/image.h"
#include "hdl/emitters.h"
#include "sim/rtl_engine.h"
#include "test_support.h"

using namespace tpugen;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMagicFault = 0xFA17FA17FA17FA17ULL;
constexpr std::uint64_t kMagicHang = 0xDEADBEEFDEADBEEFULL;
constexpr std::uint64_t kMagicGlitch = 0x611C611C611C611CULL;

const Isa& mock_isa() {
  static const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  return isa;
}

/// mock_progress.svh: each progress counter's header slice, from the spec.
std::string mock_progress(const Spec& spec) {
  std::string o = "// Written by rtl_harness_tests from the spec: progress counter <- header slice.\n";
  int k = 0;
  for (const auto& h : spec.header) {
    if (h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) continue;
    o += fmt::format("assign hdr_counts[{} +: 16] = 16'(header_q[{} +: {}]);  // {}\n", 16 * k++, 64 * h.word + h.lsb,
                     h.width, h.name);
  }
  return o;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  REQUIRE(f.good());
}

/// The mock, verilated with the harness through the engine's cache.
const fs::path& mock_sim() {
  static const fs::path sim = [] {
    hdl::RtlOptions options;
    options.c_beat_words = 2;  // the mock writes slot 1 of a two-word beat
    const hdl::RtlContext ctx(mock_isa(), options);
    sim::SimBuildSpec spec;
    spec.populate = [&ctx](const fs::path& dir) {
      write(dir / "tpu_pkg.sv", hdl::emit_tpu_pkg(ctx));
      fs::copy_file(TPUGEN_SOURCE_DIR "/tests/hdl/mock_top.sv", dir / "mock_top.sv");
      write(dir / "mock_progress.svh", mock_progress(ctx.spec()));
      // The stand-in has the generated tpu_top's parameters and ports.
      write(dir / "tpu_top_params.svh", hdl::top_parameter_decls(ctx));
      write(dir / "tpu_top_ports.svh", hdl::top_port_decls(ctx));
      write(dir / "sim_config.h", sim::sim_config_header(ctx));
      write(dir / "files.f", "tpu_pkg.sv\nmock_top.sv\n");
    };
    spec.key_text = "mock tpu_top\n";
    // tpu_top's parameters (docs/microarch.md, "Top level").
    for (const char* name : {"T", "MAXDIM", "SPAD_ROWS", "NVR", "NAR", "IMEM_SIZE", "QD", "DMA_WORDS"})
      spec.extra_flags.push_back(fmt::format("-G{}={}", name, ctx.param(name)));
    spec.extra_flags.push_back(fmt::format("-GImemBeat={}", ctx.options().imem_beat_words));
    spec.extra_flags.push_back(fmt::format("-GCBeat={}", ctx.options().c_beat_words));
    spec.extra_flags.push_back(fmt::format("-GWatchdog={}", ctx.options().watchdog_cycles));
    spec.description = "the mock tpu_top";
    return sim::cached_sim_build(TPUGEN_BINARY_DIR "/test-cache", spec,
                                 [](const std::string& line) { WARN(line); });
  }();
  return sim;
}

struct MockRun {
  std::vector<std::int64_t> counts;  ///< header counts, spec order
  std::vector<std::int8_t> a, b, c;
  std::vector<std::uint64_t> image;
};

MockRun mock_inputs(std::uint64_t instr0) {
  const Isa& isa = mock_isa();
  const std::int64_t maxdim = isa.param("MAXDIM");
  MockRun r;
  for (std::size_t e = 0; e < isa.spec().header.size(); ++e) r.counts.push_back(static_cast<std::int64_t>(3 * e + 1));
  r.image = pack_header(isa, r.counts);
  r.image.push_back(instr0);
  std::mt19937_64 rng(5);
  auto random_bytes = [&] {
    std::vector<std::int8_t> v(static_cast<std::size_t>(maxdim * maxdim));
    for (auto& x : v) x = static_cast<std::int8_t>(rng());
    return v;
  };
  r.a = random_bytes();
  r.b = random_bytes();
  r.c = random_bytes();
  return r;
}

/// C after the mock: bytes T .. 2T-1 hold A + B bytewise (the strobed slot
/// of its one write beat), the rest the prefill.
std::vector<std::int8_t> mock_expected_c(const MockRun& in) {
  std::vector<std::int8_t> c = in.c;
  const auto t = static_cast<std::size_t>(mock_isa().param("T"));
  for (std::size_t k = 0; k < t; ++k)
    c[t + k] = static_cast<std::int8_t>(static_cast<std::uint8_t>(in.a[k] + in.b[k]));
  return c;
}

sim::RtlRunResult run_mock(const MockRun& in, const sim::RtlRunOptions& opt) {
  return sim::run_rtl(mock_sim(), in.image, in.a, in.b, in.c, mock_isa().param("MAXDIM"), opt);
}

void check_done(const MockRun& in, const sim::RtlRunResult& r) {
  INFO(r.output);
  CHECK(r.status == "done");
  CHECK(r.exit_code == 0);
  CHECK(r.protocol_errors.empty());
  CHECK(r.c_full == mock_expected_c(in));
  // Every counter reports its header count.
  const Spec& spec = mock_isa().spec();
  std::size_t k = 0;
  for (std::size_t e = 0; e < spec.header.size(); ++e) {
    const auto kind = spec.header[e].count.kind;
    if (kind != HeaderCount::UnitSteps && kind != HeaderCount::PortItems) continue;
    REQUIRE(k < r.progress.size());
    CHECK(r.progress[k].name == spec.header[e].name);
    CHECK(r.progress[k].count == in.counts[e]);
    CHECK(r.progress[k].done == in.counts[e]);
    ++k;
  }
  CHECK(k == r.progress.size());
}

}  // namespace

TEST_CASE("harness: the mock top runs to done at latency 0", "[rtl_harness][hdl]") {
  const MockRun in = mock_inputs(0);
  const auto r = run_mock(in, {});
  check_done(in, r);
  CHECK(r.cycles > 4);
  CHECK(r.cycles < 60);
}

TEST_CASE("harness: latency 3 and backpressure slow it down but change nothing else", "[rtl_harness][hdl]") {
  const MockRun in = mock_inputs(0);
  const auto fast = run_mock(in, {});
  sim::RtlRunOptions opt;
  opt.latency = 3;
  opt.backpressure = 0.4;
  opt.seed = 11;
  const auto slow = run_mock(in, opt);
  check_done(in, slow);
  CHECK(slow.cycles > fast.cycles + 3);
}

TEST_CASE("harness: a fault is reported with its name, instruction and exit 1", "[rtl_harness][hdl]") {
  const auto r = run_mock(mock_inputs(kMagicFault), {});
  INFO(r.output);
  CHECK(r.status == "fault");
  CHECK(r.exit_code == 1);
  CHECK(r.fault.name == "OPCODE");
  CHECK(r.fault.pc == 0);
  CHECK(r.output.find("fault OPCODE") != std::string::npos);
}

TEST_CASE("harness: a hang times out and names the counters that are short", "[rtl_harness][hdl]") {
  const MockRun in = mock_inputs(kMagicHang);
  sim::RtlRunOptions opt;
  opt.max_cycles = 200;
  const auto r = run_mock(in, opt);
  INFO(r.output);
  CHECK(r.status == "timeout");
  CHECK(r.exit_code == 1);
  CHECK(r.cycles == 200);
  REQUIRE_FALSE(r.progress.empty());
  // The first counter, e.g. "dma_ld_rows 0/4", printed and in the report.
  const Spec& spec = mock_isa().spec();
  for (std::size_t e = 0; e < spec.header.size(); ++e)
    if (spec.header[e].count.kind == HeaderCount::UnitSteps) {
      CHECK(r.output.find(fmt::format("{} 0/{}", spec.header[e].name, in.counts[e])) != std::string::npos);
      break;
    }
  CHECK(r.progress[0].done == 0);
  CHECK(r.progress[0].count > 0);
}

TEST_CASE("harness: a request valid dropped before its handshake is a protocol error", "[rtl_harness][hdl]") {
  sim::RtlRunOptions opt;
  opt.backpressure = 0.7;
  opt.seed = 3;
  opt.max_cycles = 500;
  const auto r = run_mock(mock_inputs(kMagicGlitch), opt);
  INFO(r.output);
  CHECK(r.status == "protocol_error");
  CHECK(r.exit_code == 1);
  REQUIRE_FALSE(r.protocol_errors.empty());
  CHECK(r.protocol_errors[0].find("dram_rd: request valid dropped before the handshake") != std::string::npos);
}

TEST_CASE("harness: --trace writes an FST waveform", "[rtl_harness][hdl]") {
  const fs::path trace = TPUGEN_BINARY_DIR "/test-cache/mock_trace.fst";
  fs::remove(trace);
  sim::RtlRunOptions opt;
  opt.trace = trace.string();
  check_done(mock_inputs(0), run_mock(mock_inputs(0), opt));
  CHECK(fs::exists(trace));
  CHECK(fs::file_size(trace) > 100);
}

TEST_CASE("harness: the build is cached under a key of its contents", "[rtl_harness][hdl]") {
  const fs::path sim = mock_sim();
  const fs::path dir = sim.parent_path();
  CHECK(fs::exists(dir / "stamp"));
  CHECK(fs::exists(dir / "key.txt"));
  CHECK(fs::exists(dir / "sim/harness/sim_main.cpp"));
  CHECK(fs::exists(dir / "sim_config.h"));
  CHECK(dir.parent_path().filename() == "rtl");
  // The key covers the files: the key text names the harness with its hash.
  CHECK(test::read_text((dir / "key.txt").string()).find("file sim/harness/sim_main.cpp ") != std::string::npos);
}

TEST_CASE("sim_config.h carries the counters, their header slices and the fault names", "[rtl_harness]") {
  const hdl::RtlContext ctx(mock_isa(), hdl::RtlOptions{});
  const std::string h = sim::sim_config_header(ctx);
  for (const auto& e : ctx.spec().header) {
    const bool counter = e.count.kind == HeaderCount::UnitSteps || e.count.kind == HeaderCount::PortItems;
    CHECK((h.find("{\"" + e.name + "\"") != std::string::npos) == counter);
  }
  CHECK(h.find("\"NONE\", \"OPCODE\"") != std::string::npos);
  CHECK(h.find("kMaxdim = 16;") != std::string::npos);
  CHECK(h.find("kWriteBeatBytes = 4;") != std::string::npos);  // CBeat = 1: one row of T = 4 bytes
}

TEST_CASE("harness: the simulators compile and link with the configured compiler", "[rtl_harness]") {
  const auto args = sim::verilator_args("d", {}, "tpu_top", sim::core_harness(), true);
  const auto has = [&](const std::string& a) { return std::find(args.begin(), args.end(), a) != args.end(); };
  const std::string cxx = sim::sim_compiler();
  CHECK(has("CXX=" + cxx) == !cxx.empty());
  CHECK(has("LINK=" + cxx) == !cxx.empty());
  CHECK(has("-std=c++20"));
  CHECK(sim::sim_compiler_args().size() == (cxx.empty() ? 2U : 6U));
  // The build's makefile takes them through -MAKEFLAGS, each after the flag.
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].starts_with("CXX=") || args[i].starts_with("LINK=")) {
      REQUIRE(i > 0);
      CHECK(args[i - 1] == "-MAKEFLAGS");
    }
  }
}

TEST_CASE("harness: a build without assertions drops exactly the assertion flags", "[rtl_harness]") {
  const auto with = sim::verilator_args("d", {}, "tpu_top", sim::core_harness(), true);
  const auto without = sim::verilator_args("d", {}, "tpu_top", sim::core_harness(), false);
  const auto has = [](const std::vector<std::string>& args, const std::string& a) {
    return std::find(args.begin(), args.end(), a) != args.end();
  };
  CHECK(has(with, "--assert"));
  CHECK(has(with, "-DTPU_ASSERT"));
  CHECK_FALSE(has(without, "--assert"));
  CHECK_FALSE(has(without, "-DTPU_ASSERT"));
  std::vector<std::string> rest = with;
  std::erase_if(rest, [](const std::string& a) { return a == "--assert" || a == "-DTPU_ASSERT"; });
  CHECK(rest == without);
}
