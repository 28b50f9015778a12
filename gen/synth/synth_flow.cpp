#include "synth/synth_flow.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "util/diag.h"
#include "util/file_io.h"
#include "util/names.h"
#include "util/template.h"

namespace tpugen::synth {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

constexpr std::string_view kIo = "synth.io";

/// Files the flow writes, relative to the output directory.
struct Paths {
  fs::path out;
  fs::path file(std::string_view name) const { return out / name; }
};

std::string read_text(const fs::path& p) { return read_file(p, kIo); }

std::string read_if_exists(const fs::path& p) { return fs::exists(p) ? read_text(p) : std::string(); }

std::string load_template(const FlowOptions& o, std::string_view name) {
  return read_file(o.templates_dir / name, "synth.template");
}

std::vector<std::string> read_filelist(const fs::path& f) {
  std::vector<std::string> out;
  std::stringstream in(read_text(f));
  std::string line;
  while (std::getline(in, line)) {
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#' || line.compare(b, 2, "//") == 0) continue;
    out.push_back(line.substr(b, line.find_last_not_of(" \t\r") + 1 - b));
  }
  return out;
}

std::string format_mhz(double mhz) { return fmt::format("{:.2f}", mhz); }

std::string config_line(const FlowOptions& o) {
  std::string s;
  for (const auto& [k, v] : o.parameters) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s.empty() ? "(user RTL)" : s;
}

/// A top parameter's name is an identifier and its value a decimal integer:
/// what Yosys' chparam, Vivado's -generic and a FuseSoC int vlogparam all
/// read the same way.
void check_top_parameters(const FlowOptions& o) {
  for (const auto& [name, value] : o.top_parameters) {
    const bool ident = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) != 0 || name[0] == '_') &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
                       });
    const std::size_t digits = !value.empty() && value[0] == '-' ? 1 : 0;
    const bool integer = value.size() > digits && std::all_of(value.begin() + static_cast<std::ptrdiff_t>(digits),
                                                              value.end(), [](char c) {
                                                                return std::isdigit(static_cast<unsigned char>(c)) != 0;
                                                              });
    if (!ident || !integer)
      throw Error("synth.param", fmt::format("top parameter {} = '{}': a parameter of {} needs an identifier and a "
                                             "decimal integer",
                                             name, value, o.top));
  }
}

/// The placeholders that carry the top's parameters into every script that
/// elaborates it; all empty without any (the scripts are then as before).
void add_top_parameter_values(const FlowOptions& o, TemplateValues& v) {
  std::string chparam, generics, core, names;
  for (const auto& [name, value] : o.top_parameters) {
    chparam += fmt::format("chparam -set {} {} {}\n", name, value, o.top);
    generics += fmt::format(" -generic {}={}", name, value);
    core += fmt::format("  {}:\n    datatype: int\n    paramtype: vlogparam\n    default: {}\n", name, value);
    names += (names.empty() ? "" : ", ") + name;
  }
  if (!chparam.empty())
    chparam = fmt::format("# The top's parameters, set before hierarchy elaborates it.\n{}", chparam);
  v["top_parameters"] = chparam;
  v["vivado_generics"] = generics;
  v["core_parameters"] = core.empty() ? "" : "parameters:\n" + core + "\n";
  v["core_target_parameters"] = names.empty() ? "" : fmt::format("    parameters: [{}]\n", names);
}

/// The common placeholder values of every template.
TemplateValues base_values(const FlowOptions& o) {
  const double period = 1000.0 / o.clock_mhz;
  TemplateValues v = {{"top", o.top},
          {"config", config_line(o)},
          {"spec", o.spec_name.empty() ? "(none)" : o.spec_name},
          {"spec_sha256", o.spec_sha256.empty() ? "(none)" : o.spec_sha256},
          {"version", o.version},
          {"target", std::string(target_name(o.target))},
          {"family", o.xilinx_family},
          {"part", o.xilinx_part},
          {"device", o.ice40_device},
          {"package", o.ice40_package},
          {"ice40_options", o.ice40_device.rfind("up", 0) == 0 ? "-dsp" : ""},
          {"period_ns", fmt::format("{:.3f}", period)},
          {"io_delay_ns", fmt::format("{:.3f}", period * 0.2)},
          {"gates_dir", "gates"},
          {"stat_json", "gates/stat.json"},
          {"depth_txt", "gates/depth.txt"},
          {"netlist_v", "netlist.v"},
          {"netlist_json", "netlist.json"},
          {"filelist", "files.f"},
          {"xdc", "constraints.xdc"},
          {"sdc", "constraints.sdc"},
          {"core_description", o.core_description}};
  add_top_parameter_values(o, v);
  return v;
}

/// The top module's ports, from a Yosys JSON netlist, in their order. The
/// modules' cells and nets (nearly all of a netlist) are skipped while
/// parsing: an ordered_json object's insertion is linear in its size, so a
/// module of 10^5 cells read whole takes hours (a 4 x 4 NoC mesh's 263 MB
/// netlist: 3 s skipped).
std::vector<Port> netlist_ports(const std::string& text, const std::string& top) {
  const json::parser_callback_t skip_bulk = [](int depth, json::parse_event_t event, const json& parsed) {
    return !(event == json::parse_event_t::key && depth == 3 && (parsed == "cells" || parsed == "netnames"));
  };
  json j;
  try {
    j = json::parse(text, skip_bulk);
  } catch (const json::exception& e) {
    throw Error("synth.report", fmt::format("netlist.json: not valid JSON ({})", e.what()));
  }
  if (!j.contains("modules") || !j["modules"].contains(top))
    throw Error("synth.report", fmt::format("netlist.json has no module '{}'", top));
  std::vector<Port> ports;
  const json& module = j["modules"][top];
  if (!module.contains("ports")) return ports;
  for (const auto& [name, port] : module["ports"].items())
    ports.push_back({name, port.value("direction", "input"),
                     port.contains("bits") ? static_cast<std::int64_t>(port["bits"].size()) : 1});
  return ports;
}

