#include <catch2/catch.hpp>

#include <map>

#include "isa/derive.h"
#include "test_support.h"

using namespace tpugen;

TEST_CASE("the units each opcode reaches are the seed's", "[derive]") {
  const Spec& s = test::shipped_spec();
  const std::map<std::string, std::vector<std::string>> want = {
      {"nop", {}},
      {"dma_ld", {"dma_ld", "spm", "vru"}},
      {"dma_st", {}},
      {"vld", {"spm", "vru"}},
      {"mm", {"spm", "array", "vru", "accu"}},
      {"vadd", {"accu"}},
      {"vrelu", {"accu"}},
      {"mvout", {"accu", "dma_st"}},
      {"loop", {"sequencer"}},
      {"endloop", {"sequencer"}},
      {"vaddrelu", {"accu"}}};
  for (const auto& [op, units] : want) {
    INFO(op);
    CHECK(units_reached(s, s.opcode_named(op)) == units);
  }
}

TEST_CASE("per-unit costs are the busiest port, as the seed tabulates", "[derive]") {
  const Isa isa = test::isa_at();
  std::map<std::pair<std::string, std::string>, CostEntry> got;
  for (const auto& e : cost_table(isa)) got.emplace(std::pair{e.opcode, e.unit}, e);
  struct Want {
    const char* op;
    const char* unit;
    const char* form;
    std::int64_t at8;
  };
  const Want want[] = {{"dma_ld", "dma_ld", "nr", 8}, {"dma_ld", "spm", "nr", 8},   {"dma_ld", "vru", "nr", 8},
                       {"vld", "spm", "nr", 8},       {"vld", "vru", "nr", 8},      {"mm", "spm", "T + 1", 5},
                       {"mm", "array", "nr + T + 1", 13}, {"mm", "vru", "nr", 8},   {"mm", "accu", "nr", 8},
                       {"vadd", "accu", "2 * nr", 16}, {"vrelu", "accu", "nr", 8},  {"mvout", "accu", "nr", 8},
                       {"mvout", "dma_st", "nr", 8},  {"loop", "sequencer", "1", 1}, {"endloop", "sequencer", "1", 1},
                       {"vaddrelu", "accu", "2 * nr", 16}};
  CHECK(got.size() == std::size(want));
  for (const auto& w : want) {
    INFO(w.op << " on " << w.unit);
    auto it = got.find({w.op, w.unit});
    REQUIRE(it != got.end());
    CHECK(it->second.text() == w.form);
    CHECK(it->second.at_nr8 == w.at8);
  }
}

TEST_CASE("the nr rewrites are derived, not listed", "[derive]") {
  const Isa isa = test::isa_at();
  std::vector<std::string> got;
  for (const auto& r : nr_rewrites(isa)) got.push_back(r.opcode + " " + r.unit + " nr = " + r.nr.text());
  CHECK(got == std::vector<std::string>{"mm spm nr = T + 1", "vadd accu nr = 2 * nr", "vaddrelu accu nr = 2 * nr"});
  const Isa at8 = test::isa_at({{"T", 8}});
  CHECK(nr_rewrites(at8)[0].nr.at(0, 8) == 9);
}

TEST_CASE("each memory's writers and readers are derived from the actions", "[derive]") {
  const Spec& s = test::shipped_spec();
  auto names = [](const std::vector<MemoryAccess>& v) {
    std::vector<std::string> out;
    for (const auto& a : v) out.push_back(a.condition.empty() ? a.opcode : a.opcode + " [" + a.condition + "]");
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(names(memory_writers(s, *s.memory("spad"))) == V{"dma_ld [(mode & 2) == 0]"});
  CHECK(names(memory_readers(s, *s.memory("spad"))) == V{"vld", "mm"});
  CHECK(names(memory_writers(s, *s.memory("vr"))) == V{"dma_ld [(mode & 2) == 2]", "vld"});
  CHECK(names(memory_readers(s, *s.memory("vr"))) == V{"mm"});
  CHECK(names(memory_writers(s, *s.memory("ar"))) == V{"mm", "vadd", "vrelu", "vaddrelu"});
  CHECK(names(memory_readers(s, *s.memory("ar"))) == V{"mm [acc == 1]", "vadd", "vrelu", "mvout", "vaddrelu"});
  CHECK(names(memory_writers(s, *s.memory("A"))) == V{"the host"});
  CHECK(names(memory_readers(s, *s.memory("A"))) == V{"dma_ld [(mode & 1) == 0]"});
  CHECK(names(memory_readers(s, *s.memory("B"))) == V{"dma_ld [(mode & 1) == 1]"});
  CHECK(names(memory_writers(s, *s.memory("C"))) == V{"mvout"});
  CHECK(names(memory_readers(s, *s.memory("C"))) == V{"the host"});
  CHECK(names(memory_readers(s, *s.memory("imem"))) == V{"sequencer"});
}

TEST_CASE("dma_ld's mode routes source and destination through only_if", "[derive]") {
  const Isa isa = test::isa_at();
  auto route = [&](std::int64_t mode) { return test::dma_ld_route(isa, mode, 4); };
  CHECK(route(0) == "A->spad");
  CHECK(route(1) == "B->spad");
  CHECK(route(2) == "A->vr");
  CHECK(route(3) == "B->vr");
}

TEST_CASE("within a row, reads take successive steps and the write the last", "[derive]") {
  const Isa isa = test::isa_at();
  const Opcode& vadd = isa.spec().opcode_named("vadd");
  Instr in = isa.make(vadd);
  in.fields[isa.nr_index()] = 3;
  const RowSchedule rs = row_schedule(isa, vadd, "accu", in.fields);
  CHECK(rs.steps_per_row == 2);
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const auto& [a, step] : rs.steps)
    if (a->kind == ActionKind::Read || a->kind == ActionKind::Write) got.emplace_back(a->base, step);
  CHECK(got == std::vector<std::pair<std::string, std::int64_t>>{{"ar_s1", 0}, {"ar_s2", 1}, {"ar_d", 1}});
  const Opcode& mm = isa.spec().opcode_named("mm");
  Instr m = isa.make(mm);
  m.fields[isa.nr_index()] = 4;
  m.fields[isa.operand_index(mm, "acc")] = 1;
  CHECK(row_schedule(isa, mm, "accu", m.fields).steps_per_row == 1);
}

TEST_CASE("the legal trip frontier of an AGU-driven restricted field", "[derive]") {
  const Isa isa = test::isa_at();
  const Legal& acc = *isa.spec().opcode_named("mm").operand("acc")->legal;
  const Scope p = isa.params().scope();
  CHECK(agu_legal_trip(acc, 0, 1, p, 127) == 2);
  CHECK(agu_legal_trip(acc, 1, 1, p, 127) == 1);
  CHECK(agu_legal_trip(acc, 0, 0, p, 127) == 127);
  CHECK(agu_legal_trip(acc, 2, 0, p, 127) == 0);
  const Legal& col = *isa.spec().opcode_named("dma_ld").operand("col_block")->legal;
  CHECK(agu_legal_trip(col, 0, 1, p, 127) == 16);  // WPR at MAXDIM 64, T 4
  CHECK(agu_legal_trip(col, 3, 2, p, 127) == 7);
}
