// The compute units' reference models (tb/model/cu): one GEMM split over
// TinyTPU units on the mesh gives clip(A @ B) bit for bit and leaves every
// other byte of memory as it was; the retirement contract (each instruction
// once, each credit back, a faulting last instruction ends the batch, an
// unknown opcode faults, a program without `last` never completes, more
// credits than inst_depth overflow instead of hanging); CU_CTRL through the
// orchestrator; the multicast reads an operand once for its sharers.
#include <catch2/catch.hpp>
#include <random>

#include "cu_test_support.h"
#include "model/core/operands.h"
#include "model/cu/cu_program.h"

using namespace tpugen;
using namespace tpugen::cu;

namespace {

const noc::Codec& codec() { return test::shipped_codec(); }

/// A system of `k` units on an nx x ny mesh over `mem`, at the core's `isa`.
struct Rig {
  Rig(const Isa& isa, int nx, int ny, int k, std::vector<std::uint8_t> bytes,
      const std::map<std::string, std::string>& cu_params = {})
      : isa_(&isa),
        mem(0, std::move(bytes)),
        specs(test::shipped_system_specs(isa, cu_params, {{"CHANNELS", std::to_string(std::max(k, 1))}})) {
    system = std::make_unique<SystemModel>(specs, noc::make_layout(nx, ny, k, {}, 1), mem);
    port = model_port(*system);
  }
  std::vector<DispatchEnd> dispatch(const std::vector<std::vector<noc::Flit>>& programs,
                                    const std::vector<noc::Coord>& nodes, int credits) {
    const auto& o = test::shipped_compute_units_spec().orchestrator;
    return host_dispatch(o, codec(), port, programs, nodes, credits, static_cast<int>(specs.orchestrator["PROG_FLITS"]),
                         static_cast<int>(specs.orchestrator["CHANNELS"]));
  }
  /// The retirement flits that reached the orchestrator from `node`: (code, arg).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> signals(noc::Coord node) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto& f : system->to_orchestrator())
      if (codec().header(f).src() == node)
        out.emplace_back(codec().get(f, "cu_signal.code"), codec().get(f, "cu_signal.arg"));
    return out;
  }
  const Isa* isa_;
  mover::MoverMemory mem;
  SystemSpecs specs;
  std::unique_ptr<SystemModel> system;
  HostPort port;
};

std::uint32_t sig(const char* name) { return test::shipped_noc_spec().require_signal(name).code; }

const UnitSpec& tinytpu() { return test::shipped_compute_units_spec().require_unit("tinytpu"); }

std::uint32_t fault_code(const char* name) { return tinytpu().require_fault(name).code << 24; }

}  // namespace

TEST_CASE("cu model: 128x64x128 on four units gives clip(A @ B) and leaves the rest of memory alone", "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 64}});
  std::mt19937_64 rng(7);
  const GemmShape shape{128, 64, 128};
  const Int8Matrix a = random_matrix(shape.m, shape.k, OperandDist::Full, rng);
  const Int8Matrix b = random_matrix(shape.k, shape.n, OperandDist::Full, rng);
  // 4 units + the agent's port + the orchestrator on a 3 x 2 mesh.
  const noc::SystemLayout layout = noc::make_layout(3, 2, 4, {}, 1);
  const GemmPlan plan = plan_gemm(isa, test::shipped_compute_units_spec(), codec(), layout, shape, 0x1000);
  REQUIRE(plan.blocks.size() == 4);
  const std::vector<std::uint8_t> before = gemm_memory(plan, a, b, 0x5A);
  Rig rig(isa, 3, 2, 4, before);
  const auto ends = rig.dispatch(plan.programs, layout.cores, 8);
  for (const auto& e : ends) CHECK(e.state == "DONE");
  const std::vector<std::uint8_t>& after = rig.mem.bytes();
  const Int8Matrix c = gemm_c(plan, after);
  CHECK(c.data == reference_gemm(a, b, false).data);
  // Every byte outside C's 128 x 128 is as it was (C's row padding and guards included).
  std::size_t changed_outside = 0;
  for (std::uint64_t i = 0; i < before.size(); ++i) {
    const bool in_c = i >= plan.c_addr && i < plan.c_addr + 128u * plan.c_stride * 32 &&
                      (i - plan.c_addr) % (plan.c_stride * 32u) < 128;
    if (!in_c && after[i] != before[i]) ++changed_outside;
  }
  CHECK(changed_outside == 0);
  // Multicast: A's two block rows and B's two block columns each read once:
  // 4 x 64 rows of 2 words from the agent, not 8 x 64.
  std::uint64_t words_read = 0;
  for (int i = 0; i < 4; ++i) words_read += rig.system->unit(i).stats().words_read;
  CHECK(words_read == 8u * 64u * 2u + 4u * ((plan.image_words.begin()->second.size() + 3) / 4));
  int requests_for_operands = 0;
  for (int i = 0; i < 4; ++i) requests_for_operands += static_cast<int>(rig.system->unit(i).stats().requests);
  CHECK(requests_for_operands < 4 * 2 * 64 + 4 * 8);  // streams, not a request a row
}

