// The AXI4 multiplexer of the system node (rtl/axi/tpu_axi_mux.sv): random
// C++ masters (tests/hdl/axi_mux/axi_random_master.h) through the mux into
// the project's AxiMemory, an AxiChecker on every master port and on the
// memory port, in a Verilator bench (tests/hdl/axi_mux/axi_mux_bench.cpp)
// built with verilator --cc --exe --build into build/rtl_axi_mux/<case>:
// latency 0 and 20, responses in order, reordered and interleaved across IDs,
// stalls on both sides, then full speed (one AR, AW, W and R a cycle); the
// same at three masters on a narrow bus; the bench shown to catch broken
// copies of the mux; and the gates: Verilator -Wall lint (with and without
// TPU_ASSERT), Yosys synthesis with no latch, an Icarus compile.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

using namespace tpugen;

namespace {

constexpr const char* kTop = "tpu_axi_mux";

/// The mux and the primitives it instantiates (the assertion ones under `ifdef TPU_ASSERT).
std::string sources(const std::string& mux = TPUGEN_SOURCE_DIR "/rtl/axi/tpu_axi_mux.sv") {
  std::string s;
  for (const char* p : {"tpu_assert_never", "tpu_stream_check", "tpu_rr_arb", "tpu_out_reg", "tpu_fifo"})
    s += fmt::format("{}/rtl/prim/{}.sv ", TPUGEN_SOURCE_DIR, p);
  return s + mux;
}

struct MuxParams {
  unsigned n = 2;
  unsigned slv_id_w = 1;
  unsigned addr_w = 40;
  unsigned data_bytes = 32;
  unsigned max_w_trans = 8;
};

/// The case's directory under the build tree, emptied (CTest runs each test case in a process of its own).
std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "rtl_axi_mux" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// A shell command run in `dir`, its output kept in `log` there.
test::ShellRun run_in(const std::filesystem::path& dir, const std::string& cmd, const std::string& log) {
  return test::run_shell(fmt::format("cd '{}' && ( {} )", dir.string(), cmd), dir / log);
}

/// The bench built in `dir` against `mux` (the shipped module unless a broken copy is given), with the
/// mux's parameters given to Verilator (-G) and to the bench (MUX_*). Registers start random
/// (--x-initial unique, and randReset(2) in the bench); assertions on (TPU_ASSERT, --assert).
test::ShellRun build_bench(const std::filesystem::path& dir, const MuxParams& p,
                           const std::string& mux = TPUGEN_SOURCE_DIR "/rtl/axi/tpu_axi_mux.sv") {
  const std::string g = fmt::format("-GNumMasters={} -GSlvIdW={} -GAddrW={} -GDataBytes={} -GMaxWTrans={}", p.n,
                                    p.slv_id_w, p.addr_w, p.data_bytes, p.max_w_trans);
  const std::string d =
      fmt::format("-DMUX_N={} -DMUX_SLV_ID_W={} -DMUX_ADDR_W={} -DMUX_DATA_BYTES={} -DMUX_MAX_W_TRANS={}", p.n,
                  p.slv_id_w, p.addr_w, p.data_bytes, p.max_w_trans);
  const std::string cmd = fmt::format(
      "cxx=$(command -v clang++-14 || echo g++); "
      "verilator --cc --exe --build -j 2 --x-assign unique --x-initial unique --assert -DTPU_ASSERT "
      "--top-module {} {} {} {}/tests/hdl/axi_mux/axi_mux_bench.cpp -o axi_mux_bench --Mdir obj_dir "
      "-CFLAGS '-std=c++20 -I{}/tb -I{}/tests/hdl/axi_mux {}' -MAKEFLAGS \"CXX=$cxx LINK=$cxx\"",
      kTop, g, sources(mux), TPUGEN_SOURCE_DIR, TPUGEN_SOURCE_DIR, TPUGEN_SOURCE_DIR, d);
  return run_in(dir, cmd, "build.log");
}

/// The bench's report: each line's leading words (up to the first k=v) name it, its k=v pairs its values.
using Report = std::map<std::string, std::map<std::string, std::string>>;

Report parse(const std::string& out) {
  Report r;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == ' ') continue;
    std::istringstream words(line);
    std::string w, key;
    std::map<std::string, std::string> values;
    while (words >> w) {
      const auto eq = w.find('=');
      if (eq == std::string::npos && values.empty())
        key += (key.empty() ? "" : " ") + w;
      else if (eq != std::string::npos)
        values[w.substr(0, eq)] = w.substr(eq + 1);
    }
    r[key] = values;
  }
  return r;
}

