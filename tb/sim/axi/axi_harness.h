/// @file axi_harness.h
/// @brief tpu_sim's harness of tpu_axi_top: the AXI4 master against an AXI4
/// slave memory (axi_memory.h: latency, random ready/valid stalls, responses
/// reordered and interleaved across IDs), every cycle of it watched by the
/// protocol checker (axi_checker.h), and the control slave driven by an
/// AXI4-Lite host (axi_lite.h) as a Vitis host program would: write the base
/// addresses, enable the interrupt, set ap_start, wait for the interrupt,
/// clear ISR, read CTRL (ap_done), STATUS, FAULT and CYCLES.
///
/// The memory holds four regions at bus-aligned bases, each straddling a
/// 4 KB page boundary (so the core's bursts meet one), above 4 GB (so the
/// high address words matter): the program image, padded to IMEM_SIZE words;
/// A and B, each followed by a read-only page of zeros (an operand burst may
/// read past a matrix, as the core's own port model allows); C, writable. An
/// access outside them is a DECERR and an error of the run.
///
/// Compiled by Verilator's build only (tb/sim/harness/sim_main.cpp).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "sim/axi/axi_checker.h"
#include "sim/axi/axi_lite.h"
#include "sim/axi/axi_memory.h"
#include "sim/harness/sim_common.h"
#include "sim/harness/sim_top.h"

namespace tpusim::sim {

template <typename Top>
class AxiHarness : public HarnessBase<AxiHarness<Top>, Top> {
  using M = sim_config::MasterPins;
  using L = sim_config::ControlPins;
  using Base = HarnessBase<AxiHarness<Top>, Top>;
  friend Base;
  using Base::half;
  using Base::noise;
  using Base::top_;

 public:
  AxiHarness(const Options& o, VerilatedContext& ctx)
      : Base(
            o, ctx, [](Top& t) -> CData& { return t.ap_clk; }, [](Top& t) -> CData& { return t.ap_rst_n; }),
        mem_(sim_config::kAxiDataBytes, memory_timing(o), o.seed * 5 + 1, "m_axi"),
        checker_(sim_config::kAxiDataBytes, checker_config()),
        host_(host_timing(o), o.seed * 5 + 2, "s_axi_control"),
        rng_(o.seed * 5 + 3) {
    place_regions(o);
  }

  AxiHarness(const AxiHarness&) = delete;
  AxiHarness& operator=(const AxiHarness&) = delete;

  // run() (HarnessBase): reset, then opt_.runs runs, each started by the
  // host as soon as it has read the previous run's status.

  [[nodiscard]] bool has_errors() const {
    return !checker_.errors().empty() || !mem_.errors().empty() || !host_.errors().empty() || !own_errors_.empty();
  }
  [[nodiscard]] std::vector<tpusim::ProtocolError> errors() const {
    std::vector<tpusim::ProtocolError> all = own_errors_;
    all.insert(all.end(), checker_.errors().begin(), checker_.errors().end());
    for (const auto& e : mem_.errors()) all.push_back({e.cycle, "m_axi", e.message});
    all.insert(all.end(), host_.errors().begin(), host_.errors().end());
    return all;
  }
  /// C after the run, and the bytes written to it (the strobed bytes of W beats).
  [[nodiscard]] const tpusim::Bytes& c() const { return mem_.region("C"); }
  [[nodiscard]] std::uint64_t bytes_written() const { return c_bytes_written_; }
  void ports_json(std::ostream& j) const {
    const auto& s = mem_.stats();
    const auto& h = host_.stats();
    j << "    \"m_axi\": {\"read_bursts\": " << s.read_bursts << ", \"read_beats\": " << s.read_beats
      << ", \"write_bursts\": " << s.write_bursts << ", \"write_beats\": " << s.write_beats
      << ", \"max_outstanding_reads\": " << s.max_outstanding_reads
      << ", \"max_outstanding_writes\": " << s.max_outstanding_writes << ", \"read_reorders\": " << s.read_reorders
      << ", \"interleaves\": " << s.interleaves << ", \"longest_burst\": " << longest_burst_
      << ", \"bursts_at_4k\": " << bursts_to_4k_ << "},\n";
    j << "    \"s_axi_control\": {\"writes\": " << h.writes << ", \"reads\": " << h.reads
      << ", \"interrupts\": " << interrupts_ << "}\n";
  }

 private:
  // Where the regions go: above 4 GB, each in its own 1 MB window.
  static constexpr std::uint64_t kWindow = std::uint64_t{1} << 20;
  static constexpr std::uint64_t kFirstWindow = std::uint64_t{1} << 32;

