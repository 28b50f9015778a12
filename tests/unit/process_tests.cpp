// util/process.h: the one process runner (argv, no shell).
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>

#include "test_support.h"
#include "util/diag.h"
#include "util/process.h"

using namespace tpugen;
namespace fs = std::filesystem;

namespace {
ProcessSpec sh(const std::string& script) {
  ProcessSpec s;
  s.argv = {"sh", "-c", script};
  s.capture = true;
  return s;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "tpugen_process_tests";
  fs::create_directories(dir);
  return dir / name;
}
}  // namespace

TEST_CASE("run_process returns the exit code", "[process]") {
  const ProcessResult ok = run_process(sh("exit 0"));
  CHECK(ok.ok());
  CHECK(ok.exit_code == 0);
  CHECK(ok.signal == 0);
  const ProcessResult three = run_process(sh("exit 3"));
  CHECK_FALSE(three.ok());
  CHECK(three.exit_code == 3);
  CHECK(three.status() == 3);
  CHECK(three.describe() == "exit 3");
}

TEST_CASE("run_process captures standard output and error together, stdin empty", "[process]") {
  const ProcessResult r = run_process(sh("echo out; echo err >&2; cat; echo end"));
  CHECK(r.ok());
  CHECK(r.output == "out\nerr\nend\n");
}

TEST_CASE("run_process passes arguments as they are, without a shell", "[process]") {
  ProcessSpec s;
  s.argv = {"printf", "%s|", "a b", "'q'", "$HOME", "*"};
  s.capture = true;
  CHECK(run_process(s).output == "a b|'q'|$HOME|*|");
}

TEST_CASE("run_process writes a log file, truncated first, and can return it too", "[process]") {
  const fs::path log = scratch("log.txt");
  test::write_text(log, "stale text that must go\n");
  ProcessSpec s = sh("echo logged; echo also >&2");
  s.capture = false;
  s.log = log;
  const ProcessResult r = run_process(s);
  CHECK(r.ok());
  CHECK(r.output.empty());
  CHECK(test::read_text(log.string()) == "logged\nalso\n");
  s.capture = true;
  CHECK(run_process(s).output == "logged\nalso\n");
}

TEST_CASE("run_process runs in the working directory and with the environment additions", "[process]") {
  const fs::path dir = scratch("cwd");
  fs::create_directories(dir);
  ProcessSpec s = sh("pwd; echo \"$TPUGEN_PROCESS_TEST\"");
  s.cwd = dir;
  s.env = {{"TPUGEN_PROCESS_TEST", "set here"}};
  const ProcessResult r = run_process(s);
  CHECK(r.output == fs::canonical(dir).string() + "\nset here\n");
  ProcessSpec missing = sh("true");
  missing.cwd = dir / "no_such_dir";
  CHECK_THROWS_WITH(run_process(missing), Catch::Contains("no directory"));
}

TEST_CASE("run_process names a program it cannot start, with the caller's rule", "[process]") {
  ProcessSpec s;
  s.argv = {"tpugen-no-such-program", "--version"};
  s.rule = "test.start";
  const Error e = test::error_of([&] { (void)run_process(s); });
  CHECK(e.rule() == "test.start");
  CHECK_THAT(e.message(), Catch::Contains("cannot start 'tpugen-no-such-program'") &&
                              Catch::Contains("not found on PATH"));
  s.argv = {"/nonexistent/tool"};
  CHECK_THROWS_WITH(run_process(s), Catch::Contains("cannot start '/nonexistent/tool'"));
  CHECK(process_output({"tpugen-no-such-program"}).empty());
}

TEST_CASE("run_process reports a child a signal ended, SIGINT as interrupted", "[process]") {
  const ProcessResult killed = run_process(sh("kill -KILL $$"));
  CHECK(killed.signal == SIGKILL);
  CHECK(killed.exit_code == -1);
  CHECK(killed.status() == 128 + SIGKILL);
  CHECK_FALSE(killed.interrupted());
  CHECK_THAT(killed.describe(), Catch::StartsWith("signal 9"));
  const ProcessResult interrupted = run_process(sh("kill -INT $$"));
  CHECK(interrupted.signal == SIGINT);
  CHECK(interrupted.interrupted());
  CHECK_FALSE(interrupted.ok());
}

TEST_CASE("Conversation: lines to the child's stdin and back from its stdout, stderr to the log", "[process]") {
  const fs::path log = scratch("conversation.log");
  ProcessSpec s;
  s.argv = {"sh", "-c", "while read -r a b; do echo \"$b $a\"; echo \"err $a\" >&2; done; echo bye; exit 4"};
  s.log = log;
  Conversation c(s);
  c.send("one two");
  CHECK(c.receive() == std::optional<std::string>("two one"));
  c.send("x y");
  CHECK(c.receive() == std::optional<std::string>("y x"));
  const ProcessResult r = c.finish();  // the child sees the end of its input
  CHECK(r.exit_code == 4);
  CHECK(test::read_text(log.string()) == "err one\nerr x\n");
}

TEST_CASE("Conversation: a child that has gone ends receive() and makes send() throw, not SIGPIPE", "[process]") {
  ProcessSpec s;
  s.argv = {"sh", "-c", "echo hello; exit 0"};
  Conversation c(s);
  CHECK(c.receive() == std::optional<std::string>("hello"));
  CHECK_FALSE(c.receive().has_value());
  bool threw = false;
  for (int i = 0; i < 100 && !threw; ++i) {  // the first writes may still land in the socket's buffer
    try {
      c.send(std::string(65536, 'x'));
    } catch (const Error& e) {
      threw = std::string(e.what()).find("cannot write to 'sh'") != std::string::npos;
    }
  }
  CHECK(threw);
  CHECK(c.finish().ok());
}
