// tpugen run: run the shipped GEMM (or any program) on the model, the RTL or
// both, and check the result.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "isa/check.h"
#include "isa/image.h"
#include "isa/limits.h"
#include "model/core/c_compare.h"
#include "model/core/gemm_job.h"
#include "model/core/model.h"
#include "model/npy.h"
#include "model/core/operands.h"
#include "sim/rtl_engine.h"

namespace tpugen::cli {

namespace {

struct RunOpts {
  std::string engine = "model", shape, a, b, c_in, c_out, json, program, dist = "full", trace;
  bool relu = false, split = false;
  std::uint64_t seed = 1;
  RtlEngineFlags rtl_engine;
  hdl::RtlOptions generator;

  [[nodiscard]] bool model() const { return engine != "rtl"; }
  [[nodiscard]] bool rtl() const { return engine != "model"; }
};

Int8Matrix load_or_make(const std::string& path, std::int64_t rows, std::int64_t cols, const char* name,
                        OperandDist dist, std::mt19937_64& rng) {
  if (path.empty()) return random_matrix(rows, cols, dist, rng);
  Int8Matrix m = read_npy_int8(path);
  if (m.rows != rows || m.cols != cols)
    throw Error("run.shape", fmt::format("{} holds a {}x{} matrix; {} must be {}x{}", path, m.rows, m.cols, name, rows, cols),
                SourceLoc{path});
  return m;
}

void write_json(const std::string& path, const nlohmann::ordered_json& j) {
  std::ofstream f(path);
  f << j.dump(2) << "\n";
  if (!f) throw Error("cli.io", fmt::format("cannot write '{}'", path), SourceLoc{path});
}

// ---------------------------------------------------------------------------
// The RTL engine
// ---------------------------------------------------------------------------

std::filesystem::path simulator_for(const Isa& isa, const RunOpts& o) {
  return o.rtl_engine.simulator(hdl::RtlContext(isa, o.generator));
}

sim::RtlRunOptions rtl_options(const RunOpts& o) {
  sim::RtlRunOptions r = o.rtl_engine.run_options(o.seed);
  r.trace = o.trace;
  return r;
}

/// Why an RTL run did not finish, with the simulator's account of it.
std::string rtl_failure(const sim::RtlRunResult& r) {
  std::string s = fmt::format("the RTL run ended '{}' after {} cycles", r.status, r.cycles);
  if (r.status == "fault")
    s += fmt::format(": fault {} at instruction {} (unit {})", r.fault.name, r.fault.pc, r.fault.unit_name);
  for (const auto& c : r.progress)
    if (c.done != c.count) s += fmt::format("\n    {} {}/{}  ({})", c.name, c.done, c.count, c.unit);
  for (const auto& e : r.protocol_errors) s += "\n    protocol error, " + e;
  return s;
}

nlohmann::ordered_json rtl_json(const sim::RtlRunResult& r, const RunOpts& o, double ideal) {
  nlohmann::ordered_json j;
  j["status"] = r.status;
  j["cycles"] = r.cycles;
  j["core_cycles"] = r.dut_cycles;
  if (ideal > 0) j["utilization"] = r.cycles ? ideal / static_cast<double>(r.cycles) : 0.0;
  j["latency"] = o.rtl_engine.latency;
  j["backpressure"] = o.rtl_engine.backpressure;
  j["fault"] = {{"code", r.fault.code}, {"name", r.fault.name}, {"pc", r.fault.pc}, {"unit", r.fault.unit_name}};
  for (const auto& c : r.progress) j["progress"][c.name] = {{"done", c.done}, {"count", c.count}};
  j["protocol_errors"] = r.protocol_errors;
  j["cycles_per_second"] = r.cycles_per_second;
  return j;
}

// ---------------------------------------------------------------------------
// GEMM
// ---------------------------------------------------------------------------

GemmJob make_job(const Isa& isa, const RunOpts& o, const GemmShape& s) {
  const std::int64_t maxdim = isa.param("MAXDIM");
  std::mt19937_64 rng(o.seed);
  GemmJob job;
  job.shape = s;
  job.options = GemmOptions{o.relu, o.split};
  if (o.dist == "boundary") {
    boundary_operands(s.m, s.k, s.n, rng, job.a, job.b);
  } else {
    const OperandDist dist = parse_operand_dist(o.dist);
    job.a = load_or_make(o.a, s.m, s.k, "A", dist, rng);
    job.b = load_or_make(o.b, s.k, s.n, "B", dist, rng);
  }
  // C starts as random bytes (or the given file top-left of them), so a
  // write outside the result shows up.
  job.c_init = random_matrix(maxdim, maxdim, OperandDist::Full, rng);
  if (!o.c_in.empty()) {
    const Int8Matrix c_in = load_or_make(o.c_in, s.m, s.n, "C", OperandDist::Full, rng);
    for (std::int64_t r = 0; r < s.m; ++r)
      for (std::int64_t c = 0; c < s.n; ++c)
        job.c_init.data[static_cast<std::size_t>(r * maxdim + c)] = c_in.data[static_cast<std::size_t>(r * s.n + c)];
  }
  return job;
}

/// Refuse a shape the program limits refuse, naming the limit, before
/// anything is built.
bool shape_fits(const Isa& isa, const GemmShape& s, bool split) {
  const GemmLimits lim = gemm_limits(isa, s);
  if (split ? lim.split_fits : lim.fits) return true;
  std::string why;
  for (const auto& l : split ? lim.split : lim.limits)
    if (!l.fits) why += fmt::format("\n  {}: {}{}", l.name, l.rule, l.detail.empty() ? "" : " (" + l.detail + ")");
  fmt::print(stderr, "tpugen: GEMM {}x{}x{} does not fit T={} MAXDIM={}:{}\n", s.m, s.k, s.n, isa.param("T"),
             isa.param("MAXDIM"), why);
  if (!split && lim.split_fits) fmt::print(stderr, "tpugen: it fits only with --split-operand-load\n");
  return false;
}

void print_result(const char* engine, const std::string& diff, const RunOpts& o, const GemmShape& s, std::int64_t maxdim) {
  if (diff.empty())
    fmt::print("result:  PASS  C == clip({}A @ B) on all {} elements; the {} elements outside it hold their prefill{}\n",
               o.relu ? "relu " : "", s.m * s.n, maxdim * maxdim - s.m * s.n, o.engine == "both" ? fmt::format(" ({})", engine) : "");
  else
    fmt::print("result:  FAIL  {}{}\n", o.engine == "both" ? fmt::format("({}) ", engine) : "", diff);
}

void print_model_figures(const GemmOutcome& out, double ideal, double secs, const GemmShape& s) {
  std::string busiest;
  std::int64_t busiest_steps = 0;
  for (const auto& [unit, steps] : out.unit_steps)
    if (steps > busiest_steps) {
      busiest = unit;
      busiest_steps = steps;
    }
  const double bound = busiest_steps ? ideal / static_cast<double>(busiest_steps) : 0.0;
  for (const auto& [unit, steps] : out.unit_steps) fmt::print("  {:<8} steps {:>16}\n", unit, steps);
  fmt::print("  busiest unit {} ({} steps): utilization at most {:.1f}% of the T*T MAC/cycle peak\n", busiest,
             busiest_steps, 100.0 * bound);
  fmt::print("  model time {:.3f} ms ({:.1f} M MAC/s)\n", secs * 1e3,
             secs > 0 ? static_cast<double>(s.m * s.k * s.n) / secs / 1e6 : 0.0);
}

double utilization_bound(const GemmOutcome& out, double ideal) {
  std::int64_t busiest = 0;
  for (const auto& [unit, steps] : out.unit_steps) busiest = std::max(busiest, steps);
  return busiest ? ideal / static_cast<double>(busiest) : 0.0;
}

int run_gemm(const Isa& isa, const RunOpts& o) {
  const std::int64_t maxdim = isa.param("MAXDIM"), t = isa.param("T");
  const GemmShape s = o.shape.empty() ? GemmShape{maxdim, maxdim, maxdim} : parse_shape(o.shape);
  if (!shape_fits(isa, s, o.split)) return kFail;
  const GemmJob job = make_job(isa, o, s);
  const Int8Matrix expected = reference_gemm(job.a, job.b, o.relu);
  const double ideal = static_cast<double>(s.m * s.k * s.n) / static_cast<double>(t * t);
  const std::filesystem::path sim = o.rtl() ? simulator_for(isa, o) : std::filesystem::path();

  fmt::print("tpugen run: engine {}, T={} MAXDIM={}, GEMM {}x{}x{}{}, operands {} (seed {})\n", o.engine, t, maxdim, s.m,
             s.k, s.n, o.relu ? " with relu" : "", o.a.empty() ? o.dist : o.a + ", " + o.b, o.seed);

  std::optional<GemmOutcome> model_out;
  double model_secs = 0.0;
  std::string model_diff;
  if (o.model()) {
    const auto t0 = std::chrono::steady_clock::now();
    model_out = run_gemm_model(isa, job);
    model_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    model_diff = compare_c(model_out->c_full, job.c_init, expected);
    fmt::print("program: {} instructions, {} issues, {} image words\n", model_out->instructions, model_out->issues,
               model_out->image.size());
    print_result("model", model_diff, o, s, maxdim);
  }

  std::optional<sim::RtlRunResult> rtl_out;
  std::string rtl_diff, both_diff;
  if (o.rtl()) {
    std::vector<std::uint64_t> image;
    rtl_out = sim::run_gemm_rtl(sim, isa, job, rtl_options(o), &image);
    if (!o.model()) fmt::print("program: {} image words\n", image.size());
    rtl_diff = rtl_out->done() ? compare_c(Int8Matrix{maxdim, maxdim, rtl_out->c_full}, job.c_init, expected)
                               : rtl_failure(*rtl_out);
    print_result("rtl", rtl_diff, o, s, maxdim);
    if (model_out) {
      both_diff = first_c_difference(rtl_out->c_full, model_out->c_full.data, maxdim);
      if (both_diff.empty())
        fmt::print("compare: rtl == model on the whole C ({} bytes)\n", maxdim * maxdim);
      else
        fmt::print("compare: rtl != model: first difference {}\n", both_diff);
      // And every on-chip row the model wrote (spad, vr, ar).
      if (rtl_out->done()) {
        const std::string state = sim::compare_state(isa, *model_out->model, *rtl_out);
        fmt::print("compare: {}\n", state.empty() ? "rtl == model on every on-chip row the program wrote"
                                                   : "rtl != model on-chip: " + state);
        if (both_diff.empty() && !state.empty()) both_diff = "on-chip: " + state;
      }
    }
  }

  if (!o.c_out.empty()) {
    const Int8Matrix c_full = rtl_out ? Int8Matrix{maxdim, maxdim, rtl_out->c_full} : model_out->c_full;
    write_npy_int8(o.c_out, crop(c_full, s.m, s.n));
  }

  fmt::print("figures:\n  ideal cycles (M*K*N / T^2)  {:>10.0f}\n", ideal);
  if (model_out) print_model_figures(*model_out, ideal, model_secs, s);
  if (rtl_out && rtl_out->done())
    fmt::print("  rtl cycles {} (latency {}, backpressure {}): utilization {:.1f}% of the T*T = {} MAC/cycle peak\n"
               "  simulation {:.0f} cycles/s\n",
               rtl_out->cycles, o.rtl_engine.latency, o.rtl_engine.backpressure, rtl_out->cycles ? 100.0 * ideal / static_cast<double>(rtl_out->cycles) : 0.0,
               t * t, rtl_out->cycles_per_second);

  const bool ok = model_diff.empty() && rtl_diff.empty() && both_diff.empty();
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["engine"] = o.engine;
    j["params"] = nlohmann::ordered_json::object();
    for (const auto& [name, v] : isa.params().build_parameters()) j["params"][name] = v;
    j["shape"] = {{"M", s.m}, {"K", s.k}, {"N", s.n}};
    j["relu"] = o.relu;
    j["seed"] = o.seed;
    j["ideal_cycles"] = ideal;
    if (model_out) {
      j["instructions"] = model_out->instructions;
      j["issues"] = model_out->issues;
      for (std::size_t e = 0; e < isa.spec().header.size(); ++e)
        j["header"][isa.spec().header[e].name] = model_out->header[e];
      j["unit_steps"] = model_out->unit_steps;
      j["utilization_bound"] = utilization_bound(*model_out, ideal);
    }
    if (rtl_out) {
      j["cycles"] = rtl_out->cycles;
      j["utilization"] = rtl_out->cycles ? ideal / static_cast<double>(rtl_out->cycles) : 0.0;
      j["rtl"] = rtl_json(*rtl_out, o, ideal);
    }
    if (model_out && rtl_out) j["comparison"] = {{"identical", both_diff.empty()}, {"first_difference", both_diff}};
    j["match"] = ok;
    j["first_difference"] = !rtl_diff.empty() ? rtl_diff : model_diff;
    write_json(o.json, j);
  }
  return ok ? kOk : kFail;
}

// ---------------------------------------------------------------------------
// Any program
// ---------------------------------------------------------------------------

int run_program(const Isa& isa, const RunOpts& o) {
  const std::int64_t maxdim = isa.param("MAXDIM");
  const Program p = load_program(isa, o.program);
  const auto words = assemble(isa, p);
  std::mt19937_64 rng(o.seed);
  const OperandDist dist = parse_operand_dist(o.dist);
  const Int8Matrix a = load_or_make(o.a, maxdim, maxdim, "A (the DRAM image, MAXDIM x MAXDIM)", dist, rng);
  const Int8Matrix b = load_or_make(o.b, maxdim, maxdim, "B (the DRAM image, MAXDIM x MAXDIM)", dist, rng);
  const Int8Matrix c = load_or_make(o.c_in, maxdim, maxdim, "C (the DRAM image, MAXDIM x MAXDIM)", OperandDist::Full, rng);
  auto changed_bytes = [&c](const std::vector<std::int8_t>& after) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < c.data.size() && i < after.size(); ++i) n += c.data[i] != after[i];
    return n;
  };
  nlohmann::ordered_json j;
  j["engine"] = o.engine;
  j["program"] = o.program;
  bool ok = true;

  std::optional<Int8Matrix> model_c;
  Model model(isa);
  if (o.model()) {
    model.set_dram("A", a.data);
    model.set_dram("B", b.data);
    model.set_dram("C", c.data);
    model.run_image(words);
    model_c = Int8Matrix{maxdim, maxdim, model.dram("C")};
    fmt::print("tpugen run: engine model, {}: {} instructions, {} issues; {} C bytes changed\n", o.program,
               p.instrs.size(), model.issues(), changed_bytes(model_c->data));
    for (const auto& [unit, steps] : model.unit_steps()) fmt::print("  {:<8} steps {:>10}\n", unit, steps);
    for (const auto& u : model.unwritten_reads())
      fmt::print("  warning: instruction {} (line {}, {}) read {} row {}, which nothing wrote\n", u.pc, u.line,
                 u.opcode, u.memory, u.row);
    j["issues"] = model.issues();
    j["unit_steps"] = model.unit_steps();
    j["c_bytes_changed"] = changed_bytes(model_c->data);
    j["unwritten_reads"] = model.unwritten_reads().size();
  }
  std::optional<Int8Matrix> rtl_c;
  sim::RtlRunResult r;
  if (o.rtl()) {
    r = sim::run_rtl(simulator_for(isa, o), words, a.data, b.data, c.data, maxdim, rtl_options(o));
    fmt::print("tpugen run: engine rtl, {}: {} after {} cycles; {} C bytes changed\n", o.program, r.status, r.cycles,
               changed_bytes(r.c_full));
    if (!r.done()) {
      fmt::print("result:  FAIL  {}\n", rtl_failure(r));
      ok = false;
    }
    rtl_c = Int8Matrix{maxdim, maxdim, r.c_full};
    j["rtl"] = rtl_json(r, o, 0.0);
    j["cycles"] = r.cycles;
  }
  if (model_c && rtl_c) {
    const std::string diff = first_c_difference(rtl_c->data, model_c->data, maxdim);
    fmt::print("compare: {}\n", diff.empty() ? "rtl == model on the whole C" : "rtl != model: first difference " + diff);
    // The on-chip memories too, every row the model wrote.
    const std::string state = sim::compare_state(isa, model, r);
    fmt::print("compare: {}\n", state.empty() ? "rtl == model on every on-chip row the program wrote"
                                               : "rtl != model on-chip: " + state);
    j["comparison"] = {{"identical", diff.empty() && state.empty()}, {"first_difference", diff},
                       {"state_difference", state}};
    ok = ok && diff.empty() && state.empty();
  }
  if (!o.c_out.empty()) write_npy_int8(o.c_out, rtl_c ? *rtl_c : *model_c);
  if (!o.json.empty()) write_json(o.json, j);
  return ok ? kOk : kFail;
}

}  // namespace

