/// @file axi_docs.h
/// @brief docs/axi_top.md: the AXI top's register map and master streams,
/// generated from spec/axi_top.yaml (a pure function of that file, checked
/// for drift by `tpugen docs --check`).
#pragma once

#include <string>

#include "spec/axi_spec.h"

namespace tpugen {

/// The whole Markdown document for a loaded AXI top spec.
std::string render_axi_markdown(const AxiTopSpec& axi);

}  // namespace tpugen
