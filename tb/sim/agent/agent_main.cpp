// agent_sim: the memory agent (tpu_noc_mem_agent) under Verilator, driven by
// a run description tpugen writes (tb/sim/agent_engine.cpp; the files are
// described in agent_wire.h). The harness decides nothing about the flits:
// it resets the agent, offers each port's flits in order, each after its gap
// and held until taken, takes each port's output flits under random
// backpressure, runs the AXI4 master against the AXI4 memory model
// (tb/sim/axi/axi_memory.h) with every cycle watched by the protocol checker
// (axi_checker.h), and logs every flit sent with the requester it answers.
// The comparison with the reference model is tpugen's.
//
// It checks what only it can see: an output flit, once valid, holds until it
// is taken (the NoC's stream rule); busy rises before full (a port that is
// not ready had in_busy_o up, and a port whose in_busy_o was low a cycle ago
// is ready now); nothing is outstanding at the memory once the agent says
// idle. It stops when every flit was taken and the agent and the memory have
// been idle for a few cycles (done), at --max-cycles (timeout), after
// `watchdog` cycles with nothing moving while the agent is not idle (hang),
// or on an RTL assertion.
#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "agent_config.h"
#include "sim/agent/agent_wire.h"
#include "sim/axi/axi_checker.h"
#include "sim/axi/axi_memory.h"
#include "sim/harness/ports.h"

namespace {

using namespace tpusim;
using namespace tpusim::sim;
namespace cfg = agent_config;
namespace wire = tpusim::agent_wire;

constexpr int kExitDone = 0, kExitFail = 1, kExitUsage = 2;
constexpr const char* kRegion = "image";
constexpr unsigned kFlitWords = (cfg::kFlitBits + 63) / 64;
constexpr unsigned kFlitHex = (cfg::kFlitBits + 3) / 4;
constexpr std::uint64_t kSettle = 8;  ///< idle cycles after the last flit before done

const char* kUsage =
    "usage: agent_sim --run FILE --result FILE [--mem-out FILE] [--trace FILE.fst]\n"
    "  --run      the run description (agent_wire.h)\n"
    "  --result   where the result goes (agent_wire.h)\n"
    "  --mem-out  write the memory image after the run (the run's image extent)\n"
    "  --trace    write an FST waveform (a simulator built with --trace-fst)\n";

struct Usage {
  std::string message;
};

struct Options {
  std::string run, result, mem_out, trace;
};

Options parse_args(int argc, char** argv) {
  Options o;
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

// ---------------------------------------------------------------------------
// The run description
// ---------------------------------------------------------------------------
using FlitWords = std::array<std::uint64_t, kFlitWords>;

struct Offer {
  unsigned gap = 0;
  FlitWords flit{};
};

struct Run {
  std::array<unsigned, cfg::kPorts * 2> nodes{};  ///< port p's x at [2p], y at [2p + 1]
  std::uint64_t image_base = 0;
  Bytes image;
  AxiMemoryTiming timing;
  std::vector<std::uint64_t> slverr;
  std::array<double, cfg::kPorts> backpressure{};
  std::uint64_t seed = 1, max_cycles = 2000000, watchdog = 20000;
  std::array<std::vector<Offer>, cfg::kPorts> flits;
};

std::uint64_t parse_u64(const std::string& where, const std::string& v) {
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 0);
  if (v.empty() || *end != '\0' || v[0] == '-') throw Usage{where + ": '" + v + "' is not a non-negative integer"};
  return x;
}

double parse_prob(const std::string& where, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(x >= 0.0 && x < 1.0)) throw Usage{where + ": '" + v + "' is not in [0, 1)"};
  return x;
}

FlitWords parse_flit(const std::string& where, const std::string& hex) {
  if (hex.size() != kFlitHex)
    throw Usage{where + ": a flit is " + std::to_string(kFlitHex) + " hex digits, not " + std::to_string(hex.size())};
  FlitWords w{};
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[hex.size() - 1 - i];  // digit i from the least significant
    unsigned d = 0;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      throw Usage{where + ": '" + hex + "' is not hex"};
    w[i / 16] |= std::uint64_t{d} << (4 * (i % 16));
  }
  return w;
}

