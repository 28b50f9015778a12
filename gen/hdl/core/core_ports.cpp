#include "hdl/core/core_ports.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "util/diag.h"

namespace tpugen::hdl {

namespace {
/// `logic`, or `logic [bits-1:0]` (`[N-1:0]` for a number).
std::string port_type(const std::string& bits) {
  if (bits == "1") return "logic";
  const bool number = !bits.empty() && std::all_of(bits.begin(), bits.end(), [](char c) { return std::isdigit(c); });
  return number ? fmt::format("logic [{}:0]", std::stoi(bits) - 1) : fmt::format("logic [{}-1:0]", bits);
}
}  // namespace

std::vector<PortDecl> interface_ports(const Spec& spec, std::string_view name) {
  std::vector<PortDecl> out;
  for (const auto& p : spec.interface(name).ports)
    out.push_back({p.input() ? "input" : "output", port_type(p.bits), p.name, p.role});
  return out;
}

std::string handshake(const Spec& spec, std::string_view stream) {
  auto port = [&](std::string_view signal) {
    const std::string stem = fmt::format("{}_{}_", stream, signal);
    for (const auto& itf : spec.interfaces)
      for (const auto& p : itf.ports)
        if (p.name.size() == stem.size() + 1 && p.name.starts_with(stem)) return p.name;
    throw Error("rtl.spec", fmt::format("the spec's interfaces have no port {}i or {}o", stem, stem));
  };
  return fmt::format("{} & {}", port("valid"), port("ready"));
}

std::string connect_by_name(const std::vector<PortDecl>& ports, std::string_view indent) {
  std::string o;
  for (const auto& p : ports)
    if (!p.dir.empty()) o += fmt::format("{}.{},\n", indent, p.name);
  return o;
}

}  // namespace tpugen::hdl