/// The clock: a one-bit input named like a clock (clk_i, clk, aclk, ap_clk, ...).
std::string clock_port(const std::vector<Port>& ports) {
  std::string best;
  for (const auto& p : ports) {
    const std::string name = lower(p.name);
    if (p.direction != "input" || p.width != 1 || name.find("clk") == std::string::npos) continue;
    if (best.empty() || name == "clk_i" || name == "clk" || name == "aclk" || name == "ap_clk") best = p.name;
  }
  return best;
}

void add_gate(FlowResult& r, std::string rule, std::string status, std::string message) {
  if (status == "fail" && r.failed_rule.empty()) {
    r.failed_rule = rule;
    r.failed_message = message;
  }
  r.gates.push_back({std::move(rule), std::move(status), std::move(message)});
}

std::string join_lines(const std::vector<std::string>& v, std::size_t max) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < max; ++i) s += (s.empty() ? "" : ", ") + v[i];
  if (v.size() > max) s += fmt::format(", ... ({} in all)", v.size());
  return s;
}

/// The structural gates, from the files the front-end script wrote.
void structural_gates(const Paths& p, FlowResult& r) {
  const fs::path latches = p.file("gates/latches.txt"), check = p.file("gates/check.txt");
  if (!fs::exists(latches)) {
    for (const char* rule : {"synth.latch", "synth.comb_loop", "synth.multidriven", "synth.undriven"})
      add_gate(r, rule, "not-run", "Yosys stopped before this gate (see yosys.log)");
    return;
  }
  // The nets the latches drive; the named ones when there are any.
  auto latch_nets = parse_select_list(read_text(latches));
  std::vector<std::string> named;
  for (const auto& n : latch_nets)
    if (n.find('$') == std::string::npos) named.push_back(n);
  if (!named.empty()) latch_nets = named;
  if (latch_nets.empty())
    add_gate(r, "synth.latch", "pass", "no latch cell after proc");
  else
    add_gate(r, "synth.latch", "fail",
             fmt::format("{} latch(es) inferred, driving {} (a signal assigned on some paths of a combinational "
                         "block only)",
                         latch_nets.size(), join_lines(latch_nets, 8)));
  if (!fs::exists(check)) {
    for (const char* rule : {"synth.comb_loop", "synth.multidriven", "synth.undriven"})
      add_gate(r, rule, "not-run", "Yosys stopped before `check` (an earlier gate failed)");
    return;
  }
  const auto findings = parse_check(read_text(check));
  const std::pair<const char*, const char*> rules[] = {
      {"synth.comb_loop", "no combinational loop (check, on the flattened design)"},
      {"synth.multidriven", "no net with more than one driver (check)"},
      {"synth.undriven", "no used net without a driver (check)"}};
  for (const auto& [rule, ok_text] : rules) {
    std::vector<std::string> hits;
    std::string first_detail;
    for (const auto& f : findings)
      if (f.rule == rule) {
        hits.push_back(std::string(rule) == "synth.comb_loop" || f.bits == 1
                           ? f.subject
                           : fmt::format("{} ({} bits)", f.subject, f.bits));
        if (first_detail.empty()) first_detail = f.detail;
      }
    if (hits.empty()) {
      add_gate(r, rule, "pass", ok_text);
      continue;
    }
    std::string what = std::string(rule) == "synth.comb_loop"     ? "combinational loop(s) through"
                       : std::string(rule) == "synth.multidriven" ? "net(s) with conflicting drivers:"
                                                                  : "net(s) used but never driven:";
    std::string msg = fmt::format("{} {} {}", hits.size(), what, join_lines(hits, 6));
    if (!first_detail.empty()) {
      std::string indented;
      std::stringstream in(first_detail);
      std::string l;
      for (int n = 0; std::getline(in, l) && n < 8; ++n) indented += "\n    " + l;
      msg += "; the first:" + indented;
    }
    add_gate(r, rule, "fail", msg);
  }
}

/// True when a memory cell was declared in the primitive's file: one entry of
/// its src attribute (the instantiation sites and the declaration, joined by
/// '|') is in <primitive>.sv, which instantiates nothing.
bool from_primitive(const MemoryCell& m, const std::string& primitive) {
  const std::string file = primitive + ".sv:";
  std::stringstream entries(m.src);
  std::string e;
  while (std::getline(entries, e, '|')) {
    const auto at = e.rfind(file);
    if (at != std::string::npos && (at == 0 || e[at - 1] == '/')) return true;
  }
  return false;
}

