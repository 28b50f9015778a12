/// @file tinytpu_unit_model.h
/// @brief The TinyTPU core as a compute unit, the reference model of its
/// datapath behind the CU wrapper (spec/compute_units.yaml, unit tinytpu;
/// docs/compute_units.md). Its memory traffic is flits to its memory-agent
/// port, exactly the requests the RTL unit makes, and its answers come back
/// through receive():
///   LOAD   MEM_RD_REQ streams of one-word entries, tagged from the `own`
///          range (one request a round of the tags), into imem from word 0;
///   RUN    A's m rows and B's k rows by MEM_RD_REQ streams tagged A + row
///          and B + row, in the order the unit's GEMM program reads them,
///          the first word column first: word 0 of B's first T rows, of
///          A's rows, of the rest of B's, then the other words of A's rows
///          and of B's (one strided stream each, a row an entry; the peers
///          of a_peer/b_peer on each), unless a_recv / b_recv says a peer's
///          multicast brings them. Where a peer brings A, the rest of B's
///          first words wait for A's first words, and B's other words for
///          all of A, as the RTL's do. When every row is in, the core (the
///          bit-exact core model) runs the program in imem on A and B with
///          zeros outside the block; C's words the core stored bytes of
///          inside the block go out as MEM_WR_REQ bursts, a word stored only
///          in part read first (tag `own`) and merged;
///   STATUS a counter.
/// Faults by the unit's fault codes (UNKNOWN_OPCODE, MISALIGNED, GEOMETRY,
/// MEMORY when an ERROR flit answers a request, CORE when the core refuses
/// the program, ROW_TWICE when a multicast row arrived twice unused,
/// ROWS_MISSING, NO_PROGRAM for a RUN before a LOAD retired).
///
/// Rows arrive into the A and B buffers whenever they come (a peer may read
/// for this unit before its RUN starts); a RUN consumes them. The core
/// model's refusal of a program has no fault code of the core's, so a CORE
/// fault's detail is 0 here: a comparison with the RTL holds its code only.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "isa/instr.h"
#include "model/cu/cu_base_model.h"
#include "model/mover/word.h"
#include "spec/system_node_spec.h"

namespace tpugen::cu {

/// What the unit has done since construction (its CU_CTRL COUNTERS are `runs`).
struct TinyTpuCounters {
  std::uint64_t loads = 0, runs = 0, statuses = 0, faults = 0;
  std::uint64_t requests = 0;       ///< MEM_RD_REQ and MEM_WR_REQ sent
  std::uint64_t words_read = 0;     ///< MEM_RD_RESP taken
  std::uint64_t words_written = 0;  ///< MEM_WR_DATA sent
  std::uint64_t merges = 0;         ///< C words read, merged and written back
};

class TinyTpuUnitModel final : public UnitModel {
 public:
  /// The unit at node `at` sending its memory requests to `agent`. `isa`,
  /// `codec` and the specs must outlive it. Throws Error("cu.spec") or
  /// Error("cu.constraint") when the specs or the core's parameters do not
  /// give the unit what it needs.
  TinyTpuUnitModel(const Isa& isa, const ComputeUnitsSpec& spec, const SystemNodeSpec& sysnode,
                   const noc::Codec& codec, noc::Coord at, noc::Coord agent);

  void start(const noc::Flit& inst) override;
  std::optional<ExecOutcome> poll(std::vector<noc::Flit>& out) override;
  void receive(const noc::Flit& f) override;
  void data_write(std::uint32_t buf, std::uint32_t granule, const noc::Flit& data) override;
  [[nodiscard]] std::uint64_t counters() const override { return counters_.runs; }
  [[nodiscard]] std::uint64_t dbg() const override { return last_fault_; }

  [[nodiscard]] const TinyTpuCounters& stats() const { return counters_; }
  /// The wait limit ran out (the system is quiet and nothing more can come):
  /// a RUN waiting for a peer's rows faults ROWS_MISSING. True when it did.
  bool expire();
  /// Why the current instruction waits (empty when it does not): for a
  /// host's timeout message.
  [[nodiscard]] std::string waiting_for() const;

 private:
  enum class Phase { Idle, Load, Rows, Merge, Write, Done };
  /// A read request in flight: the words still to come.
  struct Pending {
    std::uint32_t txn = 0;    ///< the request's
    std::uint32_t count = 1;  ///< the txns it answers with: its own and the count - 1 after it
    int words = 0;
  };
  /// One operand buffer (A or B): MAXDIM rows of ROW_WORDS words, each word
  /// with its arrival flag (cleared when a RUN consumes the row).
  struct Buffer {
    std::vector<mover::MoverWord> words;
    std::vector<bool> arrived;
    std::optional<std::uint32_t> twice;  ///< a tag that arrived a second time unused
  };

