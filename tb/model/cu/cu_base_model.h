/// @file cu_base_model.h
/// @brief The CU wrapper's reference model (spec/compute_units.yaml cu_base;
/// seed 003 §2, §6; the notes' credits contract): the flits the mesh
/// delivers to a compute unit's node in, the flits the node sends out. It
/// steers by type as the spec's steering table says (CU_INST to the
/// instruction queue, CU_CTRL and CU_DATA to the wrapper, the rest to the
/// unit), hands instructions to the unit one at a time in order, and
/// retires each exactly once by the spec's retirement table: SIG_FAULT
/// (exec_result) when it faulted, SIG_BATCH_COMPLETE ({24'd0, txn}) when it
/// carried `last`, SIG_INST_COMPLETE (exec_result) otherwise; the flit goes
/// to the instruction's src, txn the instruction's, `last` 1. A CU_INST that
/// arrives while INST_DEPTH instructions are taken and not yet retired is
/// retired at once as INST_OVERFLOW, never executed.
///
/// Timing. The model is untimed: an instruction runs as soon as it reaches
/// the head and its unit can advance. Which instruction of an over-credited
/// program overflows depends on timing, so a comparison with the RTL on one
/// holds the contract (every instruction retires once, every credit comes
/// back), not flit for flit.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "noc/codec.h"
#include "spec/compute_units_spec.h"

namespace tpugen::cu {

/// How an instruction ended: exec_result and exec_fault at exec_done.
struct ExecOutcome {
  std::uint32_t result = 0;
  bool fault = false;
};

/// A unit's datapath as the wrapper sees it: the model's counterpart of what
/// plugs into tpu_noc_cu_base.
class UnitModel {
 public:
  virtual ~UnitModel() = default;
  /// Take the next instruction (the CU_INST flit as delivered).
  virtual void start(const noc::Flit& inst) = 0;
  /// Advance the current instruction as far as it can go without a flit
  /// from outside: the flits it sends go to `out`; its outcome once it is done.
  virtual std::optional<ExecOutcome> poll(std::vector<noc::Flit>& out) = 0;
  /// A flit the wrapper steered to the unit (the unit's own traffic).
  virtual void receive(const noc::Flit& f) = 0;
  /// One CU_DATA granule: `data`'s payload into buffer `buf` at `granule`.
  virtual void data_write(std::uint32_t buf, std::uint32_t granule, const noc::Flit& data) = 0;
  [[nodiscard]] virtual std::uint64_t counters() const = 0;
  [[nodiscard]] virtual std::uint64_t dbg() const = 0;
};

/// What the wrapper has done since construction.
struct CuBaseCounters {
  std::uint64_t instructions = 0;  ///< CU_INST flits taken
  std::uint64_t retired = 0;       ///< retirement flits sent (one each)
  std::uint64_t overflows = 0;     ///< of them INST_OVERFLOW
  std::uint64_t faults = 0;        ///< SIG_FAULT sent
  std::uint64_t ctrl_reads = 0;
  std::uint64_t data_flits = 0;    ///< CU_DATA data flits written
};

class CuBaseModel {
 public:
  /// The wrapper at node `at` around `unit`, whose CAPS come from `caps`.
  /// Throws Error("cu.spec") when the specs lack what it needs.
  CuBaseModel(const ComputeUnitsSpec& spec, const noc::Codec& codec, noc::Coord at, const NocParams& params,
              const UnitSpec& caps, UnitModel& unit);

  /// A flit the mesh delivers; the flits the node sends in answer, in order.
  std::vector<noc::Flit> accept(const noc::Flit& in);
  /// Let the unit advance with nothing delivered (retirements and its own traffic).
  std::vector<noc::Flit> poll();

  [[nodiscard]] noc::Coord at() const { return at_; }
  [[nodiscard]] const CuBaseCounters& counters() const { return counters_; }
  /// Instructions taken and not yet retired (queued or executing).
  [[nodiscard]] std::size_t outstanding() const { return queue_.size() + (current_ ? 1 : 0); }
  /// An instruction is executing and cannot advance without a flit from outside.
  [[nodiscard]] bool waiting() const { return current_.has_value(); }
  /// The txn of the executing instruction (when waiting()).
  [[nodiscard]] std::uint32_t current_txn() const;

 private:
  [[nodiscard]] noc::Flit signal(noc::Coord to, std::uint32_t txn, std::uint32_t code, std::uint32_t arg) const;
  void retire(const noc::Flit& inst, ExecOutcome o, std::vector<noc::Flit>& out);
  void ctrl(const noc::Flit& in, std::vector<noc::Flit>& out) const;
  void data(const noc::Flit& in, std::vector<noc::Flit>& out);
  void advance(std::vector<noc::Flit>& out);

  enum class Steer { Inst, Wrapper, Unit };
  const noc::Codec* codec_;
  noc::Coord at_;
  UnitModel* unit_;
  std::vector<Steer> steer_;  ///< by type code
  std::size_t depth_ = 1;
  std::uint32_t overflow_result_ = 0;
  std::uint32_t t_inst_ = 0, t_ctrl_ = 0, t_data_ = 0, t_signal_ = 0;
  std::uint32_t sig_inst_ = 0, sig_batch_ = 0, sig_fault_ = 0, sig_data_ = 0;
  std::uint32_t ctrl_read_ = 0, ctrl_reply_ = 0;
  std::uint64_t caps_ = 0;
  int reg_caps_ = 0, reg_status_ = 1, reg_counters_ = 2, reg_dbg_ = 3;
  noc::FieldRef status_busy_, status_error_, status_space_;
  bool error_ = false;
  std::deque<noc::Flit> queue_;
  std::optional<noc::Flit> current_;
  /// An open CU_DATA transfer: its descriptor and the data flits still to come.
  struct Transfer {
    std::uint32_t buf = 0, granule = 0, left = 0;
    bool signal = false;
    noc::Coord ack;
  };
  std::optional<Transfer> transfer_;
  CuBaseCounters counters_;
};

}  // namespace tpugen::cu
