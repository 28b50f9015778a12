/// @file cu_stress.h
/// @brief Retirement under stress (`tpugen noc cu-fuzz`): random CU_INST
/// programs for every TinyTPU unit of a system at once, the coverage they are
/// measured against, and the verdict on a run of them. The runs themselves
/// (the system model and the RTL, each driven by the same host) are the
/// caller's; a case is a pure function of the system's shape and its seed.
///
/// A case gives each unit one program of 1 .. kMaxProgram instructions, all
/// dispatched at once on channels of their own, with `last` on the final one
/// mostly (and sometimes on others, or on none), drawn from:
///   - STATUS of every select, and selects no counter has (GEOMETRY);
///   - opcodes the unit does not know (UNKNOWN_OPCODE), 0 among them;
///   - LOAD of the unit's random program (the core fuzzer's legal programs,
///     tb/fuzz/core/random_program.h), and LOADs that fault: misaligned,
///     more words than IMEM_SIZE, an address past memory (MEMORY); and LOAD
///     of the same image with an opcode the spec does not define in its first
///     instruction, which a RUN then faults (CORE: the core stops at once);
///   - RUN of whatever imem holds on the unit's A and B (the random
///     program's operands) into its C, with random m, k, n and row strides,
///     and RUNs that fault: before any LOAD (NO_PROGRAM), misaligned, m past
///     MAXDIM, C past memory (MEMORY), A promised by a peer that never sends
///     it (ROWS_MISSING, after WAIT_LIMIT);
/// and, in one case in six, more dispatch credits than the unit's
/// INST_DEPTH (credit exhaustion: an instruction that finds the FIFO full
/// retires at once as INST_OVERFLOW). Memory has latency and stalls; the
/// units' traffic crosses on the mesh. No RUN multicasts: whether a peer's
/// rows land before or during a receiver's own RUN is timing, which the
/// model does not keep.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/bin_coverage.h"
#include "isa/instr.h"
#include "model/cu/cu_program.h"
#include "noc/codec.h"
#include "noc/placement.h"
#include "spec/compute_units_spec.h"
#include "util/rng.h"

