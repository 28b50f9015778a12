// The quantiser occupant's RTL (rtl/mover/tpu_mover_quant.sv) in a mover
// configuration that `tpugen mover gen` writes (hdl::generate_mover). First,
// simulated by Icarus against tests/hdl/tb_tpu_mover_quant.sv on vectors the
// C++ model (tb/model/mover/quantiser.cpp) writes: the worked example, every
// exponent as a lane's peak, zeros of both signs, subnormals, Inf, NaN, the
// scale rule's c boundaries, and random entries in both packings. The
// testbench adds random gaps and backpressure, a clear_i mid-entry, and a
// sustained phase at one word a cycle. Second, linted by Verilator -Wall,
// synthesized by Yosys with no latch cells, and compiled by Icarus. Third,
// a package whose lane shape the module does not lay out is refused at
// elaboration by all three tools.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "hdl/sysnode/sysnode_context.h"
#include "hdl/sysnode/sysnode_generate.h"
#include "model/mover/quantiser.h"
#include "test_support.h"

using namespace tpugen;

namespace {

namespace fs = std::filesystem;

using Entry = std::array<mover::MoverWord, mover::kQuantiserInWords>;

constexpr const char* kTop = "tpu_mover_quant";
/// The module and what it instantiates, in compile order, after the package.
constexpr const char* kSources =
    "tpu_mover_pkg.sv tpu_assert_never.sv tpu_stream_check.sv tpu_out_reg.sv tpu_mover_quant.sv";

/// The shipped mover configuration, written afresh into
/// build/rtl_mover_quant/<name> (one directory per test case, since CTest
/// runs test cases side by side).
fs::path generate_config(const std::string& name) {
  const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "rtl_mover_quant" / name;
  fs::remove_all(dir);
  const SystemNodeSpec& spec = test::shipped_system_node_spec();
  const hdl::SysnodeContext ctx(test::shipped_noc_spec(), spec, resolve_mover_params(spec), resolve_agent_params(spec));
  (void)hdl::generate_mover(ctx, dir.string());
  const std::string files = test::read_text((dir / "files.f").string());
  REQUIRE(files.find("tpu_mover_quant.sv") != std::string::npos);
  return dir;
}

/// The model's constants, as the spec gives them.
mover::QuantiserConstants constants() {
  const QuantiserSpec& q = test::shipped_system_node_spec().mover.quantiser;
  return {q.reciprocal, q.sexp_min, q.sexp_max, q.scale_bias, q.lanes, q.lane_elems};
}

/// A shell command run in `dir`, its output kept in `log` there.
test::ShellRun run_in(const fs::path& dir, const std::string& cmd, const std::string& log) {
  return test::run_shell(fmt::format("cd '{}' && ( {} )", dir.string(), cmd), dir / log);
}

// ---- Entries

void set_element(Entry& in, int lane, int k, std::uint16_t x) {
  auto& word = in[static_cast<std::size_t>(2 * lane + k / 16)];  // word b: lane b div 2, k = 16 (b mod 2) + i
  word[static_cast<std::size_t>(2 * (k % 16))] = static_cast<std::uint8_t>(x & 0xFF);
  word[static_cast<std::size_t>(2 * (k % 16) + 1)] = static_cast<std::uint8_t>(x >> 8);
}

std::uint16_t fp16_bits(int sign, int field, int mantissa) {
  return static_cast<std::uint16_t>((sign << 15) | (field << 10) | mantissa);
}

/// Zeros of both signs, subnormals, the largest normal, Inf, NaN (quiet and signalling).
const std::array<std::uint16_t, 18> kSpecials{0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x3C00, 0xBC00,
                                              0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7FFF, 0xFFFF};

/// The worked example of mover-notes §5: lane 0 32 x +1.0, lane 1 all zero,
/// lane 2 peaking at 65504 (with its negative and smaller values), lane 3
/// zeros of both signs and subnormals.
Entry worked_example() {
  Entry in{};
  for (int k = 0; k < 32; ++k) {
    set_element(in, 0, k, 0x3C00);
    set_element(in, 2, k, k == 5 ? 0x7BFF : (k == 6 ? 0xFBFF : fp16_bits(k % 2, 10 + k % 20, 37 * k % 1024)));
    set_element(in, 3, k, k % 3 == 0 ? 0x8000 : fp16_bits(k % 2, 0, 31 * k));
  }
  return in;
}

/// Lane `lane` of `in`, filled as kind `kind` (0 .. 7) says.
void fill_lane(Entry& in, int lane, std::mt19937_64& rng) {
  const auto r = [&rng](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  const int kind = r(8);
  const int top = r(32);  // the lane's largest exponent field
  for (int k = 0; k < 32; ++k) {
    std::uint16_t x = 0;
    switch (kind) {
      case 0:  // any bits at all
        x = static_cast<std::uint16_t>(rng());
        break;
      case 1:  // exponents within 9 of the top: codes from 0 to 63 (t from -1 to 8)
        x = fp16_bits(r(2), std::max(0, top - r(10)), r(1024));
        break;
      case 2:  // zeros of both signs, a few tiny subnormals
        x = r(4) == 0 ? fp16_bits(r(2), 0, r(4)) : fp16_bits(r(2), 0, 0);
        break;
      case 3:  // subnormals only
        x = fp16_bits(r(2), 0, r(1024) >> r(10));
        break;
      case 4:  // specials
        x = kSpecials[static_cast<std::size_t>(r(static_cast<int>(kSpecials.size())))];
        break;
      case 5:  // one element at the top, the rest zero
        x = k == 0 ? fp16_bits(r(2), top, r(1024)) : 0;
        break;
      case 6:  // every element at the peak or a step below it
        x = fp16_bits(r(2), top, 1023 - r(2));
        break;
      default:  // exponents anywhere below the top
        x = fp16_bits(r(2), r(top + 1), r(1024));
        break;
    }
    set_element(in, lane, (k + 7 * lane) % 32, x);
  }
}

Entry random_entry(std::mt19937_64& rng) {
  Entry in{};
  for (int lane = 0; lane < 4; ++lane) fill_lane(in, lane, rng);
  return in;
}

/// Every exponent field as a lane's peak (lane = field mod 4), with the
/// significands at the scale rule's c boundaries (sig = 126 c and 126 c + 1,
/// 1024, 2047) and random smaller elements.
std::vector<Entry> exponent_sweep(std::mt19937_64& rng) {
  std::vector<int> sigs = {1024, 2047};
  for (int c = 9; c <= 16; ++c) {
    if (126 * c >= 1024 && 126 * c <= 2047) sigs.push_back(126 * c);
    if (126 * c + 1 >= 1024 && 126 * c + 1 <= 2047) sigs.push_back(126 * c + 1);
  }
  std::vector<Entry> entries;
  for (int field = 0; field < 32; ++field) {
    for (const int sig : sigs) {
      Entry in = random_entry(rng);
      const int lane = field % 4;
      const int mantissa = field == 0 ? (sig >> (1 + static_cast<int>(rng() % 10))) % 1024 : sig - 1024;
      const std::uint16_t peak = fp16_bits(0, field, mantissa);
      for (int k = 0; k < 32; ++k) {
        const int sign = static_cast<int>(rng() % 2);
        const int below = std::max(0, field - static_cast<int>(rng() % 9));
        const auto small = static_cast<std::uint16_t>(fp16_bits(0, below, static_cast<int>(rng() % 1024)));
        const std::uint16_t magnitude = k == 3 ? peak : std::min(small, peak);
        set_element(in, lane, k, static_cast<std::uint16_t>((sign << 15) | magnitude));
      }
      entries.push_back(in);
    }
  }
  return entries;
}

std::string hex_word(const mover::MoverWord& w) {
  std::string s;
  for (std::size_t b = w.size(); b-- > 0;) s += fmt::format("{:02x}", w[b]);
  return s;
}

/// The vector file of tb_tpu_mover_quant: the entry count, then per entry its
/// input words, its packing bit and the model's output words.
std::size_t write_vectors(const fs::path& path) {
  const mover::QuantiserConstants c = constants();
  std::mt19937_64 rng(20240917);
  std::vector<std::pair<Entry, bool>> entries;
  entries.emplace_back(worked_example(), false);
  entries.emplace_back(worked_example(), true);
  entries.emplace_back(Entry{}, false);
  for (const Entry& e : exponent_sweep(rng)) entries.emplace_back(e, rng() % 2 == 1);
  while (entries.size() < 1500) entries.emplace_back(random_entry(rng), rng() % 2 == 1);

  // The worked example as mover-notes §5 gives it, through the model.
  const auto example = mover::quantise(c, entries[0].first, false);
  CHECK(example[0][3] == 0x71);  // lane 0's field at [31:24]
  CHECK(example[0][2] == 0xA0);  // lane 1: all zero
  CHECK(example[0][1] == 0xF1);  // lane 2: peak 65504

  std::string text = fmt::format("{:x} // entries: {} input words, the packing, {} output words each\n", entries.size(),
                                 mover::kQuantiserInWords, mover::kQuantiserOutWords);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& [in, b_packing] = entries[i];
    text += fmt::format("// entry {} ({} packing)\n", i, b_packing ? "B" : "A");
    for (const auto& w : in) text += hex_word(w) + "\n";
    text += fmt::format("{}\n", b_packing ? 1 : 0);
    for (const auto& w : mover::quantise(c, in, b_packing)) text += hex_word(w) + "\n";
  }
  test::write_text(path, text);
  return entries.size();
}

/// The Yosys script of the brief: no latch cells, then the cell counts.
std::string yosys_script() {
  return fmt::format(
      "read_verilog -sv {0}\nhierarchy -check -top {1}\nproc\ncheck -assert\nsynth -top {1}\n"
      "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*\nstat\n",
      kSources, kTop);
}

}  // namespace

