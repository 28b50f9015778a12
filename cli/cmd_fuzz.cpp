// tpugen fuzz: random legal programs on the RTL and the model, compared
// bit for bit; disagreements shrunk into reproducer directories; coverage.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "fuzz/rtl/rtl_target.h"
#include "fuzz/core/coverage.h"
#include "fuzz/core/model_run.h"
#include "sim/rtl_coverage.h"
#include "hdl/generate.h"
#include "sim/rtl_engine.h"

namespace tpugen::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Set by SIGINT: the campaign stops taking programs and prints what it has.
// A signal handler can only reach a flag with static storage.
std::atomic<bool> g_interrupted{false};  // NOLINT: the one signal flag
extern "C" void on_sigint(int) { g_interrupted.store(true); }

/// The RTL engine's flags as a campaign starts them: a program gives up
/// sooner than a `tpugen run`, after 500000 cycles.
RtlEngineFlags fuzz_engine_flags() {
  RtlEngineFlags f;
  f.max_cycles = 500000;
  return f;
}

struct FuzzOpts {
  std::uint64_t count = 200, seed = 1;
  unsigned jobs = 0;
  double time_budget = 0.0;
  std::string out = "fuzz-out", json, rtl_dir, replay, dist, rtl_coverage;
  std::string emit;  ///< --emit: write the seed range's cases here instead of running them
  std::int64_t budget = 0;
  RtlEngineFlags rtl_engine = fuzz_engine_flags();
  unsigned max_repros = 3;
  bool no_shrink = false, coverage = false;
  hdl::RtlOptions generator;
  std::string command;  ///< the command line, for reproducers
};

/// The generator options, and the user's RTL directory when the campaign
/// fuzzed one (--rtl), as a reproducer records them.
std::string options_json(const hdl::RtlOptions& g, const std::string& rtl_dir) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& f : hdl::rtl_option_fields())
    if (f.recorded()) j[std::string(f.key)] = nlohmann::ordered_json::parse(f.json(g));
  j["rtl_dir"] = rtl_dir.empty() ? std::string() : fs::absolute(rtl_dir).string();
  return j.dump();
}

std::string run_json(const sim::RtlRunOptions& r) {
  nlohmann::ordered_json j = {
      {"latency", r.latency}, {"backpressure", r.backpressure}, {"seed", r.seed}, {"max_cycles", r.max_cycles}};
  return j.dump();
}

/// The simulator: the configuration's generated RTL, or the user's RTL
/// directory (its files.f, tpu_top with the documented ports) with the harness.
fs::path simulator(const hdl::RtlContext& rctx, const FuzzOpts& o) {
  if (o.rtl_dir.empty()) return o.rtl_engine.simulator(rctx, !o.rtl_coverage.empty());
  if (!o.rtl_coverage.empty())
    throw Error("fuzz.options", "--rtl-coverage instruments the generated RTL; it does not go with --rtl");
  const fs::path dir = fs::absolute(o.rtl_dir);
  if (!fs::exists(dir / "files.f"))
    throw Error("fuzz.rtl", fmt::format("{}: no files.f (the compile order of the RTL to fuzz)", dir.string()),
                SourceLoc{dir.string()});
  sim::SimBuildSpec spec;
  spec.populate = [&rctx, dir](const fs::path& into) {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) fs::copy_file(e.path(), into / e.path().filename(), fs::copy_options::overwrite_existing);
    std::ofstream(into / "sim_config.h") << sim::sim_config_header(rctx);
  };
  spec.key_text = fmt::format("user RTL {}\n", dir.string());
  spec.top = std::string(hdl::top_module(rctx.options().top));
  spec.description = fmt::format("the RTL in {}", dir.string());
  return sim::cached_sim_build(o.rtl_engine.cache_root(), spec, print_build_progress);
}

/// A one-line progress bar on a terminal; a line per tenth otherwise.
class Progress {
 public:
  Progress(std::uint64_t total, double budget) : total_(total), budget_(budget), tty_(::isatty(2) != 0) {}

