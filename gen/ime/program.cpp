#include "ime/program.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <map>

#include "ime/codec.h"
#include "util/bits.h"
#include "util/file_io.h"
#include "util/text.h"

namespace tpugen::ime {

namespace {

/// The code part of a line: everything before `#` or `//`.
std::string_view strip_comment(std::string_view line) {
  const std::size_t hash = line.find('#'), slashes = line.find("//");
  return line.substr(0, std::min(hash, slashes));
}

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

/// A `label:` at the start of `code` (leading white space skipped): how
/// many characters it takes, or 0.
std::size_t label_length(std::string_view code) {
  std::size_t i = 0;
  while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
  const std::size_t start = i;
  if (i == code.size() || std::isdigit(static_cast<unsigned char>(code[i]))) return 0;
  while (i < code.size() && is_ident_char(code[i])) ++i;
  return i > start && i < code.size() && code[i] == ':' ? i + 1 : 0;
}

bool fits_signed(std::int64_t v, int bits) {
  return v >= -(std::int64_t{1} << (bits - 1)) && v < (std::int64_t{1} << (bits - 1));
}

/// One step of li's sequence: an operation and its immediate.
struct Step {
  const char* op;
  std::int64_t imm;
};

/// LLVM's RISCVMatInt (generateInstSeqImpl) for RV64I without Zba/Zbb/Zbs:
/// a 32-bit value as lui + addi(w), a wider one as the sequence for its
/// upper part shifted left, then the low 12 bits added.
void materialise_steps(std::int64_t v, std::vector<Step>& out) {
  if (fits_signed(v, 32)) {
    const std::int64_t hi20 = ((v + 0x800) >> 12) & 0xFFFFF, lo12 = sign_extend(static_cast<std::uint64_t>(v), 12);
    if (hi20 != 0) out.push_back({"lui", hi20});
    if (lo12 != 0 || hi20 == 0) out.push_back({hi20 != 0 ? "addiw" : "addi", lo12});
    return;
  }
  const std::int64_t lo12 = sign_extend(static_cast<std::uint64_t>(v), 12);
  std::uint64_t rest = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(lo12);
  int shift = 0;
  if (!fits_signed(static_cast<std::int64_t>(rest), 32)) {
    shift = std::countr_zero(rest);
    rest = static_cast<std::uint64_t>(static_cast<std::int64_t>(rest) >> shift);
    // A shift past 12 leaves room for lui's zero low bits.
    if (shift > 12 && !fits_signed(static_cast<std::int64_t>(rest), 12) &&
        fits_signed(static_cast<std::int64_t>(rest << 12), 32)) {
      shift -= 12;
      rest <<= 12;
    }
  }
  materialise_steps(static_cast<std::int64_t>(rest), out);
  if (shift != 0) out.push_back({"slli", shift});
  if (lo12 != 0) out.push_back({"addi", lo12});
}

class Assembler {
 public:
  Assembler(const ImeSpec& spec, std::string source) : spec_(spec) { program_.source = std::move(source); }

  Program run(std::string_view text) {
    const auto lines = split_lines(text);
    for (std::size_t n = 0; n < lines.size(); ++n) {
      line_ = static_cast<int>(n + 1);
      std::string_view code = strip_comment(lines[n]);
      const std::size_t label = label_length(code);
      code.remove_prefix(label);
      std::size_t col = label;
      while (col - label < code.size() && std::isspace(static_cast<unsigned char>(code[col - label]))) ++col;
      column_ = static_cast<int>(col + 1);
      const std::string stmt = trim(code);
      if (stmt.empty()) continue;
      try {
        statement(stmt);
      } catch (const Error& e) {
        if (e.where().line != 0) throw;
        throw Error(e.rule() == "ime.range" ? "ime.asm" : e.rule(), e.message(),
                    SourceLoc{program_.source, line_, column_});
      }
    }
    return std::move(program_);
  }

 private:
  void emit(std::uint32_t word, const std::string& text) { program_.words.push_back({word, line_, text}); }