TEST_CASE("mover rtl: quantiser matches the C++ model under gaps, backpressure, clear and full rate", "[hdl]") {
  const fs::path dir = generate_config("sim");
  const std::size_t n = write_vectors(dir / "quant_vectors.hex");
  INFO(dir.string() << ": " << n << " entries");

  const test::ShellRun build =
      run_in(dir,
             fmt::format("iverilog -g2012 -DTPU_ASSERT -o tb_tpu_mover_quant.vvp -s tb_tpu_mover_quant {} "
                         "{}/tests/hdl/tb_tpu_mover_quant.sv",
                         kSources, TPUGEN_SOURCE_DIR),
             "tb_build.log");
  INFO(build.output);
  REQUIRE(build.code == 0);

  for (const int seed : {1, 2}) {
    const test::ShellRun sim =
        run_in(dir, fmt::format("timeout 600 vvp -n tb_tpu_mover_quant.vvp +vectors=quant_vectors.hex +seed={}", seed),
               fmt::format("tb_seed{}.log", seed));
    INFO("seed " << seed << "\n" << sim.output);
    CHECK(sim.code == 0);
    CHECK(sim.output.find("PASS") != std::string::npos);
    CHECK(sim.output.find("FAIL") == std::string::npos);
    CHECK(sim.output.find("THROUGHPUT sustained: 512 words in 512 cycles (0 stalls)") != std::string::npos);
  }
}

