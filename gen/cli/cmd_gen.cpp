// tpugen gen: write the generated core of one configuration.
#include <fmt/format.h>

#include <filesystem>

#include "cli/cli.h"
#include "rtl/generate.h"

namespace tpugen::cli {

namespace {

struct GenOpts {
  std::string out;
  rtl::RtlOptions rtl;
};

/// Print every violated constraint, naming it; true when there is none.
bool parameters_legal(const Context& ctx) {
  const auto violations = check_params(ctx.spec, ctx.params());
  for (const auto& v : violations) fmt::print(stderr, "tpugen: error [{}]: {}\n", v.rule, v.message);
  return violations.empty();
}

std::string describe(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  for (const auto& e : rtl::emitters())
    if (stem == e.module) return e.description;
  if (stem == "files") return "compile order";
  if (stem == "params") return "the resolved parameters";
  return "hand-written primitive";
}

int run_gen(const Context& ctx, const GenOpts& o) {
  if (!parameters_legal(ctx)) return kFail;
  const Isa isa = ctx.isa();
  const rtl::RtlContext rctx(isa, o.rtl);
  const auto files = rtl::generate(rctx, o.out);
  std::string params;
  for (const auto& [name, v] : isa.params().build_parameters()) params += fmt::format(" {}={}", name, v);
  const rtl::RtlOptions& ro = rctx.options();
  fmt::print("tpugen gen:{} ImemBeat={} CBeat={} Watchdog={}\nwrote {} files to {}:\n", params, ro.imem_beat_words,
             ro.c_beat_words, ro.watchdog_cycles, files.size(), o.out);
  for (const auto& f : files)
    fmt::print("  {:<20} {:>8} bytes  {}\n", std::filesystem::path(f).filename().string(),
               std::filesystem::file_size(f), describe(f));
  return kOk;
}

}  // namespace

Command gen_command() {
  return {"gen", "Generate the SystemVerilog core for one configuration (top: tpu_top; compile order in files.f).\n"
                 "Example: tpugen gen --T 8 --maxdim 64 --out rtl_t8",
          [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            add_param_flags(sub, ctx);
            auto o = std::make_shared<GenOpts>();
            sub.add_option("--out", o->out, "the output directory (created if needed)")->required();
            add_rtl_option_flags(sub, o->rtl, "Generator options");
            return [&ctx, o]() { return run_gen(ctx, *o); };
          }};
}

}  // namespace tpugen::cli