  void update(std::uint64_t done, std::uint64_t mismatches, Clock::time_point start) {
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
    double left = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
    if (budget_ > 0) left = std::min(left, std::max(0.0, budget_ - secs));
    const int width = 30;
    const int fill = total_ ? static_cast<int>(width * done / total_) : width;
    const std::string line =
        fmt::format("[{:<{}}] {}/{}  {:.1f} programs/s  {} mismatch{}  {:.0f} s left", std::string(fill, '#'), width,
                    done, total_, rate, mismatches, mismatches == 1 ? "" : "es", left);
    if (tty_) {
      fmt::print(stderr, "\r{}", line);
    } else if (done * 10 / std::max<std::uint64_t>(total_, 1) != last_tenth_ || done == total_) {
      last_tenth_ = done * 10 / std::max<std::uint64_t>(total_, 1);
      fmt::print(stderr, "{}\n", line);
    }
  }
  void finish() const {
    if (tty_) fmt::print(stderr, "\n");
  }

 private:
  std::uint64_t total_;
  double budget_;
  bool tty_;
  std::uint64_t last_tenth_ = ~std::uint64_t{0};
};

struct Found {
  fuzz::FuzzCase c;
  fuzz::Verdict v;
};

int run_replay(Context& ctx, const FuzzOpts& o) {
  const fs::path dir = o.replay;
  nlohmann::json j;
  {
    std::ifstream f(dir / "case.json");
    if (!f) throw Error("fuzz.replay", fmt::format("cannot read '{}'", (dir / "case.json").string()));
    try {
      j = nlohmann::json::parse(f);
    } catch (const nlohmann::json::exception& e) {
      throw Error("fuzz.replay", fmt::format("{}: {}", (dir / "case.json").string(), e.what()));
    }
  }
  Context at = ctx;
  FuzzOpts ro = o;
  try {
    for (const auto& [name, value] : j.at("parameters").items()) at.flags[name] = value.get<std::int64_t>();
    const auto& g = j.at("generator_options");
    for (const auto& f : hdl::rtl_option_fields()) {
      if (!f.recorded() || !g.contains(std::string(f.key))) continue;  // older reproducers record no top: the default
      // A testing knob given on the command line (--inject-bug) wins over the reproducer's.
      if (f.hidden && !f.get(o.generator).empty()) continue;
      const auto& v = g.at(std::string(f.key));
      f.set(ro.generator, v.is_string() ? v.get<std::string>() : v.dump());
    }
    if (o.rtl_dir.empty()) ro.rtl_dir = g.value("rtl_dir", std::string());
    const auto& r = j.at("run_options");
    ro.rtl_engine.latency = r.at("latency").get<unsigned>();
    ro.rtl_engine.backpressure = r.at("backpressure").get<double>();
    ro.rtl_engine.max_cycles = r.at("max_cycles").get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw Error("fuzz.replay", fmt::format("{}: {}", (dir / "case.json").string(), e.what()));
  }
  const Isa isa = at.isa();
  const hdl::RtlContext rctx(isa, ro.generator);
  const fuzz::Reproducer rep = fuzz::read_reproducer(dir, isa);
  const fuzz::RtlSetup setup{simulator(rctx, ro), ro.rtl_engine.run_options(j.at("run_options").at("seed").get<std::uint64_t>())};
  const fuzz::Verdict v = fuzz::run_both(isa, rep.fuzz_case, setup);
  fmt::print("tpugen fuzz --replay {}: {} instructions, {}{}\n", dir.string(), rep.fuzz_case.program.instrs.size(),
             v.mismatch() ? "MISMATCH " : fuzz::to_string(v.kind), v.mismatch() ? fuzz::to_string(v.kind) + ": " + v.detail : "");
  if (v.kind == fuzz::Verdict::Invalid) fmt::print("  not a valid case: {}\n", v.detail);
  return v.kind == fuzz::Verdict::Agree ? kOk : kFail;
}

