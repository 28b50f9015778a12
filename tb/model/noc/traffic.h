/// @file traffic.h
/// @brief The NoC benches' traffic: the standard synthetic patterns
/// (uniform random, transpose, bit-complement, bit-reverse, hotspot, nearest
/// neighbour) with Bernoulli injection, and a user's own flits read from a
/// JSON Lines file. A pure function of its inputs and the seed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/noc/noc_run.h"
#include "noc/codec.h"
#include "noc/routing.h"

namespace tpugen::noc {

struct TrafficSpec {
  std::string pattern = "uniform";
  double rate = 0.1;             ///< offered load: flits per node per cycle, 0 < rate <= 1 (Bernoulli)
  std::uint64_t packets = 1000;  ///< single-flit packets over all nodes
  std::uint64_t seed = 1;
  double hotspot_fraction = 0.25;  ///< hotspot: the share of each node's flits sent to the hot node
};

/// The pattern names, in --help's order.
[[nodiscard]] const std::vector<std::string_view>& pattern_names();

/// Throws Error("noc.pattern") for a name that is no pattern, or a pattern
/// this mesh has no meaning for (transpose on a non-square mesh, bit-complement
/// or bit-reverse when a side or the node count is not a power of two,
/// neighbour on a single node), saying why.
void check_pattern(std::string_view pattern, const Mesh& mesh);

/// The hot node of the hotspot pattern: the mesh's centre.
[[nodiscard]] Coord hotspot_node(const Mesh& mesh);

/// Bernoulli traffic: in each cycle from 0, each node creates a flit with
/// probability `rate` until `packets` exist. A flit goes to its pattern's
/// destination, from its node; its type is drawn from the spec's non-reserved
/// types, txn counts the flits of its (source, destination) pair, the payload
/// carries the flit's index (bits 63:0) and random bits above. Throws
/// Error("noc.traffic") for a rate outside (0, 1] and what check_pattern throws.
[[nodiscard]] std::vector<Injection> generate_traffic(const Codec& codec, const Mesh& mesh, const TrafficSpec& spec);

/// A user's flits, one JSON object a line: "cycle", "node" ([x, y]), header
/// fields by name (absent: 0, src_x/src_y: the node's), "payload" (hex, the
/// 256 bits; absent: 0). Blank lines and lines starting with # are skipped.
/// Throws Error("noc.inject") naming the file and line for anything else:
/// bad JSON, an unknown key, a node outside the mesh, a value that does not
/// fit its field, cycles of one node going backwards.
[[nodiscard]] std::vector<Injection> read_injections(const Codec& codec, const Mesh& mesh, const std::string& path);

}  // namespace tpugen::noc