  struct Region {
    const char* name;
    sim_config::Field lo, hi;
    std::uint64_t base = 0;
  };

  static tpusim::AxiMemoryTiming memory_timing(const Options& o) {
    tpusim::AxiMemoryTiming t;
    t.latency = o.latency;
    t.ready_stall = o.backpressure;
    t.valid_stall = o.backpressure;
    t.reorder = true;
    t.interleave = true;
    return t;
  }
  static tpusim::AxiCheckerConfig checker_config() {
    tpusim::AxiCheckerConfig c;
    c.id_bits = sim_config::kAxiIdBits;
    c.addr_bits = sim_config::kAxiAddrBits;
    c.max_burst_beats = sim_config::kAxiMaxBurst;
    c.port = "m_axi";
    return c;
  }
  static tpusim::AxiLiteHostTiming host_timing(const Options& o) {
    tpusim::AxiLiteHostTiming t;
    t.max_delay = o.backpressure > 0.0 ? 4 : 1;
    t.ready_stall = o.backpressure;
    return t;
  }

  /// Each region in its own window above 4 GB, placed so that a 4 KB page
  /// boundary falls a random number of bus beats into it: bursts over the
  /// region must split there.
  void place_regions(const Options& o) {
    const std::uint64_t beat = sim_config::kAxiDataBytes;
    const std::uint64_t sizes[4] = {std::uint64_t{sim_config::kImemSize} * 8, sim_config::kMatrixBytes,
                                    sim_config::kMatrixBytes, sim_config::kMatrixBytes};
    std::uint64_t window = kFirstWindow;
    for (std::size_t i = 0; i < std::size(regions_); ++i) {
      const std::uint64_t most = std::max<std::uint64_t>(1, std::min(sizes[i] / beat, 4096 / beat - 1));
      const std::uint64_t k = std::uniform_int_distribution<std::uint64_t>(1, most)(rng_);
      regions_[i].base = window + 2 * 4096 - k * beat;
      window += kWindow;
    }
    // The image, padded with zero words to IMEM_SIZE.
    const auto words = read_hex_image(o.image);
    tpusim::Bytes image(std::size_t{sim_config::kImemSize} * 8, 0);
    for (std::size_t w = 0; w < words.size(); ++w)
      for (unsigned b = 0; b < 8; ++b) image[w * 8 + b] = static_cast<std::uint8_t>(words[w] >> (8 * b));
    mem_.map("imem", regions_[0].base, std::move(image), false);
    mem_.map("A", regions_[1].base, read_matrix(o.a), false);
    mem_.map("A_pad", regions_[1].base + sim_config::kMatrixBytes, std::size_t{4096}, false);
    mem_.map("B", regions_[2].base, read_matrix(o.b), false);
    mem_.map("B_pad", regions_[2].base + sim_config::kMatrixBytes, std::size_t{4096}, false);
    mem_.map("C", regions_[3].base, read_matrix(o.c), true);
  }

  /// The inputs during reset: the memory and the host idle.
  void drive_idle() {
    drive_slave(mem_idle_);
    drive_host(host_idle_);
  }

  /// After the last run, if it reached done: nothing may be left pending.
  void finish_runs(std::uint64_t cycle, Outcome& out) {
    checker_.finish(cycle);
    host_.finish(cycle);
    if (has_errors()) out.status = "protocol_error";
  }

