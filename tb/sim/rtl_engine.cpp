// The RTL engine: the harness configuration, the cached Verilator build and
// the simulator runs. ensure_simulator (which calls the generator) lives in
// ensure_simulator.cpp, so code that only builds or runs a simulator does
// not pull in every emitter.
#include "sim/rtl_engine.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "hdl/emitters.h"
#include "isa/check.h"
#include "isa/image.h"
#include "spec/hash.h"
#include "util/file_io.h"
#include "util/process.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) { return read_file(p, "rtl.io"); }
void write_text(const fs::path& p, const std::string& text) { write_file(p, text, "rtl.io"); }

template <typename Byte>
void write_bytes(const fs::path& p, const std::vector<Byte>& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw Error("rtl.io", fmt::format("cannot write '{}'", p.string()), SourceLoc{p.string()});
}

fs::path make_temp_dir(const fs::path& parent, const std::string& stem) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw Error("rtl.io", fmt::format("cannot create '{}': {}", parent.string(), ec.message()));
  std::string templ = (parent / (stem + "XXXXXX")).string();
  if (!::mkdtemp(templ.data()))
    throw Error("rtl.io", fmt::format("cannot create a temporary directory in '{}'", parent.string()));
  return templ;
}

std::string tail_lines(const std::string& text, std::size_t n) {
  std::size_t pos = text.size();
  for (std::size_t i = 0; i <= n; ++i) {
    if (pos == 0) return text;  // fewer lines than asked (or none at all)
    const auto nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    pos = nl;
  }
  return text.substr(pos + 1);
}

/// "file <path> <sha256>" for every regular file below a directory, by path.
std::string contents_digest(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) names.push_back(fs::relative(e.path(), dir).generic_string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += fmt::format("file {} {}\n", n, sha256_hex(read_text(dir / n)));
  return out;
}

/// An exclusive advisory lock on a file, held for the object's life: builders
/// of one key take turns, so the second finds the first's build instead of
/// repeating it. (Correctness does not depend on it: builds are renamed into
/// place.)
class KeyLock {
 public:
  KeyLock(const fs::path& path, const BuildProgress& progress) : fd_(::open(path.c_str(), O_RDWR | O_CREAT, 0644)) {
    if (fd_ < 0) return;
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    if (progress) progress("waiting for another build of the same configuration");
    ::flock(fd_, LOCK_EX);
  }
  ~KeyLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  KeyLock(const KeyLock&) = delete;
  KeyLock& operator=(const KeyLock&) = delete;

 private:
  int fd_;
};

/// Move a finished build into place. Another process may have finished the
/// same key first: then its build is used and ours dropped.
void publish(const fs::path& tmp, const fs::path& final_dir) {
  std::error_code ec;
  fs::rename(tmp, final_dir, ec);
  if (!ec) return;
  if (fs::exists(final_dir / "stamp")) {
    fs::remove_all(tmp, ec);
    return;
  }
  // A stale directory without a stamp (an interrupted manual copy): set it
  // aside and retry once.
  const fs::path stale = final_dir.string() + fmt::format(".stale-{}", ::getpid());
  fs::rename(final_dir, stale, ec);
  fs::remove_all(stale, ec);
  fs::rename(tmp, final_dir, ec);
  if (ec && !fs::exists(final_dir / "stamp"))
    throw Error("rtl.io", fmt::format("cannot move the build into '{}': {}", final_dir.string(), ec.message()));
  fs::remove_all(tmp, ec);
}

std::string params_text(const hdl::RtlContext& ctx) {
  std::string s;
  for (const auto& [name, v] : ctx.isa().params().build_parameters())
    s += fmt::format("{}{}={}", s.empty() ? "" : " ", name, v);
  return s;
}

