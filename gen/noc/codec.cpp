#include "noc/codec.h"

#include <fmt/format.h>

#include <charconv>

#include "util/diag.h"

namespace tpugen::noc {

namespace {

[[noreturn]] void no_field(std::string_view path, const std::string& why) {
  throw Error("noc.field", fmt::format("no field '{}': {}", path, why));
}

void append_field(std::vector<DecodedField>& out, const Flit& f, const std::string& name, int lsb, int width) {
  DecodedField d{name, width, std::nullopt, f.hex_range(lsb, width)};
  if (width <= 64) d.value = f.bits(lsb, width);
  out.push_back(std::move(d));
}

}  // namespace

void FieldRef::set(Flit& f, std::uint64_t v) const {
  if (width < 64 && (v >> width) != 0)
    throw Error("noc.range", fmt::format("{} = {:#x} does not fit its {} bit(s)", name, v, width));
  f.set_bits(lsb, width, v);
}

Codec::Codec(const NocSpec& spec) : spec_(&spec) {
  dst_x_ = field("dst_x");
  dst_y_ = field("dst_y");
  src_x_ = field("src_x");
  src_y_ = field("src_y");
  type_ = field("type");
  txn_ = field("txn");
  last_ = field("last");
  rsvd_ = field("rsvd");
}

FieldRef Codec::field(std::string_view path) const {
  const std::size_t dot = path.find('.');
  if (dot == std::string_view::npos) {
    const NocField* h = spec_->header.field(path);
    if (!h) no_field(path, "the header has no such field, and a payload field is <layout>.<field>");
    return {std::string(path), h->lsb, h->width()};
  }
  const std::string_view layout_name = path.substr(0, dot);
  const NocLayout* layout = spec_->payload(layout_name);
  if (!layout) no_field(path, fmt::format("no payload layout '{}'", layout_name));
  std::string_view rest = path.substr(dot + 1);
  const std::size_t end = rest.find_first_of(".[");
  const std::string_view field_name = rest.substr(0, end);
  const NocField* fd = layout->field(field_name);
  if (!fd) no_field(path, fmt::format("layout {} has no field '{}'", layout_name, field_name));
  FieldRef ref{std::string(path), fd->lsb, fd->width()};
  if (end == std::string_view::npos) return ref;
  rest = rest.substr(end);
  if (rest[0] == '[') {
    const std::size_t close = rest.find(']');
    int index = -1;
    if (close != std::string_view::npos) std::from_chars(rest.data() + 1, rest.data() + close, index);
    if (close == std::string_view::npos || index < 0 || index >= fd->repeat)
      no_field(path, fmt::format("{} has elements 0 .. {}", field_name, fd->repeat - 1));
    ref.lsb = fd->lsb + index * fd->element_width();
    ref.width = fd->element_width();
    rest = rest.substr(close + 1);
    if (rest.empty()) return ref;
    if (rest[0] != '.') no_field(path, "a sub-field follows a '.'");
    const NocSubfield* sub = fd->subfield(rest.substr(1));
    if (!sub) no_field(path, fmt::format("an element of {} has no sub-field '{}'", field_name, rest.substr(1)));
    ref.lsb += sub->lsb;
    ref.width = sub->width();
    return ref;
  }
  const NocFlag* flag = fd->flag(rest.substr(1));
  if (!flag) no_field(path, fmt::format("{} has no flag '{}'", field_name, rest.substr(1)));
  ref.lsb = fd->lsb + flag->bit;
  ref.width = 1;
  return ref;
}

Header Codec::header(const Flit& f) const {
  auto g = [&f](const FieldRef& r) { return static_cast<std::uint32_t>(r.get(f)); };
  return {g(dst_x_), g(dst_y_), g(src_x_), g(src_y_), g(type_), g(txn_), g(last_), g(rsvd_)};
}

void Codec::set_header(Flit& f, const Header& h) const {
  dst_x_.set(f, h.dst_x);
  dst_y_.set(f, h.dst_y);
  src_x_.set(f, h.src_x);
  src_y_.set(f, h.src_y);
  type_.set(f, h.type);
  txn_.set(f, h.txn);
  last_.set(f, h.last);
  rsvd_.set(f, h.rsvd);
}

std::uint32_t Codec::type_code(std::string_view name) const {
  const NocCode* t = spec_->type(name);
  if (!t) throw Error("noc.field", fmt::format("no message type '{}'", name));
  return t->code;
}

std::string Codec::type_name(std::uint32_t code) const {
  if (const NocCode* t = spec_->type_of(code)) return t->name;
  return fmt::format("reserved {:#x}", code);
}

void Codec::set_hex(Flit& f, std::string_view path, std::string_view hex) const {
  const FieldRef r = field(path);
  f.set_hex_range(r.lsb, r.width, hex, r.name);
}

std::uint64_t Codec::get(const Flit& f, std::string_view path) const {
  const FieldRef r = field(path);
  if (r.width > 64) throw Error("noc.field", fmt::format("{} has {} bits: read it as hex", r.name, r.width));
  return r.get(f);
}

std::vector<DecodedField> Codec::decode(const Flit& f) const {
  std::vector<DecodedField> out;
  for (const auto& h : spec_->header.fields) append_field(out, f, h.name, h.lsb, h.width());
  const NocCode* t = spec_->type_of(header(f).type);
  if (!t) return out;
  const NocLayout& layout = spec_->require_payload(t->payload);
  for (const auto& fd : layout.fields) {
    const std::string base = layout.name + "." + fd.name;
    append_field(out, f, base, fd.lsb, fd.width());
    for (const auto& fl : fd.flags) append_field(out, f, base + "." + fl.name, fd.lsb + fl.bit, 1);
    for (int i = 0; i < fd.repeat && fd.repeat > 1; ++i)
      for (const auto& sub : fd.element)
        append_field(out, f, fmt::format("{}[{}].{}", base, i, sub.name), fd.lsb + i * fd.element_width() + sub.lsb,
                     sub.width());
  }
  return out;
}

std::string Codec::describe(const Flit& f) const {
  const Header h = header(f);
  std::string s = fmt::format("{} ({},{})->({},{}) txn {} last {} rsvd {}", type_name(h.type), h.src_x, h.src_y,
                              h.dst_x, h.dst_y, h.txn, h.last, h.rsvd);
  const NocCode* t = spec_->type_of(h.type);
  if (!t) return s + " | payload 0x" + f.hex_range(0, spec_->payload_bits);
  s += " |";
  for (const auto& fd : spec_->require_payload(t->payload).fields)
    s += fd.width() <= 64 ? fmt::format(" {}={:#x}", fd.name, f.bits(fd.lsb, fd.width()))
                          : fmt::format(" {}=0x{}", fd.name, f.hex_range(fd.lsb, fd.width()));
  return s;
}

Flit Codec::from_hex(std::string_view hex, std::string_view what) const {
  Flit f;
  f.set_hex_range(0, flit_bits(), hex, what);
  return f;
}

}  // namespace tpugen::noc
