/// @file programs.h
/// @brief The program library: the shipped GEMM (through the loop-nest
/// builder), its handwritten and flat differential references, and the test
/// programs vadd_program, vector_program and ar_distance_program.
#pragma once

#include <cstdint>

#include "isa/program.h"

namespace tpugen {

struct GemmShape {
  std::int64_t m = 0, k = 0, n = 0;
};

struct GemmOptions {
  bool relu = false;
  /// Issue a load over MAXROWS rows as two (the seed's split_operand_load).
  bool split_operand_load = false;
  /// Load B's first column block a k-tile (T rows) at a time, each beside
  /// A's k-tile, instead of whole before A: the order a compute unit that
  /// fetches whole rows can deliver early (the first mm waits for T + M
  /// rows of it, not K + M). The standalone core's DMA, which moves a packed
  /// word a row, gains nothing by it.
  bool interleave_loads = false;
  /// Compute the last column strip in this many groups of M / parts rows,
  /// each written out (mvout) before the next is computed, so that only the
  /// last group's rows are left to write when the array finishes (a compute
  /// unit on the mesh writes C a 32-byte word at a time, once the word is
  /// whole). 1: the strip in one. M must be a multiple of it.
  std::int64_t last_strip_parts = 1;
};

/// The shipped memory map: vr[kb*MAXDIM + m] = A[m, kb*T ..], spad[nb*MAXDIM
/// + k] = B[k, nb*T ..], the result in ar rows AR_C .., a second product in
/// AR_P = MAXDIM + 1 ...
struct GemmLayout {
  std::int64_t a_vr = 0, b_sp = 0, ar_c = 0, ar_p = 0;
};
GemmLayout gemm_layout(const Isa& isa);

/// The shipped GEMM from the loop-nest builder. No checks: pass the result
/// to check_program / assemble. Throws tpugen::Error("program.shape") for a
/// shape the layout cannot express at all (not a multiple of T, zero).
Program gemm_program(const Isa& isa, GemmShape shape, GemmOptions options = {});
/// The same program with every Instr and AGU term written by hand.
Program gemm_program_handwritten(const Isa& isa, GemmShape shape, GemmOptions options = {});
/// Fully unrolled: absolute addresses, no control flow.
Program gemm_program_flat(const Isa& isa, GemmShape shape, GemmOptions options = {});

/// relu(2 * (A @ B)) on the first T x T output tile: two mm (into AR_C and
/// AR_P), vadd, vrelu, mvout.
Program vadd_program(const Isa& isa, GemmShape shape);
/// Varies every field GEMM holds constant: both dma_ld destinations, vld,
/// distinct accumulator regions, vaddrelu, nonzero dram rows and col blocks.
Program vector_program(const Isa& isa);
/// A program that reads an ar row exactly `distance` accu iterations after
/// the write it depends on (legal iff distance >= AR_RAW_DIST).
Program ar_distance_program(const Isa& isa, std::int64_t distance);

}  // namespace tpugen
