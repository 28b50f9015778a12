// ensure_simulator: the generated core of one configuration, verilated with
// the harness, through the build cache (rtl_engine.cpp). Kept apart from the
// rest of the engine because it is the one piece that calls the generator.
#include <fmt/format.h>

#include "hdl/generate.h"
#include "hdl/tops.h"
#include "sim/rtl_engine.h"
#include "util/file_io.h"

namespace tpugen::sim {

std::filesystem::path ensure_simulator(const hdl::RtlContext& ctx, const std::filesystem::path& build_root,
                                       const BuildProgress& progress, bool coverage) {
  SimBuildSpec spec;
  spec.populate = [&ctx](const std::filesystem::path& dir) {
    hdl::generate(ctx, dir.string());
    write_file(dir / "sim_config.h", sim_config_header(ctx), "rtl.io");
  };
  spec.key_text = fmt::format("tpugen {}\nspec sha256 {}\n", TPUGEN_VERSION, ctx.spec().sha256);
  for (const auto& [name, v] : ctx.isa().params().build_parameters()) spec.key_text += fmt::format("param {}={}\n", name, v);
  spec.key_text += "option";
  for (const auto& f : hdl::rtl_option_fields())
    if (f.recorded()) spec.key_text += fmt::format(" {}={}", f.key, f.get(ctx.options()));
  spec.key_text += "\n";
  spec.top = std::string(hdl::top_module(ctx.options().top));
  // The default top goes unnamed; another is named by its module.
  const hdl::Top& top = hdl::top_of(ctx.options().top);
  spec.description = fmt::format("{}T={} MAXDIM={}", &top == &hdl::tops().front() ? "" : std::string(top.module) + ", ",
                                 ctx.param("T"), ctx.param("MAXDIM"));
  if (coverage) {
    spec.key_text += "coverage\n";
    spec.extra_flags.emplace_back("--coverage");
    spec.description += " with coverage";
  }
  return cached_sim_build(build_root, spec, progress);
}

}  // namespace tpugen::sim
