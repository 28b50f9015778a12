/// @file noc_docs.h
/// @brief docs/noc.md's generated part: the NoC spec's tables (flit header,
/// types, payload layouts, signals, control registers, address map,
/// ownership, error rules, ports, routings, build parameters), written
/// between the document's markers by `tpugen docs` and checked by
/// `tpugen docs --check`.
#pragma once

#include <string>
#include <vector>

#include "spec/noc_spec.h"

namespace tpugen {

/// The tables, as Markdown (a pure function of the spec file).
std::string render_noc_tables(const NocSpec& spec);

/// A table of build parameters (the fabric's, the system node's); `choices`
/// is the list a choice parameter chooses from (nullptr when none does).
std::string build_params_table(const std::vector<NocParameter>& parameters, const std::vector<NocCode>* choices);

/// `doc` (docs/noc.md's text) with its generated part replaced by the tables;
/// throws Error("docs.noc") naming `path` when a marker is missing.
std::string with_noc_tables(const std::string& doc, const NocSpec& spec, const std::string& path);

}  // namespace tpugen
