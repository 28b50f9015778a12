#include "hdl/rtl_options.h"

#include <fmt/format.h>

#include <charconv>

#include "util/diag.h"

namespace tpugen::hdl {

std::string_view top_kind_name(TopKind kind) { return kind == TopKind::Axi ? "axi" : "core"; }
std::string_view top_module(TopKind kind) { return kind == TopKind::Axi ? "tpu_axi_top" : "tpu_top"; }

namespace {

template <int RtlOptions::*Member>
std::string get_int(const RtlOptions& o) {
  return std::to_string(o.*Member);
}

template <int RtlOptions::*Member>
void set_int(RtlOptions& o, std::string_view v) {
  int n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size())
    throw Error("rtl.options", fmt::format("'{}' is not an integer", v));
  o.*Member = n;
}

template <std::string RtlOptions::*Member>
std::string get_text(const RtlOptions& o) {
  return o.*Member;
}

template <std::string RtlOptions::*Member>
void set_text(RtlOptions& o, std::string_view v) {
  o.*Member = std::string(v);
}

std::string get_top(const RtlOptions& o) { return std::string(top_kind_name(o.top)); }

void set_top(RtlOptions& o, std::string_view v) {
  if (v != top_kind_name(TopKind::Core) && v != top_kind_name(TopKind::Axi))
    throw Error("rtl.options", fmt::format("top '{}': core or axi", v));
  o.top = v == top_kind_name(TopKind::Axi) ? TopKind::Axi : TopKind::Core;
}

using Kind = RtlOptionField::Kind;

// One row per knob. The order is every output's order.
const RtlOptionField kFields[] = {
    {.key = "top",
     .flag = "--top",
     .what = "the top module: core (tpu_top, valid/ready memory ports) or axi (tpu_axi_top: AXI4 masters and an "
             "AXI4-Lite ap_ctrl_hs control slave)",
     .kind = Kind::Choice,
     .choices = "core|axi",
     .get = get_top,
     .set = set_top},
    {.key = "imem_beat_words",
     .param = "ImemBeat",
     .flag = "--imem-beat",
     .what = "64-bit words per imem beat",
     .note = "default BUS_BYTES / 8",
     .min = 1,
     .max = 64,
     .get = get_int<&RtlOptions::imem_beat_words>,
     .set = set_int<&RtlOptions::imem_beat_words>},
    {.key = "c_beat_words",
     .param = "CBeat",
     .flag = "--c-beat",
     .what = "packed operand words per C write beat",
     .note = "a power of two; the write carries byte strobes",
     .min = 1,
     .max = 64,
     .power_of_two = true,
     .get = get_int<&RtlOptions::c_beat_words>,
     .set = set_int<&RtlOptions::c_beat_words>},
    {.key = "watchdog_cycles",
     .param = "Watchdog",
     .flag = "--watchdog",
     .what = "cycles without progress before FAULT_HANG",
     .min = 16,
     .max = 1 << 30,
     .get = get_int<&RtlOptions::watchdog_cycles>,
     .set = set_int<&RtlOptions::watchdog_cycles>},
    {.key = "inject_bug",
     .flag = "--inject-bug",
     .what = "build a named deliberate defect (rtl/injected_bugs.h)",
     .kind = Kind::Text,
     .hidden = true,
     .get = get_text<&RtlOptions::inject_bug>,
     .set = set_text<&RtlOptions::inject_bug>},
    {.key = "axi_spec_path",
     .what = "the AXI top's spec (empty: axi_top.yaml beside the ISA spec)",
     .kind = Kind::Text,
     .get = get_text<&RtlOptions::axi_spec_path>,
     .set = set_text<&RtlOptions::axi_spec_path>},
};

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      o += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      o += c;
    }
  }
  return o + "\"";
}

}  // namespace

std::span<const RtlOptionField> rtl_option_fields() { return kFields; }

std::string RtlOptionField::help() const {
  if (param.empty()) return std::string(what);
  return fmt::format("{} ({}{}{})", what, param, note.empty() ? "" : "; ", note);
}

std::string RtlOptionField::json(const RtlOptions& o) const {
  return kind == Kind::Integer ? get(o) : json_string(get(o));
}

void RtlOptionField::check(const RtlOptions& o) const {
  if (kind != Kind::Integer) return;
  const long v = std::stol(get(o));
  if (v < min || v > max || (power_of_two && (v & (v - 1)) != 0))
    throw Error("rtl.options", fmt::format("{} = {}: {} must be {}{} .. {}", name(), v, what,
                                           power_of_two ? "a power of two, " : "", min, max));
}

std::string rtl_parameter_options_text(const RtlOptions& o, bool by_key) {
  std::string s;
  for (const auto& f : kFields)
    if (!f.param.empty()) s += fmt::format("{}{}={}", s.empty() ? "" : " ", by_key ? f.key : f.param, f.get(o));
  return s;
}

}  // namespace tpugen::hdl