  /// The host program of one run, then the run: its cycles count from the
  /// ap_start write to the host's last status read after the interrupt.
  Outcome run_once(std::uint64_t& cycle, bool first) {
    Outcome out;
    const std::uint64_t begin = cycle;
    if (first) {
      for (const auto& r : regions_) {
        host_.write(r.lo.offset, static_cast<std::uint32_t>(r.base));
        host_.write(r.hi.offset, static_cast<std::uint32_t>(r.base >> 32));
      }
      host_.write(sim_config::reg::gie.offset, bit(sim_config::reg::gie));
      host_.write(sim_config::reg::ier_done.offset, bit(sim_config::reg::ier_done) | bit(sim_config::reg::ier_ready));
    }
    host_.write(sim_config::reg::ap_start.offset, bit(sim_config::reg::ap_start));
    enum class Phase { Starting, Running, Clearing, Reading } phase = Phase::Starting;
    tpusim::AxiLiteHost::Ticket isr = 0, ctrl = 0, status = 0, fault = 0, cycles = 0;
    std::uint64_t started = begin;
    const bool ended = this->clock_run(
        cycle, begin, out, [&](std::uint64_t c) { step(c); }, [](std::uint64_t) { return false; },
        [&](std::uint64_t c) {
          if (phase == Phase::Starting && host_.idle()) {
            phase = Phase::Running;
            started = c;  // the run counts from ap_start, not the register set-up before it
          }
          if (phase == Phase::Running && M::interrupt(*top_)) {
            ++interrupts_;
            isr = host_.read(sim_config::reg::isr_done.offset);
            phase = Phase::Clearing;
          } else if (phase == Phase::Clearing && host_.done(isr)) {
            const auto v = static_cast<std::uint32_t>(host_.value(isr));
            host_.write(sim_config::reg::isr_done.offset, v);  // toggle-on-write: clears what was read
            if (field(v, sim_config::reg::isr_done)) {
              ctrl = host_.read(sim_config::reg::ap_done.offset);
              status = host_.read(sim_config::reg::fault.offset);
              fault = host_.read(sim_config::reg::fault_pc.offset);
              cycles = host_.read(sim_config::reg::cycles.offset);
              phase = Phase::Reading;
            } else {
              phase = Phase::Running;  // ap_ready: the start was taken; wait for ap_done
            }
          } else if (phase == Phase::Reading && host_.idle()) {
            return true;
          }
          return false;
        });
    out.cycles = cycle + 1 - started;
    ++cycle;
    if (!ended) return out;
    const auto c = static_cast<std::uint32_t>(host_.value(ctrl)), st = static_cast<std::uint32_t>(host_.value(status)),
               f = static_cast<std::uint32_t>(host_.value(fault));
    if (!field(c, sim_config::reg::ap_done) || !field(c, sim_config::reg::ap_idle))
      control_error(cycle, "after the interrupt CTRL reads " + axi::hex(c) + ": ap_done and ap_idle should be set");
    if (M::interrupt(*top_))
      control_error(cycle, "the interrupt is still high after ISR was cleared");
    out.dut_cycles = host_.value(cycles);
    out.fault = static_cast<unsigned>(field(st, sim_config::reg::fault));
    out.fault_pc = static_cast<unsigned>(field(f, sim_config::reg::fault_pc));
    out.fault_unit = static_cast<unsigned>(field(f, sim_config::reg::fault_unit));
    if (field(st, sim_config::reg::base_error) || field(st, sim_config::reg::rresp_error) ||
        field(st, sim_config::reg::bresp_error))
      control_error(cycle, "STATUS reads " + axi::hex(st) + ": a base or response error");
    if (out.fault != 0) out.status = "fault";
    else if (field(st, sim_config::reg::done)) out.status = "done";
    else control_error(cycle, "STATUS reads " + axi::hex(st) + ": neither done nor a fault");
    if (has_errors()) out.status = "protocol_error";
    return out;
  }

  /// One clock cycle: memory and host drive, the top settles, the checker
  /// sees both sides, the handshakes are committed, the clock rises.
  void step(std::uint64_t cycle) {
    const tpusim::AxiSlaveSignals& s = mem_.drive(cycle);
    drive_slave(s);
    drive_host(host_.drive(cycle));
    half(false);

    tpusim::AxiMasterSignals m;
    Top& d = *top_;
    m.arvalid = M::ARVALID(d);
    m.ar = addr(M::ARADDR(d), M::ARID(d), M::ARLEN(d), M::ARSIZE(d), M::ARBURST(d), M::ARCACHE(d), M::ARPROT(d),
                M::ARLOCK(d));
    m.rready = M::RREADY(d);
    m.awvalid = M::AWVALID(d);
    m.aw = addr(M::AWADDR(d), M::AWID(d), M::AWLEN(d), M::AWSIZE(d), M::AWBURST(d), M::AWCACHE(d), M::AWPROT(d),
                M::AWLOCK(d));
    m.wvalid = M::WVALID(d);
    m.w.data = get_bytes(M::WDATA(d), sim_config::kAxiDataBytes);
    m.w.strb.resize(sim_config::kAxiDataBytes);
    for (unsigned b = 0; b < sim_config::kAxiDataBytes; ++b)
      m.w.strb[b] = static_cast<std::uint8_t>(get_bits(M::WSTRB(d), b, 1));
    m.w.last = M::WLAST(d);
    m.bready = M::BREADY(d);
    if (m.arvalid && s.arready) {
      if (m.ar.len + 1 > longest_burst_) longest_burst_ = m.ar.len + 1;
      if (ends_at_page(m.ar)) ++bursts_to_4k_;
    }
    if (m.awvalid && s.awready && ends_at_page(m.aw)) ++bursts_to_4k_;
    if (m.wvalid && s.wready)
      for (const auto b : m.w.strb) c_bytes_written_ += b;
    checker_.check(cycle, m, s);
    mem_.clock(cycle, m);

    tpusim::AxiLiteSlaveSignals ls;
    ls.awready = L::AWREADY(d);
    ls.wready = L::WREADY(d);
    ls.bvalid = L::BVALID(d);
    ls.bresp = L::BRESP(d);
    ls.arready = L::ARREADY(d);
    ls.rvalid = L::RVALID(d);
    ls.rdata = L::RDATA(d);
    ls.rresp = L::RRESP(d);
    host_.clock(cycle, ls);
    half(true);
  }