/// The AXI top's facts for its harness: the bus, the streams' IDs, the
/// control registers' fields by name, and accessors of the ports whose
/// names carry the bundles' names (m_axi_<bundle>_*, s_axi_<bundle>_*).
std::string axi_sim_config(const hdl::RtlContext& ctx) {
  const AxiTopSpec& a = ctx.axi();
  std::string o = fmt::format(
      "// The AXI top (from {}, sha256 {}).\ninline constexpr unsigned kAxiDataBytes = {};\n"
      "inline constexpr unsigned kAxiAddrBits = {};\ninline constexpr unsigned kAxiIdBits = {};\n"
      "inline constexpr unsigned kAxiMaxBurst = {};\n",
      fs::path(a.path).filename().string(), a.sha256, ctx.axi_data_bytes(), a.master.addr_bits, a.master.id_bits,
      a.master.max_burst_beats);
  o += "/// A control register field: its register's byte offset, its bits.\n"
       "struct Field {\n  unsigned offset;\n  unsigned lsb;\n  unsigned width;\n};\nnamespace reg {\n";
  for (const auto& r : a.control.registers)
    for (const auto& f : r.fields)
      o += fmt::format("inline constexpr Field {} = {{{:#x}, {}, {}}};  // {}.{}\n", f.name, r.offset, f.lsb, f.width,
                       r.name, access_name(f.access));
  o += "}  // namespace reg\n\n/// The AXI ports by channel signal.\nstruct MasterPins {\n";
  const std::string mp = "m_axi_" + a.master.bundle + "_", sp = "s_axi_" + a.control.bundle + "_";
  for (const char* sig : {"AWVALID", "AWREADY", "AWADDR",  "AWID",   "AWLEN", "AWSIZE", "AWBURST", "AWLOCK",  "AWCACHE",
                          "AWPROT",  "WVALID",  "WREADY",  "WDATA",  "WSTRB", "WLAST",  "BVALID",  "BREADY",  "BRESP",
                          "BID",     "ARVALID", "ARREADY", "ARADDR", "ARID",  "ARLEN",  "ARSIZE",  "ARBURST", "ARLOCK",
                          "ARCACHE", "ARPROT",  "RVALID",  "RREADY", "RDATA", "RRESP",  "RLAST",   "RID"})
    o += fmt::format("  static auto& {0}(Dut& d) {{ return d.{1}{0}; }}\n", sig, mp);
  // Verilator escapes a port named after a C++ word: `interrupt` is __SYM__interrupt.
  o += "  static auto& interrupt(Dut& d) { return d.__SYM__interrupt; }\n";
  o += "};\nstruct ControlPins {\n";
  for (const char* sig : {"AWVALID", "AWREADY", "AWADDR", "WVALID", "WREADY", "WDATA", "WSTRB", "BVALID", "BREADY",
                          "BRESP", "ARVALID", "ARREADY", "ARADDR", "RVALID", "RREADY", "RDATA", "RRESP"})
    o += fmt::format("  static auto& {0}(Dut& d) {{ return d.{1}{0}; }}\n", sig, sp);
  o += "};\n\n";
  return o;
}

/// The harness that drives each kind of top (tb/sim/core, tb/sim/axi): the
/// header sim_main.cpp includes, the class template it runs, the files it
/// needs besides the common ones, and the facts it needs in sim_config.h
/// beyond every top's. A new kind of top is a new row.
struct HarnessEntry {
  hdl::TopKind top;
  std::string_view header;
  std::string_view harness;
  std::vector<std::string_view> files;
  std::string (*config)(const hdl::RtlContext&);
  std::string_view core;  ///< the core's instance below the Verilated model's TOP
};

const std::vector<HarnessEntry>& harnesses() {
  static const std::vector<HarnessEntry> table = {
      {hdl::TopKind::Core, "sim/core/core_harness.h", "CoreHarness", {"sim/core/core_harness.h"}, nullptr, "tpu_top"},
      {hdl::TopKind::Axi,
       "sim/axi/axi_harness.h",
       "AxiHarness",
       {"sim/axi/axi_harness.h", "sim/axi/axi_types.h", "sim/axi/axi_memory.h", "sim/axi/axi_checker.h",
        "sim/axi/axi_lite.h"},
       axi_sim_config,
       "tpu_axi_top.u_core"},
  };
  return table;
}

