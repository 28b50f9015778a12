/// @file core_harness.h
/// @brief tpu_sim's harness of tpu_top: the core's own valid/ready memory
/// ports driven by the models of memory_models.h (imem, the operand read
/// port, the C write port), with latency, backpressure and protocol checks.
/// Compiled by Verilator's build only (tb/sim/harness/sim_main.cpp).
#pragma once

#include <verilated.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "sim/harness/memory_models.h"
#include "sim/harness/sim_common.h"
#include "sim/harness/sim_top.h"

namespace tpusim::sim {

template <typename Top>
class CoreHarness : public HarnessBase<CoreHarness<Top>, Top> {
  using Base = HarnessBase<CoreHarness<Top>, Top>;
  friend Base;
  using Base::half;
  using Base::noise;
  using Base::top_;

 public:
  CoreHarness(const Options& o, VerilatedContext& ctx)
      : Base(
            o, ctx, [](Top& t) -> CData& { return t.clk_i; }, [](Top& t) -> CData& { return t.rst_ni; }),
        imem_(read_hex_image(o.image), sim_config::kImemBeat, sim_config::kImemSize, timing(o), o.seed * 3 + 1),
        rd_(read_matrix(o.a), read_matrix(o.b), sim_config::kReadBeatBytes, timing(o), o.seed * 3 + 2),
        wr_(read_matrix(o.c), sim_config::kWriteBeatBytes, timing(o), o.seed * 3 + 3) {}

  // run() (HarnessBase): reset, then opt_.runs runs back to back, each start
  // in the cycle after the previous done_o.

  /// One run from a start pulse in `cycle`; `cycle` advances past its end.
  Outcome run_once(std::uint64_t& cycle, bool /*first run*/ = true) {
    Outcome out;
    const std::uint64_t first = cycle;
    this->clock_run(
        cycle, first, out, [&](std::uint64_t c) { step(c, c == first); },
        [&](std::uint64_t c) {
          if (top_->done_o) {
            out.status = "done";
            check_drained(c);
            return true;
          }
          if (top_->fault_o != 0) {
            out.status = "fault";
            return true;
          }
          return false;
        },
        [](std::uint64_t) { return false; });
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
  /// C after the run, and the bytes the core wrote to it.
  [[nodiscard]] const tpusim::Bytes& c() const { return wr_.c(); }
  [[nodiscard]] std::uint64_t bytes_written() const { return wr_.bytes_written(); }
  /// The "ports" object of the JSON report: each memory port's counters.
  void ports_json(std::ostream& j) const {
    port_json(j, imem_, false);
    port_json(j, rd_, false);
    port_json(j, wr_, true);
  }

 private:
  template <typename P>
  static void port_json(std::ostream& j, const P& port, bool last) {
    const auto& s = port.stats();
    j << "    \"" << port.name() << "\": {\"requests\": " << s.requests << ", \"responses\": " << s.responses
      << ", \"req_stall_cycles\": " << s.req_stall_cycles << ", \"rsp_stall_cycles\": " << s.rsp_stall_cycles
      << ", \"max_outstanding\": " << s.max_outstanding << "}" << (last ? "\n" : ",\n");
  }

  static tpusim::PortTiming timing(const Options& o) {
    tpusim::PortTiming t;
    t.latency = o.latency;
    t.backpressure = o.backpressure;
    return t;
  }

  /// The inputs during reset: no start, nothing ready or valid, noise on the data.
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

  tpusim::ImemModel imem_;
  tpusim::OperandReadModel rd_;
  tpusim::CWriteModel wr_;
  tpusim::Bytes imem_noise_, rd_noise_;
};

}  // namespace tpusim::sim
