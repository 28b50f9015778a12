// tpugen noc: the NoC fabric of spec/noc.yaml. `noc gen` writes a mesh.
#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "cli/cli.h"
#include "hdl/noc/noc_generate.h"
#include "spec/noc_spec.h"
#include "util/names.h"

namespace tpugen::cli {

namespace {

/// What every `noc` subcommand shares: the NoC spec and the fabric's
/// build-parameter flags (one per parameter of the spec: --nx, --ny, --depth,
/// --routing).
struct NocOpts {
  std::string spec;  ///< the NoC spec; empty: noc.yaml beside the ISA spec
  std::map<std::string, std::string> params;
  std::string out;
  std::string inject_bug;
};

void add_noc_param_flags(CLI::App& cmd, NocOpts& o, const NocSpec& spec) {
  cmd.add_option("--noc-spec", o.spec, "the NoC spec (default: noc.yaml beside the ISA spec)");
  for (const auto& p : spec.parameters) {
    const std::string name = p.name;
    const std::string help =
        p.is_choice() ? fmt::format("{} (default {})", p.role, p.default_choice)
                      : fmt::format("{} ({} .. {}, default {})", p.role, p.min, p.max, p.default_value);
    cmd.add_option_function<std::string>(
           "--" + kebab(p.name), [&o, name](const std::string& v) { o.params[name] = v; }, help)
        ->type_name(p.is_choice() ? "NAME" : "INT");
  }
}

std::string describe(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  if (stem == "tpu_noc_pkg") return "the NoC's constants, from the spec";
  for (const auto& m : hdl::noc_modules())
    if (stem == m.module) return std::string(m.description);
  if (stem == "tpu_noc_router") return "hand-written: the router";
  if (stem == "files") return "compile order";
  if (stem == "params") return "the resolved parameters";
  return "hand-written primitive";
}

int run_noc_gen(const NocSpec& spec, const NocOpts& o) {
  const NocParams params = resolve_noc_params(spec, o.params);
  const hdl::NocContext nctx(spec, params, o.inject_bug);
  const auto files = hdl::generate_noc(nctx, o.out);
  std::string text;
  for (const auto& [name, v] : params.listing()) text += fmt::format(" {}={}", name, v);
  fmt::print("tpugen noc gen:{}\nwrote {} files to {}:\n", text, files.size(), o.out);
  for (const auto& f : files)
    fmt::print("  {:<22} {:>8} bytes  {}\n", std::filesystem::path(f).lexically_relative(o.out).string(),
               std::filesystem::file_size(f), describe(f));
  return kOk;
}

}  // namespace

Command noc_command() {
  return {"noc", [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            // The NoC spec's parameters make the flags, so it is read now (from
            // beside the ISA spec; --noc-spec names another for the run). A spec
            // that does not load is reported when a noc command runs, so that
            // it never stops the other commands.
            auto spec = std::make_shared<std::optional<NocSpec>>();
            auto load_error = std::make_shared<std::string>();
            try {
              *spec = load_noc_spec(noc_spec_path(ctx.spec.path));
            } catch (const Error& e) {
              *load_error = e.what();
            }
            auto o = std::make_shared<NocOpts>();
            sub.require_subcommand(1);
            CLI::App* gen = sub.add_subcommand("gen", "write a mesh's SystemVerilog: tpu_noc_pkg, the router, "
                                                      "tpu_noc_mesh, files.f, params.json");
            if (spec->has_value()) {
              add_noc_param_flags(*gen, *o, **spec);
            } else {
              gen->allow_extras();
            }
            gen->add_option("--out", o->out, "the output directory")->required();
            gen->add_option("--inject-bug", o->inject_bug)->group("");
            return [gen, spec, load_error, o]() {
              if (!load_error->empty()) {
                fmt::print(stderr, "tpugen: {}\n", *load_error);
                return kBadInput;
              }
              const NocSpec s = o->spec.empty() ? **spec : load_noc_spec(o->spec);
              if (gen->parsed()) return run_noc_gen(s, *o);
              return kBadInput;
            };
          }};
}

}  // namespace tpugen::cli
