// tpugen gen: write the generated core of one configuration.
#include <fmt/format.h>

#include <filesystem>

#include "cli/cli.h"
#include "sim/cocotb_build.h"
#include "hdl/generate.h"

namespace tpugen::cli {

namespace {

struct GenOpts {
  std::string out;
  hdl::RtlOptions rtl;
  bool vpi = false;  ///< also write the cocotb build (tb/sim/cocotb_build.h)
};

/// Print every violated constraint, naming it; true when there is none.
bool parameters_legal(const Context& ctx) {
  const auto violations = check_params(ctx.spec, ctx.params());
  for (const auto& v : violations) fmt::print(stderr, "tpugen: error [{}]: {}\n", v.rule, v.message);
  return violations.empty();
}

std::string describe(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  for (const auto& e : hdl::emitters())
    if (stem == e.module) return e.description;
  if (stem == "files") return "compile order";
  if (stem == "params") return "the resolved parameters";
  if (stem == "tpu_config") return "cocotb: the configuration the helper library reads";
  if (stem == "cocotb") return "cocotb: the Verilator build with VPI (include it)";
  if (stem == "Makefile") return "cocotb: runs test_tpu.py (make)";
  if (stem == "test_tpu") return "cocotb: an example test";
  if (stem == "COCOTB") return "cocotb: how to test this configuration";
  if (stem == "requirements") return "cocotb: the pinned Python packages";
  if (std::filesystem::path(file).parent_path().filename() == "tpugen_cocotb") return "cocotb: the helper library";
  return "hand-written primitive";
}

int run_gen(const Context& ctx, const GenOpts& o) {
  if (!parameters_legal(ctx)) return kFail;
  const Isa isa = ctx.isa();
  const hdl::RtlContext rctx(isa, o.rtl);
  auto files = hdl::generate(rctx, o.out);
  if (o.vpi)
    for (const auto& f : sim::write_cocotb_build(rctx, o.out)) files.push_back(f);
  std::string params;
  for (const auto& [name, v] : isa.params().build_parameters()) params += fmt::format(" {}={}", name, v);
  fmt::print("tpugen gen:{} {}\nwrote {} files to {}:\n", params, hdl::rtl_parameter_options_text(rctx.options()),
             files.size(), o.out);
  for (const auto& f : files)
    fmt::print("  {:<25} {:>8} bytes  {}\n", std::filesystem::path(f).lexically_relative(o.out).string(),
               std::filesystem::file_size(f), describe(f));
  return kOk;
}

}  // namespace

Command gen_command() {
  return param_command<GenOpts>(
      "gen",
      [](CLI::App& sub, GenOpts& o) {
        sub.add_option("--out", o.out, "the output directory (created if needed)")->required();
        sub.add_flag("--vpi", o.vpi,
                     "also write a cocotb testbench build: Verilator with VPI (cocotb.mk), the tpugen_cocotb "
                     "helper library and an example test (see COCOTB.md in the output)");
        add_rtl_option_flags(sub, o.rtl, "Generator options");
      },
      run_gen);
}

}  // namespace tpugen::cli
