#include "hdl/injected_bugs.h"

#include <fmt/format.h>

#include <array>
#include <string>

#include "util/diag.h"

namespace tpugen::hdl {

namespace {
constexpr std::array<InjectedBug, 16> kBugs = {{
    {"pe_product_width", "tpu_pe",
     "the PE's product is one bit short of PRODUCT_BITS: only (-128) * (-128) comes out wrong "
     "(needs both corner operands in one lane product)",
     "assign prod  = act_x * w_x;  // exact: an operand product fits PRODUCT_BITS",
     "assign prod  = ProdW'($signed((ProdW-1)'(act_x * w_x)));  // INJECTED DEFECT: one bit short"},
    {"sat_bound_off_by_one", "tpu_accu",
     "to_operand saturates above OPERAND_MAX + 1 instead of above OPERAND_MAX: a result of exactly "
     "OPERAND_MAX + 1 leaves as OPERAND_MIN (needs a result that lands on the bound)"},
    {"agu_level2_term", "tpu_seq_agu",
     "the last AGU term is ignored when it names loop level 2 (needs every term in use and a nest three deep)",
     "assign term_add[t*FieldW +: FieldW]      = FieldW'(iv) * FieldW'(stride);",
     "assign term_add[t*FieldW +: FieldW]      = (t == tpu_pkg::AGU_TERMS - 1 && 32'(level) == 2) ? '0 :\n"
     "                                               FieldW'(iv) * FieldW'(stride);  // INJECTED DEFECT"},
    {"accu_raw_interlock", "tpu_accu",
     "issue slot b may read an accumulator row in the cycle the ALU stage writes it (needs a read that "
     "follows its write as closely as the contract allows, in a paired instruction)"},
    {"axi_4k_boundary", "tpu_axi_burst",
     "a burst may run past a 4 KB page (needs consecutive requests across a page boundary)",
     "|| (open_next_q[PageW-1:0] == '0);", ";  // INJECTED DEFECT: no page check"},
    {"axi_valid_drop", "tpu_axi_burst",
     "ARVALID and AWVALID fall after one cycle whether or not READY came (needs a stalled address)",
     "    .ready_i(ax_ready_i),", "    .ready_i(1'b1),  // INJECTED DEFECT: drops VALID without READY"},
    {"axi_wlast_early", "tpu_axi_wr", "WLAST on every beat (needs a write burst of two beats or more)",
     "assign w_last_o  = w_final;", "assign w_last_o  = 1'b1;  // INJECTED DEFECT: WLAST on every beat"},
    // The NoC fabric's (tpugen noc gen / run / fuzz --inject-bug).
    {"noc_yx_at_node",
     "tpu_noc_route",
     "the router at node (1, 1) routes YX, every other XY: a flit it sends into y first turns into x at the next "
     "router, a turn XY's crossbar does not have (needs a flit through (1, 1) for another row and column)",
     {},
     {},
     BugTarget::Noc},
    {"noc_arbiter_starves", "tpu_noc_router",
     "no output ever grants its north input: a flit that enters a router from the north waits forever (needs a "
     "flit travelling south)",
     "        assign req[i] = head_valid[i] && head_port[i*P + o] && Built[i*P + o];",
     "        assign req[i] = head_valid[i] && head_port[i*P + o] && Built[i*P + o] &&\n"
     "                        (i != tpu_noc_pkg::PORT_N);  // INJECTED DEFECT: never grants the north input",
     BugTarget::Noc},
    {"noc_fifo_drops_last", "tpu_fifo",
     "a FIFO does not count the item that fills it: that item is lost to the next push, and the FIFO never says "
     "full (needs a FIFO pushed to full)",
     "      count_q <= count_q + CntW'(push) - CntW'(pop);",
     "      count_q <= count_q + CntW'(push && !(count_q == CntW'(Depth - 1) && !pop)) - CntW'(pop);"
     "  // INJECTED DEFECT",
     BugTarget::Noc},
    // The system node's (tpugen mover gen / run / fuzz --inject-bug).
    {"mover_walker_off_by_one", "tpu_mover_walker",
     "a walker counts the coordinate equal to a bound axis's extent as in bounds: the element just past a padded "
     "row is moved instead of skipped (needs a walk that reaches an axis's extent)",
     "(ExtW'(coord_q[a*CoordW +: CoordW]) >= extent_q[a*ExtW +: ExtW]))",
     "(ExtW'(coord_q[a*CoordW +: CoordW]) > extent_q[a*ExtW +: ExtW]))  // INJECTED DEFECT: off by one",
     BugTarget::SystemNode},
    {"mover_philox_rounds", "tpu_mover_philox",
     "the Philox pipeline runs one round fewer than PHILOX_ROUNDS: every GENERATE word is wrong (needs a GENERATE)",
     "localparam int Rounds  = tpu_mover_pkg::PHILOX_ROUNDS;",
     "localparam int Rounds  = tpu_mover_pkg::PHILOX_ROUNDS - 1;  // INJECTED DEFECT: a round short",
     BugTarget::SystemNode},
    {"mover_go_check_missing", "tpu_noc_mover",
     "the GO-time ALIGNMENT check ignores the destination's strides: a destination dimension whose stride is not a "
     "word multiple moves instead of faulting (needs such a stride on a dimension of count > 1)",
     "else if (misaligned(dst_base_q[AlignW-1:0]) || dst_misaligned ||",
     "else if (misaligned(dst_base_q[AlignW-1:0]) || (dst_misaligned && 1'b0) ||  // INJECTED DEFECT: no stride check",
     BugTarget::SystemNode},
    // The system node's memory agent (tpugen agent gen / fuzz --inject-bug).
    {"agent_stream_txn", "tpu_agent_answer",
     "a stream read's flits all carry the request's txn: entry i's should carry txn + i (needs a stream of more than "
     "one entry)",
     "          txn      = req_txn + TxnW'(i_q);",
     "          txn      = req_txn;  // INJECTED DEFECT: the entry index not added", BugTarget::SystemNode},
    {"agent_served_first_word", "tpu_agent_decode",
     "ADDRESS_NOT_SERVED looks at a request's first word only: a run that starts in the served space and leaves it "
     "is served (needs a request of several words across the served space's edge)",
     "  assign run_last = {1'b0, addr_o} + ((AddrW+1)'(span_m1) << AlignW);",
     "  assign run_last = {1'b0, addr_o};  // INJECTED DEFECT: the first word only", BugTarget::SystemNode},
    {"agent_stream_stride", "tpu_agent_port",
     "a stream's entries are read one after the other whatever its entry_stride (needs a stream of more than one "
     "entry with an entry_stride other than 0 and E)",
     "               : entry_end ? off_q + WAddrW'(rq_stride) - WAddrW'(rq_e_m1)",
     "               : entry_end ? off_q + WAddrW'(1)  // INJECTED DEFECT: the stride ignored", BugTarget::SystemNode},
}};
}  // namespace

std::span<const InjectedBug> injected_bugs() { return kBugs; }

const InjectedBug& injected_bug(std::string_view name) {
  std::string known;
  for (const auto& b : kBugs) {
    if (b.name == name) return b;
    known += (known.empty() ? "" : ", ") + std::string(b.name);
  }
  throw Error("rtl.inject", fmt::format("no injected defect '{}' (known: {})", name, known));
}

std::string_view bug_target_name(BugTarget t) {
  switch (t) {
    case BugTarget::Core:
      return "core";
    case BugTarget::Noc:
      return "NoC";
    case BugTarget::SystemNode:
      return "system node";
  }
  return "?";
}

const InjectedBug& injected_bug(std::string_view name, BugTarget target) {
  const InjectedBug& b = injected_bug(name);
  if (b.target == target) return b;
  std::string known;
  for (const auto& k : kBugs)
    if (k.target == target) known += (known.empty() ? "" : ", ") + std::string(k.name);
  throw Error("rtl.inject",
              fmt::format("'{}' is a defect of the {}, not of the {} (the {}'s: {})", name, bug_target_name(b.target),
                          bug_target_name(target), bug_target_name(target), known));
}

void inject_primitive_defect(std::string& text, std::string_view module, std::string_view bug) {
  const InjectedBug& b = injected_bug(bug);
  if (b.module != module || b.correct.empty()) return;
  inject_defect(text, bug, b.correct, b.defective);
  text = fmt::format("// WARNING: built with the deliberate defect '{}' (tpugen --inject-bug): {}.\n", bug,
                     b.description) +
         text;
}

void inject_defect(std::string& text, std::string_view bug, std::string_view correct, std::string_view defective) {
  const auto at = text.find(correct);
  if (at == std::string::npos || text.find(correct, at + 1) != std::string::npos)
    throw Error("rtl.inject",
                fmt::format("{}: the line it changes is not in the emitted text exactly once: {}", bug, correct));
  text.replace(at, correct.size(), defective);
}

}  // namespace tpugen::hdl
