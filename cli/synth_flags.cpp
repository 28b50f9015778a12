#include "cli/synth_flags.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "cli/cli.h"
#include "synth/reports.h"
#include "util/diag.h"

namespace tpugen::cli {

namespace fs = std::filesystem;

synth::FlowOptions SynthTargetFlags::flow_options(const std::string& out) const {
  synth::FlowOptions f = flow;
  f.target = synth::parse_target(target);
  f.unit_pnr = synth::parse_unit_pnr(units);
  f.out_dir = out;
  f.rtl_dir = fs::path(out) / "rtl";
  f.templates_dir = TPUGEN_FPGA_TEMPLATES;
  f.version = TPUGEN_VERSION;
  std::error_code ec;
  fs::remove_all(f.rtl_dir, ec);
  fs::create_directories(f.rtl_dir, ec);
  if (ec) throw Error("synth.io", fmt::format("cannot create '{}': {}", f.rtl_dir.string(), ec.message()));
  return f;
}

void add_synth_target_flags(CLI::App& cmd, SynthTargetFlags& flags) {
  cmd.add_option("--target", flags.target, "generic (Yosys synth), xilinx (synth_xilinx) or ice40 "
                                           "(synth_ice40 + nextpnr-ice40)")
      ->check(CLI::IsMember({"generic", "xilinx", "ice40"}))
      ->capture_default_str();
  cmd.add_option("--clock-mhz", flags.flow.clock_mhz, "the clock the SDC/XDC and nextpnr aim at")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 2000.0));
  cmd.add_option("--family", flags.flow.xilinx_family,
                 "xilinx: synth_xilinx -family (xcup: UltraScale+, like the original's xcu280; xc7, xcu)")
      ->capture_default_str();
  cmd.add_option("--part", flags.flow.xilinx_part, "the part the Vivado script and the .core name")
      ->capture_default_str();
  cmd.add_option("--device", flags.flow.ice40_device, "ice40: nextpnr-ice40 device (hx8k, up5k, ...)")
      ->capture_default_str();
  cmd.add_option("--package", flags.flow.ice40_package, "ice40: the device's package (ct256, sg48, ...)")
      ->capture_default_str();
  cmd.add_option("--units", flags.units,
                 "ice40: place and route each unit of the hierarchy on its own, for a core Fmax estimate: "
                 "auto (when the whole top does not fit), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd.add_option("--seed", flags.flow.seed, "ice40: nextpnr's placer seed")->capture_default_str();
}

int run_synth_flow(std::string_view command, const synth::FlowOptions& f) {
  fmt::print("tpugen {}: target {}, top {}: running yosys (log: {})\n", command, synth::target_name(f.target), f.top,
             (f.out_dir / "yosys.log").string());
  std::fflush(stdout);
  const synth::FlowResult r = synth::run_flow(f);
  fmt::print("{}", synth::report_text(f, r));
  if (!r.ok) {
    fmt::print(stderr, "tpugen: error [{}]: {}\n", r.failed_rule, r.failed_message);
    return kFail;
  }
  return kOk;
}

}  // namespace tpugen::cli
