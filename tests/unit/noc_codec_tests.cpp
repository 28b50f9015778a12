// gen/noc: flits encoded and decoded by field name, the endpoint's rules and
// the ERROR flit.
#include <catch2/catch.hpp>

#include <random>

#include "noc/codec.h"
#include "noc/endpoint.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::noc;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

Flit flit_from(const Codec& c, const Header& h) {
  Flit f;
  c.set_header(f, h);
  return f;
}

}  // namespace

TEST_CASE("noc flit: bit ranges across words, hex both ways", "[noc][codec]") {
  Flit f;
  f.set_bits(60, 8, 0xA5);  // straddles words 0 and 1
  CHECK(f.bits(60, 8) == 0xA5);
  CHECK(f.bits(60, 4) == 0x5);
  CHECK(f.bits(64, 4) == 0xA);
  f.set_bits(0, 64, ~std::uint64_t{0});
  CHECK(f.bits(0, 64) == ~std::uint64_t{0});
  CHECK(f.bits(60, 8) == 0xAF);
  Flit g;
  g.set_hex_range(0, 288, "0x" + std::string(71, '0') + "1", "test");
  CHECK(g.bits(0, 4) == 1);
  CHECK(g.hex(288).size() == 72);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100; ++i) {
    Flit r;
    for (int b = 0; b < 288; b += 64) r.set_bits(b, std::min(64, 288 - b), rng());
    Flit back;
    back.set_hex_range(0, 288, r.hex(288), "round trip");
    CHECK(back == r);
  }
  CHECK_THROWS_WITH(g.set_hex_range(0, 8, "1ff", "x"), Catch::Contains("does not fit 8 bits"));
  CHECK_THROWS_WITH(g.set_hex_range(0, 8, "0x1g", "x"), Catch::Contains("'g' is not a hex digit"));
  CHECK_NOTHROW(g.set_hex_range(0, 9, "1ff", "x"));
  CHECK(g.bits(0, 9) == 0x1FF);
}

TEST_CASE("noc codec: fields by name and path, as the spec lays them out", "[noc][codec]") {
  const Codec c(spec());
  CHECK(c.field("dst_x").lsb == 284);
  CHECK(c.field("mem_req.addr").lsb == 216);
  CHECK(c.field("mem_req.addr").width == 40);
  CHECK(c.field("mem_req.flags.STREAM").lsb == 206);
  CHECK(c.field("mem_req.flags.STREAM").width == 1);
  CHECK(c.field("mem_req.peer[0]").lsb == 168);
  CHECK(c.field("mem_req.peer[2]").lsb == 184);
  CHECK(c.field("mem_req.peer[1].x").lsb == 176);
  CHECK(c.field("mem_req.peer[1].y").lsb == 180);
  CHECK(c.field("cu_signal.arg").lsb == 216);
  for (const char* bad : {"dst_z", "mem_req.adr", "nothing.addr", "mem_req.peer[3]", "mem_req.peer[1].z",
                          "mem_req.flags.FAST", "mem_req.peer[x]"}) {
    INFO(bad);
    CHECK_THROWS_AS(c.field(bad), Error);
  }
  // Every header field round-trips, and a value wider than its field is refused.
  const Header h{3, 2, 1, 0, c.type_code("MEM_RD_REQ"), 0xAB, 1, 0};
  Flit f = flit_from(c, h);
  CHECK(c.header(f) == h);
  CHECK(c.header_bits(f) == 0x32100AB8ULL);
  Header wide = h;
  wide.dst_x = 16;
  CHECK_THROWS_WITH(c.set_header(f, wide), Catch::Contains("dst_x = 0x10 does not fit its 4 bit(s)"));
  CHECK_THROWS_WITH(c.set(f, "mem_req.len", 256), Catch::Contains("mem_req.len = 0x100 does not fit"));
  c.set(f, "mem_req.addr", 0xFF'1234'5678ULL);
  c.set(f, "mem_req.entry_words", 2);
  c.set(f, "mem_req.flags.STREAM", 1);
  c.set(f, "mem_req.peer[2].x", 7);
  CHECK(c.get(f, "mem_req.addr") == 0xFF'1234'5678ULL);
  CHECK(c.get(f, "mem_req.flags") == 0x40);
  CHECK(c.get(f, "mem_req.peer") == 0x07ULL << 16);
  CHECK(c.header(f) == h);  // the payload's fields leave the header alone
  CHECK_THROWS_WITH(c.get(f, "data.word"), Catch::Contains("read it as hex"));
  c.set_hex(f, "data.word", "ff");
  CHECK(f.bits(0, 8) == 0xFF);
  CHECK(c.type_name(0xF) == "ERROR");
  CHECK(c.type_name(0x9) == "reserved 0x9");
  CHECK_THROWS_AS(c.type_code("MEM_RD"), Error);
}

