#include "noc/endpoint.h"

#include <fmt/format.h>

#include "util/diag.h"

namespace tpugen::noc {

namespace {

/// The bit of rsvd that marks a flit for another mesh (the spec's rsvd.REMOTE).
int remote_bit(const NocSpec& s) {
  const NocFlag* f = s.require_header("rsvd").flag("REMOTE");
  if (!f)
    throw Error("noc.spec", "the header's rsvd has no flag REMOTE (the remote-mesh marker)",
                s.require_header("rsvd").loc);
  return f->bit;
}

}  // namespace

bool breaks_rule(const Codec& codec, std::string_view rule, const Header& h, const Endpoint& at) {
  const NocSpec& s = codec.spec();
  if (rule == "DST_OUTSIDE_MESH") return static_cast<int>(h.dst_x) >= at.nx || static_cast<int>(h.dst_y) >= at.ny;
  if (rule == "RESERVED_TYPE") return s.reserved_types.contains(h.type);
  if (rule == "REMOTE_MESH") return ((h.rsvd >> remote_bit(s)) & 1U) != 0;
  if (rule == "RSVD_ON_CU_INST") return h.type == s.require_type("CU_INST").code && h.rsvd != 0;
  if (rule == "SRC_NOT_SENDER") return h.src() != at.at;
  throw Error("noc.spec", fmt::format("error rule {} has no meaning in gen/noc/endpoint.cpp", rule),
              s.require_error_rule(rule).loc);
}

const NocCode* broken_rule(const Codec& codec, const Flit& f, const Endpoint& at) {
  const Header h = codec.header(f);
  for (const auto& r : codec.spec().error_rules)
    if (breaks_rule(codec, r.name, h, at)) return &r;
  return nullptr;
}

Flit error_flit(const Codec& codec, const Flit& offending, const NocCode& rule, Coord at) {
  return error_flit(codec, offending, rule.code, at, at);
}

Flit error_flit(const Codec& codec, const Flit& offending, std::uint32_t rule_code, Coord to, Coord from) {
  const Header bad = codec.header(offending);
  Flit e;
  codec.set_header(e, Header::between(to, from, codec.type_code("ERROR"), bad.txn, 1));
  codec.set(e, "error.rule", rule_code);
  codec.set(e, "error.header", codec.header_bits(offending));
  return e;
}

Flit admit(const Codec& codec, const Flit& f, const Endpoint& at) {
  if (const NocCode* r = broken_rule(codec, f, at)) return error_flit(codec, f, *r, at.at);
  return f;
}

}  // namespace tpugen::noc
