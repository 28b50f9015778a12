// tb/model/noc/traffic: the synthetic patterns, Bernoulli injection and a
// user's JSON-lines flits.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "model/noc/traffic.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::noc;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

std::vector<Injection> traffic(const Mesh& m, const std::string& pattern, double rate, std::uint64_t packets,
                               std::uint64_t seed = 1) {
  const Codec c(spec());
  TrafficSpec t;
  t.pattern = pattern;
  t.rate = rate;
  t.packets = packets;
  t.seed = seed;
  return generate_traffic(c, m, t);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("noc traffic: the permutation patterns send each node where their definition says", "[noc][traffic]") {
  const Codec c(spec());
  const Mesh m{4, 4};
  for (const auto& in : traffic(m, "transpose", 1.0, 64)) {
    const Coord s = m.coord(in.node), d = c.header(in.flit).dst();
    CHECK(d == Coord{s.y, s.x});
  }
  for (const auto& in : traffic(m, "bitcomp", 1.0, 64)) {
    const Coord s = m.coord(in.node), d = c.header(in.flit).dst();
    CHECK(d == Coord{3 - s.x, 3 - s.y});
  }
  for (const auto& in : traffic(m, "bitrev", 1.0, 64)) {
    const int s = in.node, d = m.index(c.header(in.flit).dst());
    int rev = 0;
    for (int b = 0; b < 4; ++b) rev |= ((s >> b) & 1) << (3 - b);
    CHECK(d == rev);
  }
  for (const auto& in : traffic(Mesh{5, 3}, "neighbor", 1.0, 45)) {
    const Coord s = Mesh{5, 3}.coord(in.node), d = c.header(in.flit).dst();
    CHECK(d == Coord{(s.x + 1) % 5, s.y});
  }
  for (const auto& in : traffic(Mesh{1, 4}, "neighbor", 1.0, 8)) CHECK(c.header(in.flit).dst().y == (in.node + 1) % 4);
}

TEST_CASE("noc traffic: uniform never sends to itself and reaches every other node, hotspot favours the centre",
          "[noc][traffic]") {
  const Codec c(spec());
  const Mesh m{3, 3};
  std::map<int, std::set<int>> seen;
  for (const auto& in : traffic(m, "uniform", 1.0, 9 * 400)) {
    const int d = m.index(c.header(in.flit).dst());
    CHECK(d != in.node);
    seen[in.node].insert(d);
  }
  for (const auto& [src, dsts] : seen) CHECK(dsts.size() == 8);
  const Coord hot = hotspot_node(Mesh{4, 4});
  CHECK(hot == Coord{2, 2});
  int to_hot = 0;
  const auto hs = traffic(Mesh{4, 4}, "hotspot", 1.0, 16000);
  for (const auto& in : hs) to_hot += c.header(in.flit).dst() == hot;
  // A quarter directly, and a fifteenth of the uniform rest.
  const double share = static_cast<double>(to_hot) / static_cast<double>(hs.size());
  CHECK(share > 0.25);
  CHECK(share < 0.35);
  // A single node sends to itself.
  for (const auto& in : traffic(Mesh{1, 1}, "uniform", 1.0, 5)) CHECK(c.header(in.flit).dst() == Coord{0, 0});
}

TEST_CASE("noc traffic: Bernoulli creation, the packet count, txn per pair, a unique payload, the seed",
          "[noc][traffic]") {
  const Codec c(spec());
  const Mesh m{4, 4};
  const auto t = traffic(m, "uniform", 0.25, 4000, 9);
  REQUIRE(t.size() == 4000);
  // 4000 flits at 0.25 per node per cycle take about 1000 cycles.
  CHECK(t.back().cycle > 900);
  CHECK(t.back().cycle < 1100);
  std::map<int, std::uint64_t> last;
  std::map<std::pair<int, int>, std::uint32_t> pair_count;
  std::set<std::uint64_t> ids;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Header h = c.header(t[i].flit);
    CHECK(t[i].cycle >= last[t[i].node]);
    last[t[i].node] = t[i].cycle;
    CHECK(h.src() == m.coord(t[i].node));
    CHECK(h.rsvd == 0);
    CHECK_FALSE(spec().reserved_types.contains(h.type));
    CHECK(h.txn == (pair_count[{t[i].node, m.index(h.dst())}]++ & 0xFF));
    CHECK(ids.insert(t[i].flit.bits(0, 64)).second);
    CHECK(t[i].flit.bits(0, 64) == i);
  }
  CHECK(traffic(m, "uniform", 0.25, 500, 9) == std::vector<Injection>(t.begin(), t.begin() + 500));
  CHECK(traffic(m, "uniform", 0.25, 500, 10) != std::vector<Injection>(t.begin(), t.begin() + 500));
  // At rate 1 every node creates a flit every cycle.
  const auto full = traffic(m, "transpose", 1.0, 64);
  for (std::size_t i = 0; i < full.size(); ++i) CHECK(full[i].cycle == i / 16);
}

