// gen/noc/routing: the routing functions, paths, the crossbar's turns, and
// the channel-dependency deadlock check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>

#include "noc/routing.h"
#include "spec/noc_spec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::noc;

namespace {

const NocSpec& spec() { return test::shipped_noc_spec(); }

int port(const char* name) { return spec().port_index(name); }

}  // namespace

TEST_CASE("noc routing: XY goes all of x, then y, every path is minimal", "[noc][routing]") {
  const Mesh m{5, 3};
  const RouteFn xy = routing_function(spec(), "xy");
  const auto path = route_path(spec(), m, xy, {0, 0}, {3, 2});
  REQUIRE(path.size() == 6);
  for (int i = 0; i < 3; ++i) CHECK(path[static_cast<std::size_t>(i)].out == port("E"));
  CHECK(path[3].out == port("N"));
  CHECK(path[4].out == port("N"));
  CHECK(path[5].out == port("L"));
  CHECK(path[5].node == Coord{3, 2});
  const RouteFn yx = routing_function(spec(), "yx");
  CHECK(route_path(spec(), m, yx, {0, 0}, {3, 2}).front().out == port("N"));
  for (const auto& r : {xy, yx})
    for (int s = 0; s < m.nodes(); ++s)
      for (int d = 0; d < m.nodes(); ++d) {
        const Coord a = m.coord(s), b = m.coord(d);
        CHECK(static_cast<int>(route_path(spec(), m, r, a, b).size()) ==
              std::abs(a.x - b.x) + std::abs(a.y - b.y) + 1);
      }
  CHECK(route_path(spec(), m, xy, {2, 1}, {2, 1}).size() == 1);
  CHECK_THROWS_WITH(routing_function(spec(), "zigzag"), Catch::Contains("no routing 'zigzag'"));
}

TEST_CASE("noc routing: XY and YX have acyclic channel dependency graphs on every mesh", "[noc][routing]") {
  for (const char* r : {"xy", "yx"})
    for (const Mesh m : {Mesh{1, 1}, Mesh{1, 7}, Mesh{6, 1}, Mesh{2, 2}, Mesh{3, 5}, Mesh{4, 4}, Mesh{16, 16}}) {
      INFO(r << " " << m.nx << "x" << m.ny);
      CHECK(dependency_cycle(spec(), m, routing_function(spec(), r)).empty());
      CHECK_NOTHROW(check_deadlock_free(spec(), m, routing_function(spec(), r), r));
    }
}

TEST_CASE("noc routing: a routing with a dependency cycle is refused, naming the cycle", "[noc][routing]") {
  // Around a 2 x 2 ring, always clockwise (E on the bottom row, S on the
  // right, W on the top, N on the left): the classic ring that deadlocks.
  const Mesh m{2, 2};
  const int e = port("E"), s = port("S"), w = port("W"), n = port("N"), l = port("L");
  const RouteFn ring = [=](Coord here, int, Coord dst) {
    if (here == dst) return l;
    if (here.y == 0) return here.x == 0 ? n : w;
    return here.x == 0 ? e : s;
  };
  const auto cycle = dependency_cycle(spec(), m, ring);
  REQUIRE(cycle.size() == 5);  // four channels, the first repeated at the end
  CHECK(cycle.front() == cycle.back());
  CHECK_THROWS_WITH(check_deadlock_free(spec(), m, ring, "ring"),
                    Catch::Contains("routing ring on a 2x2 mesh can deadlock") && Catch::Contains(" -> "));
  // XY and YX in a checkerboard: turns of both kinds on one square, and a cycle.
  const RouteFn xy = routing_function(spec(), "xy"), yx = routing_function(spec(), "yx");
  const RouteFn mixed = [=](Coord here, int in, Coord dst) {
    return (here.x + here.y) % 2 == 0 ? xy(here, in, dst) : yx(here, in, dst);
  };
  CHECK_FALSE(dependency_cycle(spec(), Mesh{4, 4}, mixed).empty());
  // A routing that leaves the mesh, or never arrives, is refused outright.
  const RouteFn off = [=](Coord, int, Coord) { return w; };
  CHECK_THROWS_WITH(route_path(spec(), m, off, {0, 0}, {1, 1}), Catch::Contains("routed off the mesh"));
  const RouteFn stay = [=](Coord, int, Coord) { return l; };
  CHECK_THROWS_WITH(route_path(spec(), m, stay, {0, 0}, {1, 1}), Catch::Contains("not at its destination"));
}

TEST_CASE("noc routing: XY's crossbar has no turn from y into x", "[noc][routing]") {
  const auto turns = turns_used(spec(), Mesh{4, 4}, routing_function(spec(), "xy"));
  const auto t = [&](const char* in, const char* out) {
    return turns[static_cast<std::size_t>(port(in))][static_cast<std::size_t>(port(out))];
  };
  // Entering from the west (moving east): on east, or turn north/south, or eject.
  CHECK(t("W", "E"));
  CHECK(t("W", "N"));
  CHECK(t("W", "S"));
  CHECK(t("W", "L"));
  CHECK_FALSE(t("W", "W"));  // no U-turn
  // Entering from the south (moving north): on north or eject; never into x.
  CHECK(t("S", "N"));
  CHECK(t("S", "L"));
  CHECK_FALSE(t("S", "E"));
  CHECK_FALSE(t("S", "W"));
  CHECK(t("L", "L"));  // an ERROR flit goes back to its sender
  // On a 1 x 1 mesh only the local port is used.
  const auto one = turns_used(spec(), Mesh{1, 1}, routing_function(spec(), "xy"));
  int used = 0;
  for (const auto& row : one)
    for (const bool b : row) used += b;
  CHECK(used == 1);
}

TEST_CASE("noc routing: a router's Links are its local port and the neighbours inside the mesh", "[noc][routing]") {
  const auto bit = [](const char* name) { return std::uint64_t{1} << port(name); };
  const std::uint64_t all = (std::uint64_t{1} << spec().ports.size()) - 1;
  const Mesh m{4, 3};
  CHECK(port_links(spec(), m, {1, 1}) == all);  // interior: every port
  CHECK(port_links(spec(), Mesh{3, 3}, {1, 1}) == all);
  CHECK(port_links(spec(), m, {0, 0}) == (bit("L") | bit("N") | bit("E")));
  CHECK(port_links(spec(), m, {3, 2}) == (bit("L") | bit("S") | bit("W")));
  CHECK(port_links(spec(), m, {2, 0}) == (all & ~bit("S")));
  CHECK(port_links(spec(), Mesh{1, 1}, {0, 0}) == bit("L"));
  CHECK(port_links(spec(), Mesh{1, 5}, {0, 2}) == (bit("L") | bit("N") | bit("S")));
  // Every output a path leaves a router by is one of that router's Links.
  const RouteFn xy = routing_function(spec(), "xy");
  for (int s = 0; s < m.nodes(); ++s)
    for (int d = 0; d < m.nodes(); ++d)
      for (const Hop& h : route_path(spec(), m, xy, m.coord(s), m.coord(d)))
        CHECK((port_links(spec(), m, h.node) >> h.out & 1U) == 1U);
  CHECK_THROWS_WITH(port_links(spec(), m, {4, 0}), Catch::Contains("node (4,0) is not in the 4x3 mesh"));
  CHECK_THROWS_WITH(port_links(spec(), m, {0, -1}), Catch::Contains("y is 0 .. 2"));
}
