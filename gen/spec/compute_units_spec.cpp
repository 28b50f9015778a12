#include "spec/compute_units_spec.h"

#include <fmt/format.h>

#include <algorithm>
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

constexpr std::string_view kSpec = "cu.spec";

[[noreturn]] void fail(const std::string& message, const SourceLoc& where) {
  throw Error(std::string(kSpec), message, where);
}

std::int64_t bounded(YamlMap& m, const std::string& key, std::int64_t lo, std::int64_t hi) {
  return m.integer_in(key, lo, hi, kSpec);
}

template <typename T>
const T& require(const T* found, std::string_view what, std::string_view name, const std::string& path) {
  if (found == nullptr) throw Error("cu.spec", fmt::format("{} has no {} named {}", path, what, name));
  return *found;
}

constexpr CuAccess kAccesses[] = {CuAccess::Rw, CuAccess::Ro, CuAccess::Strobe, CuAccess::W1c};

CuRegister read_register(const YAML::Node& n, const std::string& file, int data_bits) {
  YamlMap m(n, file, "a register");
  CuRegister r;
  r.loc = m.loc();
  r.name = m.str("name");
  r.offset = static_cast<std::uint32_t>(bounded(m, "offset", 0, 0xFFFFF));
  if (r.offset % static_cast<std::uint32_t>(data_bits / 8) != 0)
    fail(fmt::format("register {}: offset {:#x} is not a multiple of {} bytes", r.name, r.offset, data_bits / 8),
         m.loc("offset"));
  r.role = m.str("role");
  BitOccupancy occ(data_bits, std::string(kSpec));
  for (const auto& fn : m.seq("fields")) {
    YamlMap fm(fn, file, "a register field");
    CuRegField f;
    f.loc = fm.loc();
    f.name = fm.str("name");
    const std::string what = fmt::format("register {} field {}", r.name, f.name);
    std::tie(f.msb, f.lsb) = fm.bit_range("bits", data_bits, what, kSpec);
    const std::string access = fm.str("access");
    bool known = false;
    for (CuAccess a : kAccesses)
      if (access_name(a) == access) f.access = a, known = true;
    if (!known) fail(fmt::format("{}: access must be rw, ro, strobe or w1c, not '{}'", what, access), fm.loc("access"));
    f.role = fm.str("role");
    fm.finish();
    occ.take(f.msb, f.lsb, what, f.loc);
    if (r.field(f.name) != nullptr) fail(fmt::format("register {}: a second field named {}", r.name, f.name), f.loc);
    r.fields.push_back(std::move(f));
  }
  m.finish();
  return r;
}

std::vector<CuRegister> read_registers(YamlMap& m, const std::string& key, const std::string& file, int data_bits) {
  std::vector<CuRegister> out;
  for (const auto& n : m.seq(key)) {
    CuRegister r = read_register(n, file, data_bits);
    for (const auto& o : out) {
      if (o.name == r.name) fail(fmt::format("a second register named {}", r.name), r.loc);
      if (o.offset == r.offset) fail(fmt::format("register {} reuses offset {:#x} of {}", r.name, r.offset, o.name), r.loc);
    }
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const CuRegister& a, const CuRegister& b) { return a.offset < b.offset; });
  return out;
}

UnitField read_unit_field(const YAML::Node& n, const std::string& file, const std::string& where_in) {
  YamlMap m(n, file, "a payload field");
  UnitField f;
  f.loc = m.loc();
  f.name = m.str("name");
  const std::string what = fmt::format("{} field {}", where_in, f.name);
  std::tie(f.msb, f.lsb) = m.bit_range("bits", 256, what, kSpec);
  f.zero_means = m.expr_opt("zero_means");
  if (m.has("repeat")) {
    f.repeat = static_cast<int>(bounded(m, "repeat", 1, f.width()));
    if (f.width() % f.repeat != 0)
      fail(fmt::format("{}: {} bits do not split into {} elements", what, f.width(), f.repeat), m.loc("repeat"));
  }
  BitOccupancy elem(f.element_width(), std::string(kSpec));
  for (const auto& e : m.seq_or_empty("element")) {
    YamlMap em(e, file, "an element sub-field");
    NocSubfield s;
    s.name = em.str("name");
    const std::string ewhat = fmt::format("{} element {}", what, s.name);
    std::tie(s.msb, s.lsb) = em.bit_range("bits", f.element_width(), ewhat, kSpec);
    elem.take(s.msb, s.lsb, ewhat, em.loc());
    em.finish();
    f.element.push_back(s);
  }
  if (!f.element.empty() && f.repeat == 1) fail(fmt::format("{}: an element list needs repeat", what), f.loc);
  f.role = m.str("role");
  m.finish();
  return f;
}