TEST_CASE("noc traffic: patterns a mesh has no meaning for, and bad rates, are refused", "[noc][traffic]") {
  const Codec c(spec());
  CHECK_THAT(error_of([&] { check_pattern("transpose", Mesh{3, 5}); }), Catch::Contains("needs a square mesh"));
  CHECK_THAT(error_of([&] { check_pattern("bitcomp", Mesh{3, 4}); }), Catch::Contains("powers of two"));
  CHECK_THAT(error_of([&] { check_pattern("bitrev", Mesh{3, 3}); }), Catch::Contains("power-of-two node count"));
  CHECK_THAT(error_of([&] { check_pattern("neighbor", Mesh{1, 1}); }), Catch::Contains("no neighbour"));
  CHECK_THAT(error_of([&] { check_pattern("tornado", Mesh{4, 4}); }), Catch::Contains("no pattern 'tornado'"));
  CHECK(error_of([&] { check_pattern("bitrev", Mesh{2, 8}); }) == "accepted");
  CHECK_THAT(error_of([&] { (void)traffic(Mesh{2, 2}, "uniform", 1.5, 10); }), Catch::Contains("(0, 1]"));
  CHECK_THAT(error_of([&] { (void)traffic(Mesh{2, 2}, "uniform", 0.0, 10); }), Catch::Contains("(0, 1]"));
}

TEST_CASE("noc traffic: a user's flits from JSON lines, every malformed line named", "[noc][traffic]") {
  const Codec c(spec());
  const Mesh m{3, 2};
  const auto flits = read_injections(c, m, TPUGEN_SOURCE_DIR "/tests/noc/malformed.jsonl");
  REQUIRE(flits.size() == 6);
  CHECK(flits[0].node == 0);
  CHECK(c.header(flits[0].flit).dst_x == 3);
  CHECK(c.header(flits[0].flit).type == c.type_code("MEM_RD_REQ"));
  CHECK(c.header(flits[2].flit).rsvd == 1);
  CHECK(c.header(flits[4].flit).src() == Coord{1, 1});  // an explicit src wins over the node's
  CHECK(c.header(flits[5].flit).src() == Coord{0, 1});  // the node's otherwise
  CHECK(flits[5].flit.bits(0, 12) == 0xABC);
  CHECK(flits[5].flit.bits(252, 4) == 0x5);
  const auto dir = std::filesystem::path(TPUGEN_BINARY_DIR) / "test_noc_inject";
  std::filesystem::create_directories(dir);
  auto bad = [&](const std::string& text) {
    const auto path = (dir / "bad.jsonl").string();
    test::write_text(path, "# a comment\n\n" + text + "\n");
    return error_of([&] { (void)read_injections(c, m, path); });
  };
  CHECK_THAT(bad("{\"cycle\": 0, \"node\": [0, 0]"), Catch::Contains("bad.jsonl:3") && Catch::Contains("not JSON"));
  CHECK_THAT(bad("[1, 2]"), Catch::Contains("must be a JSON object"));
  CHECK_THAT(bad("{\"node\": [0, 0]}"), Catch::Contains("needs \"cycle\""));
  CHECK_THAT(bad("{\"cycle\": 0}"), Catch::Contains("needs \"node\": [x, y]"));
  CHECK_THAT(bad("{\"cycle\": 0, \"node\": [3, 0]}"), Catch::Contains("not in the 3x2 mesh"));
  CHECK_THAT(bad("{\"cycle\": 0, \"node\": [0, 0], \"colour\": 1}"), Catch::Contains("\"colour\" is no header field"));
  CHECK_THAT(bad("{\"cycle\": 0, \"node\": [0, 0], \"type\": \"MEM_READ\"}"), Catch::Contains("or a type's name"));
  CHECK_THAT(bad("{\"cycle\": 0, \"node\": [0, 0], \"txn\": 256}"), Catch::Contains("txn = 0x100 does not fit"));
  CHECK_THAT(bad("{\"cycle\": 0, \"node\": [0, 0], \"payload\": \"xyz\"}"), Catch::Contains("not a hex digit"));
  CHECK_THAT(bad("{\"cycle\": 5, \"node\": [0, 0]}\n{\"cycle\": 4, \"node\": [0, 0]}"),
             Catch::Contains("bad.jsonl:4") && Catch::Contains("cycle order"));
  CHECK_THAT(error_of([&] { (void)read_injections(c, m, (dir / "missing.jsonl").string()); }),
             Catch::Contains("cannot read"));
}