  void drive_slave(const tpusim::AxiSlaveSignals& s) {
    Top& d = *top_;
    M::ARREADY(d) = s.arready;
    M::AWREADY(d) = s.awready;
    M::WREADY(d) = s.wready;
    M::RVALID(d) = s.rvalid;
    M::RID(d) = s.r.id;
    M::RRESP(d) = s.r.resp;
    M::RLAST(d) = s.r.last;
    const auto& data = s.rvalid ? s.r.data : noise(r_noise_, sim_config::kAxiDataBytes);
    set_bytes(M::RDATA(d), data.data(), data.size());
    M::BVALID(d) = s.bvalid;
    M::BID(d) = s.b.id;
    M::BRESP(d) = s.b.resp;
  }

  void drive_host(const tpusim::AxiLiteMasterSignals& h) {
    Top& d = *top_;
    L::AWVALID(d) = h.awvalid;
    L::AWADDR(d) = static_cast<std::uint32_t>(h.awaddr);
    L::WVALID(d) = h.wvalid;
    L::WDATA(d) = static_cast<std::uint32_t>(h.wdata);
    L::WSTRB(d) = h.wstrb;
    L::BREADY(d) = h.bready;
    L::ARVALID(d) = h.arvalid;
    L::ARADDR(d) = static_cast<std::uint32_t>(h.araddr);
    L::RREADY(d) = h.rready;
  }

  template <typename A, typename I, typename N, typename S, typename B, typename C, typename P, typename K>
  static tpusim::AxiAddr addr(A a, I id, N len, S size, B burst, C cache, P prot, K lock) {
    tpusim::AxiAddr x;
    x.addr = static_cast<std::uint64_t>(a);
    x.id = static_cast<unsigned>(id);
    x.len = static_cast<unsigned>(len);
    x.size = static_cast<unsigned>(size);
    x.burst = static_cast<unsigned>(burst);
    x.cache = static_cast<unsigned>(cache);
    x.prot = static_cast<unsigned>(prot);
    x.lock = static_cast<unsigned>(lock);
    return x;
  }

  /// The burst's last byte is the last of a 4 KB page.
  static bool ends_at_page(const tpusim::AxiAddr& a) {
    const std::uint64_t end = a.addr + (std::uint64_t{a.len} + 1) * (std::uint64_t{1} << a.size);
    return end % 4096 == 0;
  }

  /// A wrong answer of the control slave, seen by the host program.
  void control_error(std::uint64_t cycle, std::string message) {
    own_errors_.push_back({cycle, "s_axi_control", std::move(message)});
  }

  static std::uint32_t bit(const sim_config::Field& f) { return std::uint32_t{1} << f.lsb; }
  static std::uint64_t field(std::uint32_t v, const sim_config::Field& f) {
    return (v >> f.lsb) & ((std::uint64_t{1} << f.width) - 1);
  }
  tpusim::AxiMemory mem_;
  tpusim::AxiChecker checker_;
  tpusim::AxiLiteHost host_;
  std::mt19937_64 rng_;
  tpusim::Bytes r_noise_;
  Region regions_[4] = {{"imem", sim_config::reg::imem_base_lo, sim_config::reg::imem_base_hi},
                        {"A", sim_config::reg::a_base_lo, sim_config::reg::a_base_hi},
                        {"B", sim_config::reg::b_base_lo, sim_config::reg::b_base_hi},
                        {"C", sim_config::reg::c_base_lo, sim_config::reg::c_base_hi}};
  const tpusim::AxiSlaveSignals mem_idle_{};
  const tpusim::AxiLiteMasterSignals host_idle_{};
  std::vector<tpusim::ProtocolError> own_errors_;
  std::uint64_t c_bytes_written_ = 0;
  unsigned longest_burst_ = 0;
  std::uint64_t bursts_to_4k_ = 0;
  std::uint64_t interrupts_ = 0;
};

}  // namespace tpusim::sim
