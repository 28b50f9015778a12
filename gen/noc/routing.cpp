#include "noc/routing.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "util/diag.h"

namespace tpugen::noc {

int port_of_step(const NocSpec& spec, int dx, int dy) {
  for (std::size_t i = 0; i < spec.ports.size(); ++i) {
    const NocPort& p = spec.ports[i];
    if (dx == 0 && dy == 0 ? p.local : (!p.local && p.dx == dx && p.dy == dy)) return static_cast<int>(i);
  }
  throw Error("noc.spec", fmt::format("no port steps by ({}, {})", dx, dy), SourceLoc{spec.path});
}

namespace {

std::string channel_name(const NocSpec& spec, Coord c, int port) {
  return fmt::format("({},{}).{}", c.x, c.y, spec.ports[static_cast<std::size_t>(port)].name);
}

}  // namespace

std::string dimension_order(const NocSpec& spec, const std::string& name) {
  if (!spec.routing(name)) throw Error("noc.param", fmt::format("the spec lists no routing '{}'", name), SourceLoc{spec.path});
  if (name == "xy" || name == "yx") return name;
  throw Error("noc.spec", fmt::format("routing {} has no meaning in gen/noc/routing.cpp", name), SourceLoc{spec.path});
}

RouteFn routing_function(const NocSpec& spec, const std::string& name) {
  const std::string order = dimension_order(spec, name);
  const int east = port_of_step(spec, 1, 0), west = port_of_step(spec, -1, 0);
  const int north = port_of_step(spec, 0, 1), south = port_of_step(spec, 0, -1);
  const int local = port_of_step(spec, 0, 0);
  return [=](Coord here, int, Coord dst) {
    for (const char dim : order) {
      if (dim == 'x' && dst.x != here.x) return dst.x > here.x ? east : west;
      if (dim == 'y' && dst.y != here.y) return dst.y > here.y ? north : south;
    }
    return local;
  };
}

Coord neighbour(const NocSpec& spec, Coord here, int port) {
  const NocPort& p = spec.ports[static_cast<std::size_t>(port)];
  return {here.x + p.dx, here.y + p.dy};
}

int opposite_port(const NocSpec& spec, int port) {
  const NocPort& p = spec.ports[static_cast<std::size_t>(port)];
  return port_of_step(spec, -p.dx, -p.dy);
}

std::uint64_t port_links(const NocSpec& spec, const Mesh& mesh, Coord here) {
  if (!mesh.contains(here))
    throw Error("noc.router", fmt::format("node ({},{}) is not in the {}x{} mesh: x is 0 .. {}, y is 0 .. {}", here.x,
                                          here.y, mesh.nx, mesh.ny, mesh.nx - 1, mesh.ny - 1));
  if (spec.ports.size() > 64)
    throw Error("noc.router", fmt::format("{} ports: a Links mask holds at most 64", spec.ports.size()),
                SourceLoc{spec.path});
  std::uint64_t links = 0;
  for (std::size_t i = 0; i < spec.ports.size(); ++i)
    if (spec.ports[i].local || mesh.contains(neighbour(spec, here, static_cast<int>(i)))) links |= std::uint64_t{1} << i;
  return links;
}

std::vector<Hop> route_path(const NocSpec& spec, const Mesh& mesh, const RouteFn& route, Coord src, Coord dst) {
  std::vector<Hop> path;
  Coord here = src;
  int in = port_of_step(spec, 0, 0);
  const std::size_t limit = static_cast<std::size_t>(mesh.nodes()) * spec.ports.size() + 1;
  while (true) {
    const int out = route(here, in, dst);
    path.push_back({here, out});
    if (spec.ports[static_cast<std::size_t>(out)].local) {
      if (here != dst)
        throw Error("noc.route", fmt::format("a flit ({},{})->({},{}) leaves the mesh at ({},{}), not at its destination",
                                             src.x, src.y, dst.x, dst.y, here.x, here.y));
      return path;
    }
    const Coord next = neighbour(spec, here, out);
    if (!mesh.contains(next))
      throw Error("noc.route", fmt::format("a flit ({},{})->({},{}) is routed off the mesh at {}", src.x, src.y, dst.x,
                                           dst.y, channel_name(spec, here, out)));
    if (path.size() > limit)
      throw Error("noc.route", fmt::format("a flit ({},{})->({},{}) never arrives (a routing loop)", src.x, src.y, dst.x,
                                           dst.y));
    in = opposite_port(spec, out);
    here = next;
  }
}

std::vector<std::string> dependency_cycle(const NocSpec& spec, const Mesh& mesh, const RouteFn& route) {
  // A channel is (node, output port); channel c depends on d when a flit
  // holding c can ask for d next. Only the inter-router channels can close a
  // cycle (an ejection channel waits on nothing in the mesh).
  const int np = static_cast<int>(spec.ports.size());
  const auto id = [&](Coord c, int port) { return mesh.index(c) * np + port; };
  const int n = mesh.nodes() * np;
  std::vector<std::set<int>> next(static_cast<std::size_t>(n));
  for (int s = 0; s < mesh.nodes(); ++s)
    for (int d = 0; d < mesh.nodes(); ++d) {
      const auto path = route_path(spec, mesh, route, mesh.coord(s), mesh.coord(d));
      for (std::size_t i = 0; i + 1 < path.size(); ++i)
        next[static_cast<std::size_t>(id(path[i].node, path[i].out))].insert(id(path[i + 1].node, path[i + 1].out));
    }
  // Depth-first search with colours; the grey stack is the cycle when a grey
  // node is met again.
  std::vector<int> colour(static_cast<std::size_t>(n), 0), stack;
  std::vector<std::string> cycle;
  std::function<bool(int)> visit = [&](int c) {
    colour[static_cast<std::size_t>(c)] = 1;
    stack.push_back(c);
    for (const int d : next[static_cast<std::size_t>(c)]) {
      if (colour[static_cast<std::size_t>(d)] == 1) {
        auto it = std::find(stack.begin(), stack.end(), d);
        for (; it != stack.end(); ++it) cycle.push_back(channel_name(spec, mesh.coord(*it / np), *it % np));
        cycle.push_back(channel_name(spec, mesh.coord(d / np), d % np));
        return true;
      }
      if (colour[static_cast<std::size_t>(d)] == 0 && visit(d)) return true;
    }
    stack.pop_back();
    colour[static_cast<std::size_t>(c)] = 2;
    return false;
  };
  for (int c = 0; c < n; ++c)
    if (colour[static_cast<std::size_t>(c)] == 0 && visit(c)) break;
  return cycle;
}

void check_deadlock_free(const NocSpec& spec, const Mesh& mesh, const RouteFn& route, const std::string& routing_name) {
  const auto cycle = dependency_cycle(spec, mesh, route);
  if (cycle.empty()) return;
  std::string text;
  for (const auto& c : cycle) text += (text.empty() ? "" : " -> ") + c;
  throw Error("noc.deadlock",
              fmt::format("routing {} on a {}x{} mesh can deadlock: its channel dependency graph has the cycle {}",
                          routing_name, mesh.nx, mesh.ny, text));
}

std::vector<std::vector<bool>> turns_used(const NocSpec& spec, const Mesh& mesh, const RouteFn& route) {
  const std::size_t np = spec.ports.size();
  std::vector<std::vector<bool>> used(np, std::vector<bool>(np, false));
  const int local = port_of_step(spec, 0, 0);
  for (int s = 0; s < mesh.nodes(); ++s)
    for (int d = 0; d < mesh.nodes(); ++d) {
      int in = local;
      for (const Hop& h : route_path(spec, mesh, route, mesh.coord(s), mesh.coord(d))) {
        used[static_cast<std::size_t>(in)][static_cast<std::size_t>(h.out)] = true;
        in = opposite_port(spec, h.out);
      }
    }
  used[static_cast<std::size_t>(local)][static_cast<std::size_t>(local)] = true;  // an ERROR flit goes back to its sender
  return used;
}

}  // namespace tpugen::noc