TEST_CASE("cu model: the block's result equals the standalone core's on the same block", "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 32}});
  std::mt19937_64 rng(3);
  const GemmShape shape{32, 32, 32};
  const Int8Matrix a = random_matrix(32, 32, OperandDist::Corner, rng),
                   b = random_matrix(32, 32, OperandDist::Corner, rng);
  const noc::SystemLayout layout = noc::make_layout(2, 2, 1, {}, 1);
  const GemmPlan plan = plan_gemm(isa, test::shipped_compute_units_spec(), codec(), layout, shape);
  Rig rig(isa, 2, 2, 1, gemm_memory(plan, a, b, 0));
  const auto ends = rig.dispatch(plan.programs, layout.cores, 2);
  REQUIRE(ends.size() == 1);
  CHECK(ends[0].state == "DONE");
  GemmJob job{shape, {}, a, b, Int8Matrix{32, 32, std::vector<std::int8_t>(32 * 32, 0)}};
  CHECK(gemm_c(plan, rig.mem.bytes()).data == run_gemm_model(isa, job).c.data);
  // LOAD then RUN: INST_COMPLETE with the words loaded, BATCH_COMPLETE with the txn.
  const auto s = rig.signals(layout.cores[0]);
  REQUIRE(s.size() == 2);
  CHECK(s[0] ==
        std::make_pair(sig("SIG_INST_COMPLETE"), static_cast<std::uint32_t>(plan.image_words.begin()->second.size())));
  CHECK(s[1] == std::make_pair(sig("SIG_BATCH_COMPLETE"), 0u));
}

TEST_CASE("cu model: unknown opcodes and bad fields fault, a faulting last instruction ends the batch", "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 32}});
  Rig rig(isa, 2, 2, 1, std::vector<std::uint8_t>(4096, 0));
  const noc::Coord node = rig.system->layout().cores[0];
  std::vector<noc::Flit> prog;
  noc::Flit zero;  // opcode 0: reserved
  codec().set_header(zero, noc::Header::between({0, 0}, {0, 0}, codec().type_code("CU_INST"), 9, 0));
  prog.push_back(zero);
  prog.push_back(cu_inst(tinytpu(), codec(), "LOAD", {{"addr", 0x21}}, 9, false));    // misaligned
  prog.push_back(cu_inst(tinytpu(), codec(), "STATUS", {{"select", 15}}, 9, false));  // no such counter
  prog.push_back(cu_inst(tinytpu(), codec(), "STATUS", {{"select", 1}}, 9, false));   // the last fault
  noc::Flit unknown = cu_inst(tinytpu(), codec(), "STATUS", {}, 9, true);
  unknown.set_bits(tinytpu().opcode_lsb, tinytpu().opcode_width(), 0xE);  // reserved, and last
  prog.push_back(unknown);
  const auto ends = rig.dispatch({prog}, {node}, 2);
  CHECK(ends[0].state == "FAULT");
  CHECK(ends[0].retired == 5);
  CHECK(ends[0].credits == 2);  // every credit back
  const auto s = rig.signals(node);
  REQUIRE(s.size() == 5);
  CHECK(s[0] == std::make_pair(sig("SIG_FAULT"), fault_code("UNKNOWN_OPCODE")));
  CHECK(s[1] == std::make_pair(sig("SIG_FAULT"), fault_code("MISALIGNED")));
  CHECK(s[2].first == sig("SIG_FAULT"));
  CHECK(s[2].second >> 24 == (fault_code("GEOMETRY") >> 24));
  CHECK(s[3] == std::make_pair(sig("SIG_INST_COMPLETE"), s[2].second));
  CHECK(s[4] == std::make_pair(sig("SIG_FAULT"), fault_code("UNKNOWN_OPCODE") | 0xE));
}

