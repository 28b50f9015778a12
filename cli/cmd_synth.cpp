// tpugen synth: the configuration's RTL (or a user's RTL directory) through
// Yosys for one target, with the structural gates and the synthesis handoff.
#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "cli/cli.h"
#include "cli/synth_flags.h"
#include "hdl/generate.h"
#include "synth/synth_flow.h"
#include "util/file_io.h"

namespace tpugen::cli {

namespace {

namespace fs = std::filesystem;

struct SynthOpts {
  std::string out, rtl_dir, top;
  hdl::RtlOptions rtl;
  SynthTargetFlags flags;
};

bool parameters_legal(const Context& ctx) {
  const auto violations = check_params(ctx.spec, ctx.params());
  for (const auto& v : violations) fmt::print(stderr, "tpugen: error [{}]: {}\n", v.rule, v.message);
  return violations.empty();
}

/// Copy a user's RTL directory (its files.f and the sources it lists) into
/// out/rtl, so the output directory stands alone.
void copy_user_rtl(const fs::path& from, const fs::path& to) {
  const fs::path list = from / "files.f";
  const std::string text = read_file(list, "synth.io");
  std::string filelist, line;
  std::stringstream in(text);
  while (std::getline(in, line)) {
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#' || line.compare(b, 2, "//") == 0) continue;
    const fs::path src = from / line.substr(b, line.find_last_not_of(" \t\r") + 1 - b);
    const fs::path dst = to / src.filename();
    if (fs::exists(dst))
      throw Error("synth.io", fmt::format("'{}': two sources named {}", list.string(), src.filename().string()),
                  SourceLoc{list.string()});
    write_file(dst, read_file(src, "synth.io"), "synth.io");
    filelist += src.filename().string() + "\n";
  }
  write_file(to / "files.f", filelist, "synth.io");
}

int run_synth(const Context& ctx, SynthOpts& o) {
  synth::FlowOptions f = o.flags.flow_options(o.out);
  if (o.rtl_dir.empty()) {
    if (!parameters_legal(ctx)) return kFail;
    const Isa isa = ctx.isa();
    const hdl::RtlContext rctx(isa, o.rtl);
    hdl::generate(rctx, f.rtl_dir.string());
    f.top = std::string(hdl::top_module(rctx.options().top));
    for (const auto& [name, v] : isa.params().build_parameters()) f.parameters.emplace_back(name, std::to_string(v));
    for (const auto& field : hdl::rtl_option_fields())
      if (field.recorded() && !field.hidden) f.parameters.emplace_back(field.name(), field.get(rctx.options()));
    f.config_name = fmt::format("t{}_m{}", isa.param("T"), isa.param("MAXDIM"));
    f.spec_name = fs::path(ctx.spec.path).filename().string();
    f.spec_sha256 = ctx.spec.sha256;
  } else {
    copy_user_rtl(o.rtl_dir, f.rtl_dir);
    f.top = o.top.empty() ? std::string(hdl::top_module(o.rtl.top)) : o.top;
    f.config_name = "user";
  }
  if (!o.top.empty()) f.top = o.top;
  return run_synth_flow("synth", f);
}

}  // namespace

Command synth_command() {
  return param_command<SynthOpts>("synth",
          [](CLI::App& sub, SynthOpts& o) {
            sub.add_option("--out", o.out, "the output directory (created if needed)")->required();
            add_synth_target_flags(sub, o.flags);
            sub.add_option("--rtl", o.rtl_dir,
                           "synthesize this RTL directory (files.f and its sources) instead of generating it")
                ->check(CLI::ExistingDirectory);
            sub.add_option("--top-module", o.top, "the top module of --rtl (default: the generated top's name)");
            add_rtl_option_flags(sub, o.rtl, "Generator options");
          },
          [](Context& ctx, SynthOpts& o) { return run_synth(ctx, o); });
}

}  // namespace tpugen::cli