const HarnessEntry& harness_of(hdl::TopKind top) {
  for (const auto& h : harnesses())
    if (h.top == top) return h;
  throw Error("rtl.sim_config", fmt::format("no harness drives the top {}", hdl::top_module(top)));
}

}  // namespace

std::vector<std::string> fault_names(const hdl::RtlContext& ctx) {
  std::vector<std::string> faults;
  for (const FaultCode& f : ctx.spec().faults) faults.push_back(f.name);
  return faults;
}

std::string sim_config_header(const hdl::RtlContext& ctx) {
  const Spec& spec = ctx.spec();
  const HarnessEntry& harness = harness_of(ctx.options().top);
  const std::int64_t vw = ctx.param("VW"), maxdim = ctx.param("MAXDIM"), dma_words = ctx.param("DMA_WORDS");
  std::string o = fmt::format(
      "// sim_config.h: the configuration facts the Verilator harness (sim_main.cpp)\n"
      "// needs, derived by tpugen {} from {} (sha256 {}).\n"
      "// Parameters: {}. Do not edit.\n"
      "#pragma once\n\n#include \"V{}.h\"\n\n"
      "// The harness sim_main.cpp runs on this top: its header and its class template.\n"
      "#define TPUSIM_HARNESS_HEADER \"{}\"\n#define TPUSIM_HARNESS {}\n\nnamespace sim_config {{\n\n",
      TPUGEN_VERSION, fs::path(spec.path).filename().string(), spec.sha256, params_text(ctx),
      hdl::top_module(ctx.options().top), harness.header, harness.harness);
  o += fmt::format(
      "/// The top this simulator drives.\nusing Dut = V{0};\ninline constexpr const char* kTopModule = \"{0}\";\n\n",
      hdl::top_module(ctx.options().top));
  if (harness.config) o += harness.config(ctx);
  o += "/// A progress counter of progress_o and the header slice holding its count.\n"
       "struct Counter {\n  const char* name;\n  const char* unit;\n  unsigned hdr_word;\n  unsigned hdr_lsb;\n"
       "  unsigned hdr_width;\n};\n\n";
  o += fmt::format("inline constexpr unsigned kMaxdim = {};\n", maxdim);
  o += fmt::format("inline constexpr unsigned kMatrixBytes = {};  // MAXDIM * MAXDIM\n", maxdim * maxdim);
  o += fmt::format("inline constexpr unsigned kWriteBeatBytes = {};  // CBeat * VW / 8: one C write beat\n",
                   ctx.options().c_beat_words * vw / 8);
  o += fmt::format("inline constexpr unsigned kReadBeatBytes = {};  // DMA_WORDS * VW / 8\n", dma_words * vw / 8);
  o += fmt::format("inline constexpr unsigned kImemBeat = {};  // 64-bit words per imem beat\n",
                   ctx.options().imem_beat_words);
  o += fmt::format("inline constexpr unsigned kImemSize = {};\n", ctx.param("IMEM_SIZE"));
  o += fmt::format("inline constexpr unsigned kCountW = {};  // progress_o bits per counter\n", ctx.count_width());

  o += "\n// tpu_pkg::PROGRESS_* order: the header entries that count a unit's work.\n"
       "inline constexpr Counter kCounters[] = {\n";
  for (const auto& h : spec.header) {
    if (h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) continue;
    const std::string unit = h.count.kind == HeaderCount::PortItems ? h.count.unit + "." + h.count.port : h.count.unit;
    o += fmt::format("    {{\"{}\", \"{}\", {}, {}, {}}},\n", h.name, unit, h.word, h.lsb, h.width);
  }
  o += "};\n\n";
  // The on-chip memories the model tracks: each is a tpu_ram_1r1w named
  // u_<memory> inside its owner unit u_<owner> (docs/microarch.md).
  o += "/// An on-chip memory and the hierarchical name of its storage.\n"
       "struct Memory {\n  const char* name;\n  const char* path;\n  unsigned depth;\n  unsigned row_bits;\n};\n"
       "inline constexpr Memory kMemories[] = {\n";
  for (const auto& m : spec.memories) {
    if (m.dram || !m.host.empty()) continue;
    o += fmt::format("    {{\"{}\", \"TOP.{}.u_{}.u_{}.mem_q\", {}, {}}},\n", m.name, harness.core, m.owner, m.name,
                     m.depth.eval(ctx.isa().params().scope()), m.row_bits.eval(ctx.isa().params().scope()));
  }
  o += "};\n\n// fault_unit_o: tpu_pkg::UNIT_*.\ninline constexpr const char* kUnitNames[] = {";
  for (std::size_t u = 0; u < spec.units.size(); ++u) o += fmt::format("{}\"{}\"", u ? ", " : "", spec.units[u].name);
  o += "};\n\n// fault_o: tpu_pkg::FAULT_*, the spec's fault codes.\n"
       "inline constexpr const char* kFaultNames[] = {";
  const std::vector<std::string> faults = fault_names(ctx);
  for (std::size_t f = 0; f < faults.size(); ++f) o += fmt::format("{}\"{}\"", f ? ", " : "", faults[f]);
  o += "};\n\n";
  o += fmt::format("inline constexpr const char* kParams = \"{} {}\";\n", params_text(ctx),
                   hdl::rtl_parameter_options_text(ctx.options()));
  o += "\n}  // namespace sim_config\n";
  return o;
}

