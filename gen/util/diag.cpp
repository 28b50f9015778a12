#include "util/diag.h"

#include <fmt/format.h>

namespace tpugen {

std::string SourceLoc::str() const {
  if (file.empty() && line == 0) return {};
  if (line == 0) return file;
  if (column == 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

namespace {
std::string compose(const std::string& rule, const std::string& message, const SourceLoc& where) {
  const std::string loc = where.str();
  if (loc.empty()) return fmt::format("error [{}]: {}", rule, message);
  return fmt::format("{}: error [{}]: {}", loc, rule, message);
}
}  // namespace

Error::Error(std::string rule, std::string message, SourceLoc where)
    : std::runtime_error(compose(rule, message, where)),
      rule_(std::move(rule)),
      message_(std::move(message)),
      where_(std::move(where)) {}

}  // namespace tpugen