std::string flit_hex(const FlitWords& w) {
  std::string s(kFlitHex, '0');
  static const char* digits = "0123456789abcdef";
  for (std::size_t i = 0; i < kFlitHex; ++i) s[kFlitHex - 1 - i] = digits[(w[i / 16] >> (4 * (i % 16))) & 0xF];
  return s;
}

Bytes read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Usage{"cannot read '" + path + "'"};
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

Run read_run(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Usage{"cannot read '" + path + "'"};
  Run r;
  std::string line;
  if (!std::getline(f, line) || line != wire::kRunMagic)
    throw Usage{"'" + path + "' is not an agent run description (its first line is not '" + wire::kRunMagic + "')"};
  bool have_image = false;
  for (int n = 2; std::getline(f, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string key;
    std::vector<std::string> v;
    in >> key;
    for (std::string t; in >> t;) v.push_back(t);
    const std::string where = path + ":" + std::to_string(n);
    auto want = [&](std::size_t k) {
      if (v.size() != k) throw Usage{where + ": '" + key + "' takes " + std::to_string(k) + " value(s)"};
    };
    auto u = [&](std::size_t i) { return parse_u64(where, v[i]); };
    auto port = [&](std::size_t i) {
      const std::uint64_t p = u(i);
      if (p >= cfg::kPorts)
        throw Usage{where + ": port " + v[i] + " (the agent has " + std::to_string(cfg::kPorts) + ")"};
      return static_cast<unsigned>(p);
    };
    if (key == "node") {
      want(3);
      const unsigned p = port(0);
      r.nodes[2 * p] = static_cast<unsigned>(u(1));
      r.nodes[2 * p + 1] = static_cast<unsigned>(u(2));
      if (r.nodes[2 * p] >= (1U << cfg::kPosBits) || r.nodes[2 * p + 1] >= (1U << cfg::kPosBits))
        throw Usage{where + ": the node is not a coordinate"};
    } else if (key == "image_base") {
      want(1), r.image_base = u(0);
    } else if (key == "image") {
      want(1), r.image = read_bytes(v[0]), have_image = true;
    } else if (key == "latency") {
      want(1), r.timing.latency = static_cast<unsigned>(u(0));
    } else if (key == "ready_stall") {
      want(1), r.timing.ready_stall = parse_prob(where, v[0]);
    } else if (key == "valid_stall") {
      want(1), r.timing.valid_stall = parse_prob(where, v[0]);
    } else if (key == "max_reads") {
      want(1), r.timing.max_reads = std::max<std::size_t>(1, u(0));
    } else if (key == "max_writes") {
      want(1), r.timing.max_writes = std::max<std::size_t>(1, u(0));
    } else if (key == "slverr") {
      want(1), r.slverr.push_back(u(0));
    } else if (key == "backpressure") {
      want(2), r.backpressure[port(0)] = parse_prob(where, v[1]);
    } else if (key == "seed") {
      want(1), r.seed = u(0);
    } else if (key == "max_cycles") {
      want(1), r.max_cycles = u(0);
    } else if (key == "watchdog") {
      want(1), r.watchdog = std::max<std::uint64_t>(1, u(0));
    } else if (key == "flit") {
      want(3);
      Offer o;
      const unsigned p = port(0);
      o.gap = static_cast<unsigned>(u(1));
      o.flit = parse_flit(where, v[2]);
      r.flits[p].push_back(o);
    } else {
      throw Usage{where + ": unknown key '" + key + "'"};
    }
  }
  if (!have_image || r.image.empty()) throw Usage{"'" + path + "' names no image (or an empty one)"};
  return r;
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------
struct Sent {
  unsigned port = 0, x = 0, y = 0;
  FlitWords flit{};
};

struct PortState {
  std::size_t next = 0;   ///< the next flit to offer
  bool offering = false;  ///< shown, not yet taken
  unsigned gap = 0;       ///< idle cycles left before the next offer
  std::uint64_t taken = 0, busy_cycles = 0;
  bool busy_prev = false;  ///< in_busy_o a cycle ago
  bool out_held = false;   ///< out_valid_o shown a cycle ago and not taken
  FlitWords out_prev{};
};

struct Result {
  std::string status = "timeout";
  std::uint64_t cycles = 0;
  std::uint64_t read_beats = 0, write_beats = 0;
  unsigned longest_burst = 0;
  double seconds = 0.0;
  std::vector<Sent> sent;
  std::vector<std::string> harness, notes;
};

class Bench {
 public:
  Bench(const Run& run, const Options& o, VerilatedContext& ctx)
      : run_(run),
        ctx_(ctx),
        dut_(std::make_unique<cfg::Dut>(&ctx)),
        mem_(cfg::kDataBytes, run.timing, run.seed * 7 + 2, "m_axi"),
        checker_(cfg::kDataBytes, checker_config()),
        rng_(run.seed * 7 + 1) {
    mem_.map(kRegion, run.image_base, run.image, true);
    for (const auto a : run.slverr) mem_.inject_slverr(a);
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      state_[p].gap = run.flits[p].empty() ? 0 : run.flits[p].front().gap;
      const double bp = run.backpressure[p];
      bp_threshold_[p] = bp <= 0.0 ? 0 : static_cast<std::uint64_t>(bp * 18446744073709551616.0);
    }
#if VM_TRACE_FST
    if (!o.trace.empty()) {
      ctx.traceEverOn(true);
      fst_ = std::make_unique<VerilatedFstC>();
      dut_->trace(fst_.get(), 99);
      fst_->open(o.trace.c_str());
    }
#else
    if (!o.trace.empty()) throw Usage{"this simulator was built without --trace-fst"};
#endif
  }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;
  ~Bench() {
#if VM_TRACE_FST
    if (fst_) fst_->close();
#endif
    dut_->final();
  }

  Result run() {
    reset();
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t cycle = 0;
    for (; !finished_; ++cycle) {
      if (cycle >= run_.max_cycles) {
        r_.status = "timeout";
        stopped(cycle, "the cycle limit");
        break;
      }
      if (!step(cycle)) break;
    }
    r_.cycles = cycle;
    if (finished_) checker_.finish(cycle);
    r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r_;
  }

  [[nodiscard]] const AxiMemory& memory() const { return mem_; }
  [[nodiscard]] const AxiChecker& checker() const { return checker_; }
  [[nodiscard]] const PortState& port(unsigned p) const { return state_[p]; }
  /// The port's counters: stray, discarded, errors in, last mismatches.
  [[nodiscard]] std::array<std::uint64_t, 4> counters(unsigned p) const {
    const cfg::Dut& d = *dut_;
    return {get_bits(d.stray_o, 16 * p, 16), get_bits(d.discarded_o, 16 * p, 16), get_bits(d.errors_in_o, 16 * p, 16),
            get_bits(d.last_mismatch_o, 16 * p, 16)};
  }

 private:
  static AxiCheckerConfig checker_config() {
    AxiCheckerConfig c;
    c.id_bits = cfg::kIdBits;
    c.addr_bits = cfg::kAddrBits;
    c.max_burst_beats = cfg::kMaxBurst;
    c.require_aligned = true;
    c.incr_only = true;
    c.port = "m_axi";
    return c;
  }

  void dump() {
#if VM_TRACE_FST
    if (fst_) fst_->dump(time_);
#endif
    ++time_;
  }

  void harness(std::uint64_t cycle, const std::string& what) {
    if (r_.harness.size() < 20) r_.harness.push_back(std::to_string(cycle) + " " + what);
  }

  void stopped(std::uint64_t cycle, const std::string& why) {
    std::ostringstream n;
    n << "stopped at cycle " << cycle << " (" << why << "): idle_o " << int(dut_->idle_o) << ", "
      << mem_.outstanding_reads() << " read and " << mem_.outstanding_writes()
      << " write burst(s) outstanding at the memory, the last handshake at cycle " << last_move_;
    r_.notes.push_back(n.str());
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      const PortState& s = state_[p];
      std::ostringstream m;
      m << "port " << p << ": " << s.taken << " of " << run_.flits[p].size() << " flit(s) taken"
        << (s.offering ? " (one offered and not taken)" : "") << ", in_ready_o " << get_bit(dut_->in_ready_o, p)
        << ", in_busy_o " << get_bit(dut_->in_busy_o, p) << ", out_valid_o " << get_bit(dut_->out_valid_o, p);
      r_.notes.push_back(m.str());
    }
  }

  void reset() {
    cfg::Dut& d = *dut_;
    d.clk_i = 0;
    d.rst_ni = 0;
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      const std::uint64_t node = run_.nodes[2 * p] | (run_.nodes[2 * p + 1] << cfg::kPosBits);
      set_slice(d.node_i, p * cfg::kNodeBits, &node, cfg::kNodeBits);
    }
    drive_slave(AxiSlaveSignals{});
    drive_ports();
    for (int i = 0; i < 4; ++i) {
      d.eval();
      dump();
      d.clk_i = 1;
      d.eval();
      dump();
      d.clk_i = 0;
    }
    d.rst_ni = 1;
  }

  void drive_slave(const AxiSlaveSignals& s) {
    cfg::Dut& d = *dut_;
    d.ar_ready_i = s.arready;
    d.aw_ready_i = s.awready;
    d.w_ready_i = s.wready;
    d.r_valid_i = s.rvalid;
    if (s.rvalid) {
      set_bytes(d.r_data_i, s.r.data.data(), s.r.data.size());
      d.r_id_i = s.r.id;
      d.r_resp_i = s.r.resp;
      d.r_last_i = s.r.last;
    } else {  // noise: nothing may be taken from R without RVALID
      for (auto& b : noise_) b = static_cast<std::uint8_t>(rng_());
      set_bytes(d.r_data_i, noise_.data(), noise_.size());
      d.r_id_i = rng_() & 1U;
      d.r_resp_i = rng_() & 3U;
      d.r_last_i = rng_() & 1U;
    }
    d.b_valid_i = s.bvalid;
    d.b_id_i = s.bvalid ? s.b.id : (rng_() & 1U);
    d.b_resp_i = s.bvalid ? s.b.resp : (rng_() & 3U);
  }

  /// The ports' inputs for this cycle: each offered flit (noise when none),
  /// each output's ready.
  void drive_ports() {
    cfg::Dut& d = *dut_;
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      const PortState& s = state_[p];
      set_bit(d.in_valid_i, p, s.offering);
      FlitWords w{};
      if (s.offering) {
        w = run_.flits[p][s.next].flit;
      } else {
        for (auto& x : w) x = rng_();
      }
      set_slice(d.in_flit_i, p * cfg::kFlitBits, w.data(), cfg::kFlitBits);
      set_bit(d.out_ready_i, p, bp_threshold_[p] == 0 || rng_() >= bp_threshold_[p]);
    }
  }

  /// Offer each port's next flit once its gap is over.
  void plan() {
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      PortState& s = state_[p];
      if (s.offering || s.next >= run_.flits[p].size()) continue;
      if (s.gap > 0) {
        --s.gap;
        continue;
      }
      s.offering = true;
    }
  }

  [[nodiscard]] bool all_taken() const {
    for (unsigned p = 0; p < cfg::kPorts; ++p)
      if (state_[p].next < run_.flits[p].size()) return false;
    return true;
  }

  /// One cycle. False when the run stops here.
  bool step(std::uint64_t cycle) {
    cfg::Dut& d = *dut_;
    plan();
    const AxiSlaveSignals& s = mem_.drive(cycle);
    drive_slave(s);
    drive_ports();
    d.clk_i = 0;
    d.eval();
    dump();
    if (ctx_.gotError() || ctx_.gotFinish()) {
      r_.status = "assertion";
      stopped(cycle, "an RTL assertion");
      return false;
    }

    // AXI: both sides to the checker, the handshakes to the memory.
    AxiMasterSignals m;
    m.arvalid = d.ar_valid_o;
    m.ar = addr(d.ar_addr_o, d.ar_id_o, d.ar_len_o, d.ar_size_o, d.ar_burst_o);
    m.rready = d.r_ready_o;
    m.awvalid = d.aw_valid_o;
    m.aw = addr(d.aw_addr_o, d.aw_id_o, d.aw_len_o, d.aw_size_o, d.aw_burst_o);
    m.wvalid = d.w_valid_o;
    if (m.wvalid) {
      m.w.data = get_bytes(d.w_data_o, cfg::kDataBytes);
      m.w.strb.resize(cfg::kDataBytes);
      for (unsigned b = 0; b < cfg::kDataBytes; ++b)
        m.w.strb[b] = static_cast<std::uint8_t>(get_bits(d.w_strb_o, b, 1));
    }
    m.w.last = d.w_last_o;
    m.bready = d.b_ready_o;
    bool moved = false;
    if (m.arvalid && s.arready) r_.longest_burst = std::max(r_.longest_burst, m.ar.len + 1), moved = true;
    if (m.awvalid && s.awready) r_.longest_burst = std::max(r_.longest_burst, m.aw.len + 1), moved = true;
    if (m.wvalid && s.wready) ++r_.write_beats, moved = true;
    if (s.rvalid && m.rready) ++r_.read_beats, moved = true;
    if (s.bvalid && m.bready) moved = true;
    checker_.check(cycle, m, s);
    mem_.clock(cycle, m);

    // The NoC ports.
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      PortState& st = state_[p];
      const bool ready = get_bit(d.in_ready_o, p), busy = get_bit(d.in_busy_o, p);
      if (!ready && !busy) harness(cycle, "port " + std::to_string(p) + ": in_ready_o low with in_busy_o low (full)");
      if (!st.busy_prev && !ready && cycle > 0)
        harness(cycle, "port " + std::to_string(p) + ": in_busy_o was low a cycle ago and in_ready_o is low now");
      st.busy_prev = busy;
      st.busy_cycles += busy;
      if (st.offering && ready) {
        st.offering = false;
        ++st.next;
        ++st.taken;
        st.gap = st.next < run_.flits[p].size() ? run_.flits[p][st.next].gap : 0;
        moved = true;
      }
      const bool ovalid = get_bit(d.out_valid_o, p), oready = get_bit(d.out_ready_i, p);
      FlitWords w{};
      if (ovalid || st.out_held) get_slice(d.out_flit_o, p * cfg::kFlitBits, w.data(), cfg::kFlitBits);
      if (st.out_held && (!ovalid || w != st.out_prev))
        harness(cycle, "port " + std::to_string(p) + ": an output flit shown and not taken was " +
                           (ovalid ? "changed" : "withdrawn") + " before its handshake");
      if (ovalid && oready) {
        Sent snt;
        snt.port = p;
        const std::uint64_t src = get_bits(d.out_src_o, p * cfg::kNodeBits, cfg::kNodeBits);
        snt.x = static_cast<unsigned>(src & ((1U << cfg::kPosBits) - 1));
        snt.y = static_cast<unsigned>(src >> cfg::kPosBits);
        snt.flit = w;
        r_.sent.push_back(snt);
        moved = true;
      }
      st.out_held = ovalid && !oready;
      st.out_prev = w;
    }
    if (moved) last_move_ = cycle;

    // Done: every flit taken, the agent and the memory idle for kSettle cycles.
    const bool idle = d.idle_o != 0;
    if (idle && !mem_.idle() && mem_.outstanding_writes() + mem_.outstanding_reads() > 0 && !idle_warned_) {
      idle_warned_ = true;
      harness(cycle, "idle_o high with " + std::to_string(mem_.outstanding_reads()) + " read and " +
                         std::to_string(mem_.outstanding_writes()) + " write burst(s) outstanding at the memory");
    }
    settled_ = (all_taken() && idle && mem_.idle()) ? settled_ + 1 : 0;

    d.clk_i = 1;
    d.eval();
    dump();
    d.clk_i = 0;

    if (settled_ >= kSettle) {
      r_.status = "done";
      finished_ = true;
      return true;
    }
    // The watchdog: nothing moving for `watchdog` cycles while there is work.
    if (cycle - last_move_ >= run_.watchdog && !(idle && all_taken())) {
      r_.status = "hang";
      stopped(cycle, "nothing moved for " + std::to_string(run_.watchdog) + " cycles");
      return false;
    }
    return true;
  }

  template <typename A, typename I, typename N, typename S, typename B>
  static AxiAddr addr(A a, I id, N len, S size, B burst) {
    AxiAddr x;
    x.addr = static_cast<std::uint64_t>(a);
    x.id = static_cast<unsigned>(id);
    x.len = static_cast<unsigned>(len);
    x.size = static_cast<unsigned>(size);
    x.burst = static_cast<unsigned>(burst);
    return x;
  }

  const Run& run_;
  VerilatedContext& ctx_;
  std::unique_ptr<cfg::Dut> dut_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst_;
