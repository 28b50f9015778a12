/// @file axi_master_port.h
/// @brief A run-file harness's AXI4 side (agent_main.cpp, mover_main.cpp):
/// the run description's keys of the memory behind the DUT's master port and
/// of the run's randomness and limits (AxiRun), and that port under test
/// (AxiMasterPort): the image in the AXI4 memory model (axi_memory.h), every
/// cycle of the port watched by the protocol checker (axi_checker.h), the
/// memory's side driven onto the DUT (noise on R's and B's payloads while
/// their valid is low), the handshakes counted. The DUT's port names are
/// the system node's units' (ar_valid_o, ..., r_data_i, ...). Compiled by
/// Verilator's build only.
#pragma once

#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "sim/axi/axi_checker.h"
#include "sim/axi/axi_memory.h"
#include "sim/harness/ports.h"
#include "sim/harness/run_file.h"

namespace tpusim::sim {

/// What every run description of an AXI4 master holds (the keys image_base,
/// image, latency, ready_stall, valid_stall, max_reads, max_writes, slverr,
/// seed, max_cycles, watchdog): the image, the memory's timing, the injected
/// slave errors, the randomness and the limits.
struct AxiRun {
  /// `watchdog`: the harness's default.
  explicit AxiRun(std::uint64_t watchdog_cycles) : watchdog(watchdog_cycles) {}

  std::uint64_t image_base = 0;
  Bytes image;
  AxiMemoryTiming timing;
  std::vector<std::uint64_t> slverr;
  std::uint64_t seed = 1, max_cycles = 2000000, watchdog;

  /// Take `l` when its key is one of the above; false when it is not.
  bool take(const RunLine& l) {
    if (l.key == "image_base")
      l.want(1), image_base = l.u(0);
    else if (l.key == "image")
      l.want(1), image = read_bytes(l.values[0]);
    else if (l.key == "latency")
      l.want(1), timing.latency = static_cast<unsigned>(l.u(0));
    else if (l.key == "ready_stall")
      l.want(1), timing.ready_stall = l.prob(0);
    else if (l.key == "valid_stall")
      l.want(1), timing.valid_stall = l.prob(0);
    else if (l.key == "max_reads")
      l.want(1), timing.max_reads = std::max<std::size_t>(1, l.u(0));
    else if (l.key == "max_writes")
      l.want(1), timing.max_writes = std::max<std::size_t>(1, l.u(0));
    else if (l.key == "slverr")
      l.want(1), slverr.push_back(l.u(0));
    else if (l.key == "seed")
      l.want(1), seed = l.u(0);
    else if (l.key == "max_cycles")
      l.want(1), max_cycles = l.u(0);
    else if (l.key == "watchdog")
      l.want(1), watchdog = std::max<std::uint64_t>(1, l.u(0));
    else
      return false;
    return true;
  }

  /// After the last line of `path`: it must have named a non-empty image.
  void require_image(const std::string& path) const {
    if (image.empty()) throw Usage{"'" + path + "' names no image (or an empty one)"};
  }
};

/// The handshakes of the master port so far.
struct AxiTraffic {
  std::uint64_t read_beats = 0;     ///< R handshakes
  std::uint64_t w_beats = 0;        ///< W handshakes
  std::uint64_t strobed_beats = 0;  ///< W handshakes with any strobe set
  unsigned longest_burst = 0;       ///< beats of the longest AR or AW
};

/// The DUT's AXI4 master port against the memory model, with the checker.
template <typename Dut>
class AxiMasterPort {
 public:
  /// The memory region of the image (AxiMemory::region).
  static constexpr const char* kRegion = "image";

  /// The run's image mapped writable at its base, its slave errors injected;
  /// the checker for `id_bits`-bit IDs, `addr_bits`-bit addresses, aligned
  /// INCR bursts of up to `max_burst` beats.
  AxiMasterPort(const AxiRun& run, unsigned data_bytes, unsigned id_bits, unsigned addr_bits, unsigned max_burst)
      : data_bytes_(data_bytes),
        mem_(data_bytes, run.timing, run.seed * 7 + 2, "m_axi"),
        checker_(data_bytes, checker_config(id_bits, addr_bits, max_burst)),
        noise_(data_bytes, 0) {
    mem_.map(kRegion, run.image_base, run.image, true);
    for (const auto a : run.slverr) mem_.inject_slverr(a);
  }

