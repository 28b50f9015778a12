/// @file ime_docs.h
/// @brief docs/ime_isa.md: the IME spec's tables (the formats and their
/// fields, the 46 instructions with their derived MATCH and MASK words, the
/// data types and signedness variants, the sub-extensions and the profiles'
/// tiles), written by `tpugen docs` and checked by `tpugen docs --check`.
#pragma once

#include <string>

#include "spec/ime_spec.h"

namespace tpugen {

/// The whole document, as Markdown (a pure function of the spec file).
std::string render_ime_markdown(const ImeSpec& spec);

}  // namespace tpugen