  [[nodiscard]] Scope symbols() const {
    return [this](std::string_view name) -> std::optional<std::int64_t> {
      const auto it = symbols_.find(std::string(name));
      if (it == symbols_.end()) return std::nullopt;
      return it->second.first;
    };
  }

  std::int64_t evaluate(const std::string& text, const std::string& what) const {
    try {
      return Expr::parse(text).eval(symbols());
    } catch (const ExprError& e) {
      throw Error("ime.asm", fmt::format("{} '{}': {}", what, text, e.what()));
    }
  }

  /// li's value: a literal, signed or not, from -2^63 to 2^64 - 1 (taken mod
  /// 2^64, as GNU as does: 18446744073709551615 is -1), or an expression.
  std::int64_t li_value(const std::string& text, const std::string& what) const {
    std::string_view t = text;
    const bool negative = !t.empty() && t[0] == '-';
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    const std::string_view digits = hex ? t.substr(2) : t;
    const std::string_view allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
    if (digits.empty() || digits.size() > 20 || digits.find_first_not_of(allowed) != std::string_view::npos)
      return evaluate(text, what);
    std::uint64_t v = 0;
    bool over = false;
    for (const char c : digits) {
      const auto d = static_cast<std::uint64_t>(std::isdigit(static_cast<unsigned char>(c))
                                                    ? c - '0'
                                                    : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
      over = over || __builtin_mul_overflow(v, hex ? 16U : 10U, &v) || __builtin_add_overflow(v, d, &v);
    }
    if (over || (negative && v > (std::uint64_t{1} << 63)))
      throw Error("ime.asm", fmt::format("{} {}: the value is outside -2^63 .. 2^64 - 1", what, text));
    const auto bits = static_cast<std::uint64_t>(v);
    return static_cast<std::int64_t>(negative ? ~bits + 1 : bits);
  }

  void statement(const std::string& stmt) {
    const Statement st = split_statement(stmt);
    if (st.mnemonic == ".equ" || st.mnemonic == ".set") return define(st);
    if (st.mnemonic == ".word") {
      for (const auto& a : st.args) {
        const std::int64_t v = evaluate(a, ".word");
        if (v < -(std::int64_t{1} << 31) || v > 0xFFFFFFFFLL)
          throw Error("ime.asm", fmt::format(".word {} does not fit 32 bits", a));
        emit(static_cast<std::uint32_t>(v), stmt);
      }
      return;
    }
    if (st.mnemonic == ".text" || st.mnemonic == ".globl" || st.mnemonic == ".global") return;
    if (!st.mnemonic.empty() && st.mnemonic[0] == '.')
      throw Error("ime.asm", fmt::format("unknown directive '{}' (the directives: .equ, .set, .word, .text, .globl)",
                                         st.mnemonic));
    if (st.mnemonic.rfind(spec_.mnemonic_prefix, 0) == 0)
      return emit(encode(spec_, parse(spec_, stmt, symbols())), stmt);
    for (const auto& p : spec_.host.pseudo_instructions)
      if (p.mnemonic == st.mnemonic) return pseudo(p, st, stmt);
    emit(encode(spec_, parse_host(spec_, stmt, symbols())), stmt);
  }

  void define(const Statement& st) {
    if (st.args.size() != 2) throw Error("ime.asm", fmt::format("{} takes a name and a value", st.mnemonic));
    const std::string& name = st.args[0];
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      throw Error("ime.asm", fmt::format("{}: '{}' is not a name (letters, digits, _)", st.mnemonic, name));
    if (const auto it = symbols_.find(name); it != symbols_.end())
      throw Error("ime.asm", fmt::format("{} is defined already, at line {}", name, it->second.second));
    symbols_[name] = {evaluate(st.args[1], name), line_};
  }

  void pseudo(const HostPseudo& p, const Statement& st, const std::string& stmt) {
    if (st.args.size() != p.syntax.size())
      throw Error("ime.asm",
                  fmt::format("{} takes {} operand(s), not {}", p.mnemonic, p.syntax.size(), st.args.size()));
    if (p.expansion == "materialise") {
      const auto rd = spec_.host.xreg(st.args[0]);
      if (!rd)
        throw Error("ime.asm", fmt::format("{}: operand {} takes a scalar register, not '{}'", p.mnemonic, p.syntax[0],
                                           st.args[0]));
      for (const auto& text : materialise(spec_, *rd, li_value(st.args[1], p.mnemonic)))
        emit(encode(spec_, parse_host(spec_, text)), stmt);
      return;
    }
    // The expansion's operands: a syntax name is the operand given for it.
    Statement e = split_statement(p.expansion);
    std::string text = e.mnemonic;
    for (std::size_t k = 0; k < e.args.size(); ++k) {
      std::string a = e.args[k];
      for (std::size_t s = 0; s < p.syntax.size(); ++s)
        if (a == p.syntax[s]) a = st.args[s];
      text += (k == 0 ? " " : ", ") + a;
    }
    emit(encode(spec_, parse_host(spec_, text, symbols())), stmt);
  }

  const ImeSpec& spec_;
  Program program_;
  std::map<std::string, std::pair<std::int64_t, int>> symbols_;  ///< name -> value, line
  int line_ = 0, column_ = 0;
};

}  // namespace

Program assemble(const ImeSpec& spec, std::string_view text, const std::string& source) {
  return Assembler(spec, source).run(text);
}

Program assemble_file(const ImeSpec& spec, const std::string& path) {
  return assemble(spec, read_file(path, "ime.io"), path);
}

std::vector<std::string> materialise(const ImeSpec& spec, int rd, std::int64_t value) {
  std::vector<Step> steps;
  materialise_steps(value, steps);
  // A value with low zeros and a long sequence: the sequence of the value
  // shifted right, then one slli, when that is shorter (RISCVMatInt's
  // trailing-zeros form).
  const auto u = static_cast<std::uint64_t>(value);
  if ((u & 0xFFF) != 0 && (u & 1) == 0 && steps.size() >= 2) {
    const int zeros = std::countr_zero(u);
    std::vector<Step> shifted;
    materialise_steps(value >> zeros, shifted);
    if (shifted.size() + 1 < steps.size()) {
      shifted.push_back({"slli", zeros});
      steps = shifted;
    }
  }
  const std::string reg = spec.host.xregs.at(static_cast<std::size_t>(rd));
  std::vector<std::string> out;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const std::string from = k == 0 ? "zero" : reg;
    out.push_back(std::string(steps[k].op) == "lui"
                      ? fmt::format("lui {}, {}", reg, steps[k].imm)
                      : fmt::format("{} {}, {}, {}", steps[k].op, reg, from, steps[k].imm));
  }
  return out;
}

Program read_binary(std::string_view bytes, const std::string& source) {
  if (bytes.empty()) throw Error("ime.bin", fmt::format("{}: the binary is empty: a program needs a word", source));
  if (bytes.size() % 4 != 0)
    throw Error("ime.bin", fmt::format("{}: {} bytes is not a whole number of 32-bit words (truncated after word {})",
                                       source, bytes.size(), bytes.size() / 4));
  Program p;
  p.source = source;
  for (std::size_t i = 0; i < bytes.size(); i += 4) {
    std::uint32_t w = 0;
    for (std::size_t b = 0; b < 4; ++b) w |= std::uint32_t{static_cast<unsigned char>(bytes[i + b])} << (8 * b);
    p.words.push_back({w, 0, {}});
  }
  return p;
}

Program read_binary_file(const std::string& path) { return read_binary(read_file(path, "ime.io"), path); }

std::string binary_of(const Program& p) {
  std::string out;
  for (const auto& w : p.words)
    for (int b = 0; b < 4; ++b) out += static_cast<char>((w.word >> (8 * b)) & 0xFF);
  return out;
}

std::string disassemble_word(const ImeSpec& spec, std::uint32_t word) {
  if (const auto d = decode(spec, word)) return disassemble(spec, *d);
  if (const auto h = decode_host(spec, word)) return disassemble(spec, *h);
  return fmt::format(".word {:#010x}", word);
}

std::string disassemble_words(const ImeSpec& spec, const std::vector<std::uint32_t>& words) {
  std::string out;
  for (const auto w : words) out += disassemble_word(spec, w) + "\n";
  return out;
}

}  // namespace tpugen::ime
