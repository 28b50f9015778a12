/// @file endpoint.h
/// @brief What a router does with a flit its local port takes in: check it
/// against the spec's error rules (in the spec's order, the first broken one
/// named) and, for a malformed flit, the ERROR flit that replaces it, sent
/// back to the sender. The RTL's check (tpu_noc_check) is generated from
/// the same rules in the same order.
#pragma once

#include <cstdint>
#include <string_view>

#include "noc/codec.h"

namespace tpugen::noc {

/// The mesh a flit enters: its size, and the node whose local port takes it.
struct Endpoint {
  int nx = 1, ny = 1;
  Coord at;
};

/// Does the flit break the rule of that name? Throws Error("noc.spec") for a
/// rule name this library has no meaning for (a rule added to the spec must
/// be given one here and in the RTL's check).
[[nodiscard]] bool breaks_rule(const Codec& codec, std::string_view rule, const Header& h, const Endpoint& at);

/// The first of the spec's error rules the flit breaks, or nullptr.
[[nodiscard]] const NocCode* broken_rule(const Codec& codec, const Flit& f, const Endpoint& at);

/// The ERROR flit that answers `offending`: to the sender's node, from it,
/// type ERROR, the offending txn, last 1, rsvd 0; the payload names the rule
/// and carries the offending header.
[[nodiscard]] Flit error_flit(const Codec& codec, const Flit& offending, const NocCode& rule, Coord at);

/// The same ERROR flit sent by an endpoint rather than reflected by the
/// router: to `to`, from `from`, type ERROR, the offending txn, last 1,
/// rsvd 0; the payload names `rule_code` (any rule list's code: the agent's
/// are system_node.yaml's) and carries the offending header.
[[nodiscard]] Flit error_flit(const Codec& codec, const Flit& offending, std::uint32_t rule_code, Coord to, Coord from);

/// What the local port passes on: the flit, or its ERROR flit.
[[nodiscard]] Flit admit(const Codec& codec, const Flit& f, const Endpoint& at);

}  // namespace tpugen::noc
