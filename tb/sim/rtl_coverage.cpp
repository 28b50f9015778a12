#include "sim/rtl_coverage.h"

#include <fmt/format.h>

#include <fstream>

#include "util/diag.h"
#include "util/process.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

/// The value of key `key` in a point's key string: fields are
/// "\x01<key>\x02<value>".
std::string field(const std::string& point, const std::string& key) {
  const std::string tag = std::string("\x01") + key + "\x02";
  const auto at = point.find(tag);
  if (at == std::string::npos) return "";
  const auto from = at + tag.size();
  const auto to = point.find('\x01', from);
  return point.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

/// Run verilator_coverage with `args` in `cwd` (empty: here), its output to
/// `log`; Error("fuzz.rtl_coverage") naming `what` it could not do.
void verilator_coverage(const std::vector<std::string>& args, const fs::path& cwd, const fs::path& log,
                        const std::string& what) {
  ProcessSpec spec;
  spec.argv = {"verilator_coverage"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = cwd;
  spec.log = log;
  spec.rule = "fuzz.rtl_coverage";
  const ProcessResult r = run_process(spec);
  if (r.interrupted()) throw Error("rtl.interrupted", "verilator_coverage was interrupted (SIGINT)");
  if (!r.ok())
    throw Error("fuzz.rtl_coverage", fmt::format("verilator_coverage could not {} (see {})", what, log.string()));
}

}  // namespace

RtlCoverage read_coverage_dat(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("fuzz.rtl_coverage", fmt::format("cannot read '{}'", path.string()), SourceLoc{path.string()});
  RtlCoverage cov;
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const auto open = line.find('\'');
    const auto close = line.rfind('\'');
    if (line.rfind("C ", 0) != 0 || open == std::string::npos || close <= open)
      throw Error("fuzz.rtl_coverage", fmt::format("{}:{}: not a coverage point line", path.string(), n),
                  SourceLoc{path.string(), n});
    const std::string point = line.substr(open + 1, close - open - 1);
    std::int64_t count = 0;
    try {
      count = std::stoll(line.substr(close + 1));
    } catch (const std::exception&) {
      throw Error("fuzz.rtl_coverage", fmt::format("{}:{}: no count after the point", path.string(), n),
                  SourceLoc{path.string(), n});
    }
    // page is "v_<kind>/<module>".
    const std::string page = field(point, "page");
    const auto slash = page.find('/');
    std::string kind = page.substr(0, slash);
    if (kind.rfind("v_", 0) == 0) kind = kind.substr(2);
    const std::string module = slash == std::string::npos ? "" : page.substr(slash + 1);
    for (PointCount* p : {&cov.by_kind[kind], &cov.by_module[module][kind]}) {
      ++p->total;
      if (count > 0) ++p->covered;
    }
  }
  return cov;
}

RtlCoverage merge_rtl_coverage(const fs::path& dir, const std::vector<fs::path>& files, const fs::path& sources) {
  if (files.empty()) throw Error("fuzz.rtl_coverage", "no coverage files to merge");
  const fs::path merged = dir / "merged.dat";
  const fs::path annotated = dir / "annotated";
  std::vector<std::string> merge = {"--write", merged.string()};
  for (const auto& f : files) merge.push_back(f.string());
  verilator_coverage(merge, {}, dir / "merge.log", "merge the counts");
  // The points name their files as Verilator saw them: relative to the sources.
  verilator_coverage({"--annotate", fs::absolute(annotated).string(), fs::absolute(merged).string()}, sources,
                     dir / "annotate.log", "annotate the sources");
  RtlCoverage cov = read_coverage_dat(merged);
  cov.merged = merged;
  cov.annotated = annotated;
  return cov;
}

std::string RtlCoverage::table() const {
  std::string o = "RTL coverage (Verilator --coverage points hit at least once)\n";
  o += fmt::format("  {:<16}", "module");
  for (const auto& [kind, _] : by_kind) o += fmt::format(" {:>22}", kind);
  o += "\n";
  auto row = [&](const std::string& name, const std::map<std::string, PointCount>& kinds) {
    std::string r = fmt::format("  {:<16}", name);
    for (const auto& [kind, _] : by_kind) {
      const auto it = kinds.find(kind);
      const std::string cell = it == kinds.end() ? "-"
                                                 : fmt::format("{}/{} {:.1f}%", it->second.covered, it->second.total,
                                                               it->second.percent());
      r += fmt::format(" {:>22}", cell);
    }
    return r + "\n";
  };
  for (const auto& [module, kinds] : by_module) o += row(module, kinds);
  o += row("all", by_kind);
  return o;
}

}  // namespace tpugen::sim
