#include "spec/ime_spec.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <set>

#include "spec/by_name.h"
#include "spec/hash.h"
#include "spec/ime_spec_read.h"
#include "spec/yaml_reader.h"
#include "util/file_io.h"

namespace tpugen {

namespace ime_read {

[[noreturn]] void fail(const std::string& message, const SourceLoc& where) {
  throw Error(std::string(kSpec), message, where);
}

/// `key: [msb, lsb]` within the word.
std::pair<int, int> read_bits(YamlMap& m, const std::string& key, int word_bits, const std::string& what) {
  return m.bit_range(key, word_bits, what, kSpec);
}

/// A bit string ("0101011") of exactly `width` bits.
std::uint32_t read_bit_string(const std::string& text, int width, const std::string& what, const SourceLoc& where) {
  if (static_cast<int>(text.size()) != width || text.find_first_not_of("01") != std::string::npos)
    fail(fmt::format("{}: '{}' is not a string of {} bits (0 and 1)", what, text, width), where);
  std::uint32_t v = 0;
  for (const char c : text) v = (v << 1) | static_cast<std::uint32_t>(c - '0');
  return v;
}

namespace {

ImeOperandKind operand_kind(const std::string& text, const SourceLoc& where) {
  std::string names;
  for (const auto k : kOperandKinds) {
    if (text == to_string(k)) return k;
    names += (names.empty() ? "" : ", ") + std::string(to_string(k));
  }
  fail(fmt::format("operand kind '{}' is none of {}", text, names), where);
}

/// A field's width its operand kind fixes, or 0 (an immediate: any).
int field_width_of(ImeOperandKind k) {
  switch (k) {
    case ImeOperandKind::Vreg:
    case ImeOperandKind::Xreg:
    case ImeOperandKind::XregMem:
      return 5;
    case ImeOperandKind::VregEven:
      return 4;
    case ImeOperandKind::Vsel:
      return 1;
    case ImeOperandKind::Csr:
      return 12;
    case ImeOperandKind::None:
    case ImeOperandKind::Uimm:
    case ImeOperandKind::Simm:
    case ImeOperandKind::Vtype:
      return 0;
  }
  return 0;
}

}  // namespace

FixedFields read_fixed(const YAML::Node& n, const std::string& path, const ImeFormat& f, const std::string& what,
                       std::string_view skip) {
  YamlMap fixed(n, path, "the fixed fields");
  FixedFields out;
  for (const auto& fd : f.fields) {
    if (fd.kind != ImeOperandKind::None || fd.name == skip) continue;
    if (!fixed.has(fd.name)) fail(fmt::format("{}: fixed gives no value for field {}", what, fd.name), fixed.loc());
    const std::uint32_t v =
        read_bit_string(fixed.str(fd.name), fd.width(), fmt::format("{} field {}", what, fd.name), fixed.loc(fd.name));
    out.values.emplace_back(fd.name, v);
    out.match |= v << fd.lsb;
    out.mask |= fd.mask();
  }
  fixed.finish();
  return out;
}

ImeFormat read_format(const YAML::Node& n, const ImeSpec& s) {
  YamlMap m(n, s.path, "a format");
  ImeFormat f;
  f.loc = m.loc();
  f.name = m.str("name");
  f.role = m.str("role");
  for (const auto& x : m.seq("syntax")) f.syntax.push_back(x.as<std::string>());
  std::vector<std::string> owner(static_cast<std::size_t>(s.word_bits));
  std::map<std::string, std::uint32_t> operand_bits;  // the operand value bits its fields hold
  for (const auto& fn : m.seq("fields")) {
    YamlMap fm(fn, s.path, "a field");
    ImeField fd;
    fd.loc = fm.loc();
    fd.name = fm.str("name");
    const std::string what = fmt::format("format {} field {}", f.name, fd.name);
    std::tie(fd.msb, fd.lsb) = read_bits(fm, "bits", s.word_bits, what);
    if (fm.has("operand")) {
      fd.kind = operand_kind(fm.str("operand"), fm.loc("operand"));
      fd.operand = fm.str_or("of", fd.name);
      fd.at = fm.has("at")                          ? static_cast<int>(fm.integer_in("at", 0, 31, kSpec))
              : fd.kind == ImeOperandKind::VregEven ? 1
                                                    : 0;
      const int expect = field_width_of(fd.kind);
      if (expect != 0 && fd.width() != expect)
        fail(fmt::format("{}: a {} field is {} bit(s) wide, not {}", what, to_string(fd.kind), expect, fd.width()),
             fd.loc);
      const std::uint32_t value_bits = ((fd.width() >= 32 ? 0U : (1U << fd.width())) - 1U) << fd.at;
      if ((operand_bits[fd.operand] & value_bits) != 0)
        fail(fmt::format("{}: operand {}'s bits from {} are held by another field too", what, fd.operand, fd.at),
             fd.loc);
      operand_bits[fd.operand] |= value_bits;
    } else if (fm.has("of") || fm.has("at")) {
      fail(fmt::format("{}: of and at belong to an operand field", what), fd.loc);
    }
    fm.finish();
    for (int b = fd.lsb; b <= fd.msb; ++b) {
      auto& o = owner[static_cast<std::size_t>(b)];
      if (!o.empty()) fail(fmt::format("{}: bit {} is field {}'s already", what, b, o), fd.loc);
      o = fd.name;
    }
    if (f.field(fd.name)) fail(fmt::format("format {}: a second field named {}", f.name, fd.name), fd.loc);
    f.fields.push_back(fd);
  }
  for (int b = 0; b < s.word_bits; ++b)
    if (owner[static_cast<std::size_t>(b)].empty())
      fail(fmt::format("format {}: bit {} of the word is in no field", f.name, b), f.loc);
  const ImeField* op = f.field("opcode");
  if (!op || op->msb != s.opcode_msb || op->lsb != s.opcode_lsb || op->kind != ImeOperandKind::None)
    fail(fmt::format("format {}: needs a fixed field `opcode` at the opcode's bits [{}, {}]", f.name, s.opcode_msb,
                     s.opcode_lsb),
         f.loc);
  // The operands, in syntax order: every operand once, nothing else.
  for (const auto& name : f.syntax) {
    const auto it = operand_bits.find(name);
    if (it == operand_bits.end())
      fail(fmt::format("format {}: syntax names {}, which no field holds", f.name, name), m.loc("syntax"));
    if (f.operand(name)) fail(fmt::format("format {}: syntax names {} twice", f.name, name), m.loc("syntax"));
    ImeOperand o;
    o.name = name;
    for (const auto& fd : f.fields)
      if (fd.operand == name) o.kind = fd.kind;
    int width = 0;
    while (width < 32 && (it->second >> width) != 0) ++width;
    if (it->second != ((width >= 32 ? 0U : (1U << width)) - 1U) && !(o.kind == ImeOperandKind::VregEven))
      fail(fmt::format("format {}: operand {}'s fields leave a gap in its bits", f.name, name), f.loc);
    o.width = o.kind == ImeOperandKind::VregEven ? 5 : width;
    for (const auto& fd : f.fields)
      if (fd.operand == name && fd.kind != o.kind)
        fail(fmt::format("format {}: operand {}'s fields are of two kinds", f.name, name), fd.loc);
    f.operands.push_back(o);
  }
  if (f.operands.size() != operand_bits.size())
    fail(fmt::format("format {}: an operand field is missing from the syntax", f.name), m.loc("syntax"));
  m.finish();
  return f;
}

}  // namespace ime_read

namespace {

using namespace ime_read;

ImeClass read_class(const YAML::Node& n, const ImeSpec& s) {
  YamlMap m(n, s.path, "a class");
  ImeClass c;
  c.loc = m.loc();
  c.name = m.str("name");
  c.role = m.str("role");
  const std::string what = fmt::format("class {}", c.name);
  const YAML::Node regs = m.node("registers");
  if (!regs.IsMap()) fail(fmt::format("{}: registers must map operands to counts", what), m.loc("registers"));
  for (const auto& kv : regs) {
    const std::string op = kv.first.as<std::string>();
    const std::string v = kv.second.as<std::string>();
    int count = 0;
    if (v == "mul_c")
      count = ImeClass::kMulC;
    else if (v == "1" || v == "2")
      count = v[0] - '0';
    else
      fail(fmt::format("{}: {} takes 1, 2 or mul_c registers, not '{}'", what, op, v), loc_of(s.path, kv.second));
    c.registers.emplace_back(op, count);
  }
  for (const auto& r : m.seq("rules")) {
    const std::string name = r.as<std::string>();
    if (!by_name(s.rules, name)) fail(fmt::format("{}: rule {} is not in the rules", what, name), loc_of(s.path, r));
    c.rules.push_back(name);
  }
  if (m.has("segment_bits")) {
    for (const auto& kv : m.node("segment_bits")) {
      const std::string t = kv.first.as<std::string>();
      if (!s.data_type(t))
        fail(fmt::format("{}: segment_bits names {}, not a data type", what, t), loc_of(s.path, kv.first));
      c.segment_bits.emplace_back(t, kv.second.as<int>());
    }
  }
  if (m.has("group_bits")) c.group_bits = static_cast<int>(m.integer_in("group_bits", 8, 4096, kSpec));
  c.lmul_groups = m.boolean_or("lmul_groups", false);
  for (const auto& x : m.seq_or_empty("pack_len")) {
    const std::string v = x.as<std::string>();
    c.pack_len.push_back(v == "SEW" ? 0 : x.as<int>());
  }
  m.finish();
  const auto needs = [&](std::string_view rule, bool has, std::string_view key) {
    if (c.has_rule(rule) != has)
      fail(fmt::format("{}: the rule {} and the key {} go together", what, rule, key), c.loc);
  };
  needs("mask_segment", !c.segment_bits.empty(), "segment_bits");
  needs("scale_group", c.group_bits > 0, "group_bits");
  needs("pack_len", !c.pack_len.empty(), "pack_len");
  needs("lmul_group", c.lmul_groups, "lmul_groups");
  return c;
}

ImeInstruction read_instruction(const YAML::Node& n, const ImeSpec& s) {
  YamlMap m(n, s.path, "an instruction");
  ImeInstruction in;
  in.loc = m.loc();
  in.mnemonic = m.str("mnemonic");
  if (in.mnemonic.rfind(s.mnemonic_prefix, 0) != 0)
    fail(fmt::format("{}: a mnemonic starts with {}", in.mnemonic, s.mnemonic_prefix), in.loc);
  in.type = m.str_or("type", "");
  in.cls = m.str("class");
  in.format = m.str("format");
  in.signedness = m.str_or("signedness", "");
  in.sub_extension = m.str("sub_extension");
  if (m.has("slide")) in.slide = static_cast<int>(m.integer_in("slide", 1, 3, kSpec));
  const std::string what = in.label();
  if (!in.type.empty() && !s.data_type(in.type))
    fail(fmt::format("{}: type {} is not a data type", what, in.type), m.loc("type"));
  if (!in.signedness.empty() && !s.signedness_of(in))
    fail(fmt::format("{}: signedness {} is none of the variants", what, in.signedness), m.loc("signedness"));
  if (!by_name(s.sub_extensions, in.sub_extension))
    fail(fmt::format("{}: sub-extension {} is not listed", what, in.sub_extension), m.loc("sub_extension"));
  const ImeFormat* f = by_name(s.formats, in.format);
  if (!f) fail(fmt::format("{}: format {} is not defined", what, in.format), m.loc("format"));
  const ImeClass* c = by_name(s.classes, in.cls);
  if (!c) fail(fmt::format("{}: class {} is not defined", what, in.cls), m.loc("class"));
  for (const auto& [op, count] : c->registers) {
    const ImeOperand* o = f->operand(op);
    if (!o ||
        (o->kind != ImeOperandKind::Vreg && o->kind != ImeOperandKind::VregEven && o->kind != ImeOperandKind::Vsel))
      fail(fmt::format("{}: class {} counts registers of {}, which format {} has no register operand for", what,
                       c->name, op, f->name),
           in.loc);
  }
  if (c->has_rule("mask_segment") && !f->operand("imm2"))
    fail(fmt::format("{}: the rule mask_segment needs an imm2 operand", what), in.loc);
  if (c->has_rule("scale_group") && !f->operand("imm3"))
    fail(fmt::format("{}: the rule scale_group needs an imm3 operand", what), in.loc);
  if (c->has_rule("pack_len") && (!f->operand("imm2") || c->pack_len.size() != (1U << f->operand("imm2")->width)))
    fail(fmt::format("{}: pack_len needs one entry per value of imm2", what), in.loc);
  if (c->has_rule("mask_segment")) {
    bool typed = false;
    for (const auto& [t, bits] : c->segment_bits) typed = typed || t == in.type;
    if (!typed) fail(fmt::format("{}: class {} gives no segment_bits for type {}", what, c->name, in.type), in.loc);
  }

  const FixedFields fixed = read_fixed(m.node("fixed"), s.path, *f, what, "opcode");
  in.fixed = fixed.values;
  in.match = s.opcode | fixed.match;
  in.mask = (((1U << (s.opcode_msb - s.opcode_lsb + 1)) - 1U) << s.opcode_lsb) | fixed.mask;
  m.finish();
  if (!in.type.empty()) {
    const std::uint32_t dt = (in.match >> s.dt_lsb) & ((1U << (s.dt_msb - s.dt_lsb + 1)) - 1U);
    if (dt != s.data_type(in.type)->dt || ((in.mask >> s.dt_lsb) & 1U) == 0)
      fail(fmt::format("{}: its fixed bits put DT = {:0{}b} at [{}, {}], not {}'s code", what, dt,
                       s.dt_msb - s.dt_lsb + 1, s.dt_msb, s.dt_lsb, in.type),
           in.loc);
  }
  return in;
}

ImeProfile read_profile(const YAML::Node& n, const ImeSpec& s) {
  YamlMap m(n, s.path, "a profile");
  ImeProfile p;
  p.loc = m.loc();
  p.name = m.str("name");
  p.vlen = static_cast<int>(m.integer_in("vlen", 64, 65536, kSpec));
  if ((p.vlen & (p.vlen - 1)) != 0)
    fail(fmt::format("profile {}: VLEN {} is not a power of two", p.name, p.vlen), m.loc("vlen"));
  for (const auto& en : m.seq("supports")) {
    YamlMap em(en, s.path, "a supported sub-extension");
    ImeProfileEntry e;
    e.loc = em.loc();
    e.sub_extension = em.str("sub_extension");
    const std::string what = fmt::format("profile {} {}", p.name, e.sub_extension);
    if (!by_name(s.sub_extensions, e.sub_extension) || e.sub_extension == "none")
      fail(fmt::format("{}: not a sub-extension of the list", what), em.loc("sub_extension"));
    if (p.entry(e.sub_extension)) fail(fmt::format("{}: listed twice", what), e.loc);
    e.lambda = static_cast<int>(em.integer_in("lambda", 1, 64, kSpec));
    e.sew = static_cast<int>(em.integer_in("sew", 8, 64, kSpec));
    e.w = static_cast<int>(em.integer_in("w", 1, 16, kSpec));
    if (em.has("k_factor")) e.k_factor = static_cast<int>(em.integer_in("k_factor", 1, 4, kSpec));
    const auto tile = em.seq("tile");
    if (tile.size() != 3) fail(fmt::format("{}: tile must be [M, K, N]", what), em.loc("tile"));
    for (std::size_t i = 0; i < 3; ++i) e.tile[i] = tile[i].as<int>();
    em.finish();
    // The seed's derivation (chapter 1): L_A = LMUL x VLEN / (SEW / W),
    // K_eff = λ x W x LMUL, M = N = L_A / K_eff, MUL_C = VLEN / (SEW x λ²).
    if (e.sew % e.w != 0) fail(fmt::format("{}: W = {} does not divide SEW = {}", what, e.w, e.sew), e.loc);
    const int l_a = p.vlen / (e.sew / e.w);
    e.k = e.lambda * e.w * e.k_factor;
    e.m = e.n = l_a / (e.lambda * e.w);
    const int c_bits = e.sew * e.lambda * e.lambda;
    if (p.vlen % c_bits != 0 || l_a % (e.lambda * e.w) != 0)
      fail(fmt::format("{}: VLEN {} gives no whole tile at λ = {}, SEW = {}, W = {}", what, p.vlen, e.lambda, e.sew,
                       e.w),
           e.loc);
    e.mul_c = p.vlen / c_bits;
    if (e.mul_c != 1 && e.mul_c != 2 && e.mul_c != 4 && e.mul_c != 8 && e.mul_c != 16)
      fail(fmt::format("{}: MUL_C = {} is none of 1, 2, 4, 8, 16", what, e.mul_c), e.loc);
    if (e.m != e.tile[0] || e.k != e.tile[1] || e.n != e.tile[2])
      fail(fmt::format("{}: the derivation gives a {} x {} x {} tile, not the {} x {} x {} written", what, e.m, e.k,
                       e.n, e.tile[0], e.tile[1], e.tile[2]),
           e.loc);
    p.supports.push_back(e);
  }
  m.finish();
  return p;
}

void validate(const ImeSpec& s) {
  // An integer instruction's elements are SEW / W bits wide on every profile
  // that has its sub-extension (W: the widening from its type to SEW).
  for (const auto& p : s.profiles)
    for (const auto& i : s.instructions) {
      const ImeProfileEntry* e = p.entry(i.sub_extension);
      const ImeDataType* t = s.data_type(i.type);
      if (e && t && t->bits * e->w != e->sew)
        fail(fmt::format("profile {} {}: {} has {}-bit elements, but SEW {} / W {} is {}", p.name, e->sub_extension,
                         i.label(), t->bits, e->sew, e->w, e->sew / e->w),
             e->loc);
    }
  int defaults = 0;
  for (const auto& d : s.data_types) defaults += d.is_default ? 1 : 0;
  if (defaults != 1) fail(fmt::format("data_types: {} are marked default, not one", defaults), SourceLoc{s.path});
  std::set<std::string> labels;
  for (std::size_t i = 0; i < s.instructions.size(); ++i) {
    const auto& a = s.instructions[i];
    if (!labels.insert(a.label()).second) fail(fmt::format("{} is listed twice", a.label()), a.loc);
    for (std::size_t j = 0; j < i; ++j) {
      const auto& b = s.instructions[j];
      if (((a.match ^ b.match) & a.mask & b.mask) == 0)
        fail(fmt::format(
                 "{} (MATCH {:08X} MASK {:08X}) overlaps {} (MATCH {:08X} MASK {:08X}): a word would decode as both",
                 a.label(), a.match, a.mask, b.label(), b.match, b.mask),
             a.loc);
    }
  }
}

}  // namespace

std::string_view to_string(ImeOperandKind k) {
  switch (k) {
    case ImeOperandKind::None:
      return "none";
    case ImeOperandKind::Vreg:
      return "vreg";
    case ImeOperandKind::VregEven:
      return "vreg_even";
    case ImeOperandKind::Vsel:
      return "vsel";
    case ImeOperandKind::Uimm:
      return "uimm";
    case ImeOperandKind::Simm:
      return "simm";
    case ImeOperandKind::Xreg:
      return "xreg";
    case ImeOperandKind::XregMem:
      return "xreg_mem";
    case ImeOperandKind::Csr:
      return "csr";
    case ImeOperandKind::Vtype:
      return "vtype";
  }
  return "?";
}

std::uint32_t ImeField::mask() const {
  const std::uint32_t ones = width() >= 32 ? ~0U : (1U << width()) - 1U;
  return ones << lsb;
}

const ImeField* ImeFormat::field(std::string_view n) const { return by_name(fields, n); }

const ImeOperand* ImeFormat::operand(std::string_view n) const { return by_name(operands, n); }

std::uint32_t ImeFormat::operand_value(std::uint32_t word, std::string_view op) const {
  std::uint32_t v = 0;
  bool found = false;
  for (const auto& f : fields) {
    if (f.operand != op) continue;
    found = true;
    v |= ((word & f.mask()) >> f.lsb) << f.at;
  }
  if (!found) throw Error("ime.internal", fmt::format("format {} has no operand {}", name, op));
  return v;
}

std::uint32_t ImeFormat::with_operand(std::uint32_t word, std::string_view op, std::uint32_t value) const {
  const ImeOperand* o = operand(op);
  if (!o) throw Error("ime.internal", fmt::format("format {} has no operand {}", name, op));
  if (o->width < 32 && value >> o->width != 0)
    throw Error("ime.range", fmt::format("{} = {} does not fit its {} bit(s)", op, value, o->width));
  if (o->kind == ImeOperandKind::VregEven && (value & 1U) != 0)
    throw Error("ime.range", fmt::format("{} = v{} must be an even register", op, value));
  for (const auto& f : fields) {
    if (f.operand != op) continue;
    word = (word & ~f.mask()) | (((value >> f.at) << f.lsb) & f.mask());
  }
  return word;
}

std::string ImeInstruction::label() const { return type.empty() ? mnemonic : fmt::format("{} ({})", mnemonic, type); }

const ImeProfileEntry* ImeProfile::entry(std::string_view sub) const {
  for (const auto& e : supports)
    if (e.sub_extension == sub) return &e;
  return nullptr;
}

bool ImeProfile::supports_sub_extension(std::string_view sub) const { return sub == "none" || entry(sub) != nullptr; }

const ImeSignedness* ImeSpec::signedness_of(const ImeInstruction& i) const { return by_name(signedness, i.signedness); }

const ImeFormat& ImeSpec::format_of(const ImeInstruction& i) const {
  if (const ImeFormat* f = by_name(formats, i.format)) return *f;
  throw Error("ime.internal", fmt::format("{} names format {}, which is gone", i.label(), i.format));
}

const ImeClass& ImeSpec::class_of(const ImeInstruction& i) const {
  if (const ImeClass* c = by_name(classes, i.cls)) return *c;
  throw Error("ime.internal", fmt::format("{} names class {}, which is gone", i.label(), i.cls));
}

bool ImeClass::has_rule(std::string_view rule) const {
  for (const auto& r : rules)
    if (r == rule) return true;
  return false;
}

const ImeDataType* ImeSpec::data_type(std::string_view n) const { return by_name(data_types, n); }

const ImeProfile* ImeSpec::profile(std::string_view n) const { return by_name(profiles, n); }

const ImeInstruction* ImeSpec::match(std::uint32_t word) const { return by_match(instructions, word); }

std::string ime_spec_path(const std::string& isa_spec_path) {
  return (std::filesystem::path(isa_spec_path).parent_path() / "ime.yaml").string();
}

ImeSpec load_ime_spec_text(const std::string& text, const std::string& path) {
  try {
    const YAML::Node root = YAML::Load(text);
    YamlMap top(root, path, "the IME spec");
    ImeSpec s;
    s.path = path;
    s.sha256 = sha256_hex(text);
    s.name = top.str("name");
    (void)top.integer("version");
    s.word_bits = static_cast<int>(top.integer_in("word_bits", 32, 32, kSpec));
    s.mnemonic_prefix = top.str("mnemonic_prefix");
    {
      YamlMap om(top.node("opcode"), path, "opcode");
      s.opcode_name = om.str("name");
      std::tie(s.opcode_msb, s.opcode_lsb) = read_bits(om, "bits", s.word_bits, "opcode");
      s.opcode = read_bit_string(om.str("value"), s.opcode_msb - s.opcode_lsb + 1, "opcode", om.loc("value"))
                 << s.opcode_lsb;
      om.finish();
    }
    std::tie(s.dt_msb, s.dt_lsb) = read_bits(top, "dt_bits", s.word_bits, "dt_bits");
    s.data_types = read_named<ImeDataType>(top, "data_types", "data type", [&](const YAML::Node& n) {
      YamlMap m(n, path, "a data type");
      ImeDataType d;
      d.loc = m.loc();
      d.name = m.str("name");
      d.bits = static_cast<int>(m.integer_in("bits", 1, 64, kSpec));
      d.dt = read_bit_string(m.str("dt"), s.dt_msb - s.dt_lsb + 1, fmt::format("data type {}", d.name), m.loc("dt"));
      d.role = m.str("role");
      d.is_default = m.boolean_or("default", false);
      m.finish();
      return d;
    });
    s.signedness = read_named<ImeSignedness>(top, "signedness", "signedness variant", [&](const YAML::Node& n) {
      YamlMap m(n, path, "a signedness variant");
      ImeSignedness v;
      v.loc = m.loc();
      v.name = m.str("name");
      v.suffix = m.str("suffix");
      v.a_signed = m.boolean_or("a_signed", false);
      v.b_signed = m.boolean_or("b_signed", false);
      m.finish();
      return v;
    });
    s.formats = read_named<ImeFormat>(top, "formats", "format", [&](const YAML::Node& n) { return read_format(n, s); });
    s.sub_extensions = read_named<ImeSubExtension>(top, "sub_extensions", "sub-extension", [&](const YAML::Node& n) {
      return read_name_role<ImeSubExtension>(n, path, "a sub-extension");
    });
    s.rules = read_named<ImeRule>(top, "rules", "rule",
                                  [&](const YAML::Node& n) { return read_name_role<ImeRule>(n, path, "a rule"); });
    s.classes = read_named<ImeClass>(top, "classes", "class", [&](const YAML::Node& n) { return read_class(n, s); });
    for (const auto& n : top.seq("instructions")) s.instructions.push_back(read_instruction(n, s));
    s.profiles =
        read_named<ImeProfile>(top, "profiles", "profile", [&](const YAML::Node& n) { return read_profile(n, s); });
    s.host = read_host(top.node("host"), s);
    top.finish();
    validate(s);
    return s;
  } catch (const YAML::Exception& e) {
    throw Error("ime.yaml", e.msg, SourceLoc{path, e.mark.line + 1, e.mark.column + 1});
  }
}

ImeSpec load_ime_spec(const std::string& path) { return load_ime_spec_text(read_file(path, "ime.io"), path); }

}  // namespace tpugen
