/// @file orchestrator_model.h
/// @brief The orchestrator's reference model (spec/compute_units.yaml
/// orchestrator; docs/compute_units.md): the host's AXI4-Lite accesses (one
/// whole 64-bit register each) in, the flits it sends out, the flits that
/// come back in. Registers, staging slots, the mover window (passed to the
/// hooks the system gives it), the channels and their dispatch, the
/// completion counters and the interrupt are the spec's, by name.
///
/// Dispatch: a taken PROG_KICK puts its channel in SENDING with PROG_BASE,
/// PROG_LEN, PROG_DST and PROG_CRED as they are; next() sends one flit of a
/// SENDING channel with a credit in hand (round robin over the channels),
/// the staged header with dst stamped from the channel's node and src with
/// the orchestrator's own, everything else unchanged. A retirement flit
/// (SIG_INST_COMPLETE, SIG_BATCH_COMPLETE, SIG_FAULT) from a node returns a
/// credit to the lowest busy channel serving that node with a flit
/// unretired; anything else counts in STRAY. A channel ends when every flit
/// retired: FAULT when one faulted, else DONE when one was the batch's
/// completion, else ENDED. A fault does not stop the dispatch (what is sent
/// does not depend on when a retirement comes back).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "noc/codec.h"
#include "spec/compute_units_spec.h"

namespace tpugen::cu {

/// The mover's register port behind the window: a write, and a read's value.
struct MoverWindow {
  std::function<void(std::uint32_t offset, std::uint64_t value)> write;
  std::function<std::uint64_t(std::uint32_t offset)> read;
};

/// One channel's state, as CH_STAT and CH_LAST show it.
struct ChannelState {
  std::uint32_t state = 0;  ///< a channel_states code
  noc::Coord dst;
  std::uint32_t base = 0, len = 0, credits = 0, sent = 0, retired = 0;
  bool fault = false;  ///< a SIG_FAULT came back
  bool batch = false;  ///< a SIG_BATCH_COMPLETE came back
  std::uint32_t last_code = 0, last_txn = 0, last_arg = 0;
};

class OrchestratorModel {
 public:
  /// At node `at` of an nx x ny mesh, with its build parameters. Throws
  /// Error("cu.spec") when the specs lack what it needs.
  OrchestratorModel(const ComputeUnitsSpec& spec, const noc::Codec& codec, noc::Coord at, int nx, int ny,
                    const NocParams& params, MoverWindow mover = {});

  /// A host write / read at a byte offset (8-byte aligned; others are ignored / read 0).
  void write(std::uint32_t offset, std::uint64_t value);
  [[nodiscard]] std::uint64_t read(std::uint32_t offset) const;

  /// The next flit to send, if any (a dispatch or a CU_CTRL read).
  std::optional<noc::Flit> next();
  /// A flit the mesh delivers.
  void accept(const noc::Flit& in);

  [[nodiscard]] bool irq() const;
  [[nodiscard]] const ChannelState& channel(int c) const { return channels_.at(static_cast<std::size_t>(c)); }
  [[nodiscard]] int channels() const { return static_cast<int>(channels_.size()); }
  [[nodiscard]] noc::Coord at() const { return at_; }
  /// The name of a channel state code.
  [[nodiscard]] const std::string& state_name(std::uint32_t code) const;
  [[nodiscard]] std::uint32_t state_code(std::string_view name) const { return spec_->require_state(name).code; }
  /// A staged slot's flit as the host wrote it.
  [[nodiscard]] noc::Flit slot(std::uint32_t s) const { return slots_.at(s); }

 private:
  [[nodiscard]] std::uint32_t field_of(const char* reg, const char* field, std::uint64_t v) const;
  void kick(std::uint64_t value);
  void end(ChannelState& c, const char* state);

  const OrchestratorSpec* spec_;
  const noc::Codec* codec_;
  noc::Coord at_;
  int nx_ = 1, ny_ = 1;
  MoverWindow mover_;
  std::vector<noc::Flit> slots_;
  std::vector<ChannelState> channels_;
  std::uint64_t prog_base_ = 0, prog_len_ = 0, prog_dst_ = 0, prog_cred_ = 0;
  std::uint32_t kick_error_ = 0;
  std::uint32_t done_bits_ = 0, fault_bits_ = 0;
  std::uint64_t batches_ = 0, retirements_ = 0, stray_signals_ = 0, stray_errors_ = 0;
  std::uint64_t irq_enable_ = 0, irq_status_ = 0;
  std::optional<noc::Flit> ctrl_out_;
  bool ctrl_pending_ = false, ctrl_valid_ = false;
  std::uint64_t ctrl_value_ = 0;
  int rr_ = 0;
  std::uint32_t t_signal_ = 0, t_ctrl_ = 0, t_error_ = 0;
  std::uint32_t sig_inst_ = 0, sig_batch_ = 0, sig_fault_ = 0, ctrl_read_ = 0, ctrl_reply_ = 0;
};

}  // namespace tpugen::cu
