/// @file mover_campaign.h
/// @brief The memory mover's fuzz campaign without a simulator: random move
/// cases (a descriptor over a memory image, with the AXI memory's timing),
/// the coverage model they are measured against, the shrinking of a failing
/// case, and its reproducer (MOVE.json, the image and the command that
/// replays it). The RTL and its comparison with the model are the caller's
/// (`tpugen mover fuzz`: tb/sim/mover_engine.h).
///
/// A case aims at one outcome: a fault-free move most of the time, else one
/// of the spec's faults (an element width or mode that does not exist, too
/// few indices, a bound axis on XFORM, a misaligned base or stride, an
/// address out of range, a word outside the image or answered SLVERR). Its
/// geometry: ndim 0 .. 7, counts biased small, strides multiples of the word
/// (negative, zero and page-sized among them), bound axes with padding
/// before and after, a source shorter than the destination (held), bases
/// near a 4 KB page boundary, GATHER with up to INDEX_ENTRIES indices and
/// rows of 1 .. 5 words, XFORM entries through either occupant and packing,
/// every element width and flag pattern.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fuzz/bin_coverage.h"
#include "model/mover/descriptor.h"
#include "model/mover/memory.h"
#include "model/mover/mover_model.h"
#include "spec/system_node_spec.h"
#include "util/rng.h"

namespace tpugen::mover {

/// How the RTL run of a case goes: the AXI memory's timing and the register
/// port the writes take.
struct MoverConditions {
  unsigned latency = 0;       ///< cycles from AR / last W to R / B, beyond the next cycle
  double stall = 0.0;         ///< 0..1: a ready or valid withheld in a cycle
  std::string port = "host";  ///< host, cp or random
  std::uint64_t seed = 1;     ///< the memory's and the ports' randomness
  bool operator==(const MoverConditions&) const = default;
};

/// One case: a move over a memory image.
struct MoverCase {
  MoveDescriptor move;
  std::uint64_t mem_base = 0;
  std::vector<std::uint8_t> image;
  std::vector<std::uint64_t> slverr;  ///< word addresses answered SLVERR
  MoverConditions conditions;
  std::string aim;  ///< the outcome the generator aimed at: "none" or a fault's name

  /// The memory the case runs over (the image and its SLVERR words).
  [[nodiscard]] MoverMemory memory() const;
};

/// The most elements the generator gives a walk (so an RTL run stays short).
inline constexpr std::uint64_t kCaseElements = 768;

/// A case drawn from `rng`.
[[nodiscard]] MoverCase random_case(Rng& rng, const SystemNodeSpec& spec);

/// The mover's coverage model: named bins "family/name", every one a
/// campaign should reach, counted over the cases it runs (their descriptor,
/// conditions and the model's result). Families: mode, fault, ndim (of each
/// walker a mode uses), stride (negative, zero with count > 1, page-sized),
/// pad (an element out of bounds on each walker's each axis; COPY's fill),
/// held (a COPY source shorter than its destination), page (consecutive
/// words across a 4 KB boundary), gather (index counts, rows past 8, G > 1,
/// the full buffer), xform (bypass, quantiser A and B packing, several
/// entries), elem_width, flags (coalesce, every burst cap), conditions
/// (latency, stalls, the control processor's port).
class MoverCoverage : public fuzz::BinCoverage {
 public:
  explicit MoverCoverage(const SystemNodeSpec& spec);
  void add(const MoverCase& c, const MoveResult& model);

 private:
  const SystemNodeSpec* spec_;
};

/// Runs a case and says what went wrong: empty when the RTL agreed with the
/// model (the caller's comparison), else the first difference.
using MoverJudge = std::function<std::string(const MoverCase&)>;

struct MoverShrunk {
  MoverCase c;
  std::string failure;
  int runs = 0;  ///< candidates tried
};

/// Make a failing case smaller while it still fails: plain conditions, fewer
/// dimensions, smaller counts, no bound axes, fewer indices and row words,
/// no flags, no SLVERR words; each candidate kept when `judge` still fails
/// it. At most `budget` candidates.
[[nodiscard]] MoverShrunk shrink_case(const SystemNodeSpec& spec, const MoverCase& c, const std::string& failure,
                                      const MoverJudge& judge, int budget = 120);

/// The command that replays a case written to `dir` (move.json, mem.bin).
[[nodiscard]] std::string replay_command(const MoverCase& c, const std::string& dir, const std::string& inject_bug);

/// Write a case's reproducer: move.json, mem.bin, case.json (the aim, the
/// failure, the conditions, the replay command) and replay.sh.
void write_reproducer(const SystemNodeSpec& spec, const MoverCase& c, const std::string& failure,
                      const std::string& dir, const std::string& inject_bug);

}  // namespace tpugen::mover
