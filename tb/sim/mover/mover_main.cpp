// mover_sim: the memory mover's top (tpu_noc_mover) under Verilator, driven
// by a run description tpugen writes (tb/sim/mover_engine.cpp; the files are
// described in mover_wire.h). The harness decides nothing about the move: it
// resets the mover, sends the register writes it was given through the two
// register ports (one at a time with random gaps, or two commuting writes
// in the same cycle from both ports to contend for the arbiter; the last
// write carries GO), runs the AXI4 master against the AXI4 memory model
// (tb/sim/axi/axi_memory.h) with every cycle watched by the protocol checker
// (axi_checker.h), and, when done_o pulses, reads STATUS through a register
// port. With race writes it also sends, while the move runs, writes and GOs
// from the other port, which must not start or disturb anything.
//
// It checks what only it can see: each register response comes exactly the
// cycle after its request was taken and never otherwise, the GO write
// answers rsp_go_o 1 and a GO taken while busy_o is high answers 0, busy_o
// is low before the GO, done_o is a one-cycle pulse, nothing is outstanding
// on the AXI port at done_o, and fault_o, STATUS.fault and STATUS.busy agree.
// It stops at done (after the STATUS read), at --max-cycles (timeout), after
// `watchdog` cycles with nothing moving (hang), or on an RTL assertion.
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
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mover_config.h"
#include "sim/axi/axi_checker.h"
#include "sim/axi/axi_memory.h"
#include "sim/harness/ports.h"
#include "sim/mover/mover_wire.h"

namespace {

using namespace tpusim;
using namespace tpusim::sim;
namespace cfg = mover_config;
namespace wire = tpusim::mover_wire;

constexpr int kExitDone = 0, kExitFail = 1, kExitUsage = 2;
constexpr const char* kRegion = "image";

const char* kUsage =
    "usage: mover_sim --run FILE --result FILE [--mem-out FILE] [--trace FILE.fst]\n"
    "  --run      the run description (mover_wire.h)\n"
    "  --result   where the result goes (mover_wire.h)\n"
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
enum PortSel : unsigned { kHost = 0, kCp = 1, kRandom = 2 };
const char* const kPortNames[] = {"host", "cp"};

struct Write {
  std::uint32_t offset = 0;
  std::uint64_t value = 0;
  PortSel port = kHost;
  bool free = false;
};

struct Run {
  std::uint64_t image_base = 0;
  Bytes image;
  AxiMemoryTiming timing;
  unsigned max_burst = 256;
  std::vector<std::uint64_t> slverr;
  std::uint64_t seed = 1, max_cycles = 2000000, watchdog = 10000;
  unsigned gap_max = 3;
  std::vector<Write> writes, race;
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
    throw Usage{"'" + path + "' is not a mover run description (its first line is not '" + wire::kRunMagic + "')"};
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
    if (key == "image_base")
      want(1), r.image_base = u(0);
    else if (key == "image")
      want(1), r.image = read_bytes(v[0]), have_image = true;
    else if (key == "latency")
      want(1), r.timing.latency = static_cast<unsigned>(u(0));
    else if (key == "ready_stall")
      want(1), r.timing.ready_stall = parse_prob(where, v[0]);
    else if (key == "valid_stall")
      want(1), r.timing.valid_stall = parse_prob(where, v[0]);
    else if (key == "reorder")
      want(1), r.timing.reorder = u(0) != 0;
    else if (key == "interleave")
      want(1), r.timing.interleave = u(0) != 0;
    else if (key == "max_reads")
      want(1), r.timing.max_reads = std::max<std::size_t>(1, u(0));
    else if (key == "max_writes")
      want(1), r.timing.max_writes = std::max<std::size_t>(1, u(0));
    else if (key == "max_burst")
      want(1), r.max_burst = static_cast<unsigned>(u(0));
    else if (key == "slverr")
      want(1), r.slverr.push_back(u(0));
    else if (key == "seed")
      want(1), r.seed = u(0);
    else if (key == "max_cycles")
      want(1), r.max_cycles = u(0);
    else if (key == "watchdog")
      want(1), r.watchdog = std::max<std::uint64_t>(1, u(0));
    else if (key == "gap_max")
      want(1), r.gap_max = static_cast<unsigned>(u(0));
    else if (key == "write" || key == "race") {
      want(key == "write" ? 4 : 2);
      Write w;
      w.offset = static_cast<std::uint32_t>(u(0));
      w.value = u(1);
      if (key == "write") {
        if (v[2] == "host")
          w.port = kHost;
        else if (v[2] == "cp")
          w.port = kCp;
        else if (v[2] == "random")
          w.port = kRandom;
        else
          throw Usage{where + ": the port is host, cp or random, not '" + v[2] + "'"};
        w.free = u(3) != 0;
      }
      if (w.offset >= (1u << cfg::kRegOffsetW)) throw Usage{where + ": offset " + v[0] + " is past the register map"};
      (key == "write" ? r.writes : r.race).push_back(w);
    } else {
      throw Usage{where + ": unknown key '" + key + "'"};
    }
  }
  if (!have_image || r.image.empty()) throw Usage{"'" + path + "' names no image (or an empty one)"};
  if (r.writes.empty()) throw Usage{"'" + path + "' has no register write"};
  return r;
}