namespace tpugen::cu {

/// The most instructions a unit's program has.
inline constexpr int kMaxProgram = 12;

/// The memory a case draws (StressConditions): latency 0, or 1 .. kMaxLatency
/// cycles; kManyReads or kManyReadsMax read bursts accepted at once, or in
/// one case in four 1 .. kFewReadsMax (a memory that takes one or two reads
/// at a time, its ARREADY low behind them) at a latency of at most
/// kFewReadsLatency.
inline constexpr unsigned kMaxLatency = 24;
inline constexpr unsigned kManyReads = 8;
inline constexpr unsigned kManyReadsMax = 64;
inline constexpr unsigned kFewReadsMax = 3;
inline constexpr unsigned kFewReadsLatency = 3;

/// The cycles a one-word read takes, stalls aside, in the slowest memory a
/// case draws: one-beat bursts, `reads` at a time, each answered latency + 2
/// cycles after its AR (rounded up).
[[nodiscard]] unsigned stress_word_cycles();

/// The WAIT_LIMIT a campaign builds its units with (a ROWS_MISSING case
/// ends after it; the core's watchdog is twice it): it must outlast the
/// longest wait a legal RUN has, the core waiting for the last word of its
/// block while every unit streams its own (A and B of MAXDIM x MAXDIM each)
/// through the slowest memory drawn. Twice that: 2 x units x block words x
/// stress_word_cycles(), at least 64.
[[nodiscard]] std::int64_t stress_wait_limit(std::int64_t maxdim, std::int64_t word_bytes, std::size_t units);

/// What a case is drawn for: the system and its build.
struct StressShape {
  const Isa* isa = nullptr;
  const ComputeUnitsSpec* cu = nullptr;
  const noc::Codec* codec = nullptr;
  noc::SystemLayout layout;
  int inst_depth = 8;              ///< the wrapper's INST_DEPTH
  int prog_flits = 64;             ///< the orchestrator's staging slots (PROG_FLITS)
  std::uint64_t memory_bytes = 0;  ///< behind the agent; 0: what the units' regions take
};

/// How a case's run goes on the RTL.
struct StressConditions {
  unsigned latency = 0;
  double ready_stall = 0.0, valid_stall = 0.0;  ///< the AXI memory's
  unsigned max_reads = 8;                       ///< read bursts the AXI memory accepts and has not answered
  unsigned host_delay = 0;
  double host_stall = 0.0;
  std::uint64_t seed = 1;
};

/// What one instruction of a case is (for coverage and for messages).
/// (A RUN before any LOAD, NO_PROGRAM, is a Run the order makes one.)
enum class StressKind {
  Status,
  BadSelect,
  Unknown,
  Load,
  LoadMisaligned,
  LoadTooLong,
  LoadPastMemory,
  Run,
  RunMisaligned,
  RunTooBig,
  RunPastMemory,
  RunMissingRows,
  LoadBadProgram
};
[[nodiscard]] const char* to_string(StressKind k);

struct StressCase {
  std::uint64_t seed = 0;
  std::vector<std::vector<noc::Flit>> programs;  ///< one per unit, in layout.cores order
  std::vector<std::vector<StressKind>> kinds;    ///< each program's instructions, what they are
  int credits = 0;                               ///< the host's credit cap (> inst_depth: over-credit)
  bool over_credit = false;
  std::vector<std::uint8_t> memory;
  StressConditions conditions;
  [[nodiscard]] std::size_t instructions() const;
};

/// A case drawn from `rng` for `shape`. Throws Error("cu.stress") when the
/// system cannot hold the programs (PROG_FLITS below one instruction a unit).
[[nodiscard]] StressCase random_stress_case(Rng& rng, const StressShape& shape, std::uint64_t seed);

/// One engine's run of a case: each program's end as the host saw it, the
/// flits that reached the orchestrator in order, and memory after.
struct StressRun {
  std::vector<DispatchEnd> ends;
  std::vector<noc::Flit> rx;
  std::vector<std::uint8_t> memory;
  std::vector<std::string> errors;  ///< the run's own (an RTL assertion, a checker), each a failure
};

/// The verdict: empty when both runs hold (each on its own) every
/// instruction retiring exactly once, by the flit whose txn is its own, with
/// SIG_BATCH_COMPLETE's {24'd0, txn} on `last` and SIG_FAULT for a fault,
/// every credit back, each channel's end what its flits say, nothing stray;
/// and (except with over-credit, where which instructions find the FIFO full
/// is timing) the two runs agree flit for flit per unit and byte for byte in
/// memory. Otherwise what broke first, naming the engine, the node and the txn.
[[nodiscard]] std::string judge_stress(const StressShape& shape, const StressCase& c, const StressRun& model,
                                       const StressRun& rtl);

/// A failing case for a human: `dir`/case.json (the failure, the credits,
/// the conditions, each unit's instructions with their kinds), memory.bin
/// (memory before the run) and, per unit, node_X_Y.jsonl: its program as
/// `tpugen noc dispatch --flits` reads it. Throws Error("cu.io").
void write_stress_case(const StressShape& shape, const StressCase& c, const std::string& failure,
                       const std::string& dir);

/// The campaign's coverage: kind/<each StressKind>, fault/<each unit fault
/// code but ROW_TWICE, and the wrapper's INST_OVERFLOW> (seen on
/// the RTL), signal/<each
/// retirement signal>, end/<DONE, FAULT, ENDED>, case/<over_credit, latency,
/// few_reads, stalls, host_pace>.
class StressCoverage : public fuzz::BinCoverage {
 public:
  explicit StressCoverage(const StressShape& shape);
  void add(const StressShape& shape, const StressCase& c, const StressRun& rtl);
};

}  // namespace tpugen::cu
