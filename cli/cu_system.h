/// @file cu_system.h
/// @brief A system of compute units as `noc dispatch`, `noc gemm` and `noc
/// bench --compute-units` build it from the flags: its specs and parameters
/// (CuSystem), the generator's contexts (CuSystemHdl), its simulator and a
/// host's run of it (CuSystemRtl), and a GEMM's figures from such a run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/noc_commands.h"
#include "cli/rtl_engine_flags.h"
#include "hdl/cu/cu_system_generate.h"
#include "isa/programs.h"
#include "model/cu/cu_program.h"
#include "sim/cu_system_engine.h"
#include "spec/compute_units_spec.h"

namespace tpugen::cli {

/// The orchestrator's parameters as given, with a channel a unit (4 .. 16)
/// unless --channels says otherwise.
inline std::map<std::string, std::string> orch_overrides(const NocCuOpts& c) {
  std::map<std::string, std::string> orch = c.orch_params;
  if (!orch.count("CHANNELS")) orch["CHANNELS"] = std::to_string(std::min(std::max(c.cores, 4), 16));
  return orch;
}

/// The specs and parameters a system of compute units is built from.
struct CuSystem {
  Isa isa;
  NocSpec noc;
  noc::Codec codec;
  SystemNodeSpec sysnode;
  ComputeUnitsSpec cu;
  cu::SystemSpecs specs;
  NocParams fabric, mover;
  noc::SystemLayout layout;

  CuSystem(const Context& ctx, const NocSpec& noc_spec, const NocOpts& o, const NocCuOpts& c)
      : isa(ctx.isa()),
        noc(noc_spec),
        codec(noc),
        sysnode(load_system_node_spec(system_node_spec_path(ctx.spec.path), noc)),
        cu(load_compute_units_spec(compute_units_spec_path(ctx.spec.path), noc, sysnode)) {
    fabric = resolve_noc_params(noc, o.params);
    mover = resolve_mover_params(sysnode, c.mover_params);
    std::vector<noc::Coord> nodes;
    for (std::size_t at = 0; !c.nodes.empty() && at <= c.nodes.size();) {
      const std::size_t semi = c.nodes.find(';', at);
      nodes.push_back(
          parse_node(c.nodes.substr(at, semi == std::string::npos ? std::string::npos : semi - at), "--nodes"));
      if (semi == std::string::npos) break;
      at = semi + 1;
    }
    specs.isa = &isa;
    specs.cu = &cu;
    specs.sysnode = &sysnode;
    specs.codec = &codec;
    specs.cu_base = resolve_cu_base_params(cu, c.cu_params);
    specs.orchestrator = resolve_orchestrator_params(cu, orch_overrides(c));
    specs.agent = resolve_agent_params(sysnode, c.agent_params);
    layout = noc::make_layout(fabric.nx(), fabric.ny(), c.cores, nodes, static_cast<int>(specs.agent["MEM_PORTS"]));
    (void)evaluate_unit(cu.require_unit("tinytpu"), isa.params().scope());  // the core's parameters fit the unit
  }

  /// The host's dispatch of `programs` to `nodes` through `port`, with the
  /// wrapper's and the orchestrator's parameters: each channel seeded with
  /// at most `credits` (0: the units' INST_DEPTH, all they take).
  [[nodiscard]] std::vector<cu::DispatchEnd> dispatch(cu::HostPort& port,
                                                      const std::vector<std::vector<noc::Flit>>& programs,
                                                      const std::vector<noc::Coord>& nodes, int credits = 0) const {
    return cu::host_dispatch(cu.orchestrator, codec, port, programs, nodes,
                             credits > 0 ? credits : static_cast<int>(specs.cu_base["INST_DEPTH"]),
                             static_cast<int>(specs.orchestrator["PROG_FLITS"]),
                             static_cast<int>(specs.orchestrator["CHANNELS"]));
  }
};

/// The generator's contexts of a system (what its RTL is generated from).
struct CuSystemHdl {
  hdl::RtlContext core;
  hdl::NocContext fabric;
  hdl::SysnodeContext sysnode;
  hdl::CuContext cu;

