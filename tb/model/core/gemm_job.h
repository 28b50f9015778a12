/// @file gemm_job.h
/// @brief One GEMM run end to end on the model: place A and B in DRAM,
/// prefill C, assemble the shipped program (checked), run, read C back.
/// The RTL harness runs the same job, so the two compare on equal terms.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/programs.h"
#include "model/core/model.h"
#include "model/npy.h"

namespace tpugen {

struct GemmJob {
  GemmShape shape;
  GemmOptions options;
  Int8Matrix a;       ///< M x K
  Int8Matrix b;       ///< K x N
  Int8Matrix c_init;  ///< MAXDIM x MAXDIM: C's contents before the run
};

struct GemmOutcome {
  std::vector<std::uint64_t> image;             ///< header + instructions
  std::size_t instructions = 0;                 ///< static count
  std::size_t issues = 0;                       ///< dynamic count
  std::map<std::string, std::int64_t> unit_steps;
  std::vector<std::int64_t> header;             ///< spec.header order
  Int8Matrix c_full;                            ///< MAXDIM x MAXDIM after the run
  Int8Matrix c;                                 ///< the M x N result
  std::shared_ptr<const Model> model;           ///< the model after the run (its on-chip state)
};

/// Place an M x K (or K x N) matrix top-left in a MAXDIM x MAXDIM DRAM image.
std::vector<std::int8_t> place_in_dram(const Int8Matrix& m, std::int64_t maxdim);
/// The top-left rows x cols of a DRAM image.
Int8Matrix crop(const Int8Matrix& full, std::int64_t rows, std::int64_t cols);

/// Run on the model. Throws tpugen::Error for a shape the program limits
/// refuse (check.*), for operand sizes that do not match the shape
/// (run.shape), and for model errors.
GemmOutcome run_gemm_model(const Isa& isa, const GemmJob& job);

/// Compare C with the expected M x N result and check that every element
/// outside it still holds its prefill. Empty when equal; else the first
/// difference, e.g. "C[3][17] = -5, expected 12 (and 41 more)".
std::string compare_c(const Int8Matrix& c_full, const Int8Matrix& c_init, const Int8Matrix& expected);

}  // namespace tpugen