std::vector<fs::path> harness_sources() {
  std::vector<fs::path> files = {"sim/harness/sim_main.cpp",    "sim/harness/sim_common.h",    "sim/harness/sim_top.h",
                                 "sim/harness/verilated_top.h", "sim/harness/memory_models.h", "sim/harness/ports.h",
                                 "sim/harness/numbers.h"};
  for (const auto& h : harnesses()) files.insert(files.end(), h.files.begin(), h.files.end());
  return files;
}

std::vector<std::string> verilator_model_args(bool assertions) {
  // Every register and memory starts random (+verilator+rand+reset+2 at run
  // time, or VerilatedContext::randReset(2)), never silently zero. The RTL's
  // assertions (rtl/: under `ifdef TPU_ASSERT) are compiled in and checked:
  // a failing one stops the simulation with its message. The same flags as
  // verilator_args below (a unit test holds the two together).
  if (!assertions) return {"--x-assign", "unique", "--x-initial", "unique", "-O2"};
  return {"--x-assign", "unique", "--x-initial", "unique", "--assert", "-DTPU_ASSERT", "-O2"};
}

std::string sim_compiler() { return TPUGEN_SIM_CXX; }

std::vector<std::string> sim_compiler_args() {
  const std::string cxx = sim_compiler();
  // The harnesses are C++20, as the project is; clang++ 14 defaults to C++14.
  std::vector<std::string> args = {"-CFLAGS", "-std=c++20"};
  if (cxx.empty()) return args;
  args.insert(args.end(), {"-MAKEFLAGS", "CXX=" + cxx, "-MAKEFLAGS", "LINK=" + cxx});
  return args;
}

Harness core_harness() {
  Harness h{"sim/harness/sim_main.cpp", {}};
  for (const auto& src : harness_sources()) h.files.push_back({fs::path(TPUGEN_TB_DIR) / src, src});
  return h;
}

