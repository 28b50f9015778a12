#include "util/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/socket.h>
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
  /// Give the descriptor up (not closed here).
  void release() { fd_ = -1; }
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


/// Start `spec.argv` with `actions`, in `spec.cwd`, with `spec.env`. Throws
/// Error(spec.rule) when it cannot be started.
pid_t spawn(const ProcessSpec& spec, FileActions& actions) {
  if (spec.argv.empty() || spec.argv.front().empty()) throw Error(spec.rule, "no program to run");
  const std::string& program = spec.argv.front();
  if (!spec.cwd.empty() && !fs::is_directory(spec.cwd))
    throw Error(spec.rule, fmt::format("cannot start '{}': no directory '{}'", program, spec.cwd.string()));
  if (!spec.cwd.empty()) ::posix_spawn_file_actions_addchdir_np(actions.get(), spec.cwd.c_str());
  std::vector<char*> argv = pointers(spec.argv);
  const std::vector<std::string> env_strings = spec.env.empty() ? std::vector<std::string>{} : environment(spec.env);
  std::vector<char*> envp = pointers(env_strings);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, program.c_str(), actions.get(), nullptr, argv.data(),
                                 spec.env.empty() ? environ : envp.data());
  if (err != 0) {
    const bool on_path = program.find('/') == std::string::npos;
    throw Error(spec.rule, fmt::format("cannot start '{}': {}", program,
                                       err == ENOENT && on_path ? "not found on PATH" : std::strerror(err)));
  }
  return pid;
}

/// Wait for `pid` to end: how it ended.
ProcessResult reap(pid_t pid, const ProcessSpec& spec) {
  int status = 0;
  while (::waitpid(pid, &status, 0) == -1)
    if (errno != EINTR) throw Error(spec.rule, fmt::format("lost '{}': {}", spec.argv.front(), std::strerror(errno)));
  ProcessResult r;
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return r;
}

/// Standard output and error to `log` (truncated first), opened into `fd`.
void log_to(const fs::path& log, Fd& fd, FileActions& actions, bool with_stdout) {
  fd.reset(::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    throw Error("process.io", fmt::format("cannot write '{}': {}", log.string(), std::strerror(errno)),
                SourceLoc{log.string()});
  if (with_stdout) ::posix_spawn_file_actions_adddup2(actions.get(), fd.get(), STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), fd.get(), STDERR_FILENO);
}
}  // namespace

bool ProcessResult::interrupted() const { return signal == SIGINT; }

std::string ProcessResult::describe() const {
  if (signal == 0) return fmt::format("exit {}", exit_code);
  const char* name = ::strsignal(signal);
  return fmt::format("signal {} ({})", signal, name ? name : "unknown");
}

ProcessResult run_process(const ProcessSpec& spec) {
  FileActions actions;
  ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  Fd log, pipe_read, pipe_write;
  if (!spec.log.empty()) {
    log_to(spec.log, log, actions, true);
  } else if (spec.capture) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw Error("process.io", fmt::format("cannot make a pipe: {}", std::strerror(errno)));
    pipe_read.reset(fds[0]);
    pipe_write.reset(fds[1]);
    ::posix_spawn_file_actions_adddup2(actions.get(), pipe_write.get(), STDOUT_FILENO);
    ::posix_spawn_file_actions_adddup2(actions.get(), pipe_write.get(), STDERR_FILENO);
  }

  const pid_t pid = spawn(spec, actions);
  pipe_write.reset();  // the child holds its own copy: EOF when it ends
  log.reset();

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
  const ProcessResult ended = reap(pid, spec);
  if (!read_error.empty()) throw Error("process.io", read_error);
  r.exit_code = ended.exit_code;
  r.signal = ended.signal;
  if (spec.capture) r.output = spec.log.empty() ? std::move(piped) : read_file(spec.log, "process.io");
  return r;
}

Conversation::Conversation(const ProcessSpec& spec) : spec_(spec) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw Error("process.io", fmt::format("cannot make a socket pair: {}", std::strerror(errno)));
  Fd ours(sv[0]), theirs(sv[1]), log;
  FileActions actions;
  ::posix_spawn_file_actions_adddup2(actions.get(), theirs.get(), STDIN_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), theirs.get(), STDOUT_FILENO);
  if (!spec.log.empty())
    log_to(spec.log, log, actions, false);
  else
    ::posix_spawn_file_actions_addopen(actions.get(), STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_ = spawn(spec, actions);
  fd_ = sv[0];
  ours.release();
}

Conversation::~Conversation() {
  if (fd_ >= 0) ::close(fd_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) == -1 && errno == EINTR) {
    }
  }
}

void Conversation::send(std::string_view line) {
  std::string text(line);
  text += '\n';
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t n = ::send(fd_, text.data() + at, text.size() - at, MSG_NOSIGNAL);
    if (n > 0) {
      at += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      throw Error("process.io",
                  fmt::format("cannot write to '{}' (it ended?): {}", spec_.argv.front(), std::strerror(errno)));
    }
  }
}

std::optional<std::string> Conversation::receive() {
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    char buf[4096];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n > 0) {
      buffer_.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      if (buffer_.empty()) return std::nullopt;
      std::string line = std::move(buffer_);
      buffer_.clear();
      return line;
    } else if (errno != EINTR) {
      throw Error("process.io", fmt::format("cannot read from '{}': {}", spec_.argv.front(), std::strerror(errno)));
    }
  }
}

ProcessResult Conversation::finish() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  while (receive()) {
  }  // what it still prints
  ::close(fd_);
  fd_ = -1;
  const ProcessResult r = reap(pid_, spec_);
  pid_ = -1;
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