UnitSpec read_unit(const YAML::Node& n, const std::string& file, int detail_bits) {
  YamlMap m(n, file, "a unit");
  UnitSpec u;
  u.loc = m.loc();
  u.name = m.str("name");
  u.type = static_cast<std::uint32_t>(bounded(m, "type", 1, 0xFFFF));
  u.version = static_cast<std::uint32_t>(bounded(m, "version", 0, 0xFF));
  u.role = m.str("role");
  {
    YamlMap om(m.node("opcode"), file, "opcode");
    std::tie(u.opcode_msb, u.opcode_lsb) = om.bit_range("bits", 256, "the opcode", kSpec);
    om.finish();
  }
  std::set<std::string> names;
  for (const auto& bn : m.seq("buffers")) {
    YamlMap bm(bn, file, "a buffer");
    UnitBuffer b;
    b.loc = bm.loc();
    b.name = bm.str("name");
    b.id = static_cast<std::uint32_t>(bounded(bm, "id", 0, 15));
    b.granules = bm.expr("granules");
    b.role = bm.str("role");
    bm.finish();
    for (const auto& o : u.buffers)
      if (o.name == b.name || o.id == b.id) fail(fmt::format("buffer {} reuses a name or the id of {}", b.name, o.name), b.loc);
    u.buffers.push_back(std::move(b));
  }
  for (const auto& dn : m.seq_or_empty("derived")) {
    YamlMap dm(dn, file, "a derived constant");
    u.derived.push_back({dm.str("name"), dm.expr("value"), dm.str("role"), dm.loc()});
    dm.finish();
  }
  for (const auto& tn : m.seq("tags")) {
    YamlMap tm(tn, file, "a tag range");
    u.tags.push_back({tm.str("name"), tm.expr("first"), tm.expr("count"), tm.str("role"), tm.loc()});
    tm.finish();
  }
  for (const auto& cn : m.seq_or_empty("constraints")) {
    YamlMap cm(cn, file, "a constraint");
    u.constraints.push_back({cm.expr("expr"), cm.str("rule"), cm.loc()});
    cm.finish();
  }
  const std::int64_t max_opcode = (std::int64_t{1} << u.opcode_width()) - 1;
  for (const auto& on : m.seq("opcodes")) {
    YamlMap om(on, file, "an opcode");
    UnitOpcode op;
    op.loc = om.loc();
    op.name = om.str("name");
    op.code = static_cast<std::uint32_t>(bounded(om, "code", 0, max_opcode));
    op.role = om.str("role");
    op.result = om.str("result");
    BitOccupancy occ(256, std::string(kSpec));
    occ.take(u.opcode_msb, u.opcode_lsb, "the opcode", u.loc);
    for (const auto& fn : om.seq("fields")) {
      UnitField f = read_unit_field(fn, file, fmt::format("unit {} opcode {}", u.name, op.name));
      occ.take(f.msb, f.lsb, fmt::format("opcode {} field {}", op.name, f.name), f.loc);
      if (op.field(f.name) != nullptr) fail(fmt::format("opcode {}: a second field named {}", op.name, f.name), f.loc);
      op.fields.push_back(std::move(f));
    }
    om.finish();
    for (const auto& o : u.opcodes)
      if (o.name == op.name || o.code == op.code)
        fail(fmt::format("opcode {} reuses a name or the code of {}", op.name, o.name), op.loc);
    u.opcodes.push_back(std::move(op));
  }
  u.status_selects = read_noc_codes(m, "status_selects", file, 255, kSpec);
  u.faults = read_noc_codes(m, "faults", file, 255, kSpec, false, false, detail_bits);
  m.finish();
  return u;
}