std::uint64_t num(const Report& r, const std::string& line, const std::string& key) {
  const auto l = r.find(line);
  if (l == r.end()) FAIL("no line '" << line << "' in the report");
  const auto v = l->second.find(key);
  if (v == l->second.end()) FAIL("no " << key << "= on the line '" << line << "'");
  return std::stoull(v->second);
}

/// "a,b,c" as numbers.
std::vector<std::uint64_t> nums(const Report& r, const std::string& line, const std::string& key) {
  std::vector<std::uint64_t> out;
  std::istringstream s(r.at(line).at(key));
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(std::stoull(item));
  return out;
}

/// "n/span" as {n, span}.
std::pair<std::uint64_t, std::uint64_t> rate(const Report& r, const std::string& key) {
  const std::string v = r.at("THROUGHPUT").at(key);
  const auto slash = v.find('/');
  return {std::stoull(v.substr(0, slash)), std::stoull(v.substr(slash + 1))};
}

/// What every passing run shows: PASS, every burst through and checked, no error on any port, both
/// masters' requests taken in turns (round robin: a waiting master passed over fewer than N times).
void check_run(const test::ShellRun& run, const MuxParams& p, unsigned bursts) {
  INFO(run.output);
  REQUIRE(run.code == 0);
  CHECK(run.output.find("\nPASS cycles=") != std::string::npos);
  CHECK(run.output.find("FAIL") == std::string::npos);
  CHECK(run.output.find("%Error") == std::string::npos);  // an RTL assertion
  const Report r = parse(run.output);
  for (unsigned i = 0; i < p.n; ++i) {
    const std::string m = fmt::format("MASTER {}", i);
    CHECK(num(r, m, "reads") == bursts);
    CHECK(num(r, m, "writes") == bursts);
    CHECK(num(r, m, "bytes_checked") > 0);
    CHECK(num(r, m, "mismatches") == 0);
    CHECK(num(r, m, "errors") == 0);
    const std::string c = fmt::format("CHECKER s_axi{}", i);
    CHECK(num(r, c, "errors") == 0);
    CHECK(num(r, c, "ar") == bursts);
    CHECK(num(r, c, "aw") == bursts);
    CHECK(num(r, c, "b") == bursts);
    CHECK(num(r, fmt::format("REGION {}", i), "mismatches") == 0);
  }
  CHECK(num(r, "CHECKER m_axi", "errors") == 0);
  CHECK(num(r, "CHECKER m_axi", "ar") == bursts * p.n);
  CHECK(num(r, "CHECKER m_axi", "aw") == bursts * p.n);
  CHECK(num(r, "MEMORY", "access_errors") == 0);
  for (const char* ch : {"ARB ar", "ARB aw"}) {
    INFO(ch);
    for (const auto g : nums(r, ch, "grants")) CHECK(g == bursts);
    CHECK(num(r, ch, "contended") > 0);
    CHECK(num(r, ch, "switches") > 0);
    CHECK(num(r, ch, "max_passed") <= p.n - 1);
    CHECK(num(r, ch, "double_grants") == 0);
  }
  CHECK(num(r, "WFIFO", "max") <= p.max_w_trans);
}

