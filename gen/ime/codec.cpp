#include "ime/codec.h"

#include <fmt/format.h>

#include <cctype>

#include "util/bits.h"
#include "util/text.h"

namespace tpugen::ime {

namespace {

[[noreturn]] void bad(const std::string& message) { throw Error("ime.asm", message); }


/// "v12" -> 12; anything else, or past the operand's last register, is an error naming the operand.
std::uint32_t parse_vreg(const std::string& text, const std::string& mnemonic, const ImeOperand& o) {
  const bool digits = text.size() >= 2 && text.size() <= 3 && text[0] == 'v' &&
                      text.find_first_not_of("0123456789", 1) == std::string::npos;
  if (!digits)
    bad(fmt::format("{}: operand {} takes a vector register v0 .. v{}, not '{}'", mnemonic, o.name, low_mask(o.width),
                    text));
  // The operand's width says how many registers it can name (5 bits: v0 .. v31; vsel's 1: v0, v1).
  const unsigned n = static_cast<unsigned>(std::stoul(text.substr(1)));
  const auto last = static_cast<unsigned>(low_mask(o.width));
  if (n > last && o.kind == ImeOperandKind::Vsel)
    bad(fmt::format("{}: operand {} selects v0 or v1, not v{}", mnemonic, o.name, n));
  if (n > last) bad(fmt::format("{}: operand {} names v{}; the registers are v0 .. v{}", mnemonic, o.name, n, last));
  if (o.kind == ImeOperandKind::VregEven && n % 2 != 0)
    bad(fmt::format("{}: operand {} must be an even register (its field holds bits [4:1]), not v{}", mnemonic, o.name,
                    n));
  return n;
}

/// An immediate's expression, evaluated over the symbols.
std::int64_t evaluate(const std::string& text, const std::string& mnemonic, const ImeOperand& o, const Scope& symbols) {
  if (text.empty()) bad(fmt::format("{}: operand {} is empty", mnemonic, o.name));
  try {
    return Expr::parse(text).eval(symbols ? symbols : Scope([](std::string_view) { return std::nullopt; }));
  } catch (const ExprError& e) {
    bad(fmt::format("{}: operand {} '{}': {}", mnemonic, o.name, text, e.what()));
  }
}

std::uint32_t parse_uimm(const std::string& text, const std::string& mnemonic, const ImeOperand& o,
                         const Scope& symbols) {
  const std::int64_t v = evaluate(text, mnemonic, o, symbols);
  if (v < 0 || static_cast<std::uint64_t>(v) > low_mask(o.width))
    bad(fmt::format("{}: {} = {} does not fit its {} bit(s) (0 .. {})", mnemonic, o.name, v, o.width, low_mask(o.width)));
  return static_cast<std::uint32_t>(v);
}

std::uint32_t parse_simm(const std::string& text, const std::string& mnemonic, const ImeOperand& o,
                         const Scope& symbols) {
  const std::int64_t v = evaluate(text, mnemonic, o, symbols);
  const std::int64_t lo = -(std::int64_t{1} << (o.width - 1)), hi = (std::int64_t{1} << (o.width - 1)) - 1;
  if (v < lo || v > hi)
    bad(fmt::format("{}: {} = {} does not fit its {} signed bits ({} .. {})", mnemonic, o.name, v, o.width, lo, hi));
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) & low_mask(o.width));
}

std::uint32_t parse_xreg(const ImeHost& h, const std::string& text, const std::string& mnemonic, const ImeOperand& o) {
  if (const auto r = h.xreg(text)) return static_cast<std::uint32_t>(*r);
  bad(fmt::format("{}: operand {} takes a scalar register (x0 .. x31 or an ABI name: zero, ra, sp, ..., t6), not '{}'",
                  mnemonic, o.name, text));
}

