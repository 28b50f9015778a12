#include "spec/axi_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "util/bits.h"
#include "util/file_io.h"
#include "spec/hash.h"
#include "spec/yaml_reader.h"

namespace tpugen {

namespace {

constexpr std::string_view kSpec = "axi.spec";

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int bounded(YamlMap& m, const std::string& key, std::int64_t lo, std::int64_t hi) {
  return static_cast<int>(m.integer_in(key, lo, hi, kSpec));
}

FieldAccess parse_access(const std::string& word, const SourceLoc& where) {
  for (const FieldAccess a : {FieldAccess::Rw, FieldAccess::Ro, FieldAccess::W1sHc, FieldAccess::Cor, FieldAccess::Tow})
    if (access_name(a) == word) return a;
  throw Error(std::string(kSpec), fmt::format("access '{}' is none of rw, ro, w1s_hc, cor, tow", word), where);
}

AxiStream read_stream(const YAML::Node& n, const std::string& file) {
  YamlMap m(n, file, "a master stream");
  AxiStream s;
  s.loc = m.loc();
  s.port = m.str("port");
  s.id = bounded(m, "id", 0, 255);
  for (const auto& b : m.seq("base")) s.bases.push_back(b.as<std::string>());
  if (s.bases.empty()) throw Error(std::string(kSpec), fmt::format("stream '{}' names no base", s.port), s.loc);
  s.role = m.str("role");
  m.finish();
  return s;
}

Register read_register(const YAML::Node& n, const std::string& file, int data_bits) {
  YamlMap m(n, file, "a control register");
  Register r;
  r.loc = m.loc();
  r.name = m.str("name");
  const std::int64_t off = m.integer("offset");
  if (off < 0 || off % (data_bits / 8) != 0)
    throw Error(std::string(kSpec), fmt::format("register {}: offset {:#x} is not a multiple of {} bytes", r.name, off,
                                                data_bits / 8),
                m.loc("offset"));
  r.offset = static_cast<std::uint32_t>(off);
  r.role = m.str("role");
  std::uint64_t used = 0;
  for (const auto& fn : m.seq("fields")) {
    YamlMap f(fn, file, "a register field");
    RegField rf;
    rf.loc = f.loc();
    rf.name = f.str("name");
    rf.lsb = bounded(f, "lsb", 0, data_bits - 1);
    rf.width = f.has("width") ? bounded(f, "width", 1, data_bits) : 1;
    rf.access = parse_access(f.str("access"), f.loc("access"));
    rf.role = f.str("role");
    f.finish();
    if (rf.lsb + rf.width > data_bits)
      throw Error(std::string(kSpec),
                  fmt::format("field {}: bits {}..{} leave the {}-bit register {}", rf.name, rf.lsb,
                              rf.lsb + rf.width - 1, data_bits, r.name),
                  rf.loc);
    const std::uint64_t mask = low_mask(rf.width) << rf.lsb;
    if (used & mask)
      throw Error(std::string(kSpec), fmt::format("field {} overlaps another field of {}", rf.name, r.name), rf.loc);
    used |= mask;
    r.fields.push_back(rf);
  }
  if (r.fields.empty()) throw Error(std::string(kSpec), fmt::format("register {} has no field", r.name), r.loc);
  m.finish();
  return r;
}

void validate(const AxiTopSpec& s) {
  std::set<std::string> names;
  std::set<std::uint32_t> offsets;
  for (const auto& r : s.control.registers) {
    if (r.offset >= (1U << s.control.addr_bits))
      throw Error(std::string(kSpec),
                  fmt::format("register {} at {:#x} lies past the {}-bit control address space", r.name, r.offset,
                              s.control.addr_bits),
                  r.loc);
    if (!offsets.insert(r.offset).second)
      throw Error(std::string(kSpec), fmt::format("register {} reuses offset {:#x}", r.name, r.offset), r.loc);
    if (!names.insert(r.name).second)
      throw Error(std::string(kSpec), fmt::format("a second register named {}", r.name), r.loc);
    for (const auto& f : r.fields)
      if (!names.insert(f.name).second)
        throw Error(std::string(kSpec), fmt::format("a second field or register named {}", f.name), f.loc);
  }
  std::set<std::string> ports;
  for (const auto& st : s.master.streams) {
    if (!ports.insert(st.port).second)
      throw Error(std::string(kSpec), fmt::format("a second stream for port {}", st.port), st.loc);
    if (st.id >= (1 << s.master.id_bits))
      throw Error(std::string(kSpec),
                  fmt::format("stream {}: ID {} does not fit {} ID bit(s)", st.port, st.id, s.master.id_bits), st.loc);
    for (const auto& b : st.bases)
      for (const char* half : {"_lo", "_hi"}) {
        const RegField* f = s.field(b + half);
        if (!f || f->access != FieldAccess::Rw || f->width != s.control.data_bits || f->lsb != 0)
          throw Error(std::string(kSpec),
                      fmt::format("stream {}: base {} needs a full-width rw field {}{}", st.port, b, b, half), st.loc);
      }
  }
  if (!power_of_two(s.master.boundary_bytes))
    throw Error(std::string(kSpec), fmt::format("boundary_bytes {} is not a power of two", s.master.boundary_bytes),
                SourceLoc{s.path});
}

}  // namespace

std::string_view access_name(FieldAccess a) {
  switch (a) {
    case FieldAccess::Rw: return "rw";
    case FieldAccess::Ro: return "ro";
    case FieldAccess::W1sHc: return "w1s_hc";
    case FieldAccess::Cor: return "cor";
    case FieldAccess::Tow: return "tow";
  }
  return "?";
}

const AxiStream* AxiMasterSpec::stream(std::string_view port) const {
  for (const auto& s : streams)
    if (s.port == port) return &s;
  return nullptr;
}

const RegField* AxiTopSpec::field(std::string_view field_name, const Register** reg) const {
  for (const auto& r : control.registers)
    for (const auto& f : r.fields)
      if (f.name == field_name) {
        if (reg) *reg = &r;
        return &f;
      }
  return nullptr;
}

const RegField& AxiTopSpec::require_field(std::string_view field_name, std::string_view needed_by) const {
  if (const RegField* f = field(field_name)) return *f;
  throw Error(std::string(kSpec), fmt::format("the control map has no field '{}' ({} needs it)", field_name, needed_by),
              SourceLoc{path});
}

std::string axi_top_spec_path(const std::string& isa_spec_path) {
  return (std::filesystem::path(isa_spec_path).parent_path() / "axi_top.yaml").string();
}

AxiTopSpec load_axi_top_spec_text(const std::string& text, const std::string& path) {
  try {
    const YAML::Node root = YAML::Load(text);
    YamlMap top(root, path, "the AXI top spec");
    AxiTopSpec s;
    s.path = path;
    s.sha256 = sha256_hex(text);
    s.name = top.str("name");
    (void)top.integer("version");

    YamlMap mm(top.node("master"), path, "master");
    s.master.bundle = mm.str("bundle");
    s.master.data_bytes = mm.expr("data_bytes");
    s.master.addr_bits = bounded(mm, "addr_bits", 32, 64);
    s.master.id_bits = bounded(mm, "id_bits", 1, 16);
    s.master.max_burst_beats = bounded(mm, "max_burst_beats", 1, 256);
    s.master.boundary_bytes = bounded(mm, "boundary_bytes", 64, 1 << 20);
    s.master.max_outstanding = bounded(mm, "max_outstanding", 1, 256);
    for (const auto& n : mm.seq("streams")) s.master.streams.push_back(read_stream(n, path));
    mm.finish();

    YamlMap cm(top.node("control"), path, "control");
    s.control.bundle = cm.str("bundle");
    s.control.data_bits = bounded(cm, "data_bits", 32, 32);
    s.control.addr_bits = bounded(cm, "addr_bits", 4, 16);
    for (const auto& n : cm.seq("registers")) s.control.registers.push_back(read_register(n, path, s.control.data_bits));
    cm.finish();
    top.finish();
    std::sort(s.control.registers.begin(), s.control.registers.end(),
              [](const Register& a, const Register& b) { return a.offset < b.offset; });
    validate(s);
    return s;
  } catch (const YAML::Exception& e) {
    throw Error("axi.yaml", e.msg, SourceLoc{path, e.mark.line + 1, e.mark.column + 1});
  }
}

AxiTopSpec load_axi_top_spec(const std::string& path) { return load_axi_top_spec_text(read_file(path, "axi.io"), path); }

}  // namespace tpugen
