// spec/system_node.yaml: the memory mover's registers, modes, faults and
// constants and the memory agent's rules as data, read strictly against
// spec/noc.yaml; the values checked against mover-notes.md, not the file.
#include <catch2/catch.hpp>
#include <string>

#include "docs/system_node_docs.h"
#include "spec/system_node_spec.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const std::string kPath = TPUGEN_SOURCE_DIR "/spec/system_node.yaml";

const SystemNodeSpec& shipped() { return test::shipped_system_node_spec(); }

std::string edited(const std::string& from, const std::string& to) { return test::edited_text(kPath, from, to); }

/// The rule and message of the error loading `text` raises, with its location checked.
std::string rule_of(const std::string& text, std::string* message = nullptr) {
  try {
    (void)load_system_node_spec_text(text, "edited.yaml", test::shipped_noc_spec());
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.where().file == "edited.yaml");
    CHECK(e.where().line > 0);
    if (message) *message = e.what();
    return e.rule();
  }
  return "accepted";
}

/// A field's register offset and bits, as mover-notes.md §1 lists them.
struct Placed {
  const char* field;
  std::uint32_t offset;
  int msb, lsb;
};

}  // namespace

TEST_CASE("system node spec: the mover's register map is mover-notes §1's", "[sysnode][spec]") {
  const MoverSpec& m = shipped().mover;
  const Placed map[] = {{"mode", 0x00, 2, 0},          {"elem_width", 0x00, 4, 3},     {"flags", 0x00, 15, 8},
                        {"go", 0x00, 16, 16},          {"xform_id", 0x00, 23, 20},     {"xform_mode", 0x00, 31, 24},
                        {"base", 0x10, 43, 4},         {"ndim", 0x10, 46, 44},         {"count", 0x18, 19, 4},
                        {"stride", 0x18, 51, 20},      {"bound_sel", 0x20, 1, 0},      {"astep", 0x20, 17, 2},
                        {"abase", 0x28, 17, 2},        {"extent", 0x28, 33, 18},       {"index_base", 0x30, 39, 0},
                        {"index_count", 0x30, 55, 40}, {"seed", 0x38, 63, 0},          {"imm", 0x40, 31, 0},
                        {"pitch", 0x50, 31, 0},        {"gather_words", 0x50, 47, 32}, {"busy", 0x78, 0, 0},
                        {"fault", 0x78, 7, 4},         {"moves_done", 0x78, 63, 40}};
  for (const auto& p : map) {
    INFO(p.field);
    const MoverRegister* reg = nullptr;
    const MoverField* f = m.field(p.field, &reg);
    REQUIRE(f);
    CHECK(reg->offset == p.offset);
    CHECK(f->msb == p.msb);
    CHECK(f->lsb == p.lsb);
  }
  // The selectors: walker at bit 0 of 0x10, 0x18, 0x28; dimension [3:1]; axis [1].
  for (std::uint32_t off : {0x10U, 0x18U, 0x28U}) {
    const MoverField* w = m.reg_at(off)->field("walker");
    REQUIRE(w);
    CHECK(w->kind == MoverFieldKind::Select);
    CHECK((w->msb == 0 && w->lsb == 0));
  }
  CHECK(m.reg_at(0x18)->field("dimension")->lsb == 1);
  CHECK(m.reg_at(0x28)->field("axis")->lsb == 1);
  // Signed: stride, astep, abase; unsigned: extent, count, pitch.
  for (const char* s : {"stride", "astep", "abase"}) CHECK(m.require_field(s, "test").is_signed);
  for (const char* u : {"extent", "count", "pitch", "base"}) CHECK_FALSE(m.require_field(u, "test").is_signed);
  // Reset: element width 1, gather words 1, ndim 1, counts 0, strides 0.
  CHECK(m.require_field("elem_width", "test").reset == 1);
  CHECK(m.require_field("gather_words", "test").reset == 1);
  CHECK(m.require_field("ndim", "test").reset == 1);
  CHECK(m.require_field("count", "test").reset == 0);
  CHECK(m.require_field("stride", "test").reset == 0);
  CHECK(*m.require_field("count", "test").zero_means == 1);
  // 0x20 commits what 0x18 staged; STATUS is read-only.
  CHECK(m.reg_at(0x18)->stages);
  CHECK(m.reg_at(0x20)->commits == m.reg_at(0x18)->name);
  CHECK(m.reg_at(0x78)->read_only());
  CHECK(m.require_field("go", "test").kind == MoverFieldKind::Strobe);
}

