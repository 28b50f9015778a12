/// @file synth_flow.h
/// @brief `tpugen synth`: a directory of RTL (files.f and its sources)
/// through Yosys for one target, with the structural gates (no latch, no
/// combinational loop, no undriven or multiply-driven net, every memory
/// inferred as RAM), the resource and depth estimates, place and route with
/// nextpnr-ice40 for the ice40 target, and the files a synthesis engineer
/// takes further: the netlist, SDC and XDC templates, a Vivado script, a
/// FuseSoC core, the Yosys log and the report (text and JSON).
///
/// Top-agnostic: the top module, its clock port and the RAM primitive are
/// read from the options and the netlist, never assumed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "synth/reports.h"
#include "synth/tool.h"

namespace tpugen::synth {

/// "generic", "xilinx" or "ice40"; throws Error("synth.target").
Target parse_target(std::string_view name);

/// ice40: when each unit of the hierarchy is placed and routed on its own.
enum class UnitPnr {
  Auto,    ///< when the whole top does not fit the device
  Always,  ///< also when it fits
  Never    ///< never: a top that does not fit fails synth.fit
};
/// "auto", "always" or "never"; throws Error("synth.units").
UnitPnr parse_unit_pnr(std::string_view name);

struct FlowOptions {
  Target target = Target::Generic;
  std::string top;                        ///< the top module
  std::filesystem::path rtl_dir;          ///< holds files.f and the sources it lists (in compile order)
  std::filesystem::path out_dir;          ///< everything is written here
  std::filesystem::path templates_dir;    ///< fpga/: the Yosys scripts, SDC, XDC, Vivado script, .core
  std::string ram_primitive = "tpu_ram_1r1w";  ///< the module every memory is an instance of
  /// What the report says the configuration is: name = value, in order
  /// (build parameters, then generator options).
  std::vector<std::pair<std::string, std::string>> parameters;
  /// The top module's parameters, name = value, set before `hierarchy`
  /// elaborates it (Yosys `chparam -set`; the Vivado script's -generic, the
  /// .core's vlogparams): a name and a decimal integer (run_flow refuses
  /// anything else, Error("synth.param")). Empty: the top's defaults. The
  /// caller lists them in `parameters` too, for the report.
  std::vector<std::pair<std::string, std::string>> top_parameters;
  std::string config_name;     ///< short, for the core name: e.g. t4_m16
  /// What the FuseSoC core's description says the design is.
  std::string core_description = "TinyTPU-isa int8 GEMM accelerator core";
  std::string spec_name, spec_sha256, version;
  std::string xilinx_family = "xcup";               ///< synth_xilinx -family
  std::string xilinx_part = "xcu280-fsvh2892-2L-e";  ///< for the Vivado script and the .core
  std::string ice40_device = "hx8k";                 ///< nextpnr-ice40 --hx8k / --up5k / ...
  std::string ice40_package = "ct256";
  UnitPnr unit_pnr = UnitPnr::Auto;                  ///< ice40: per-unit place and route
  double clock_mhz = 100.0;   ///< the SDC/XDC period and nextpnr's --freq
  unsigned seed = 1;          ///< nextpnr's placer seed
  Tool yosys{"yosys", "yosys"};
  Tool nextpnr{"nextpnr-ice40", "nextpnr-ice40"};
};

/// One gate's outcome.
struct GateResult {
  std::string rule;     ///< synth.latch, synth.comb_loop, synth.multidriven, synth.undriven, synth.memory, synth.fit
  std::string status;   ///< pass, fail or not-run (an earlier gate stopped Yosys)
  std::string message;  ///< what was measured, or what failed (naming the cell, net or memory)
};

/// One top-level port of the synthesized top.
struct Port {
  std::string name, direction;  ///< input, output, inout
  std::int64_t width = 1;
};

/// ice40, per-unit mode: one module of the hierarchy (one specialization:
/// every instance with the same parameters), placed and routed on its own
/// inside the I/O shell.
struct UnitResult {
  std::string module;  ///< as Yosys names it after elaboration (`$paramod...` for a specialized one)
  std::string name;    ///< the module as the RTL declares it, e.g. tpu_spm
  std::vector<std::pair<std::string, std::string>> parameters;  ///< when Yosys' name spells them out
  std::string parent;           ///< the split unit it is part of; empty for the top's own units
  std::int64_t instances = 0;   ///< instances in the whole design
  std::string dir;              ///< its files, relative to out_dir (units/<name>)
  std::string status;           ///< routed, no-fit, or split (did not fit; its own units were placed instead)
  std::string message;          ///< what nextpnr said when it did not fit
  Resources resources;          ///< the unit's own cells (synth_ice40), without the shell
  std::optional<PnrResult> pnr;
  std::int64_t shell_ffs = 0;   ///< flip-flops the I/O shell adds around it
};

struct FlowResult {
  bool ok = false;  ///< every gate passed (ice40: the top, or in per-unit mode every unit, placed and routed)
  std::string failed_rule;         ///< the first failing gate's rule when !ok
  std::string failed_message;
  std::vector<GateResult> gates;
  std::map<std::string, std::int64_t> cells_by_type;
  Resources resources;
  std::optional<std::int64_t> depth;  ///< ltp's longest path, in cells (see docs/synth.md)
  std::int64_t ram_instances = 0;     ///< instances of the RAM primitive below the top
  std::int64_t memories = 0;          ///< memories declared in the RTL (RTLIL memories after proc)
  std::vector<MemoryCell> memory_cells;  ///< the $mem cells the target's memory step saw
  std::vector<Port> ports;
  std::string clock_port;
  std::optional<PnrResult> pnr;          ///< ice40
  std::int64_t shell_ffs = 0;            ///< ice40: flip-flops the I/O shell adds
  bool top_fits = false;                 ///< ice40: the whole top placed and routed
  std::vector<UnitResult> units;         ///< ice40, per-unit mode: every unit tried, parents before their units
  std::optional<double> unit_fmax_mhz;   ///< per-unit mode: the minimum Fmax over the routed units
  std::string unit_fmax_limit;           ///< the unit that sets it
  std::string yosys_version, nextpnr_version;
  std::vector<std::string> files;        ///< written, relative to out_dir
};

/// Run the flow. Gate failures and a design that does not fit are results
/// (ok = false, reported and written); a missing or crashing tool, an
/// unreadable input or a malformed tool output throw Error("synth.tool",
/// "synth.io", "synth.report").
FlowResult run_flow(const FlowOptions& options);

/// The report as text (also written to synth_report.txt).
std::string report_text(const FlowOptions& options, const FlowResult& result);

}  // namespace tpugen::synth