/// The memory gate (docs/synth.md): every instance of the RAM primitive
/// declares its memory (the frontend kept the array as a memory) and reaches
/// the target's memory step as one $mem cell; generic: each is RAM-shaped (at
/// most two ports, clocked reads: an SRAM macro can take it); FPGA: none is
/// left for flip-flops after the RAM mapping. Other arrays (register files
/// with many read ports, ROMs from case statements) are reported, not gated.
void memory_gate(const FlowOptions& o, const Paths& p, FlowResult& r) {
  const fs::path hier = p.file("gates/hierarchy.json"), in = p.file("gates/memories_in.il"),
                 left = p.file("gates/memories_left.il");
  const bool fpga = o.target != Target::Generic;
  if (!fs::exists(hier) || !fs::exists(in) || (fpga && !fs::exists(left))) {
    add_gate(r, "synth.memory", "not-run", "Yosys stopped before the memory step (an earlier gate failed)");
    return;
  }
  const StatReport stat = parse_stat_json(read_text(hier), "gates/hierarchy.json");
  std::vector<std::string> lost;
  for (const auto& [module, n] : instance_counts(stat, o.top)) {
    const auto it = stat.modules.find(module);
    if (it == stat.modules.end()) continue;
    r.memories += n * it->second.memories;
    if (is_module_of(module, o.ram_primitive)) {
      r.ram_instances += n;
      if (it->second.memories == 0) lost.push_back(module);
    }
  }
  r.memory_cells = parse_memory_cells(read_text(in));
  auto describe = [](const MemoryCell& m) {
    return fmt::format("{} ({}x{} bits, {}W/{}R{}{})", m.name, m.size, m.width, m.wr_ports, m.rd_ports,
                       m.sync_read ? "" : ", asynchronous read", m.src.empty() ? "" : ", " + m.src);
  };
  std::vector<MemoryCell> prim;
  for (const auto& m : r.memory_cells)
    if (from_primitive(m, o.ram_primitive)) prim.push_back(m);
  if (!lost.empty()) {
    add_gate(r, "synth.memory", "fail",
             fmt::format("{} declares no memory in {}: its array was taken apart into registers by the frontend",
                         o.ram_primitive, join_lines(lost, 4)));
    return;
  }
  if (static_cast<std::int64_t>(prim.size()) != r.ram_instances) {
    add_gate(r, "synth.memory", "fail",
             fmt::format("{} instances of {} but {} of its memories reached the memory step as $mem cells",
                         r.ram_instances, o.ram_primitive, prim.size()));
    return;
  }
  std::vector<std::string> bad;
  for (const auto& m : prim)
    if (m.rd_ports + m.wr_ports > 2 || !m.sync_read) bad.push_back(describe(m));
  if (!bad.empty()) {
    add_gate(r, "synth.memory", "fail",
             fmt::format("{} memory(ies) of {} that no RAM can implement (more than two ports, or a read without "
                         "a clock): {}",
                         bad.size(), o.ram_primitive, join_lines(bad, 4)));
    return;
  }
  if (fpga) {
    std::vector<std::string> ff;
    std::int64_t bits = 0;
    for (const auto& m : parse_memory_cells(read_text(left)))
      if (from_primitive(m, o.ram_primitive)) {
        ff.push_back(describe(m));
        bits += m.size * m.width;
      }
    if (!ff.empty()) {
      add_gate(r, "synth.memory", "fail",
               fmt::format("{} memory(ies) of {} not mapped to block or distributed RAM, left for {} flip-flops: {}",
                           ff.size(), o.ram_primitive, bits, join_lines(ff, 4)));
      return;
    }
  }
  const std::size_t others = r.memory_cells.size() - prim.size();
  add_gate(r, "synth.memory", "pass",
           fmt::format("{} instances of {}, each one $mem cell with at most two ports and clocked reads{}; {} other "
                       "array(s) (register files, ROMs) left to the target's mapping",
                       r.ram_instances, o.ram_primitive,
                       fpga ? ", all mapped to RAM cells (none left for flip-flops)" : " (memory -nomap)", others));
}

std::string shell_connections(const std::vector<Port>& ports, const std::string& clock, std::int64_t& in_bits,
                              std::int64_t& out_bits) {
  std::string s;
  in_bits = 0;
  out_bits = 0;
  for (const auto& port : ports) {
    std::string expr;
    if (port.name == clock) {
      expr = clock;
    } else if (port.direction == "output") {
      expr = fmt::format("out_d[{} +: {}]", out_bits, port.width);
      out_bits += port.width;
    } else if (port.direction == "input") {
      expr = fmt::format("in_q[{} +: {}]", in_bits, port.width);
      in_bits += port.width;
    }
    s += fmt::format("{}    .{}({})", s.empty() ? "" : ",\n", port.name, expr);
  }
  return s;
}

/// One place-and-route run's outcome.
struct ShellPnr {
  PnrResult pnr;
  std::int64_t shell_ffs = 0;
  bool fits = false;
  std::string message;  ///< fits: the utilization; else what does not fit
};

std::string utilization_line(const PnrResult& pnr) {
  std::string util;
  for (const char* res : {"ICESTORM_LC", "ICESTORM_RAM", "ICESTORM_DSP", "SB_IO"})
    if (const auto it = pnr.utilization.find(res); it != pnr.utilization.end())
      util += fmt::format("{}{} {}/{}", util.empty() ? "" : ", ", res, it->second.first, it->second.second);
  return util;
}