TEST_CASE("system node spec: modes, element widths, flags, faults in GO check order", "[sysnode][spec]") {
  const MoverSpec& m = shipped().mover;
  const char* modes[] = {"COPY", "TRANSPOSE", "GATHER", "GENERATE", "FILL", "XFORM"};
  for (std::uint32_t c = 0; c < 6; ++c) CHECK(m.require_mode(modes[c]).code == c);
  CHECK_FALSE(m.require_mode("TRANSPOSE").implemented);
  CHECK(m.require_mode("XFORM").implemented);
  CHECK(m.mode_of(6) == nullptr);
  CHECK(m.mode_of(7) == nullptr);
  CHECK(m.elem_width_of(0)->bits == 8);
  CHECK(m.elem_width_of(1)->bits == 16);
  CHECK(m.elem_width_of(2)->bits == 32);
  CHECK(m.elem_width_of(3) == nullptr);
  const MoverFlag& cap = m.require_flag("burst_cap");
  CHECK((cap.msb == 7 && cap.lsb == 5));
  CHECK(cap.values == std::vector<std::int64_t>{128, 1, 2, 4, 8, 16, 32, 64});
  const MoverFlag& coalesce = m.require_flag("coalesce");
  CHECK((coalesce.msb == 3 && coalesce.lsb == 3));
  // §4: 5 element width; 4 mode; 1 index length; 7 bound axis on XFORM; 6 alignment; 2 range; 3 at run.
  const std::pair<const char*, std::uint32_t> order[] = {{"ELEM_WIDTH", 5},  {"MODE", 4},      {"INDEX_LENGTH", 1},
                                                         {"XFORM_BOUND", 7}, {"ALIGNMENT", 6}, {"RANGE", 2},
                                                         {"AXI_RESPONSE", 3}};
  REQUIRE(m.faults.size() == 7);
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(m.faults[i].name == order[i].first);
    CHECK(m.faults[i].code == order[i].second);
    CHECK(m.faults[i].at_go == (i < 6));
  }
}

TEST_CASE("system node spec: walker geometry, GATHER, Philox, the transform slot, the quantiser", "[sysnode][spec]") {
  const SystemNodeSpec& s = shipped();
  const MoverSpec& m = s.mover;
  CHECK(s.word_bits == 256);
  CHECK(s.address_bits == 40);
  CHECK(m.dimensions == 6);
  CHECK(m.bound_axes == 2);
  CHECK(m.require_walker("source").code == 0);
  CHECK(m.require_walker("destination").code == 1);
  CHECK(m.bound_axis_of(0) == -1);
  CHECK(m.bound_axis_of(1) == 0);
  CHECK(m.bound_axis_of(2) == 1);
  CHECK(m.bound_axis_of(3) == -1);
  CHECK(m.require_field("count", "test").width() == 16);
  CHECK(m.require_field("stride", "test").width() == 32);
  CHECK(m.require_field("astep", "test").width() == 16);
  CHECK(m.require_field("abase", "test").width() == 16);
  CHECK(m.require_field("extent", "test").width() == 16);
  CHECK(m.index_entries == 2048);
  CHECK(s.word_bits / m.index_bits == 8);
  CHECK(m.generate.rounds == 10);
  CHECK(m.generate.multipliers == std::array<std::uint32_t, 2>{0xD2511F53U, 0xCD9E8D57U});
  CHECK(m.generate.weyl == std::array<std::uint32_t, 2>{0x9E3779B9U, 0xBB67AE85U});
  const TransformOccupant& bypass = *m.occupant_of(0);
  CHECK((bypass.in_bits == 256 && bypass.out_words == 1));
  const TransformOccupant& q = m.require_occupant("quantiser");
  CHECK(q.id == 1);
  CHECK((q.in_bits == 2048 && q.out_words == 4));
  CHECK(q.mode_flag("B_PACKING")->bit == 0);
  CHECK(m.require_field(m.xform_id_field, "test").width() == 4);
  CHECK(m.require_field(m.xform_mode_field, "test").width() == 8);
  const std::map<int, std::uint32_t> r = {{8, 4096},  {9, 3641},  {10, 3277}, {11, 2979},
                                          {12, 2731}, {13, 2520}, {14, 2341}, {15, 2185}};
  CHECK(m.quantiser.reciprocal == r);
  CHECK((m.quantiser.sexp_min == -20 && m.quantiser.sexp_max == 11 && m.quantiser.scale_bias == 20));
}

TEST_CASE("system node spec: the agent's limits and error rules beside noc.yaml's", "[sysnode][spec]") {
  const SystemNodeSpec& s = shipped();
  CHECK(s.agent.write_max_len == 7);
  for (const auto& r : s.agent.error_rules)
    for (const auto& n : test::shipped_noc_spec().error_rules) CHECK(r.code != n.code);
  CHECK(s.agent.require_error_rule("WRITE_TOO_LONG").code > 0);
  const NocParams a = resolve_agent_params(s);
  CHECK(a["MEM_PORTS"] >= 1);
  CHECK(a["WR_SLOTS"] >= 1);
  CHECK(a["INTAKE_DEPTH"] >= 2);
  const NocParams mv = resolve_mover_params(s, {{"RD_BURSTS", "16"}});
  CHECK(mv["RD_BURSTS"] == 16);
  CHECK_THROWS_WITH(resolve_mover_params(s, {{"RD_BURSTS", "0"}}), Catch::Contains("outside its range"));
  CHECK_THROWS_WITH(resolve_agent_params(s, {{"NX", "2"}}), Catch::Contains("the agent has no parameter 'NX'"));
}

