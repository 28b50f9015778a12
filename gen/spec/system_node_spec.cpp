#include "spec/system_node_spec.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "spec/build_params_read.h"
#include "spec/by_name.h"
#include "spec/hash.h"
#include "spec/yaml_reader.h"
#include "util/bits.h"
#include "util/file_io.h"

namespace tpugen {

namespace {

constexpr std::string_view kSpec = "sysnode.spec";

[[noreturn]] void fail(const std::string& message, const SourceLoc& where) {
  throw Error(std::string(kSpec), message, where);
}

std::int64_t bounded(YamlMap& m, const std::string& key, std::int64_t lo, std::int64_t hi) {
  return m.integer_in(key, lo, hi, kSpec);
}

std::int64_t max_of(int bits) { return bits >= 63 ? INT64_MAX : (std::int64_t{1} << bits) - 1; }

constexpr MoverFieldKind kFieldKinds[] = {MoverFieldKind::Value, MoverFieldKind::Select, MoverFieldKind::Strobe,
                                          MoverFieldKind::Status};

MoverField read_field(const YAML::Node& n, const std::string& file, int register_bits, const std::string& reg) {
  YamlMap m(n, file, "a register field");
  MoverField f;
  f.loc = m.loc();
  f.name = m.str("name");
  const std::string what = fmt::format("register {} field {}", reg, f.name);
  std::tie(f.msb, f.lsb) = m.bit_range("bits", register_bits, what, kSpec);
  const std::string kind = m.str_or("kind", "value");
  bool known = false;
  for (MoverFieldKind k : kFieldKinds)
    if (field_kind_name(k) == kind) f.kind = k, known = true;
  if (!known)
    fail(fmt::format("{}: kind must be value, select, strobe or status, not '{}'", what, kind), m.loc("kind"));
  f.is_signed = m.boolean_or("signed", false);
  if (m.has("reset")) {
    if (f.kind != MoverFieldKind::Value)
      fail(fmt::format("{}: only a value field has a reset value", what), m.loc("reset"));
    f.reset = m.integer("reset");
    if (!f.fits(f.reset))
      fail(fmt::format("{}: reset {} does not fit {} bits", what, f.reset, f.width()), m.loc("reset"));
  } else if (f.kind == MoverFieldKind::Value) {
    fail(fmt::format("{}: a value field needs its reset value", what), f.loc);
  }
  if (m.has("zero_means")) f.zero_means = static_cast<std::uint64_t>(bounded(m, "zero_means", 0, INT64_MAX));
  f.role = m.str("role");
  m.finish();
  return f;
}

MoverRegister read_register(const YAML::Node& n, const std::string& file, int register_bits) {
  YamlMap m(n, file, "a mover register");
  MoverRegister r;
  r.loc = m.loc();
  r.name = m.str("name");
  r.offset = static_cast<std::uint32_t>(bounded(m, "offset", 0, 0xFFFF));
  if (r.offset % static_cast<std::uint32_t>(register_bits / 8) != 0)
    fail(fmt::format("register {}: offset {:#x} is not a multiple of {} bytes", r.name, r.offset, register_bits / 8),
         m.loc("offset"));
  r.role = m.str("role");
  r.stages = m.boolean_or("stages", false);
  r.commits = m.str_or("commits", "");
  BitOccupancy occ(register_bits, std::string(kSpec));
  for (const auto& fn : m.seq("fields")) {
    MoverField f = read_field(fn, file, register_bits, r.name);
    occ.take(f.msb, f.lsb, fmt::format("register {} field {}", r.name, f.name), f.loc);
    r.fields.push_back(std::move(f));
  }
  m.finish();
  return r;
}

SysCode read_code(const YAML::Node& n, const std::string& file, const std::string& what, bool mode, bool fault) {
  YamlMap m(n, file, what);
  SysCode c;
  c.loc = m.loc();
  c.name = m.str("name");
  c.code = static_cast<std::uint32_t>(bounded(m, "code", 0, 255));
  c.role = m.str_or("role", "");
  if (mode) c.implemented = m.boolean_or("implemented", true);
  if (fault) {
    const std::string at = m.str("at");
    if (at != "go" && at != "run")
      fail(fmt::format("fault {}: at must be go or run, not '{}'", c.name, at), m.loc("at"));
    c.at_go = at == "go";
  }
  m.finish();
  return c;
}

/// A list of codes with unique names and codes, each fitting `field_bits`.
std::vector<SysCode> read_codes(YamlMap& parent, const std::string& key, const std::string& file, int field_bits,
                                bool mode = false, bool fault = false) {
  std::vector<SysCode> out;
  std::set<std::string> names;
  std::set<std::uint32_t> codes;
  for (const auto& n : parent.seq(key)) {
    SysCode c = read_code(n, file, key, mode, fault);
    if (!names.insert(c.name).second) fail(fmt::format("{}: a second entry named {}", key, c.name), c.loc);
    if (!codes.insert(c.code).second) fail(fmt::format("{}: {} reuses code {}", key, c.name, c.code), c.loc);
    if (c.code > static_cast<std::uint32_t>(max_of(field_bits)))
      fail(fmt::format("{}: {}'s code {} does not fit its {}-bit field", key, c.name, c.code, field_bits), c.loc);
    out.push_back(std::move(c));
  }
  return out;
}

Scope node_scope(const SystemNodeSpec& s) {
  return [&s](std::string_view name) -> std::optional<std::int64_t> {
    if (name == "word_bits") return s.word_bits;
    if (name == "address_bits") return s.address_bits;
    return std::nullopt;
  };
}

std::vector<NocParameter> read_parameters(YamlMap& m, const std::string& file, const SystemNodeSpec& s) {
  std::vector<NocParameter> out;
  for (const auto& n : m.seq("parameters")) {
    out.push_back(read_build_parameter(n, file, node_scope(s), {}, kSpec));
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      if (out[i].name == out.back().name)
        fail(fmt::format("a second parameter named {}", out.back().name), out.back().loc);
  }
  return out;
}

/// The field a rule of the spec needs, checked for its width.
const MoverField& need_field(const MoverSpec& m, std::string_view name, const SourceLoc& at) {
  const MoverField* f = m.field(name);
  if (!f) fail(fmt::format("the mover's registers need the field '{}'", name), at);
  return *f;
}

void read_mover(YamlMap& top, const std::string& file, SystemNodeSpec& s) {
  YamlMap m(top.node("mover"), file, "mover");
  MoverSpec& v = s.mover;
  v.register_bits = static_cast<int>(bounded(m, "register_bits", 8, 64));
  std::set<std::string> names;
  std::set<std::uint32_t> offsets;
  for (const auto& n : m.seq("registers")) {
    MoverRegister r = read_register(n, file, v.register_bits);
    if (!names.insert(r.name).second) fail(fmt::format("a second register named {}", r.name), r.loc);
    if (!offsets.insert(r.offset).second) fail(fmt::format("register {} reuses offset {:#x}", r.name, r.offset), r.loc);
    v.registers.push_back(std::move(r));
  }
  for (std::size_t i = 1; i < v.registers.size(); ++i)
    if (v.registers[i].offset < v.registers[i - 1].offset)
      fail(fmt::format("register {} is out of offset order", v.registers[i].name), v.registers[i].loc);
  std::set<std::string> field_names;
  for (const auto& r : v.registers)
    for (const auto& f : r.fields)
      if (f.kind != MoverFieldKind::Select && !field_names.insert(f.name).second)
        fail(fmt::format("a second field named {} (only select fields repeat)", f.name), f.loc);
  for (const auto& r : v.registers) {
    if (r.commits.empty()) continue;
    const MoverRegister* staged = v.reg(r.commits);
    if (!staged || !staged->stages)
      fail(fmt::format("register {} commits '{}', which is no staging register", r.name, r.commits), r.loc);
  }
  for (const auto& r : v.registers) {
    if (!r.stages) continue;
    int committers = 0;
    for (const auto& o : v.registers) committers += o.commits == r.name ? 1 : 0;
    if (committers != 1)
      fail(fmt::format("staging register {} needs exactly one register that commits it", r.name), r.loc);
  }

  const MoverField& mode_field = need_field(v, "mode", m.loc());
  v.modes = read_codes(m, "modes", file, mode_field.width(), true);
  for (const auto& n : m.seq("elem_widths")) {
    YamlMap em(n, file, "an element width");
    MoverElemWidth w;
    w.loc = em.loc();
    w.code = static_cast<std::uint32_t>(bounded(em, "code", 0, max_of(need_field(v, "elem_width", w.loc).width())));
    w.bits = static_cast<int>(bounded(em, "bits", 8, need_field(v, "imm", w.loc).width()));
    em.finish();
    if (s.word_bits % w.bits != 0 || (w.bits & (w.bits - 1)) != 0)
      fail(fmt::format("element width {} bits is not a power of two dividing the word", w.bits), w.loc);
    for (const auto& o : v.elem_widths)
      if (o.code == w.code) fail(fmt::format("element width code {} is listed twice", w.code), w.loc);
    v.elem_widths.push_back(w);
  }
  const MoverField& flags_field = need_field(v, "flags", m.loc());
  BitOccupancy flag_bits(flags_field.width(), std::string(kSpec));
  for (const auto& n : m.seq("flags")) {
    YamlMap fm(n, file, "a flag");
    MoverFlag f;
    f.loc = fm.loc();
    f.name = fm.str("name");
    std::tie(f.msb, f.lsb) = fm.bit_range("bits", flags_field.width(), "flag " + f.name, kSpec);
    flag_bits.take(f.msb, f.lsb, "flag " + f.name, f.loc);
    if (fm.has("values")) {
      f.values = fm.integer_list("values");
      if (f.values.size() != (std::size_t{1} << f.width()))
        fail(fmt::format("flag {}: {} values for a {}-bit field (one per code)", f.name, f.values.size(), f.width()),
             fm.loc("values"));
    }
    f.role = fm.str("role");
    fm.finish();
    if (by_name(v.flags, f.name)) fail(fmt::format("a second flag named {}", f.name), f.loc);
    v.flags.push_back(std::move(f));
  }
  const MoverField& walker_field = need_field(v, "walker", m.loc());
  v.walkers = read_codes(m, "walkers", file, walker_field.width());
  v.dimensions = static_cast<int>(bounded(m, "dimensions", 1, 8));
  v.bound_axes = static_cast<int>(bounded(m, "bound_axes", 1, 8));
  const MoverField& bound_sel = need_field(v, "bound_sel", m.loc());
  for (const auto& n : m.seq("bound_selectors")) {
    YamlMap bm(n, file, "a bound selector");
    BoundSelector b;
    b.code = static_cast<std::uint32_t>(bounded(bm, "code", 0, max_of(bound_sel.width())));
    const std::string axis = bm.str("axis");
    if (axis != "none") b.axis = static_cast<int>(bounded(bm, "axis", 0, v.bound_axes - 1));
    if (b.code != v.bound_selectors.size())
      fail(fmt::format("bound selector {} is out of order: the list gives every code from 0", b.code), bm.loc());
    bm.finish();
    v.bound_selectors.push_back(b);
  }
  if (v.bound_selectors.size() != (std::size_t{1} << bound_sel.width()))
    fail(fmt::format("bound_selectors lists {} codes; bound_sel has {}", v.bound_selectors.size(),
                     std::size_t{1} << bound_sel.width()),
         m.loc("bound_selectors"));
  v.faults = read_codes(m, "faults", file, need_field(v, "fault", m.loc()).width(), false, true);
  bool past_go = false;
  for (const auto& f : v.faults) {
    if (f.code == 0) fail(fmt::format("fault {}: code 0 means no fault", f.name), f.loc);
    if (f.at_go && past_go) fail(fmt::format("fault {}: the GO-time checks come first, in check order", f.name), f.loc);
    past_go = past_go || !f.at_go;
  }

  YamlMap gm(m.node("gather"), file, "gather");
  v.index_entries =
      static_cast<int>(bounded(gm, "index_entries", 1, max_of(need_field(v, "index_count", gm.loc()).width())));
  v.index_bits = static_cast<int>(bounded(gm, "index_bits", 8, 64));
  if (s.word_bits % v.index_bits != 0)
    fail(fmt::format("index_bits {} does not divide the word", v.index_bits), gm.loc("index_bits"));
  gm.finish();

  YamlMap pm(m.node("generate"), file, "generate");
  v.generate.loc = pm.loc();
  v.generate.rounds = static_cast<int>(bounded(pm, "rounds", 1, 64));
  for (const char* key : {"multipliers", "weyl"}) {
    const auto values = pm.integer_list(key);
    if (values.size() != 2) fail(fmt::format("generate: {} must be two 32-bit constants", key), pm.loc(key));
    auto& into = std::string_view(key) == "multipliers" ? v.generate.multipliers : v.generate.weyl;
    for (std::size_t i = 0; i < 2; ++i) {
      if (values[i] < 0 || values[i] > 0xFFFFFFFFLL) fail(fmt::format("generate: {} must be 32-bit", key), pm.loc(key));
      into[i] = static_cast<std::uint32_t>(values[i]);
    }
  }
  if (need_field(v, "seed", pm.loc()).width() != 64)
    fail("generate: the seed field must be 64 bits (k0, k1)", pm.loc());
  pm.finish();

  YamlMap tm(m.node("transform"), file, "transform");
  v.xform_id_field = tm.str("id_field");
  v.xform_mode_field = tm.str("mode_field");
  const MoverField& id_field = need_field(v, v.xform_id_field, tm.loc("id_field"));
  const MoverField& xmode_field = need_field(v, v.xform_mode_field, tm.loc("mode_field"));
  for (const auto& n : tm.seq("occupants")) {
    YamlMap om(n, file, "an occupant");
    TransformOccupant o;
    o.loc = om.loc();
    o.name = om.str("name");
    o.id = static_cast<std::uint32_t>(bounded(om, "id", 0, max_of(id_field.width())));
    o.in_bits = static_cast<int>(bounded(om, "in_bits", s.word_bits, 1 << 16));
    if (o.in_bits % s.word_bits != 0)
      fail(fmt::format("occupant {}: in_bits {} is not a whole number of words", o.name, o.in_bits), om.loc("in_bits"));
    o.out_words = static_cast<int>(bounded(om, "out_words", 1, 256));
    o.role = om.str("role");
    for (const auto& fn : om.seq_or_empty("mode_flags")) {
      YamlMap fm(fn, file, "a mode flag");
      OccupantModeFlag f;
      f.name = fm.str("name");
      f.bit = static_cast<int>(bounded(fm, "bit", 0, xmode_field.width() - 1));
      f.role = fm.str("role");
      fm.finish();
      o.mode_flags.push_back(std::move(f));
    }
    om.finish();
    for (const auto& other : v.occupants)
      if (other.id == o.id || other.name == o.name)
        fail(fmt::format("occupant {} reuses the id or the name of {}", o.name, other.name), o.loc);
    v.occupants.push_back(std::move(o));
  }
  tm.finish();
  if (!v.occupant_of(0)) fail("the transform slot needs an occupant at id 0 (bypass)", m.loc("transform"));

  YamlMap qm(m.node("quantiser"), file, "quantiser");
  QuantiserSpec& q = v.quantiser;
  q.loc = qm.loc();
  q.lanes = static_cast<int>(bounded(qm, "lanes", 1, 64));
  q.lane_elems = static_cast<int>(bounded(qm, "lane_elems", 1, 1024));
  q.code_bits = static_cast<int>(bounded(qm, "code_bits", 2, 16));
  q.scale_bias = static_cast<int>(bounded(qm, "scale_bias", 0, 31));
  q.sexp_min = static_cast<int>(bounded(qm, "sexp_min", -64, 64));
  q.sexp_max = static_cast<int>(bounded(qm, "sexp_max", q.sexp_min, 64));
  for (const auto& n : qm.seq("reciprocal")) {
    YamlMap rm(n, file, "a reciprocal");
    const int m8 = static_cast<int>(bounded(rm, "m8", 8, 15));
    const auto r = static_cast<std::uint32_t>(bounded(rm, "r", 1, 1 << 16));
    if (!q.reciprocal.emplace(m8, r).second) fail(fmt::format("reciprocal: m8 {} is listed twice", m8), rm.loc());
    rm.finish();
  }
  if (q.reciprocal.size() != 8) fail("reciprocal: R needs m8 = 8 .. 15", qm.loc("reciprocal"));
  qm.finish();
  if (const TransformOccupant* occ = by_name(v.occupants, "quantiser")) {
    const int fp16 = 16, scale = 8;
    if (occ->in_bits != q.lanes * q.lane_elems * fp16)
      fail(fmt::format("the quantiser takes {} bits; {} lanes of {} FP16 elements are {}", occ->in_bits, q.lanes,
                       q.lane_elems, q.lanes * q.lane_elems * fp16),
           occ->loc);
    const int elems_a_word = q.lanes * q.lane_elems / occ->out_words;
    if (elems_a_word * q.code_bits + q.lanes * scale != s.word_bits)
      fail(fmt::format("the quantiser's {} output words do not hold {} codes and {} scale fields each", occ->out_words,
                       elems_a_word, q.lanes),
           occ->loc);
  }
  v.parameters = read_parameters(m, file, s);
  m.finish();
}

void read_agent(YamlMap& top, const std::string& file, SystemNodeSpec& s, const NocSpec& noc) {
  YamlMap m(top.node("agent"), file, "agent");
  AgentSpec& a = s.agent;
  const NocLayout& req = noc.require_payload("mem_req");
  const NocField* len = req.field("len");
  if (!len) fail("noc.yaml's mem_req needs the field len", m.loc());
  a.write_max_len = static_cast<int>(bounded(m, "write_max_len", 0, max_of(len->width())));
  for (const auto& n : m.seq("serves")) {
    YamlMap sm(n, file, "a served address field");
    AgentServes sv;
    sv.loc = sm.loc();
    sv.field = sm.str("field");
    const NocField* f = noc.address_map.field(sv.field);
    if (!f) fail(fmt::format("serves: noc.yaml's address map has no field '{}'", sv.field), sm.loc("field"));
    sv.value = static_cast<std::uint64_t>(bounded(sm, "value", 0, max_of(f->width())));
    sm.finish();
    a.serves.push_back(std::move(sv));
  }
  const NocLayout& error = noc.require_payload("error");
  const NocField* rule = error.field("rule");
  if (!rule) fail("noc.yaml's error payload needs the field rule", m.loc());
  a.error_rules = read_codes(m, "error_rules", file, rule->width());
  for (const auto& r : a.error_rules) {
    if (r.code == 0) fail(fmt::format("error rule {}: code 0 means no error", r.name), r.loc);
    for (const auto& n : noc.error_rules)
      if (n.code == r.code || n.name == r.name)
        fail(fmt::format("error rule {} reuses the code or the name of noc.yaml's {}", r.name, n.name), r.loc);
  }
  a.parameters = read_parameters(m, file, s);
  m.finish();
}

void read_axi(YamlMap& top, const std::string& file, SystemNodeSpec& s) {
  YamlMap m(top.node("axi"), file, "axi");
  s.axi.boundary_bytes = static_cast<int>(bounded(m, "boundary_bytes", s.word_bytes(), 1 << 20));
  if ((s.axi.boundary_bytes & (s.axi.boundary_bytes - 1)) != 0)
    fail(fmt::format("boundary_bytes {} is not a power of two", s.axi.boundary_bytes), m.loc("boundary_bytes"));
  s.axi.max_burst_beats = static_cast<int>(bounded(m, "max_burst_beats", 1, 256));
  for (const auto& n : m.seq("masters")) {
    YamlMap mm(n, file, "an AXI master");
    SysAxiMaster x;
    x.loc = mm.loc();
    x.name = mm.str("name");
    x.id = static_cast<std::uint32_t>(bounded(mm, "id", 0, 255));
    mm.finish();
    for (const auto& o : s.axi.masters)
      if (o.id == x.id || o.name == x.name)
        fail(fmt::format("AXI master {} reuses the id or name of {}", x.name, o.name), x.loc);
    s.axi.masters.push_back(std::move(x));
  }
  m.finish();
  for (const char* need : {"agent", "mover"})
    if (!by_name(s.axi.masters, need)) fail(fmt::format("axi: the masters need '{}'", need), s.section("axi"));
  for (const auto& f : s.mover.flags)
    for (const auto v : f.values)
      if (v < 1 || v > s.axi.max_burst_beats)
        fail(fmt::format("flag {}: a burst of {} words is not 1 .. max_burst_beats {}", f.name, v,
                         s.axi.max_burst_beats),
             f.loc);
}

template <typename T>
const T& require(const T* p, std::string_view kind, std::string_view name) {
  if (!p) throw Error(std::string(kSpec), fmt::format("the system node spec has no {} '{}'", kind, name));
  return *p;
}

}  // namespace

std::string_view field_kind_name(MoverFieldKind k) {
  switch (k) {
    case MoverFieldKind::Value:
      return "value";
    case MoverFieldKind::Select:
      return "select";
    case MoverFieldKind::Strobe:
      return "strobe";
    case MoverFieldKind::Status:
      return "status";
  }
  return "?";
}

std::uint64_t MoverField::raw(std::uint64_t reg) const { return (reg >> lsb) & low_mask(width()); }

std::int64_t MoverField::value(std::uint64_t reg) const {
  const std::uint64_t r = raw(reg);
  return is_signed ? sign_extend(r, width()) : static_cast<std::int64_t>(r);
}

std::uint64_t MoverField::with(std::uint64_t reg, std::int64_t v) const {
  const std::uint64_t mask = low_mask(width()) << lsb;
  return (reg & ~mask) | ((static_cast<std::uint64_t>(v) << lsb) & mask);
}

bool MoverField::fits(std::int64_t v) const {
  if (is_signed) {
    if (width() >= 64) return true;
    const std::int64_t half = std::int64_t{1} << (width() - 1);
    return v >= -half && v < half;
  }
  if (width() >= 64) return true;  // every bit pattern: a 64-bit value is carried as its bits
  return v >= 0 && v <= max_of(width());
}

const MoverField* MoverRegister::field(std::string_view n) const { return by_name(fields, n); }

bool MoverRegister::read_only() const {
  for (const auto& f : fields)
    if (f.kind != MoverFieldKind::Status) return false;
  return !fields.empty();
}

const OccupantModeFlag* TransformOccupant::mode_flag(std::string_view n) const { return by_name(mode_flags, n); }

const MoverRegister* MoverSpec::reg(std::string_view n) const { return by_name(registers, n); }

const MoverRegister* MoverSpec::reg_at(std::uint32_t offset) const {
  for (const auto& r : registers)
    if (r.offset == offset) return &r;
  return nullptr;
}

const MoverField* MoverSpec::field(std::string_view n, const MoverRegister** reg) const {
  for (const auto& r : registers)
    if (const MoverField* f = r.field(n)) {
      if (reg) *reg = &r;
      return f;
    }
  return nullptr;
}

const MoverField& MoverSpec::require_field(std::string_view n, std::string_view needed_by) const {
  const MoverField* f = field(n);
  if (!f)
    throw Error(std::string(kSpec),
                fmt::format("{} needs the mover register field '{}', which the spec lacks", needed_by, n));
  return *f;
}

const SysCode* MoverSpec::mode(std::string_view n) const { return by_name(modes, n); }

const SysCode* MoverSpec::mode_of(std::uint32_t code) const {
  for (const auto& m : modes)
    if (m.code == code) return &m;
  return nullptr;
}

const SysCode& MoverSpec::require_mode(std::string_view n) const { return require(mode(n), "mode", n); }
const SysCode& MoverSpec::require_fault(std::string_view n) const { return require(by_name(faults, n), "fault", n); }
const SysCode& MoverSpec::require_walker(std::string_view n) const { return require(by_name(walkers, n), "walker", n); }
const MoverFlag& MoverSpec::require_flag(std::string_view n) const { return require(by_name(flags, n), "flag", n); }

const MoverElemWidth* MoverSpec::elem_width_of(std::uint32_t code) const {
  for (const auto& w : elem_widths)
    if (w.code == code) return &w;
  return nullptr;
}

const TransformOccupant* MoverSpec::occupant_of(std::uint32_t id) const {
  for (const auto& o : occupants)
    if (o.id == id) return &o;
  return nullptr;
}

const TransformOccupant& MoverSpec::require_occupant(std::string_view n) const {
  return require(by_name(occupants, n), "occupant", n);
}

int MoverSpec::bound_axis_of(std::uint32_t code) const {
  return code < bound_selectors.size() ? bound_selectors[code].axis : -1;
}

const SysCode& AgentSpec::require_error_rule(std::string_view n) const {
  return require(by_name(error_rules, n), "agent error rule", n);
}

SourceLoc SystemNodeSpec::section(std::string_view key) const {
  const auto it = sections.find(key);
  return it == sections.end() ? SourceLoc{path} : it->second;
}

std::string system_node_spec_path(const std::string& isa_spec_path) {
  return (std::filesystem::path(isa_spec_path).parent_path() / "system_node.yaml").string();
}

SystemNodeSpec load_system_node_spec_text(const std::string& text, const std::string& path, const NocSpec& noc) {
  try {
    const YAML::Node root = YAML::Load(text);
    YamlMap top(root, path, "the system node spec");
    SystemNodeSpec s;
    s.path = path;
    s.sha256 = sha256_hex(text);
    s.name = top.str("name");
    (void)top.integer("version");
    for (const auto& kv : root) s.sections[kv.first.as<std::string>()] = loc_of(path, kv.first);
    s.word_bits = static_cast<int>(bounded(top, "word_bits", 256, 256));  // the models hold a word as 32 bytes
    if (s.word_bits != noc.payload_bits)
      fail(fmt::format("word_bits {} is not noc.yaml's payload of {} bits", s.word_bits, noc.payload_bits),
           top.loc("word_bits"));
    s.address_bits = static_cast<int>(bounded(top, "address_bits", 8, 64));
    if (s.address_bits != noc.address_bits)
      fail(fmt::format("address_bits {} is not noc.yaml's address map of {} bits", s.address_bits, noc.address_bits),
           top.loc("address_bits"));
    read_mover(top, path, s);
    read_agent(top, path, s, noc);
    read_axi(top, path, s);
    top.finish();
    if (s.mover.require_field("base", "the walker").width() != s.address_bits)
      fail(fmt::format("WALKER.base is not {} bits (address_bits)", s.address_bits), s.mover.field("base")->loc);
    return s;
  } catch (const YAML::Exception& e) {
    throw Error("sysnode.yaml", e.msg, SourceLoc{path, e.mark.line + 1, e.mark.column + 1});
  }
}

SystemNodeSpec load_system_node_spec(const std::string& path, const NocSpec& noc) {
  return load_system_node_spec_text(read_file(path, "sysnode.io"), path, noc);
}

NocParams resolve_mover_params(const SystemNodeSpec& spec, const std::map<std::string, std::string>& overrides) {
  return resolve_build_params(spec.mover.parameters, {}, spec.path, overrides, "the mover");
}

NocParams resolve_agent_params(const SystemNodeSpec& spec, const std::map<std::string, std::string>& overrides) {
  return resolve_build_params(spec.agent.parameters, {}, spec.path, overrides, "the agent");
}

}  // namespace tpugen
