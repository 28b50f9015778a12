#include <fmt/format.h>

#include "hdl/cu/cu_context.h"
#include "hdl/localparams.h"
#include "util/diag.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

int bits_for(std::int64_t values) {
  int w = 1;
  while ((std::int64_t{1} << w) < values) ++w;
  return w;
}

void register_fields(Localparams& lp, const std::string& prefix, const CuRegister& r) {
  lp.add(fmt::format("{}_{}", prefix, r.name), fmt::format("'h{:x}", r.offset), short_role(r.role));
  for (const auto& f : r.fields) {
    lp.add(fmt::format("{}_{}_{}_LSB", prefix, r.name, upper(f.name)), f.lsb, short_role(f.role));
    lp.add(fmt::format("{}_{}_{}_W", prefix, r.name, upper(f.name)), f.width());
  }
}

/// Each code's constant, and for a code whose detail has sub-fields (a
/// fault's) each sub-field's LSB and width within the detail.
void codes(Localparams& lp, const std::string& prefix, const std::vector<NocCode>& list, int width) {
  for (const auto& c : list) {
    lp.add_bits(prefix + c.name, width, fmt::format("d{}", c.code), short_role(c.role));
    for (const auto& d : c.detail) {
      lp.add(fmt::format("{}{}_{}_LSB", prefix, c.name, upper(d.name)), d.lsb, "bits of the fault result's detail");
      lp.add(fmt::format("{}{}_{}_W", prefix, c.name, upper(d.name)), d.width());
    }
  }
}

}  // namespace

