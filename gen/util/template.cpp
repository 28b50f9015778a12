#include "util/template.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "util/diag.h"

namespace tpugen {

namespace {
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
}  // namespace

std::string fill_template(std::string_view text, const TemplateValues& values, std::string_view template_name,
                          const TemplateSyntax& syntax) {
  std::string out;
  out.reserve(text.size());
  std::set<std::string> used;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find(syntax.open, pos);
    if (open == std::string_view::npos) break;
    const std::size_t name_at = open + syntax.open.size();
    std::size_t end = name_at;
    while (end < text.size() && name_char(text[end])) ++end;
    const bool placeholder = end > name_at && text.substr(end, syntax.close.size()) == syntax.close;
    if (!placeholder) {  // not ours: copy the delimiter's first character and look again after it
      out.append(text.substr(pos, open + 1 - pos));
      pos = open + 1;
      continue;
    }
    const std::string name(text.substr(name_at, end - name_at));
    const auto it = values.find(name);
    if (it == values.end()) {
      const auto line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open), '\n')) + 1;
      throw Error(std::string(syntax.rule),
                  fmt::format("template '{}' line {}: no value for the placeholder {}{}{}", template_name, line,
                              syntax.open, name, syntax.close),
                  SourceLoc{std::string(template_name), line});
    }
    used.insert(name);
    out.append(text.substr(pos, open - pos));
    out += it->second;
    pos = end + syntax.close.size();
  }
  out.append(text.substr(pos));
  if (syntax.refuse_unused)
    for (const auto& [name, value] : values)
      if (used.count(name) == 0)
        throw Error(std::string(syntax.rule),
                    fmt::format("template '{}': a value for {}{}{}, which it does not use", template_name, syntax.open,
                                name, syntax.close),
                    SourceLoc{std::string(template_name)});
  return out;
}

}  // namespace tpugen