TEST_CASE("cu model: a program without last ends ENDED, never DONE, and over-credit retires every instruction once",
          "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 32}});
  Rig rig(isa, 2, 2, 1, std::vector<std::uint8_t>(4096, 0), {{"INST_DEPTH", "2"}});
  const noc::Coord node = rig.system->layout().cores[0];
  std::vector<noc::Flit> prog;
  for (int i = 0; i < 3; ++i) prog.push_back(cu_inst(tinytpu(), codec(), "STATUS", {{"select", 0}}, 4, false));
  const auto ends = rig.dispatch({prog}, {node}, 3);
  CHECK(ends[0].state == "ENDED");
  CHECK(ends[0].retired == 3);
  // The model runs each instruction as it arrives, so three credits on a
  // depth of two overflow only when instructions pile up: every one retires once.
  CHECK(rig.system->wrapper(0).counters().retired == 3);
}

TEST_CASE("cu model: CU_CTRL CAPS through the orchestrator names the unit", "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 32}});
  Rig rig(isa, 2, 2, 1, std::vector<std::uint8_t>(64, 0), {{"INST_DEPTH", "5"}});
  const auto& o = test::shipped_compute_units_spec().orchestrator;
  const noc::Coord node = rig.system->layout().cores[0];
  const CuRegister& req = o.require_register("CTRL_REQ");
  std::uint64_t v = req.require_field("x").with(0, static_cast<std::uint64_t>(node.x));
  v = req.require_field("y").with(v, static_cast<std::uint64_t>(node.y));
  v = req.require_field("index").with(v, 0);
  rig.port.write(req.offset, v);
  rig.system->run();
  CHECK(o.require_register("CTRL_STAT")
            .require_field("valid")
            .get(rig.port.read(o.require_register("CTRL_STAT").offset)) == 1);
  const std::uint64_t caps = rig.port.read(o.require_register("CTRL_VALUE").offset);
  CHECK((caps >> 48) == tinytpu().type);
  CHECK(((caps >> 20) & 0xFFFF) == 5);
  CHECK(((caps >> 36) & 0xF) == tinytpu().buffers.size());
}

TEST_CASE("cu model: the layout refuses what cannot be placed", "[cu][model]") {
  CHECK_THROWS_WITH(noc::make_layout(2, 2, 3, {}, 1), Catch::Contains("holds at most 2 units"));
  CHECK_THROWS_WITH(noc::make_layout(2, 2, 1, {{2, 0}}, 1), Catch::Contains("outside the 2 x 2 mesh"));
  CHECK_THROWS_WITH(noc::make_layout(3, 3, 2, {{1, 1}, {1, 1}}, 1), Catch::Contains("named twice"));
  const noc::SystemLayout l = noc::make_layout(3, 3, 1, {{1, 1}}, 2);
  CHECK(l.agents.size() == 2);
  CHECK(l.core_index({1, 1}) == 0);
  CHECK(l.orchestrator != l.agents[0]);
  // Two units each as near to both ports: one to each, not both to the first.
  const noc::SystemLayout two = noc::make_layout(3, 2, 2, {{1, 0}, {1, 1}}, 2);
  CHECK(two.core_agent == std::vector<int>{0, 1});
}