std::string emit_tpu_cu_pkg(const CuContext& ctx) {
  const ComputeUnitsSpec& s = ctx.spec();
  const CuBaseSpec& b = s.cu_base;
  const OrchestratorSpec& o = s.orchestrator;
  const UnitSpec& u = s.require_unit("tinytpu");
  std::string text = ctx.file_header("tpu_cu_pkg", "the compute units' constants, from the specs");
  text += R"(
// tpu_cu_pkg: what the CU wrapper (tpu_noc_cu_base), the orchestrator
// (tpu_noc_orchestrator) and the TinyTPU unit read of spec/compute_units.yaml,
// by name: the wrapper's fault result and own fault codes and its build
// parameters; the orchestrator's register offsets and fields, staging slots,
// mover window, channel states and kick errors and its build parameters; the
// TinyTPU unit's CAPS, opcodes, payload fields, tags, buffers, status selects
// and faults at this build's MAXDIM. The flit's own fields and codes are
// tpu_noc_pkg's. Not every constant is used by every module, so
// unused-parameter lint is waived for this file only (as for tpu_pkg).
/* verilator lint_off UNUSEDPARAM */
package tpu_cu_pkg;

)";
  Localparams lp;
  // The wrapper.
  for (const auto& f : b.fault_result.fields) {
    lp.add(fmt::format("FAULT_{}_LSB", upper(f.name)), f.lsb, short_role(f.role));
    lp.add(fmt::format("FAULT_{}_W", upper(f.name)), f.width());
  }
  const int code_w = b.fault_result.field("code")->width();
  codes(lp, "CU_FAULT_", b.faults, code_w);
  lp.add("INST_DEPTH", ctx.cu_base_params()["INST_DEPTH"], "instructions the FIFO holds (CAPS.inst_depth)");
  lp.add("RECV_DEPTH", ctx.cu_base_params()["RECV_DEPTH"], "flits the receive FIFO holds");
  lp.add("MEM_WRITE_BEATS", static_cast<std::int64_t>(ctx.sysnode().agent.write_max_len) + 1,
         "the most words a MEM_WR_REQ writes (the agent's write_max_len + 1): a C burst");
  lp.add("WAIT_LIMIT", ctx.cu_base_params()["WAIT_LIMIT"], "cycles a unit waits for a peer's data");
  const int rule_w = ctx.noc().require_payload("error").field("rule")->width();
  lp.add_bits("AGENT_ERR_AXI_RESPONSE", rule_w,
              fmt::format("d{}", ctx.sysnode().agent.require_error_rule("AXI_RESPONSE").code),
              "the agent's ERROR for one word memory refused (the request's other words still come)");
  lp.blank();

  // The orchestrator.
  lp.add("ORCH_DATA_W", o.data_bits, "the AXI4-Lite slave's data");
  const std::int64_t prog_flits = ctx.orch_params()["PROG_FLITS"];
  const std::int64_t channels = ctx.orch_params()["CHANNELS"];
  lp.add("ORCH_ADDR_W", ctx.orch_addr_bits(), "its byte address: registers, mover window and staging slots");
  lp.add("PROG_FLITS", prog_flits, "staging slots");
  lp.add("SLOT_W", bits_for(prog_flits), "bits of a slot index");
  lp.add("CHANNELS", channels, "dispatch channels");
  lp.add("CHANNEL_W", bits_for(channels), "bits of a channel index");
  lp.add("ORCH_STAGING", fmt::format("'h{:x}", o.staging_offset), "slot s at ORCH_STAGING + s * ORCH_SLOT_BYTES");
  lp.add("ORCH_SLOT_BYTES", o.slot_bytes, "bytes a slot takes in the map");
  lp.add("ORCH_PAYLOAD_WORDS", o.payload_words, "64-bit words 0 .. of a slot: the payload, word 0 its bits 63:0");
  lp.add("ORCH_HEADER_WORD", o.header_word, "the slot's word holding the header in bits 31:0");
  lp.add("ORCH_WINDOW", fmt::format("'h{:x}", o.window_offset), "the mover's register o at ORCH_WINDOW + o");
  lp.add("ORCH_WINDOW_BYTES", fmt::format("'h{:x}", o.window_bytes), "bytes of the window");
  for (const auto& r : o.registers) register_fields(lp, "ORCH", r);
  lp.add("ORCH_CH_STRIDE", fmt::format("'h{:x}", o.channel_stride), "channel c's registers at their offset + c * this");
  for (const auto& r : o.channel_registers) register_fields(lp, "ORCH", r);
  codes(lp, "CH_", o.channel_states, o.require_channel_register("CH_STAT").require_field("state").width());
  codes(lp, "KICK_", o.kick_errors, o.require_register("PROG_STAT").require_field("kick_error").width());
  lp.blank();

  // The TinyTPU unit.
  const UnitConstants& c = ctx.unit();
  lp.add("TINYTPU_TYPE", static_cast<std::int64_t>(u.type), "CAPS.type (the wrapper's CapsType)");
  lp.add("TINYTPU_VERSION", static_cast<std::int64_t>(u.version), "CAPS.version (the wrapper's CapsVersion)");
  lp.add("TINYTPU_BUFFERS", static_cast<std::int64_t>(u.buffers.size()), "CAPS.n_buffers");
  lp.add("TINYTPU_OP_LSB", u.opcode_lsb, "the opcode, a bit of the payload");
  lp.add("TINYTPU_OP_W", u.opcode_width());
  for (const auto& op : u.opcodes) {
    lp.add_bits("TINYTPU_OP_" + op.name, u.opcode_width(), fmt::format("d{}", op.code), short_role(op.role));
    for (const auto& f : op.fields) {
      const std::string p = fmt::format("TINYTPU_{}_{}", op.name, upper(f.name));
      lp.add(p + "_LSB", f.lsb, short_role(f.role));
      lp.add(p + "_W", f.width());
      if (f.zero_means) lp.add(p + "_ZERO_MEANS", f.zero_means->eval(c.scope), "a value of 0 means this");
      if (f.repeat > 1) {
        lp.add(p + "_N", f.repeat, "elements, lowest first");
        for (const auto& e : f.element) {
          lp.add(fmt::format("{}_{}_LSB", p, upper(e.name)), e.lsb, "within an element");
          lp.add(fmt::format("{}_{}_W", p, upper(e.name)), e.width());
        }
      }
    }
  }
  // RUN's row strides go into a stream's entry_stride as they are.
  const int entry_stride_w = ctx.noc().require_payload("mem_req").field("entry_stride")->width();
  for (const char* f : {"a_stride", "b_stride"})
    if (u.require_opcode("RUN").require_field(f).width() > entry_stride_w)
      throw Error("gen.cu", fmt::format("RUN's {} has {} bits, more than noc.yaml's mem_req.entry_stride ({}), which "
                                        "the unit's operand streams carry it in",
                                        f, u.require_opcode("RUN").require_field(f).width(), entry_stride_w));
  for (const auto& [name, v] : c.values) lp.add("TINYTPU_" + name, v, "derived at this MAXDIM");
  for (const auto& [name, r] : c.tags) {
    lp.add(fmt::format("TINYTPU_TAG_{}", upper(name)), r.first, "first txn of the range");
    lp.add(fmt::format("TINYTPU_TAG_{}_N", upper(name)), r.count, "txns in it");
  }
  for (const auto& buf : u.buffers) {
    lp.add_bits("TINYTPU_BUF_" + upper(buf.name), 8, fmt::format("d{}", buf.id), short_role(buf.role));
    lp.add(fmt::format("TINYTPU_BUF_{}_GRANULES", upper(buf.name)), c.granules.at(buf.name), "32-byte granules");
  }
  // The core's parameters the unit reads, and a row's index from a byte
  // offset in the core's MAXDIM x MAXDIM matrix without a divider:
  // row = (offset * ROW_RECIP) >> ROW_SHIFT, checked here for every offset.
  if (!ctx.core().empty()) {
    for (const char* name : {"T", "MAXDIM", "IMEM_SIZE", "DMA_WORDS"}) {
      const auto it = ctx.core().find(name);
      if (it == ctx.core().end()) throw Error("gen.cu", fmt::format("the unit needs the core's parameter {}", name));
      lp.add(fmt::format("TINYTPU_{}", name), it->second, "the core's build parameter");
    }
    const std::int64_t maxdim = ctx.core().at("MAXDIM");
    const std::int64_t span = maxdim * maxdim;
    const int off_w = bits_for(span);
    int shift = off_w;
    std::int64_t recip = 0;
    for (;; ++shift) {
      recip = ((std::int64_t{1} << shift) + maxdim - 1) / maxdim;
      bool exact = true;
      for (std::int64_t a = 0; a < span && exact; ++a) exact = ((a * recip) >> shift) == a / maxdim;
      if (exact) break;
      if (shift > 40) throw Error("gen.cu", fmt::format("no reciprocal divides the offsets by MAXDIM = {}", maxdim));
    }
    lp.add("TINYTPU_OFF_W", off_w, "bits of a byte offset in the core's matrix");
    lp.add("TINYTPU_ROW_RECIP", recip, "row = (offset * ROW_RECIP) >> ROW_SHIFT");
    lp.add("TINYTPU_ROW_SHIFT", shift);
    lp.add("TINYTPU_RECIP_W", bits_for(recip + 1), "bits of ROW_RECIP");
  }
  codes(lp, "TINYTPU_SELECT_", u.status_selects, u.require_opcode("STATUS").require_field("select").width());
  codes(lp, "TINYTPU_FAULT_", u.faults, code_w);
  text += lp.str();
  text += "\nendpackage\n";
  return text;
}

}  // namespace tpugen::hdl
