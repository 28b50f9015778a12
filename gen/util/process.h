/// @file process.h
/// @brief The one way tpugen runs a child process: an argv (no shell), an
/// optional working directory and environment additions, standard input from
/// /dev/null, standard output and error together to a log file and/or back as
/// a string; the exit code or the signal that ended it.
///
/// Not the C library's system() or a pipe to a shell: those run /bin/sh, and
/// system() ignores SIGINT in the whole calling process while the child runs,
/// so a campaign running simulators back to back on several threads would
/// never see Ctrl-C.
/// Here the child shares the caller's process group and signal dispositions:
/// Ctrl-C reaches both, and a child that died of it says so (interrupted()).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tpugen {

/// What to run and where its output goes.
struct ProcessSpec {
  /// argv[0] is a path, or a name looked up on PATH.
  std::vector<std::string> argv;
  /// The child's working directory; empty: the caller's. A relative argv[0]
  /// with a '/' is found from there.
  std::filesystem::path cwd;
  /// Standard output and error, together, to this file (truncated first; a
  /// relative path is the caller's, not `cwd`'s). Empty: no log file.
  std::filesystem::path log;
  /// Also return the output in ProcessResult::output.
  bool capture = false;
  /// Variables set in the child's environment besides the caller's (a name
  /// already set is replaced).
  std::vector<std::pair<std::string, std::string>> env;
  /// The rule of the Error thrown when the child cannot be started.
  std::string rule = "process.start";
};

/// How a child ended.
struct ProcessResult {
  int exit_code = -1;  ///< its exit status; -1 when a signal ended it
  int signal = 0;      ///< the signal that ended it; 0 when it exited
  std::string output;  ///< standard output and error (ProcessSpec::capture only)

  /// It exited with status 0.
  [[nodiscard]] bool ok() const { return signal == 0 && exit_code == 0; }
  /// SIGINT ended it (Ctrl-C).
  [[nodiscard]] bool interrupted() const;
  /// The status as a shell reports it: the exit code, or 128 + the signal.
  [[nodiscard]] int status() const { return signal != 0 ? 128 + signal : exit_code; }
  /// "exit 3" or "signal 9 (Killed)".
  [[nodiscard]] std::string describe() const;
};

/// Run a child to its end. Throws Error(spec.rule) naming the program when
/// it cannot be started (not found, not executable, no such cwd) and
/// Error("process.io") when the log or the capture fails.
ProcessResult run_process(const ProcessSpec& spec);

/// A child the caller talks to in lines: its standard input and output are
/// one end of a socket pair (a line sent is a line on its stdin; a line it
/// prints is one received), its standard error goes to `spec.log` (or
/// nowhere). A child that has gone makes send() throw rather than raise
/// SIGPIPE in the caller. For a simulator a host program drives cycle by
/// cycle (tb/sim/cu_system_engine.cpp). The destructor kills and reaps a
/// child that finish() did not.
class Conversation {
 public:
  /// Start the child (`spec.capture` is ignored). Throws as run_process.
  explicit Conversation(const ProcessSpec& spec);
  ~Conversation();
  Conversation(const Conversation&) = delete;
  Conversation& operator=(const Conversation&) = delete;

  /// Send `line` and a newline. Throws Error("process.io") when the child
  /// has closed its input (it ended).
  void send(std::string_view line);
  /// The child's next line (without its newline), or nothing at the end of
  /// its output. Throws Error("process.io") on a read error.
  std::optional<std::string> receive();
  /// Close the caller's end (the child sees the end of its input) and wait
  /// for the child to end.
  ProcessResult finish();

 private:
  ProcessSpec spec_;
  int fd_ = -1;
  pid_t pid_ = -1;
  std::string buffer_;
};

/// The output (standard output and error) of `argv`, or "" when it cannot be
/// started; for version queries such as `verilator --version`.
std::string process_output(const std::vector<std::string>& argv);

}  // namespace tpugen
