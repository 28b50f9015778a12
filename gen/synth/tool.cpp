#include "synth/tool.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "spec/diag.h"
#include "spec/file_io.h"

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
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log_path = fs::absolute(log).string();
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = 0;
  const int err = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw Error("synth.tool", fmt::format("cannot start '{}': {}", argv.front(), std::strerror(err)));
  int status = 0;
  while (::waitpid(pid, &status, 0) == -1)
    if (errno != EINTR) throw Error("synth.tool", fmt::format("lost '{}': {}", argv.front(), std::strerror(errno)));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : status;
}

std::string version_line(const std::vector<std::string>& argv, const fs::path& scratch) {
  if (run_logged(argv, scratch) != 0) return "unknown";
  std::stringstream text(read_file(scratch, "synth.io"));
  std::error_code ec;
  fs::remove(scratch, ec);
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