void validate(const ComputeUnitsSpec& s, const NocSpec& noc, const SystemNodeSpec& sysnode) {
  const CuBaseSpec& b = s.cu_base;
  bool other = false;
  for (const auto& st : b.steering) {
    if (st.type == "other") other = true;
    else if (noc.type(st.type) == nullptr) fail(fmt::format("steering: noc.yaml has no type {}", st.type), st.loc);
    if (st.to != "inst_fifo" && st.to != "wrapper" && st.to != "recv_fifo")
      fail(fmt::format("steering {}: to must be inst_fifo, wrapper or recv_fifo, not '{}'", st.type, st.to), st.loc);
  }
  if (!other) fail("steering: no `other` row for the types not listed", s.section("cu_base"));
  const char* whens[] = {"fault", "last", "otherwise"};
  if (b.retirement.size() != 3) fail("retirement: one row each for fault, last and otherwise", s.section("cu_base"));
  for (std::size_t i = 0; i < 3; ++i) {
    const CuRetirement& r = b.retirement[i];
    if (r.when != whens[i])
      fail(fmt::format("retirement row {}: when must be {} (the rows in the order they apply)", i, whens[i]), r.loc);
    const NocCode* sig = by_name(noc.signals, r.signal);
    if (sig == nullptr || !sig->generated)
      fail(fmt::format("retirement: {} is not a signal noc.yaml lets a unit send", r.signal), r.loc);
    if (r.arg != "exec_result" && r.arg != "txn") fail("retirement: arg must be exec_result or txn", r.loc);
  }
  const NocField& code = *b.fault_result.field("code");
  if (b.wrapper_codes.to >= (1u << code.width())) fail("wrapper_codes do not fit fault_result.code", s.section("cu_base"));
  for (const auto& f : b.faults)
    if (!b.wrapper_codes.contains(f.code))
      fail(fmt::format("wrapper fault {}: code {:#x} is outside wrapper_codes", f.name, f.code), f.loc);
  for (const auto& u : s.units) {
    for (const auto& f : u.faults)
      if (b.wrapper_codes.contains(f.code) || f.code == 0 || f.code >= (1u << code.width()))
        fail(fmt::format("unit {} fault {}: code {:#x} must be nonzero, fit fault_result.code and stay below the "
                         "wrapper's codes",
                         u.name, f.name, f.code),
             f.loc);
    for (const auto& o : s.units)
      if (&o != &u && o.type == u.type) fail(fmt::format("unit {} reuses CAPS.type {} of {}", u.name, u.type, o.name), u.loc);
    if (u.opcode_of(0) != nullptr) fail(fmt::format("unit {}: opcode 0 is reserved (a zero flit must fault)", u.name), u.loc);
  }
  for (const char* need : {"UNKNOWN_OPCODE"})
    for (const auto& u : s.units)
      if (by_name(u.faults, need) == nullptr) fail(fmt::format("unit {} lacks the fault {}", u.name, need), u.loc);

  const OrchestratorSpec& o = s.orchestrator;
  for (const char* need : {"ORCH_CAPS", "PROG_BASE", "PROG_LEN", "PROG_DST", "PROG_CRED", "PROG_KICK", "PROG_STAT",
                           "COMPLETIONS", "IRQ_ENABLE", "IRQ_STATUS", "STRAY", "CTRL_REQ", "CTRL_STAT", "CTRL_VALUE"})
    if (by_name(o.registers, need) == nullptr) fail(fmt::format("orchestrator: no register {}", need), s.section("orchestrator"));
  const std::uint32_t window_end = o.window_offset + o.window_bytes;
  std::uint32_t mover_end = 0;
  for (const auto& r : sysnode.mover.registers) mover_end = std::max(mover_end, r.offset + sysnode.mover.register_bits / 8);
  if (mover_end > o.window_bytes)
    fail(fmt::format("mover_window: {:#x} bytes do not hold the mover's registers (to {:#x})", o.window_bytes, mover_end),
         s.section("orchestrator"));
  if (o.payload_words * 64 != noc.payload_bits || o.header_word < o.payload_words ||
      static_cast<std::uint32_t>(o.header_word + 1) * 8 > o.slot_bytes)
    fail("staging: the payload's words and the header word must fit a slot", s.section("orchestrator"));
  auto overlaps = [&](std::uint32_t off, std::uint32_t end) {
    return !(end <= o.window_offset || off >= window_end) || end > o.staging_offset;
  };
  for (const auto& r : o.registers)
    if (overlaps(r.offset, r.offset + 8)) fail(fmt::format("register {} overlaps the window or the staging slots", r.name), r.loc);
  for (const auto& r : o.channel_registers) {
    if (r.offset - o.channel_registers.front().offset >= o.channel_stride)
      fail(fmt::format("channel register {} lies past the channel stride", r.name), r.loc);
    for (const auto& g : o.registers)
      if (g.offset >= o.channel_registers.front().offset) fail(fmt::format("register {} lies among the channels'", g.name), g.loc);
  }
}

}  // namespace

