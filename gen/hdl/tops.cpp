#include "hdl/tops.h"

#include <fmt/format.h>

#include "util/diag.h"

namespace tpugen::hdl {

namespace {

/// The core's modules after the package and the primitives.
std::vector<std::string_view> core_modules() {
  return {"tpu_pe",      "tpu_array",     "tpu_seq_fetch", "tpu_seq_agu", "tpu_seq_issue", "tpu_seq_run",
          "tpu_sequencer", "tpu_instr_slot", "tpu_dma_rd", "tpu_dma_ld",    "tpu_mem_queue", "tpu_spm",     "tpu_vru",       "tpu_accu",
          "tpu_dma_wr",  "tpu_dma_st",    "tpu_top"};
}

std::vector<std::string_view> axi_modules() {
  std::vector<std::string_view> m = core_modules();
  m.insert(m.end(), {"tpu_axi_ctrl", "tpu_axi_top"});
  return m;
}

}  // namespace

const std::vector<Top>& tops() {
  static const std::vector<Top> table = {
      {TopKind::Core, "core", "tpu_top", "the core, with its valid/ready memory ports", {"tpu_pkg"}, {"prim"},
       core_modules()},
      {TopKind::Axi, "axi", "tpu_axi_top", "the core behind AXI4 masters and an AXI4-Lite ap_ctrl_hs control slave",
       {"tpu_pkg", "tpu_axi_pkg"}, {"prim", "axi"}, axi_modules(), true},
  };
  return table;
}

const Top& top_of(TopKind kind) {
  for (const auto& t : tops())
    if (t.kind == kind) return t;
  throw Error("rtl.top", fmt::format("no top of kind {}", static_cast<int>(kind)));
}

const Top* top_named(std::string_view name) {
  for (const auto& t : tops())
    if (t.name == name) return &t;
  return nullptr;
}

std::string top_choices() {
  std::string s;
  for (const auto& t : tops()) s += (s.empty() ? "" : "|") + std::string(t.name);
  return s;
}

}  // namespace tpugen::hdl