/// ice40: `top` (dir/netlist.v) in its I/O shell, synthesized again, then
/// nextpnr-ice40, in `dir`. `what` names the design in messages; the files
/// written are added to `files` with `prefix` (their directory relative to
/// the output directory).
ShellPnr pnr_in_shell(const FlowOptions& o, const fs::path& dir, const std::string& top, const std::vector<Port>& ports,
                      const std::string& clock, TemplateValues v, const std::string& what,
                      std::vector<std::string>& files, const std::string& prefix) {
  ShellPnr out;
  std::int64_t in_bits = 0, out_bits = 0;
  v["top"] = top;
  v["clock_port"] = clock.empty() ? "clk" : clock;
  v["connections"] = shell_connections(ports, clock, in_bits, out_bits);
  v["in_bits"] = std::to_string(std::max<std::int64_t>(in_bits, 1));
  v["out_bits"] = std::to_string(std::max<std::int64_t>(out_bits, 1));
  v["shell"] = "ice40_shell.sv";
  v["pnr_json"] = "pnr_netlist.json";
  v["shell_stat_json"] = prefix.empty() ? "gates/shell_stat.json" : "shell_stat.json";
  v["netlist_v"] = "netlist.v";
  out.shell_ffs = std::max<std::int64_t>(in_bits, 1) + 1 + std::max<std::int64_t>(out_bits, 1);
  const auto file = [&](std::string_view name) { return dir / name; };
  write_file(file("ice40_shell.sv"), fill_template(load_template(o, "ice40_shell.sv"), v, "fpga/ice40_shell.sv", kFpgaTemplate), kIo);
  write_file(file("pnr.ys"), fill_template(load_template(o, "yosys_ice40_pnr.ys"), v, "fpga/yosys_ice40_pnr.ys", kFpgaTemplate), kIo);
  files.insert(files.end(), {prefix + "ice40_shell.sv", prefix + "pnr.ys"});
  const fs::path yosys = locate(o.yosys);
  if (const int rc = run_logged({yosys.string(), "-s", "pnr.ys"}, file("yosys_pnr.log"), dir); rc != 0)
    throw Error("synth.tool", fmt::format("yosys (the ice40 shell for place and route of {}) exited with {}; the "
                                          "end of {}:\n{}",
                                          what, rc, file("yosys_pnr.log").string(),
                                          last_lines(read_if_exists(file("yosys_pnr.log")), 15)));
  files.push_back(prefix + "yosys_pnr.log");
  const fs::path nextpnr = locate(o.nextpnr);
  const std::vector<std::string> argv = {nextpnr.string(), "--" + o.ice40_device, "--package", o.ice40_package,
                                         "--json", "pnr_netlist.json", "--report", "pnr_report.json",
                                         "--freq", format_mhz(o.clock_mhz), "--seed", std::to_string(o.seed),
                                         "--timing-allow-fail", "--asc", "pnr.asc"};
  fs::remove(file("pnr_report.json"));
  const int rc = run_logged(argv, file("nextpnr.log"), dir);
  files.push_back(prefix + "nextpnr.log");
  const std::string log = read_if_exists(file("nextpnr.log"));
  if (rc != 0) {
    out.pnr = parse_nextpnr_failure(log);
    if (out.pnr.error.empty())
      throw Error("synth.tool", fmt::format("nextpnr-ice40 exited with {} on {} and printed no ERROR line; the end of "
                                            "{}:\n{}",
                                            rc, what, file("nextpnr.log").string(), last_lines(log, 15)));
    std::string used;
    if (!out.pnr.resource.empty())
      if (const auto it = out.pnr.utilization.find(out.pnr.resource); it != out.pnr.utilization.end())
        used = fmt::format(" ({} used of {} available)", it->second.first, it->second.second);
    out.message = out.pnr.resource.empty()
                      ? fmt::format("nextpnr-ice40 failed on {} for the {} ({}): {}", what, o.ice40_device,
                                    o.ice40_package, out.pnr.error)
                      : fmt::format("{} does not fit the iCE40 {} ({}): not enough {}{}; nextpnr: {}", what,
                                    o.ice40_device, o.ice40_package, out.pnr.resource, used, out.pnr.error);
    return out;
  }
  files.insert(files.end(), {prefix + "pnr_netlist.json", prefix + "pnr_report.json", prefix + "pnr.asc"});
  out.pnr = parse_nextpnr_report(read_text(file("pnr_report.json")));
  out.fits = true;
  out.message = fmt::format("placed and routed on the iCE40 {} ({}): {}", o.ice40_device, o.ice40_package,
                            utilization_line(out.pnr));
  return out;
}

/// A file or module name for a unit: its RTL name, with _2, _3 ... for a
/// second specialization of the same module.
std::string unit_dir_name(const std::string& base, std::set<std::string>& used) {
  std::string name;
  for (int k = 1; name.empty() || used.count(name) != 0; ++k)
    name = k == 1 ? base : fmt::format("{}_{}", base, k);
  for (char& c : name)
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') c = '_';
  used.insert(name);
  return name;
}

