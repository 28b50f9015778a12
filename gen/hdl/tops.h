/// @file tops.h
/// @brief The kinds of top a configuration can have, each a list of the
/// modules it is made of. generate() writes a configuration's packages, the
/// hand-written primitives of the top's rtl/ folders and its modules, in that
/// order; a new kind of top (a NoC mesh, a system node, a matrix unit) is a
/// new row here with its emitters, not another flag.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/rtl_options.h"

namespace tpugen::hdl {

struct Top {
  TopKind kind;
  std::string_view name;         ///< the --top word: "core"
  std::string_view module;       ///< the top module: "tpu_top"
  std::string_view description;  ///< what it is, for --help
  /// The package modules, written first, in order: "tpu_pkg" (and the AXI
  /// top's "tpu_axi_pkg").
  std::vector<std::string_view> packages;
  /// Folders under rtl/ whose hand-written primitives every configuration of
  /// this top holds (all their .sv files, by name), after the packages.
  std::vector<std::string_view> rtl_dirs;
  /// The modules after the primitives, in dependency order (the top last),
  /// each by its name in the emitter table (generate.h).
  std::vector<std::string_view> modules;
  bool reads_axi_spec = false;  ///< the top's host interface is spec/axi_top.yaml
};

/// Every kind of top, in --top's order (the default first).
[[nodiscard]] const std::vector<Top>& tops();
[[nodiscard]] const Top& top_of(TopKind kind);
/// nullptr for a name no top has.
[[nodiscard]] const Top* top_named(std::string_view name);
/// The --top words, '|'-separated: "core|axi".
[[nodiscard]] std::string top_choices();

}  // namespace tpugen::hdl
