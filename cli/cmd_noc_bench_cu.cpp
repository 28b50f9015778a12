// tpugen noc bench --compute-units: one GEMM split over 1, 2 and 4 TinyTPU
// units on the mesh (T = 8, MAXDIM = 64, one 64 x 64 x 64 block a unit),
// each on the RTL of its whole system, beside the standalone core on one
// such block measured in the same run.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "cli/cli.h"
#include "cli/core_bench.h"
#include "cli/cu_system.h"
#include "cli/noc_commands.h"
#include "model/core/operands.h"
#include "model/cu/cu_program.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

// The table the issue asks for: the core's parameters, the block every unit
// runs, and each system. An agent port sends one flit a cycle, and a
// multicast word is a flit for each destination, so the units are placed
// with an agent port of their own beside each (a unit's operand reads leave
// its port alone): 1 unit on a 2 x 2 mesh, 2 on a 3 x 2 with two ports, 4 in
// the corners of a 3 x 3 with four, the orchestrator in the middle.
constexpr std::int64_t kT = 8, kMaxdim = 64;
struct MulticoreRow {
  int cores, nx, ny, ports;
  const char* nodes;
  GemmShape shape;
};
constexpr MulticoreRow kRows[] = {
    {1, 2, 2, 1, "", {64, 64, 64}},
    {2, 3, 2, 2, "1,0;1,1", {128, 64, 64}},
    {4, 3, 3, 4, "2,2;2,0;0,2;0,0", {128, 64, 128}},
};

std::string shape_text(const GemmShape& s) { return fmt::format("{}x{}x{}", s.m, s.k, s.n); }

}  // namespace