/// The stalled runs (latency 0 and 20; in order, reordered, reordered and interleaved), then full speed.
void run_matrix(const std::filesystem::path& dir, const MuxParams& p, unsigned bursts) {
  for (const unsigned latency : {0u, 20u}) {
    for (const auto& [reorder, interleave] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{1, 1}}) {
      const std::string tag = fmt::format("lat{}_ro{}_il{}", latency, reorder, interleave);
      INFO(tag << " in " << dir.string());
      const test::ShellRun run =
          run_in(dir,
                 fmt::format("timeout 60 ./obj_dir/axi_mux_bench --seed {} --latency {} --reorder {} --interleave {} "
                             "--stall 0.3 --mstall 0.2 --gap 0.2 --reads {} --writes {} --max-cycles 400000",
                             latency + 2 * reorder + interleave + 1, latency, reorder, interleave, bursts, bursts),
                 tag + ".log");
      check_run(run, p, bursts);
      const Report r = parse(run.output);
      INFO(run.output);
      // The memory did as asked (so the mux met reordered and interleaved responses).
      CHECK((num(r, "MEMORY", "read_reorders") > 0) == (reorder != 0));
      CHECK((num(r, "MEMORY", "interleaves") > 0) == (interleave != 0));
      // AW bursts outran their W beats until the W FIFO was full, and no further.
      CHECK(num(r, "WFIFO", "max") == p.max_w_trans);
    }
  }
  // Full speed: the memory always ready, the masters never pausing, one-beat bursts: every channel of
  // the memory port moves one handshake a cycle from its first to its last.
  const unsigned fast = 1000;
  const test::ShellRun run =
      run_in(dir, fmt::format("timeout 60 ./obj_dir/axi_mux_bench --full-speed --reads {0} --writes {0}", fast),
             "full_speed.log");
  check_run(run, p, fast);
  const Report r = parse(run.output);
  INFO(run.output);
  for (const char* ch : {"ar", "aw", "w", "r"}) {
    INFO(ch);
    const auto [n, span] = rate(r, ch);
    CHECK(n == std::uint64_t{fast} * p.n);
    CHECK(span == n);
  }
}

}  // namespace

TEST_CASE(
    "axi mux rtl: two masters into AxiMemory with a checker on every port at latency 0 and 20, "
    "reordered and interleaved or not, then at full speed",
    "[hdl][axi]") {
  const MuxParams p{2, 2, 40, 32, 8};
  const std::filesystem::path dir = fresh_dir("two_masters");
  const test::ShellRun build = build_bench(dir, p);
  INFO(build.output);
  REQUIRE(build.code == 0);
  run_matrix(dir, p, 400);
}

TEST_CASE("axi mux rtl: three masters on a 64-bit bus with a two-deep W FIFO", "[hdl][axi]") {
  const MuxParams p{3, 1, 36, 8, 2};
  const std::filesystem::path dir = fresh_dir("three_masters");
  const test::ShellRun build = build_bench(dir, p);
  INFO(build.output);
  REQUIRE(build.code == 0);
  run_matrix(dir, p, 200);
}

TEST_CASE("axi mux rtl: the bench fails a broken copy of the mux", "[hdl][axi]") {
  const std::string mux = test::read_text(TPUGEN_SOURCE_DIR "/rtl/axi/tpu_axi_mux.sv");
  struct Defect {
    const char* name;
    const char* from;
    const char* to;
    const char* shows;  // in the bench's output
  };
  const Defect defects[] = {
      {"w_misrouted", ".data_i (aw_arb_idx),", ".data_i (~aw_arb_idx),", "differs from its master's writes"},
      {"w_fifo_full_ignored", "assign aw_arb_ready = (!m_aw_valid_o || m_aw_ready_i) && wq_ready;",
       "assign aw_arb_ready = (!m_aw_valid_o || m_aw_ready_i);", "u_w_order_overflow"},
      {"r_id_not_stripped", "assign s_r_id_o[i*SlvIdW +: SlvIdW] = m_r_id_i[SlvIdW-1:0];",
       "assign s_r_id_o[i*SlvIdW +: SlvIdW] = m_r_id_i[MstIdW-1 -: SlvIdW];", "saw wrong responses"},
      // Master 1 asks only while master 0 does not: master 0 alone wins a contended AR.
      {"ar_fixed_priority", ".valid_i(s_ar_valid_i),", ".valid_i(s_ar_valid_i & ~(NumMasters'(s_ar_valid_i[0]) << 1)),",
       "passed over too often"},
  };
  for (const Defect& d : defects) {
    INFO(d.name);
    const auto at = mux.find(d.from);
    REQUIRE(at != std::string::npos);
    REQUIRE(mux.find(d.from, at + 1) == std::string::npos);  // the defect matches once
    std::string broken = mux;
    broken.replace(at, std::string(d.from).size(), d.to);
    const std::filesystem::path dir = fresh_dir(std::string("defect_") + d.name);
    test::write_text(dir / "tpu_axi_mux.sv", broken);
    const MuxParams p{2, 2, 40, 32, 8};
    const test::ShellRun build = build_bench(dir, p, (dir / "tpu_axi_mux.sv").string());
    INFO(build.output);
    REQUIRE(build.code == 0);
    const test::ShellRun run = run_in(
        dir,
        "timeout 60 ./obj_dir/axi_mux_bench --reorder 1 --interleave 1 --reads 200 --writes 200 --max-cycles 200000",
        "bench.log");
    INFO(run.output);
    CHECK(run.code != 0);
    CHECK(run.output.find("\nPASS") == std::string::npos);
    CHECK(run.output.find(d.shows) != std::string::npos);
  }
}