TEST_CASE("mover rtl: quantiser passes Verilator -Wall, Yosys synth with no latches and Icarus", "[hdl]") {
  const fs::path dir = generate_config("lint");
  for (const char* define : {"", " +define+TPU_ASSERT"}) {
    const test::ShellRun lint =
        run_in(dir, fmt::format("verilator --lint-only -Wall{} --top-module {} {}", define, kTop, kSources),
               fmt::format("lint{}.log", *define ? "_assert" : ""));
    INFO("verilator" << define << "\n" << lint.output);
    CHECK(lint.code == 0);
    CHECK(lint.output.find("Warning") == std::string::npos);
  }

  test::write_text(dir / "quant.ys", yosys_script());
  const test::ShellRun synth = run_in(dir, "yosys -q -l quant.yosys.log -s quant.ys > /dev/null", "quant.yosys.run");
  const std::string log = test::read_text((dir / "quant.yosys.log").string());
  INFO(synth.output << log.substr(log.size() > 4000 ? log.size() - 4000 : 0));
  CHECK(synth.code == 0);  // select -assert-none: no latch cell
  CHECK(log.find("Warning") == std::string::npos);
  const auto stat = log.rfind("Printing statistics");
  REQUIRE(stat != std::string::npos);
  CHECK(log.find("LATCH", stat) == std::string::npos);
  CHECK(log.find("latch", stat) == std::string::npos);

  const test::ShellRun ivl =
      run_in(dir, fmt::format("iverilog -g2012 -o quant.vvp -s {} {}", kTop, kSources), "quant.iverilog.log");
  INFO(ivl.output);
  CHECK(ivl.code == 0);
  CHECK(ivl.output.find("arning") == std::string::npos);
  CHECK(ivl.output.find("rror") == std::string::npos);
}

TEST_CASE("mover rtl: quantiser refuses, at elaboration, a lane shape it does not lay out", "[hdl]") {
  const fs::path dir = generate_config("shape");
  // 8 lanes of 16: the same 2048 bits in, but no output word holds them.
  const std::string pkg = test::read_text((dir / "tpu_mover_pkg.sv").string());
  std::string edited = pkg;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"QUANT_LANES                   = 4;", "QUANT_LANES                   = 8;"},
           {"QUANT_LANE_ELEMS              = 32;", "QUANT_LANE_ELEMS              = 16;"}}) {
    const auto at = edited.find(from);
    REQUIRE(at != std::string::npos);
    edited.replace(at, from.size(), to);
  }
  test::write_text(dir / "tpu_mover_pkg.sv", edited);

  const std::string refusal = "tpu_mover_quant_shape_unsupported";
  const test::ShellRun lint =
      run_in(dir, fmt::format("verilator --lint-only -Wall --top-module {} {}", kTop, kSources), "lint.log");
  INFO(lint.output);
  CHECK(lint.code != 0);
  CHECK(lint.output.find(refusal) != std::string::npos);

  const test::ShellRun ivl =
      run_in(dir, fmt::format("iverilog -g2012 -o /dev/null -s {} {}", kTop, kSources), "iverilog.log");
  INFO(ivl.output);
  CHECK(ivl.code != 0);
  CHECK(ivl.output.find(refusal) != std::string::npos);

  const test::ShellRun yosys = run_in(
      dir, fmt::format("yosys -q -p 'read_verilog -sv {}; hierarchy -check -top {}'", kSources, kTop), "yosys.log");
  INFO(yosys.output);
  CHECK(yosys.code != 0);
  CHECK(yosys.output.find(refusal) != std::string::npos);
}
