#include "spec/noc_spec.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "spec/build_params_read.h"
#include "spec/by_name.h"
#include "spec/hash.h"
#include "spec/noc_layout_read.h"
#include "spec/yaml_reader.h"
#include "util/file_io.h"

namespace tpugen {

namespace {

constexpr std::string_view kSpec = "noc.spec";

[[noreturn]] void fail(const std::string& message, const SourceLoc& where, std::string_view rule = kSpec) {
  throw Error(std::string(rule), message, where);
}

std::int64_t bounded(YamlMap& m, const std::string& key, std::int64_t lo, std::int64_t hi,
                     std::string_view rule = kSpec) {
  return m.integer_in(key, lo, hi, rule);
}

/// `bits: [msb, lsb]` within [0, frame_bits).
std::pair<int, int> read_bits(YamlMap& m, int frame_bits, const std::string& what, std::string_view rule) {
  return m.bit_range("bits", frame_bits, what, rule);
}

/// Bits already taken in a frame, to refuse overlaps.
BitOccupancy occupancy(int bits, std::string_view rule) { return BitOccupancy(bits, std::string(rule)); }

NocField read_field(const YAML::Node& n, const std::string& file, int frame_bits, const std::string& where_in,
                    std::string_view rule) {
  YamlMap m(n, file, "a field");
  NocField f;
  f.loc = m.loc();
  f.name = m.str("name");
  const std::string what = fmt::format("{} field {}", where_in, f.name);
  std::tie(f.msb, f.lsb) = read_bits(m, frame_bits, what, rule);
  f.role = m.str_or("role", "");
  if (m.has("zero_means")) f.zero_means = static_cast<std::uint64_t>(bounded(m, "zero_means", 0, INT64_MAX, rule));
  if (m.has("above")) {
    YamlMap a(m.node("above"), file, "above");
    f.above_max = static_cast<std::uint64_t>(bounded(a, "max", 0, INT64_MAX, rule));
    f.above_means = static_cast<std::uint64_t>(bounded(a, "means", 0, INT64_MAX, rule));
    a.finish();
  }
  for (const auto& fl : m.seq_or_empty("flags")) {
    YamlMap fm(fl, file, "a flag");
    NocFlag g;
    g.loc = fm.loc();
    g.name = fm.str("name");
    g.bit = static_cast<int>(bounded(fm, "bit", 0, f.width() - 1, rule));
    const std::string reserved = fm.str_or("reserved", "");
    if (!reserved.empty() && reserved != "ignored")
      fail(fmt::format("flag {}: reserved must be 'ignored', not '{}'", g.name, reserved), fm.loc("reserved"), rule);
    g.reserved_ignored = !reserved.empty();
    g.role = fm.str("role");
    fm.finish();
    for (const auto& other : f.flags)
      if (other.bit == g.bit || other.name == g.name)
        fail(fmt::format("{}: flag {} reuses a bit or a name of flag {}", what, g.name, other.name), g.loc, rule);
    f.flags.push_back(g);
  }
  if (m.has("repeat")) {
    f.repeat = static_cast<int>(bounded(m, "repeat", 1, f.width(), rule));
    if (f.width() % f.repeat != 0)
      fail(fmt::format("{}: {} bits do not split into {} elements", what, f.width(), f.repeat), m.loc("repeat"), rule);
  }
  BitOccupancy elem = occupancy(f.element_width(), rule);
  for (const auto& e : m.seq_or_empty("element")) {
    YamlMap em(e, file, "an element sub-field");
    NocSubfield s;
    s.name = em.str("name");
    std::tie(s.msb, s.lsb) = read_bits(em, f.element_width(), fmt::format("{} element {}", what, s.name), rule);
    elem.take(s.msb, s.lsb, fmt::format("{} element {}", what, s.name), em.loc());
    em.finish();
    f.element.push_back(s);
  }
  if (!f.element.empty() && f.repeat == 1) fail(fmt::format("{}: an element list needs repeat", what), f.loc, rule);
  m.finish();
  return f;
}

}  // namespace

NocLayout read_noc_layout(const YAML::Node& n, const std::string& file, int frame_bits, const std::string& kind,
                          std::string_view rule) {
  YamlMap m(n, file, kind);
  NocLayout l;
  l.loc = m.loc();
  l.name = m.str_or("name", kind);
  l.role = m.str_or("role", "");
  BitOccupancy occ = occupancy(frame_bits, rule);
  std::set<std::string> names;
  for (const auto& fn : m.seq_or_empty("fields")) {
    NocField f = read_field(fn, file, frame_bits, fmt::format("{} {}", kind, l.name), rule);
    occ.take(f.msb, f.lsb, fmt::format("{} field {}", l.name, f.name), f.loc);
    if (!names.insert(f.name).second) fail(fmt::format("{}: a second field named {}", l.name, f.name), f.loc, rule);
    l.fields.push_back(std::move(f));
  }
  m.finish();
  return l;
}

namespace {

NocCode read_code(const YAML::Node& n, const std::string& file, const std::string& what, std::int64_t max_code,
                  bool payload, bool signal, int detail_bits, std::string_view rule) {
  YamlMap m(n, file, what);
  NocCode c;
  c.loc = m.loc();
  c.name = m.str("name");
  c.code = static_cast<std::uint32_t>(bounded(m, "code", 0, max_code, rule));
  c.role = m.str("role");
  if (payload) c.payload = m.str("payload");
  if (signal) {
    c.arg = m.str("arg");
    c.generated = m.boolean_or("generated", true);
  }
  if (detail_bits > 0) {
    BitOccupancy taken(detail_bits, std::string(rule));
    for (const auto& d : m.seq_or_empty("detail")) {
      YamlMap dm(d, file, "a detail sub-field");
      NocSubfield f;
      f.name = dm.str("name");
      const std::string dwhat = fmt::format("{} {} detail {}", what, c.name, f.name);
      std::tie(f.msb, f.lsb) = dm.bit_range("bits", detail_bits, dwhat, rule);
      taken.take(f.msb, f.lsb, dwhat, dm.loc());
      dm.finish();
      if (c.detail_field(f.name) != nullptr)
        fail(fmt::format("{}: a second sub-field named {}", dwhat, f.name), c.loc, rule);
      c.detail.push_back(f);
    }
  }
  m.finish();
  return c;
}

}  // namespace

std::vector<NocCode> read_noc_codes(YamlMap& top, const std::string& key, const std::string& file,
                                    std::int64_t max_code, std::string_view rule, bool payload, bool signal,
                                    int detail_bits) {
  std::vector<NocCode> out;
  std::set<std::string> names;
  std::set<std::uint32_t> codes;
  for (const auto& n : top.seq(key)) {
    NocCode c = read_code(n, file, key, max_code, payload, signal, detail_bits, rule);
    if (!names.insert(c.name).second) fail(fmt::format("{}: a second entry named {}", key, c.name), c.loc, rule);
    if (!codes.insert(c.code).second) fail(fmt::format("{}: {} reuses code {:#x}", key, c.name, c.code), c.loc, rule);
    out.push_back(std::move(c));
  }
  return out;
}

NocRange read_noc_range(YamlMap& top, const std::string& key, const std::string& file, std::int64_t max_code,
                        std::string_view rule) {
  YamlMap m(top.node(key), file, key);
  NocRange r;
  r.from = static_cast<std::uint32_t>(bounded(m, "from", 0, max_code, rule));
  r.to = static_cast<std::uint32_t>(bounded(m, "to", r.from, max_code, rule));
  m.finish();
  return r;
}

namespace {

std::int64_t max_of(int bits) { return bits >= 63 ? INT64_MAX : (std::int64_t{1} << bits) - 1; }

const NocField& check_header_field(const NocSpec& s, std::string_view name, int width, const SourceLoc& where) {
  const NocField* f = s.header.field(name);
  if (!f) fail(fmt::format("the header has no field '{}'", name), where);
  if (width > 0 && f->width() != width)
    fail(fmt::format("header field {} is {} bits; a coordinate is pos_width = {}", name, f->width(), width), f->loc);
  return *f;
}

void validate(const NocSpec& s) {
  const SourceLoc at = s.section("flit");
  if (s.header.fields.empty()) fail("the flit has no header field", at);
  {
    BitOccupancy occ = occupancy(s.flit_bits(), kSpec);
    for (const auto& f : s.header.fields) occ.take(f.msb, f.lsb, "header field " + f.name, f.loc);
    const int hole = occ.first_free(s.payload_bits, s.flit_bits() - 1);
    if (hole >= 0) fail(fmt::format("header bit {} belongs to no field", hole), s.header.loc);
    for (const auto& f : s.header.fields)
      if (f.lsb < s.payload_bits)
        fail(fmt::format("header field {} reaches into the payload (bit {})", f.name, f.lsb), f.loc);
  }
  for (const auto& r : s.routing_fields) check_header_field(s, r, s.pos_width, s.section("routing_fields"));
  for (const char* f : {"src_x", "src_y"}) check_header_field(s, f, s.pos_width, at);
  for (const char* f : {"type", "txn", "last", "rsvd"}) check_header_field(s, f, 0, at);
  const int type_bits = s.header.field("type")->width();

  std::set<std::uint32_t> codes;
  for (const auto& t : s.types) {
    if (t.code > static_cast<std::uint32_t>(max_of(type_bits)))
      fail(fmt::format("type {}: code {:#x} does not fit {} bits", t.name, t.code, type_bits), t.loc);
    if (s.reserved_types.contains(t.code))
      fail(fmt::format("type {}: code {:#x} is in the reserved range", t.name, t.code), t.loc);
    if (!s.payload(t.payload)) fail(fmt::format("type {}: no payload layout '{}'", t.name, t.payload), t.loc);
    codes.insert(t.code);
  }
  if (s.reserved_types.to > static_cast<std::uint32_t>(max_of(type_bits)))
    fail(fmt::format("reserved_types reach past {} type bits", type_bits), s.section("reserved_types"));
  for (std::uint32_t c = 0; c <= static_cast<std::uint32_t>(max_of(type_bits)); ++c)
    if (!codes.count(c) && !s.reserved_types.contains(c))
      fail(fmt::format("type code {:#x} is neither a type nor reserved", c), s.section("reserved_types"));
  if (!s.type("ERROR")) fail("the types need ERROR (the answer to a malformed flit)", s.section("types"));
  if (!s.type("CU_INST")) fail("the types need CU_INST", s.section("types"));

  const NocLayout* error = s.payload("error");
  if (!error || !error->field("rule") || !error->field("header"))
    fail("the payloads need 'error' with the fields rule and header", s.section("payloads"));
  if (error->field("header")->width() != s.header_bits)
    fail(fmt::format("error.header is {} bits; the header is {}", error->field("header")->width(), s.header_bits),
         error->field("header")->loc);
  for (const auto& r : s.error_rules) {
    if (r.code == 0) fail(fmt::format("error rule {}: code 0 means no error", r.name), r.loc);
    if (r.code > static_cast<std::uint32_t>(max_of(error->field("rule")->width())))
      fail(fmt::format("error rule {}: code {} does not fit error.rule", r.name, r.code), r.loc);
  }
  const NocLayout* signal = s.payload("cu_signal");
  if (!signal || !signal->field("code"))
    fail("the payloads need 'cu_signal' with the field code", s.section("payloads"));
  for (const auto& g : s.signals) {
    if (g.code > static_cast<std::uint32_t>(max_of(signal->field("code")->width())))
      fail(fmt::format("signal {}: code {} does not fit cu_signal.code", g.name, g.code), g.loc);
    if (s.unit_defined_signals.contains(g.code))
      fail(fmt::format("signal {}: code {:#x} is in the unit-defined range", g.name, g.code), g.loc);
  }
  for (const auto& o : s.ownership) {
    if (o.type != "any" && !s.type(o.type)) fail(fmt::format("ownership: no type '{}'", o.type), o.loc);
    for (const auto& r : o.fields)
      if (!s.header.field(r.field)) fail(fmt::format("ownership of {}: no header field '{}'", o.type, r.field), o.loc);
  }

  int locals = 0;
  std::set<std::string> port_names;
  std::set<std::pair<int, int>> steps;
  for (const auto& p : s.ports) {
    if (!port_names.insert(p.name).second) fail(fmt::format("a second port named {}", p.name), p.loc);
    if (p.local) {
      ++locals;
      continue;
    }
    if (std::abs(p.dx) + std::abs(p.dy) != 1)
      fail(fmt::format("port {}: (dx, dy) = ({}, {}) is not a step to a neighbour", p.name, p.dx, p.dy), p.loc);
    if (!steps.insert({p.dx, p.dy}).second) fail(fmt::format("port {} repeats another port's step", p.name), p.loc);
  }
  if (locals != 1 || steps.size() != 4)
    fail("the router needs the four neighbour ports and one local port", s.section("ports"));
  if (s.routings.empty()) fail("no routing function", s.section("routings"));
  for (const char* p : {"NX", "NY", "DEPTH", "ROUTING"}) (void)s.require_parameter(p);
}


}  // namespace

const NocFlag* NocField::flag(std::string_view n) const { return by_name(flags, n); }

const NocSubfield* NocField::subfield(std::string_view n) const { return by_name(element, n); }

const NocSubfield* NocCode::detail_field(std::string_view n) const { return by_name(detail, n); }

const NocSubfield& NocCode::require_detail(std::string_view n) const {
  if (const NocSubfield* f = detail_field(n)) return *f;
  throw Error(std::string(kSpec), fmt::format("{} has no detail sub-field '{}'", name, n), loc);
}

std::uint64_t NocField::effective(std::uint64_t raw) const {
  if (raw == 0 && zero_means) return *zero_means;
  if (above_max && raw > *above_max) return above_means;
  return raw;
}

const NocField* NocLayout::field(std::string_view n) const { return by_name(fields, n); }

const NocCode* NocSpec::type(std::string_view n) const { return by_name(types, n); }

const NocCode* NocSpec::routing(std::string_view n) const { return by_name(routings, n); }

const NocCode* NocSpec::type_of(std::uint32_t code) const {
  for (const auto& t : types)
    if (t.code == code) return &t;
  return nullptr;
}

namespace {
template <typename T>
const T& require(const T* found, std::string_view what, std::string_view name, const std::string& path) {
  if (!found) fail(fmt::format("the spec has no {} '{}'", what, name), SourceLoc{path});
  return *found;
}
}  // namespace

const NocCode& NocSpec::require_type(std::string_view n) const { return require(type(n), "message type", n, path); }
const NocLayout* NocSpec::payload(std::string_view n) const { return by_name(payloads, n); }
const NocLayout& NocSpec::require_payload(std::string_view n) const {
  return require(payload(n), "payload layout", n, path);
}
const NocField& NocSpec::require_header(std::string_view n) const {
  return require(header.field(n), "header field", n, path);
}
const NocCode& NocSpec::require_error_rule(std::string_view n) const {
  return require(by_name(error_rules, n), "error rule", n, path);
}
const NocCode& NocSpec::require_signal(std::string_view n) const {
  return require(by_name(signals, n), "signal", n, path);
}
const NocParameter& NocSpec::require_parameter(std::string_view n) const {
  return require(by_name(parameters, n), "parameter", n, path);
}
const NocPort& NocSpec::require_port(std::string_view n) const { return require(by_name(ports, n), "port", n, path); }

int NocSpec::port_index(std::string_view n) const {
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (ports[i].name == n) return static_cast<int>(i);
  fail(fmt::format("the spec has no port '{}'", n), SourceLoc{path});
}

SourceLoc NocSpec::section(std::string_view key) const {
  const auto it = sections.find(key);
  return it == sections.end() ? SourceLoc{path} : it->second;
}

std::string noc_spec_path(const std::string& isa_spec_path) {
  return (std::filesystem::path(isa_spec_path).parent_path() / "noc.yaml").string();
}

NocSpec load_noc_spec_text(const std::string& text, const std::string& path) {
  try {
    const YAML::Node root = YAML::Load(text);
    YamlMap top(root, path, "the NoC spec");
    NocSpec s;
    s.path = path;
    s.sha256 = sha256_hex(text);
    s.name = top.str("name");
    (void)top.integer("version");
    for (const auto& kv : root) s.sections[kv.first.as<std::string>()] = loc_of(path, kv.first);

    YamlMap fm(top.node("flit"), path, "flit");
    s.header_bits = static_cast<int>(bounded(fm, "header_bits", 8, 64));
    s.payload_bits = static_cast<int>(bounded(fm, "payload_bits", 64, 448));  // a flit fits noc::Flit (512 bits)
    s.pos_width = static_cast<int>(bounded(fm, "pos_width", 1, 8));
    YAML::Node header_node = YAML::Node(YAML::NodeType::Map);
    header_node["fields"] = fm.node("header");
    s.header = read_noc_layout(header_node, path, s.flit_bits(), "header", kSpec);
    s.header.name = "header";
    s.header.loc = fm.loc("header");
    fm.finish();

    for (const auto& r : top.seq("routing_fields")) s.routing_fields.push_back(r.as<std::string>());
    s.types = read_noc_codes(top, "types", path, 255, kSpec, true);
    s.reserved_types = read_noc_range(top, "reserved_types", path, 255, kSpec);
    std::set<std::string> layout_names;
    for (const auto& n : top.seq("payloads")) {
      s.payloads.push_back(read_noc_layout(n, path, s.payload_bits, "payload", kSpec));
      if (!layout_names.insert(s.payloads.back().name).second)
        fail(fmt::format("a second payload named {}", s.payloads.back().name), s.payloads.back().loc);
    }
    s.cu_ctrl_ops = read_noc_codes(top, "cu_ctrl_ops", path, 255, kSpec);
    s.signals = read_noc_codes(top, "signals", path, 255, kSpec, false, true);
    s.unit_defined_signals = read_noc_range(top, "unit_defined_signals", path, 255, kSpec);
    std::set<int> indices;
    for (const auto& n : top.seq("cu_ctrl_registers")) {
      YamlMap rm(n, path, "a control register");
      NocRegister r;
      r.loc = rm.loc();
      r.name = rm.str("name");
      r.index = static_cast<int>(bounded(rm, "index", 0, 255));
      r.role = rm.str("role");
      YAML::Node fields = YAML::Node(YAML::NodeType::Map);
      fields["name"] = r.name;
      fields["fields"] = rm.node("fields");
      r.fields = read_noc_layout(fields, path, 64, "register", kSpec).fields;
      rm.finish();
      if (!indices.insert(r.index).second) fail(fmt::format("register {} reuses index {}", r.name, r.index), r.loc);
      s.cu_ctrl_registers.push_back(std::move(r));
    }
    YamlMap am(top.node("address_map"), path, "address_map");
    s.address_bits = static_cast<int>(bounded(am, "bits", 8, 64));
    YAML::Node amap = YAML::Node(YAML::NodeType::Map);
    amap["name"] = "address";
    amap["fields"] = am.node("fields");
    s.address_map = read_noc_layout(amap, path, s.address_bits, "address map", kSpec);
    am.finish();
    for (const auto& n : top.seq("ownership")) {
      YamlMap om(n, path, "an ownership entry");
      NocOwnership o;
      o.loc = om.loc();
      o.type = om.str("type");
      for (const auto& fn : om.seq("fields")) {
        YamlMap f(fn, path, "an ownership rule");
        o.fields.push_back({f.str("field"), f.str("reads"), f.str("rule")});
        f.finish();
      }
      om.finish();
      s.ownership.push_back(std::move(o));
    }
    s.error_rules = read_noc_codes(top, "error_rules", path, 255, kSpec);
    for (const auto& n : top.seq("ports")) {
      YamlMap pm(n, path, "a port");
      NocPort p;
      p.loc = pm.loc();
      p.name = pm.str("name");
      p.dx = static_cast<int>(bounded(pm, "dx", -1, 1));
      p.dy = static_cast<int>(bounded(pm, "dy", -1, 1));
      p.local = pm.boolean_or("local", false);
      p.role = pm.str("role");
      pm.finish();
      s.ports.push_back(std::move(p));
    }
    for (const auto& n : top.seq("routings")) {
      YamlMap rm(n, path, "a routing");
      NocCode r;
      r.loc = rm.loc();
      r.name = rm.str("name");
      r.role = rm.str("role");
      rm.finish();
      for (const auto& other : s.routings)
        if (other.name == r.name) fail(fmt::format("a second routing named {}", r.name), r.loc);
      s.routings.push_back(std::move(r));
    }
    for (const auto& n : top.seq("parameters")) {
      const Scope scope = [&s](std::string_view name) -> std::optional<std::int64_t> {
        if (name == "pos_width") return s.pos_width;
        return std::nullopt;
      };
      s.parameters.push_back(read_build_parameter(n, path, scope, {"routings", &s.routings}, kSpec));
      for (std::size_t i = 0; i + 1 < s.parameters.size(); ++i)
        if (s.parameters[i].name == s.parameters.back().name)
          fail(fmt::format("a second parameter named {}", s.parameters.back().name), s.parameters.back().loc);
    }
    top.finish();
    validate(s);
    return s;
  } catch (const YAML::Exception& e) {
    throw Error("noc.yaml", e.msg, SourceLoc{path, e.mark.line + 1, e.mark.column + 1});
  }
}

NocSpec load_noc_spec(const std::string& path) { return load_noc_spec_text(read_file(path, "noc.io"), path); }

std::int64_t NocParams::operator[](std::string_view name) const {
  const auto it = ints_.find(name);
  if (it == ints_.end()) throw Error("noc.param", fmt::format("no integer parameter '{}'", name));
  return it->second;
}

const std::string& NocParams::choice(std::string_view name) const {
  const auto it = choices_.find(name);
  if (it == choices_.end()) throw Error("noc.param", fmt::format("no choice parameter '{}'", name));
  return it->second;
}

std::vector<std::pair<std::string, std::string>> NocParams::listing() const { return order_; }

NocParams resolve_noc_params(const NocSpec& spec, const std::map<std::string, std::string>& overrides) {
  return resolve_build_params(spec.parameters, {"routings", &spec.routings}, spec.path, overrides, "the NoC");
}

NocParams resolve_build_params(const std::vector<NocParameter>& parameters, const ChoiceList& choices,
                               const std::string& path, const std::map<std::string, std::string>& overrides,
                               std::string_view what) {
  for (const auto& [name, value] : overrides) {
    if (!by_name(parameters, name))
      throw Error("noc.param", fmt::format("{} has no parameter '{}'", what, name), SourceLoc{path});
  }
  NocParams out;
  for (const auto& p : parameters) {
    const auto it = overrides.find(p.name);
    if (p.is_choice()) {
      std::string v = it == overrides.end() ? p.default_choice : it->second;
      std::string names;
      for (const auto& r : *choices.names) names += (names.empty() ? "" : ", ") + r.name;
      if (!by_name(*choices.names, v))
        throw Error("noc.param", fmt::format("{} '{}' is none of {}", p.name, v, names), p.loc);
      out.choices_[p.name] = v;
      out.order_.emplace_back(p.name, v);
      continue;
    }
    std::int64_t v = p.default_value;
    if (it != overrides.end()) {
      std::size_t used = 0;
      try {
        v = std::stoll(it->second, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != it->second.size())
        throw Error("noc.param", fmt::format("{} must be an integer, not '{}'", p.name, it->second), p.loc);
    }
    if (v < p.min || v > p.max)
      throw Error("noc.param",
                  fmt::format("{} = {} is outside its range {} .. {} ({})", p.name, v, p.min, p.max, p.role), p.loc);
    out.ints_[p.name] = v;
    out.order_.emplace_back(p.name, std::to_string(v));
  }
  return out;
}

NocParameter read_build_parameter(const YAML::Node& n, const std::string& file, const Scope& scope,
                                  const ChoiceList& choices, std::string_view rule) {
  YamlMap m(n, file, "a parameter");
  NocParameter p;
  p.loc = m.loc();
  p.name = m.str("name");
  p.role = m.str("role");
  auto fail_at = [&](const std::string& message, const SourceLoc& where) {
    throw Error(std::string(rule), message, where);
  };
  auto value = [&](const std::string& key) -> std::int64_t {
    const Expr e = m.expr(key);
    try {
      return e.eval(scope);
    } catch (const ExprError& err) {
      fail_at(fmt::format("parameter {}: {}: {}", p.name, key, err.what()), m.loc(key));
    }
    return 0;
  };
  if (m.has("choices")) {
    p.choices = m.str("choices");
    if (choices.names == nullptr || p.choices != choices.key)
      fail_at(fmt::format("parameter {}: choices must name a list of the spec ({}), not '{}'", p.name,
                          choices.names ? choices.key : "none here", p.choices),
              m.loc("choices"));
    p.default_choice = m.str("default");
    if (!by_name(*choices.names, p.default_choice))
      fail_at(fmt::format("parameter {}: default '{}' is none of {}", p.name, p.default_choice, p.choices),
              m.loc("default"));
  } else {
    p.default_value = value("default");
    p.min = value("min");
    p.max = value("max");
    if (p.min > p.max || p.default_value < p.min || p.default_value > p.max)
      fail_at(fmt::format("parameter {}: default {} is not within min {} .. max {}", p.name, p.default_value, p.min,
                          p.max),
              p.loc);
  }
  m.finish();
  return p;
}

}  // namespace tpugen