std::vector<std::string> verilator_args(const fs::path& dir, const std::vector<std::string>& extra,
                                        const std::string& top, const Harness& harness, bool assertions) {
  std::vector<std::string> args = {"--cc", "--exe", "--build", "-j", "2"};
  for (const auto& a : verilator_model_args(assertions)) args.push_back(a);
  for (const auto& a : harness.flags) args.push_back(a);
  args.emplace_back("--top-module");
  args.push_back(top);
  for (const auto& a : {"-f", "files.f"}) args.emplace_back(a);
  args.push_back(harness.main.string());
  for (const auto& a : {"-o", "tpu_sim", "--Mdir", "obj_dir", "-CFLAGS"}) args.emplace_back(a);
  args.push_back("-I" + dir.string());
  for (const auto& a : sim_compiler_args()) args.push_back(a);
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

fs::path cached_sim_build(const fs::path& build_root, const SimBuildSpec& spec, const BuildProgress& progress) {
  const fs::path root = build_root / "rtl";
  const fs::path tmp = make_temp_dir(root, ".tmp-");
  try {
    spec.populate(tmp);
    for (const auto& src : spec.harness.files) {
      fs::create_directories((tmp / src.to).parent_path());
      if (!fs::exists(tmp / src.to)) fs::copy_file(src.from, tmp / src.to);
    }

    // The key: the caller's identity text, the Verilator version and command
    // line, and every file the build compiles.
    std::string args_text;
    for (const auto& a : verilator_args("<dir>", spec.extra_flags, spec.top, spec.harness, spec.assertions))
      args_text += " " + a;
    const std::string compiler =
        sim_compiler().empty() ? std::string("verilator's own\n") : process_output({sim_compiler(), "--version"});
    const std::string key_text = spec.key_text + "verilator " + process_output({"verilator", "--version"}) + "c++ " +
                                 compiler + "args" + args_text + "\n" + contents_digest(tmp);
    const std::string key = sha256_hex(key_text).substr(0, 20);
    const fs::path final_dir = root / key;
    if (fs::exists(final_dir / "stamp")) {
      fs::remove_all(tmp);
      return final_dir / "tpu_sim";
    }
    const KeyLock lock(root / (".lock-" + key), progress);
    if (fs::exists(final_dir / "stamp")) {  // built while we waited
      fs::remove_all(tmp);
      return final_dir / "tpu_sim";
    }
    write_text(tmp / "key.txt", key_text);

    if (progress)
      progress(
          fmt::format("building the RTL simulator for {} (once; cached in {})", spec.description, final_dir.string()));
    const auto t0 = std::chrono::steady_clock::now();
    ProcessSpec verilate;
    verilate.argv = {"verilator"};
    for (const auto& a : verilator_args(tmp, spec.extra_flags, spec.top, spec.harness, spec.assertions))
      verilate.argv.push_back(a);
    verilate.cwd = tmp;
    verilate.log = tmp / "verilate.log";
    verilate.rule = "rtl.verilator";
    if (const ProcessResult rc = run_process(verilate); !rc.ok())
      throw Error("rtl.verilator", fmt::format("verilator failed (exit {}) building {}; the log is {}:\n{}",
                                               rc.status(), spec.description, (tmp / "verilate.log").string(),
                                               tail_lines(read_text(tmp / "verilate.log"), 30)));
    fs::rename(tmp / "obj_dir" / "tpu_sim", tmp / "tpu_sim");
    fs::remove_all(tmp / "obj_dir");
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_text(tmp / "stamp", fmt::format("built in {:.1f} s\n", secs));
    // mkdtemp made the directory private; the cache entry is for everyone.
    fs::permissions(tmp, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                             fs::perms::others_exec);
    publish(tmp, final_dir);
    if (progress) progress(fmt::format("built in {:.0f} s", secs));
    return final_dir / "tpu_sim";
  } catch (const Error& e) {
    // Keep a failed verilation for inspection; drop anything else.
    std::error_code ec;
    if (e.rule() != "rtl.verilator") fs::remove_all(tmp, ec);
    throw;
  } catch (...) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
    throw;
  }
}

RunDir::RunDir(const std::string& work_dir, const std::string& stem) : keep_(!work_dir.empty()) {
  if (keep_) {
    dir_ = work_dir;
    fs::create_directories(dir_);
  } else {
    dir_ = make_temp_dir(fs::temp_directory_path(), stem);
  }
}

