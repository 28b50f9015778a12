// spec/noc.yaml: the NoC fabric's encodings as data, read strictly, and the
// fabric's build parameters resolved against it.
#include <catch2/catch.hpp>

#include <string>

#include "docs/markdown.h"
#include "docs/noc_docs.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const std::string kPath = TPUGEN_SOURCE_DIR "/spec/noc.yaml";

const NocSpec& shipped() {
  static const NocSpec s = load_noc_spec(kPath);
  return s;
}

/// The shipped spec with one piece of text replaced (it must be there).
std::string edited(const std::string& from, const std::string& to) { return test::edited_text(kPath, from, to); }

/// The rule of the error loading `text` raises, with its location checked.
std::string rule_of(const std::string& text) {
  try {
    (void)load_noc_spec_text(text, "edited.yaml");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.where().file == "edited.yaml");
    CHECK(e.where().line > 0);
    return e.rule();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("noc spec: the seed's flit, types and descriptors as the notes give them", "[noc][spec]") {
  const NocSpec& s = shipped();
  CHECK(s.flit_bits() == 288);
  CHECK(s.header_bits == 32);
  CHECK(s.pos_width == 4);
  // The header's fields, bits of the flit (kohakutpu-notes.md, Flit).
  const std::pair<const char*, std::pair<int, int>> header[] = {
      {"dst_x", {287, 284}}, {"dst_y", {283, 280}}, {"src_x", {279, 276}}, {"src_y", {275, 272}},
      {"type", {271, 268}},  {"txn", {267, 260}},   {"last", {259, 259}},  {"rsvd", {258, 256}}};
  for (const auto& [name, bits] : header) {
    INFO(name);
    const NocField& f = s.require_header(name);
    CHECK(f.msb == bits.first);
    CHECK(f.lsb == bits.second);
  }
  CHECK(s.routing_fields == std::vector<std::string>{"dst_x", "dst_y"});
  // Types 0 .. 8, 0xF; 9 .. E reserved.
  const char* names[] = {"MEM_RD_REQ", "MEM_WR_REQ", "MEM_RD_RESP", "MEM_WR_ACK", "MEM_WR_DATA",
                         "CU_INST",    "CU_SIGNAL",  "CU_CTRL",     "CU_DATA"};
  for (std::uint32_t c = 0; c < 9; ++c) CHECK(s.require_type(names[c]).code == c);
  CHECK(s.require_type("ERROR").code == 0xF);
  CHECK(s.reserved_types.from == 0x9);
  CHECK(s.reserved_types.to == 0xE);
  // The request descriptor.
  const NocLayout& req = s.require_payload("mem_req");
  CHECK(req.field("addr")->msb == 255);
  CHECK(req.field("addr")->width() == 40);
  CHECK(req.field("len")->lsb == 208);
  CHECK(req.field("flags")->flag("STREAM")->bit == 6);
  CHECK(req.field("flags")->flag("QUANT")->reserved_ignored);
  CHECK(req.field("flags")->flag("BLAYOUT")->reserved_ignored);
  CHECK_FALSE(req.field("flags")->flag("STREAM")->reserved_ignored);
  CHECK(req.field("count")->lsb == 192);
  CHECK(req.field("peer")->msb == 191);
  CHECK(req.field("peer")->repeat == 3);
  CHECK(req.field("n_peer")->msb == 167);
  CHECK(req.field("entry_words")->msb == 165);
  CHECK(req.field("entry_words")->lsb == 158);
  // The signals, the CU_DATA descriptor, the control registers.
  CHECK(s.require_signal("SIG_BATCH_COMPLETE").code == 1);
  CHECK_FALSE(s.require_signal("SIG_BARRIER_REACHED").generated);
  CHECK(s.require_signal("SIG_FAULT").code == 4);
  CHECK(s.require_payload("cu_data").field("ack_x")->lsb == 208);
  CHECK(s.cu_ctrl_registers.at(0).name == "CAPS");
  CHECK(s.cu_ctrl_registers.at(0).fields.at(3).name == "inst_depth");
  CHECK(s.cu_ctrl_registers.at(0).fields.at(3).lsb == 20);
  CHECK(s.address_map.field("aperture")->msb == 39);
  CHECK(s.address_map.field("mesh")->lsb == 36);
  // The ERROR payload: the rule and the offending header.
  CHECK(s.require_payload("error").field("header")->width() == 32);
  CHECK(s.error_rules.front().name == "DST_OUTSIDE_MESH");
}

TEST_CASE("noc spec: a field's value notes (0 or more than 4 means 4)", "[noc][spec]") {
  const NocField& ew = *shipped().require_payload("mem_req").field("entry_words");
  CHECK(ew.effective(0) == 4);
  CHECK(ew.effective(1) == 1);
  CHECK(ew.effective(4) == 4);
  CHECK(ew.effective(5) == 4);
  CHECK(ew.effective(255) == 4);
  const NocField& count = *shipped().require_payload("mem_req").field("count");
  CHECK(count.effective(0) == 1);
  CHECK(count.effective(255) == 255);
}

TEST_CASE("noc spec: malformed specs are refused with file:line and a rule", "[noc][spec]") {
  CHECK(rule_of(test::read_text(kPath)) == "accepted");
  // Overlapping and out-of-range bits.
  CHECK(rule_of(edited("{name: dst_y, bits: [283, 280]", "{name: dst_y, bits: [284, 280]")) == "noc.spec");
  CHECK(rule_of(edited("{name: addr, bits: [255, 216]", "{name: addr, bits: [256, 216]")) == "noc.spec");
  CHECK(rule_of(edited("{name: len, bits: [215, 208]", "{name: len, bits: [216, 208]")) == "noc.spec");
  // A header bit no field covers.
  CHECK(rule_of(edited("bits: [258, 256]", "bits: [258, 257]")) == "noc.spec");
  // A flag past its field (rsvd.REMOTE at bit 3 of a 3-bit field).
  CHECK(rule_of(edited("{name: REMOTE, bit: 2", "{name: REMOTE, bit: 3")) == "noc.spec");
  // A coordinate that is not pos_width bits.
  CHECK(rule_of(edited("pos_width: 4", "pos_width: 5")) == "noc.spec");
  // Codes: a duplicate, one in the reserved range, one neither type nor reserved.
  CHECK(rule_of(edited("code: 0x8, payload: cu_data", "code: 0x7, payload: cu_data")) == "noc.spec");
  CHECK(rule_of(edited("reserved_types: {from: 0x9, to: 0xE}", "reserved_types: {from: 0x8, to: 0xE}")) ==
        "noc.spec");
  CHECK(rule_of(edited("reserved_types: {from: 0x9, to: 0xE}", "reserved_types: {from: 0xA, to: 0xE}")) ==
        "noc.spec");
  CHECK(rule_of(edited("payload: cu_data,", "payload: cu_dta,")) == "noc.spec");
  // A flag past its field, a repeat that does not divide.
  CHECK(rule_of(edited("{name: STREAM, bit: 6", "{name: STREAM, bit: 8")) == "noc.spec");
  CHECK(rule_of(edited("repeat: 3", "repeat: 5")) == "noc.spec");
  // An error rule with code 0 (no error), a signal in the unit-defined range.
  CHECK(rule_of(edited("{name: DST_OUTSIDE_MESH, code: 1", "{name: DST_OUTSIDE_MESH, code: 0")) == "noc.spec");
  CHECK(rule_of(edited("{name: SIG_FAULT,          code: 4", "{name: SIG_FAULT,          code: 0x40")) ==
        "noc.spec");
  // Ports: a step that is no neighbour; parameters: a default outside its range.
  CHECK(rule_of(edited("{name: N, dx: 0, dy: 1", "{name: N, dx: 1, dy: 1")) == "noc.spec");
  CHECK(rule_of(edited("{name: DEPTH, default: 32", "{name: DEPTH, default: 1")) == "noc.spec");
  CHECK(rule_of(edited("{name: ROUTING, default: xy", "{name: ROUTING, default: zigzag")) == "noc.spec");
  // The strict reader: an unknown key, a wrong type, YAML that does not parse.
  CHECK(rule_of(edited("name: kohakutpu_noc", "name: kohakutpu_noc\ncolour: blue")) == "spec.unknown_key");
  CHECK(rule_of(edited("header_bits: 32", "header_bits: many")) == "spec.type");
  CHECK(rule_of(edited("types:", "types: [")) == "noc.yaml");
}

TEST_CASE("noc spec: build parameters resolve against the spec's ranges", "[noc][spec]") {
  const NocSpec& s = shipped();
  const NocParams d = resolve_noc_params(s);
  CHECK(d.nx() == 4);
  CHECK(d.ny() == 4);
  CHECK(d.depth() == 32);
  CHECK(d.routing() == "xy");
  const NocParams p = resolve_noc_params(s, {{"NX", "16"}, {"NY", "1"}, {"DEPTH", "0x4"}, {"ROUTING", "yx"}});
  CHECK(p.nx() == 16);
  CHECK(p.ny() == 1);
  CHECK(p.depth() == 4);
  CHECK(p.routing() == "yx");
  CHECK(p.listing().front() == std::pair<std::string, std::string>{"NX", "16"});
  auto refused = [&s](std::map<std::string, std::string> o) {
    try {
      (void)resolve_noc_params(s, o);
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.rule() == "noc.param");
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refused({{"NX", "17"}}), Catch::Contains("NX = 17 is outside its range 1 .. 16"));
  CHECK_THAT(refused({{"NY", "0"}}), Catch::Contains("NY = 0 is outside"));
  CHECK_THAT(refused({{"DEPTH", "1"}}), Catch::Contains("DEPTH = 1"));
  CHECK_THAT(refused({{"DEPTH", "4x"}}), Catch::Contains("must be an integer"));
  CHECK_THAT(refused({{"ROUTING", "west_first"}}), Catch::Contains("is none of xy, yx"));
  CHECK_THAT(refused({{"NZ", "2"}}), Catch::Contains("no parameter 'NZ'"));
}

TEST_CASE("noc spec: docs/noc.md's tables are the spec's, and drift is caught", "[noc][docs]") {
  const std::string path = TPUGEN_SOURCE_DIR "/docs/noc.md";
  const std::string doc = test::read_text(path);
  CHECK(with_noc_tables(doc, shipped(), path) == doc);  // the committed file is up to date
  const std::string tables = render_noc_tables(shipped());
  CHECK_THAT(tables, Catch::Contains("| 165:158 | `entry_words` |"));
  CHECK_THAT(tables, Catch::Contains("0 means 4; above 4 means 4"));
  CHECK_THAT(tables, Catch::Contains("| 206 | `flags.STREAM` |"));
  CHECK_THAT(tables, Catch::Contains("| 175:172 | `peer[0].y` |"));
  CHECK_THAT(tables, Catch::Contains("`0x9`..`0xe` | reserved"));
  // A change to the spec changes the tables.
  const NocSpec other = load_noc_spec_text(edited("{name: DEPTH, default: 32", "{name: DEPTH, default: 8"), kPath);
  CHECK(with_noc_tables(doc, other, path) != doc);
  CHECK_THROWS_WITH(with_noc_tables("no markers here\n", shipped(), "x.md"), Catch::Contains("no markers"));
}