// ---------------------------------------------------------------------------
// The register ports
// ---------------------------------------------------------------------------
/// One register port's pins (host_* or cp_*).
struct Pins {
  CData& req_valid;
  CData& req_ready;
  CData& req_write;
  CData& req_addr;
  QData& req_wdata;
  CData& rsp_valid;
  QData& rsp_rdata;
  CData& rsp_go;
};

enum class Kind { Program, Go, Race, Status };

struct Req {
  Kind kind = Kind::Program;
  bool write = true;
  std::uint32_t addr = 0;
  std::uint64_t data = 0;
  bool go = false;       ///< carries the GO bit
  bool busy_at = false;  ///< busy_o in the cycle it was taken
  std::uint64_t taken = 0;
};

struct PortState {
  std::optional<Req> pending;  ///< shown, not yet taken
  std::optional<Req> due;      ///< taken last cycle: its response is due now
  std::uint64_t shown_since = 0;
};

bool carries_go(std::uint32_t offset, std::uint64_t value) {
  return offset == cfg::kGoOffset && ((value >> cfg::kGoLsb) & 1U) != 0;
}

std::uint64_t field(std::uint64_t v, unsigned lsb, unsigned width) {
  return (v >> lsb) & (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1);
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------
struct Result {
  std::string status = "timeout";
  std::uint64_t cycles = 0, total_cycles = 0;
  std::uint64_t fault = 0, fault_o = 0, busy = 0, moves_done = 0;
  bool status_read = false;
  std::uint64_t read_beats = 0, w_beats = 0, write_beats = 0, read_bursts = 0, write_bursts = 0;
  unsigned longest_burst = 0;
  std::uint64_t race_writes = 0, race_gos = 0, race_gos_ignored = 0;
  double seconds = 0.0;
  std::vector<std::string> harness, notes;
};

class Bench {
 public:
  Bench(const Run& run, const Options& o, VerilatedContext& ctx)
      : run_(run),
        ctx_(ctx),
        dut_(std::make_unique<cfg::Dut>(&ctx)),
        mem_(cfg::kDataBytes, run.timing, run.seed * 7 + 2, "m_axi"),
        checker_(cfg::kDataBytes, checker_config(run)),
        rng_(run.seed * 7 + 1),
        pins_{Pins{dut_->host_req_valid_i, dut_->host_req_ready_o, dut_->host_req_write_i, dut_->host_req_addr_i,
                   dut_->host_req_wdata_i, dut_->host_rsp_valid_o, dut_->host_rsp_rdata_o, dut_->host_rsp_go_o},
              Pins{dut_->cp_req_valid_i, dut_->cp_req_ready_o, dut_->cp_req_write_i, dut_->cp_req_addr_i,
                   dut_->cp_req_wdata_i, dut_->cp_rsp_valid_o, dut_->cp_rsp_rdata_o, dut_->cp_rsp_go_o}} {
    mem_.map(kRegion, run.image_base, run.image, true);
    for (const auto a : run.slverr) mem_.inject_slverr(a);
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
    gap_ = gap();
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t cycle = 0;
    for (; phase_ != Phase::Finished; ++cycle) {
      if (cycle >= run_.max_cycles) {
        r_.status = "timeout";
        stopped(cycle, "the cycle limit");
        break;
      }
      if (!step(cycle)) break;
    }
    r_.total_cycles = cycle;
    if (phase_ == Phase::Finished) {
      checker_.finish(cycle);
      if (!mem_.idle()) harness(cycle, "after the STATUS read the memory still has bursts outstanding");
    }
    r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto& s = mem_.stats();
    r_.read_bursts = s.read_bursts;
    r_.write_bursts = s.write_bursts;
    return r_;
  }

  [[nodiscard]] const AxiMemory& memory() const { return mem_; }
  [[nodiscard]] const AxiChecker& checker() const { return checker_; }
  [[nodiscard]] const AxiMemoryStats& stats() const { return mem_.stats(); }

 private:
  enum class Phase { Program, Running, Drain, ReadStatus, Finished };

  static AxiCheckerConfig checker_config(const Run& run) {
    AxiCheckerConfig c;
    c.id_bits = cfg::kIdBits;
    c.addr_bits = cfg::kAddrBits;
    c.max_burst_beats = run.max_burst;
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

  unsigned gap() {
    return run_.gap_max == 0 ? 0
                             : static_cast<unsigned>(std::uniform_int_distribution<unsigned>(0, run_.gap_max)(rng_));
  }
  bool coin() { return (rng_() & 1U) != 0; }

  void harness(std::uint64_t cycle, const std::string& what) {
    r_.harness.push_back(std::to_string(cycle) + " " + what);
  }

  /// What the harness saw when it gave up (hang, timeout).
  void stopped(std::uint64_t cycle, const std::string& why) {
    const char* phases[] = {"programming the registers", "running the move", "waiting for the ports after done_o",
                            "reading STATUS", "finished"};
    std::ostringstream n;
    n << "stopped at cycle " << cycle << " (" << why << ") while " << phases[static_cast<int>(phase_)] << ": busy_o "
      << int(dut_->busy_o) << ", " << mem_.outstanding_reads() << " read and " << mem_.outstanding_writes()
      << " write burst(s) outstanding at the memory, " << r_.read_beats << " R and " << r_.w_beats
      << " W beats so far, the last AXI handshake at cycle " << last_axi_;
    if (phase_ == Phase::Program) n << ", " << next_ << " of " << run_.writes.size() << " register writes sent";
    r_.notes.push_back(n.str());
    for (unsigned p = 0; p < 2; ++p)
      if (ports_[p].pending)
        r_.notes.push_back(std::string("the ") + kPortNames[p] + " port's request (offset " +
                           axi::hex(ports_[p].pending->addr) + ") has been shown since cycle " +
                           std::to_string(ports_[p].shown_since) + " without being taken");
  }

  void idle_inputs() {
    drive_slave(idle_slave_);
    for (auto& p : pins_) p.req_valid = 0;
  }

  void reset() {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    idle_inputs();
    for (int i = 0; i < 4; ++i) {
      dut_->eval();
      dump();
      dut_->clk_i = 1;
      dut_->eval();
      dump();
      dut_->clk_i = 0;
    }
    dut_->rst_ni = 1;
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

  void drive_ports() {
    for (unsigned p = 0; p < 2; ++p) {
      Pins& pin = pins_[p];
      const auto& q = ports_[p].pending;
      pin.req_valid = q.has_value();
      if (q) {
        pin.req_write = q->write;
        pin.req_addr = static_cast<CData>(q->addr);
        pin.req_wdata = q->write ? q->data : rng_();
      } else {  // noise: nothing may be taken without valid
        pin.req_write = rng_() & 1U;
        pin.req_addr = static_cast<CData>(rng_() & ((1U << cfg::kRegOffsetW) - 1));
        pin.req_wdata = rng_();
      }
    }
  }

  void show(unsigned p, const Req& q, std::uint64_t cycle) {
    ports_[p].pending = q;
    ports_[p].shown_since = cycle;
  }

  [[nodiscard]] bool ports_idle() const {
    return !ports_[0].pending && !ports_[1].pending && !ports_[0].due && !ports_[1].due;
  }

  unsigned pick(PortSel s) { return s == kRandom ? (coin() ? 1U : 0U) : static_cast<unsigned>(s); }

  /// This cycle's register requests, from the state after the last edge.
  void plan(std::uint64_t cycle) {
    switch (phase_) {
      case Phase::Program: {
        if (ports_[0].pending || ports_[1].pending || next_ >= run_.writes.size()) return;
        if (gap_ > 0) {
          --gap_;
          return;
        }
        const Write& w = run_.writes[next_];
        const bool last = next_ + 1 == run_.writes.size();
        Req q{last ? Kind::Go : Kind::Program, true, w.offset, w.value, carries_go(w.offset, w.value)};
        if (last && !q.go) harness(cycle, "the last register write carries no GO (the run description is wrong)");
        const unsigned p = pick(w.port);
        show(p, q, cycle);
        ++next_;
        // Two commuting writes in a row, both free to go either way: send the
        // second from the other port in the same cycle (the arbiter decides).
        if (w.free && w.port == kRandom && next_ + 1 < run_.writes.size() && run_.writes[next_].free &&
            run_.writes[next_].port == kRandom && coin()) {
          const Write& w2 = run_.writes[next_];
          show(1 - p, Req{Kind::Program, true, w2.offset, w2.value, carries_go(w2.offset, w2.value)}, cycle);
          ++next_;
        }
        gap_ = gap();
        return;
      }
      case Phase::Running: {
        // The race: the other port, back to back, only while busy_o is high
        // (and a GO only when the GO's own port is quiet, so that it is taken
        // in the cycle it is shown, while the mover is still busy).
        const unsigned p = 1 - go_port_;
        if (!race_open_ || race_next_ >= run_.race.size() || ports_[p].pending || !dut_->busy_o) return;
        const Write& w = run_.race[race_next_];
        const Req q{Kind::Race, true, w.offset, w.value, carries_go(w.offset, w.value)};
        if (q.go && ports_[go_port_].pending) return;
        show(p, q, cycle);
        ++race_next_;
        return;
      }
      case Phase::Drain:
        if (ports_idle()) {
          phase_ = Phase::ReadStatus;
          const PortSel s = run_.writes.back().port;
          show(pick(s), Req{Kind::Status, false, cfg::kStatusOffset, 0, false}, cycle);
        }
        return;
      case Phase::ReadStatus:
      case Phase::Finished:
        return;
    }
  }

  /// One register response (the cycle after its request was taken).
  void answered(std::uint64_t cycle, unsigned p, const Req& q) {
    const Pins& pin = pins_[p];
    const bool go = pin.rsp_go != 0;
    const std::string port = kPortNames[p];
    if (!q.write) {
      if (go) harness(cycle, port + ": rsp_go_o high with a read's response");
      if (q.kind == Kind::Status) {
        const std::uint64_t v = pin.rsp_rdata;
        r_.status_read = true;
        r_.busy = field(v, cfg::kBusyLsb, cfg::kBusyW);
        r_.fault = field(v, cfg::kFaultLsb, cfg::kFaultW);
        r_.moves_done = field(v, cfg::kMovesDoneLsb, cfg::kMovesDoneW);
        if (r_.busy) harness(cycle, "STATUS.busy is set after done_o (STATUS " + axi::hex(v) + ")");
        if (r_.fault != r_.fault_o)
          harness(cycle, "STATUS.fault is " + std::to_string(r_.fault) + " but fault_o was " +
                             std::to_string(r_.fault_o) + " at done_o");
        if (dut_->fault_o != r_.fault)
          harness(cycle, "fault_o is " + std::to_string(int(dut_->fault_o)) + " at the STATUS read, STATUS.fault " +
                             std::to_string(r_.fault));
        if (dut_->busy_o) harness(cycle, "busy_o is high at the STATUS read after done_o");
        r_.status = "done";
        phase_ = Phase::Finished;
      }
      return;
    }
    if (pin.rsp_rdata != 0) harness(cycle, port + ": a write's response carries rdata " + axi::hex(pin.rsp_rdata));
    switch (q.kind) {
      case Kind::Program:
        if (go) harness(cycle, port + ": rsp_go_o high for a write without GO (offset " + axi::hex(q.addr) + ")");
        break;
      case Kind::Go:
        if (!go) {
          harness(cycle, port + ": the GO write (taken at cycle " + std::to_string(q.taken) +
                             ", the mover idle) answered rsp_go_o 0: the GO was lost");
          r_.status = "go_lost";
          lost_ = true;
        } else {
          race_open_ = true;
        }
        break;
      case Kind::Race:
        ++r_.race_writes;
        if (!q.go) {
          if (go)
            harness(cycle, port + ": rsp_go_o high for a race write without GO (offset " + axi::hex(q.addr) + ")");
        } else if (q.busy_at) {
          ++r_.race_gos;
          if (go)
            harness(cycle, port + ": a GO written while the mover was busy (taken at cycle " + std::to_string(q.taken) +
                               ") started a move (rsp_go_o 1)");
          else
            ++r_.race_gos_ignored;
        } else {
          r_.notes.push_back(port + ": a race GO was taken at cycle " + std::to_string(q.taken) +
                             ", after the move ended (rsp_go_o " + std::to_string(int(go)) + "; not a check)");
        }
        break;
      case Kind::Status:
        break;
    }
  }

  /// One cycle. False when the run stops here.
  bool step(std::uint64_t cycle) {
    cfg::Dut& d = *dut_;
    plan(cycle);
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
    m.w.data = get_bytes(d.w_data_o, cfg::kDataBytes);
    m.w.strb.resize(cfg::kDataBytes);
    bool strobed = false;
    for (unsigned b = 0; b < cfg::kDataBytes; ++b) {
      m.w.strb[b] = static_cast<std::uint8_t>(get_bits(d.w_strb_o, b, 1));
      strobed = strobed || m.w.strb[b] != 0;
    }
    m.w.last = d.w_last_o;
    m.bready = d.b_ready_o;
    bool moved = false;
    if (m.arvalid && s.arready) r_.longest_burst = std::max(r_.longest_burst, m.ar.len + 1), moved = true;
    if (m.awvalid && s.awready) r_.longest_burst = std::max(r_.longest_burst, m.aw.len + 1), moved = true;
    if (m.wvalid && s.wready) ++r_.w_beats, r_.write_beats += strobed, moved = true;
    if (s.rvalid && m.rready) ++r_.read_beats, moved = true;
    if (s.bvalid && m.bready) moved = true;
    checker_.check(cycle, m, s);
    mem_.clock(cycle, m);
    if (moved) last_axi_ = cycle;
    if (phase_ == Phase::Program && moved) harness(cycle, "an AXI handshake before any GO");

    // The register ports: the responses due, then this cycle's handshakes.
    const bool busy = d.busy_o != 0;
    for (unsigned p = 0; p < 2; ++p) {
      PortState& st = ports_[p];
      if (st.due) {
        if (!pins_[p].rsp_valid)
          harness(cycle, std::string(kPortNames[p]) + ": no response the cycle after the request taken at cycle " +
                             std::to_string(st.due->taken));
        else
          answered(cycle, p, *st.due);
        st.due.reset();
      } else if (pins_[p].rsp_valid) {
        harness(cycle, std::string(kPortNames[p]) + ": rsp_valid_o with no request taken the cycle before");
      }
      if (st.pending && pins_[p].req_ready) {
        Req q = *st.pending;
        q.taken = cycle;
        q.busy_at = busy;
        st.pending.reset();
        st.due = q;
        last_reg_ = cycle;
        if (q.kind == Kind::Go) {
          go_cycle_ = cycle;
          go_port_ = p;
          phase_ = Phase::Running;
          last_axi_ = cycle;
        }
      }
    }
    if (lost_) {
      d.clk_i = 1;
      d.eval();
      dump();
      return false;
    }

    // The mover's outputs.
    if (d.done_o) {
      if (phase_ == Phase::Running) {
        r_.cycles = cycle - go_cycle_;
        r_.fault_o = d.fault_o;
        if (!mem_.idle() || mem_.outstanding_writes() || mem_.outstanding_reads())
          harness(cycle, "done_o with " + std::to_string(mem_.outstanding_reads()) + " read and " +
                             std::to_string(mem_.outstanding_writes()) +
                             " write burst(s) outstanding (a move is done when every write has its response)");
        phase_ = Phase::Drain;
        done_cycle_ = cycle;
      } else if (phase_ == Phase::Program) {
        harness(cycle, "done_o before any GO");
      } else if (!done_twice_) {
        done_twice_ = true;
        harness(cycle, cycle == done_cycle_ + 1 ? "done_o is high for more than one cycle"
                                                : "done_o pulsed again after the move ended");
      }
    }
    if (phase_ == Phase::Program && busy && !busy_early_) {
      busy_early_ = true;
      harness(cycle, "busy_o is high before any GO");
    }

    d.clk_i = 1;
    d.eval();
    dump();
    d.clk_i = 0;

    // The watchdog: nothing moving for `watchdog` cycles.
    const std::uint64_t since = phase_ == Phase::Running ? last_axi_ : std::max(last_reg_, last_axi_);
    if (phase_ != Phase::Finished && cycle - since >= run_.watchdog &&
        (phase_ == Phase::Running || ports_[0].pending || ports_[1].pending)) {
      r_.status = "hang";
      stopped(cycle, phase_ == Phase::Running
                         ? "no AXI handshake and no done_o for " + std::to_string(run_.watchdog) + " cycles"
                         : "a register request not taken for " + std::to_string(run_.watchdog) + " cycles");
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
  std::array<Pins, 2> pins_;
  std::array<PortState, 2> ports_{};
  Bytes noise_ = Bytes(cfg::kDataBytes, 0);
  const AxiSlaveSignals idle_slave_{};
  Phase phase_ = Phase::Program;
  std::size_t next_ = 0, race_next_ = 0;
  unsigned gap_ = 0;
  unsigned go_port_ = 0;
  bool race_open_ = false, lost_ = false, done_twice_ = false, busy_early_ = false;
  std::uint64_t go_cycle_ = 0, done_cycle_ = 0, last_axi_ = 0, last_reg_ = 0;
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
  f << "status " << r.status << "\ncycles " << r.cycles << "\ntotal_cycles " << r.total_cycles << "\nfault " << r.fault
    << "\nfault_o " << r.fault_o << "\nbusy " << r.busy << "\nmoves_done " << r.moves_done << "\nstatus_read "
    << int(r.status_read) << "\nread_beats " << r.read_beats << "\nw_beats " << r.w_beats << "\nwrite_beats "
    << r.write_beats << "\ndata_beats " << std::max(r.read_beats, r.w_beats) << "\nread_bursts " << r.read_bursts
    << "\nwrite_bursts " << r.write_bursts << "\nlongest_burst " << r.longest_burst << "\nmax_reads_out "
    << b.stats().max_outstanding_reads << "\nmax_writes_out " << b.stats().max_outstanding_writes << "\nrace_writes "
    << r.race_writes << "\nrace_gos " << r.race_gos << "\nrace_gos_ignored " << r.race_gos_ignored << "\nseconds "
    << r.seconds << "\n";
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
    std::fprintf(stderr, "mover_sim: %s\n%s", e.message.c_str(), kUsage);
    return kExitUsage;
  }
}