/// `(a0)`: the register holding a load's or store's address.
std::uint32_t parse_xreg_mem(const ImeHost& h, const std::string& text, const std::string& mnemonic,
                             const ImeOperand& o) {
  if (text.size() < 3 || text.front() != '(' || text.back() != ')')
    bad(fmt::format("{}: operand {} is the address register in parentheses, as `(a0)`, not '{}'", mnemonic, o.name,
                    text));
  return parse_xreg(h, trim(std::string_view(text).substr(1, text.size() - 2)), mnemonic, o);
}

std::uint32_t parse_csr(const ImeHost& h, const std::string& text, const std::string& mnemonic, const ImeOperand& o,
                        const Scope& symbols) {
  if (const ImeCsr* c = h.csr(text)) return c->number;
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) return parse_uimm(text, mnemonic, o, symbols);
  std::string names;
  for (const auto& c : h.csrs) names += (names.empty() ? "" : ", ") + c.name;
  bad(fmt::format("{}: operand {} takes a CSR ({} or a number), not '{}'", mnemonic, o.name, names, text));
}

/// `e8, m1, ta, ma` (each vtype field at most once; a field left out is
/// code 0: m1, tu, mu, as the assemblers have it) or a number.
std::uint32_t parse_vtype(const ImeHost& h, const std::vector<std::string>& parts, const std::string& mnemonic,
                          const ImeOperand& o, const Scope& symbols) {
  if (parts.size() == 1 && !parts[0].empty() && std::isdigit(static_cast<unsigned char>(parts[0][0])))
    return parse_uimm(parts[0], mnemonic, o, symbols);
  std::uint32_t v = 0;
  std::vector<const ImeVtypeField*> given;
  for (const auto& part : parts) {
    const ImeVtypeField* field = nullptr;
    const ImeVtypeValue* value = nullptr;
    for (const auto& f : h.vtype)
      for (const auto& x : f.values)
        if (x.name == part) field = &f, value = &x;
    if (!field) {
      std::string names;
      for (const auto& f : h.vtype) {
        names += fmt::format("{}{}:", names.empty() ? "" : "; ", f.name);
        for (const auto& x : f.values) names += " " + x.name;
      }
      bad(fmt::format("{}: '{}' is no vtype value ({})", mnemonic, part, names));
    }
    for (const auto* g : given)
      if (g == field) bad(fmt::format("{}: vtype gives {} twice", mnemonic, field->name));
    given.push_back(field);
    v |= value->code << field->lsb;
  }
  if (v > low_mask(o.width)) bad(fmt::format("{}: vtype {:#x} does not fit its {} bits", mnemonic, v, o.width));
  return v;
}

/// A vtype immediate's text: every field by name when each has a known code
/// and no reserved bit is set, else the number.
std::string vtype_text(const ImeHost& h, std::uint32_t v) {
  std::string text;
  for (const auto& f : h.vtype) {
    const ImeVtypeValue* x = f.value_of(v);
    if (!x) return fmt::format("{:#x}", v);
    text += (text.empty() ? "" : ", ") + x->name;
  }
  return h.vtype_reserved_bits(v) != 0 ? fmt::format("{:#x}", v) : text;
}

template <class Instr>
const ImeFormat& format_of(const ImeSpec& spec, const Instr& i) {
  if constexpr (std::is_same_v<Instr, ImeInstruction>)
    return spec.format_of(i);
  else
    return spec.host.format_of(i);
}

template <class Instr>
std::uint32_t encode_with(const ImeSpec& spec, const DecodedOf<Instr>& d) {
  const ImeFormat& f = format_of(spec, *d.instr);
  if (d.operands.size() != f.operands.size())
    throw Error("ime.range",
                fmt::format("{} takes {} operand(s), not {}", d.instr->label(), f.operands.size(), d.operands.size()));
  std::uint32_t word = d.instr->match;
  for (const auto& o : f.operands) word = f.with_operand(word, o.name, d.operand(o.name));
  return word;
}

