// The host section of spec/ime.yaml: the scalar and RVV instructions a
// program uses the extension with, read strictly like the smt.* ones.
#include <fmt/format.h>

#include <set>

#include "spec/ime_spec.h"
#include "spec/ime_spec_read.h"
#include "util/bits.h"

namespace tpugen {

namespace ime_read {

namespace {

/// "8", "1/2": a value's num / den, both positive.
std::pair<int, int> read_ratio(const std::string& text, const std::string& what, const SourceLoc& where) {
  const std::size_t slash = text.find('/');
  const std::string num = text.substr(0, slash), den = slash == std::string::npos ? "1" : text.substr(slash + 1);
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 6 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(num) || !digits(den) || std::stoi(den) == 0)
    fail(fmt::format("{}: value '{}' is not an integer or a fraction n/d", what, text), where);
  return {std::stoi(num), std::stoi(den)};
}

ImeVtypeField read_vtype_field(const YAML::Node& n, const ImeSpec& s) {
  YamlMap m(n, s.path, "a vtype field");
  ImeVtypeField f;
  f.loc = m.loc();
  f.name = m.str("name");
  const std::string what = fmt::format("vtype field {}", f.name);
  std::tie(f.msb, f.lsb) = read_bits(m, "bits", 11, what);
  for (const auto& vn : m.seq("values")) {
    YamlMap vm(vn, s.path, "a vtype value");
    ImeVtypeValue v;
    v.name = vm.str("name");
    v.code =
        read_bit_string(vm.str("code"), f.msb - f.lsb + 1, fmt::format("{} value {}", what, v.name), vm.loc("code"));
    std::tie(v.num, v.den) = read_ratio(vm.str("value"), fmt::format("{} value {}", what, v.name), vm.loc("value"));
    vm.finish();
    for (const auto& o : f.values)
      if (o.name == v.name || o.code == v.code)
        fail(fmt::format("{}: values {} and {} share a name or a code", what, o.name, v.name), vm.loc());
    f.values.push_back(v);
  }
  m.finish();
  return f;
}

/// A CSR; its fields' bits are bits of an XLEN-wide register.
ImeCsr read_csr(const YAML::Node& n, const std::string& path, int xlen) {
  YamlMap m(n, path, "a CSR");
  ImeCsr c;
  c.loc = m.loc();
  c.name = m.str("name");
  c.role = m.str("role");
  c.number = static_cast<std::uint32_t>(m.integer_in("number", 0, 0xFFF, kSpec));
  c.fields = read_named<ImeCsrField>(m, "fields", "CSR field", [&](const YAML::Node& fn) {
    YamlMap fm(fn, path, "a CSR field");
    ImeCsrField f;
    f.loc = fm.loc();
    f.name = fm.str("name");
    f.role = fm.str("role");
    std::tie(f.msb, f.lsb) = read_bits(fm, "bits", xlen, fmt::format("CSR {} field {}", c.name, f.name));
    fm.finish();
    return f;
  });
  m.finish();
  return c;
}

HostInstruction read_instruction(const YAML::Node& n, const ImeSpec& s, const ImeHost& h) {
  YamlMap m(n, s.path, "a host instruction");
  HostInstruction in;
  in.loc = m.loc();
  in.mnemonic = m.str("mnemonic");
  in.format = m.str("format");
  in.operation = m.str("operation");
  if (m.has("eew")) {
    in.eew = static_cast<int>(m.integer_in("eew", 8, h.elen, kSpec));
    if ((in.eew & (in.eew - 1)) != 0)
      fail(fmt::format("{}: eew {} is not a power of two", in.mnemonic, in.eew), in.loc);
  }
  const ImeFormat* f = by_name(h.formats, in.format);
  if (!f) fail(fmt::format("{}: format {} is not a host format", in.mnemonic, in.format), m.loc("format"));
  const FixedFields fixed = read_fixed(m.node("fixed"), s.path, *f, in.mnemonic, "");
  in.fixed = fixed.values;
  in.match = fixed.match;
  in.mask = fixed.mask;
  m.finish();
  return in;
}

HostPseudo read_pseudo(const YAML::Node& n, const ImeSpec& s, const ImeHost& h) {
  YamlMap m(n, s.path, "a pseudo-instruction");
  HostPseudo p;
  p.loc = m.loc();
  p.mnemonic = m.str("mnemonic");
  for (const auto& x : m.seq("syntax")) p.syntax.push_back(x.as<std::string>());
  p.expansion = m.str("expansion");
  m.finish();
  if (h.instruction(p.mnemonic))
    fail(fmt::format("pseudo-instruction {} has an instruction's name", p.mnemonic), p.loc);
  if (p.expansion != "materialise") {
    const std::string target = p.expansion.substr(0, p.expansion.find(' '));
    if (!h.instruction(target))
      fail(fmt::format("pseudo-instruction {}: its expansion's {} is not a host instruction", p.mnemonic, target),
           p.loc);
  }
  return p;
}

}  // namespace

ImeHost read_host(const YAML::Node& n, const ImeSpec& s) {
  YamlMap m(n, s.path, "the host");
  ImeHost h;
  h.xlen = static_cast<int>(m.integer_in("xlen", 64, 64, kSpec));
  h.elen = static_cast<int>(m.integer_in("elen", 8, 64, kSpec));
  for (const auto& x : m.seq("xregs")) h.xregs.push_back(x.as<std::string>());
  if (h.xregs.size() != 32) fail(fmt::format("host xregs: {} names, not 32", h.xregs.size()), m.loc("xregs"));
  for (const auto& kv : m.node("xreg_aliases")) {
    const std::string alias = kv.first.as<std::string>(), of = kv.second.as<std::string>();
    const auto r = h.xreg(of);
    if (!r || h.xreg(alias))
      fail(fmt::format("host xreg_aliases: {} -> {} is not a new name of a register", alias, of),
           loc_of(s.path, kv.first));
    h.xreg_aliases.emplace_back(alias, *r);
  }
  for (const auto& v : m.seq("vtype")) {
    ImeVtypeField f = read_vtype_field(v, s);
    for (const auto& o : h.vtype)
      if (o.name == f.name || (o.lsb <= f.msb && f.lsb <= o.msb))
        fail(fmt::format("vtype field {} overlaps or repeats {}", f.name, o.name), f.loc);
    h.vtype.push_back(f);
  }
  for (const char* need : {"vlmul", "vsew"})
    if (!h.vtype_field(need)) fail(fmt::format("host vtype: needs a field {}", need), m.loc("vtype"));
  h.csrs = read_named<ImeCsr>(m, "csrs", "CSR", [&](const YAML::Node& cn) { return read_csr(cn, s.path, h.xlen); });
  for (std::size_t i = 0; i < h.csrs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (h.csrs[i].number == h.csrs[j].number)
        fail(fmt::format("CSR {} has {}'s number", h.csrs[i].name, h.csrs[j].name), h.csrs[i].loc);
  h.rules = read_named<ImeRule>(m, "rules", "host rule",
                                [&](const YAML::Node& rn) { return read_name_role<ImeRule>(rn, s.path, "a rule"); });
  h.formats =
      read_named<ImeFormat>(m, "formats", "host format", [&](const YAML::Node& fn) { return read_format(fn, s); });
  for (const auto& f : h.formats)
    if (by_name(s.formats, f.name)) fail(fmt::format("host format {} has an smt.* format's name", f.name), f.loc);
  for (const auto& in : m.seq("instructions")) {
    HostInstruction i = read_instruction(in, s, h);
    if (h.instruction(i.mnemonic)) fail(fmt::format("host instruction {} is listed twice", i.mnemonic), i.loc);
    for (const auto& o : h.instructions)
      if (((i.match ^ o.match) & i.mask & o.mask) == 0)
        fail(fmt::format("{} (MATCH {:08X} MASK {:08X}) overlaps {}: a word would decode as both", i.mnemonic, i.match,
                         i.mask, o.mnemonic),
             i.loc);
    for (const auto& o : s.instructions)
      if (((i.match ^ o.match) & i.mask & o.mask) == 0)
        fail(fmt::format("{} (MATCH {:08X}) overlaps {}: a word would decode as both", i.mnemonic, i.match, o.label()),
             i.loc);
    h.instructions.push_back(i);
  }
  for (const auto& pn : m.seq("pseudo_instructions")) {
    HostPseudo p = read_pseudo(pn, s, h);
    for (const auto& o : h.pseudo_instructions)
      if (o.mnemonic == p.mnemonic) fail(fmt::format("pseudo-instruction {} is listed twice", p.mnemonic), p.loc);
    h.pseudo_instructions.push_back(p);
  }
  m.finish();
  return h;
}

}  // namespace ime_read

const ImeVtypeValue* ImeVtypeField::value_of(std::uint32_t vtypei) const {
  const std::uint32_t c = code_of(vtypei);
  for (const auto& v : values)
    if (v.code == c) return &v;
  return nullptr;
}

const ImeCsrField* ImeCsr::field(std::string_view n) const { return by_name(fields, n); }

const ImeFormat& ImeHost::format_of(const HostInstruction& i) const {
  if (const ImeFormat* f = by_name(formats, i.format)) return *f;
  throw Error("ime.internal", fmt::format("{} names format {}, which is gone", i.mnemonic, i.format));
}

const HostInstruction* ImeHost::match(std::uint32_t word) const { return ime_read::by_match(instructions, word); }

const HostInstruction* ImeHost::instruction(std::string_view mnemonic) const {
  for (const auto& i : instructions)
    if (i.mnemonic == mnemonic) return &i;
  return nullptr;
}

std::optional<int> ImeHost::xreg(std::string_view n) const {
  for (std::size_t r = 0; r < xregs.size(); ++r)
    if (xregs[r] == n) return static_cast<int>(r);
  for (const auto& [alias, r] : xreg_aliases)
    if (alias == n) return r;
  if (n.size() >= 2 && n.size() <= 3 && n[0] == 'x' && n.substr(1).find_first_not_of("0123456789") == n.npos &&
      (n.size() == 2 || n[1] != '0')) {
    const int r = std::stoi(std::string(n.substr(1)));
    if (r < 32) return r;
  }
  return std::nullopt;
}

const ImeCsr* ImeHost::csr(std::string_view n) const { return by_name(csrs, n); }

const ImeCsr* ImeHost::csr(std::uint32_t number) const {
  for (const auto& c : csrs)
    if (c.number == number) return &c;
  return nullptr;
}

const ImeVtypeField* ImeHost::vtype_field(std::string_view n) const { return by_name(vtype, n); }

std::uint32_t ImeHost::vtype_reserved_bits(std::uint32_t vtypei) const {
  std::uint64_t v = vtypei;
  for (const auto& f : vtype) v &= ~(low_mask(f.msb - f.lsb + 1) << f.lsb);
  return static_cast<std::uint32_t>(v);
}

}  // namespace tpugen
