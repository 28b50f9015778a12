/// @file core_bench.h
/// @brief One GEMM on the standalone core's RTL, as `tpugen bench` measures
/// it: for `bench` itself and for the tables that set other figures beside
/// the standalone core's (`noc bench --compute-units`).
#pragma once

#include <cstdint>
#include <string>

#include "cli/cli.h"
#include "cli/rtl_engine_flags.h"
#include "hdl/rtl_context.h"
#include "isa/programs.h"

namespace tpugen::cli {

/// The shipped GEMM of `shape` at T = t, MAXDIM = maxdim on random operands
/// from `seed` (the ISA's other parameters from `ctx`'s flags), C checked
/// against clip(A @ B) and the prefill around it.
struct CoreGemmBench {
  std::string status;  ///< PASS, or what went wrong
  std::uint64_t cycles = 0;
  double ideal = 0.0;  ///< M*K*N / T^2: the cycles at the T*T MAC/cycle peak
  double cycles_per_second = 0.0;
  [[nodiscard]] double utilization() const { return cycles ? ideal / static_cast<double>(cycles) : 0.0; }
};
CoreGemmBench bench_core_gemm(const Context& ctx, std::int64_t t, std::int64_t maxdim, const GemmShape& shape,
                              const RtlEngineFlags& rtl, std::uint64_t seed, const hdl::RtlOptions& generator);

}  // namespace tpugen::cli
