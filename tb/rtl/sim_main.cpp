// sim_main.cpp: the Verilator driver of tpu_top (tpu_sim).
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

#include <cerrno>
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

#include "Vtpu_top.h"
#include "memory_models.h"
#include "sim_config.h"

namespace {

constexpr int kExitDone = 0, kExitFail = 1, kExitUsage = 2;
constexpr unsigned kResetCycles = 5;
constexpr std::size_t kMaxReportedErrors = 32;

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
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 0);
  if (v.empty() || *end != '\0' || errno != 0 || v[0] == '-')
    throw UsageError{flag + " takes a non-negative integer, not '" + v + "'"};
  return x;
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
// Input files
// ---------------------------------------------------------------------------

/// $readmemh-style hex: whitespace-separated words, // comments, @addr.
std::vector<std::uint64_t> read_hex_image(const std::string& path) {
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
      char* end = nullptr;
      const unsigned long long v = std::strtoull(digits.c_str(), &end, 16);
      if (digits.empty() || *end != '\0' || digits.size() > 16)
        throw UsageError{path + ":" + std::to_string(lineno) + ": '" + tok + "' is not a 64-bit hex word"};
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

tpusim::Bytes read_matrix(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError{"cannot read '" + path + "'"};
  tpusim::Bytes bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() != sim_config::kMatrixBytes)
    throw UsageError{"'" + path + "' holds " + std::to_string(bytes.size()) + " bytes; a MAXDIM x MAXDIM matrix is " +
                     std::to_string(sim_config::kMatrixBytes)};
  return bytes;
}

// ---------------------------------------------------------------------------
// Port access: Verilator ports are uint8/16/32/64 up to 64 bits, VlWide past.
// ---------------------------------------------------------------------------
template <typename P>
std::enable_if_t<std::is_integral_v<P>> set_bytes(P& port, const std::uint8_t* bytes, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < n && k < sizeof(P); ++k) v |= std::uint64_t{bytes[k]} << (8 * k);
  port = static_cast<P>(v);
}

template <std::size_t W>
void set_bytes(VlWide<W>& port, const std::uint8_t* bytes, std::size_t n) {
  for (std::size_t w = 0; w < W; ++w) port[w] = 0;
  for (std::size_t k = 0; k < n && k < 4 * W; ++k) port[k / 4] |= static_cast<EData>(bytes[k]) << (8 * (k % 4));
}

template <typename P>
std::enable_if_t<std::is_integral_v<P>, std::uint64_t> get_bits(const P& port, unsigned lsb, unsigned width) {
  const std::uint64_t v = static_cast<std::uint64_t>(port);
  const std::uint64_t shifted = lsb >= 64 ? 0 : v >> lsb;
  return width >= 64 ? shifted : shifted & ((std::uint64_t{1} << width) - 1);
}

template <std::size_t W>
std::uint64_t get_bits(const VlWide<W>& port, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width && b < 64; ++b) {
    const unsigned bit = lsb + b;
    if (bit / 32 < W && ((port[bit / 32] >> (bit % 32)) & 1U)) v |= std::uint64_t{1} << b;
  }
  return v;
}

template <typename P>
tpusim::Bytes get_bytes(const P& port, std::size_t n) {
  tpusim::Bytes out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = static_cast<std::uint8_t>(get_bits(port, static_cast<unsigned>(8 * k), 8));
  return out;
}

tpusim::Bytes beat_bytes(const tpusim::ImemBeat& beat) {
  tpusim::Bytes out;
  for (const std::uint64_t w : beat)
    for (unsigned k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(w >> (8 * k)));
  return out;
}

// ---------------------------------------------------------------------------
// The harness
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

class Harness {
 public:
  Harness(const Options& o, VerilatedContext& ctx)
      : opt_(o),
        ctx_(ctx),
        imem_(read_hex_image(o.image), sim_config::kImemBeat, sim_config::kImemSize, timing(o), o.seed * 3 + 1),
        rd_(read_matrix(o.a), read_matrix(o.b), sim_config::kReadBeatBytes, timing(o), o.seed * 3 + 2),
        wr_(read_matrix(o.c), sim_config::kWriteBeatBytes, timing(o), o.seed * 3 + 3),
        junk_(o.seed ^ 0x9e3779b97f4a7c15ULL) {
    top_ = std::make_unique<Vtpu_top>(&ctx_, "TOP");
#if VM_TRACE_FST
    if (!o.trace.empty()) {
      trace_ = std::make_unique<VerilatedFstC>();
      top_->trace(trace_.get(), 99);
      trace_->open(o.trace.c_str());
    }
#endif
  }

  ~Harness() {
#if VM_TRACE_FST
    if (trace_) trace_->close();
#endif
    top_->final();
  }

