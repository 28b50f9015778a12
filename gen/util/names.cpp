#include "util/names.h"

#include <cctype>

namespace tpugen {

namespace {
char to_upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }
char to_lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
}  // namespace

std::string upper(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = c == '.' ? '_' : to_upper(c);
  return o;
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = to_lower(c);
  return o;
}

std::string camel(std::string_view s) {
  std::string o;
  bool start = true;
  for (const char c : s) {
    if (c == '_' || c == '.') {
      start = true;
      continue;
    }
    o += start ? to_upper(c) : c;
    start = false;
  }
  return o;
}

std::string kebab(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = c == '_' ? '-' : to_lower(c);
  return o;
}

}  // namespace tpugen
