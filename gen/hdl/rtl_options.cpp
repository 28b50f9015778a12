#include "hdl/rtl_options.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "hdl/tops.h"
#include "util/diag.h"

namespace tpugen::hdl {

std::string_view top_kind_name(TopKind kind) { return top_of(kind).name; }
std::string_view top_module(TopKind kind) { return top_of(kind).module; }

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
  const Top* top = top_named(v);
  if (!top) throw Error("rtl.options", fmt::format("top '{}': one of {}", v, top_choices()));
  o.top = top->kind;
}

/// "the top module: core (tpu_top: ...) or axi (tpu_axi_top: ...)", from the top table.
std::string top_help() {
  std::string s = "the top module:";
  const auto& all = tops();
  for (std::size_t i = 0; i < all.size(); ++i)
    s += fmt::format("{} {} ({}: {})", i == 0 ? "" : (i + 1 == all.size() ? " or" : ","), all[i].name,
                     all[i].module, all[i].description);
  return s;
}

using Kind = RtlOptionField::Kind;

// One row per knob. The order is every output's order. The top's words and
// help come from the top table (tops.h).
const std::vector<RtlOptionField>& fields() {
  static const std::string kTopHelp = top_help(), kTopChoices = top_choices();
  static const std::vector<RtlOptionField> kFields = {
    {.key = "top",
     .flag = "--top",
     .what = kTopHelp,
     .kind = Kind::Choice,
     .choices = kTopChoices,
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
  return kFields;
}

}  // namespace

std::span<const RtlOptionField> rtl_option_fields() { return fields(); }

std::string RtlOptionField::help() const {
  if (param.empty()) return std::string(what);
  return fmt::format("{} ({}{}{})", what, param, note.empty() ? "" : "; ", note);
}

std::string RtlOptionField::json(const RtlOptions& o) const {
  if (kind == Kind::Integer) return get(o);
  // A string the reader can parse even if it is not UTF-8 (a path).
  return nlohmann::json(get(o)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
  for (const auto& f : fields())
    if (!f.param.empty()) s += fmt::format("{}{}={}", s.empty() ? "" : " ", by_key ? f.key : f.param, f.get(o));
  return s;
}

}  // namespace tpugen::hdl
