// sim_main.cpp: the Verilator driver of a generated top (tpu_sim): tpu_top
// through its own memory ports (core_harness.h), or tpu_axi_top through an
// AXI4 memory and an AXI4-Lite host (axi_harness.h), as sim_config.h says.
//
// Compiled by Verilator together with the generated RTL, one executable per
// parameter set. Every configuration fact (widths, counter names, header
// slices, fault names) comes from sim_config.h, which tpugen writes next to
// the RTL from the spec; nothing here is a spec fact.
//
//   tpu_sim --image prog.hex --a A.bin --b B.bin --c C.bin --c-out C_out.bin
//           [--maxdim N] [--latency N] [--backpressure P] [--seed N]
//           [--max-cycles N] [--runs N] [--trace run.fst] [--json report.json]
//
// Exit: 0 done, 1 fault, timeout or protocol error, 2 bad usage or input.
#include <verilated.h>
#include <verilated_vpi.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/harness/numbers.h"
#include "sim/harness/sim_common.h"
#include "sim_config.h"
// The harness of the top this simulator is built for (sim_config.h names it).
#include TPUSIM_HARNESS_HEADER

namespace {

using namespace tpusim::sim;

constexpr int kExitDone = 0, kExitFail = 1, kExitUsage = 2;
constexpr std::size_t kMaxReportedErrors = 32;
const char* kUsage =
    "usage: tpu_sim --image FILE.hex --a FILE --b FILE --c FILE [--c-out FILE] [--maxdim N]\n"
    "               [--latency N] [--backpressure P] [--seed N] [--max-cycles N] [--runs N]\n"
    "               [--trace FILE.fst] [--json FILE]\n"
    "  --image         program image, $readmemh hex, one 64-bit word per line\n"
    "  --a, --b, --c   raw MAXDIM*MAXDIM int8 bytes, row-major (C: its contents before the run)\n"
    "  --c-out         write C after the run (raw bytes)\n"
    "  --state FILE    write the on-chip memories after the run: '<memory> <row> <hex>' lines\n"
    "  --maxdim        check that the simulator was built for this MAXDIM\n"
    "  --latency       cycles from request handshake to response valid, beyond the next cycle (default 0)\n"
    "  --backpressure  0..1: probability that the memories withhold a ready or valid in a cycle (default 0)\n"
    "  --seed          seed of the backpressure and of the random initial state (default 1)\n"
    "  --max-cycles    give up on a run after this many cycles (default 2000000)\n"
    "  --runs          run the program N times back to back, without a reset between runs: each\n"
    "                  start follows the previous done_o at once (default 1); the report is the last run's\n"
    "  --trace         write an FST waveform\n"
    "  --coverage FILE write the RTL's coverage counts (a simulator verilated with --coverage)\n"
    "  --json          write a JSON report\n";

std::uint64_t parse_u64(const std::string& flag, const std::string& v) {
  if (const auto x = tpusim::sim::parse_u64(v)) return *x;
  throw UsageError{flag + " takes a non-negative integer, not '" + v + "'"};
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag.rfind("+verilator", 0) == 0) continue;  // Verilator's own runtime arguments
    if (flag == "--help" || flag == "-h") throw UsageError{};
    if (i + 1 >= argc) throw UsageError{flag + " needs a value"};
    const std::string v = argv[++i];
    if (flag == "--image") o.image = v;
    else if (flag == "--a") o.a = v;
    else if (flag == "--b") o.b = v;
    else if (flag == "--c") o.c = v;
    else if (flag == "--c-out") o.c_out = v;
    else if (flag == "--state") o.state = v;
    else if (flag == "--coverage") o.coverage = v;
    else if (flag == "--trace") o.trace = v;
    else if (flag == "--json") o.json = v;
    else if (flag == "--maxdim") o.maxdim = static_cast<long long>(parse_u64(flag, v));
    else if (flag == "--latency") o.latency = static_cast<unsigned>(parse_u64(flag, v));
    else if (flag == "--seed") o.seed = parse_u64(flag, v);
    else if (flag == "--max-cycles") o.max_cycles = parse_u64(flag, v);
    else if (flag == "--runs") {
      o.runs = static_cast<unsigned>(parse_u64(flag, v));
      if (o.runs == 0 || o.runs > 1000) throw UsageError{"--runs takes 1 .. 1000, not '" + v + "'"};
    }
    else if (flag == "--backpressure") {
      char* end = nullptr;
      o.backpressure = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(o.backpressure >= 0.0 && o.backpressure < 1.0))
        throw UsageError{"--backpressure takes a probability in [0, 1), not '" + v + "'"};
    } else {
      throw UsageError{"unknown option " + flag};
    }
  }
  if (o.image.empty() || o.a.empty() || o.b.empty() || o.c.empty())
    throw UsageError{"--image, --a, --b and --c are required"};
  if (o.maxdim >= 0 && o.maxdim != static_cast<long long>(sim_config::kMaxdim))
    throw UsageError{"this simulator was built for MAXDIM = " + std::to_string(sim_config::kMaxdim) + ", not " +
                     std::to_string(o.maxdim)};
  return o;
}

