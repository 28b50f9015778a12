/// @file compute_units_docs.h
/// @brief docs/compute_units.md's generated part: the compute-units spec's
/// tables (the CU wrapper's steering, retirement, fault result, faults and
/// parameters; the orchestrator's register map, channel registers, states,
/// kick errors and parameters; each unit's buffers, tags, opcodes with their
/// payload fields, status selects and faults), written between the
/// document's markers by `tpugen docs` and checked by `tpugen docs --check`.
#pragma once

#include <string>

#include "spec/compute_units_spec.h"

namespace tpugen {

/// The tables, as Markdown (a pure function of the spec file).
std::string render_compute_units_tables(const ComputeUnitsSpec& spec);

/// `doc` with its generated part replaced by the tables; throws
/// Error("docs.cu") naming `path` when a marker is missing.
std::string with_compute_units_tables(const std::string& doc, const ComputeUnitsSpec& spec, const std::string& path);

}  // namespace tpugen
