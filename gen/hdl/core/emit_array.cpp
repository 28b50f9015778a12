// tpu_array: the T x T weight-stationary array (of rtl/core/tpu_pe.sv).
//
// The array has no dispatch queue: an mm reaches it as the header word on
// wcol. What the emitter reads from the spec, and refuses when it differs
// from what the RTL below implements:
//   * exactly one opcode reaches the array, with the actions receive wcol
//     (header_items + T items), receive acol (nr), compute matmul (nr), emit
//     cw (nr) and emit instructions (1), none conditional;
//   * the channel widths: wcol and acol operand rows, cw accumulator rows;
//   * the array's progress counters (header entries counting its ports):
//     a port with one item per mm counts completed mms, a port with nr items
//     counts result rows.
// The module's text is rtl/core/tpu_array.sv.tpl; this file fills in what the
// spec decides (channel names, T, the counters).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/derive.h"
#include "hdl/emitters.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

constexpr const char* kUnit = "array";

[[noreturn]] void unsupported(const std::string& what) {
  throw Error("rtl.unsupported", fmt::format("tpu_array: {}", what));
}


/// How one of the array's items counts: once per mm or once per row.
enum class Per { Mm, Row };

/// An item count as a function of nr (T fixed): 1 (once per mm), nr (once
/// per row), or something the array does not implement.
std::optional<Per> per_of(const RtlContext& ctx, const Action& a, const Opcode& op) {
  auto at = [&](std::int64_t nr) {
    return action_items(ctx.isa(), a, op, [&] {
      std::vector<std::int64_t> f(ctx.spec().word0.size(), 0);
      f[ctx.isa().nr_index()] = nr;
      return f;
    }());
  };
  if (at(1) == 1 && at(2) == 1 && at(5) == 1) return Per::Mm;
  if (at(1) == 1 && at(2) == 2 && at(5) == 5) return Per::Row;
  return std::nullopt;
}

struct ArrayPlan {
  const Opcode* op = nullptr;
  std::string wcol, acol, cw;  ///< channel (port) names
  struct Counter {
    std::string progress;  ///< PROGRESS_* constant name
    std::string name;      ///< the header entry's name
    std::string port;
    Per per = Per::Row;
  };
  std::vector<Counter> counters;  ///< in PROGRESS_* order
};

