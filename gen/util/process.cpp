#include "util/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string_view>

#include "util/diag.h"
#include "util/file_io.h"

extern char** environ;  // NOLINT: POSIX

namespace tpugen {

namespace fs = std::filesystem;

namespace {

/// The caller's environment with `extra` set (replacing a variable of the same name).
std::vector<std::string> environment(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view var(*e);
    bool replaced = false;
    for (const auto& [name, _] : extra)
      replaced = replaced || (var.size() > name.size() && var.substr(0, name.size()) == name && var[name.size()] == '=');
    if (!replaced) env.emplace_back(var);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (const auto& s : strings) p.push_back(const_cast<char*>(s.c_str()));
  p.push_back(nullptr);
  return p;
}

/// A file descriptor closed at the end of its scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

/// posix_spawn_file_actions_t, destroyed at the end of its scope.
class FileActions {
 public:
  FileActions() { ::posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_{};
};

std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      return out;
    } else if (errno != EINTR) {
      throw Error("process.io", fmt::format("cannot read a child's output: {}", std::strerror(errno)));
    }
  }
}

}  // namespace

bool ProcessResult::interrupted() const { return signal == SIGINT; }

std::string ProcessResult::describe() const {
  if (signal == 0) return fmt::format("exit {}", exit_code);
  const char* name = ::strsignal(signal);
  return fmt::format("signal {} ({})", signal, name ? name : "unknown");
}

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) throw Error(spec.rule, "no program to run");
  const std::string& program = spec.argv.front();
  if (!spec.cwd.empty() && !fs::is_directory(spec.cwd))
    throw Error(spec.rule, fmt::format("cannot start '{}': no directory '{}'", program, spec.cwd.string()));

  FileActions actions;
  ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  Fd log, pipe_read, pipe_write;
  if (!spec.log.empty()) {
    log.reset(::open(spec.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (log.get() < 0)
      throw Error("process.io", fmt::format("cannot write '{}': {}", spec.log.string(), std::strerror(errno)),
                  SourceLoc{spec.log.string()});
    ::posix_spawn_file_actions_adddup2(actions.get(), log.get(), STDOUT_FILENO);
    ::posix_spawn_file_actions_adddup2(actions.get(), log.get(), STDERR_FILENO);
  } else if (spec.capture) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw Error("process.io", fmt::format("cannot make a pipe: {}", std::strerror(errno)));
    pipe_read.reset(fds[0]);
    pipe_write.reset(fds[1]);
    ::posix_spawn_file_actions_adddup2(actions.get(), pipe_write.get(), STDOUT_FILENO);
    ::posix_spawn_file_actions_adddup2(actions.get(), pipe_write.get(), STDERR_FILENO);
  }
  if (!spec.cwd.empty()) ::posix_spawn_file_actions_addchdir_np(actions.get(), spec.cwd.c_str());

  std::vector<char*> argv = pointers(spec.argv);
  const std::vector<std::string> env_strings = spec.env.empty() ? std::vector<std::string>{} : environment(spec.env);
  std::vector<char*> envp = pointers(env_strings);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, program.c_str(), actions.get(), nullptr, argv.data(),
                                 spec.env.empty() ? environ : envp.data());
  pipe_write.reset();  // the child holds its own copy: EOF when it ends
  log.reset();
  if (err != 0) {
    const bool on_path = program.find('/') == std::string::npos;
    throw Error(spec.rule, fmt::format("cannot start '{}': {}", program,
                                       err == ENOENT && on_path ? "not found on PATH" : std::strerror(err)));
  }

  ProcessResult r;
  std::string piped;
  std::string read_error;
  if (pipe_read.get() >= 0) {
    try {
      piped = read_all(pipe_read.get());
    } catch (const Error& e) {
      read_error = e.message();  // reap the child first
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) == -1)
    if (errno != EINTR) throw Error(spec.rule, fmt::format("lost '{}': {}", program, std::strerror(errno)));
  if (!read_error.empty()) throw Error("process.io", read_error);
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  if (spec.capture) r.output = spec.log.empty() ? std::move(piped) : read_file(spec.log, "process.io");
  return r;
}

std::string process_output(const std::vector<std::string>& argv) {
  try {
    ProcessSpec spec;
    spec.argv = argv;
    spec.capture = true;
    return run_process(spec).output;
  } catch (const Error&) {
    return "";
  }
}

}  // namespace tpugen