  /// Reset, then opt_.runs runs back to back (each start in the cycle after
  /// the previous done_o); the outcome is the last run's, or the first that
  /// did not reach done.
  Outcome run() {
    reset();
#if VM_COVERAGE
    // Count what the runs exercise, not the random initial state settling
    // through reset (every bit of it would count as toggled).
    ctx_.coveragep()->zero();
#endif
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t cycle = 0;
    Outcome out;
    std::vector<std::uint64_t> run_cycles;
    for (unsigned r = 0; r < opt_.runs; ++r) {
      out = run_once(cycle);
      run_cycles.push_back(out.cycles);
      if (out.status != "done") break;
      out.runs_done = r + 1;
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.total_cycles = cycle;
    out.run_cycles = std::move(run_cycles);
    return out;
  }

  /// One run from a start pulse in `cycle`; `cycle` advances past its end.
  Outcome run_once(std::uint64_t& cycle) {
    Outcome out;
    const std::uint64_t first = cycle;
    for (;; ++cycle) {
      step(cycle, cycle == first);
      if (top_->done_o) {
        out.status = "done";
        check_drained(cycle);
        break;
      }
      if (top_->fault_o != 0) {
        out.status = "fault";
        break;
      }
      if (has_errors()) {
        out.status = "protocol_error";
        break;
      }
      if (cycle + 1 - first >= opt_.max_cycles || ctx_.gotFinish()) break;
    }
    out.cycles = cycle + 1 - first;
    ++cycle;
    if (out.status == "done" && has_errors()) out.status = "protocol_error";
    out.dut_cycles = get_bits(top_->cycles_o, 0, 32);
    out.fault = static_cast<unsigned>(top_->fault_o);
    out.fault_pc = static_cast<unsigned>(top_->fault_pc_o);
    out.fault_unit = static_cast<unsigned>(top_->fault_unit_o);
    out.counters = counters();
    return out;
  }

  [[nodiscard]] bool has_errors() const {
    return !imem_.errors().empty() || !rd_.errors().empty() || !wr_.errors().empty();
  }
  [[nodiscard]] std::vector<tpusim::ProtocolError> errors() const {
    std::vector<tpusim::ProtocolError> all;
    for (const auto* e : {&imem_.errors(), &rd_.errors(), &wr_.errors()}) all.insert(all.end(), e->begin(), e->end());
    return all;
  }
  [[nodiscard]] const tpusim::CWriteModel& c_port() const { return wr_; }
  [[nodiscard]] const tpusim::ImemModel& imem_port() const { return imem_; }
  [[nodiscard]] const tpusim::OperandReadModel& rd_port() const { return rd_; }

 private:
  static tpusim::PortTiming timing(const Options& o) {
    tpusim::PortTiming t;
    t.latency = o.latency;
    t.backpressure = o.backpressure;
    return t;
  }

  /// Bytes a memory drives on a data bus while its valid is low: noise, so
  /// a core that uses data without valid shows it.
  const tpusim::Bytes& noise(tpusim::Bytes& buf, std::size_t n) {
    buf.resize(n);
    for (std::size_t k = 0; k < n; k += 8) {
      const std::uint64_t r = junk_();
      for (std::size_t b = k; b < n && b < k + 8; ++b) buf[b] = static_cast<std::uint8_t>(r >> (8 * (b - k)));
    }
    return buf;
  }

  void half(bool clk) {
    top_->clk_i = clk;
    top_->eval();
    ctx_.timeInc(1);
#if VM_TRACE_FST
    if (trace_) trace_->dump(ctx_.time());
#endif
  }

  void drive_idle() {
    top_->start_i = 0;
    top_->imem_req_ready_i = 0;
    top_->imem_rsp_valid_i = 0;
    top_->dram_rd_req_ready_i = 0;
    top_->dram_rd_rsp_valid_i = 0;
    top_->dram_wr_req_ready_i = 0;
    top_->dram_wr_rsp_valid_i = 0;
    const auto& beat = noise(imem_noise_, 8 * sim_config::kImemBeat);
    set_bytes(top_->imem_rsp_data_i, beat.data(), beat.size());
    const auto& rd = noise(rd_noise_, sim_config::kReadBeatBytes);
    set_bytes(top_->dram_rd_rsp_data_i, rd.data(), rd.size());
  }

  void reset() {
    drive_idle();
    top_->rst_ni = 0;
    for (unsigned i = 0; i < kResetCycles; ++i) {
      half(false);
      half(true);
    }
    top_->rst_ni = 1;
    for (unsigned i = 0; i < 2; ++i) {
      half(false);
      half(true);
    }
  }

  /// One clock cycle: the memories drive, the core settles, the handshakes
  /// are committed, the clock rises.
  void step(std::uint64_t cycle, bool start) {
    top_->start_i = start;
    const auto& im = imem_.drive(cycle);
    top_->imem_req_ready_i = im.req_ready;
    top_->imem_rsp_valid_i = im.rsp_valid;
    if (im.rsp_valid) {
      const auto ib = beat_bytes(*im.rsp);
      set_bytes(top_->imem_rsp_data_i, ib.data(), ib.size());
    } else {
      const auto& ib = noise(imem_noise_, 8 * sim_config::kImemBeat);
      set_bytes(top_->imem_rsp_data_i, ib.data(), ib.size());
    }

    const auto& rd = rd_.drive(cycle);
    top_->dram_rd_req_ready_i = rd.req_ready;
    top_->dram_rd_rsp_valid_i = rd.rsp_valid;
    const auto& rb = rd.rsp_valid ? *rd.rsp : noise(rd_noise_, sim_config::kReadBeatBytes);
    set_bytes(top_->dram_rd_rsp_data_i, rb.data(), rb.size());

    const auto& wr = wr_.drive(cycle);
    top_->dram_wr_req_ready_i = wr.req_ready;
    top_->dram_wr_rsp_valid_i = wr.rsp_valid;

    half(false);

    imem_.clock(cycle, top_->imem_req_valid_o, tpusim::ImemReq{static_cast<std::uint32_t>(top_->imem_req_addr_o)},
                top_->imem_rsp_ready_o);
    rd_.clock(cycle, top_->dram_rd_req_valid_o,
              tpusim::ReadReq{static_cast<unsigned>(top_->dram_rd_req_sel_o),
                              static_cast<std::uint32_t>(top_->dram_rd_req_addr_o)},
              top_->dram_rd_rsp_ready_o);
    tpusim::WriteReq wreq;
    if (top_->dram_wr_req_valid_o) {
      wreq.addr = static_cast<std::uint32_t>(top_->dram_wr_req_addr_o);
      wreq.data = get_bytes(top_->dram_wr_req_data_o, sim_config::kWriteBeatBytes);
      wreq.strb.resize(sim_config::kWriteBeatBytes);
      for (unsigned b = 0; b < sim_config::kWriteBeatBytes; ++b)
        wreq.strb[b] = static_cast<std::uint8_t>(get_bits(top_->dram_wr_req_strb_o, b, 1));
    }
    wr_.clock(cycle, top_->dram_wr_req_valid_o, wreq, top_->dram_wr_rsp_ready_o);

    half(true);
  }

  /// done_o promises every C write was acknowledged; nothing else may be
  /// left in flight either.
  void check_drained(std::uint64_t cycle) {
    if (wr_.outstanding())
      wr_.error(cycle, "done_o rose with " + std::to_string(wr_.outstanding()) + " C write(s) not acknowledged");
    if (rd_.outstanding())
      rd_.error(cycle, "done_o rose with " + std::to_string(rd_.outstanding()) + " operand response(s) not taken");
    if (imem_.outstanding())
      imem_.error(cycle, "done_o rose with " + std::to_string(imem_.outstanding()) + " imem response(s) not taken");
  }

  std::vector<Counter> counters() const {
    std::vector<Counter> out;
    for (unsigned k = 0; k < std::size(sim_config::kCounters); ++k) {
      const auto& c = sim_config::kCounters[k];
      Counter x;
      x.name = c.name;
      x.unit = c.unit;
      x.done = get_bits(top_->progress_o, k * sim_config::kCountW, sim_config::kCountW);
      x.count = get_bits(top_->header_o, 64 * c.hdr_word + c.hdr_lsb, c.hdr_width);
      out.push_back(x);
    }
    return out;
  }

  const Options& opt_;
  VerilatedContext& ctx_;
  std::unique_ptr<Vtpu_top> top_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  tpusim::ImemModel imem_;
  tpusim::OperandReadModel rd_;
  tpusim::CWriteModel wr_;
  std::mt19937_64 junk_;
  tpusim::Bytes imem_noise_, rd_noise_;
};

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

template <typename P>
void port_json(std::ostream& j, const P& port, bool last) {
  const auto& s = port.stats();
  j << "    " << json_str(port.name()) << ": {\"requests\": " << s.requests << ", \"responses\": " << s.responses
    << ", \"req_stall_cycles\": " << s.req_stall_cycles << ", \"rsp_stall_cycles\": " << s.rsp_stall_cycles
    << ", \"max_outstanding\": " << s.max_outstanding << "}" << (last ? "\n" : ",\n");
}

void write_json(const std::string& path, const Options& o, const Outcome& r, const Harness& h) {
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
  j << "  \"ports\": {\n";
  port_json(j, h.imem_port(), false);
  port_json(j, h.rd_port(), false);
  port_json(j, h.c_port(), true);
  j << "  },\n";
  j << "  \"c_bytes_written\": " << h.c_port().bytes_written() << ",\n";
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
  Harness h(o, *ctx);
  const Outcome r = h.run();
  const auto errs = h.errors();
  print_summary(r, errs);
  if (!o.c_out.empty()) write_bytes(o.c_out, h.c_port().c());
  if (!o.json.empty()) write_json(o.json, o, r, h);
  if (!o.state.empty()) write_state(o.state);
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
