/// @file template.h
/// @brief The one strict text-template filler: every placeholder replaced by
/// its value by name, for the fpga/ templates (`{{name}}`: Yosys scripts,
/// SDC, XDC, the Vivado script, the FuseSoC core) and the SystemVerilog ones
/// (`@NAME@`: the emitters' templates; SystemVerilog has no use for '@', a
/// name and another '@', so those stay readable as SystemVerilog).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tpugen {

/// Values by placeholder name.
using TemplateValues = std::map<std::string, std::string>;

/// How one family of templates writes a placeholder, and how strict it is.
struct TemplateSyntax {
  std::string_view open, close;  ///< around a name (letters, digits, underscores)
  std::string_view rule;         ///< the Error rule of a bad fill
  /// A value that no placeholder names is an error too (off for the fpga/
  /// templates: one value map serves all of them).
  bool refuse_unused = false;
};

/// The files under fpga/: `{{name}}`; single braces (TCL, XDC) are text.
inline constexpr TemplateSyntax kFpgaTemplate{"{{", "}}", "synth.template", false};
/// SystemVerilog templates: `@NAME@`; every value must be used.
inline constexpr TemplateSyntax kSvTemplate{"@", "@", "rtl.template", true};

/// Replace every placeholder in `text` by its value, in one pass (a value is
/// not searched for placeholders). Anything that is not a placeholder (an
/// opening delimiter not followed by a name and the closing one) is copied
/// as it is. Throws Error(syntax.rule) naming the template, its line and the
/// placeholder when a placeholder has no value, and (refuse_unused) naming
/// the value when no placeholder uses it.
std::string fill_template(std::string_view text, const TemplateValues& values, std::string_view template_name,
                          const TemplateSyntax& syntax);

}  // namespace tpugen