TEST_CASE("axi mux rtl: Verilator -Wall and Icarus clean, Yosys synthesis with no latch", "[hdl][axi]") {
  const std::filesystem::path dir = fresh_dir("gates");
  INFO(dir.string());
  const std::string files = sources();

  // Lint at the system node's shape and at others: more masters (not a power of two), wider IDs, a
  // narrow bus, a one-deep W FIFO.
  const std::vector<std::pair<std::string, std::string>> shapes = {
      {"node", ""},
      {"three", " -GNumMasters=3 -GSlvIdW=4"},
      {"four_narrow", " -GNumMasters=4 -GSlvIdW=2 -GAddrW=32 -GDataBytes=4 -GMaxWTrans=1"},
  };
  for (const auto& [name, g] : shapes) {
    for (const char* define : {"", " +define+TPU_ASSERT"}) {
      INFO(name << define);
      const test::ShellRun lint =
          run_in(dir, fmt::format("verilator --lint-only -Wall{}{} --top-module {} {}", define, g, kTop, files),
                 fmt::format("lint_{}{}.log", name, std::string(define).empty() ? "" : "_assert"));
      INFO(lint.output);
      CHECK(lint.code == 0);
      CHECK(lint.output.find("Warning") == std::string::npos);
    }
  }
  // One master is refused at elaboration.
  const test::ShellRun one =
      run_in(dir, fmt::format("verilator --lint-only -Wall -GNumMasters=1 --top-module {} {}", kTop, files),
             "lint_one_master.log");
  CHECK(one.code != 0);
  CHECK(one.output.find("tpu_axi_mux_params_unsupported") != std::string::npos);

  // Yosys at the system node's shape (two masters, 1-bit IDs, 40-bit addresses, a 32-byte bus), and at
  // three masters.
  for (const auto& [name, chparam] :
       {std::pair<std::string, std::string>{"node",
                                            "-chparam NumMasters 2 -chparam SlvIdW 1 -chparam AddrW 40 "
                                            "-chparam DataBytes 32 -chparam MaxWTrans 8"},
        std::pair<std::string, std::string>{"three", "-chparam NumMasters 3 -chparam SlvIdW 2"}}) {
    INFO(name);
    const std::string script = fmt::format(
        "read_verilog -sv {0}\nhierarchy -check -top {1} {2}\nproc\ncheck -assert\nsynth -top {1}\n"
        "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*\nstat\n",
        files, kTop, chparam);
    test::write_text(dir / fmt::format("yosys_{}.ys", name), script);
    const test::ShellRun synth = run_in(dir, fmt::format("yosys -q -s yosys_{0}.ys -l yosys_{0}.stat.log", name),
                                        fmt::format("yosys_{}.log", name));
    INFO(synth.output);
    CHECK(synth.code == 0);
    CHECK(synth.output.find("Warning") == std::string::npos);
    // The cells of the whole design: the statistics of the hierarchy, the last of the log.
    const std::string log = test::read_text((dir / fmt::format("yosys_{}.stat.log", name)).string());
    const std::size_t at = log.rfind("=== design hierarchy ===");
    REQUIRE(at != std::string::npos);
    const std::string stat = log.substr(at, log.find("End of script", at) - at);
    WARN("tpu_axi_mux (" << name << ")\n" << stat);
    CHECK(stat.find("LATCH") == std::string::npos);
    CHECK(stat.find("$_DFFE_") != std::string::npos);  // the AR and AW registers survived
  }

  for (const auto& [name, ps] : {std::pair<std::string, std::string>{"node", ""},
                                 std::pair<std::string, std::string>{"three", " -Ptpu_axi_mux.NumMasters=3"}}) {
    INFO(name);
    const test::ShellRun ivl = run_in(dir, fmt::format("iverilog -g2012 -o /dev/null -s {}{} {}", kTop, ps, files),
                                      fmt::format("iverilog_{}.log", name));
    INFO(ivl.output);
    CHECK(ivl.code == 0);
    CHECK(ivl.output.find("arning") == std::string::npos);
  }
}