template <class Instr>
DecodedOf<Instr> decode_with(const ImeFormat& f, const Instr* i, std::uint32_t word) {
  DecodedOf<Instr> d{i, {}};
  for (const auto& o : f.operands) d.operands.emplace_back(o.name, f.operand_value(word, o.name));
  return d;
}

std::string operand_text(const ImeSpec& spec, const ImeOperand& o, std::uint32_t v) {
  switch (o.kind) {
    case ImeOperandKind::Vreg:
    case ImeOperandKind::VregEven:
    case ImeOperandKind::Vsel:
      return fmt::format("v{}", v);
    case ImeOperandKind::Xreg:
      return spec.host.xregs.at(v);
    case ImeOperandKind::XregMem:
      return fmt::format("({})", spec.host.xregs.at(v));
    case ImeOperandKind::Simm:
      return fmt::format("{}", sign_extend(v, o.width));
    case ImeOperandKind::Csr:
      if (const ImeCsr* c = spec.host.csr(v)) return c->name;
      return fmt::format("{:#x}", v);
    case ImeOperandKind::Vtype:
      return vtype_text(spec.host, v);
    case ImeOperandKind::None:
    case ImeOperandKind::Uimm:
      break;
  }
  return fmt::format("{}", v);
}

/// The operands of `f` from their texts (a vtype operand, last, takes the rest).
std::vector<std::pair<std::string, std::uint32_t>> parse_operands(const ImeSpec& spec, const ImeFormat& f,
                                                                  std::vector<std::string> args,
                                                                  const std::string& mnemonic, const Scope& symbols) {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  for (std::size_t k = 0; k < f.operands.size(); ++k) {
    const ImeOperand& o = f.operands[k];
    const std::string& a = args[k];
    std::uint32_t v = 0;
    switch (o.kind) {
      case ImeOperandKind::Vreg:
      case ImeOperandKind::VregEven:
      case ImeOperandKind::Vsel:
        v = parse_vreg(a, mnemonic, o);
        break;
      case ImeOperandKind::Uimm:
        v = parse_uimm(a, mnemonic, o, symbols);
        break;
      case ImeOperandKind::Simm:
        v = parse_simm(a, mnemonic, o, symbols);
        break;
      case ImeOperandKind::Xreg:
        v = parse_xreg(spec.host, a, mnemonic, o);
        break;
      case ImeOperandKind::XregMem:
        v = parse_xreg_mem(spec.host, a, mnemonic, o);
        break;
      case ImeOperandKind::Csr:
        v = parse_csr(spec.host, a, mnemonic, o, symbols);
        break;
      case ImeOperandKind::Vtype:
        v = parse_vtype(spec.host, std::vector<std::string>(args.begin() + static_cast<std::ptrdiff_t>(k), args.end()),
                        mnemonic, o, symbols);
        break;
      case ImeOperandKind::None:
        throw Error("ime.internal", fmt::format("format {} has an operand of no kind", f.name));
    }
    out.emplace_back(o.name, v);
  }
  return out;
}

}  // namespace

template <class Instr>
std::uint32_t DecodedOf<Instr>::operand(std::string_view name) const {
  for (const auto& [n, v] : operands)
    if (n == name) return v;
  throw Error("ime.internal", fmt::format("{} has no operand {}", instr ? instr->label() : "?", name));
}
template struct DecodedOf<ImeInstruction>;
template struct DecodedOf<HostInstruction>;

std::uint32_t encode(const ImeSpec& spec, const Decoded& d) { return encode_with(spec, d); }
std::uint32_t encode(const ImeSpec& spec, const HostDecoded& d) { return encode_with(spec, d); }

std::optional<Decoded> decode(const ImeSpec& spec, std::uint32_t word) {
  const ImeInstruction* i = spec.match(word);
  if (!i) return std::nullopt;
  return decode_with(spec.format_of(*i), i, word);
}