/// ice40, per-unit mode: each module the top instantiates (one per
/// specialization), synthesized on its own with its parameters and placed
/// and routed in the I/O shell; a unit that does not fit and instantiates
/// modules itself is split into those, round after round.
void place_units(const FlowOptions& o, const Paths& p, FlowResult& r, const TemplateValues& v) {
  const StatReport hier = parse_stat_json(read_text(p.file("gates/hierarchy.json")), "gates/hierarchy.json");
  const auto counts = instance_counts(hier, o.top);
  std::vector<std::pair<std::string, std::string>> batch;  // module, the split unit it belongs to
  for (const auto& [module, n] : child_modules(hier, o.top)) batch.emplace_back(module, "");
  std::set<std::string> tried{o.top}, dirs;
  std::error_code ec;
  for (int round = 1; !batch.empty(); ++round) {
    // In RTL name order (Yosys' derived names order by a hash).
    std::sort(batch.begin(), batch.end(), [](const auto& a, const auto& b) {
      return std::make_pair(parse_module_name(a.first).base, a.first) <
             std::make_pair(parse_module_name(b.first).base, b.first);
    });
    std::vector<UnitResult> units;
    std::string blocks;
    const std::string unit_template = load_template(o, "yosys_ice40_unit.ys");
    for (const auto& [module, parent] : batch) {
      UnitResult u;
      u.module = module;
      const ModuleName mn = parse_module_name(module);
      u.name = mn.base;
      u.parameters = mn.parameters;
      u.parent = parent;
      const auto c = counts.find(module);
      u.instances = c == counts.end() ? 0 : c->second;
      u.dir = "units/" + unit_dir_name(u.name, dirs);
      fs::remove_all(p.file(u.dir), ec);
      fs::create_directories(p.file(u.dir), ec);
      if (ec) throw Error("synth.io", fmt::format("cannot create '{}': {}", p.file(u.dir).string(), ec.message()));
      TemplateValues uv = v;
      uv["unit"] = u.name;
      uv["module"] = module;
      uv["unit_top"] = "tpugen_" + fs::path(u.dir).filename().string();
      uv["unit_dir"] = u.dir;
      blocks += fill_template(unit_template, uv, "fpga/yosys_ice40_unit.ys", kFpgaTemplate);
      units.push_back(std::move(u));
    }
    TemplateValues sv = v;
    sv["units"] = blocks;
    const std::string script = fmt::format("units/synth_{}.ys", round), log = fmt::format("units/yosys_{}.log", round);
    write_file(p.file(script), fill_template(load_template(o, "yosys_ice40_units.ys"), sv, "fpga/yosys_ice40_units.ys", kFpgaTemplate),
               kIo);
    r.files.insert(r.files.end(), {script, log});
    const fs::path yosys = locate(o.yosys);
    if (const int rc = run_logged({yosys.string(), "-s", script}, p.file(log), p.out); rc != 0)
      throw Error("synth.tool", fmt::format("yosys (the units, one by one) exited with {}; the end of {}:\n{}", rc,
                                            p.file(log).string(), last_lines(read_if_exists(p.file(log)), 15)));
    batch.clear();
    for (auto& u : units) {
      const std::string prefix = u.dir + "/", top = "tpugen_" + fs::path(u.dir).filename().string();
      u.resources = classify(Target::Ice40, parse_stat_json(read_text(p.file(prefix + "stat.json")),
                                                            prefix + "stat.json")
                                                .design.cells_by_type);
      const std::string netlist = read_text(p.file(prefix + "netlist.json"));
      const auto ports = netlist_ports(netlist, top);
      if (u.parameters.empty()) u.parameters = netlist_parameters(netlist, top);
      r.files.insert(r.files.end(), {prefix + "stat.json", prefix + "netlist.v", prefix + "netlist.json"});
      const ShellPnr s = pnr_in_shell(o, p.file(u.dir), top, ports, clock_port(ports), v, "unit " + u.name, r.files,
                                      prefix);
      u.pnr = s.pnr;
      u.shell_ffs = s.shell_ffs;
      u.message = s.message;
      const auto children = child_modules(hier, u.module);
      if (s.fits) {
        u.status = "routed";
      } else if (!children.empty()) {
        u.status = "split";
        for (const auto& [child, n] : children)
          if (tried.insert(child).second) batch.emplace_back(child, u.name);
      } else {
        u.status = "no-fit";
      }
      tried.insert(u.module);
      r.units.push_back(std::move(u));
    }
  }
  for (const auto& u : r.units)
    if (u.status == "routed" && u.pnr && u.pnr->fmax_mhz && (!r.unit_fmax_mhz || *u.pnr->fmax_mhz < *r.unit_fmax_mhz)) {
      r.unit_fmax_mhz = *u.pnr->fmax_mhz;
      r.unit_fmax_limit = u.name;
    }
}

/// ice40: the whole top in its I/O shell; then, when it does not fit (or
/// always, by option), each unit on its own (docs/synth.md).
void place_and_route(const FlowOptions& o, const Paths& p, FlowResult& r, const TemplateValues& v) {
  const ShellPnr whole = pnr_in_shell(o, p.out, o.top, r.ports, r.clock_port, v, "the design", r.files, "");
  r.pnr = whole.pnr;
  r.shell_ffs = whole.shell_ffs;
  r.top_fits = whole.fits;
  const bool per_unit = o.unit_pnr == UnitPnr::Always || (o.unit_pnr == UnitPnr::Auto && !whole.fits);
  if (!per_unit) {
    add_gate(r, "synth.fit", whole.fits ? "pass" : "fail", whole.message);
    return;
  }
  place_units(o, p, r, v);
  std::vector<std::string> no_fit;
  for (const auto& u : r.units)
    if (u.status == "no-fit") no_fit.push_back(u.message);
  if (r.units.empty()) {
    add_gate(r, "synth.fit", whole.fits ? "pass" : "fail",
             whole.message + fmt::format("; {} instantiates no module to place on its own", o.top));
    return;
  }
  if (!no_fit.empty()) {
    add_gate(r, "synth.fit", "fail", fmt::format("{}{}", no_fit.front(),
                                                 no_fit.size() > 1 ? fmt::format(" (and {} more)", no_fit.size() - 1)
                                                                   : std::string()));
    return;
  }
  std::int64_t routed = 0;
  for (const auto& u : r.units) routed += u.status == "routed" ? 1 : 0;
  const std::string estimate =
      r.unit_fmax_mhz ? fmt::format("; estimated core Fmax {:.2f} MHz (the slowest unit, {})", *r.unit_fmax_mhz,
                                    r.unit_fmax_limit)
                      : std::string();
  add_gate(r, "synth.fit", "pass",
           fmt::format("per unit: {} unit(s) placed and routed on their own on the iCE40 {} ({}){}; the whole {}: {}",
                       routed, o.ice40_device, o.ice40_package, estimate, o.top,
                       whole.fits ? "fits too" : whole.message + " (reported, not gated, in per-unit mode)"));
}

