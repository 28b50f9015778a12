#include "hdl/rtl_context.h"

#include <fmt/format.h>

#include <algorithm>

#include "hdl/file_header.h"
#include "hdl/injected_bugs.h"
#include "hdl/tops.h"
#include "util/names.h"

namespace tpugen::hdl {

RtlContext::RtlContext(const Isa& isa, RtlOptions options) : isa_(isa), options_(options) {
  const Spec& s = isa_.spec();
  if (options_.imem_beat_words == 0) options_.imem_beat_words = static_cast<int>(isa_.param("BUS_BYTES") / 8);
  for (const auto& f : rtl_option_fields()) f.check(options_);
  if (!options_.inject_bug.empty()) (void)injected_bug(options_.inject_bug, BugTarget::Core);  // throws for an unknown name
  if (top_of(options_.top).reads_axi_spec) load_axi();
  const int vw = static_cast<int>(isa_.param("VW"));
  const int aw = static_cast<int>(isa_.param("AW"));
  for (const auto& a : s.actions) {
    if (a.kind != ActionKind::Emit) continue;
    for (const auto& b : s.actions) {
      if (b.kind != ActionKind::Receive || b.port != a.port || b.opcode != a.opcode) continue;
      if (std::any_of(channels_.begin(), channels_.end(), [&](const Channel& c) { return c.port == a.port; })) continue;
      Channel c;
      c.port = a.port;
      c.from = a.unit;
      c.to = b.unit;
      // An accumulator row travels from the unit whose array computes sums
      // (its compute produces accumulator lanes) — by the receiving memory
      // format: a channel feeding a unit that owns an accumulator memory
      // carries accumulator rows unless it leaves that unit.
      bool to_acc = false, from_acc = false;
      for (const auto& m : s.memories) {
        if (m.format != "accumulator") continue;
        to_acc |= m.owner == c.to;
        from_acc |= m.owner == c.from;
      }
      c.width = (to_acc && !from_acc) ? aw : vw;
      if (const Unit* u = s.unit(c.to))
        if (const Port* p = u->port(c.port)) c.header_items = static_cast<int>(p->header_items);
      channels_.push_back(c);
    }
  }
}

const AxiTopSpec& RtlContext::axi() const {
  if (!axi_) throw Error("rtl.axi", "this configuration's top is not the AXI top (--top axi)");
  return *axi_;
}

void RtlContext::load_axi() {
  const std::string path =
      options_.axi_spec_path.empty() ? axi_top_spec_path(spec().path) : options_.axi_spec_path;
  axi_ = load_axi_top_spec(path);
  const auto scope = isa_.params().scope();
  std::int64_t bytes = 0;
  try {
    bytes = axi_->master.data_bytes.eval(scope);
  } catch (const ExprError& e) {
    throw Error("axi.spec", fmt::format("master.data_bytes '{}': {}", axi_->master.data_bytes.text(), e.what()),
                SourceLoc{path});
  }
  if (bytes < 4 || bytes > 128 || (bytes & (bytes - 1)) != 0)
    throw Error("rtl.axi", fmt::format("the AXI data bus is {} bytes ({}); it must be a power of two, 4 .. 128", bytes,
                                       axi_->master.data_bytes.text()));
  axi_data_bytes_ = static_cast<int>(bytes);
  // Each of the core's memory ports moves a power of two bytes, no wider
  // than the bus: AXI sizes a beat as 2^AxSIZE bytes in its own lanes.
  const std::int64_t vw_bytes = isa_.param("VW") / 8;
  const struct {
    const char* port;
    std::int64_t bytes;
    const char* what;
  } ports[] = {{"imem", 8 * std::int64_t{options_.imem_beat_words}, "ImemBeat * 8"},
               {"dram_rd", isa_.param("DMA_WORDS") * vw_bytes, "DMA_WORDS * T"},
               {"dram_wr", std::int64_t{options_.c_beat_words} * vw_bytes, "CBeat * T"}};
  for (const auto& p : ports) {
    if (!axi_->master.stream(p.port))
      throw Error("axi.spec", fmt::format("master.streams has no stream for the core's port {}", p.port),
                  SourceLoc{path});
    if (p.bytes > bytes || (p.bytes & (p.bytes - 1)) != 0)
      throw Error("rtl.axi", fmt::format("the {} port moves {} = {} bytes a beat; the AXI top needs a power of two no "
                                         "wider than the {}-byte bus",
                                         p.port, p.what, p.bytes, bytes));
  }
  for (const auto& st : axi_->master.streams)
    if (st.port != "imem" && st.port != "dram_rd" && st.port != "dram_wr")
      throw Error("axi.spec", fmt::format("stream '{}' is none of the core's memory ports (imem, dram_rd, dram_wr)",
                                          st.port), st.loc);
  if (axi_->master.stream("imem")->id == axi_->master.stream("dram_rd")->id)
    throw Error("axi.spec", "the two read streams (imem, dram_rd) need different IDs: their R beats are told apart by RID",
                axi_->master.stream("dram_rd")->loc);
  if (axi_->master.stream("dram_rd")->bases.size() != 2)
    throw Error("axi.spec", "the dram_rd stream needs two bases (A for sel 0, B for sel 1)",
                axi_->master.stream("dram_rd")->loc);
}

std::string RtlContext::op_const(std::string_view opcode) const {
  return "tpu_pkg::OP_" + upper(spec().opcode_named(opcode).name);
}

std::string RtlContext::operand_sv(const Opcode& op, std::string_view operand, std::string_view instr) const {
  const Operand* o = op.operand(operand);
  if (!o) throw Error("rtl.operand", fmt::format("{} has no operand '{}'", op.name, operand));
  return fmt::format("{}.{}", instr, o->field);
}

std::string RtlContext::sv_of(const Expr& e, const Opcode& op, std::string_view instr) const {
  return e.render_sv([&](std::string_view name) -> std::string {
    if (name == "nr") return fmt::format("{}.nr", instr);
    if (op.operand(name)) return operand_sv(op, name, instr);
    if (isa_.params().get(name)) return std::string(name);
    throw Error("rtl.name", fmt::format("expression '{}' names '{}', which has no SystemVerilog form", e.text(), name));
  });
}

std::vector<const Unit*> RtlContext::dispatched_units() const {
  std::vector<const Unit*> out;
  for (const auto& u : spec().units)
    if (u.dispatched()) out.push_back(&u);
  return out;
}

std::vector<UnitUse> RtlContext::uses(std::string_view unit, std::string_view instr) const {
  std::vector<UnitUse> out;
  for (const auto& op : spec().opcodes) {
    UnitUse use;
    use.opcode = &op;
    bool always = false;
    std::vector<std::string> conds;
    for (const Action* a : spec().actions_of(op.name)) {
      if (a->unit != unit) continue;
      use.actions.push_back(a);
      if (!a->only_if) always = true;
      else {
        const std::string c = sv_of(*a->only_if, op, instr);
        if (std::find(conds.begin(), conds.end(), c) == conds.end()) conds.push_back(c);
      }
    }
    if (use.actions.empty()) continue;
    use.when_sv = always || conds.empty() ? "1'b1" : fmt::format("{}", fmt::join(conds, " || "));
    out.push_back(std::move(use));
  }
  return out;
}

const Channel& RtlContext::channel(std::string_view port) const {
  for (const auto& c : channels_)
    if (c.port == port) return c;
  throw Error("rtl.channel", fmt::format("no channel '{}' between two units", port));
}

int RtlContext::field_width() const {
  int w = 0;
  for (const auto& f : spec().word0)
    if (f.agu_target) w = std::max(w, f.width);
  return w;
}
int RtlContext::nr_width() const { return spec().field("nr")->width; }
int RtlContext::count_width() const { return spec().count_slice_width; }
int RtlContext::op_width() const { return spec().field("op")->width; }

std::string RtlContext::file_header(std::string_view module, std::string_view description) const {
  std::string params;
  for (const auto& [name, v] : isa_.params().build_parameters()) params += fmt::format(" {}={}", name, v);
  return generated_file_header({module, description, spec().path, spec().sha256, params,
                                rtl_parameter_options_text(options_, true), options_.inject_bug});
}

}  // namespace tpugen::hdl