/// Read the array's actions and check them against what the RTL implements.
ArrayPlan plan_array(const RtlContext& ctx) {
  ArrayPlan plan;
  const auto uses = ctx.uses(kUnit, "instr");
  if (uses.size() != 1)
    unsupported(
        fmt::format("{} opcodes reach the array; its only instruction is the wcol header word, which "
                    "carries no opcode, so exactly one can",
                    uses.size()));
  const UnitUse& use = uses.front();
  plan.op = use.opcode;
  const std::int64_t t = ctx.param("T");
  for (const Action* a : use.actions) {
    if (a->only_if)
      unsupported(fmt::format("{}: the {} action on {} is conditional", use.opcode->name, to_string(a->kind), a->port));
    const auto per = per_of(ctx, *a, *use.opcode);
    switch (a->kind) {
      case ActionKind::Receive: {
        const Channel& c = ctx.channel(a->port);
        if (c.header_items > 0) {
          if (!plan.wcol.empty()) unsupported("more than one channel carries a header word");
          if (c.header_items != 1)
            unsupported(fmt::format("{} carries {} header items; the array takes one", c.port, c.header_items));
          std::vector<std::int64_t> f(ctx.spec().word0.size(), 0);
          if (action_items(ctx.isa(), *a, *use.opcode, f) != t + c.header_items)
            unsupported(fmt::format("{} carries '{}' items per mm; the array takes the header word and T weight rows",
                                    c.port, a->items.text()));
          plan.wcol = c.port;
        } else {
          if (!plan.acol.empty() || per != Per::Row)
            unsupported(fmt::format("receive on {} is not one row per activation row", c.port));
          plan.acol = c.port;
        }
        if (c.width != ctx.param("VW")) unsupported(fmt::format("{} is not an operand row", c.port));
        break;
      }
      case ActionKind::Emit: {
        if (per == Per::Mm) break;  // the instructions port: one item per mm, a counter only
        if (!plan.cw.empty() || per != Per::Row)
          unsupported(fmt::format("emit on {} is not one row per activation row", a->port));
        if (ctx.channel(a->port).width != ctx.param("AW"))
          unsupported(fmt::format("{} is not an accumulator row", a->port));
        plan.cw = a->port;
        break;
      }
      case ActionKind::Compute:
        if (a->state != "matmul" || per != Per::Row)
          unsupported(
              fmt::format("compute '{}' ('{}' items): the array computes the weight-stationary matmul, one row per "
                          "activation row",
                          a->state, a->items.text()));
        break;
      default:
        unsupported(
            fmt::format("{}: a {} of {} (the array owns no memory)", use.opcode->name, to_string(a->kind), a->state));
    }
  }
  if (plan.wcol.empty() || plan.acol.empty() || plan.cw.empty())
    unsupported("the array needs a weight channel with a header word, an activation channel and a result channel");

  for (const auto& h : ctx.spec().header) {
    if (h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) continue;
    if (h.count.unit != kUnit) continue;
    if (h.count.kind == HeaderCount::UnitSteps)
      unsupported(fmt::format("header entry {} counts the array's steps", h.name));
    std::optional<Per> per;
    for (const Action* a : use.actions)
      if (a->port == h.count.port) per = per_of(ctx, *a, *use.opcode);
    if (!per)
      unsupported(fmt::format("header entry {} counts port {}, which is neither once per mm nor once per row", h.name,
                              h.count.port));
    plan.counters.push_back({"PROGRESS_" + upper(h.name), h.name, h.count.port, *per});
  }
  return plan;
}

std::string counter_comment(const ArrayPlan::Counter& c) {
  return fmt::format("//   {}: +1 {}\n", c.progress,
                     c.per == Per::Mm
                         ? "per mm, when its last result row leaves\n//     (or when an mm with rows == 0 retires)"
                         : "per result row that leaves");
}

std::string counter_logic(const ArrayPlan& plan) {
  std::string o;
  for (std::size_t k = 0; k < plan.counters.size(); ++k) {
    const auto& c = plan.counters[k];
    const bool per_mm = c.per == Per::Mm;
    o += fmt::format(
        "  // tpu_pkg::{0}: items on the array's {1} port.\n"
        "  tpu_counter #(\n"
        "    .Width(CntW),\n"
        "    .NInc ({2})\n"
        "  ) u_{3} (\n"
        "    .clk_i,\n"
        "    .rst_ni,\n"
        "    .clear_i,\n"
        "    .inc_i  ({4}),\n"
        "    .count_o(progress_o[{5}*CntW +: CntW])\n"
        "  );\n\n",
        c.progress, c.port, per_mm ? 2 : 1, c.name, per_mm ? "{cw_hs && stg_last_q[T-1], empty_mm}" : "cw_hs", k);
  }
  return o;
}

}  // namespace

std::string emit_tpu_array(const RtlContext& ctx) {
  const ArrayPlan plan = plan_array(ctx);
  if (plan.counters.empty()) unsupported("no header entry counts the array's work");
  std::string counters;
  for (const auto& c : plan.counters) counters += counter_comment(c);
  std::string o = ctx.file_header("tpu_array", "the T x T weight-stationary array");
  o += sv_template("core/tpu_array.sv.tpl", {{"OP", plan.op->name},
                         {"WCOL", plan.wcol},
                         {"ACOL", plan.acol},
                         {"CW", plan.cw},
                         {"T", std::to_string(ctx.param("T"))},
                         {"NCOUNT", std::to_string(plan.counters.size())},
                         {"COUNTERS", counters},
                         {"COUNTER_LOGIC", counter_logic(plan)}});
  return o;
}

}  // namespace tpugen::hdl
