/// @file package_uses.h
/// @brief Every `pkg::NAME` a module reads is a name its package declares.
///
/// The hand-written modules under rtl/ read constants (fault codes, field
/// positions, widths) from the package the generator writes from the spec.
/// A name the package does not declare (a fault the spec dropped, a field it
/// renamed) would otherwise surface only when a tool elaborates the files;
/// generate() checks each module's text against the package's text first.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tpugen::hdl {

/// The names a package's text declares: its localparams, parameters and
/// typedefs.
std::set<std::string> package_names(std::string_view package_text);

/// Throws Error("gen.package") naming `file`, its line and the name when
/// `text` reads `<package>::NAME` for a NAME not in `declared`.
void check_package_uses(std::string_view package, const std::set<std::string>& declared, std::string_view file,
                        std::string_view text);

/// Throws Error("gen.package") naming `file` and its line when `text` reads
/// `<name>_pkg::` for a package not in `packages` (the top's).
void check_known_packages(const std::vector<std::string_view>& packages, std::string_view file, std::string_view text);

}  // namespace tpugen::hdl