  /// The memory idle (during reset), driven onto the DUT.
  void drive_idle(Dut& d, std::mt19937_64& rng) { drive_slave(d, AxiSlaveSignals{}, rng); }

  /// The memory's side of `cycle`, driven onto the DUT; valid until clock().
  const AxiSlaveSignals& drive(Dut& d, std::uint64_t cycle, std::mt19937_64& rng) {
    const AxiSlaveSignals& s = mem_.drive(cycle);
    drive_slave(d, s, rng);
    return s;
  }

  /// The DUT's side of `cycle` (evaluated on what drive() gave, `s`): both
  /// sides to the checker, the handshakes counted and committed to the
  /// memory. True when any handshake happened.
  bool clock(const Dut& d, std::uint64_t cycle, const AxiSlaveSignals& s) {
    AxiMasterSignals m;
    m.arvalid = d.ar_valid_o;
    m.ar = addr(d.ar_addr_o, d.ar_id_o, d.ar_len_o, d.ar_size_o, d.ar_burst_o);
    m.rready = d.r_ready_o;
    m.awvalid = d.aw_valid_o;
    m.aw = addr(d.aw_addr_o, d.aw_id_o, d.aw_len_o, d.aw_size_o, d.aw_burst_o);
    m.wvalid = d.w_valid_o;
    bool strobed = false;
    if (m.wvalid) {  // W's payload matters only while WVALID is high
      m.w.data = get_bytes(d.w_data_o, data_bytes_);
      m.w.strb.resize(data_bytes_);
      for (unsigned b = 0; b < data_bytes_; ++b) {
        m.w.strb[b] = static_cast<std::uint8_t>(get_bits(d.w_strb_o, b, 1));
        strobed = strobed || m.w.strb[b] != 0;
      }
    }
    m.w.last = d.w_last_o;
    m.bready = d.b_ready_o;
    bool moved = false;
    if (m.arvalid && s.arready) traffic_.longest_burst = std::max(traffic_.longest_burst, m.ar.len + 1), moved = true;
    if (m.awvalid && s.awready) traffic_.longest_burst = std::max(traffic_.longest_burst, m.aw.len + 1), moved = true;
    if (m.wvalid && s.wready) ++traffic_.w_beats, traffic_.strobed_beats += strobed, moved = true;
    if (s.rvalid && m.rready) ++traffic_.read_beats, moved = true;
    if (s.bvalid && m.bready) moved = true;
    checker_.check(cycle, m, s);
    mem_.clock(cycle, m);
    return moved;
  }

  [[nodiscard]] const AxiMemory& memory() const { return mem_; }
  [[nodiscard]] AxiChecker& checker() { return checker_; }
  [[nodiscard]] const AxiChecker& checker() const { return checker_; }
  [[nodiscard]] const AxiTraffic& traffic() const { return traffic_; }
  /// The image after the run.
  [[nodiscard]] const Bytes& image() const { return mem_.region(kRegion); }

  /// The result's lines of the memory's and the checker's errors: `axi TEXT`
  /// and `checker CYCLE TEXT`.
  void write_errors(std::ostream& f) const {
    for (const auto& e : mem_.errors()) f << "axi " << one_line(e.message) << "\n";
    for (const auto& e : checker_.errors()) f << "checker " << e.cycle << " " << one_line(e.message) << "\n";
  }

 private:
  static AxiCheckerConfig checker_config(unsigned id_bits, unsigned addr_bits, unsigned max_burst) {
    AxiCheckerConfig c;
    c.id_bits = id_bits;
    c.addr_bits = addr_bits;
    c.max_burst_beats = max_burst;
    c.require_aligned = true;
    c.incr_only = true;
    c.port = "m_axi";
    return c;
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

  void drive_slave(Dut& d, const AxiSlaveSignals& s, std::mt19937_64& rng) {
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
      for (auto& b : noise_) b = static_cast<std::uint8_t>(rng());
      set_bytes(d.r_data_i, noise_.data(), noise_.size());
      d.r_id_i = rng() & 1U;
      d.r_resp_i = rng() & 3U;
      d.r_last_i = rng() & 1U;
    }
    d.b_valid_i = s.bvalid;
    d.b_id_i = s.bvalid ? s.b.id : (rng() & 1U);
    d.b_resp_i = s.bvalid ? s.b.resp : (rng() & 3U);
  }

  unsigned data_bytes_;
  AxiMemory mem_;
  AxiChecker checker_;
  Bytes noise_;
  AxiTraffic traffic_;
};

}  // namespace tpusim::sim