json report_json(const FlowOptions& o, const FlowResult& r) {
  json j;
  j["tool"] = fmt::format("tpugen {}", o.version);
  j["target"] = target_name(o.target);
  j["top"] = o.top;
  j["ok"] = r.ok;
  if (!r.ok) j["failure"] = {{"rule", r.failed_rule}, {"message", r.failed_message}};
  json params = json::object();
  for (const auto& [k, v] : o.parameters) params[k] = v;
  j["parameters"] = params;
  if (!o.top_parameters.empty()) {
    json top_params = json::object();
    for (const auto& [k, v] : o.top_parameters) top_params[k] = v;
    j["top_parameters"] = top_params;
  }
  j["spec"] = {{"file", o.spec_name}, {"sha256", o.spec_sha256}};
  j["tools"] = {{"yosys", r.yosys_version}};
  if (o.target == Target::Ice40) j["tools"]["nextpnr"] = r.nextpnr_version;
  if (o.target == Target::Xilinx) j["xilinx"] = {{"family", o.xilinx_family}, {"part_for_vivado", o.xilinx_part}};
  if (o.target == Target::Ice40) j["ice40"] = {{"device", o.ice40_device}, {"package", o.ice40_package}};
  j["clock"] = {{"port", r.clock_port}, {"mhz", o.clock_mhz}};
  json gates = json::array();
  for (const auto& g : r.gates) gates.push_back({{"rule", g.rule}, {"status", g.status}, {"message", g.message}});
  j["gates"] = gates;
  const Resources& res = r.resources;
  json resources = {{"lut", res.luts}, {"ff", res.ffs}, {"bram", res.bram}, {"dsp", res.dsp}, {"carry", res.carry}};
  if (o.target == Target::Xilinx) {
    resources["ramb18"] = res.ramb18;
    resources["ramb36"] = res.ramb36;
    resources["bram36_equivalent"] = res.bram36;
    resources["lutram_cells"] = res.lutram_cells;
    resources["lutram_luts"] = res.lutram_luts;
    resources["srl"] = res.srl;
    resources["muxf"] = res.muxf;
  }
  if (o.target == Target::Ice40) resources["spram"] = res.spram;
  if (o.target == Target::Generic) {
    resources.erase("lut");
    resources["gates"] = res.luts;
  }
  resources["io_buffers"] = res.io;
  resources["other"] = res.other;
  j["resources"] = resources;
  j["cells_by_type"] = r.cells_by_type;
  j["memories"] = {{"declared", r.memories}, {"ram_instances", r.ram_instances}};
  if (r.depth) j["depth"] = {{"cells", *r.depth}, {"measure", "ltp -noff: the longest path of combinational cells "
                                                               "between flip-flops, ports and RAMs"}};
  if (r.pnr) {
    json pnr = {{"routed", r.pnr->routed}};
    if (r.pnr->fmax_mhz) pnr["fmax_mhz"] = *r.pnr->fmax_mhz;
    if (!r.pnr->clock.empty()) pnr["clock"] = r.pnr->clock;
    if (!r.pnr->error.empty()) pnr["error"] = r.pnr->error;
    if (!r.pnr->resource.empty()) pnr["resource"] = r.pnr->resource;
    json util = json::object();
    for (const auto& [k, u] : r.pnr->utilization) util[k] = {{"used", u.first}, {"available", u.second}};
    pnr["utilization"] = util;
    pnr["shell_ffs"] = r.shell_ffs;
    j["pnr"] = pnr;
  }
  if (!r.units.empty()) {
    json units = json::array();
    for (const auto& u : r.units) {
      json ju = {{"name", u.name}, {"module", u.module}, {"status", u.status}, {"instances", u.instances}};
      json unit_params = json::object();
      for (const auto& [k, val] : u.parameters) unit_params[k] = val;
      ju["parameters"] = unit_params;
      if (!u.parent.empty()) ju["part_of"] = u.parent;
      ju["dir"] = u.dir;
      ju["cells"] = {{"lut", u.resources.luts},   {"ff", u.resources.ffs},       {"bram", u.resources.bram},
                     {"dsp", u.resources.dsp},    {"carry", u.resources.carry}, {"spram", u.resources.spram}};
      if (u.pnr) {
        if (u.pnr->fmax_mhz) ju["fmax_mhz"] = *u.pnr->fmax_mhz;
        json util = json::object();
        for (const auto& [k, use] : u.pnr->utilization) util[k] = {{"used", use.first}, {"available", use.second}};
        ju["utilization"] = util;
        if (!u.pnr->resource.empty()) ju["resource"] = u.pnr->resource;
      }
      ju["shell_ffs"] = u.shell_ffs;
      if (u.status != "routed") ju["message"] = u.message;
      units.push_back(ju);
    }
    json per_unit = {{"device", o.ice40_device}, {"package", o.ice40_package}, {"top_fits", r.top_fits},
                     {"units", units}};
    if (r.unit_fmax_mhz) {
      per_unit["core_fmax_estimate_mhz"] = *r.unit_fmax_mhz;
      per_unit["limited_by"] = r.unit_fmax_limit;
    }
    per_unit["estimate"] =
        "the minimum of the routed units' Fmax, each unit alone in the I/O shell; the paths between units and the "
        "top's own glue logic are not timed";
    j["per_unit"] = per_unit;
  }
  json ports = json::array();
  for (const auto& p : r.ports) ports.push_back({{"name", p.name}, {"direction", p.direction}, {"width", p.width}});
  j["ports"] = ports;
  j["files"] = r.files;
  return j;
}

}  // namespace

Target parse_target(std::string_view name) {
  if (const auto t = enum_value(kTargets, name)) return *t;
  throw Error("synth.target", fmt::format("unknown target '{}': generic, xilinx or ice40", name));
}

UnitPnr parse_unit_pnr(std::string_view name) {
  if (name == "auto") return UnitPnr::Auto;
  if (name == "always") return UnitPnr::Always;
  if (name == "never") return UnitPnr::Never;
  throw Error("synth.units", fmt::format("unknown per-unit mode '{}': auto, always or never", name));
}

