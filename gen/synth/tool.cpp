#include "synth/tool.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "util/diag.h"
#include "util/process.h"

namespace tpugen::synth {

namespace fs = std::filesystem;

namespace {
bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }
}  // namespace

fs::path locate(const Tool& tool) {
  if (tool.command.find('/') != std::string::npos) {
    if (executable(tool.command)) return fs::absolute(tool.command);
  } else if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && executable(fs::path(dir) / tool.command)) return fs::path(dir) / tool.command;
  }
  throw Error("synth.tool", fmt::format("'{}' not found on PATH: install the Debian package {} "
                                        "(apt-get install {}; ci/install-deps.sh installs it)",
                                        tool.command, tool.package, tool.package));
}

int run_logged(const std::vector<std::string>& argv, const fs::path& log, const fs::path& cwd) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.log = log;
  spec.cwd = cwd;
  spec.rule = "synth.tool";
  return run_process(spec).status();
}

std::string version_line(const std::vector<std::string>& argv) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.capture = true;
  spec.rule = "synth.tool";
  const ProcessResult r = run_process(spec);
  if (!r.ok()) return "unknown";
  std::stringstream text(r.output);
  std::string line;
  while (std::getline(text, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  return "unknown";
}

std::string last_lines(const std::string& text, std::size_t n) {
  std::size_t pos = text.size();
  while (pos > 0 && text[pos - 1] == '\n') --pos;
  for (std::size_t i = 0; i < n; ++i) {
    const auto nl = pos == 0 ? std::string::npos : text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    pos = nl;
  }
  return text.substr(pos + 1);
}

}  // namespace tpugen::synth
