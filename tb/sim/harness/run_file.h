/// @file run_file.h
/// @brief The files of a run-file harness (agent_main.cpp, mover_main.cpp):
/// its command line (--run, --result, --mem-out, --trace), the run
/// description it reads (text, one key and its values a line, after a magic
/// line; '#' starts a comment) and the result it writes back (the magic, the
/// harness's own lines, then its `harness` and `note` lines and `end`).
/// Each harness's keys are its own (agent_wire.h, mover_wire.h). Every bad
/// option or input throws Usage. Compiled by Verilator's build only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "sim/harness/harness_main.h"
#include "sim/harness/memory_models.h"
#include "sim/harness/numbers.h"

namespace tpusim::sim {

/// The command line of a run-file harness.
struct RunFileOptions {
  std::string run;      ///< the run description
  std::string result;   ///< where the result goes
  std::string mem_out;  ///< where the memory image goes after the run, or empty
  std::string trace;    ///< an FST file to write, or empty
};

/// The options (Verilator's own +verilator... arguments are passed over);
/// --run and --result are required.
inline RunFileOptions parse_run_file_options(int argc, char** argv) {
  RunFileOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag.rfind("+verilator", 0) == 0) continue;
    if (flag == "--help" || flag == "-h") throw Usage{};
    if (i + 1 >= argc) throw Usage{flag + " needs a value"};
    const std::string v = argv[++i];
    if (flag == "--run")
      o.run = v;
    else if (flag == "--result")
      o.result = v;
    else if (flag == "--mem-out")
      o.mem_out = v;
    else if (flag == "--trace")
      o.trace = v;
    else
      throw Usage{"unknown option " + flag};
  }
  if (o.run.empty() || o.result.empty()) throw Usage{"--run and --result are required"};
  return o;
}

/// A non-negative integer, decimal or 0x hex; `where` names it in the error.
inline std::uint64_t parse_u64(const std::string& where, const std::string& v) {
  if (const auto x = sim::parse_u64(v)) return *x;
  throw Usage{where + ": '" + v + "' is not a non-negative integer"};
}

/// A probability in [0, 1); `where` names it in the error.
inline double parse_prob(const std::string& where, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(x >= 0.0 && x < 1.0)) throw Usage{where + ": '" + v + "' is not in [0, 1)"};
  return x;
}

/// A file's bytes.
inline Bytes read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Usage{"cannot read '" + path + "'"};
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

/// One line of a run description: its key, its values, where it stands.
struct RunLine {
  std::string key;
  std::vector<std::string> values;
  std::string where;  ///< "path:line", for the errors

  /// The line must have `n` values.
  void want(std::size_t n) const {
    if (values.size() != n) throw Usage{where + ": '" + key + "' takes " + std::to_string(n) + " value(s)"};
  }
  /// Value `i` as a non-negative integer, or as a probability.
  [[nodiscard]] std::uint64_t u(std::size_t i) const { return parse_u64(where, values[i]); }
  [[nodiscard]] double prob(std::size_t i) const { return parse_prob(where, values[i]); }
  /// The error of a line whose key no one takes.
  [[nodiscard]] Usage unknown() const { return Usage{where + ": unknown key '" + key + "'"}; }
};

/// Read a run description: its first line must be `magic` (else it is not
/// `what`, e.g. "an agent run description"); every other line but blanks
/// and comments goes to `on_line(const RunLine&)`, in order.
template <typename OnLine>
void read_run_file(const std::string& path, const std::string& magic, const std::string& what, OnLine&& on_line) {
  std::ifstream f(path);
  if (!f) throw Usage{"cannot read '" + path + "'"};
  std::string line;
  if (!std::getline(f, line) || line != magic)
    throw Usage{"'" + path + "' is not " + what + " (its first line is not '" + magic + "')"};
  for (int n = 2; std::getline(f, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    RunLine l;
    std::istringstream in(line);
    in >> l.key;
    for (std::string t; in >> t;) l.values.push_back(t);
    l.where = path + ":" + std::to_string(n);
    on_line(static_cast<const RunLine&>(l));
  }
}

/// One line of text with no line breaks (a message inside a result line).
inline std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

/// Write a result: `magic`, the harness's own lines (`body(std::ostream&)`),
/// a `harness` line for each of its checks that failed, a `note` line for
/// each note, and `end`.
template <typename Body>
void write_result_file(const std::string& path, const std::string& magic, Body&& body,
                       const std::vector<std::string>& harness, const std::vector<std::string>& notes) {
  std::ofstream f(path);
  if (!f) throw Usage{"cannot write '" + path + "'"};
  f << magic << "\n";
  body(static_cast<std::ostream&>(f));
  for (const auto& h : harness) f << "harness " << one_line(h) << "\n";
  for (const auto& n : notes) f << "note " << one_line(n) << "\n";
  f << "end\n";
  if (!f) throw Usage{"cannot write '" + path + "'"};
}

/// Write `bytes` to a file (the memory image after the run).
inline void write_bytes_file(const std::string& path, const Bytes& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw Usage{"cannot write '" + path + "'"};
}

}  // namespace tpusim::sim
