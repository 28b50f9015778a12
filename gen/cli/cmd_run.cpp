// tpugen run: run the shipped GEMM (or any program) and check the result.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/cli.h"
#include "isa/image.h"
#include "isa/check.h"
#include "isa/limits.h"
#include "model/gemm_job.h"
#include "model/model.h"
#include "model/npy.h"
#include "model/operands.h"

namespace tpugen::cli {

namespace {

struct RunOpts {
  std::string engine = "model", shape, a, b, c_in, c_out, json, program, dist = "full";
  bool relu = false, split = false;
  std::uint64_t seed = 1;
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

int run_gemm(const Isa& isa, const RunOpts& o) {
  const std::int64_t maxdim = isa.param("MAXDIM"), t = isa.param("T");
  const GemmShape s = o.shape.empty() ? GemmShape{maxdim, maxdim, maxdim} : parse_shape(o.shape);
  // Refuse a shape the program limits refuse, naming the limit, before
  // anything is built.
  const GemmLimits lim = gemm_limits(isa, s);
  if (!(o.split ? lim.split_fits : lim.fits)) {
    std::string why;
    for (const auto& l : o.split ? lim.split : lim.limits)
      if (!l.fits) why += fmt::format("\n  {}: {}{}", l.name, l.rule, l.detail.empty() ? "" : " (" + l.detail + ")");
    fmt::print(stderr, "tpugen: GEMM {}x{}x{} does not fit T={} MAXDIM={}:{}\n", s.m, s.k, s.n, t, maxdim, why);
    if (!o.split && lim.split_fits) fmt::print(stderr, "tpugen: it fits only with --split-operand-load\n");
    return kFail;
  }
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

  const auto t0 = std::chrono::steady_clock::now();
  const GemmOutcome out = run_gemm_model(isa, job);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Int8Matrix expected = reference_gemm(job.a, job.b, o.relu);
  const std::string diff = compare_c(out.c_full, job.c_init, expected);
  if (!o.c_out.empty()) write_npy_int8(o.c_out, out.c);

  const double ideal = static_cast<double>(s.m * s.k * s.n) / static_cast<double>(t * t);
  std::string busiest;
  std::int64_t busiest_steps = 0;
  for (const auto& [unit, steps] : out.unit_steps)
    if (steps > busiest_steps) {
      busiest = unit;
      busiest_steps = steps;
    }
  const double bound = busiest_steps ? ideal / static_cast<double>(busiest_steps) : 0.0;

  fmt::print("tpugen run: engine model, T={} MAXDIM={}, GEMM {}x{}x{}{}, operands {} (seed {})\n", t, maxdim, s.m, s.k, s.n,
             o.relu ? " with relu" : "", o.a.empty() ? o.dist : o.a + ", " + o.b, o.seed);
  fmt::print("program: {} instructions, {} issues, {} image words\n", out.instructions, out.issues, out.image.size());
  if (diff.empty())
    fmt::print("result:  PASS  C == clip({}A @ B) on all {} elements; the {} elements outside it hold their prefill\n",
               o.relu ? "relu " : "", s.m * s.n, maxdim * maxdim - s.m * s.n);
  else
    fmt::print("result:  FAIL  {}\n", diff);
  fmt::print("figures:\n  ideal cycles (M*K*N / T^2)  {:>10.0f}\n", ideal);
  for (const auto& [unit, steps] : out.unit_steps) fmt::print("  {:<8} steps {:>16}\n", unit, steps);
  fmt::print("  busiest unit {} ({} steps): utilization at most {:.1f}% of the T*T MAC/cycle peak\n", busiest,
             busiest_steps, 100.0 * bound);
  fmt::print("  model time {:.3f} ms ({:.1f} M MAC/s)\n", secs * 1e3,
             secs > 0 ? static_cast<double>(s.m * s.k * s.n) / secs / 1e6 : 0.0);

  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["engine"] = "model";
    j["params"] = nlohmann::ordered_json::object();
    for (const auto& [name, v] : isa.params().build_parameters()) j["params"][name] = v;
    j["shape"] = {{"M", s.m}, {"K", s.k}, {"N", s.n}};
    j["relu"] = o.relu;
    j["seed"] = o.seed;
    j["instructions"] = out.instructions;
    j["issues"] = out.issues;
    for (std::size_t e = 0; e < isa.spec().header.size(); ++e) j["header"][isa.spec().header[e].name] = out.header[e];
    j["unit_steps"] = out.unit_steps;
    j["ideal_cycles"] = ideal;
    j["utilization_bound"] = bound;
    j["match"] = diff.empty();
    j["first_difference"] = diff;
    write_json(o.json, j);
  }
  return diff.empty() ? kOk : kFail;
}

int run_program(const Isa& isa, const RunOpts& o) {
  const std::int64_t maxdim = isa.param("MAXDIM");
  const Program p = load_program(isa, o.program);
  const auto words = assemble(isa, p);
  std::mt19937_64 rng(o.seed);
  const OperandDist dist = parse_operand_dist(o.dist);
  Model model(isa);
  const Int8Matrix a = load_or_make(o.a, maxdim, maxdim, "A (the DRAM image, MAXDIM x MAXDIM)", dist, rng);
  const Int8Matrix b = load_or_make(o.b, maxdim, maxdim, "B (the DRAM image, MAXDIM x MAXDIM)", dist, rng);
  const Int8Matrix c = load_or_make(o.c_in, maxdim, maxdim, "C (the DRAM image, MAXDIM x MAXDIM)", OperandDist::Full, rng);
  model.set_dram("A", a.data);
  model.set_dram("B", b.data);
  model.set_dram("C", c.data);
  model.run_image(words);
  const Int8Matrix c_after{maxdim, maxdim, model.dram("C")};
  if (!o.c_out.empty()) write_npy_int8(o.c_out, c_after);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < c.data.size(); ++i) changed += c.data[i] != c_after.data[i];
  fmt::print("tpugen run: engine model, {}: {} instructions, {} issues; {} C bytes changed\n", o.program, p.instrs.size(),
             model.issues(), changed);
  for (const auto& [unit, steps] : model.unit_steps()) fmt::print("  {:<8} steps {:>10}\n", unit, steps);
  for (const auto& u : model.unwritten_reads())
    fmt::print("  warning: instruction {} (line {}, {}) read {} row {}, which nothing wrote\n", u.pc, u.line, u.opcode,
               u.memory, u.row);
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["engine"] = "model";
    j["program"] = o.program;
    j["issues"] = model.issues();
    j["unit_steps"] = model.unit_steps();
    j["c_bytes_changed"] = changed;
    j["unwritten_reads"] = model.unwritten_reads().size();
    write_json(o.json, j);
  }
  return kOk;
}

}  // namespace