/// --emit DIR: the cases of the seed range as reproducer-style directories
/// (program.s, A.npy, B.npy, C.npy, case.json with the verdict "not run"),
/// without building or running a simulator: inputs for other testbenches.
int run_emit(const Context& ctx, const FuzzOpts& o) {
  const Isa isa = ctx.isa();
  fuzz::FuzzOptions fo;
  fo.budget = o.budget;
  if (!o.dist.empty()) fo.dist = fuzz::parse_dist(o.dist);
  const fuzz::Generator gen(isa, fo);
  for (std::uint64_t i = 0; i < o.count; ++i) {
    const fuzz::FuzzCase c = gen.make(o.seed + i);
    const fs::path dir = fs::path(o.emit) / fmt::format("seed-{}", c.seed);
    const auto instrs = static_cast<std::int64_t>(c.program.instrs.size());
    fuzz::write_reproducer(dir, isa, c, fuzz::Verdict{},
                           fuzz::ReproInfo{o.command, options_json(o.generator, ""), run_json(o.rtl_engine.run_options(c.seed)),
                                           instrs, 0});
    // Not run: say so rather than the default verdict.
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(std::ifstream(dir / "case.json"));
    j["verdict"] = {{"kind", "not run"}, {"detail", "written by tpugen fuzz --emit"}};
    std::ofstream f(dir / "case.json");
    f << j.dump(2) << "\n";
    if (!f) throw Error("cli.io", fmt::format("cannot write '{}'", (dir / "case.json").string()));
    fmt::print("{}  {} instructions, {} operands\n", dir.string(), instrs, fuzz::to_string(c.dist));
  }
  return kOk;
}