std::optional<HostDecoded> decode_host(const ImeSpec& spec, std::uint32_t word) {
  const HostInstruction* i = spec.host.match(word);
  if (!i) return std::nullopt;
  return decode_with(spec.host.format_of(*i), i, word);
}

std::string disassemble(const ImeSpec& spec, const Decoded& d) {
  const ImeFormat& f = spec.format_of(*d.instr);
  std::string text = d.instr->mnemonic;
  for (std::size_t k = 0; k < f.operands.size(); ++k)
    text += (k == 0 ? " " : ", ") + operand_text(spec, f.operands[k], d.operand(f.operands[k].name));
  if (!d.instr->type.empty()) text += ", " + d.instr->type;
  return text;
}

std::string disassemble(const ImeSpec& spec, const HostDecoded& d) {
  const ImeFormat& f = spec.host.format_of(*d.instr);
  std::string text = d.instr->mnemonic;
  for (std::size_t k = 0; k < f.operands.size(); ++k)
    text += (k == 0 ? " " : ", ") + operand_text(spec, f.operands[k], d.operand(f.operands[k].name));
  return text;
}

Statement split_statement(std::string_view line) {
  const std::string text = trim(line);
  const std::size_t space = text.find_first_of(" \t");
  Statement st{text.substr(0, space), {}};
  if (space == std::string::npos) return st;
  const std::string rest = text.substr(space);
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = rest.find(',', start);
    st.args.push_back(trim(std::string_view(rest).substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return st;
}

Decoded parse(const ImeSpec& spec, std::string_view line, const Scope& symbols) {
  Statement st = split_statement(line);
  const std::string& mnemonic = st.mnemonic;
  std::vector<std::string>& args = st.args;
  std::vector<const ImeInstruction*> forms;
  for (const auto& i : spec.instructions)
    if (i.mnemonic == mnemonic) forms.push_back(&i);
  if (forms.empty()) bad(fmt::format("unknown mnemonic '{}'", mnemonic));
  const ImeFormat& f = spec.format_of(*forms.front());
  const bool typed = !forms.front()->type.empty();
  std::string type;
  if (typed && args.size() == f.operands.size() + 1) {
    type = args.back();
    args.pop_back();
  }
  if (args.size() != f.operands.size())
    bad(fmt::format("{} takes {} operand(s){}, not {}", mnemonic, f.operands.size(), typed ? " and a type" : "",
                    args.size() + (type.empty() ? 0 : 1)));
  if (typed && type.empty())
    for (const auto& dt : spec.data_types)
      if (dt.is_default) type = dt.name;
  const ImeInstruction* instr = nullptr;
  for (const auto* i : forms)
    if (i->type == type) instr = i;
  if (!instr) {
    std::string have;
    for (const auto* i : forms) have += (have.empty() ? "" : ", ") + i->type;
    bad(typed ? fmt::format("{} has no {} form (its types: {})", mnemonic, type, have)
              : fmt::format("{} takes no type operand", mnemonic));
  }
  return Decoded{instr, parse_operands(spec, f, args, mnemonic, symbols)};
}

HostDecoded parse_host(const ImeSpec& spec, std::string_view line, const Scope& symbols) {
  const Statement st = split_statement(line);
  const HostInstruction* instr = spec.host.instruction(st.mnemonic);
  if (!instr) bad(fmt::format("unknown mnemonic '{}'", st.mnemonic));
  const ImeFormat& f = spec.host.format_of(*instr);
  const bool rest = !f.operands.empty() && f.operands.back().kind == ImeOperandKind::Vtype;
  if (rest ? st.args.size() < f.operands.size() : st.args.size() != f.operands.size())
    bad(fmt::format("{} takes {}{} operand(s), not {}", st.mnemonic, rest ? "at least " : "", f.operands.size(),
                    st.args.size()));
  return HostDecoded{instr, parse_operands(spec, f, st.args, st.mnemonic, symbols)};
}

}  // namespace tpugen::ime