int run_noc_bench_cu(const Context& ctx, const NocSpec& spec, const NocOpts& o, const NocBenchOpts& b) {
  if (b.engine != "rtl")
    throw Error("cli.usage",
                "noc bench --compute-units measures cycles on the RTL (--engine rtl); the system model "
                "moves flits but keeps no time");
  for (const char* p : {"NX", "NY"})
    if (o.params.count(p))
      throw Error("cli.usage", fmt::format("noc bench --compute-units runs its own meshes (2 x 2 for 1 unit, 3 x 2 "
                                           "for 2, 3 x 3 for 4); --{} does not apply",
                                           p == std::string("NX") ? "nx" : "ny"));
  Context at = ctx;
  at.flags["T"] = kT;
  at.flags["MAXDIM"] = kMaxdim;
  const GemmShape block{kMaxdim, kMaxdim, kMaxdim};
  fmt::print(
      "tpugen noc bench --compute-units: one GEMM over 1, 2 and 4 TinyTPU units (T = {}, MAXDIM = {}, a {} "
      "block a unit), memory latency {}\n",
      kT, kMaxdim, shape_text(block), b.rtl.latency);
  const CoreGemmBench alone = bench_core_gemm(ctx, kT, kMaxdim, block, b.rtl, b.seed, {});
  fmt::print("standalone core, {}: {} cycles, {:.1f}% of the {} MAC/cycle peak ({})\n", shape_text(block), alone.cycles,
             100.0 * alone.utilization(), kT * kT, alone.status);
  int status = alone.status == "PASS" ? kOk : kFail;

  fmt::print("{:<6} {:<6} {:<6} {:<12} {:>7} {:>8} {:>7} {:>9} {:>7} {:>14}  {}\n", "units", "mesh", "ports", "shape",
             "cycles", "ideal", "util", "of alone", "flits", "unit busy", "result");
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const MulticoreRow& row : kRows) {
    NocOpts no = o;
    no.params["NX"] = std::to_string(row.nx);
    no.params["NY"] = std::to_string(row.ny);
    NocCuOpts c;
    c.cores = row.cores;
    c.nodes = row.nodes;
    c.agent_params["MEM_PORTS"] = std::to_string(row.ports);
    c.engine = "rtl";
    c.rtl = b.rtl;
    const CuSystem sys(at, spec, no, c);
    const cu::GemmPlan plan = cu::plan_gemm(sys.isa, sys.cu, sys.codec, sys.layout, row.shape);
    std::mt19937_64 rng(b.seed);
    const Int8Matrix a = random_matrix(row.shape.m, row.shape.k, OperandDist::Full, rng);
    const Int8Matrix bm = random_matrix(row.shape.k, row.shape.n, OperandDist::Full, rng);
    const std::vector<std::uint8_t> before = cu::gemm_memory(plan, a, bm, 0xA5);
    const auto out = CuSystemRtl(sys, c).run(
        c, before, [&](cu::HostPort& port) { return sys.dispatch(port, plan.programs, sys.layout.cores); });
    // The figures count only when the run did the GEMM: every program DONE,
    // C equal to clip(A @ B), nothing outside C changed, and the run clean.
    std::string result = "PASS";
    for (const auto& e : out.ends)
      if (e.state != "DONE") result = fmt::format("node ({},{}) ended {}", e.node.x, e.node.y, e.state);
    if (result == "PASS" && out.result.status != "done") result = "RTL run " + out.result.status;
    const CuGemmVerdict v = judge_cu_gemm(plan, reference_gemm(a, bm, false), before, out.result.memory);
    if (result == "PASS" && v.c_wrong != 0) result = "FAIL C differs from clip(A @ B)";
    if (result == "PASS" && v.outside_changed != 0) result = "FAIL memory outside C changed";
    if (result != "PASS") status = kFail;
    const CuGemmFigures f = cu_gemm_figures(sys, row.shape, out.result);
    const double ideal = static_cast<double>(row.shape.m * row.shape.k * row.shape.n) / f.peak;
    const double of_alone = alone.utilization() > 0 ? f.utilization / alone.utilization() : 0.0;
    const auto [lo, hi] = f.busy.empty() ? std::pair{0.0, 0.0}
                                         : std::pair{*std::min_element(f.busy.begin(), f.busy.end()),
                                                     *std::max_element(f.busy.begin(), f.busy.end())};
    fmt::print("{:<6} {:<6} {:<6} {:<12} {:>7} {:>8.0f} {:>6.1f}% {:>8.1f}% {:>7} {:>6.1f}-{:>5.1f}%  {}\n", row.cores,
               fmt::format("{}x{}", row.nx, row.ny), row.ports, shape_text(row.shape), f.cycles, ideal,
               100.0 * f.utilization, 100.0 * of_alone, f.flits, 100.0 * lo, 100.0 * hi, result);
    rows.push_back({{"cores", row.cores},
                    {"mesh", {row.nx, row.ny}},
                    {"agent_ports", row.ports},
                    {"nodes", row.nodes},
                    {"shape", shape_text(row.shape)},
                    {"cycles", f.cycles},
                    {"ideal_cycles", ideal},
                    {"utilization", f.utilization},
                    {"utilization_of_standalone", of_alone},
                    {"flits", f.flits},
                    {"core_busy", f.busy},
                    {"result", result}});
  }
  fmt::print(
      "util = ideal / cycles, ideal = M*K*N / (units * T^2) (every unit's T*T MAC/cycle peak); of alone = util "
      "against the standalone core's on one block (goal: 95% at 4 units); unit busy = the least and most "
      "of the cycles a unit was executing an instruction\n");
  if (!b.json.empty()) {
    nlohmann::ordered_json j;
    j["T"] = kT;
    j["MAXDIM"] = kMaxdim;
    j["latency"] = b.rtl.latency;
    j["seed"] = b.seed;
    j["standalone"] = {{"shape", shape_text(block)},
                       {"cycles", alone.cycles},
                       {"utilization", alone.utilization()},
                       {"result", alone.status}};
    j["rows"] = rows;
    write_file(b.json, j.dump(2) + "\n", "cli.io");
  }
  return status;
}

}  // namespace tpugen::cli