int run_fuzz(Context& ctx, const FuzzOpts& o) {
  if (!o.replay.empty()) return run_replay(ctx, o);
  if (!o.emit.empty()) return run_emit(ctx, o);
  const Isa isa = ctx.isa();
  const hdl::RtlContext rctx(isa, o.generator);
  fuzz::FuzzOptions fo;
  fo.budget = o.budget;
  if (!o.dist.empty()) fo.dist = fuzz::parse_dist(o.dist);
  const fuzz::Generator gen(isa, fo);
  const fs::path sim = simulator(rctx, o);
  if (!o.rtl_coverage.empty()) fs::create_directories(o.rtl_coverage);

  const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::uint64_t> next{0}, done{0};
  std::mutex mu;
  std::vector<Found> found;
  std::vector<std::string> errors;
  std::uint64_t rtl_cycles = 0;
  fuzz::Coverage cov = fuzz::Coverage::for_isa(isa);
  const auto start = Clock::now();
  Progress bar(o.count, o.time_budget);
  g_interrupted.store(false);
  auto previous = std::signal(SIGINT, on_sigint);
  auto out_of_time = [&] {
    return o.time_budget > 0 && std::chrono::duration<double>(Clock::now() - start).count() >= o.time_budget;
  };

  auto worker = [&] {
    for (;;) {
      if (g_interrupted.load() || out_of_time()) return;
      const std::uint64_t i = next.fetch_add(1);
      if (i >= o.count) return;
      const std::uint64_t seed = o.seed + i;
      try {
        const fuzz::FuzzCase c = gen.make(seed);
        fuzz::ModelRun run;
        sim::RtlRunOptions ro = o.rtl_engine.run_options(seed);
        if (!o.rtl_coverage.empty()) ro.coverage = (fs::path(o.rtl_coverage) / fmt::format("seed-{}.dat", seed)).string();
        const fuzz::Verdict v = fuzz::run_both(isa, c, fuzz::RtlSetup{sim, ro}, &run);
        std::lock_guard lock(mu);
        if (g_interrupted.load()) return;  // the simulator may have died of the same Ctrl-C
        rtl_cycles += v.rtl_cycles;
        if (v.kind != fuzz::Verdict::Invalid) cov.add(isa, c, run);
        if (v.kind == fuzz::Verdict::Invalid) errors.push_back(fmt::format("seed {}: generator made an invalid case: {}", seed, v.detail));
        if (v.mismatch()) found.push_back({c, v});
        bar.update(done.fetch_add(1) + 1, found.size(), start);
      } catch (const Error& e) {
        if (e.rule() == "rtl.interrupted") {  // Ctrl-C reached the simulator first
          g_interrupted.store(true);
          return;
        }
        std::lock_guard lock(mu);
        if (g_interrupted.load()) return;
        errors.push_back(fmt::format("seed {}: {}", seed, e.what()));
        bar.update(done.fetch_add(1) + 1, found.size(), start);
      } catch (const std::exception& e) {  // anything else a failing run leads to
        std::lock_guard lock(mu);
        if (g_interrupted.load()) return;
        errors.push_back(fmt::format("seed {}: {}", seed, e.what()));
        bar.update(done.fetch_add(1) + 1, found.size(), start);
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < jobs; ++k) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  bar.finish();
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  const bool interrupted = g_interrupted.load();

  // Shrink and write the first disagreements, in seed order.
  std::sort(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.c.seed < y.c.seed; });
  nlohmann::ordered_json repros = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < found.size() && k < o.max_repros && !g_interrupted.load(); ++k) {
    const Found& f = found[k];
    const fuzz::RtlSetup setup{sim, o.rtl_engine.run_options(f.c.seed)};
    fuzz::ShrinkResult s{f.c, f.v, 0, 0};
    if (!o.no_shrink) {
      fmt::print(stderr, "tpugen: shrinking seed {} ({} instructions, {})\n", f.c.seed, f.c.program.instrs.size(),
                 fuzz::to_string(f.v.kind));
      s = fuzz::shrink(isa, f.c, f.v, fuzz::rtl_runner(isa, setup), [] { return g_interrupted.load(); });
    }
    const fs::path dir = fs::path(o.out) / fmt::format("seed-{}", f.c.seed);
    fuzz::write_reproducer(dir, isa, s.shrunk, s.verdict,
                           fuzz::ReproInfo{o.command, options_json(o.generator, o.rtl_dir), run_json(setup.run),
                                           static_cast<std::int64_t>(f.c.program.instrs.size()), s.attempts});
    fmt::print("MISMATCH seed {}: {}: {}\n  reproducer {} ({} instructions, shrunk from {}); rerun: tpugen fuzz "
               "--replay {}\n",
               f.c.seed, fuzz::to_string(s.verdict.kind), s.verdict.detail, dir.string(), s.shrunk.program.instrs.size(),
               f.c.program.instrs.size(), dir.string());
    repros.push_back({{"seed", f.c.seed},
                      {"kind", fuzz::to_string(s.verdict.kind)},
                      {"detail", s.verdict.detail},
                      {"dir", dir.string()},
                      {"instructions", s.shrunk.program.instrs.size()},
                      {"original_instructions", f.c.program.instrs.size()}});
  }
  std::signal(SIGINT, previous);

  const std::uint64_t ran = done.load();
  for (const auto& e : errors) fmt::print(stderr, "tpugen: error: {}\n", e);
  if (o.coverage) fmt::print("{}", cov.table());
  nlohmann::ordered_json rtl_cov = nullptr;
  if (!o.rtl_coverage.empty() && !interrupted) {
    std::vector<fs::path> files;
    for (std::uint64_t i = 0; i < ran; ++i) {
      const fs::path f = fs::path(o.rtl_coverage) / fmt::format("seed-{}.dat", o.seed + i);
      if (fs::exists(f)) files.push_back(f);
    }
    const sim::RtlCoverage rc = sim::merge_rtl_coverage(o.rtl_coverage, files, sim.parent_path());
    fmt::print("{}", rc.table());
    std::string summary;
    rtl_cov = nlohmann::ordered_json::object();
    for (const auto& [kind, p] : rc.by_kind) {
      summary += fmt::format("{}{} {:.1f}% ({}/{})", summary.empty() ? "" : ", ", kind, p.percent(), p.covered, p.total);
      rtl_cov[kind] = {{"covered", p.covered}, {"total", p.total}, {"percent", p.percent()}};
    }
    fmt::print("tpugen fuzz: RTL coverage over {} programs: {}; merged counts {}, annotated sources {}\n", files.size(),
               summary, rc.merged.string(), rc.annotated.string());
  }
  fmt::print("tpugen fuzz: {}{} programs (seeds {}..{}), {} mismatch{}, {} error{}, {:.1f} s, {:.1f} programs/s, "
             "{} RTL cycles, coverage {}/{} bins{}\n",
             interrupted ? "interrupted after " : "",
             interrupted ? fmt::format("{} of {}", ran, o.count) : fmt::format("{}", ran), o.seed, o.seed + o.count - 1,
             found.size(),
             found.size() == 1 ? "" : "es", errors.size(), errors.size() == 1 ? "" : "s", secs,
             secs > 0 ? static_cast<double>(ran) / secs : 0.0, rtl_cycles, cov.reached(), cov.bins().size(),
             cov.complete() ? " (all reachable bins)" : "");
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["parameters"] = nlohmann::ordered_json::object();
    for (const auto& [name, v] : isa.params().build_parameters()) j["parameters"][name] = v;
    j["generator_options"] = nlohmann::ordered_json::parse(options_json(o.generator, o.rtl_dir));
    j["seeds"] = {o.seed, o.seed + o.count - 1};
    j["programs"] = ran;
    j["interrupted"] = interrupted;
    j["mismatches"] = found.size();
    j["mismatch_seeds"] = nlohmann::ordered_json::array();
    for (const auto& f : found) j["mismatch_seeds"].push_back(f.c.seed);
    j["reproducers"] = repros;
    j["errors"] = errors;
    j["seconds"] = secs;
    j["programs_per_second"] = secs > 0 ? static_cast<double>(ran) / secs : 0.0;
    j["rtl_cycles"] = rtl_cycles;
    j["coverage"] = nlohmann::ordered_json::parse(cov.to_json());
    j["rtl_coverage"] = rtl_cov;
    std::ofstream f(o.json);
    f << j.dump(2) << "\n";
    if (!f) throw Error("cli.io", fmt::format("cannot write '{}'", o.json), SourceLoc{o.json});
  }
  if (!found.empty() || !errors.empty()) return kFail;
  return interrupted ? kFail : kOk;
}

}  // namespace

