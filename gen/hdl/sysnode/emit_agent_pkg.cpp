#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "hdl/localparams.h"
#include "hdl/sysnode/agent_generate.h"
#include "noc/codec.h"
#include "util/diag.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

[[noreturn]] void agent_error(const std::string& message, const SourceLoc& loc = {}) {
  throw Error("gen.agent", message, loc);
}

/// The request rules the hand-written agent computes, by name, in the order
/// of its RULE_<NAME> indices (rtl/agent/tpu_agent_decode.sv). AXI_RESPONSE
/// is memory's answer, not a check of the request, and has a code only.
constexpr std::array<std::string_view, 6> kRequestRules = {"TYPE_NOT_SERVED", "ADDRESS_NOT_SERVED", "MISALIGNED",
                                                           "WRITE_TOO_LONG",  "WRITE_OPEN",         "WRITE_SLOTS_FULL"};
constexpr std::string_view kAxiRule = "AXI_RESPONSE";

/// A flit field by its codec path: <PREFIX>_LSB (bit of the flit) and _W.
void field(Localparams& lp, const noc::Codec& codec, const std::string& prefix, std::string_view path,
           const std::string& comment = {}) {
  noc::FieldRef f;
  try {
    f = codec.field(path);
  } catch (const Error& e) {
    agent_error(fmt::format("the memory agent needs the flit field {}: {}", path, e.what()));
  }
  lp.add(prefix + "_LSB", f.lsb, comment.empty() ? std::string(path) : comment);
  lp.add(prefix + "_W", f.width);
}

const NocField& payload_field(const NocSpec& s, std::string_view layout, std::string_view name) {
  const NocLayout* l = s.payload(layout);
  const NocField* f = l ? l->field(name) : nullptr;
  if (!f) agent_error(fmt::format("noc.yaml's {} payload has no field {}, which the memory agent needs", layout, name));
  return *f;
}

std::string bits_hex(std::uint64_t v) { return fmt::format("h{:x}", v); }

}  // namespace

