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

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "agent_config.h"
#include "sim/agent/agent_wire.h"
#include "sim/axi/axi_master_port.h"
#include "sim/harness/clocked_dut.h"
#include "sim/harness/harness_main.h"
#include "sim/harness/ports.h"
#include "sim/harness/run_bench.h"
#include "sim/harness/run_file.h"

namespace {

using namespace tpusim;
using namespace tpusim::sim;
namespace cfg = agent_config;
namespace wire = tpusim::agent_wire;

constexpr unsigned kFlitWords = (cfg::kFlitBits + 63) / 64;
constexpr unsigned kFlitHex = (cfg::kFlitBits + 3) / 4;
constexpr std::uint64_t kSettle = 8;  ///< idle cycles after the last flit before done

const char* kUsage =
    "usage: agent_sim --run FILE --result FILE [--mem-out FILE] [--trace FILE.fst]\n"
    "  --run      the run description (agent_wire.h)\n"
    "  --result   where the result goes (agent_wire.h)\n"
    "  --mem-out  write the memory image after the run (the run's image extent)\n"
    "  --trace    write an FST waveform (a simulator built with --trace-fst)\n";

// ---------------------------------------------------------------------------
// The run description
// ---------------------------------------------------------------------------
using FlitWords = std::array<std::uint64_t, kFlitWords>;

struct Offer {
  unsigned gap = 0;
  FlitWords flit{};
};

struct Run : AxiRun {
  Run() : AxiRun(20000) {}
  std::array<unsigned, cfg::kPorts * 2> nodes{};  ///< port p's x at [2p], y at [2p + 1]
  std::array<double, cfg::kPorts> backpressure{};
  std::array<std::vector<Offer>, cfg::kPorts> flits;
};

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

Run read_run(const std::string& path) {
  Run r;
  read_run_file(path, wire::kRunMagic, "an agent run description", [&r](const RunLine& l) {
    if (r.take(l)) return;
    auto port = [&](std::size_t i) {
      const std::uint64_t p = l.u(i);
      if (p >= cfg::kPorts)
        throw Usage{l.where + ": port " + l.values[i] + " (the agent has " + std::to_string(cfg::kPorts) + ")"};
      return static_cast<unsigned>(p);
    };
    if (l.key == "node") {
      l.want(3);
      const unsigned p = port(0);
      r.nodes[2 * p] = static_cast<unsigned>(l.u(1));
      r.nodes[2 * p + 1] = static_cast<unsigned>(l.u(2));
      if (r.nodes[2 * p] >= (1U << cfg::kPosBits) || r.nodes[2 * p + 1] >= (1U << cfg::kPosBits))
        throw Usage{l.where + ": the node is not a coordinate"};
    } else if (l.key == "backpressure") {
      l.want(2), r.backpressure[port(0)] = l.prob(1);
    } else if (l.key == "flit") {
      l.want(3);
      Offer o;
      const unsigned p = port(0);
      o.gap = static_cast<unsigned>(l.u(1));
      o.flit = parse_flit(l.where, l.values[2]);
      r.flits[p].push_back(o);
    } else {
      throw l.unknown();
    }
  });
  r.require_image(path);
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

struct Result : RunOutcome {
  std::uint64_t cycles = 0;
  std::vector<Sent> sent;
};

class Bench {
 public:
  Bench(const Run& run, const std::string& trace, VerilatedContext& ctx)
      : run_(run),
        dut_(ctx, trace),
        axi_(run, cfg::kDataBytes, cfg::kIdBits, cfg::kAddrBits, cfg::kMaxBurst),
        rng_(run.seed * 7 + 1) {
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      state_[p].gap = run.flits[p].empty() ? 0 : run.flits[p].front().gap;
      const double bp = run.backpressure[p];
      bp_threshold_[p] = bp <= 0.0 ? 0 : static_cast<std::uint64_t>(bp * 18446744073709551616.0);
    }
  }

  Result run() {
    reset();
    r_.cycles = clock_loop(
        run_.max_cycles, [this] { return finished_; }, [this](std::uint64_t cycle) { return step(cycle); },
        [this](std::uint64_t cycle) {
          r_.status = "timeout";
          stopped(cycle, "the cycle limit");
        },
        r_.seconds);
    if (finished_) axi_.checker().finish(r_.cycles);
    return r_;
  }

  [[nodiscard]] const AxiMasterPort<cfg::Dut>& axi() const { return axi_; }
  [[nodiscard]] const PortState& port(unsigned p) const { return state_[p]; }
  /// The port's counters: stray, discarded, errors in, last mismatches.
  [[nodiscard]] std::array<std::uint64_t, 4> counters(unsigned p) const {
    const cfg::Dut& d = *dut_;
    return {get_bits(d.stray_o, 16 * p, 16), get_bits(d.discarded_o, 16 * p, 16), get_bits(d.errors_in_o, 16 * p, 16),
            get_bits(d.last_mismatch_o, 16 * p, 16)};
  }

 private:
  void harness(std::uint64_t cycle, const std::string& what) {
    if (r_.harness.size() < 20) r_.harness.push_back(std::to_string(cycle) + " " + what);
  }

  void stopped(std::uint64_t cycle, const std::string& why) {
    const AxiMemory& mem = axi_.memory();
    std::ostringstream n;
    n << "stopped at cycle " << cycle << " (" << why << "): idle_o " << int(dut_->idle_o) << ", "
      << mem.outstanding_reads() << " read and " << mem.outstanding_writes()
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
    for (unsigned p = 0; p < cfg::kPorts; ++p) {
      const std::uint64_t node = run_.nodes[2 * p] | (run_.nodes[2 * p + 1] << cfg::kPosBits);
      set_slice(d.node_i, p * cfg::kNodeBits, &node, cfg::kNodeBits);
    }
    axi_.drive_idle(d, rng_);
    drive_ports();
    dut_.reset(4);
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
    const AxiSlaveSignals& s = axi_.drive(d, cycle, rng_);
    drive_ports();
    if (!dut_.fall()) {
      r_.status = "assertion";
      stopped(cycle, "an RTL assertion");
      return false;
    }

    // AXI: both sides to the checker, the handshakes to the memory.
    bool moved = axi_.clock(d, cycle, s);

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
    const AxiMemory& mem = axi_.memory();
    const bool idle = d.idle_o != 0;
    if (idle && !mem.idle() && mem.outstanding_writes() + mem.outstanding_reads() > 0 && !idle_warned_) {
      idle_warned_ = true;
      harness(cycle, "idle_o high with " + std::to_string(mem.outstanding_reads()) + " read and " +
                         std::to_string(mem.outstanding_writes()) + " write burst(s) outstanding at the memory");
    }
    settled_ = (all_taken() && idle && mem.idle()) ? settled_ + 1 : 0;

    dut_.rise();

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

  const Run& run_;
  ClockedDut<cfg::Dut> dut_;
  AxiMasterPort<cfg::Dut> axi_;
  std::mt19937_64 rng_;
  std::array<PortState, cfg::kPorts> state_{};
  std::array<std::uint64_t, cfg::kPorts> bp_threshold_{};
  std::uint64_t last_move_ = 0, settled_ = 0;
  bool finished_ = false, idle_warned_ = false;
  Result r_;
};

/// The result's own lines (agent_wire.h).
void write_lines(std::ostream& f, const Result& r, const Bench& b) {
  f << "status " << r.status << "\ncycles " << r.cycles << "\n";
  for (const Sent& s : r.sent) f << "out " << s.port << " " << s.x << " " << s.y << " " << flit_hex(s.flit) << "\n";
  for (unsigned p = 0; p < cfg::kPorts; ++p) {
    const auto c = b.counters(p);
    f << "taken " << p << " " << b.port(p).taken << "\ncounters " << p << " " << c[0] << " " << c[1] << " " << c[2]
      << " " << c[3] << "\nbusy " << p << " " << b.port(p).busy_cycles << "\n";
  }
  const auto& st = b.axi().memory().stats();
  const AxiTraffic& t = b.axi().traffic();
  f << "read_bursts " << st.read_bursts << "\nwrite_bursts " << st.write_bursts << "\nread_beats " << t.read_beats
    << "\nwrite_beats " << t.w_beats << "\nlongest_burst " << t.longest_burst << "\nmax_reads_out "
    << st.max_outstanding_reads << "\nmax_writes_out " << st.max_outstanding_writes << "\nseconds " << r.seconds
    << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  return harness_main(argc, argv, "agent_sim", kUsage, [](int c, char** v) {
    return run_bench<Bench>(c, v, wire::kResultMagic, read_run, write_lines);
  });
}
