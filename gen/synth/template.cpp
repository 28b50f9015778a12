#include "synth/template.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "util/diag.h"

namespace tpugen::synth {

namespace {
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
}  // namespace

std::string fill_template(std::string_view text, const TemplateValues& values, std::string_view template_name) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) break;
    std::size_t end = open + 2;
    while (end < text.size() && name_char(text[end])) ++end;
    const bool placeholder = end > open + 2 && text.substr(end, 2) == "}}";
    if (!placeholder) {  // not ours: copy the first brace and look again after it
      out.append(text.substr(pos, open + 1 - pos));
      pos = open + 1;
      continue;
    }
    const std::string name(text.substr(open + 2, end - open - 2));
    const auto it = values.find(name);
    if (it == values.end()) {
      const auto line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open), '\n')) + 1;
      throw Error("synth.template", fmt::format("template '{}' line {}: no value for the placeholder {{{{{}}}}}",
                                                template_name, line, name),
                  SourceLoc{std::string(template_name), line});
    }
    out.append(text.substr(pos, open - pos));
    out += it->second;
    pos = end + 2;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace tpugen::synth