Command run_command() {
  return param_command<RunOpts>("run",
          [](CLI::App& sub, RunOpts& o) {
            sub.add_option("--engine", o.engine,
                           "model (the reference model), rtl (the generated core under Verilator) or both "
                           "(compares the whole C)")
                ->capture_default_str()
                ->check(CLI::IsMember({"model", "rtl", "both"}));
            sub.add_option("--gemm", o.shape, "shape MxKxN (default MAXDIM cubed)");
            sub.add_flag("--relu", o.relu, "relu before mvout");
            sub.add_flag("--split-operand-load", o.split, "issue a load over MAXROWS rows as two");
            sub.add_option("--a", o.a, "A as an int8 .npy (M x K); default random from --seed");
            sub.add_option("--b", o.b, "B as an int8 .npy (K x N); default random from --seed");
            sub.add_option("--c-in", o.c_in, "C's prior contents, int8 .npy (M x N); default random bytes");
            sub.add_option("--c-out", o.c_out, "write the M x N result as int8 .npy (the RTL's, when it ran)");
            sub.add_option("--seed", o.seed, "seed of the random operands, C prefill and RTL backpressure")
                ->capture_default_str();
            sub.add_option("--dist", o.dist, "random operands: full, corner, mid or boundary")->capture_default_str()
                ->check(CLI::IsMember({"full", "corner", "mid", "boundary"}));
            sub.add_option("--json", o.json, "write a JSON report");
            sub.add_option("--program", o.program, "run this program (assembly or image) instead of the GEMM");
            auto* rtl = "RTL engine";
            add_rtl_engine_flags(sub, o.rtl_engine, rtl);
            sub.add_option("--trace", o.trace, "write an FST waveform of the RTL run")->group(rtl);
            add_rtl_option_flags(sub, o.generator, rtl);
          },
          [](Context& ctx, RunOpts& o) {
            const Isa isa = ctx.isa();
            return o.program.empty() ? run_gemm(isa, o) : run_program(isa, o);
          });
}

}  // namespace tpugen::cli