TEST_CASE("noc codec: decode lists the header and the type's payload fields", "[noc][codec]") {
  const Codec c(spec());
  Flit f = flit_from(c, {1, 1, 0, 0, c.type_code("MEM_RD_REQ"), 5, 0, 0});
  c.set(f, "mem_req.len", 3);
  c.set(f, "mem_req.flags.STREAM", 1);
  const auto fields = c.decode(f);
  auto find = [&](const std::string& name) -> const DecodedField* {
    for (const auto& d : fields)
      if (d.name == name) return &d;
    return nullptr;
  };
  REQUIRE(find("type"));
  CHECK(*find("type")->value == 0);
  REQUIRE(find("mem_req.len"));
  CHECK(*find("mem_req.len")->value == 3);
  REQUIRE(find("mem_req.flags.STREAM"));
  CHECK(*find("mem_req.flags.STREAM")->value == 1);
  REQUIRE(find("mem_req.peer[2].y"));
  CHECK_FALSE(find("cu_signal.code"));
  CHECK_THAT(c.describe(f), Catch::StartsWith("MEM_RD_REQ (0,0)->(1,1) txn 5 last 0 rsvd 0 | addr=0x0 len=0x3"));
  // A 256-bit field decodes as hex only.
  Flit d = flit_from(c, {0, 0, 0, 0, c.type_code("MEM_WR_DATA"), 0, 1, 0});
  for (const auto& x : c.decode(d))
    if (x.name == "data.word") {
      CHECK_FALSE(x.value);
      CHECK(x.hex.size() == 64);
    }
  const Flit r = flit_from(c, {0, 0, 0, 0, 0xA, 0, 0, 0});
  CHECK_THAT(c.describe(r), Catch::Contains("reserved 0xa"));
}

TEST_CASE("noc endpoint: the error rules in the spec's order, and the ERROR flit", "[noc][endpoint]") {
  const Codec c(spec());
  const Endpoint at{3, 5, {1, 2}};
  const std::uint32_t cu_inst = c.type_code("CU_INST");
  auto rule = [&](const Header& h) -> std::string {
    const NocCode* r = broken_rule(c, flit_from(c, h), at);
    return r ? r->name : "none";
  };
  CHECK(rule({2, 4, 1, 2, cu_inst, 0, 1, 0}) == "none");
  CHECK(rule({3, 0, 1, 2, cu_inst, 0, 0, 0}) == "DST_OUTSIDE_MESH");
  CHECK(rule({0, 5, 1, 2, cu_inst, 0, 0, 0}) == "DST_OUTSIDE_MESH");
  for (std::uint32_t t = 0x9; t <= 0xE; ++t) CHECK(rule({0, 0, 1, 2, t, 0, 0, 0}) == "RESERVED_TYPE");
  CHECK(rule({0, 0, 1, 2, c.type_code("ERROR"), 0, 0, 0}) == "none");  // ERROR itself is a type
  CHECK(rule({0, 0, 1, 2, c.type_code("MEM_RD_RESP"), 0, 0, 4}) == "REMOTE_MESH");
  CHECK(rule({0, 0, 1, 2, c.type_code("MEM_RD_RESP"), 0, 0, 3}) == "none");  // the word index
  CHECK(rule({0, 0, 1, 2, cu_inst, 0, 0, 1}) == "RSVD_ON_CU_INST");
  CHECK(rule({0, 0, 1, 2, cu_inst, 0, 0, 4}) == "REMOTE_MESH");  // the earlier rule wins
  CHECK(rule({0, 0, 0, 2, cu_inst, 0, 0, 0}) == "SRC_NOT_SENDER");
  CHECK(rule({7, 0, 0, 0, 0xA, 0, 0, 7}) == "DST_OUTSIDE_MESH");  // the first of several

  Flit bad = flit_from(c, {9, 9, 1, 2, 0xB, 0x5A, 0, 0});
  c.set_hex(bad, "data.word", "1234");
  const Flit e = admit(c, bad, at);
  const Header eh = c.header(e);
  CHECK(eh == Header{1, 2, 1, 2, c.type_code("ERROR"), 0x5A, 1, 0});
  CHECK(c.get(e, "error.rule") == spec().require_error_rule("DST_OUTSIDE_MESH").code);
  CHECK(c.get(e, "error.header") == c.header_bits(bad));
  CHECK(e.bits(0, 64) == 0);  // nothing else of the offending payload
  const Flit good = flit_from(c, {0, 0, 1, 2, cu_inst, 1, 1, 0});
  CHECK(admit(c, good, at) == good);
}