// ---------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------
template <typename T, std::size_t N>
const char* name_of(const T (&table)[N], unsigned i) {
  return i < N ? table[i] : "?";
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(ch));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

void print_summary(const Outcome& r, const std::vector<tpusim::ProtocolError>& errs) {
  std::printf("tpu_sim: %s after %llu cycles (core cycles_o %llu), %.3f s, %.0f cycles/s\n", r.status.c_str(),
              static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.dut_cycles), r.seconds,
              r.seconds > 0 ? static_cast<double>(r.total_cycles) / r.seconds : 0.0);
  if (r.status == "fault")
    std::printf("  fault %s (%u) at instruction %u, unit %s\n", name_of(sim_config::kFaultNames, r.fault), r.fault,
                r.fault_pc, name_of(sim_config::kUnitNames, r.fault_unit));
  if (r.status != "done") {
    std::printf("  progress (work done / header count):\n");
    for (const auto& c : r.counters)
      std::printf("    %s %llu/%llu  (%s)%s\n", c.name.c_str(), static_cast<unsigned long long>(c.done),
                  static_cast<unsigned long long>(c.count), c.unit.c_str(),
                  c.done < c.count ? "  <- short" : c.done > c.count ? "  <- past its count" : "");
  }
  for (std::size_t i = 0; i < errs.size() && i < kMaxReportedErrors; ++i)
    std::printf("  protocol error, cycle %llu, %s: %s\n", static_cast<unsigned long long>(errs[i].cycle),
                errs[i].port.c_str(), errs[i].message.c_str());
}