std::string emit_tpu_agent_pkg(const SysnodeContext& ctx) {
  const NocSpec& ns = ctx.noc();
  const SystemNodeSpec& s = ctx.spec();
  const AgentSpec& a = s.agent;
  const noc::Codec codec(ns);
  if (s.word_bits != ns.payload_bits)
    agent_error(
        fmt::format("the agent's word ({} bits) is not the flit payload ({} bits)", s.word_bits, ns.payload_bits));
  if (ns.address_bits > 64) agent_error("the agent's address arithmetic takes at most 64-bit addresses");

  std::string o = ctx.file_header("tpu_agent_pkg", "the memory agent's constants, from the specs");
  o += R"(
// tpu_agent_pkg: what the memory agent (rtl/agent, tpu_noc_mem_agent) reads
// of spec/noc.yaml and spec/system_node.yaml, by name: the flit's header
// fields and the mem_req, data and error payloads (bits of the flit, through
// the flit codec), the message types it takes and sends, its error rules'
// codes and the order they are checked in, write_max_len, the served
// addresses, the AXI rules and this build's parameters. Not every constant is
// used by every module, so unused-parameter lint is waived for this file only
// (as for tpu_pkg).
/* verilator lint_off UNUSEDPARAM */
package tpu_agent_pkg;

)";
  Localparams lp;
  lp.add("FLIT_W", ns.flit_bits(), "bits of a flit");
  lp.add("HEADER_W", ns.header_bits, "its header, above the payload");
  lp.add("PAYLOAD_W", ns.payload_bits, "its payload");
  lp.add("POS_W", ns.pos_width, "bits of a coordinate");
  lp.add("NODE_W", 2 * ns.pos_width, "a node as {y, x}");
  lp.blank();
  for (const char* h : {"dst_x", "dst_y", "src_x", "src_y", "type", "txn", "last", "rsvd"})
    field(lp, codec, upper(h), h, short_role(ns.require_header(h).role));
  lp.blank();
  const int type_w = codec.field("type").width;
  for (const char* t : {"MEM_RD_REQ", "MEM_WR_REQ", "MEM_WR_DATA", "MEM_RD_RESP", "MEM_WR_ACK", "ERROR"}) {
    const NocCode* c = ns.type(t);
    if (!c) agent_error(fmt::format("noc.yaml has no message type {}, which the memory agent needs", t));
    lp.add_bits(std::string("TYPE_") + t, type_w, bits_hex(c->code), short_role(c->role));
  }
  lp.blank();

  // The descriptor (mem_req), the data word and the ERROR payload.
  field(lp, codec, "MEM_REQ_ADDR", "mem_req.addr", "the byte address");
  field(lp, codec, "MEM_REQ_LEN", "mem_req.len", "beats - 1 (plain read, write)");
  const noc::FieldRef stream = codec.field("mem_req.flags.STREAM");
  lp.add("MEM_REQ_STREAM_BIT", stream.lsb, "flags.STREAM, a bit of the flit");
  field(lp, codec, "MEM_REQ_COUNT", "mem_req.count", "entries of a stream");
  const NocField& count = payload_field(ns, "mem_req", "count");
  if (!count.zero_means || count.above_max)
    agent_error("the agent reads mem_req.count as zero_means with no `above`", count.loc);
  lp.add("MEM_REQ_COUNT_ZERO_MEANS", static_cast<std::int64_t>(*count.zero_means), "count 0 means this");
  const NocField& peer = payload_field(ns, "mem_req", "peer");
  field(lp, codec, "MEM_REQ_PEER", "mem_req.peer", "the extra destinations, lowest first");
  lp.add("MEM_REQ_PEER_N", peer.repeat, "elements");
  lp.add("MEM_REQ_PEER_ELEM_W", peer.element_width());
  for (const char* sub : {"x", "y"}) {
    const NocSubfield* f = peer.subfield(sub);
    if (!f) agent_error(fmt::format("mem_req.peer has no sub-field {}, which the agent needs", sub), peer.loc);
    lp.add(fmt::format("MEM_REQ_PEER_{}_LSB", upper(sub)), f->lsb, "within an element");
    lp.add(fmt::format("MEM_REQ_PEER_{}_W", upper(sub)), f->width());
  }
  field(lp, codec, "MEM_REQ_N_PEER", "mem_req.n_peer", "peers present");
  const noc::FieldRef n_peer = codec.field("mem_req.n_peer");
  if ((1 << n_peer.width) - 1 > peer.repeat)
    agent_error(fmt::format("mem_req.n_peer counts up to {} peers, peer has {}", (1 << n_peer.width) - 1, peer.repeat));
  field(lp, codec, "MEM_REQ_ENTRY_WORDS", "mem_req.entry_words", "words an entry of a stream");
  const NocField& ew = payload_field(ns, "mem_req", "entry_words");
  if (!ew.zero_means || !ew.above_max)
    agent_error("the agent reads mem_req.entry_words with zero_means and `above`", ew.loc);
  lp.add("MEM_REQ_ENTRY_WORDS_ZERO_MEANS", static_cast<std::int64_t>(*ew.zero_means), "entry_words 0 means this");
  lp.add("MEM_REQ_ENTRY_WORDS_ABOVE_MAX", static_cast<std::int64_t>(*ew.above_max), "above this ...");
  lp.add("MEM_REQ_ENTRY_WORDS_ABOVE_MEANS", static_cast<std::int64_t>(ew.above_means), "... means this");
  field(lp, codec, "MEM_REQ_ENTRY_STRIDE", "mem_req.entry_stride", "words from an entry's start to the next's (0: E)");
  field(lp, codec, "MEM_REQ_FIRST_WORD", "mem_req.first_word", "the word index (rsvd) of an entry's first word");
  const std::uint64_t e_max = std::max({*ew.zero_means, *ew.above_max, ew.above_means});
  if (e_max < 1 || e_max > 8 || *count.zero_means < 1)
    agent_error("the agent's entries are 1 .. 8 words and a stream at least one entry", ew.loc);
  int e_w = 1;
  while ((std::uint64_t{1} << e_w) < e_max) ++e_w;
  lp.add("ENTRY_MAX", static_cast<std::int64_t>(e_max), "the most words an entry has");
  lp.add("ENTRY_IDX_W", e_w, "bits of a word index within an entry");
  field(lp, codec, "DATA_WORD", "data.word", "the 256-bit word");
  if (codec.field("data.word").width != s.word_bits)
    agent_error(fmt::format("noc.yaml's data.word is not the agent's {}-bit word", s.word_bits));
  field(lp, codec, "ERROR_RULE", "error.rule", "the rule an ERROR flit names");
  field(lp, codec, "ERROR_HEADER", "error.header", "the offending flit's header");
  if (codec.field("error.header").width != ns.header_bits)
    agent_error("noc.yaml's error.header does not hold a whole header");
  lp.blank();

  // Words and addresses.
  lp.add("WORD_W", s.word_bits, "bits of a word: one flit's data, one AXI beat");
  lp.add("WORD_BYTES", s.word_bytes(), "bytes of a word: the alignment of every address");
  lp.add("ADDR_W", ns.address_bits, "bits of a byte address");
  // The served addresses: x is served when (x & SERVE_MASK) == SERVE_VALUE;
  // a run of words from a to b is served when both ends are and they agree
  // on every bit from SERVE_LSB_MIN up (a run crossing out of a served field
  // changes it at that boundary).
  int word_shift = 0;
  while ((1 << word_shift) < s.word_bytes()) ++word_shift;
  std::uint64_t mask = 0, value = 0;
  int lsb_min = ns.address_bits;
  std::string served;
  for (const AgentServes& sv : a.serves) {
    const NocField* f = ns.address_map.field(sv.field);
    if (!f) agent_error(fmt::format("the agent serves address-map field {}, which noc.yaml lacks", sv.field), sv.loc);
    if (f->lsb < word_shift)
      agent_error(fmt::format("the agent's served field {} lies below the word's alignment (bit {}): the RTL checks "
                              "runs of words by their ends",
                              sv.field, word_shift),
                  sv.loc);
    const std::uint64_t m = (f->width() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f->width()) - 1) << f->lsb;
    mask |= m;
    value |= (sv.value << f->lsb) & m;
    lsb_min = std::min(lsb_min, f->lsb);
    served += fmt::format("{}{} = {}", served.empty() ? "" : ", ", sv.field, sv.value);
  }
  lp.add_bits("SERVE_MASK", ns.address_bits, bits_hex(mask), "the address bits `serves` names");
  lp.add_bits("SERVE_VALUE", ns.address_bits, bits_hex(value), served.empty() ? "every address" : served);
  lp.add("SERVE_LSB_MIN", lsb_min, "the lowest of them (ADDR_W: none)");
  lp.blank();

  // The error rules: codes, the RTL's indices, the spec's order.
  const int rule_w = codec.field("error.rule").width;
  lp.add("RULE_W", rule_w, "bits of an error rule's code");
  for (const SysCode& r : a.error_rules) {
    const bool known =
        r.name == kAxiRule || std::find(kRequestRules.begin(), kRequestRules.end(), r.name) != kRequestRules.end();
    if (!known)
      agent_error(fmt::format("agent error rule {} has no meaning in the hand-written agent (rtl/agent)", r.name),
                  r.loc);
    lp.add_bits("ERR_" + r.name, rule_w, fmt::format("d{}", r.code), short_role(r.role));
  }
  for (std::string_view k : kRequestRules) (void)a.require_error_rule(k);
  (void)a.require_error_rule(kAxiRule);
  const int nrules = static_cast<int>(kRequestRules.size());
  int idx_w = 1;
  while ((1 << idx_w) < nrules) ++idx_w;
  lp.add("RULES", nrules, "the request rules (every rule but AXI_RESPONSE)");
  lp.add("RULE_IDX_W", idx_w, "bits of a rule's index");
  std::string codes, order;
  for (int i = nrules - 1; i >= 0; --i)
    codes += fmt::format("{}{}'d{}", codes.empty() ? "" : ", ", rule_w,
                         a.require_error_rule(kRequestRules[static_cast<std::size_t>(i)]).code);
  for (int i = 0; i < nrules; ++i)
    lp.add(fmt::format("RULE_{}", kRequestRules[static_cast<std::size_t>(i)]), i, "the rule's index");
  std::vector<int> in_order;
  for (const SysCode& r : a.error_rules) {
    const auto it = std::find(kRequestRules.begin(), kRequestRules.end(), r.name);
    if (it != kRequestRules.end()) in_order.push_back(static_cast<int>(it - kRequestRules.begin()));
  }
  std::string names;
  for (auto it = in_order.rbegin(); it != in_order.rend(); ++it)
    order += fmt::format("{}{}'d{}", order.empty() ? "" : ", ", idx_w, *it);
  for (const int i : in_order) names += fmt::format("{}{}", names.empty() ? "" : ", ", kRequestRules[i]);
  lp.add_vector("RULE_CODES", nrules * rule_w, "{" + codes + "}", "the code of rule index i at [i*RULE_W +: RULE_W]");
  lp.add_vector("RULE_ORDER", nrules * idx_w, "{" + order + "}",
                "checked p-th: the index at [p*RULE_IDX_W +: RULE_IDX_W]");

  lp.blank();
  if (a.write_max_len < 0 || a.write_max_len > 255) agent_error("the agent's write_max_len must fit mem_req.len");
  lp.add("WRITE_MAX_LEN", a.write_max_len, "a MEM_WR_REQ's len at most this");
  lp.add("WRITE_MAX_BEATS", a.write_max_len + 1, "so a write is at most this many words");
  lp.blank();
  for (const auto& p : a.parameters) lp.add(p.name, ctx.agent_params()[p.name], short_role(p.role));
  lp.add("BOUNDARY", s.axi.boundary_bytes, "no burst crosses a multiple of this many bytes");
  lp.add("MAX_BURST", s.axi.max_burst_beats, "the most beats an AXI burst has");
  for (const auto& mst : s.axi.masters)
    lp.add("AXI_MASTER_" + upper(mst.name), mst.id, "the ID prefix of this master on the system node's AXI port");
  o += fmt::format("  // The request rules in the order they are checked (the first one broken is named):\n  // {}.\n",
                   names);
  o += lp.str();
  o += "\nendpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  return o;
}

}  // namespace tpugen::hdl