Command run_command() {
  return {"run", "Run the shipped GEMM (or any program) and check C against clip(A @ B), bit for bit.\n"
                 "Example: tpugen run --engine model --T 8 --maxdim 64 --gemm 40x24x56 --a A.npy --b B.npy --c-out C.npy",
          [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            add_param_flags(sub, ctx);
            auto o = std::make_shared<RunOpts>();
            sub.add_option("--engine", o->engine, "model (the RTL engines come with the RTL generator)")->capture_default_str()
                ->check(CLI::IsMember({"model"}));
            sub.add_option("--gemm", o->shape, "shape MxKxN (default MAXDIM cubed)");
            sub.add_flag("--relu", o->relu, "relu before mvout");
            sub.add_flag("--split-operand-load", o->split, "issue a load over MAXROWS rows as two");
            sub.add_option("--a", o->a, "A as an int8 .npy (M x K); default random from --seed");
            sub.add_option("--b", o->b, "B as an int8 .npy (K x N); default random from --seed");
            sub.add_option("--c-in", o->c_in, "C's prior contents, int8 .npy (M x N); default random bytes");
            sub.add_option("--c-out", o->c_out, "write the M x N result as int8 .npy");
            sub.add_option("--seed", o->seed, "seed of the random operands and C prefill")->capture_default_str();
            sub.add_option("--dist", o->dist, "random operands: full, corner, mid or boundary")->capture_default_str()
                ->check(CLI::IsMember({"full", "corner", "mid", "boundary"}));
            sub.add_option("--json", o->json, "write a JSON report");
            sub.add_option("--program", o->program, "run this program (assembly or image) instead of the GEMM");
            return [&ctx, o]() {
              const Isa isa = ctx.isa();
              return o->program.empty() ? run_gemm(isa, *o) : run_program(isa, *o);
            };
          }};
}

}  // namespace tpugen::cli
