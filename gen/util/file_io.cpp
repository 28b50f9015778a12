#include "util/file_io.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "util/diag.h"

namespace tpugen {

std::string read_file(const std::filesystem::path& path, std::string_view rule) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  if (f) ss << f.rdbuf();
  if (!f) throw Error(std::string(rule), fmt::format("cannot read '{}'", path.string()), SourceLoc{path.string()});
  return ss.str();
}

void write_file(const std::filesystem::path& path, std::string_view text, std::string_view rule) {
  std::ofstream f(path, std::ios::binary);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!f) throw Error(std::string(rule), fmt::format("cannot write '{}'", path.string()), SourceLoc{path.string()});
}

}  // namespace tpugen
