/// @file routing.h
/// @brief The routing functions of spec/noc.yaml (`routings`) over a mesh,
/// the path a flit takes, and the deadlock check: the channel dependency
/// graph of a routing function over the whole mesh, refused when it has a
/// cycle (Dally and Seitz: a routing function is deadlock-free when its
/// channel dependency graph is acyclic).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "noc/codec.h"

namespace tpugen::noc {

/// The router's output for a flit at `here` that came in on port `in` (an
/// index into the spec's ports) and goes to `dst`: a port index.
using RouteFn = std::function<int(Coord here, int in, Coord dst)>;

struct Mesh {
  int nx = 1, ny = 1;
  [[nodiscard]] bool contains(Coord c) const { return c.x >= 0 && c.y >= 0 && c.x < nx && c.y < ny; }
  [[nodiscard]] int nodes() const { return nx * ny; }
  [[nodiscard]] int index(Coord c) const { return c.y * nx + c.x; }
  [[nodiscard]] Coord coord(int index) const { return {index % nx, index / nx}; }
};

/// The order a dimension-order routing takes the dimensions in, "xy" or
/// "yx" for the routing of that name: the one place a routing's name gets its
/// meaning (the model's routing_function and the RTL's tpu_noc_route both
/// read it). Throws Error("noc.spec") for a routing the spec lists and this
/// library has no meaning for, Error("noc.param") for one it does not list.
[[nodiscard]] std::string dimension_order(const NocSpec& spec, const std::string& name);

/// The port whose step is (dx, dy), or the local port for (0, 0).
[[nodiscard]] int port_of_step(const NocSpec& spec, int dx, int dy);

/// The named routing function of the spec (xy, yx). Throws Error("noc.spec")
/// for a routing the spec lists and this library has no meaning for, and
/// Error("noc.param") for one the spec does not list.
[[nodiscard]] RouteFn routing_function(const NocSpec& spec, const std::string& name);

/// The neighbour a non-local port leads to.
[[nodiscard]] Coord neighbour(const NocSpec& spec, Coord here, int port);
/// The port of the neighbour that a flit leaving through `port` enters by.
[[nodiscard]] int opposite_port(const NocSpec& spec, int port);

/// The ports of the router at `here` that lead somewhere: the local port and
/// each port whose neighbour (by the spec's step) is inside the mesh. Bit i
/// is the spec's port i (tpu_noc_pkg::PORT_*): the router's Links parameter,
/// as tpu_noc_mesh gives it. Throws Error("noc.router") for a node outside
/// the mesh, or a spec with more ports than the mask holds.
[[nodiscard]] std::uint64_t port_links(const NocSpec& spec, const Mesh& mesh, Coord here);

/// One hop of a path: the node and the port the flit leaves it by (the last
/// hop leaves by the local port).
struct Hop {
  Coord node;
  int out = 0;
};
/// The path from src to dst. Throws Error("noc.route") when the function
/// leaves the mesh, or loops (more hops than the mesh has channels).
[[nodiscard]] std::vector<Hop> route_path(const NocSpec& spec, const Mesh& mesh, const RouteFn& route, Coord src,
                                          Coord dst);

/// The channels of one dependency cycle, each "(x,y).P" (node and output
/// port), in order; empty when the graph is acyclic. Every path of every
/// (src, dst) pair of the mesh contributes its consecutive channels.
[[nodiscard]] std::vector<std::string> dependency_cycle(const NocSpec& spec, const Mesh& mesh, const RouteFn& route);

/// Throws Error("noc.deadlock") naming the routing and the cycle when the
/// channel dependency graph of the routing over the mesh has one.
void check_deadlock_free(const NocSpec& spec, const Mesh& mesh, const RouteFn& route, const std::string& routing_name);

/// Which (input port, output port) turns the routing takes anywhere on the
/// mesh: turns[in][out]. The router's crossbar has only these connections.
[[nodiscard]] std::vector<std::vector<bool>> turns_used(const NocSpec& spec, const Mesh& mesh, const RouteFn& route);

}  // namespace tpugen::noc
