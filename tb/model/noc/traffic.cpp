#include "model/noc/traffic.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <fstream>
#include <map>

#include "util/diag.h"
#include "util/rng.h"

namespace tpugen::noc {

namespace {

[[noreturn]] void refuse(std::string_view pattern, const Mesh& m, std::string_view why) {
  throw Error("noc.pattern", fmt::format("pattern {} is not defined on a {}x{} mesh: {}", pattern, m.nx, m.ny, why));
}

bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

/// A node other than `src`, uniformly (src itself on a single node).
Coord uniform_other(const Mesh& m, Coord src, Rng& rng) {
  if (m.nodes() == 1) return src;
  auto d = static_cast<int>(rng.uniform(0, m.nodes() - 2));
  if (d >= m.index(src)) ++d;
  return m.coord(d);
}

Coord destination(std::string_view pattern, const Mesh& m, Coord src, double hot_fraction, Rng& rng) {
  if (pattern == "uniform") return uniform_other(m, src, rng);
  if (pattern == "transpose") return {src.y, src.x};
  if (pattern == "bitcomp") return {m.nx - 1 - src.x, m.ny - 1 - src.y};
  if (pattern == "bitrev") {
    const int bits = std::countr_zero(static_cast<unsigned>(m.nodes()));
    int index = m.index(src), rev = 0;
    for (int b = 0; b < bits; ++b) rev |= ((index >> b) & 1) << (bits - 1 - b);
    return m.coord(rev);
  }
  if (pattern == "hotspot") {
    if (rng.chance(static_cast<std::uint64_t>(hot_fraction * 1048576.0), 1048576)) return hotspot_node(m);
    return uniform_other(m, src, rng);
  }
  if (pattern == "neighbor") return m.nx > 1 ? Coord{(src.x + 1) % m.nx, src.y} : Coord{src.x, (src.y + 1) % m.ny};
  throw Error("noc.pattern", fmt::format("no pattern '{}'", pattern));
}

}  // namespace

const std::vector<std::string_view>& pattern_names() {
  static const std::vector<std::string_view> names = {"uniform", "transpose", "bitcomp", "bitrev", "hotspot", "neighbor"};
  return names;
}

void check_pattern(std::string_view pattern, const Mesh& m) {
  bool known = false;
  for (const auto n : pattern_names()) known = known || n == pattern;
  if (!known) {
    std::string names;
    for (const auto n : pattern_names()) names += (names.empty() ? "" : ", ") + std::string(n);
    throw Error("noc.pattern", fmt::format("no pattern '{}' (the patterns: {})", pattern, names));
  }
  if (pattern == "transpose" && m.nx != m.ny) refuse(pattern, m, "(x, y) -> (y, x) needs a square mesh");
  if (pattern == "bitcomp" && !(pow2(m.nx) && pow2(m.ny)))
    refuse(pattern, m, "complementing the address bits needs both sides powers of two");
  if (pattern == "bitrev" && !pow2(m.nodes()))
    refuse(pattern, m, "reversing the node index's bits needs a power-of-two node count");
  if (pattern == "neighbor" && m.nodes() == 1) refuse(pattern, m, "a single node has no neighbour");
}

Coord hotspot_node(const Mesh& m) { return {m.nx / 2, m.ny / 2}; }

std::vector<Injection> generate_traffic(const Codec& codec, const Mesh& mesh, const TrafficSpec& spec) {
  check_pattern(spec.pattern, mesh);
  if (!(spec.rate > 0.0 && spec.rate <= 1.0))
    throw Error("noc.traffic", fmt::format("the rate is {}; it must be in (0, 1] flits per node per cycle", spec.rate));
  if (!(spec.hotspot_fraction >= 0.0 && spec.hotspot_fraction <= 1.0))
    throw Error("noc.traffic", fmt::format("the hotspot fraction is {}; it must be in [0, 1]", spec.hotspot_fraction));
  std::vector<std::uint32_t> types;
  for (const auto& t : codec.spec().types) types.push_back(t.code);
  constexpr std::uint64_t kDen = std::uint64_t{1} << 32;
  const auto num = static_cast<std::uint64_t>(spec.rate * static_cast<double>(kDen));
  const int txn_bits = codec.field("txn").width;
  Rng rng(spec.seed);
  std::map<std::pair<int, int>, std::uint32_t> pair_count;
  std::vector<Injection> out;
  out.reserve(spec.packets);
  for (std::uint64_t cycle = 0; out.size() < spec.packets; ++cycle)
    for (int n = 0; n < mesh.nodes() && out.size() < spec.packets; ++n) {
      if (!rng.chance(num, kDen)) continue;
      const Coord src = mesh.coord(n);
      const Coord dst = destination(spec.pattern, mesh, src, spec.hotspot_fraction, rng);
      Injection in;
      in.cycle = cycle;
      in.node = n;
      Header h;
      h.dst_x = static_cast<std::uint32_t>(dst.x);
      h.dst_y = static_cast<std::uint32_t>(dst.y);
      h.src_x = static_cast<std::uint32_t>(src.x);
      h.src_y = static_cast<std::uint32_t>(src.y);
      h.type = rng.pick(types);
      h.txn = pair_count[{n, mesh.index(dst)}]++ & ((1U << txn_bits) - 1);
      h.last = static_cast<std::uint32_t>(rng.uniform(0, 1));
      codec.set_header(in.flit, h);
      const FieldRef payload = codec.payload();
      in.flit.set_bits(payload.lsb, 64, out.size());
      for (int b = payload.lsb + 64; b < payload.lsb + payload.width; b += 64)
        in.flit.set_bits(b, std::min(64, payload.lsb + payload.width - b), rng.next());
      out.push_back(in);
    }
  return out;
}

std::vector<Injection> read_injections(const Codec& codec, const Mesh& mesh, const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error("noc.inject", fmt::format("cannot read '{}'", path), SourceLoc{path});
  std::vector<Injection> out;
  std::vector<std::uint64_t> last_cycle(static_cast<std::size_t>(mesh.nodes()), 0);
  std::string line;
  int lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    const SourceLoc at{path, lineno};
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw Error("noc.inject", fmt::format("not JSON: {}", e.what()), at);
    }
    if (!j.is_object()) throw Error("noc.inject", "a line must be a JSON object", at);
    try {
      Injection in;
      if (!j.contains("cycle") || !j["cycle"].is_number_unsigned())
        throw Error("noc.inject", "needs \"cycle\": a non-negative integer", at);
      in.cycle = j["cycle"].get<std::uint64_t>();
      const auto& node = j.contains("node") ? j["node"] : nlohmann::json();
      if (!node.is_array() || node.size() != 2 || !node[0].is_number_integer() || !node[1].is_number_integer())
        throw Error("noc.inject", "needs \"node\": [x, y]", at);
      const Coord c{node[0].get<int>(), node[1].get<int>()};
      if (!mesh.contains(c))
        throw Error("noc.inject", fmt::format("node [{}, {}] is not in the {}x{} mesh", c.x, c.y, mesh.nx, mesh.ny), at);
      in.node = mesh.index(c);
      Header h;
      h.src_x = static_cast<std::uint32_t>(c.x);
      h.src_y = static_cast<std::uint32_t>(c.y);
      codec.set_header(in.flit, h);
      for (const auto& [key, value] : j.items()) {
        if (key == "cycle" || key == "node") continue;
        if (key == "payload") {
          if (!value.is_string()) throw Error("noc.inject", "\"payload\" must be a hex string", at);
          const FieldRef payload = codec.payload();
          in.flit.set_hex_range(payload.lsb, payload.width, value.get<std::string>(), "payload");
          continue;
        }
        if (!codec.spec().header.field(key))
          throw Error("noc.inject", fmt::format("\"{}\" is no header field, nor cycle, node or payload", key), at);
        std::uint64_t v = 0;
        if (value.is_number_unsigned()) {
          v = value.get<std::uint64_t>();
        } else if (value.is_string() && codec.spec().type(value.get<std::string>()) && key == "type") {
          v = codec.type_code(value.get<std::string>());
        } else {
          throw Error("noc.inject", fmt::format("\"{}\" must be a non-negative integer{}", key,
                                                key == "type" ? " or a type's name" : ""),
                      at);
        }
        codec.set(in.flit, key, v);
      }
      auto& last = last_cycle[static_cast<std::size_t>(in.node)];
      if (in.cycle < last)
        throw Error("noc.inject",
                    fmt::format("node [{}, {}]'s flits must come in cycle order ({} after {})", c.x, c.y, in.cycle, last),
                    at);
      last = in.cycle;
      out.push_back(in);
    } catch (const Error& e) {
      if (e.where().line != 0) throw;
      throw Error("noc.inject", e.message(), at);  // a codec error: name the line
    }
  }
  return out;
}

}  // namespace tpugen::noc