FlowResult run_flow(const FlowOptions& o) {
  FlowResult r;
  check_top_parameters(o);
  const fs::path yosys = locate(o.yosys);  // fail before any work when a tool is missing
  if (o.target == Target::Ice40) locate(o.nextpnr);
  const Paths p{fs::absolute(o.out_dir)};
  std::error_code ec;
  fs::create_directories(p.file("gates"), ec);
  if (ec) throw Error("synth.io", fmt::format("cannot create '{}': {}", p.out.string(), ec.message()));
  r.yosys_version = version_line({yosys.string(), "-V"});
  if (o.target == Target::Ice40)
    r.nextpnr_version = version_line({locate(o.nextpnr).string(), "--version"});

  // The sources, in compile order, as the output directory's files.f.
  const auto sources = read_filelist(o.rtl_dir / "files.f");
  if (sources.empty())
    throw Error("synth.io", fmt::format("'{}' lists no source", (o.rtl_dir / "files.f").string()));
  std::string filelist, reads, core_files;
  for (const auto& s : sources) {
    const std::string rel = "rtl/" + fs::path(s).filename().string();
    filelist += rel + "\n";
    reads += fmt::format("read_verilog -sv {}\n", rel);
    core_files += fmt::format("      - {}\n", rel);
  }
  write_file(p.file("files.f"), filelist, kIo);
  r.files.push_back("files.f");

  TemplateValues v = base_values(o);
  v["read_sources"] = reads;
  const std::string front = fill_template(load_template(o, "yosys_front.ys"), v, "fpga/yosys_front.ys", kFpgaTemplate);
  const std::string script_name = fmt::format("yosys_{}.ys", target_name(o.target));
  const std::string back = fill_template(load_template(o, script_name), v, "fpga/" + script_name, kFpgaTemplate);
  write_file(p.file("synth.ys"), front + "\n" + back, kIo);
  r.files.insert(r.files.end(), {"rtl/", "synth.ys", "yosys.log"});
  for (const char* stale : {"gates/latches.txt", "gates/check.txt", "gates/hierarchy.json", "gates/memories_in.il",
                            "gates/memories_left.il", "gates/stat.json", "gates/depth.txt", "netlist.json", "netlist.v"})
    fs::remove(p.file(stale), ec);

  const int rc = run_logged({yosys.string(), "-s", "synth.ys"}, p.file("yosys.log"), p.out);
  structural_gates(p, r);
  memory_gate(o, p, r);
  if (rc != 0 && r.failed_rule.empty())
    throw Error("synth.tool", fmt::format("yosys exited with {}; the end of {}:\n{}", rc, p.file("yosys.log").string(),
                                          last_lines(read_if_exists(p.file("yosys.log")), 20)));

  if (r.failed_rule.empty()) {
    const StatReport stat = parse_stat_json(read_text(p.file("gates/stat.json")), "gates/stat.json");
    r.cells_by_type = stat.design.cells_by_type;
    r.resources = classify(o.target, r.cells_by_type);
    r.depth = parse_ltp(read_if_exists(p.file("gates/depth.txt")));
    r.ports = netlist_ports(read_text(p.file("netlist.json")), o.top);
    r.clock_port = clock_port(r.ports);
    r.files.insert(r.files.end(), {"netlist.v", "netlist.json"});
    if (o.target == Target::Ice40) place_and_route(o, p, r, v);
  }
  r.ok = r.failed_rule.empty();

  // The templates for the engineer's own flow.
  v["clock_port"] = r.clock_port.empty() ? "clk_i" : r.clock_port;
  write_file(p.file("constraints.sdc"), fill_template(load_template(o, "constraints.sdc"), v, "fpga/constraints.sdc", kFpgaTemplate),
             kIo);
  r.files.push_back("constraints.sdc");
  const bool vivado = o.target != Target::Ice40;
  if (vivado) {
    write_file(p.file("constraints.xdc"),
               fill_template(load_template(o, "constraints.xdc"), v, "fpga/constraints.xdc", kFpgaTemplate), kIo);
    write_file(p.file("vivado_synth.tcl"),
               fill_template(load_template(o, "vivado_synth.tcl"), v, "fpga/vivado_synth.tcl", kFpgaTemplate), kIo);
    r.files.insert(r.files.end(), {"constraints.xdc", "vivado_synth.tcl"});
  }
  v["rtl_files"] = core_files.substr(0, core_files.empty() ? 0 : core_files.size() - 1);
  v["vlnv"] = fmt::format("tpugen:tpugen:{}{}:{}", o.top, o.config_name.empty() ? "" : "_" + o.config_name,
                          o.version);
  v["constraint_filesets"] =
      vivado ? "  constraints_xilinx:\n    files:\n      - constraints.xdc: {file_type: xdc}\n" : "";
  const std::string synth_snippet = vivado ? "core_synth_vivado.yml" : "core_synth_icestorm.yml";
  v["synth_target"] = fill_template(load_template(o, synth_snippet), v, "fpga/" + synth_snippet, kFpgaTemplate);
  const std::string core_name = fmt::format("{}{}.core", o.top, o.config_name.empty() ? "" : "_" + o.config_name);
  write_file(p.file(core_name), fill_template(load_template(o, "ip.core"), v, "fpga/ip.core", kFpgaTemplate), kIo);
  r.files.push_back(core_name);

  r.files.insert(r.files.end(), {"synth_report.txt", "synth_report.json"});
  write_file(p.file("synth_report.json"), report_json(o, r).dump(2) + "\n", kIo);
  write_file(p.file("synth_report.txt"), report_text(o, r), kIo);
  return r;
}

