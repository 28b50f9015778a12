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

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mover_config.h"
#include "sim/axi/axi_master_port.h"
#include "sim/harness/clocked_dut.h"
#include "sim/harness/harness_main.h"
#include "sim/harness/ports.h"
#include "sim/harness/run_bench.h"
#include "sim/harness/run_file.h"
#include "sim/mover/mover_wire.h"

namespace {

using namespace tpusim;
using namespace tpusim::sim;
namespace cfg = mover_config;
namespace wire = tpusim::mover_wire;

const char* kUsage =
    "usage: mover_sim --run FILE --result FILE [--mem-out FILE] [--trace FILE.fst]\n"
    "  --run      the run description (mover_wire.h)\n"
    "  --result   where the result goes (mover_wire.h)\n"
    "  --mem-out  write the memory image after the run (the run's image extent)\n"
    "  --trace    write an FST waveform (a simulator built with --trace-fst)\n";

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

struct Run : AxiRun {
  Run() : AxiRun(10000) {}
  unsigned max_burst = 256;
  unsigned gap_max = 3;
  std::vector<Write> writes, race;
};

Run read_run(const std::string& path) {
  Run r;
  read_run_file(path, wire::kRunMagic, "a mover run description", [&r](const RunLine& l) {
    if (r.take(l)) return;
    if (l.key == "reorder")
      l.want(1), r.timing.reorder = l.u(0) != 0;
    else if (l.key == "interleave")
      l.want(1), r.timing.interleave = l.u(0) != 0;
    else if (l.key == "max_burst")
      l.want(1), r.max_burst = static_cast<unsigned>(l.u(0));
    else if (l.key == "gap_max")
      l.want(1), r.gap_max = static_cast<unsigned>(l.u(0));
    else if (l.key == "write" || l.key == "race") {
      l.want(l.key == "write" ? 4 : 2);
      Write w;
      w.offset = static_cast<std::uint32_t>(l.u(0));
      w.value = l.u(1);
      if (l.key == "write") {
        if (l.values[2] == "host")
          w.port = kHost;
        else if (l.values[2] == "cp")
          w.port = kCp;
        else if (l.values[2] == "random")
          w.port = kRandom;
        else
          throw Usage{l.where + ": the port is host, cp or random, not '" + l.values[2] + "'"};
        w.free = l.u(3) != 0;
      }
      if (w.offset >= (1u << cfg::kRegOffsetW))
        throw Usage{l.where + ": offset " + l.values[0] + " is past the register map"};
      (l.key == "write" ? r.writes : r.race).push_back(w);
    } else {
      throw l.unknown();
    }
  });
  r.require_image(path);
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
struct Result : RunOutcome {
  std::uint64_t cycles = 0, total_cycles = 0;
  std::uint64_t fault = 0, fault_o = 0, busy = 0, moves_done = 0;
  bool status_read = false;
  std::uint64_t race_writes = 0, race_gos = 0, race_gos_ignored = 0;
};

class Bench {
 public:
  Bench(const Run& run, const std::string& trace, VerilatedContext& ctx)
      : run_(run),
        dut_(ctx, trace),
        axi_(run, cfg::kDataBytes, cfg::kIdBits, cfg::kAddrBits, run.max_burst),
        rng_(run.seed * 7 + 1),
        pins_{Pins{dut_->host_req_valid_i, dut_->host_req_ready_o, dut_->host_req_write_i, dut_->host_req_addr_i,
                   dut_->host_req_wdata_i, dut_->host_rsp_valid_o, dut_->host_rsp_rdata_o, dut_->host_rsp_go_o},
              Pins{dut_->cp_req_valid_i, dut_->cp_req_ready_o, dut_->cp_req_write_i, dut_->cp_req_addr_i,
                   dut_->cp_req_wdata_i, dut_->cp_rsp_valid_o, dut_->cp_rsp_rdata_o, dut_->cp_rsp_go_o}} {}

  Result run() {
    reset();
    gap_ = gap();
    r_.total_cycles = clock_loop(
        run_.max_cycles, [this] { return phase_ == Phase::Finished; },
        [this](std::uint64_t cycle) { return step(cycle); },
        [this](std::uint64_t cycle) {
          r_.status = "timeout";
          stopped(cycle, "the cycle limit");
        },
        r_.seconds);
    if (phase_ == Phase::Finished) {
      axi_.checker().finish(r_.total_cycles);
      if (!axi_.memory().idle())
        harness(r_.total_cycles, "after the STATUS read the memory still has bursts outstanding");
    }
    return r_;
  }

  [[nodiscard]] const AxiMasterPort<cfg::Dut>& axi() const { return axi_; }

 private:
  enum class Phase { Program, Running, Drain, ReadStatus, Finished };

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
      << int(dut_->busy_o) << ", " << axi_.memory().outstanding_reads() << " read and "
      << axi_.memory().outstanding_writes() << " write burst(s) outstanding at the memory, "
      << axi_.traffic().read_beats << " R and " << axi_.traffic().w_beats
      << " W beats so far, the last AXI handshake at cycle " << last_axi_;
    if (phase_ == Phase::Program) n << ", " << next_ << " of " << run_.writes.size() << " register writes sent";
    r_.notes.push_back(n.str());
    for (unsigned p = 0; p < 2; ++p)
      if (ports_[p].pending)
        r_.notes.push_back(std::string("the ") + kPortNames[p] + " port's request (offset " +
                           axi::hex(ports_[p].pending->addr) + ") has been shown since cycle " +
                           std::to_string(ports_[p].shown_since) + " without being taken");
  }

  void reset() {
    axi_.drive_idle(*dut_, rng_);
    for (auto& p : pins_) p.req_valid = 0;
    dut_.reset(4);
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
    const AxiSlaveSignals& s = axi_.drive(d, cycle, rng_);
    drive_ports();
    if (!dut_.fall()) {
      r_.status = "assertion";
      stopped(cycle, "an RTL assertion");
      return false;
    }

    // AXI: both sides to the checker, the handshakes to the memory.
    const bool moved = axi_.clock(d, cycle, s);
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
      dut_.rise();
      return false;
    }

    // The mover's outputs.
    if (d.done_o) {
      if (phase_ == Phase::Running) {
        r_.cycles = cycle - go_cycle_;
        r_.fault_o = d.fault_o;
        const AxiMemory& mem = axi_.memory();
        if (!mem.idle() || mem.outstanding_writes() || mem.outstanding_reads())
          harness(cycle, "done_o with " + std::to_string(mem.outstanding_reads()) + " read and " +
                             std::to_string(mem.outstanding_writes()) +
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

    dut_.rise();

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

  const Run& run_;
  ClockedDut<cfg::Dut> dut_;
  AxiMasterPort<cfg::Dut> axi_;
  std::mt19937_64 rng_;
  std::array<Pins, 2> pins_;
  std::array<PortState, 2> ports_{};
  Phase phase_ = Phase::Program;
  std::size_t next_ = 0, race_next_ = 0;
  unsigned gap_ = 0;
  unsigned go_port_ = 0;
  bool race_open_ = false, lost_ = false, done_twice_ = false, busy_early_ = false;
  std::uint64_t go_cycle_ = 0, done_cycle_ = 0, last_axi_ = 0, last_reg_ = 0;
  Result r_;
};

/// The result's own lines (mover_wire.h).
void write_lines(std::ostream& f, const Result& r, const Bench& b) {
  const AxiMemoryStats& st = b.axi().memory().stats();
  const AxiTraffic& t = b.axi().traffic();
  f << "status " << r.status << "\ncycles " << r.cycles << "\ntotal_cycles " << r.total_cycles << "\nfault " << r.fault
    << "\nfault_o " << r.fault_o << "\nbusy " << r.busy << "\nmoves_done " << r.moves_done << "\nstatus_read "
    << int(r.status_read) << "\nread_beats " << t.read_beats << "\nw_beats " << t.w_beats << "\nwrite_beats "
    << t.strobed_beats << "\ndata_beats " << std::max(t.read_beats, t.w_beats) << "\nread_bursts " << st.read_bursts
    << "\nwrite_bursts " << st.write_bursts << "\nlongest_burst " << t.longest_burst << "\nmax_reads_out "
    << st.max_outstanding_reads << "\nmax_writes_out " << st.max_outstanding_writes << "\nrace_writes " << r.race_writes
    << "\nrace_gos " << r.race_gos << "\nrace_gos_ignored " << r.race_gos_ignored << "\nseconds " << r.seconds << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  return harness_main(argc, argv, "mover_sim", kUsage, [](int c, char** v) {
    return run_bench<Bench>(c, v, wire::kResultMagic, read_run, write_lines);
  });
}
