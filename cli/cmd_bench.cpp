// tpugen bench: the shipped GEMM on the RTL engine over the original
// design's benchmark shapes, with cycles, utilization and the original's
// figures side by side.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "cli/cli.h"
#include "cli/core_bench.h"
#include "cli/rtl_engine_flags.h"
#include "model/core/gemm_job.h"
#include "model/core/operands.h"
#include "sim/rtl_engine.h"

namespace tpugen::cli {

namespace {

struct BenchCase {
  std::int64_t t, maxdim;
  GemmShape shape;
  std::int64_t original_cycles;  ///< the original HLS design's cycles at memory latency 0
};

// The benchmark shapes and the original TinyTPU design's cycle counts for
// them, as reported in shared/reference/tinytpu-notes.md ("Results of the
// original HLS design": T=4/MAXDIM=16 with QD=16 and memory latency 0; the
// steady-state figures at MAXDIM=64). These are reference measurements of
// another implementation, the numbers to beat; they are not spec facts.
const std::vector<BenchCase>& bench_cases() {
  static const std::vector<BenchCase> cases = {
      {4, 16, {4, 4, 4}, 175},         {4, 16, {8, 8, 8}, 265},         {4, 16, {12, 12, 12}, 421},
      {4, 16, {16, 16, 8}, 482},       {4, 16, {16, 16, 16}, 674},      {4, 64, {32, 32, 32}, 3752},
      {4, 64, {48, 48, 48}, 10289},    {4, 64, {64, 64, 64}, 22123},    {8, 64, {64, 64, 64}, 7083},
  };
  return cases;
}

struct BenchOpts {
  std::string json;
  RtlEngineFlags rtl_engine;
  std::uint64_t seed = 1;
  hdl::RtlOptions generator;
};

struct BenchRow {
  const BenchCase* c = nullptr;
  std::string status;  ///< PASS, or what went wrong
  std::uint64_t cycles = 0;
  double ideal = 0.0, cycles_per_second = 0.0;
};

BenchRow run_case(const Context& ctx, const BenchCase& c, const BenchOpts& o) {
  const CoreGemmBench r = bench_core_gemm(ctx, c.t, c.maxdim, c.shape, o.rtl_engine, o.seed, o.generator);
  return {&c, r.status, r.cycles, r.ideal, r.cycles_per_second};
}

std::string shape_text(const GemmShape& s) { return fmt::format("{}x{}x{}", s.m, s.k, s.n); }

void print_table(const std::vector<BenchRow>& rows, const BenchOpts& o) {
  fmt::print("tpugen bench: the shipped GEMM on the RTL, memory latency {}, backpressure {}\n", o.rtl_engine.latency,
             o.rtl_engine.backpressure);
  fmt::print("{:<14} {:<10} {:>8} {:>8} {:>7} {:>9} {:>8} {:>11}  {}\n", "config", "shape", "cycles", "ideal", "util",
             "original", "ours/orig", "sim cyc/s", "result");
  for (const auto& r : rows) {
    const auto& c = *r.c;
    fmt::print("{:<14} {:<10} {:>8} {:>8.0f} {:>6.1f}% {:>9} {:>8.2f}x {:>11.0f}  {}\n",
               fmt::format("T={} MAXDIM={}", c.t, c.maxdim), shape_text(c.shape), r.cycles, r.ideal,
               r.cycles ? 100.0 * r.ideal / static_cast<double>(r.cycles) : 0.0, c.original_cycles,
               static_cast<double>(r.cycles) / static_cast<double>(c.original_cycles), r.cycles_per_second, r.status);
  }
  fmt::print("util = ideal / cycles, ideal = M*K*N / T^2 (the T*T MAC/cycle peak); original: the original HLS design's "
             "cycles (tinytpu-notes.md)\n");
}

void write_bench_json(const std::string& path, const std::vector<BenchRow>& rows, const BenchOpts& o) {
  nlohmann::ordered_json j;
  j["latency"] = o.rtl_engine.latency;
  j["backpressure"] = o.rtl_engine.backpressure;
  j["seed"] = o.seed;
  j["rows"] = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    const auto& c = *r.c;
    j["rows"].push_back({{"T", c.t},
                         {"MAXDIM", c.maxdim},
                         {"shape", shape_text(c.shape)},
                         {"cycles", r.cycles},
                         {"ideal_cycles", r.ideal},
                         {"utilization", r.cycles ? r.ideal / static_cast<double>(r.cycles) : 0.0},
                         {"original_cycles", c.original_cycles},
                         {"ratio_to_original", static_cast<double>(r.cycles) / static_cast<double>(c.original_cycles)},
                         {"sim_cycles_per_second", r.cycles_per_second},
                         {"result", r.status}});
  }
  std::ofstream f(path);
  f << j.dump(2) << "\n";
  if (!f) throw Error("cli.io", fmt::format("cannot write '{}'", path), SourceLoc{path});
}

int run_bench(const Context& ctx, const BenchOpts& o) {
  std::vector<BenchRow> rows;
  for (const auto& c : bench_cases()) rows.push_back(run_case(ctx, c, o));
  print_table(rows, o);
  if (!o.json.empty()) write_bench_json(o.json, rows, o);
  for (const auto& r : rows)
    if (r.status != "PASS") return kFail;
  return kOk;
}

}  // namespace

CoreGemmBench bench_core_gemm(const Context& ctx, std::int64_t t, std::int64_t maxdim, const GemmShape& shape,
                              const RtlEngineFlags& rtl, std::uint64_t seed, const hdl::RtlOptions& generator) {
  Context at = ctx;
  at.flags["T"] = t;
  at.flags["MAXDIM"] = maxdim;
  const Isa isa = at.isa();
  const hdl::RtlContext rctx(isa, generator);
  const auto sim = rtl.simulator(rctx);

  std::mt19937_64 rng(seed);
  GemmJob job;
  job.shape = shape;
  job.a = random_matrix(shape.m, shape.k, OperandDist::Full, rng);
  job.b = random_matrix(shape.k, shape.n, OperandDist::Full, rng);
  job.c_init = random_matrix(maxdim, maxdim, OperandDist::Full, rng);
  const auto r = sim::run_gemm_rtl(sim, isa, job, rtl.run_options(seed));

  CoreGemmBench row;
  row.cycles = r.cycles;
  row.cycles_per_second = r.cycles_per_second;
  row.ideal = static_cast<double>(shape.m * shape.k * shape.n) / static_cast<double>(t * t);
  if (!r.done()) {
    row.status = r.status == "fault" ? "FAULT " + r.fault.name : r.status;
  } else {
    const std::string diff =
        compare_c(Int8Matrix{maxdim, maxdim, r.c_full}, job.c_init, reference_gemm(job.a, job.b, false));
    row.status = diff.empty() ? "PASS" : "FAIL " + diff;
  }
  return row;
}

Command bench_command() {
  return {"bench",
          [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            auto o = std::make_shared<BenchOpts>();
            sub.add_option("--seed", o->seed, "seed of the operands and the backpressure")->capture_default_str();
            sub.add_option("--json", o->json, "write the table as JSON");
            add_rtl_engine_flags(sub, o->rtl_engine, "RTL engine");
            add_rtl_option_flags(sub, o->generator, "Generator options");
            return [&ctx, o]() { return run_bench(ctx, *o); };
          }};
}

}  // namespace tpugen::cli
