/// @file mesh_model.h
/// @brief The NoC's cycle-accurate delivery model: the generated mesh
/// (tpu_noc_mesh of tpu_noc_router, tpu_fifo, tpu_rr_arb and tpu_out_reg)
/// run cycle by cycle, so that the RTL's run log (tb/sim/noc_engine.h) must
/// equal the model's flit for flit and cycle for cycle (noc_run.h).
///
/// Every cycle is evaluated from the registered state at its start and
/// committed at its end, as the flip-flops do: an input FIFO's ready is "not
/// full at the start of the cycle", an output register hands its flit over
/// when the receiver is ready, each output's round-robin arbiter grants one
/// head when its register has room, and the local input takes the admitted
/// flit (noc/endpoint.h: admit()). Cycle 0 is the first cycle after reset.
#pragma once

#include <cstdint>
#include <vector>

#include "model/noc/noc_run.h"
#include "spec/noc_spec.h"

namespace tpugen::noc {

/// What the model measures of a run that the run log does not carry.
struct MeshModelStats {
  /// The most grants any output gave to other inputs while one input's head
  /// kept asking for it: tpu_rr_arb's fairness counter (passed_q), which the
  /// RTL asserts stays below the number of ports.
  std::uint64_t max_grants_waited = 0;
  /// Flits that crossed a link from one router to its neighbour.
  std::uint64_t link_transfers = 0;
};

/// Run the mesh of `params` (NX, NY, DEPTH, ROUTING) on `traffic` under
/// `cond` until every flit is delivered ("done"), nothing moves for
/// cond.watchdog cycles while flits are in flight ("stalled"; a watchdog of
/// 0 never fires) or cond.max_cycles pass ("timeout"). A stalled run's
/// `stuck` names every input FIFO and output register that holds a flit, by
/// node, a node's inputs in port order and then its outputs, as "router
/// (x,y) input P (head for (dx,dy))" and "router (x,y) output P (a flit for
/// (dx,dy))" (the RTL harness's names, from the mesh's wait_o and hold_o,
/// leave out the destination). sim_seconds and
/// cycles_per_second time the cycles alone, as the RTL harness does, not
/// the set-up: the routes, and each flit's admission by the local check (a
/// function of the flit and its node alone). `stats`, when given, receives
/// the model's statistics (keeping the fairness counters costs a little).
/// Throws Error("noc.traffic") for an injection at a node outside the mesh,
/// and Error("noc.spec") for a spec the RTL could not be built from as
/// modelled: more than 8 ports, a routing whose output depends on the input
/// port (tpu_noc_route reads the destination alone), or error rules that
/// let a flit for outside the mesh in.
[[nodiscard]] RunLog run_mesh_model(const NocSpec& spec, const NocParams& params,
                                    const std::vector<Injection>& traffic, const RunConditions& cond,
                                    MeshModelStats* stats = nullptr);

}  // namespace tpugen::noc
