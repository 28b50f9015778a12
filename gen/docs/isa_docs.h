/// @file isa_docs.h
/// @brief docs/isa.md: the ISA's tables, generated from the spec.
///
/// The document is a pure function of the spec file (and its default
/// parameters): no environment variable, time or path enters it, so
/// `tpugen docs --check` can diff it in CI.
#pragma once

#include <string>

#include "spec/spec.h"

namespace tpugen {

/// The whole Markdown document for a loaded spec.
std::string render_isa_markdown(const Spec& spec);

/// Compare a file with the rendering; returns an empty string when equal,
/// else a short report naming the first differing line.
std::string docs_drift(const Spec& spec, const std::string& path);

}  // namespace tpugen