namespace {

/// The per-unit table of the text report.
std::string units_text(const FlowOptions& o, const FlowResult& r) {
  std::string s = fmt::format("per unit: each unit alone in the I/O shell on the iCE40 {} ({}), nextpnr-ice40 "
                              "--freq {}\n",
                              o.ice40_device, o.ice40_package, format_mhz(o.clock_mhz));
  s += fmt::format("  {:<22} {:>5} {:<8} {:>6} {:>6} {:>5} {:>4} {:>14} {:>9}\n", "unit", "inst", "status", "LUT4",
                   "FF", "BRAM", "DSP", "LC (+shell)", "Fmax MHz");
  for (const auto& u : r.units) {
    std::string lc = "-";
    if (u.pnr)
      if (const auto it = u.pnr->utilization.find("ICESTORM_LC"); it != u.pnr->utilization.end())
        lc = fmt::format("{}/{}", it->second.first, it->second.second);
    const std::string name = u.parent.empty() ? u.name : "  " + u.name;
    const std::string fmax = u.pnr && u.pnr->fmax_mhz ? fmt::format("{:.2f}", *u.pnr->fmax_mhz) : "-";
    s += fmt::format("  {:<22} {:>5} {:<8} {:>6} {:>6} {:>5} {:>4} {:>14} {:>9}\n", name, u.instances, u.status,
                     u.resources.luts, u.resources.ffs, u.resources.bram, u.resources.dsp, lc, fmax);
  }
  for (const auto& u : r.units) {
    std::string params;
    for (const auto& [k, val] : u.parameters) params += fmt::format(" {}={}", k, val);
    if (!params.empty()) s += fmt::format("  {} ({}):{}\n", u.name, u.dir, params);
  }
  if (r.unit_fmax_mhz)
    s += fmt::format("core Fmax estimate: {:.2f} MHz, the slowest unit ({}). It ignores the paths between units{} "
                     "and the top's own glue logic; LC counts include the shell's flip-flops.\n",
                     *r.unit_fmax_mhz, r.unit_fmax_limit,
                     o.parameters.empty() ? "" : " (in the generated core each channel and queue is a tpu_fifo)");
  return s;
}

}  // namespace

std::string report_text(const FlowOptions& o, const FlowResult& r) {
  std::string s;
  s += fmt::format("tpugen synth: target {}, top {}\n", target_name(o.target), o.top);
  s += fmt::format("configuration: {}\n", config_line(o));
  if (!o.spec_sha256.empty()) s += fmt::format("spec: {} sha256 {}\n", o.spec_name, o.spec_sha256);
  s += fmt::format("tools: {}{}\n", r.yosys_version, r.nextpnr_version.empty() ? "" : "; " + r.nextpnr_version);
  if (o.target == Target::Xilinx) s += fmt::format("synth_xilinx -family {}\n", o.xilinx_family);
  if (o.target == Target::Ice40) s += fmt::format("synth_ice40; nextpnr-ice40 --{} --package {}\n", o.ice40_device,
                                                  o.ice40_package);
  s += "gates:\n";
  for (const auto& g : r.gates) s += fmt::format("  {:<18} {:<7} {}\n", g.rule, g.status, g.message);
  if (!r.ok) {
    s += fmt::format("FAILED [{}]: {}\n", r.failed_rule, r.failed_message);
    if (r.cells_by_type.empty()) return s;
  }
  const Resources& x = r.resources;
  switch (o.target) {
    case Target::Generic:
      s += fmt::format("cells: {} gates, {} flip-flops (Yosys' internal gate library)\n", x.luts, x.ffs);
      break;
    case Target::Xilinx:
      s += fmt::format(
          "resources: LUT {} (logic) + {} LUTRAM ({} cells) + {} SRL, FF {}, BRAM {} (RAMB36 {}, RAMB18 {}; {:.1f} "
          "RAMB36 equivalents), DSP {}, CARRY {}, MUXF {}\n",
          x.luts, x.lutram_luts, x.lutram_cells, x.srl, x.ffs, x.bram, x.ramb36, x.ramb18, x.bram36, x.dsp, x.carry,
          x.muxf);
      break;
    case Target::Ice40:
      s += fmt::format("resources: LUT4 {}, FF {}, BRAM {} (SB_RAM40_4K), DSP {} (SB_MAC16), CARRY {}, SPRAM {}\n",
                       x.luts, x.ffs, x.bram, x.dsp, x.carry, x.spram);
      break;
  }
  if (r.depth)
    s += fmt::format("depth: {} cells on the longest combinational path ({})\n", *r.depth,
                     o.target == Target::Generic  ? "ltp -noff: generic gates, flip-flops excluded"
                     : o.target == Target::Xilinx ? "ltp between flip-flops, RAMs, DSPs and ports: LUT, MUXF, "
                                                    "CARRY and INV cells"
                                                  : "ltp between flip-flops, RAMs, DSPs and ports: SB_LUT4 and "
                                                    "SB_CARRY cells");
  if (r.pnr && r.pnr->routed) {
    if (r.pnr->fmax_mhz)
      s += fmt::format("fmax: {:.2f} MHz (nextpnr-ice40, clock {}, target {} MHz; core inside a {}-flip-flop I/O "
                       "shell)\n",
                       *r.pnr->fmax_mhz, r.pnr->clock, format_mhz(o.clock_mhz), r.shell_ffs);
    for (const auto& [res, u] : r.pnr->utilization)
      if (u.first > 0) s += fmt::format("  {:<14} {:>6} / {:<6}\n", res, u.first, u.second);
  }
  if (!r.units.empty()) s += units_text(o, r);
  s += "cells by type:\n";
  for (const auto& [type, n] : r.cells_by_type) s += fmt::format("  {:<24} {:>8}\n", type, n);
  s += "files:";
  for (const auto& f : r.files) s += " " + f;
  return s + "\n";
}

}  // namespace tpugen::synth