template <typename H>
void write_json(const std::string& path, const Options& o, const Outcome& r, const H& h) {
  std::ofstream j(path);
  j << "{\n  \"status\": " << json_str(r.status) << ",\n";
  j << "  \"cycles\": " << r.cycles << ",\n  \"dut_cycles\": " << r.dut_cycles << ",\n";
  j << "  \"runs\": " << o.runs << ",\n  \"runs_done\": " << r.runs_done << ",\n  \"run_cycles\": [";
  for (std::size_t i = 0; i < r.run_cycles.size(); ++i) j << (i ? ", " : "") << r.run_cycles[i];
  j << "],\n";
  j << "  \"fault\": {\"code\": " << r.fault << ", \"name\": " << json_str(name_of(sim_config::kFaultNames, r.fault))
    << ", \"pc\": " << r.fault_pc << ", \"unit\": " << r.fault_unit
    << ", \"unit_name\": " << json_str(r.fault ? name_of(sim_config::kUnitNames, r.fault_unit) : "") << "},\n";
  j << "  \"progress\": [";
  for (std::size_t i = 0; i < r.counters.size(); ++i) {
    const auto& c = r.counters[i];
    j << (i ? ",\n" : "\n") << "    {\"name\": " << json_str(c.name) << ", \"unit\": " << json_str(c.unit)
      << ", \"done\": " << c.done << ", \"count\": " << c.count << "}";
  }
  j << "\n  ],\n  \"protocol_errors\": [";
  const auto errs = h.errors();
  for (std::size_t i = 0; i < errs.size(); ++i)
    j << (i ? ",\n" : "\n") << "    {\"cycle\": " << errs[i].cycle << ", \"port\": " << json_str(errs[i].port)
      << ", \"message\": " << json_str(errs[i].message) << "}";
  j << (errs.empty() ? "],\n" : "\n  ],\n");
  j << "  \"top\": " << json_str(sim_config::kTopModule) << ",\n  \"ports\": {\n";
  h.ports_json(j);
  j << "  },\n";
  j << "  \"c_bytes_written\": " << h.bytes_written() << ",\n";
  j << "  \"config\": {\"params\": " << json_str(sim_config::kParams) << ", \"latency\": " << o.latency
    << ", \"backpressure\": " << o.backpressure << ", \"seed\": " << o.seed << ", \"max_cycles\": " << o.max_cycles
    << "},\n";
  j << "  \"seconds\": " << r.seconds << ",\n  \"cycles_per_second\": "
    << (r.seconds > 0 ? static_cast<double>(r.total_cycles) / r.seconds : 0.0) << "\n}\n";
  if (!j) throw UsageError{"cannot write '" + path + "'"};
}

void write_bytes(const std::string& path, const tpusim::Bytes& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw UsageError{"cannot write '" + path + "'"};
}

/// The on-chip memories (sim_config::kMemories) through VPI, one row a line.
void write_state(const std::string& path) {
  std::ofstream f(path);
  for (const auto& m : sim_config::kMemories) {
    vpiHandle mem = vpi_handle_by_name(const_cast<PLI_BYTE8*>(m.path), nullptr);
    if (!mem) {  // a core without this memory (a stand-in top): nothing to report
      std::fprintf(stderr, "tpu_sim: note: no memory %s in this simulator; its state is not written\n", m.path);
      continue;
    }
    for (unsigned r = 0; r < m.depth; ++r) {
      vpiHandle row = vpi_handle_by_index(mem, static_cast<PLI_INT32>(r));
      if (!row) throw UsageError{std::string("cannot read row of ") + m.path};
      s_vpi_value v;
      v.format = vpiHexStrVal;
      vpi_get_value(row, &v);
      f << m.name << ' ' << r << ' ' << v.value.str << '\n';
    }
  }
  if (!f) throw UsageError{"cannot write '" + path + "'"};
}

int run(int argc, char** argv) {
  const Options o = parse_args(argc, argv);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  // Random initial state of every register and memory (the model was
  // verilated with --x-assign unique --x-initial unique), from the seed.
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(o.seed % 2147483646ULL) + 1);
#if VM_TRACE_FST
  if (!o.trace.empty()) ctx->traceEverOn(true);
#else
  if (!o.trace.empty()) throw UsageError{"this simulator was built without --trace-fst"};
#endif
#if !VM_COVERAGE
  if (!o.coverage.empty()) throw UsageError{"this simulator was built without --coverage"};
#endif
  Outcome r;
  using Harness = TPUSIM_HARNESS<sim_config::Dut>;
  {
    Harness h(o, *ctx);
    r = h.run();
    print_summary(r, h.errors());
    if (!o.c_out.empty()) write_bytes(o.c_out, h.c());
    if (!o.json.empty()) write_json(o.json, o, r, h);
    if (!o.state.empty()) write_state(o.state);  // through VPI, while the model exists
  }
#if VM_COVERAGE
  if (!o.coverage.empty()) ctx->coveragep()->write(o.coverage.c_str());
#endif
  return r.status == "done" ? kExitDone : kExitFail;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    if (e.message.empty()) {
      std::fputs(kUsage, stdout);
      return kExitDone;
    }
    std::fprintf(stderr, "tpu_sim: %s\n%s", e.message.c_str(), kUsage);
    return kExitUsage;
  }
}
