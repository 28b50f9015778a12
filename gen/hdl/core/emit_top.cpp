// tpu_top: the core. Units, the queues between the sequencer and each
// dispatched unit, the channels between units (one tpu_fifo each, named after
// the spec's port), and the memory ports. Everything here is derived from the
// spec through RtlContext: which units exist and are dispatched, which
// channels connect them, which unit owns which memory and DRAM port, and how
// the progress counters map onto the header.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "hdl/emitters.h"
#include "hdl/core/core_ports.h"
#include "hdl/core/unit_decode.h"

namespace tpugen::hdl {

namespace {

bool reads_dram(const Spec& s, const std::string& unit) {
  return std::any_of(s.actions.begin(), s.actions.end(), [&](const Action& a) {
    return a.unit == unit && a.kind == ActionKind::Read && s.memory(a.state)->dram;
  });
}
bool writes_dram(const Spec& s, const std::string& unit) {
  return std::any_of(s.actions.begin(), s.actions.end(), [&](const Action& a) {
    return a.unit == unit && a.kind == ActionKind::Write && s.memory(a.state)->dram;
  });
}

/// The parameters the top passes to a unit (docs/microarch.md, "Module
/// ports"): T, the parameters its memories' depths name, and for the unit
/// with the operand read port its beat width and queue depth.
std::vector<std::string> unit_parameters(const RtlContext& ctx, const Unit& u) {
  std::vector<std::string> out{"T"};
  auto add = [&](const std::string& n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const auto& m : ctx.spec().memories)
    if (m.owner == u.name)
      for (const auto& n : m.depth.names()) add(n);
  if (reads_dram(ctx.spec(), u.name)) {
    add("DMA_WORDS");
    add("QD");
  }
  if (is_memory_unit(ctx, u.name)) add("QD");  // pending instructions per engine
  if (writes_dram(ctx.spec(), u.name)) add("CBeat");
  if (u.instructions_from == "imem") {
    add("ImemBeat");
    add("Watchdog");
  }
  return out;
}

/// The progress counters a unit owns: indices into the PROGRESS_* order.
std::vector<int> unit_counters(const Spec& s, const std::string& unit) {
  std::vector<int> out;
  int idx = 0;
  for (const auto& h : s.header) {
    if (h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) continue;
    if (h.count.unit == unit) out.push_back(idx);
    ++idx;
  }
  return out;
}

std::string derived_parameter(const RtlContext& ctx, const std::string& name) {
  for (const auto& c : ctx.spec().derived_constants)
    if (c.name == name)
      return fmt::format("  parameter int {} = {},  // derived (spec: derived_constants): leave at its default\n", name,
                         c.value.render_sv([](std::string_view n) { return std::string(n); }));
  throw Error("rtl.spec", fmt::format("the spec derives no constant '{}'", name));
}

}  // namespace

/// The build parameters the RTL uses, in spec order (DMA_WIDEN only sets a
/// default and reaches no module).
std::vector<std::string> core_parameters(const RtlContext& ctx) {
  std::set<std::string> used{"T", "QD", "DMA_WORDS"};
  for (const auto& m : ctx.spec().memories)
    for (const auto& n : m.depth.names()) used.insert(n);
  std::vector<std::string> out;
  for (const auto& p : ctx.spec().parameters)
    if (used.count(p.name)) out.push_back(p.name);
  return out;
}

std::string top_parameter_decls(const RtlContext& ctx) {
  std::string o;
  for (const auto& p : core_parameters(ctx)) o += fmt::format("  parameter int {} = {},\n", p, ctx.param(p));
  // VW and AW size the ports, so they are parameters too, derived from the
  // spec's expressions; they are not meant to be overridden.
  for (const char* n : {"VW", "AW"}) o += derived_parameter(ctx, n);
  o += fmt::format("  parameter int ImemBeat = {},\n  parameter int CBeat    = {},\n  parameter int Watchdog = {}\n",
                   ctx.options().imem_beat_words, ctx.options().c_beat_words, ctx.options().watchdog_cycles);
  return o;
}

std::string top_port_decls(const RtlContext& ctx) {
  const Spec& s = ctx.spec();
  std::vector<PortDecl> ports = {{"input", "logic", "clk_i", ""}, {"input", "logic", "rst_ni", ""}};
  for (const auto& itf : s.interfaces) {
    ports.push_back({"", "", "", fmt::format("{}: {}", itf.name, itf.role)});
    const auto more = interface_ports(s, itf.name);
    ports.insert(ports.end(), more.begin(), more.end());
    if (itf.name == "status")
      ports.push_back({"output", "logic [tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W-1:0]", "progress_o",
                       "work done per progress counter (tpu_pkg::PROGRESS_*)"});
  }
  return render_ports(ports);
}

std::string emit_tpu_top(const RtlContext& ctx) {
  const Spec& s = ctx.spec();
  std::string o = ctx.file_header("tpu_top", "the TinyTPU-isa core");
  o += "//\n// The sequencer fetches the program from imem and dispatches each instruction,\n"
       "// with its resolved operands and each unit's step count, to the queues of the\n"
       "// units its actions reach. Units stream rows to each other over the channels\n"
       "// the spec's emit/receive actions name. See docs/microarch.md.\n//\n// Parameters:\n";
  for (const auto& p : core_parameters(ctx))
    o += fmt::format("//   {:<10} {}\n", p, s.parameter(p)->role);
  o += "//   ImemBeat   64-bit words per imem beat\n"
       "//   CBeat      packed operand words per C write beat (a power of two)\n"
       "//   Watchdog   cycles without progress before FAULT_HANG\n";
  o += "module tpu_top #(\n" + top_parameter_decls(ctx) + ") (\n" + top_port_decls(ctx) + ");\n\n";
  // --- Nets -----------------------------------------------------------------
  const auto dispatched = ctx.dispatched_units();
  o += "  // Dispatch queues: sequencer -> unit.\n";
  for (const Unit* u : dispatched)
    o += fmt::format("  logic {0}_push_valid, {0}_push_ready, {0}_pop_valid, {0}_pop_ready;\n"
                     "  logic [tpu_pkg::INSTR_W-1:0] {0}_push_data, {0}_pop_data;\n"
                     "  logic [$clog2(QD+1)-1:0] {0}_queue_usage;\n",
                     u->name);
  o += "\n  // Channels between units, named after the spec's ports.\n";
  for (const auto& c : ctx.channels())
    o += fmt::format("  logic {0}_push_valid, {0}_push_ready, {0}_pop_valid, {0}_pop_ready;\n"
                     "  logic [{1}-1:0] {0}_push_data, {0}_pop_data;\n"
                     "  logic [$clog2(QD+1)-1:0] {0}_usage;\n",
                     c.port, c.width == ctx.param("AW") ? "AW" : "VW");
  o += "\n  // Progress counters (tpu_pkg::PROGRESS_* order) and idleness.\n";
  o += "  logic [tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W-1:0] progress;\n";
  std::vector<std::string> idle_terms;
  for (const auto& u : s.units) {
    if (u.instructions_from == "imem") continue;
    const auto counters = unit_counters(s, u.name);
    o += fmt::format("  logic {}_idle;\n", u.name);
    if (!counters.empty()) o += fmt::format("  logic [{}*tpu_pkg::COUNT_W-1:0] {}_progress;\n", counters.size(), u.name);
    idle_terms.push_back(u.name + "_idle");
  }
  for (const Unit* u : dispatched) idle_terms.push_back(fmt::format("({}_queue_usage == '0)", u->name));
  for (const auto& c : ctx.channels()) idle_terms.push_back(fmt::format("({}_usage == '0)", c.port));
  o += "  logic units_idle, activity;\n";
  o += "  logic run_clear;  // a start was taken: every unit clears its progress counters\n\n";

  // --- Sequencer --------------------------------------------------------------
  const Unit* seq = nullptr;
  for (const auto& u : s.units)
    if (u.instructions_from == "imem") seq = &u;
  if (!seq) throw Error("rtl.spec", "no unit takes its instructions from imem (the sequencer)");
  o += fmt::format("  tpu_{} #(\n", seq->name);
  {
    const auto ps = unit_parameters(ctx, *seq);
    for (std::size_t i = 0; i < ps.size(); ++i) o += fmt::format("    .{0}({0}){1}\n", ps[i], i + 1 < ps.size() ? "," : "");
  }
  o += fmt::format("  ) u_{} (\n", seq->name);
  o += "    .clk_i,\n    .rst_ni,\n    .clear_o(run_clear),\n" + connect_by_name(interface_ports(s, "status")) +
       connect_by_name(interface_ports(s, "imem"));
  for (const Unit* u : dispatched)
    o += fmt::format("    .{0}_instr_valid_o({0}_push_valid),\n    .{0}_instr_ready_i({0}_push_ready),\n"
                     "    .{0}_instr_o({0}_push_data),\n",
                     u->name);
  o += "    .progress_i(progress),\n    .idle_i(units_idle),\n    .activity_i(activity)\n  );\n\n";

  // --- Queues and channels ------------------------------------------------------
  // One tpu_fifo of depth QD per dispatch queue (u_<unit>_queue, usage
  // <unit>_queue_usage) and per channel (u_<port>_fifo, usage <port>_usage).
  auto fifo = [](const std::string& net, const std::string& width, const std::string& inst,
                 const std::string& usage, const std::string& comment) {
    return fmt::format(R"({4}  tpu_fifo #(
    .Width({1}),
    .Depth(QD)
  ) {2} (
    .clk_i,
    .rst_ni,
    .valid_i({0}_push_valid),
    .ready_o({0}_push_ready),
    .data_i ({0}_push_data),
    .valid_o({0}_pop_valid),
    .ready_i({0}_pop_ready),
    .data_o ({0}_pop_data),
    .usage_o({3})
  );

)",
                       net, width, inst, usage, comment);
  };
  for (const Unit* u : dispatched)
    o += fifo(u->name, "tpu_pkg::INSTR_W", fmt::format("u_{}_queue", u->name), u->name + "_queue_usage", "");
  for (const auto& c : ctx.channels())
    o += fifo(c.port, c.width == ctx.param("AW") ? "AW" : "VW", fmt::format("u_{}_fifo", c.port), c.port + "_usage",
              fmt::format("  // {} -> {}\n", c.from, c.to));

  // --- Units ------------------------------------------------------------------
  for (const auto& u : s.units) {
    if (u.instructions_from == "imem") continue;
    const auto ps = unit_parameters(ctx, u);
    o += fmt::format("  tpu_{} #(\n", u.name);
    for (std::size_t i = 0; i < ps.size(); ++i) o += fmt::format("    .{0}({0}){1}\n", ps[i], i + 1 < ps.size() ? "," : "");
    o += fmt::format("  ) u_{} (\n    .clk_i,\n    .rst_ni", u.name);
    if (!unit_counters(s, u.name).empty()) o += ",\n    .clear_i(run_clear)";
    if (u.dispatched())
      o += fmt::format(",\n    .instr_valid_i({0}_pop_valid),\n    .instr_ready_o({0}_pop_ready),\n    .instr_i({0}_pop_data)",
                       u.name);
    for (const auto& c : ctx.channels()) {
      if (c.to == u.name)
        o += fmt::format(",\n    .{0}_valid_i({0}_pop_valid),\n    .{0}_ready_o({0}_pop_ready),\n    .{0}_data_i({0}_pop_data)", c.port);
      if (c.from == u.name)
        o += fmt::format(",\n    .{0}_valid_o({0}_push_valid),\n    .{0}_ready_i({0}_push_ready),\n    .{0}_data_o({0}_push_data)",
                         c.port);
    }
    // The memory ports, by name; the list's last comma becomes the one
    // before the next connection.
    auto memory = [&](const std::vector<PortDecl>& mem) {
      const std::string c = connect_by_name(mem);
      o += ",\n" + c.substr(0, c.size() - 2);
    };
    if (reads_dram(s, u.name)) memory(interface_ports(s, "dram_rd"));
    if (writes_dram(s, u.name)) memory(interface_ports(s, "dram_wr"));
    if (!unit_counters(s, u.name).empty()) o += fmt::format(",\n    .progress_o({}_progress)", u.name);
    o += fmt::format(",\n    .idle_o({}_idle)\n  );\n\n", u.name);
  }

  // --- Progress, idleness, activity ---------------------------------------------
  o += "  // Each unit's counters, placed at their PROGRESS_* index.\n";
  for (const auto& u : s.units) {
    const auto counters = unit_counters(s, u.name);
    for (std::size_t k = 0; k < counters.size(); ++k)
      o += fmt::format("  assign progress[{}*tpu_pkg::COUNT_W +: tpu_pkg::COUNT_W] = {}_progress[{}*tpu_pkg::COUNT_W +: tpu_pkg::COUNT_W];\n",
                       counters[k], u.name, k);
  }
  o += "  assign progress_o = progress;\n\n";
  o += fmt::format("  assign units_idle = {};\n\n", fmt::join(idle_terms, "\n                    & "));
  // The watchdog's activity: a counter moved, or one of these memory
  // handshakes (the responses, and the result write requests) took place.
  std::vector<std::string> fires;
  for (const char* stream : {"imem_rsp", "dram_rd_rsp", "dram_wr_req", "dram_wr_rsp"})
    fires.push_back(handshake(s, stream));
  o += fmt::format(R"(  // Activity for the watchdog: a counter moved or a memory port handshook.
  tpu_activity #(
    .Width(tpu_pkg::N_PROGRESS*tpu_pkg::COUNT_W),
    .NFire({})
  ) u_activity (
    .clk_i,
    .rst_ni,
    .value_i (progress),
    .fire_i  ({{{}}}),
    .active_o(activity)
  );

endmodule
)",
                   fires.size(), fmt::join(fires, ",\n              "));
  return o;
}

}  // namespace tpugen::hdl
