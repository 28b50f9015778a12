#include "sim/harness_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "util/file_io.h"
#include "util/process.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

/// The last `lines` lines of `text` (from the newline before them on).
std::string tail(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  for (std::size_t i = 0; i < lines && pos > 0; ++i) {
    const auto nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    pos = nl;
  }
  return text.substr(pos == text.size() ? 0 : pos);
}

}  // namespace

Harness run_file_harness(std::string_view main, std::string_view wire, bool waveform,
                         std::vector<std::string_view> more) {
  const fs::path tb(TPUGEN_TB_DIR);
  Harness h{fs::path(main), {}, waveform ? std::vector<std::string>{"--trace-fst"} : std::vector<std::string>{}};
  for (const std::string_view f :
       {main, wire, std::string_view("sim/harness/harness_main.h"), std::string_view("sim/harness/run_file.h"),
        std::string_view("sim/harness/run_bench.h"), std::string_view("sim/harness/clocked_dut.h"),
        std::string_view("sim/harness/verilated_top.h"), std::string_view("sim/harness/ports.h"),
        std::string_view("sim/harness/memory_models.h"), std::string_view("sim/harness/numbers.h"),
        std::string_view("sim/axi/axi_types.h"), std::string_view("sim/axi/axi_memory.h"),
        std::string_view("sim/axi/axi_checker.h"), std::string_view("sim/axi/axi_master_port.h")})
    h.files.push_back({tb / fs::path(f), fs::path(f)});
  for (const std::string_view f : more) h.files.push_back({tb / fs::path(f), fs::path(f)});
  return h;
}

/// The result file: its magic, the lines of HarnessRunResult into `r`, the
/// others to `spec.read`, up to the end line; its status one of `spec.statuses`.
void read_harness_result(const fs::path& path, const HarnessRunSpec& spec, HarnessRunResult& r) {
  std::istringstream in(read_file(path, "rtl.run"));
  std::string text;
  if (!std::getline(in, text) || text != spec.result_magic)
    throw Error("rtl.run",
                fmt::format("the simulator's result '{}' does not start with '{}'", path.string(), spec.result_magic));
  bool ended = false;
  for (int n = 2; std::getline(in, text); ++n) {
    ResultLine line;
    const auto sp = text.find(' ');
    line.key = text.substr(0, sp);
    line.rest = sp == std::string::npos ? "" : text.substr(sp + 1);
    std::istringstream words(line.rest);
    for (std::string t; words >> t;) line.words.push_back(t);
    line.path = path;
    line.number = n;
    const std::string& key = line.key;
    const std::string& rest = line.rest;
    auto cycle_text = [&]() {  // "CYCLE TEXT" -> "cycle CYCLE: TEXT"
      const auto s2 = rest.find(' ');
      return s2 == std::string::npos ? rest : fmt::format("cycle {}: {}", rest.substr(0, s2), rest.substr(s2 + 1));
    };
    if (key == "end") {
      ended = true;
      break;
    }
    if (key == "status")
      r.status = rest;
    else if (key == "read_bursts")
      r.read_bursts = line.num();
    else if (key == "write_bursts")
      r.write_bursts = line.num();
    else if (key == "longest_burst")
      r.longest_burst = line.num();
    else if (key == "max_reads_out")
      r.max_reads_out = line.num();
    else if (key == "max_writes_out")
      r.max_writes_out = line.num();
    else if (key == "seconds")
      r.sim_seconds = std::strtod(rest.c_str(), nullptr);
    else if (key == "axi")
      r.axi_responses.push_back(rest);
    else if (key == "checker")
      r.checker_errors.push_back(cycle_text());
    else if (key == "harness")
      r.harness_errors.push_back(cycle_text());
    else if (key == "note")
      r.notes.push_back(rest);
    else
      spec.read(line);
  }
  if (!ended)
    throw Error("rtl.run", fmt::format("the simulator's result '{}' is cut short (no end line)", path.string()));
  if (std::find(spec.statuses.begin(), spec.statuses.end(), r.status) == spec.statuses.end())
    throw Error("rtl.run", fmt::format("the simulator's result '{}' has the status '{}'", path.string(), r.status));
}

void write_image(const fs::path& path, std::span<const std::uint8_t> image) {
  std::ofstream img(path, std::ios::binary);
  img.write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size()));
  if (!img) throw Error("rtl.io", fmt::format("cannot write '{}'", path.string()));
}

Error ResultLine::bad(std::string_view why) const {
  return Error("rtl.run", fmt::format("the simulator's result '{}':{}: {}", path.string(), number, why));
}

std::uint64_t ResultLine::num(const std::string& s) const {
  try {
    std::size_t used = 0;
    const std::uint64_t x = std::stoull(s, &used, 0);
    if (used != s.size()) throw std::invalid_argument(s);
    return x;
  } catch (const std::exception&) {
    throw bad(fmt::format("'{}' is not a number", s));
  }
}

void run_harness(const fs::path& sim, std::span<const std::uint8_t> image, const HarnessRunSpec& spec,
                 HarnessRunResult& r) {
  const RunDir run_dir(spec.work_dir, std::string(spec.stem));
  const fs::path& dir = run_dir.path();
  write_image(dir / "image.bin", image);
  write_file(dir / "run.txt", spec.describe(dir / "image.bin"), "rtl.io");

  ProcessSpec p;
  p.argv = {sim.string(),
            "--run",
            (dir / "run.txt").string(),
            "--result",
            (dir / "result.txt").string(),
            "--mem-out",
            (dir / "mem_out.bin").string()};
  if (!spec.trace.empty()) {
    p.argv.push_back("--trace");
    p.argv.push_back(fs::absolute(spec.trace).string());
  }
  p.log = dir / "sim.log";
  p.capture = true;
  p.rule = "rtl.run";
  const ProcessResult ran = run_process(p);
  if (ran.interrupted()) throw Error("rtl.interrupted", fmt::format("{} was interrupted (SIGINT)", sim.string()));
  r.output = ran.output;
  r.exit_code = ran.status();
  if (spec.exit_2_refuses && ran.exit_code == 2)
    throw Error("rtl.run", fmt::format("{} refused the run description:\n{}", sim.string(), tail(ran.output, 10)));
  if (!fs::exists(dir / "result.txt"))
    throw Error("rtl.run", fmt::format("{} exited with {} and wrote no result:\n{}", sim.string(), ran.describe(),
                                       tail(ran.output, 30)));
  read_harness_result(dir / "result.txt", spec, r);
  if (fs::exists(dir / "mem_out.bin")) {
    const std::string bytes = read_file(dir / "mem_out.bin", "rtl.run");
    r.memory.assign(bytes.begin(), bytes.end());
  }
  if (r.status == "assertion") {
    std::istringstream out(ran.output);
    std::string line;
    while (std::getline(out, line))
      if (std::any_of(spec.assertion_markers.begin(), spec.assertion_markers.end(),
                      [&](std::string_view m) { return line.find(m) != std::string::npos; }))
        r.notes.push_back(line);
  }
}

}  // namespace tpugen::sim