std::string_view access_name(CuAccess a) {
  switch (a) {
    case CuAccess::Rw: return "rw";
    case CuAccess::Ro: return "ro";
    case CuAccess::Strobe: return "strobe";
    case CuAccess::W1c: return "w1c";
  }
  return "?";
}

std::uint64_t CuRegField::get(std::uint64_t reg) const {
  const std::uint64_t mask = width() >= 64 ? ~0ULL : (1ULL << width()) - 1;
  return (reg >> lsb) & mask;
}

std::uint64_t CuRegField::with(std::uint64_t reg, std::uint64_t v) const {
  const std::uint64_t mask = width() >= 64 ? ~0ULL : (1ULL << width()) - 1;
  return (reg & ~(mask << lsb)) | ((v & mask) << lsb);
}

const CuRegField* CuRegister::field(std::string_view n) const { return by_name(fields, n); }
const CuRegField& CuRegister::require_field(std::string_view n) const {
  return require(field(n), "field of register " + name, n, "compute_units.yaml");
}

const NocCode& CuBaseSpec::require_fault(std::string_view n) const {
  return require(by_name(faults, n), "wrapper fault", n, "compute_units.yaml");
}

const std::string& CuBaseSpec::steer(std::string_view type) const {
  const CuSteering* other = nullptr;
  for (const auto& s : steering) {
    if (s.type == type) return s.to;
    if (s.type == "other") other = &s;
  }
  return require(other, "steering row", "other", "compute_units.yaml").to;
}

const CuRegister& OrchestratorSpec::require_register(std::string_view n) const {
  return require(by_name(registers, n), "orchestrator register", n, "compute_units.yaml");
}
const CuRegister& OrchestratorSpec::require_channel_register(std::string_view n) const {
  return require(by_name(channel_registers, n), "channel register", n, "compute_units.yaml");
}
const NocCode& OrchestratorSpec::require_state(std::string_view n) const {
  return require(by_name(channel_states, n), "channel state", n, "compute_units.yaml");
}
const NocCode& OrchestratorSpec::require_kick_error(std::string_view n) const {
  return require(by_name(kick_errors, n), "kick error", n, "compute_units.yaml");
}

std::uint64_t OrchestratorSpec::address_span(std::int64_t prog_flits, std::int64_t channels) const {
  const std::uint64_t chans =
      channel_registers.empty() ? 0 : channel_registers.front().offset + static_cast<std::uint64_t>(channels) * channel_stride;
  return std::max<std::uint64_t>({staging_offset + static_cast<std::uint64_t>(prog_flits) * slot_bytes,
                                  window_offset + window_bytes, chans});
}

const NocSubfield* UnitField::subfield(std::string_view n) const { return by_name(element, n); }
const UnitField* UnitOpcode::field(std::string_view n) const { return by_name(fields, n); }
const UnitField& UnitOpcode::require_field(std::string_view n) const {
  return require(field(n), "field of opcode " + name, n, "compute_units.yaml");
}

const UnitOpcode* UnitSpec::opcode_of(std::uint32_t code) const {
  for (const auto& o : opcodes)
    if (o.code == code) return &o;
  return nullptr;
}
const UnitOpcode& UnitSpec::require_opcode(std::string_view n) const {
  return require(by_name(opcodes, n), "opcode of unit " + name, n, "compute_units.yaml");
}
const NocCode& UnitSpec::require_fault(std::string_view n) const {
  return require(by_name(faults, n), "fault of unit " + name, n, "compute_units.yaml");
}
const NocCode& UnitSpec::require_select(std::string_view n) const {
  return require(by_name(status_selects, n), "status select of unit " + name, n, "compute_units.yaml");
}
const UnitBuffer& UnitSpec::require_buffer(std::string_view n) const {
  return require(by_name(buffers, n), "buffer of unit " + name, n, "compute_units.yaml");
}
const UnitTag& UnitSpec::require_tag(std::string_view n) const {
  return require(by_name(tags, n), "tag range of unit " + name, n, "compute_units.yaml");
}

std::int64_t UnitConstants::operator[](std::string_view n) const {
  if (auto v = scope(n)) return *v;
  throw Error("cu.spec", fmt::format("the unit has no constant {}", n));
}

