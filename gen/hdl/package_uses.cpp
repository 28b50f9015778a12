#include "hdl/package_uses.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "util/diag.h"

namespace tpugen::hdl {

namespace {

/// `text` with its comments blanked (newlines kept, so lines still count):
/// a comment may name a pattern (`tpu_pkg::HDR_<NAME>_W`) rather than a name.
std::string without_comments(std::string_view text) {
  std::string t(text);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] == '"') {
      const std::size_t end = t.find('"', i + 1);
      if (end == std::string::npos) break;
      i = end;
    } else if (t[i] == '/' && t[i + 1] == '/') {
      while (i < t.size() && t[i] != '\n') t[i++] = ' ';
    } else if (t[i] == '/' && t[i + 1] == '*') {
      for (; i + 1 < t.size() && !(t[i] == '*' && t[i + 1] == '/'); ++i)
        if (t[i] != '\n') t[i] = ' ';
      if (i + 1 < t.size()) t[i] = t[i + 1] = ' ';
    }
  }
  return t;
}

}  // namespace

std::set<std::string> package_names(std::string_view package_text) {
  // `localparam <type> NAME =` (the name is the last identifier before `=`)
  // and `} NAME;` closing a typedef.
  static const std::regex kParam(R"(\b(?:localparam|parameter)\b[^=;]*?\b([A-Za-z_]\w*)\s*=)");
  static const std::regex kTypedef(R"(\}\s*([A-Za-z_]\w*)\s*;)");
  std::set<std::string> names;
  const std::string text = without_comments(package_text);
  for (const auto* re : {&kParam, &kTypedef})
    for (auto it = std::sregex_iterator(text.begin(), text.end(), *re); it != std::sregex_iterator(); ++it)
      names.insert((*it)[1].str());
  return names;
}

void check_package_uses(std::string_view package, const std::set<std::string>& declared, std::string_view file,
                        std::string_view text) {
  const std::regex use(fmt::format(R"(\b{}::([A-Za-z_]\w*))", package));
  const std::string t = without_comments(text);
  for (auto it = std::sregex_iterator(t.begin(), t.end(), use); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].str();
    if (declared.count(name)) continue;
    const auto pos = static_cast<std::size_t>(it->position(0));
    const int line = 1 + static_cast<int>(std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    throw Error("gen.package",
                fmt::format("reads {0}::{1}, but {0} (written from the spec) does not declare {1}", package, name),
                SourceLoc{std::string(file), line});
  }
}

void check_known_packages(const std::vector<std::string_view>& packages, std::string_view file, std::string_view text) {
  static const std::regex kUse(R"(\b(\w+_pkg)::)");
  const std::string t = without_comments(text);
  for (auto it = std::sregex_iterator(t.begin(), t.end(), kUse); it != std::sregex_iterator(); ++it) {
    const std::string package = (*it)[1].str();
    if (std::find(packages.begin(), packages.end(), package) != packages.end()) continue;
    const auto pos = static_cast<std::ptrdiff_t>(it->position(0));
    throw Error("gen.package",
                fmt::format("reads {}::, but this top has no such package (it has {})", package,
                            fmt::join(packages, ", ")),
                SourceLoc{std::string(file), 1 + static_cast<int>(std::count(t.begin(), t.begin() + pos, '\n'))});
  }
}

}  // namespace tpugen::hdl
