/// @file reports.h
/// @brief Reading what Yosys and nextpnr-ice40 write: `stat -json`, the
/// RTLIL `dump` of memory cells, `select -list`, `check`, `ltp`, and
/// nextpnr's `--report` JSON and log. Pure functions of the text, so each is
/// tested on small inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/enum_names.h"

namespace tpugen::synth {

/// The synthesis targets.
enum class Target { Generic, Xilinx, Ice40 };

/// Their names, for target_name and parse_target.
inline constexpr EnumName<Target> kTargets[] = {
    {Target::Generic, "generic"}, {Target::Xilinx, "xilinx"}, {Target::Ice40, "ice40"}};

/// "generic", "xilinx", "ice40".
[[nodiscard]] std::string_view target_name(Target target);

/// One module of a `stat -json` report (or its "design" section).
struct ModuleStat {
  std::int64_t cells = 0;
  std::int64_t memories = 0;     ///< RTLIL memories (before memory_collect)
  std::int64_t memory_bits = 0;
  std::int64_t wires = 0;
  std::int64_t wire_bits = 0;
  std::map<std::string, std::int64_t> cells_by_type;  ///< type (without a leading backslash) -> count
};

/// A `stat -json` report: its modules by name (without a leading backslash)
/// and the "design" section (the whole hierarchy below the top, when stat was
/// given -top; else the sum of the modules). Throws Error("synth.report").
struct StatReport {
  std::map<std::string, ModuleStat> modules;
  ModuleStat design;
};
StatReport parse_stat_json(std::string_view json, std::string_view what);

/// How many times each module is instantiated below `top` (top: 1).
std::map<std::string, std::int64_t> instance_counts(const StatReport& stat, const std::string& top);

/// True when a module name is `primitive` or a parameterized copy of it
/// (Yosys' `$paramod...\primitive\Param=...`).
[[nodiscard]] bool is_module_of(std::string_view module, std::string_view primitive);

/// The modules `module` instantiates (its cell types that are modules of
/// the report), each with how many instances of it `module` has.
std::map<std::string, std::int64_t> child_modules(const StatReport& stat, const std::string& module);

/// A module name as Yosys derives it for a parameterized instance, taken
/// apart: `$paramod\tpu_fifo\Width=s32'00..0100000\Depth=s32'00..010` is
/// tpu_fifo with Width=32 Depth=2 (binary values as decimal, other values as
/// written); `$paramod$<hash>\tpu_spm` (Yosys hashes long parameter lists)
/// is tpu_spm without parameters; a plain name is itself.
struct ModuleName {
  std::string base;                                         ///< the module as the RTL declares it
  std::vector<std::pair<std::string, std::string>> parameters;  ///< name, value (when spelled out)
};
[[nodiscard]] ModuleName parse_module_name(std::string_view module);

/// The parameters a module of a Yosys JSON netlist was specialized with
/// (its parameter_default_values), in name order: values Yosys writes as bit
/// strings as decimal (32 bits with the top bit set as a negative int), other
/// values as written. Throws Error("synth.report") on text that is not JSON.
std::vector<std::pair<std::string, std::string>> netlist_parameters(std::string_view json, const std::string& module);

/// One $mem_v2 cell of an RTLIL dump.
struct MemoryCell {
  std::string name;  ///< e.g. u_spm.u_ram.mem_q
  std::string src;   ///< the src attribute (file:line of the declaration)
  std::int64_t width = 0, size = 0, rd_ports = 0, wr_ports = 0;
  bool sync_read = true;  ///< every read port is clocked
};
std::vector<MemoryCell> parse_memory_cells(std::string_view rtlil);

/// The non-empty lines of a `select -list` listing.
std::vector<std::string> parse_select_list(std::string_view text);

/// One problem `check` reported, grouped per net (all of its bits).
struct CheckFinding {
  std::string rule;     ///< synth.comb_loop, synth.multidriven or synth.undriven
  std::string subject;  ///< the module and net, e.g. tpu_top.y_d
  std::string detail;   ///< the cells and wires `check` listed, one per line
  int bits = 1;         ///< how many bits of the net it reported
};
std::vector<CheckFinding> parse_check(std::string_view text);

/// The length of `ltp`'s longest topological path, if it printed one.
std::optional<std::int64_t> parse_ltp(std::string_view text);

/// The resources a target's cell counts amount to.
struct Resources {
  std::int64_t luts = 0;        ///< logic LUTs (LUT1..LUT6, SB_LUT4); generic: the cells that are not flip-flops
  std::int64_t ffs = 0;         ///< flip-flops
  std::int64_t bram = 0;        ///< block RAM primitives (RAMB18E*/RAMB36E*, SB_RAM40_4K)
  double bram36 = 0;            ///< xilinx: RAMB36 equivalents (RAMB36 + RAMB18 / 2)
  std::int64_t ramb18 = 0, ramb36 = 0;
  std::int64_t lutram_cells = 0;  ///< distributed RAM primitives (RAM32M, RAM64X1D, ...)
  std::int64_t lutram_luts = 0;   ///< LUTs those primitives occupy
  std::int64_t srl = 0;           ///< shift-register LUTs (SRL16E, SRLC32E)
  std::int64_t dsp = 0;           ///< DSP48E*, SB_MAC16
  std::int64_t carry = 0;         ///< CARRY4/CARRY8, SB_CARRY
  std::int64_t muxf = 0;          ///< MUXF7/8/9
  std::int64_t spram = 0;         ///< SB_SPRAM256KA
  std::int64_t io = 0;            ///< I/O buffers (IBUF, OBUF, SB_IO, ...)
  std::int64_t other = 0;         ///< everything else
};
Resources classify(Target target, const std::map<std::string, std::int64_t>& cells_by_type);

/// nextpnr-ice40's outcome: its `--report` JSON when it finished, else the
/// first error of its log (a design that does not fit names the resource).
struct PnrResult {
  bool routed = false;
  std::optional<double> fmax_mhz;   ///< the achieved Fmax of the clock (the worst when there are several)
  std::string clock;                ///< that clock's name
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> utilization;  ///< resource -> used, available
  std::string error;                ///< the first ERROR line, when it failed
  std::string resource;             ///< the resource a failure to fit names (e.g. ICESTORM_LC), else empty
};
PnrResult parse_nextpnr_report(std::string_view json);
/// The error and resource of a failed run, from its log.
PnrResult parse_nextpnr_failure(std::string_view log);

}  // namespace tpugen::synth
