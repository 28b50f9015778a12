/// @file agent_campaign.h
/// @brief The memory agent's fuzz campaign without a simulator: random
/// request mixes (every port's flits with their gaps, over a memory image,
/// with the AXI memory's timing and the outputs' backpressure), the coverage
/// model they are measured against, the shrinking of a failing case (flits
/// dropped), and its reproducer (case.json and mem.bin, replayed by `tpugen
/// agent fuzz --replay`). The RTL and its comparison with the model are the
/// caller's (`tpugen agent fuzz`: tb/sim/agent_engine.h).
///
/// A case: each port has 1 .. 4 sources (nodes of their own), each sending
/// a random list of messages, interleaved flit by flit across the port's
/// sources: plain reads (1 .. 8 beats, sometimes up to 64), stream reads
/// (every entry_words code class: 0, 1 .. 4, above 4; count 0 .. 6; 0 .. 3
/// peers), writes (1 .. 8 beats, their data interleaved with other sources'
/// flits, other requests between them), and bad input: every request rule
/// (TYPE_NOT_SERVED with every other type, ADDRESS_NOT_SERVED by the
/// aperture, the mesh bits, a run out of the served space or past 2^ADDR_W,
/// MISALIGNED, WRITE_TOO_LONG with its data, WRITE_OPEN inside a write), a
/// `last` that disagrees, stray data, ERROR flits in, reads and writes of
/// words memory answers SLVERR or DECERR, runs across 4 KB pages. Every port
/// writes only a region of its own, and nothing reads what is written
/// (agent_run.h). A sixth of the ports have one source more than WR_SLOTS, so
/// that writes find every slot open (WRITE_SLOTS_FULL).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fuzz/bin_coverage.h"
#include "model/agent/agent_run.h"
#include "noc/codec.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"
#include "util/rng.h"

namespace tpugen::agent {

/// How the RTL run of a case goes.
struct AgentConditions {
  unsigned latency = 0;              ///< cycles from AR / last W to R / B, beyond the next cycle
  double stall = 0.0;                ///< 0..1: a ready or valid of the memory withheld in a cycle
  std::vector<double> backpressure;  ///< per port, 0..1: the output not ready in a cycle
  std::uint64_t seed = 1;            ///< the memory's and the backpressure's randomness
  bool operator==(const AgentConditions&) const = default;
};

/// One case.
struct AgentCase {
  AgentStimulus stimulus;
  AgentConditions conditions;
};

/// What the generator needs of the configuration.
struct AgentCaseShape {
  int ports = 1;     ///< MEM_PORTS
  int wr_slots = 4;  ///< WR_SLOTS
};
[[nodiscard]] AgentCaseShape case_shape(const NocParams& agent_params);

/// A case drawn from `rng`.
[[nodiscard]] AgentCase random_case(Rng& rng, const SystemNodeSpec& spec, const noc::Codec& codec,
                                    const AgentCaseShape& shape);

/// The agent's coverage model: named bins "family/name" a campaign should
/// reach, counted over its cases (their stimulus, conditions and the
/// models' results). Families: rule (every error rule answered, by name),
/// read (plain, stream, long, across a page), stream (each E, count > 1,
/// each number of peers), write (acknowledged, eight beats, interleaved
/// between sources, every slot open at once), data (stray, discarded, `last`
/// mismatch), input (an ERROR flit dropped), ports (flits on every port),
/// conditions (latency, stalls, backpressure).
class AgentCoverage : public fuzz::BinCoverage {
 public:
  AgentCoverage(const SystemNodeSpec& spec, const AgentCaseShape& shape);
  void add(const noc::Codec& codec, const AgentCase& c, const AgentExpectation& model);

 private:
  int wr_slots_ = 4;
};

/// Runs a case and says what went wrong: empty when the RTL agreed with the
/// model (the caller's comparison), else the first difference.
using AgentJudge = std::function<std::string(const AgentCase&)>;

struct AgentShrunk {
  AgentCase c;
  std::string failure;
  int runs = 0;  ///< candidates tried
};

/// Make a failing case smaller while it still fails: plain conditions, no
/// gaps, no SLVERR words, a port's flits all dropped, then runs of flits
/// dropped (halves, quarters, ... single flits), each candidate kept when
/// `judge` still fails it. At most `budget` candidates.
[[nodiscard]] AgentShrunk shrink_case(const AgentCase& c, const std::string& failure, const AgentJudge& judge,
                                      int budget = 200);

/// The command that replays a case written to `dir`.
[[nodiscard]] std::string replay_command(const std::string& dir, const NocParams& agent_params,
                                         const std::string& inject_bug);

/// Write a case's reproducer: case.json (the conditions, the ports' flits,
/// the memory's base and SLVERR words, the failure, the replay command),
/// mem.bin and replay.sh.
void write_reproducer(const noc::Codec& codec, const AgentCase& c, const std::string& failure, const std::string& dir,
                      const NocParams& agent_params, const std::string& inject_bug);

/// Read a reproducer back (case.json and the mem.bin beside it); `path` is
/// the directory or its case.json. Throws Error("fuzz.case") naming what is
/// wrong.
[[nodiscard]] AgentCase read_case(const noc::Codec& codec, const std::string& path);

/// The number of flits of a case, all ports.
[[nodiscard]] std::size_t case_flits(const AgentCase& c);

}  // namespace tpugen::agent