TEST_CASE("system node spec: a broken file is refused with file:line and the rule broken", "[sysnode][spec]") {
  std::string msg;
  CHECK(rule_of(edited("{name: mode,       bits: [2, 0],", "{name: mode,       bits: [3, 0],"), &msg) ==
        "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("overlaps"));
  CHECK(rule_of(edited("offset: 0x50", "offset: 0x52"), &msg) == "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("not a multiple of 8"));
  CHECK(rule_of(edited("offset: 0x50", "offset: 0x40"), &msg) == "sysnode.spec");
  CHECK(rule_of(edited("{name: COPY,      code: 0,", "{name: COPY,      code: 8,"), &msg) == "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("does not fit"));
  CHECK(rule_of(edited("{name: ELEM_WIDTH,   code: 5, at: go,", "{name: ELEM_WIDTH,   code: 5, at: run,"), &msg) ==
        "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("GO-time checks come first"));
  CHECK(rule_of(edited("values: [128, 1, 2, 4, 8, 16, 32, 64]", "values: [128, 1, 2, 4]"), &msg) == "sysnode.spec");
  CHECK(rule_of(edited("values: [128, 1, 2, 4, 8, 16, 32, 64]", "values: [512, 1, 2, 4, 8, 16, 32, 64]"), &msg) ==
        "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("max_burst_beats"));
  CHECK(rule_of(edited("{m8: 13, r: 2520}", "{m8: 12, r: 2520}"), &msg) == "sysnode.spec");
  CHECK(rule_of(edited("in_bits: 2048", "in_bits: 1024"), &msg) == "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("FP16"));
  CHECK(rule_of(edited("code: 16, role", "code: 3, role"), &msg) == "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("noc.yaml"));
  CHECK(rule_of(edited("{field: mesh, value: 0}", "{field: meshid, value: 0}"), &msg) == "sysnode.spec");
  CHECK(rule_of(edited("commits: DIM", "commits: AXIS"), &msg) == "sysnode.spec");
  CHECK(rule_of(edited("{name: base,   bits: [43, 4],  reset: 0,", "{name: base,   bits: [43, 4],"), &msg) ==
        "sysnode.spec");
  CHECK_THAT(msg, Catch::Contains("reset"));
  CHECK(rule_of(edited("    - {code: 3, axis: none}\n", "")) == "sysnode.spec");
  CHECK(rule_of(edited("rounds: 10", "rounds: 10\n    round: 9")) == "spec.unknown_key");
  CHECK(rule_of(edited("multipliers: [0xD2511F53, 0xCD9E8D57]", "multipliers: [0xD2511F53, x]")) == "spec.type");
  CHECK(rule_of(edited("kind: strobe", "kind: pulse")) == "sysnode.spec");
  CHECK(rule_of(edited("word_bits: 256", "word_bits: 128")) == "sysnode.spec");
  CHECK(rule_of(edited("- {name: agent, id: 0}", "- {name: agent, id: 1}")) == "sysnode.spec");
  CHECK(rule_of(edited("name: kohakutpu_system_node", "name: [x")) == "sysnode.yaml");
}

TEST_CASE("system node spec: docs/system_node.md's tables are the spec's, and drift is caught", "[sysnode][docs]") {
  const std::string path = TPUGEN_SOURCE_DIR "/docs/system_node.md";
  const std::string doc = test::read_text(path);
  CHECK(with_system_node_tables(doc, shipped(), path) == doc);  // the committed file is up to date
  const std::string tables = render_system_node_tables(shipped());
  CHECK_THAT(tables, Catch::Contains("| 51:20 | `stride` | value, signed, reset 0 |"));
  CHECK_THAT(tables, Catch::Contains("| 1 | 5 | `ELEM_WIDTH` | at GO |"));
  CHECK_THAT(tables, Catch::Contains("| 1 | `quantiser` | 2048 | 4 |"));
  CHECK_THAT(tables, Catch::Contains("Philox-4x32-10"));
  const SystemNodeSpec other =
      load_system_node_spec_text(edited("{m8: 13, r: 2520}", "{m8: 13, r: 2521}"), kPath, test::shipped_noc_spec());
  CHECK(with_system_node_tables(doc, other, path) != doc);
  CHECK_THROWS_WITH(with_system_node_tables("no markers here\n", shipped(), "x.md"), Catch::Contains("no markers"));
}
