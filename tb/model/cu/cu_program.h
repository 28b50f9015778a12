/// @file cu_program.h
/// @brief The host's side of compute units: CU_INST flits built by the
/// unit's field names (spec/compute_units.yaml), a GEMM split into blocks the
/// TinyTPU units can run, and the host's sequence of orchestrator accesses
/// that stages and dispatches programs and waits for their ends. One host
/// drives the model and the RTL alike, through HostPort.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "isa/instr.h"
#include "isa/programs.h"
#include "model/cu/cu_system_model.h"
#include "model/npy.h"

namespace tpugen::cu {

/// A CU_INST payload of `unit`'s opcode `op` with `fields` set by name (an
/// element of a repeated field as "a_peer[1].x"). Throws Error("cu.field")
/// naming the field for a name the opcode lacks or a value that does not fit.
noc::Flit cu_inst(const UnitSpec& unit, const noc::Codec& codec, std::string_view op,
                  const std::map<std::string, std::uint64_t>& fields, std::uint32_t txn, bool last);

/// One block of C a unit computes: rows m0 .. m0+mb-1, columns n0 .. n0+nb-1,
/// the whole K.
struct GemmBlock {
  int core = 0;
  int m0 = 0, n0 = 0, mb = 0, nb = 0;
  bool a_recv = false, b_recv = false;
  std::vector<noc::Coord> a_peers, b_peers;
};

/// Where the host puts things in memory: A (M x K), B (K x N), C (M x N),
/// each row-major with rows padded to mesh words (the codec's data.word,
/// 32 bytes in the shipped spec); the program images after.
struct GemmPlan {
  GemmShape shape;
  int word_bytes = 0;                            ///< bytes of a mesh word
  std::uint64_t a_addr = 0, b_addr = 0, c_addr = 0;
  int a_stride = 0, b_stride = 0, c_stride = 0;  ///< mesh words a row
  std::uint64_t end = 0;                         ///< the first byte past everything
  std::vector<GemmBlock> blocks;                 ///< in dispatch order per core
  std::map<std::pair<int, int>, std::uint64_t> images;          ///< (mb, nb) -> its image's address
  std::map<std::pair<int, int>, std::vector<std::uint64_t>> image_words;
  std::vector<std::vector<noc::Flit>> programs;  ///< each unit's CU_INST flits (one program a unit)
};

/// Split `shape` over the layout's units: C in blocks of at most MAXDIM x
/// MAXDIM whose column edges are multiples of 32 bytes (so no two units share
/// a word of C), K whole; with one block a unit, an operand several units
/// need is read once and multicast, by the member of each sharing group
/// that spreads the reads most evenly over the units. Throws Error("cu.shape") for a shape no
/// unit can run (K past MAXDIM, a dimension that is not a multiple of T or
/// the 32-byte word, zero).
GemmPlan plan_gemm(const Isa& isa, const ComputeUnitsSpec& spec, const noc::Codec& codec, const noc::SystemLayout& layout,
                   GemmShape shape, std::uint64_t base = 0);

/// The memory image of a plan: A, B, C (prefilled with `c_init`, M x N) and
/// the images; every other byte `fill`.
std::vector<std::uint8_t> gemm_memory(const GemmPlan& plan, const Int8Matrix& a, const Int8Matrix& b,
                                      std::uint8_t fill);

/// C (M x N) as memory holds it.
Int8Matrix gemm_c(const GemmPlan& plan, const std::vector<std::uint8_t>& mem);

/// The host's view of the orchestrator: 64-bit register accesses and a way
/// to let time (or the model) move.
struct HostPort {
  std::function<void(std::uint32_t, std::uint64_t)> write;
  std::function<std::uint64_t(std::uint32_t)> read;
  /// Let the system run; false when nothing more can happen (the model is
  /// quiet, or the RTL's timeout has passed).
  std::function<bool()> advance;
};

/// The host's port onto the model's orchestrator: an advance runs the system
/// until nothing moves, then lets the units' wait limits run out.
HostPort model_port(SystemModel& system);

/// What a host dispatch saw: each channel's end.
struct DispatchEnd {
  int channel = 0;
  noc::Coord node;
  std::string state;  ///< DONE, FAULT, ENDED, or SENDING / WAITING when it did not end
  std::uint32_t credits = 0, sent = 0, retired = 0, len = 0, txn = 0;
};

/// Stage `programs` (one per node, the node's program in `nodes`) into the
/// orchestrator's slots, kick one channel each (credits: the smaller of the
/// program's length and `inst_depth`), and advance until every one ends or
/// advance() gives up.  Throws Error("cu.host") when the programs do not fit
/// the staging slots or the channels.
std::vector<DispatchEnd> host_dispatch(const OrchestratorSpec& spec, const noc::Codec& codec, HostPort& port,
                                       const std::vector<std::vector<noc::Flit>>& programs,
                                       const std::vector<noc::Coord>& nodes, int inst_depth, int prog_flits,
                                       int channels);

}  // namespace tpugen::cu
