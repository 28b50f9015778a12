/// @file sim_common.h
/// @brief What both harnesses of tpu_sim share (tb/sim/harness/sim_main.cpp): the
/// options, the outcome of a run, the input files, and access to Verilator's
/// port types. Compiled by Verilator's build only (it needs verilated.h and
/// the generated sim_config.h).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/harness/memory_models.h"
#include "sim/harness/numbers.h"
#include "sim/harness/ports.h"
#include "sim_config.h"

namespace tpusim::sim {

struct Options {
  std::string image, a, b, c, c_out, trace, json, state, coverage;
  long long maxdim = -1;
  unsigned latency = 0;
  double backpressure = 0.0;
  std::uint64_t seed = 1;
  std::uint64_t max_cycles = 2000000;
  unsigned runs = 1;
};

struct UsageError {
  std::string message;
};

// ---------------------------------------------------------------------------
// Input files
// ---------------------------------------------------------------------------

/// $readmemh-style hex: whitespace-separated words, // comments, @addr.
inline std::vector<std::uint64_t> read_hex_image(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw UsageError{"cannot read the image '" + path + "'"};
  std::vector<std::uint64_t> words;
  std::string line;
  std::size_t at = 0, lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    if (const auto c = line.find("//"); c != std::string::npos) line.erase(c);
    std::istringstream ss(line);
    std::string tok;
    while (ss >> tok) {
      const bool addr = tok[0] == '@';
      const std::string digits = addr ? tok.substr(1) : tok;
      const auto parsed = digits.size() > 16 ? std::nullopt : tpusim::sim::parse_digits(digits, 16);
      if (!parsed) throw UsageError{path + ":" + std::to_string(lineno) + ": '" + tok + "' is not a 64-bit hex word"};
      const std::uint64_t v = *parsed;
      if (addr) {
        at = static_cast<std::size_t>(v);
        continue;
      }
      if (at >= words.size()) words.resize(at + 1, 0);
      words[at++] = v;
    }
  }
  if (words.size() > sim_config::kImemSize)
    throw UsageError{"the image '" + path + "' holds " + std::to_string(words.size()) + " words; IMEM_SIZE is " +
                     std::to_string(sim_config::kImemSize)};
  return words;
}

inline tpusim::Bytes read_matrix(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError{"cannot read '" + path + "'"};
  tpusim::Bytes bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() != sim_config::kMatrixBytes)
    throw UsageError{"'" + path + "' holds " + std::to_string(bytes.size()) + " bytes; a MAXDIM x MAXDIM matrix is " +
                     std::to_string(sim_config::kMatrixBytes)};
  return bytes;
}

inline tpusim::Bytes beat_bytes(const tpusim::ImemBeat& beat) {
  tpusim::Bytes out;
  for (const std::uint64_t w : beat)
    for (unsigned k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(w >> (8 * k)));
  return out;
}

// ---------------------------------------------------------------------------
// A run's outcome
// ---------------------------------------------------------------------------
struct Counter {
  std::string name, unit;
  std::uint64_t done = 0, count = 0;
};

struct Outcome {
  std::string status = "timeout";  // done | fault | timeout | protocol_error
  std::uint64_t cycles = 0;
  std::uint64_t dut_cycles = 0;
  unsigned runs_done = 0;           // runs that reached done_o
  std::uint64_t total_cycles = 0;   // every run's cycles (the simulation speed's numerator)
  std::vector<std::uint64_t> run_cycles;  // cycles of each run, in order
  unsigned fault = 0, fault_pc = 0, fault_unit = 0;
  std::vector<Counter> counters;
  double seconds = 0.0;
};

}  // namespace tpusim::sim
