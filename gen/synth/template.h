/// @file template.h
/// @brief The `{{name}}` placeholders of the files under fpga/ (Yosys
/// scripts, SDC, XDC, the Vivado script, the FuseSoC core), filled in by name.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tpugen::synth {

/// Values by placeholder name.
using TemplateValues = std::map<std::string, std::string>;

/// Replace every `{{name}}` (name: letters, digits, underscores) in `text` by
/// its value. Anything else, single braces included (TCL, XDC), is copied as
/// it is. Throws Error("synth.template") naming the template, its line and
/// the placeholder when a placeholder has no value.
std::string fill_template(std::string_view text, const TemplateValues& values, std::string_view template_name);

}  // namespace tpugen::synth
