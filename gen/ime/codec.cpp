#include "ime/codec.h"

#include <fmt/format.h>

#include <cctype>

namespace tpugen::ime {

namespace {

[[noreturn]] void bad(const std::string& message) { throw Error("ime.asm", message); }

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

/// "v12" -> 12; anything else, or past v31, is an error naming the operand.
std::uint32_t parse_vreg(const std::string& text, const std::string& mnemonic, const ImeOperand& o) {
  const bool digits = text.size() >= 2 && text.size() <= 3 && text[0] == 'v' &&
                      text.find_first_not_of("0123456789", 1) == std::string::npos;
  if (!digits)
    bad(fmt::format("{}: operand {} takes a vector register v0 .. v{}, not '{}'", mnemonic, o.name,
                    (1U << o.width) - 1, text));
  // The operand's width says how many registers it can name (5 bits: v0 .. v31; vsel's 1: v0, v1).
  const unsigned n = static_cast<unsigned>(std::stoul(text.substr(1)));
  const unsigned last = (1U << o.width) - 1;
  if (n > last && o.kind == ImeOperandKind::Vsel)
    bad(fmt::format("{}: operand {} selects v0 or v1, not v{}", mnemonic, o.name, n));
  if (n > last) bad(fmt::format("{}: operand {} names v{}; the registers are v0 .. v{}", mnemonic, o.name, n, last));
  if (o.kind == ImeOperandKind::VregEven && n % 2 != 0)
    bad(fmt::format("{}: operand {} must be an even register (its field holds bits [4:1]), not v{}", mnemonic, o.name,
                    n));
  return n;
}

std::uint32_t parse_uimm(const std::string& text, const std::string& mnemonic, const ImeOperand& o) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    bad(fmt::format("{}: operand {} takes an unsigned integer, not '{}'", mnemonic, o.name, text));
  const unsigned long v = std::stoul(text);
  if (v >> o.width != 0)
    bad(fmt::format("{}: {} = {} does not fit its {} bit(s) (0 .. {})", mnemonic, o.name, v, o.width,
                    (1UL << o.width) - 1));
  return static_cast<std::uint32_t>(v);
}

}  // namespace

std::uint32_t Decoded::operand(std::string_view name) const {
  for (const auto& [n, v] : operands)
    if (n == name) return v;
  throw Error("ime.internal", fmt::format("{} has no operand {}", instr ? instr->label() : "?", name));
}

std::uint32_t encode(const ImeSpec& spec, const Decoded& d) {
  const ImeFormat& f = spec.format_of(*d.instr);
  if (d.operands.size() != f.operands.size())
    throw Error("ime.range",
                fmt::format("{} takes {} operand(s), not {}", d.instr->label(), f.operands.size(), d.operands.size()));
  std::uint32_t word = d.instr->match;
  for (const auto& o : f.operands) word = f.with_operand(word, o.name, d.operand(o.name));
  return word;
}

std::optional<Decoded> decode(const ImeSpec& spec, std::uint32_t word) {
  const ImeInstruction* i = spec.match(word);
  if (!i) return std::nullopt;
  const ImeFormat& f = spec.format_of(*i);
  Decoded d{i, {}};
  for (const auto& o : f.operands) d.operands.emplace_back(o.name, f.operand_value(word, o.name));
  return d;
}

std::string disassemble(const ImeSpec& spec, const Decoded& d) {
  const ImeFormat& f = spec.format_of(*d.instr);
  std::string text = d.instr->mnemonic;
  for (std::size_t k = 0; k < f.operands.size(); ++k) {
    const ImeOperand& o = f.operands[k];
    text += fmt::format("{}{}{}", k == 0 ? " " : ", ", o.kind == ImeOperandKind::Uimm ? "" : "v", d.operand(o.name));
  }
  if (!d.instr->type.empty()) text += ", " + d.instr->type;
  return text;
}

Decoded parse(const ImeSpec& spec, std::string_view line) {
  const std::string text = trim(line);
  const std::size_t space = text.find_first_of(" \t");
  const std::string mnemonic = text.substr(0, space);
  std::vector<std::string> args;
  if (space != std::string::npos) {
    std::string rest = text.substr(space);
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = rest.find(',', start);
      args.push_back(trim(std::string_view(rest).substr(start, comma == std::string::npos ? comma : comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
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
  Decoded d{instr, {}};
  for (std::size_t k = 0; k < f.operands.size(); ++k) {
    const ImeOperand& o = f.operands[k];
    const std::uint32_t v =
        o.kind == ImeOperandKind::Uimm ? parse_uimm(args[k], mnemonic, o) : parse_vreg(args[k], mnemonic, o);
    d.operands.emplace_back(o.name, v);
  }
  return d;
}

}  // namespace tpugen::ime