RunDir::~RunDir() {
  std::error_code ec;
  if (!keep_) fs::remove_all(dir_, ec);
}

fs::path default_build_root() {
  if (const char* env = std::getenv("TPUGEN_RTL_CACHE"); env && *env) return env;
  return TPUGEN_DEFAULT_BUILD_ROOT;
}

namespace {

void read_report(const nlohmann::json& j, RtlRunResult& r) {
  r.status = j.at("status").get<std::string>();
  r.cycles = j.at("cycles").get<std::uint64_t>();
  r.dut_cycles = j.at("dut_cycles").get<std::uint64_t>();
  r.runs_done = j.at("runs_done").get<unsigned>();
  r.run_cycles = j.at("run_cycles").get<std::vector<std::uint64_t>>();
  const auto& f = j.at("fault");
  r.fault = RtlFault{f.at("code").get<int>(), f.at("name").get<std::string>(), f.at("pc").get<int>(),
                     f.at("unit").get<int>(), f.at("unit_name").get<std::string>()};
  for (const auto& p : j.at("progress"))
    r.progress.push_back(RtlCounter{p.at("name").get<std::string>(), p.at("unit").get<std::string>(),
                                    p.at("done").get<std::int64_t>(), p.at("count").get<std::int64_t>()});
  for (const auto& e : j.at("protocol_errors"))
    r.protocol_errors.push_back(fmt::format("cycle {}, {}: {}", e.at("cycle").get<std::uint64_t>(),
                                            e.at("port").get<std::string>(), e.at("message").get<std::string>()));
  r.sim_seconds = j.at("seconds").get<double>();
  r.cycles_per_second = j.at("cycles_per_second").get<double>();
}
}  // namespace

RtlRunResult run_rtl(const fs::path& sim, std::span<const std::uint64_t> image, const std::vector<std::int8_t>& a,
                     const std::vector<std::int8_t>& b, const std::vector<std::int8_t>& c, std::int64_t maxdim,
                     const RtlRunOptions& options) {
  const RunDir run_dir(options.work_dir, "tpugen-rtl-");
  const fs::path& dir = run_dir.path();

  write_image_hex((dir / "image.hex").string(), image);
  write_bytes(dir / "a.bin", a);
  write_bytes(dir / "b.bin", b);
  write_bytes(dir / "c.bin", c);
  const std::vector<std::pair<std::string, std::string>> flags = {
      {"--image", (dir / "image.hex").string()},
      {"--a", (dir / "a.bin").string()},
      {"--b", (dir / "b.bin").string()},
      {"--c", (dir / "c.bin").string()},
      {"--c-out", (dir / "c_out.bin").string()},
      {"--json", (dir / "report.json").string()},
      {"--state", (dir / "state.txt").string()},
      {"--maxdim", fmt::format("{}", maxdim)},
      {"--latency", fmt::format("{}", options.latency)},
      {"--backpressure", fmt::format("{}", options.backpressure)},
      {"--seed", fmt::format("{}", options.seed)},
      {"--max-cycles", fmt::format("{}", options.max_cycles)},
      {"--runs", fmt::format("{}", options.runs)},
      {"--trace", options.trace.empty() ? "" : fs::absolute(options.trace).string()},
      {"--coverage", options.coverage.empty() ? "" : fs::absolute(options.coverage).string()}};
  ProcessSpec run;
  run.argv = {sim.string()};
  for (const auto& [flag, value] : flags) {
    if (value.empty()) continue;  // --trace and --coverage only when asked for
    run.argv.push_back(flag);
    run.argv.push_back(value);
  }
  run.log = dir / "sim.log";
  run.capture = true;
  run.rule = "rtl.run";

  RtlRunResult r;
  const ProcessResult ran = run_process(run);
  r.exit_code = ran.status();
  r.output = ran.output;
  if (ran.interrupted()) throw Error("rtl.interrupted", fmt::format("{} was interrupted (SIGINT)", sim.string()));
  if (!fs::exists(dir / "report.json"))
    throw Error("rtl.run", fmt::format("{} exited with status {} and wrote no report:\n{}", sim.string(), r.exit_code,
                                       tail_lines(r.output, 30)));
  try {
    read_report(nlohmann::json::parse(read_text(dir / "report.json")), r);
  } catch (const nlohmann::json::exception& e) {
    throw Error("rtl.run", fmt::format("{} wrote a malformed report: {}", sim.string(), e.what()));
  }
  if (fs::exists(dir / "c_out.bin")) {
    const std::string bytes = read_text(dir / "c_out.bin");
    r.c_full.assign(bytes.begin(), bytes.end());
  }
  if (fs::exists(dir / "state.txt")) {
    std::istringstream in(read_text(dir / "state.txt"));
    std::string name, hex;
    std::size_t row = 0;
    while (in >> name >> row >> hex) {
      auto& rows = r.state[name];
      if (rows.size() <= row) rows.resize(row + 1);
      rows[row] = hex;
    }
  }
  return r;
}

