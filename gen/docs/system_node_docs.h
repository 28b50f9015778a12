/// @file system_node_docs.h
/// @brief docs/system_node.md's generated part: the system node spec's tables
/// (the mover's registers, modes, element widths, flags, walkers, bound
/// selectors, faults in check order, the transform slot, the quantiser's
/// constants, the agent's rules, the AXI master, the build parameters),
/// written between the document's markers by `tpugen docs` and checked by
/// `tpugen docs --check`.
#pragma once

#include <string>

#include "spec/system_node_spec.h"

namespace tpugen {

/// The tables, as Markdown (a pure function of the spec file).
std::string render_system_node_tables(const SystemNodeSpec& spec);

/// `doc` with its generated part replaced by the tables; throws
/// Error("docs.sysnode") naming `path` when a marker is missing.
std::string with_system_node_tables(const std::string& doc, const SystemNodeSpec& spec, const std::string& path);

}  // namespace tpugen