  std::uint64_t field(const noc::Flit& inst, const UnitField& f) const;
  std::uint64_t value_of(const noc::Flit& inst, const UnitOpcode& op, std::string_view name) const;
  [[nodiscard]] std::uint32_t fault_result(std::string_view fault, std::uint32_t detail) const;
  void finish(ExecOutcome o);
  void fail(std::string_view fault, std::uint32_t detail) { finish({fault_result(fault, detail), true}); }
  noc::Flit request(std::uint32_t type, std::uint32_t txn, std::uint64_t addr) const;
  /// A stream of `count` entries of `entry_words` words, `stride` words apart
  /// (0: consecutive), numbered from `first_word` in their row.
  struct StreamGeometry {
    int count = 1, entry_words = 1, stride = 0, first_word = 0;
  };
  void read_stream(std::uint64_t addr, StreamGeometry g, std::uint32_t txn, const noc::Flit& inst,
                   const UnitField* npeer, const UnitField* peer, std::vector<noc::Flit>& out);
  void start_load(const noc::Flit& inst);
  void start_run(const noc::Flit& inst);
  void issue_load(std::vector<noc::Flit>& out);
  /// RUN's read of phase `p` (0 .. 4: see the .cpp): of A (operand 0) or B,
  /// rows [first, end), entry_words a row from first_word on; entry_words 0:
  /// nothing to read (a peer brings it, or no such rows or words).
  struct RunRead {
    int operand = 0, first = 0, end = 0, entry_words = 0, first_word = 0;
  };
  [[nodiscard]] RunRead run_read(int p) const;
  void issue_phase(int p, std::vector<noc::Flit>& out);  ///< run_read(p)'s stream, unless it reads nothing
  [[nodiscard]] bool col0_a_in() const;                  ///< word 0 of A's rows is in
  [[nodiscard]] bool rows_in() const;
  [[nodiscard]] bool a_in() const;  ///< A's m rows are in
  /// The program in imem begins with an opcode the spec does not define.
  [[nodiscard]] bool first_opcode_undefined() const;
  void compute();
  void issue_merges(std::vector<noc::Flit>& out);
  void issue_writes(std::vector<noc::Flit>& out);

  const Isa* isa_;
  const UnitSpec* unit_;
  const noc::Codec* codec_;
  noc::Coord at_, agent_;
  UnitConstants k_;
  int maxdim_ = 0, t_ = 0, row_words_ = 0, imem_size_ = 0, write_max_len_ = 7;
  const NocField* fault_code_ = nullptr;
  std::uint32_t t_rd_req_ = 0, t_wr_req_ = 0, t_wr_data_ = 0, t_rd_resp_ = 0, t_wr_ack_ = 0, t_error_ = 0;
  std::uint32_t axi_rule_ = 0;

  std::vector<std::uint64_t> imem_;
  Buffer a_, b_;
  std::uint64_t loaded_ = 0, last_fault_ = 0;
  bool program_ = false;  ///< imem holds a program: a LOAD retired, or CU_DATA wrote it

  // The current instruction.
  Phase phase_ = Phase::Idle;
  std::optional<noc::Flit> inst_;
  std::optional<ExecOutcome> outcome_;
  std::deque<Pending> pending_;  ///< reads in flight, in the order they were sent (and are answered: one agent port)
  int acks_left_ = 0;                         ///< writes in flight
  std::optional<std::uint32_t> memory_fault_;
  // LOAD
  std::uint64_t load_addr_ = 0;
  int load_words_ = 0, load_next_ = 0;  ///< 64-bit words in all, and the next mesh word to request
  int load_base_ = 0;                   ///< the mesh word the `own` tags' first entry starts at
  // RUN
  std::uint64_t addr_[3] = {};
  int stride_[3] = {}, m_ = 0, k_dim_ = 0, n_ = 0;
  bool recv_[2] = {};
  int next_phase_ = 0;     ///< RUN's next read phase to issue (5: none left)
  bool run_used_ = false;  ///< a RUN past its checks: its rows' arrival is cleared when it ends
  std::vector<std::uint8_t> c_bytes_;   ///< the block's C, MAXDIM x MAXDIM, row-major
  std::vector<bool> c_stored_;          ///< which bytes the core stored
  std::map<std::uint64_t, mover::MoverWord> c_words_;  ///< C words to write, by address
  std::map<std::uint64_t, std::uint32_t> c_mask_;      ///< their stored bytes, a bit each
  std::map<std::uint32_t, std::uint64_t> merge_tag_;   ///< a merge read's txn -> its word address
  std::uint32_t run_result_ = 0;
  TinyTpuCounters counters_;
};

}  // namespace tpugen::cu