const UnitConstants::Range& UnitConstants::tag(std::string_view n) const {
  auto it = tags.find(n);
  if (it == tags.end()) throw Error("cu.spec", fmt::format("the unit has no tag range {}", n));
  return it->second;
}

UnitConstants evaluate_unit(const UnitSpec& unit, const Scope& core) {
  UnitConstants c;
  auto eval = [&](const Expr& e, const SourceLoc& at) {
    const Scope scope = [&](std::string_view name) -> std::optional<std::int64_t> {
      if (auto it = c.values.find(name); it != c.values.end()) return it->second;
      return core(name);
    };
    try {
      return e.eval(scope);
    } catch (const ExprError& err) {
      throw Error("cu.spec", fmt::format("unit {}: '{}': {}", unit.name, e.text(), err.what()), at);
    }
  };
  for (const auto& d : unit.derived) c.values[d.name] = eval(d.value, d.loc);
  for (const auto& k : unit.constraints)
    if (eval(k.expr, k.loc) == 0)
      throw Error("cu.constraint", fmt::format("unit {}: {} ({})", unit.name, k.rule, k.expr.text()), k.loc);
  std::int64_t next = 0;
  for (const auto& t : unit.tags) {
    UnitConstants::Range r{eval(t.first, t.loc), eval(t.count, t.loc)};
    if (r.first != next || r.count < 1 || r.first + r.count > 256)
      throw Error("cu.constraint",
                  fmt::format("unit {}: tag range {} ({} .. {}) must follow the previous one within the 8-bit txn",
                              unit.name, t.name, r.first, r.first + r.count - 1),
                  t.loc);
    next = r.first + r.count;
    c.tags[t.name] = r;
  }
  for (const auto& b : unit.buffers) c.granules[b.name] = eval(b.granules, b.loc);
  // The scope keeps its own copy of every core parameter the unit's
  // expressions name, so it outlives `core` (and what `core` refers to).
  auto values = std::make_shared<std::map<std::string, std::int64_t, std::less<>>>(c.values);
  auto snapshot = [&](const Expr& e) {
    for (const auto& n : e.names())
      if (!values->count(n))
        if (auto v = core(n)) (*values)[n] = *v;
  };
  for (const auto& op : unit.opcodes)
    for (const auto& f : op.fields)
      if (f.zero_means) snapshot(*f.zero_means);
  for (const auto& d : unit.derived) snapshot(d.value);
  for (const auto& b : unit.buffers) snapshot(b.granules);
  for (const auto& t : unit.tags) snapshot(t.first), snapshot(t.count);
  c.scope = [values](std::string_view name) -> std::optional<std::int64_t> {
    if (auto it = values->find(name); it != values->end()) return it->second;
    return std::nullopt;
  };
  return c;
}

SourceLoc ComputeUnitsSpec::section(std::string_view key) const {
  auto it = sections.find(key);
  return it == sections.end() ? SourceLoc{path, 0, 0} : it->second;
}

const UnitSpec& ComputeUnitsSpec::require_unit(std::string_view n) const { return require(by_name(units, n), "unit", n, path); }

std::string compute_units_spec_path(const std::string& isa_spec_path) {
  return (std::filesystem::path(isa_spec_path).parent_path() / "compute_units.yaml").string();
}