Command fuzz_command() {
  return param_command<FuzzOpts>("fuzz",
          [](CLI::App& sub, FuzzOpts& o) {
            sub.add_option("--count", o.count, "programs to run")->capture_default_str();
            sub.add_option("--seed", o.seed, "the first seed (program i has seed S + i)")->capture_default_str();
            sub.add_option("--jobs,-j", o.jobs, "simulations at once (default: the machine's cores)");
            sub.add_option("--time-budget", o.time_budget, "stop taking programs after this many seconds (0: none)")
                ->capture_default_str();
            sub.add_option("--out", o.out, "where reproducers go (one directory per seed)")->capture_default_str();
            sub.add_option("--json", o.json, "write the campaign's report as JSON");
            sub.add_option("--replay", o.replay, "rerun one reproducer directory instead of a campaign");
            sub.add_option("--emit", o.emit,
                           "write the cases of the seed range to this directory (seed-N/: program.s, A/B/C.npy, "
                           "case.json) without running them");
            sub.add_option("--rtl", o.rtl_dir,
                           "fuzz this RTL directory (files.f, tpu_top with the generated core's ports) instead of "
                           "generating it");
            sub.add_option("--budget", o.budget, "work per program: its busiest unit's steps (0: the default)");
            sub.add_option("--dist", o.dist, "operands from one distribution: full, corner, mid or boundary");
            sub.add_option("--max-repros", o.max_repros, "shrink and write at most this many reproducers")
                ->capture_default_str();
            sub.add_flag("--no-shrink", o.no_shrink, "write reproducers as found, unshrunk");
            sub.add_flag("--coverage", o.coverage, "print the coverage table");
            sub.add_option("--rtl-coverage", o.rtl_coverage,
                           "build the simulator with Verilator --coverage, write each program's counts to this "
                           "directory, merge them (verilator_coverage) and report line, toggle and branch coverage");
            add_rtl_engine_flags(sub, o.rtl_engine, "RTL engine");
            add_rtl_option_flags(sub, o.generator, "Generator options");
          },
          [](Context& ctx, FuzzOpts& o) {
            o.command = ctx.command_line;
            return run_fuzz(ctx, o);
          });
}

}  // namespace tpugen::cli
