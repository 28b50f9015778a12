#include "cli/cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "hdl/rtl_options.h"
#include "isa/assembler.h"
#include "isa/image.h"
#include "util/names.h"

namespace tpugen::cli {

namespace {
const char* getenv_reader(const char* name) { return std::getenv(name); }

/// A flag's integer, in full: CLI11's own conversion saturates a value past
/// 64 bits to the largest one, which would build a configuration nobody asked for.
std::int64_t parse_flag_int(const std::string& flag, const std::string& text) {
  try {
    std::size_t pos = 0;
    const long long v = std::stoll(text, &pos, 0);
    if (pos == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw CLI::ValidationError(
      flag, fmt::format("'{}' is not an integer in {} .. {}", text, std::numeric_limits<std::int64_t>::min(),
                        std::numeric_limits<std::int64_t>::max()));
}

}  // namespace

Params Context::params() const { return resolve_params(spec, flags, getenv_reader); }

Isa Context::isa() const { return Isa(spec, legal_params(spec, flags, getenv_reader)); }

void add_rtl_option_flags(CLI::App& cmd, hdl::RtlOptions& options, const std::string& group) {
  using Kind = hdl::RtlOptionField::Kind;
  const hdl::RtlOptions defaults;
  for (const auto& f : hdl::rtl_option_fields()) {
    if (!f.recorded()) continue;
    auto* opt = cmd.add_option_function<std::string>(
        std::string(f.flag), [&options, &f](const std::string& v) { f.set(options, v); }, f.help());
    if (f.kind == Kind::Integer) {
      opt->type_name("INT")->check(CLI::Range(f.min, f.max));
      // A default outside the range means "derived" (the help says from what).
      if (const int d = std::stoi(f.get(defaults)); d >= f.min && d <= f.max) opt->default_str(f.get(defaults));
    } else if (f.kind == Kind::Choice) {
      std::vector<std::string> words;
      for (std::size_t at = 0; at <= f.choices.size();) {
        const std::size_t bar = std::min(f.choices.find('|', at), f.choices.size());
        words.emplace_back(f.choices.substr(at, bar - at));
        at = bar + 1;
      }
      opt->check(CLI::IsMember(words))->type_name(std::string(f.choices))->default_str(f.get(defaults));
    }
    // Hidden (empty group): a testing knob, such as a deliberate defect for the fuzzer.
    opt->group(f.hidden ? std::string() : group);
  }
}

void add_build_param_flags(CLI::App& cmd, std::map<std::string, std::string>& into,
                           const std::vector<NocParameter>& parameters, const std::string& prefix) {
  for (const auto& p : parameters) {
    const std::string name = p.name;
    const std::string help = p.is_choice()
                                 ? fmt::format("{} (default {})", p.role, p.default_choice)
                                 : fmt::format("{} ({} .. {}, default {})", p.role, p.min, p.max, p.default_value);
    const std::string flag = "--" + prefix + kebab(p.name);
    if (cmd.get_option_no_throw(flag) != nullptr)
      throw Error("spec.param",
                  fmt::format("build parameter {}'s flag {} is already an option of `{}`: rename the parameter", name,
                              flag, cmd.get_name()),
                  p.loc);
    cmd.add_option_function<std::string>(
           flag, [&into, name](const std::string& v) { into[name] = v; }, help)
        ->type_name(p.is_choice() ? "NAME" : "INT");
  }
}

void add_param_flags(CLI::App& cmd, Context& ctx) {
  for (const auto& p : ctx.spec.parameters) {
    std::vector<std::string> names{"--" + kebab(p.name)};
    if (p.name.size() == 1) names.push_back("--" + p.name);
    const std::string prefix = "TPU_";
    if (p.env.rfind(prefix, 0) == 0) {
      const std::string alias = "--" + kebab(p.env.substr(prefix.size()));
      if (std::find(names.begin(), names.end(), alias) == names.end()) names.push_back(alias);
    }
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : ",") + n;
    const std::string name = p.name;
    auto set = [&ctx, name, flag = names.front()](const std::string& v) { ctx.flags[name] = parse_flag_int(flag, v); };
    cmd.add_option_function<std::string>(joined, set,
                                         fmt::format("{} (env {}, default {})", p.role, p.env, p.default_value.text()))
        ->type_name("INT")
        ->group("Build parameters");
  }
}

GemmShape parse_shape(const std::string& text) {
  GemmShape s;
  std::int64_t* dims[] = {&s.m, &s.k, &s.n};
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    std::size_t end = pos;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == pos || end - pos > 9)
      throw Error("cli.shape", fmt::format("'{}' is not a shape MxKxN (three positive integers, e.g. 64x64x64)", text));
    *dims[i] = std::stoll(text.substr(pos, end - pos));
    pos = end;
    if (i < 2) {
      if (pos >= text.size() || (text[pos] != 'x' && text[pos] != 'X'))
        throw Error("cli.shape",
                    fmt::format("'{}' is not a shape MxKxN (three positive integers, e.g. 64x64x64)", text));
      ++pos;
    }
  }
  if (pos != text.size() || s.m <= 0 || s.k <= 0 || s.n <= 0)
    throw Error("cli.shape", fmt::format("'{}' is not a shape MxKxN (three positive integers, e.g. 64x64x64)", text));
  return s;
}

Program load_program(const Isa& isa, const std::string& path) {
  auto ends_with = [&](std::string_view s) {
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with(".bin") || ends_with(".hex") || ends_with(".mem")) return decode_image(isa, read_image(path), path);
  if (ends_with(".s") || ends_with(".asm") || ends_with(".tpu")) return parse_assembly_file(isa, path);
  throw Error("cli.file_type",
              fmt::format("'{}': a program is assembly (.s, .asm, .tpu) or an image (.bin, .hex, .mem)", path),
              SourceLoc{path});
}

}  // namespace tpugen::cli