TEST_CASE("cu model: a GEMM over 2 x 2 blocks has each operand read once, by four different units", "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 8}, {"MAXDIM", 64}});
  const noc::SystemLayout layout = noc::make_layout(3, 3, 4, {}, 1);
  const GemmPlan plan = plan_gemm(isa, test::shipped_compute_units_spec(), codec(), layout, {128, 64, 128});
  REQUIRE(plan.blocks.size() == 4);
  std::vector<int> reads(4, 0);
  int a_reads = 0, b_reads = 0;
  for (const auto& b : plan.blocks) {
    reads[static_cast<std::size_t>(b.core)] += (b.a_recv ? 0 : 1) + (b.b_recv ? 0 : 1);
    a_reads += b.a_recv ? 0 : 1;
    b_reads += b.b_recv ? 0 : 1;
  }
  CHECK(a_reads == 2);  // one for each block row of A
  CHECK(b_reads == 2);  // one for each block column of B
  CHECK(reads == std::vector<int>{1, 1, 1, 1});
  // Between choices as even, A's readers are the units dispatched first:
  // units 0 and 1 share A's first block row, 2 and 3 its second, so 1 and 2
  // (not 0 and 3, whose RUN starts last).
  std::vector<int> a_readers;
  for (const auto& b : plan.blocks)
    if (!b.a_recv) a_readers.push_back(b.core);
  CHECK(a_readers == std::vector<int>{1, 2});
}

TEST_CASE("cu model: a RUN waiting for a peer's rows that never come faults ROWS_MISSING, no hang", "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 32}});
  Rig rig(isa, 2, 2, 1, std::vector<std::uint8_t>(8192, 0));
  const noc::Coord node = rig.system->layout().cores[0];
  // Any program will do (the words of zeros at 0): the RUN needs one in imem.
  const auto ends =
      rig.dispatch({{cu_inst(tinytpu(), codec(), "LOAD", {{"addr", 0}, {"words", 4}}, 1, false),
                     cu_inst(tinytpu(), codec(), "RUN", {{"a_recv", 1}, {"b_addr", 0}, {"c_addr", 4096}}, 2, true)}},
                   {node}, 2);
  CHECK(ends[0].state == "FAULT");
  const auto s = rig.signals(node);
  REQUIRE(s.size() == 2);
  CHECK(s[0] == std::make_pair(sig("SIG_INST_COMPLETE"), std::uint32_t{4}));
  CHECK(s[1] == std::make_pair(sig("SIG_FAULT"), fault_code("ROWS_MISSING")));
}

TEST_CASE("cu model: a RUN with no program in imem faults NO_PROGRAM, and a LOAD that faults leaves none",
          "[cu][model]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 32}});
  Rig rig(isa, 2, 2, 1, std::vector<std::uint8_t>(8192, 0));
  const noc::Coord node = rig.system->layout().cores[0];
  const auto run = [&](std::uint32_t txn, bool last) {
    return cu_inst(tinytpu(), codec(), "RUN", {{"b_addr", 0}, {"c_addr", 4096}}, txn, last);
  };
  // A RUN first; a LOAD, a RUN that runs; a LOAD past the memory (an ERROR
  // answers it), and the RUN after it has no program again.
  const auto ends = rig.dispatch(
      {{run(1, false), cu_inst(tinytpu(), codec(), "LOAD", {{"addr", 0}, {"words", 4}}, 2, false), run(3, false),
        cu_inst(tinytpu(), codec(), "LOAD", {{"addr", 1u << 20}, {"words", 4}}, 4, false), run(5, true)}},
      {node}, 1);
  CHECK(ends[0].state == "FAULT");
  const auto s = rig.signals(node);
  REQUIRE(s.size() == 5);
  CHECK(s[0] == std::make_pair(sig("SIG_FAULT"), fault_code("NO_PROGRAM")));
  CHECK(s[1].first == sig("SIG_INST_COMPLETE"));
  CHECK(s[2].first == sig("SIG_INST_COMPLETE"));
  CHECK(s[3].first == sig("SIG_FAULT"));
  CHECK((s[3].second & ~0xFFFFFFu) == fault_code("MEMORY"));
  CHECK(s[4] == std::make_pair(sig("SIG_FAULT"), fault_code("NO_PROGRAM")));
}