ComputeUnitsSpec load_compute_units_spec_text(const std::string& text, const std::string& path, const NocSpec& noc,
                                              const SystemNodeSpec& sysnode) {
  try {
    const YAML::Node root = YAML::Load(text);
    YamlMap top(root, path, "the compute-units spec");
    ComputeUnitsSpec s;
    s.path = path;
    s.sha256 = sha256_hex(text);
    s.name = top.str("name");
    (void)top.integer("version");
    for (const auto& kv : root) s.sections[kv.first.as<std::string>()] = loc_of(path, kv.first);
    const Scope no_names = [](std::string_view) -> std::optional<std::int64_t> { return std::nullopt; };

    YamlMap bm(top.node("cu_base"), path, "cu_base");
    for (const auto& n : bm.seq("steering")) {
      YamlMap m(n, path, "a steering row");
      s.cu_base.steering.push_back({m.str("type"), m.str("to"), m.str("role"), m.loc()});
      m.finish();
    }
    for (const auto& n : bm.seq("retirement")) {
      YamlMap m(n, path, "a retirement row");
      s.cu_base.retirement.push_back({m.str("when"), m.str("signal"), m.str("arg"), m.str("role"), m.loc()});
      m.finish();
    }
    YAML::Node fr = YAML::Node(YAML::NodeType::Map);
    fr["name"] = "fault_result";
    fr["fields"] = bm.node("fault_result");
    s.cu_base.fault_result = read_noc_layout(fr, path, 32, "fault_result", kSpec);
    s.cu_base.fault_result.loc = bm.loc("fault_result");
    if (s.cu_base.fault_result.field("code") == nullptr || s.cu_base.fault_result.field("detail") == nullptr)
      fail("fault_result needs the fields code and detail", s.cu_base.fault_result.loc);
    // Every fault's detail sub-fields lie within fault_result.detail.
    const int detail_bits = s.cu_base.fault_result.field("detail")->width();
    s.cu_base.faults = read_noc_codes(bm, "faults", path, 255, kSpec, false, false, detail_bits);
    s.cu_base.wrapper_codes = read_noc_range(bm, "wrapper_codes", path, 255, kSpec);
    s.cu_base.data_flits = bm.str("data_flits");
    for (const auto& n : bm.seq("parameters"))
      s.cu_base.parameters.push_back(read_build_parameter(n, path, no_names, {}, kSpec));
    bm.finish();

    YamlMap om(top.node("orchestrator"), path, "orchestrator");
    OrchestratorSpec& o = s.orchestrator;
    o.data_bits = static_cast<int>(bounded(om, "data_bits", 64, 64));
    {
      YamlMap st(om.node("staging"), path, "staging");
      o.staging_offset = static_cast<std::uint32_t>(bounded(st, "offset", 0, 0xFFFFF));
      o.slot_bytes = static_cast<std::uint32_t>(bounded(st, "slot_bytes", 8, 4096));
      o.payload_words = static_cast<int>(bounded(st, "payload_words", 1, 64));
      o.header_word = static_cast<int>(bounded(st, "header_word", 0, 511));
      st.finish();
      YamlMap w(om.node("mover_window"), path, "mover_window");
      o.window_offset = static_cast<std::uint32_t>(bounded(w, "offset", 0, 0xFFFFF));
      o.window_bytes = static_cast<std::uint32_t>(bounded(w, "bytes", 8, 0x10000));
      w.finish();
    }
    o.registers = read_registers(om, "registers", path, o.data_bits);
    {
      YamlMap cm(om.node("channel_registers"), path, "channel_registers");
      o.channel_stride = static_cast<std::uint32_t>(bounded(cm, "stride", 8, 0x1000));
      o.channel_registers = read_registers(cm, "registers", path, o.data_bits);
      cm.finish();
    }
    o.channel_states = read_noc_codes(om, "channel_states", path, 7, kSpec);
    o.kick_errors = read_noc_codes(om, "kick_errors", path, 15, kSpec);
    for (const auto& n : om.seq("parameters")) o.parameters.push_back(read_build_parameter(n, path, no_names, {}, kSpec));
    om.finish();

    for (const auto& n : top.seq("units")) {
      s.units.push_back(read_unit(n, path, detail_bits));
      for (std::size_t i = 0; i + 1 < s.units.size(); ++i)
        if (s.units[i].name == s.units.back().name)
          fail(fmt::format("a second unit named {}", s.units.back().name), s.units.back().loc);
    }
    top.finish();
    validate(s, noc, sysnode);
    return s;
  } catch (const YAML::Exception& e) {
    throw Error("cu.yaml", e.msg, SourceLoc{path, e.mark.line + 1, e.mark.column + 1});
  }
}

ComputeUnitsSpec load_compute_units_spec(const std::string& path, const NocSpec& noc, const SystemNodeSpec& sysnode) {
  return load_compute_units_spec_text(read_file(path, "cu.io"), path, noc, sysnode);
}

NocParams resolve_cu_base_params(const ComputeUnitsSpec& spec, const std::map<std::string, std::string>& overrides) {
  return resolve_build_params(spec.cu_base.parameters, {}, spec.path, overrides, "the CU wrapper");
}

NocParams resolve_orchestrator_params(const ComputeUnitsSpec& spec,
                                      const std::map<std::string, std::string>& overrides) {
  return resolve_build_params(spec.orchestrator.parameters, {}, spec.path, overrides, "the orchestrator");
}

}  // namespace tpugen
