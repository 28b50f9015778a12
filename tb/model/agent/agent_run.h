/// @file agent_run.h
/// @brief The memory agent's reference model over a whole stimulus: the
/// flits each of the agent's MEM_PORTS ports takes in (in the order it takes
/// them, with the idle cycles before each, which the model ignores), over one
/// memory image, each port an agent of its own (one AgentModel a port, all
/// over the same memory; docs/mem_agent.md). What it gives is what the RTL is
/// held to: per port, the answers grouped as the comparison contract groups
/// them (AnswerStreams), the counters, and the memory after the run.
///
/// The ports share the memory and nothing orders them, so a stimulus whose
/// ports touch a word that one of them writes (or that reads a word a write
/// of the same port has not yet left, AR and AW being separate channels) has
/// timing-dependent data: the stimuli the fuzzer draws keep every port's
/// writes in a region of its own and never read what is written.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "model/agent/agent_model.h"
#include "model/mover/memory.h"
#include "noc/codec.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"

namespace tpugen::agent {

/// A flit offered to a port `gap` idle cycles after the one before it was taken.
struct AgentFlit {
  unsigned gap = 0;
  noc::Flit flit;
  bool operator==(const AgentFlit&) const = default;
};

/// One port: its node and the flits it takes, in order.
struct AgentPortInput {
  noc::Coord node;
  std::vector<AgentFlit> flits;
  bool operator==(const AgentPortInput&) const = default;
};

/// Every port's flits, over a memory image [mem_base, mem_base + image size)
/// (a word outside it answers DECERR) with words answered SLVERR.
struct AgentStimulus {
  std::vector<AgentPortInput> ports;
  std::uint64_t mem_base = 0;
  std::vector<std::uint8_t> image;
  std::vector<std::uint64_t> slverr;  ///< word addresses
  [[nodiscard]] mover::MoverMemory memory() const;
  [[nodiscard]] std::size_t flits() const;
};

/// What the model gives for a stimulus.
struct AgentExpectation {
  std::vector<AnswerStreams> streams;   ///< per port
  std::vector<AgentCounters> counters;  ///< per port
  std::vector<std::size_t> flits_out;   ///< per port: the flits it sends
  mover::MoverMemory memory;            ///< after the run
  /// Word addresses whose value after the run is implementation-dependent:
  /// the words of every MEM_WR_REQ that names a word memory answers with an
  /// error (the model's "what such a write leaves in memory").
  std::set<std::uint64_t> unsettled;
};

/// Run one model a port (port p at its node, with `params`: the agent's
/// build parameters) over the stimulus's memory. Throws what AgentModel's
/// constructor throws (a spec the model cannot read, a node that is no
/// coordinate).
AgentExpectation expect_agent_run(const SystemNodeSpec& spec, const noc::Codec& codec, const NocParams& params,
                                  const AgentStimulus& stimulus);

}  // namespace tpugen::agent
