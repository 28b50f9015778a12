// cu_system_sim: a system of compute units on the mesh (tpu_noc_cu_system)
// under Verilator, driven by a host over its standard input (the protocol:
// cu_system_wire.h). The harness decides nothing about the programs: it
// resets the system, runs the AXI4 master against the AXI4 memory model
// (tb/sim/axi/axi_memory.h) with every cycle watched by the protocol checker
// (axi_checker.h), carries the host's register accesses onto the
// orchestrator's AXI4-Lite slave through the AXI4-Lite host model
// (axi_lite.h, which checks the slave's side), lets the system run as the
// host says, and reports every flit the orchestrator takes from the mesh.
// It counts what the benchmarks need: the cycles each unit is busy, the flits
// each node injects, the first dispatch and the last retirement.
#include <verilated.h>

#include <array>
#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cu_system_config.h"
#include "sim/axi/axi_lite.h"
#include "sim/axi/axi_master_port.h"
#include "sim/cu/cu_system_wire.h"
#include "sim/harness/clocked_dut.h"
#include "sim/harness/harness_main.h"
#include "sim/harness/ports.h"
#include "sim/harness/run_bench.h"
#include "sim/harness/run_file.h"

namespace {

using namespace tpusim;
using namespace tpusim::sim;
namespace cfg = cu_system_config;
namespace wire = tpusim::cu_system_wire;

constexpr unsigned kFlitWords = (cfg::kFlitBits + 63) / 64;

const char* kUsage =
    "usage: cu_system_sim --run FILE --result FILE [--mem-out FILE] [--trace FILE.fst]\n"
    "  then commands on standard input (cu_system_wire.h): w OFFSET VALUE, r OFFSET, adv N, quit\n";

struct Run : AxiRun {
  Run() : AxiRun(20000) {}
  AxiLiteHostTiming host;
};

Run read_run(const std::string& path) {
  Run r;
  r.host.max_delay = 0;
  read_run_file(path, wire::kRunMagic, "a compute-unit system's run description", [&r](const RunLine& l) {
    if (r.take(l)) return;
    if (l.key == "host_delay")
      l.want(1), r.host.max_delay = static_cast<unsigned>(l.u(0));
    else if (l.key == "host_stall")
      l.want(1), r.host.ready_stall = l.prob(0);
    else
      throw l.unknown();
  });
  r.require_image(path);
  return r;
}

struct Result : RunOutcome {
  std::uint64_t cycles = 0;
  std::optional<std::uint64_t> first_inject;
  std::uint64_t last_rx = 0, rx_flits = 0;
};

std::string hex(std::uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

class Bench {
 public:
  Bench(const Run& run, const std::string& trace, VerilatedContext& ctx)
      : run_(run),
        dut_(ctx, trace),
        axi_(run, cfg::kDataBytes, cfg::kIdBits, cfg::kAddrBits, cfg::kMaxBurst),
        host_(run.host, run.seed * 7 + 3, "s_axil", cfg::kHostDataBytes),
        rng_(run.seed * 7 + 1) {}

  Result run() {
    reset();
    const auto t0 = std::chrono::steady_clock::now();
    std::string line;
    while (std::getline(std::cin, line)) {
      std::istringstream in(line);
      std::string cmd;
      in >> cmd;
      if (cmd.empty()) continue;
      if (cmd == "quit") break;
      if (stopped_) {
        answer("stop " + r_.status + " " + std::to_string(cycle_));
        continue;
      }
      std::string a, b;
      in >> a >> b;
      if (cmd == "w" && !b.empty()) {
        const auto t = host_.write(parse_u64("w", a), parse_u64("w", b));
        if (run_until([&] { return host_.done(t); })) answer("ok " + std::to_string(cycle_));
      } else if (cmd == "r" && !a.empty()) {
        const auto t = host_.read(parse_u64("r", a));
        if (run_until([&] { return host_.done(t); })) answer("v " + hex(host_.value(t)) + " " + std::to_string(cycle_));
      } else if (cmd == "adv" && !a.empty()) {
        const std::uint64_t until = cycle_ + parse_u64("adv", a);
        const std::uint64_t rx = r_.rx_flits;
        if (run_until([&] { return cycle_ >= until || r_.rx_flits != rx; })) answer("adv " + std::to_string(cycle_));
      } else {
        answer("error unknown command '" + line + "'");
      }
    }
    r_.cycles = cycle_;
    if (!stopped_) {
      r_.status = "done";
      axi_.checker().finish(cycle_);
      host_.finish(cycle_);
    }
    for (const auto& e : host_.errors()) harness(e.cycle, e.message);
    r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r_;
  }

  [[nodiscard]] const AxiMasterPort<cfg::Dut>& axi() const { return axi_; }
  [[nodiscard]] const std::array<std::uint64_t, cfg::kUnits>& busy() const { return busy_; }
  [[nodiscard]] const std::array<std::uint64_t, cfg::kNodes>& injected() const { return injected_; }

 private:
  void harness(std::uint64_t cycle, const std::string& what) {
    if (r_.harness.size() < 20) r_.harness.push_back(std::to_string(cycle) + " " + what);
  }

  /// The rx lines since the last answer, then the answer.
  void answer(const std::string& a) {
    std::cout << rx_lines_ << a << "\n" << std::flush;
    rx_lines_.clear();
  }

  /// Cycles until `done()`; false (answered `stop`) when the run stopped first.
  template <typename Done>
  bool run_until(Done&& done) {
    while (!done()) {
      if (cycle_ >= run_.max_cycles) {
        stop("timeout", "the cycle limit");
        return false;
      }
      if (!step()) return false;
    }
    return true;
  }

  void stop(const char* status, const std::string& why) {
    stopped_ = true;
    r_.status = status;
    const AxiMemory& mem = axi_.memory();
    std::ostringstream n;
    n << "stopped at cycle " << cycle_ << " (" << why << "): " << mem.outstanding_reads() << " read and "
      << mem.outstanding_writes() << " write burst(s) outstanding at the memory; units busy:";
    for (unsigned u = 0; u < cfg::kUnits; ++u) n << " " << get_bit(dut_->unit_busy_o, u);
    n << "; agent idle " << int(dut_->agent_idle_o) << ", mover busy " << int(dut_->mover_busy_o);
    r_.notes.push_back(n.str());
    answer(std::string("stop ") + status + " " + std::to_string(cycle_));
  }

  void reset() {
    axi_.drive_idle(*dut_, rng_);
    drive_host(host_.drive(0), true);
    dut_.reset(4);
  }

  void drive_host(const AxiLiteMasterSignals& h, bool idle = false) {
    cfg::Dut& d = *dut_;
    d.s_aw_valid_i = !idle && h.awvalid;
    d.s_aw_addr_i = static_cast<std::uint32_t>(h.awaddr & ((1ULL << cfg::kHostAddrBits) - 1));
    d.s_w_valid_i = !idle && h.wvalid;
    d.s_w_data_i = h.wdata;
    d.s_w_strb_i = h.wstrb;
    d.s_b_ready_i = h.bready;
    d.s_ar_valid_i = !idle && h.arvalid;
    d.s_ar_addr_i = static_cast<std::uint32_t>(h.araddr & ((1ULL << cfg::kHostAddrBits) - 1));
    d.s_r_ready_i = h.rready;
  }

  /// One cycle. False when the run stops here.
  bool step() {
    cfg::Dut& d = *dut_;
    const AxiLiteMasterSignals& h = host_.drive(cycle_);
    drive_host(h);
    const AxiSlaveSignals& s = axi_.drive(d, cycle_, rng_);
    if (!dut_.fall()) {
      stop("assertion", "an RTL assertion");
      return false;
    }
    (void)axi_.clock(d, cycle_, s);
    AxiLiteSlaveSignals ls;
    ls.awready = d.s_aw_ready_o;
    ls.wready = d.s_w_ready_o;
    ls.bvalid = d.s_b_valid_o;
    ls.bresp = d.s_b_resp_o;
    ls.arready = d.s_ar_ready_o;
    ls.rvalid = d.s_r_valid_o;
    ls.rdata = d.s_r_data_o;
    ls.rresp = d.s_r_resp_o;
    host_.clock(cycle_, ls);
    for (unsigned u = 0; u < cfg::kUnits; ++u) busy_[u] += get_bit(d.unit_busy_o, u);
    for (unsigned n = 0; n < cfg::kNodes; ++n)
      if (get_bit(d.node_inject_o, n)) {
        ++injected_[n];
        if (n == cfg::kOrchNode && !r_.first_inject) r_.first_inject = cycle_;
      }
    if (d.orch_rx_o) {
      std::ostringstream l;
      l << "rx " << cycle_;
      for (unsigned w = 0; w < kFlitWords; ++w)
        l << " " << hex(get_bits(d.orch_rx_flit_o, 64 * w, w + 1 == kFlitWords ? cfg::kFlitBits - 64 * w : 64));
      rx_lines_ += l.str() + "\n";
      ++r_.rx_flits;
      r_.last_rx = cycle_;
    }
    dut_.rise();
    ++cycle_;
    return true;
  }

  const Run& run_;
  ClockedDut<cfg::Dut> dut_;
  AxiMasterPort<cfg::Dut> axi_;
  AxiLiteHost host_;
  std::mt19937_64 rng_;
  std::uint64_t cycle_ = 0;
  bool stopped_ = false;
  std::string rx_lines_;
  std::array<std::uint64_t, cfg::kUnits> busy_{};
  std::array<std::uint64_t, cfg::kNodes> injected_{};
  Result r_;
};

void write_lines(std::ostream& f, const Result& r, const Bench& b) {
  f << "status " << r.status << "\ncycles " << r.cycles << "\nfirst_inject "
    << (r.first_inject ? std::to_string(*r.first_inject) : std::string("none")) << "\nlast_rx " << r.last_rx
    << "\nrx_flits " << r.rx_flits << "\n";
  for (unsigned u = 0; u < cfg::kUnits; ++u) f << "busy " << u << " " << b.busy()[u] << "\n";
  for (unsigned n = 0; n < cfg::kNodes; ++n) f << "injected " << n << " " << b.injected()[n] << "\n";
  const auto& st = b.axi().memory().stats();
  f << "read_bursts " << st.read_bursts << "\nwrite_bursts " << st.write_bursts << "\nlongest_burst "
    << b.axi().traffic().longest_burst << "\nmax_reads_out " << st.max_outstanding_reads << "\nmax_writes_out "
    << st.max_outstanding_writes << "\nseconds " << r.seconds << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  return harness_main(argc, argv, "cu_system_sim", kUsage, [](int c, char** v) {
    return run_bench<Bench>(c, v, wire::kResultMagic, read_run, write_lines);
  });
}