#endif
  std::uint64_t time_ = 0;
  AxiMemory mem_;
  AxiChecker checker_;
  std::mt19937_64 rng_;
  std::array<PortState, cfg::kPorts> state_{};
  std::array<std::uint64_t, cfg::kPorts> bp_threshold_{};
  Bytes noise_ = Bytes(cfg::kDataBytes, 0);
  std::uint64_t last_move_ = 0, settled_ = 0;
  bool finished_ = false, idle_warned_ = false;
  Result r_;
};

/// One line of text with no line breaks (a message inside a result line).
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

void write_result(const std::string& path, const Result& r, const Bench& b) {
  std::ofstream f(path);
  if (!f) throw Usage{"cannot write '" + path + "'"};
  f << wire::kResultMagic << "\n";
  f << "status " << r.status << "\ncycles " << r.cycles << "\n";
  for (const Sent& s : r.sent) f << "out " << s.port << " " << s.x << " " << s.y << " " << flit_hex(s.flit) << "\n";
  for (unsigned p = 0; p < cfg::kPorts; ++p) {
    const auto c = b.counters(p);
    f << "taken " << p << " " << b.port(p).taken << "\ncounters " << p << " " << c[0] << " " << c[1] << " " << c[2]
      << " " << c[3] << "\nbusy " << p << " " << b.port(p).busy_cycles << "\n";
  }
  const auto& st = b.memory().stats();
  f << "read_bursts " << st.read_bursts << "\nwrite_bursts " << st.write_bursts << "\nread_beats " << r.read_beats
    << "\nwrite_beats " << r.write_beats << "\nlongest_burst " << r.longest_burst << "\nmax_reads_out "
    << st.max_outstanding_reads << "\nmax_writes_out " << st.max_outstanding_writes << "\nseconds " << r.seconds
    << "\n";
  for (const auto& e : b.memory().errors()) f << "axi " << one_line(e.message) << "\n";
  for (const auto& e : b.checker().errors()) f << "checker " << e.cycle << " " << one_line(e.message) << "\n";
  for (const auto& h : r.harness) f << "harness " << one_line(h) << "\n";
  for (const auto& n : r.notes) f << "note " << one_line(n) << "\n";
  f << "end\n";
  if (!f) throw Usage{"cannot write '" + path + "'"};
}

int run(int argc, char** argv) {
  const Options o = parse_args(argc, argv);
  const Run r = read_run(o.run);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(r.seed % 2147483646ULL) + 1);
  ctx->fatalOnError(false);  // an assertion ends the run with its status, not an abort
  Result res;
  bool protocol_ok = true;
  {
    Bench bench(r, o, *ctx);
    res = bench.run();
    protocol_ok = bench.checker().errors().empty();
    write_result(o.result, res, bench);
    if (!o.mem_out.empty()) {
      std::ofstream f(o.mem_out, std::ios::binary);
      const Bytes& img = bench.memory().region(kRegion);
      f.write(reinterpret_cast<const char*>(img.data()), static_cast<std::streamsize>(img.size()));
      if (!f) throw Usage{"cannot write '" + o.mem_out + "'"};
    }
  }
  const bool clean = res.status == "done" && res.harness.empty() && protocol_ok;
  return clean ? kExitDone : kExitFail;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Usage& e) {
    if (e.message.empty()) {
      std::fputs(kUsage, stdout);
      return kExitDone;
    }
    std::fprintf(stderr, "agent_sim: %s\n%s", e.message.c_str(), kUsage);
    return kExitUsage;
  }
}