  CuSystemHdl(const CuSystem& sys, const NocCuOpts& c)
      : core(sys.isa, {}),
        fabric(sys.noc, sys.fabric),
        sysnode(sys.noc, sys.sysnode, sys.mover, sys.specs.agent),
        cu(hdl::make_cu_context(sys.noc, sys.sysnode, sys.cu, sys.isa, c.cu_params, orch_overrides(c))) {}

  [[nodiscard]] hdl::CuSystemContext context(const noc::SystemLayout& layout) const {
    return {core, fabric, sysnode, cu, layout};
  }
};

/// The system's simulator, built once into the cache, and a run of it on
/// `image` that a host drives (the engine's conditions from the flags).
struct CuSystemRtl {
  CuSystemHdl hdl;
  std::filesystem::path sim;

  CuSystemRtl(const CuSystem& sys, const NocCuOpts& c)
      : hdl(sys, c),
        sim(sim::ensure_cu_system_simulator(hdl.context(sys.layout), c.rtl.cache_root(), print_build_progress,
                                            {.waveform = !c.trace.empty()})) {}

  /// What a host's dispatch on the RTL gave: the channels' ends, the cycles
  /// the host waited, the run's result.
  struct Outcome {
    std::vector<cu::DispatchEnd> ends;
    std::uint64_t waited = 0;
    sim::CuSystemRtlResult result;
  };

  /// Run `dispatch` (the host) on the simulator over `image`, with the
  /// engine's conditions from the flags.
  [[nodiscard]] Outcome run(const NocCuOpts& c, std::span<const std::uint8_t> image,
                            const std::function<std::vector<cu::DispatchEnd>(cu::HostPort&)>& dispatch) const {
    sim::CuSystemConditions k;
    k.latency = c.rtl.latency;
    k.timeout = c.timeout;
    k.trace = c.trace;
    sim::CuSystemRun run(sim, image, k);
    cu::HostPort port = run.port();
    Outcome o;
    o.ends = dispatch(port);
    o.waited = run.cycle();
    o.result = run.finish();
    return o;
  }
};

/// Everything wrong with an RTL run beside its flits: a status other than
/// done, the checkers' and the harness's errors, the memory's error answers
/// (unless `memory_answers` is false: a run that reads past memory on
/// purpose), the RTL's notes.
inline std::vector<std::string> rtl_run_errors(const sim::CuSystemRtlResult& r, bool memory_answers = true) {
  std::vector<std::string> e;
  if (r.status != "done") e.push_back(fmt::format("the RTL run ended in {}", r.status));
  for (const auto& x : r.checker_errors) e.push_back("AXI4 checker: " + x);
  for (const auto& x : r.harness_errors) e.push_back("harness: " + x);
  if (memory_answers)
    for (const auto& x : r.axi_responses) e.push_back("memory: " + x);
  if (r.status != "done")
    for (const auto& x : r.notes) e.push_back(x);
  return e;
}

/// A GEMM's figures from a run on the RTL: the cycles from the first dispatch
/// to the last retirement, utilization of the cores' peak (K x T x T
/// MAC/cycle), the flits every node sent, and the share of those cycles each
/// unit was executing an instruction.
struct CuGemmFigures {
  std::uint64_t cycles = 0, flits = 0;
  double peak = 0.0, utilization = 0.0;
  std::vector<double> busy;
};
CuGemmFigures cu_gemm_figures(const CuSystem& sys, const GemmShape& shape, const sim::CuSystemRtlResult& r);

/// A GEMM's memory after a run on the units, against clip(A @ B) (`want`)
/// and the memory before it: C as memory holds it, the elements of C that
/// differ, and the bytes outside C (its M rows of N bytes at the plan's row
/// stride) that changed.
struct CuGemmVerdict {
  Int8Matrix c;
  std::size_t c_wrong = 0, outside_changed = 0;
  [[nodiscard]] bool ok() const { return c_wrong == 0 && outside_changed == 0; }
};
CuGemmVerdict judge_cu_gemm(const cu::GemmPlan& plan, const Int8Matrix& want, const std::vector<std::uint8_t>& before,
                            const std::vector<std::uint8_t>& after);

}  // namespace tpugen::cli