std::string compare_state(const Isa& isa, const Model& model, const RtlRunResult& rtl, bool allow_none) {
  const Spec& spec = isa.spec();
  std::size_t compared = 0;
  for (const auto& m : spec.memories) {
    if (m.dram || !m.host.empty()) continue;
    auto it = rtl.state.find(m.name);
    if (it == rtl.state.end()) return fmt::format("the RTL run reported no state for {}", m.name);
    const std::int64_t depth = model.depth(m.name);
    const int row_bits = static_cast<int>(m.row_bits.eval(isa.params().scope()));
    for (std::int64_t r = 0; r < depth; ++r) {
      if (!model.written(m.name, r)) continue;  // unwritten rows hold whatever reset left
      const auto lanes = model.row(m.name, r);
      const int lane_bits = row_bits / static_cast<int>(lanes.size());
      // The row as hex, most significant lane first, as VPI prints it.
      std::string want;
      for (auto lane = lanes.rbegin(); lane != lanes.rend(); ++lane) {
        const std::uint64_t mask = lane_bits >= 64 ? ~0ull : ((1ull << lane_bits) - 1);
        want += fmt::format("{:0{}x}", static_cast<std::uint64_t>(*lane) & mask, lane_bits / 4);
      }
      const std::string& have =
          static_cast<std::size_t>(r) < it->second.size() ? it->second[static_cast<std::size_t>(r)] : "";
      if (have != want)
        return fmt::format("{}[{}]: rtl {}, model {}", m.name, r, have.empty() ? "missing" : have, want);
      ++compared;
    }
  }
  return compared == 0 && !allow_none ? "no written on-chip row to compare" : "";
}

RtlRunResult run_gemm_rtl(const fs::path& sim, const Isa& isa, const GemmJob& job, const RtlRunOptions& options,
                          std::vector<std::uint64_t>* image) {
  const std::int64_t maxdim = isa.param("MAXDIM");
  const GemmShape& s = job.shape;
  if (job.a.rows != s.m || job.a.cols != s.k || job.b.rows != s.k || job.b.cols != s.n)
    throw Error("run.shape", fmt::format("A is {}x{} and B {}x{}; a {}x{}x{} GEMM needs {}x{} and {}x{}", job.a.rows,
                                         job.a.cols, job.b.rows, job.b.cols, s.m, s.k, s.n, s.m, s.k, s.k, s.n));
  if (job.c_init.rows != maxdim || job.c_init.cols != maxdim)
    throw Error("run.shape", fmt::format("the C prefill is {}x{}; it must be MAXDIM x MAXDIM = {}x{}", job.c_init.rows,
                                         job.c_init.cols, maxdim, maxdim));
  const std::vector<std::uint64_t> words = assemble(isa, gemm_program(isa, s, job.options));
  if (image) *image = words;
  return run_rtl(sim, words, place_in_dram(job.a, maxdim), place_in_dram(job.b, maxdim), job.c_init.data, maxdim,
                 options);
}

}  // namespace tpugen::sim
