#include "synth/reports.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "util/diag.h"
#include "util/text.h"

namespace tpugen::synth {

namespace {

using json = nlohmann::json;

std::string strip_backslash(std::string s) { return !s.empty() && s.front() == '\\' ? s.substr(1) : s; }

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  std::stringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

json parse_json(std::string_view text, std::string_view what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw Error("synth.report", fmt::format("{}: not valid JSON ({})", what, e.what()));
  }
}

ModuleStat module_stat(const json& j) {
  ModuleStat m;
  m.cells = j.value("num_cells", std::int64_t{0});
  m.memories = j.value("num_memories", std::int64_t{0});
  m.memory_bits = j.value("num_memory_bits", std::int64_t{0});
  m.wires = j.value("num_wires", std::int64_t{0});
  m.wire_bits = j.value("num_wire_bits", std::int64_t{0});
  if (j.contains("num_cells_by_type"))
    for (const auto& [type, n] : j.at("num_cells_by_type").items()) m.cells_by_type[strip_backslash(type)] = n.get<std::int64_t>();
  return m;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

std::string_view target_name(Target target) { return enum_name(kTargets, target, "generic"); }

StatReport parse_stat_json(std::string_view text, std::string_view what) {
  // Yosys 0.23 writes the text hierarchy table ("    $paramod...\\name   2")
  // into stat -json when the design has a top module; every line of the JSON
  // itself starts with a brace, a bracket or a quote, so the table's go.
  std::string clean;
  for (const auto& line : lines_of(text)) {
    const auto b = line.find_first_not_of(" \t");
    if (b == std::string::npos || std::string_view("{}[]\"").find(line[b]) == std::string_view::npos) continue;
    clean += line + "\n";
  }
  const json j = parse_json(clean, what);
  StatReport r;
  try {
    if (j.contains("modules"))
      for (const auto& [name, m] : j.at("modules").items()) r.modules[strip_backslash(name)] = module_stat(m);
    if (j.contains("design")) {
      r.design = module_stat(j.at("design"));
    } else {
      for (const auto& [name, m] : r.modules) {
        r.design.cells += m.cells;
        r.design.memories += m.memories;
        r.design.memory_bits += m.memory_bits;
        for (const auto& [type, n] : m.cells_by_type) r.design.cells_by_type[type] += n;
      }
    }
  } catch (const json::exception& e) {
    throw Error("synth.report", fmt::format("{}: unexpected stat -json layout ({})", what, e.what()));
  }
  return r;
}

std::map<std::string, std::int64_t> instance_counts(const StatReport& stat, const std::string& top) {
  std::map<std::string, std::int64_t> counts;
  // Depth-first from the top; a module's count is the sum over its parents'.
  std::function<void(const std::string&, std::int64_t, int)> visit = [&](const std::string& m, std::int64_t n,
                                                                          int depth) {
    counts[m] += n;
    const auto it = stat.modules.find(m);
    if (it == stat.modules.end() || depth > 256) return;
    for (const auto& [type, k] : it->second.cells_by_type)
      if (stat.modules.count(type) != 0) visit(type, n * k, depth + 1);
  };
  visit(top, 1, 0);
  return counts;
}

std::map<std::string, std::int64_t> child_modules(const StatReport& stat, const std::string& module) {
  std::map<std::string, std::int64_t> out;
  const auto it = stat.modules.find(module);
  if (it == stat.modules.end()) return out;
  for (const auto& [type, n] : it->second.cells_by_type)
    if (type != module && stat.modules.count(type) != 0) out[type] = n;
  return out;
}

ModuleName parse_module_name(std::string_view module) {
  ModuleName r;
  if (!starts_with(module, "$paramod")) {
    r.base = std::string(module);
    return r;
  }
  // $paramod\base\P=V\Q=W or $paramod$hash\base: split on backslashes.
  std::vector<std::string> parts;
  std::string cur;
  for (const char c : module.substr(8)) {
    if (c == '\\') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  if (parts.size() < 2) {
    r.base = std::string(module);
    return r;
  }
  r.base = parts[1];
  static const std::regex binary(R"((s?)(\d+)'([01]+))");
  for (std::size_t i = 2; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos) continue;
    std::string value = parts[i].substr(eq + 1);
    std::smatch m;
    if (std::regex_match(value, m, binary) && m[3].length() <= 62) {
      const std::string bits = m[3];
      std::int64_t v = 0;
      for (const char b : bits) v = v * 2 + (b == '1' ? 1 : 0);
      if (m[1].length() > 0 && bits.front() == '1') v -= std::int64_t{1} << bits.size();  // two's complement
      value = std::to_string(v);
    }
    r.parameters.emplace_back(parts[i].substr(0, eq), value);
  }
  return r;
}

std::vector<std::pair<std::string, std::string>> netlist_parameters(std::string_view text, const std::string& module) {
  const json j = parse_json(text, "netlist.json");
  std::vector<std::pair<std::string, std::string>> out;
  if (!j.contains("modules") || !j.at("modules").contains(module)) return out;
  const json& m = j.at("modules").at(module);
  if (!m.contains("parameter_default_values")) return out;
  for (const auto& [name, value] : m.at("parameter_default_values").items()) {
    if (!value.is_string()) {
      out.emplace_back(name, value.dump());
      continue;
    }
    std::string v = value.get<std::string>();
    if (!v.empty() && v.size() <= 62 && v.find_first_not_of("01") == std::string::npos) {
      std::int64_t n = 0;
      for (const char b : v) n = n * 2 + (b == '1' ? 1 : 0);
      if (v.size() == 32 && v.front() == '1') n -= std::int64_t{1} << 32;
      v = std::to_string(n);
    } else if (!v.empty() && v.back() == ' ') {
      v.pop_back();  // Yosys marks a string that would read as bits with a trailing space
    }
    out.emplace_back(name, v);
  }
  return out;
}

bool is_module_of(std::string_view module, std::string_view primitive) {
  if (module == primitive) return true;
  if (!starts_with(module, "$paramod")) return false;
  const std::string needle = fmt::format("\\{}\\", primitive);
  return module.find(needle) != std::string_view::npos ||
         (module.size() > primitive.size() && module.substr(module.size() - primitive.size() - 1) ==
                                                  fmt::format("\\{}", primitive));
}

std::vector<MemoryCell> parse_memory_cells(std::string_view rtlil) {
  std::vector<MemoryCell> out;
  std::optional<MemoryCell> cur;
  std::string pending_src;
  static const std::regex param(R"(^\s*parameter \\(\w+) (.*)$)");
  for (const auto& line : lines_of(rtlil)) {
    const std::string t = trim(line);
    if (starts_with(t, "attribute \\src ")) {
      pending_src = t.substr(15);
      if (pending_src.size() >= 2 && pending_src.front() == '"') pending_src = pending_src.substr(1, pending_src.size() - 2);
    } else if (starts_with(t, "cell $mem")) {
      cur = MemoryCell{};
      const auto sp = t.find(' ', 5);
      cur->name = sp == std::string::npos ? std::string() : strip_backslash(trim(t.substr(t.find(' ', 5) + 1)));
      cur->src = pending_src;
    } else if (t == "end") {
      if (cur) out.push_back(*cur);
      cur.reset();
      pending_src.clear();
    } else if (cur) {
      std::smatch m;
      if (!std::regex_match(t, m, param)) continue;
      const std::string key = m[1], value = m[2];
      auto int_value = [&]() -> std::int64_t {
        try {
          return std::stoll(value);
        } catch (const std::exception&) {
          return 0;
        }
      };
      if (key == "WIDTH") cur->width = int_value();
      if (key == "SIZE") cur->size = int_value();
      if (key == "RD_PORTS") cur->rd_ports = int_value();
      if (key == "WR_PORTS") cur->wr_ports = int_value();
      if (key == "RD_CLK_ENABLE") {  // N'bits: one per read port, 1 = clocked
        const auto q = value.find('\'');
        const std::string bits = q == std::string::npos ? value : value.substr(q + 1);
        cur->sync_read = bits.find_first_not_of('1') == std::string::npos;
      }
    }
  }
  return out;
}

std::vector<std::string> parse_select_list(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& line : lines_of(text))
    if (const std::string t = trim(line); !t.empty()) out.push_back(t);
  return out;
}

std::vector<CheckFinding> parse_check(std::string_view text) {
  // "Warning: found logic loop in module M:" + indented cell/wire lines;
  // "Warning: multiple conflicting drivers for M.\net [i]:" + indented drivers;
  // "Warning: Drivers conflicting with a constant 1'0 for M.\net [i]:" (same);
  // "Warning: Wire M.\net [i] is used but has no driver."
  static const std::regex loop(R"(^Warning: found logic loop in module (\S+):$)");
  static const std::regex multi(R"(^Warning: (?:multiple conflicting drivers|Drivers conflicting with a constant \S+) for (.+?)(?: \[\d+\])?:$)");
  static const std::regex undriven(R"(^Warning: Wire (.+?)(?: \[\d+\])? is used but has no driver\.$)");
  std::vector<CheckFinding> out;
  auto add = [&](const std::string& rule, std::string subject, std::string detail) {
    subject.erase(std::remove(subject.begin(), subject.end(), '\\'), subject.end());
    for (auto& f : out)
      if (f.rule == rule && f.subject == subject) {
        ++f.bits;
        return;
      }
    out.push_back({rule, subject, std::move(detail), 1});
  };
  const auto lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    auto indented_block = [&]() {
      std::string detail;
      while (i + 1 < lines.size() && starts_with(lines[i + 1], "    ")) {
        std::string l = trim(lines[++i]);
        l.erase(std::remove(l.begin(), l.end(), '\\'), l.end());
        detail += (detail.empty() ? "" : "\n") + l;
      }
      return detail;
    };
    if (std::regex_match(lines[i], m, loop)) {
      const std::string module = m[1];
      std::string detail = indented_block();
      // A loop is named by its first cell: one finding per distinct first cell.
      const std::string first = detail.substr(0, detail.find('\n'));
      add("synth.comb_loop", module + ": " + first, detail);
    } else if (std::regex_match(lines[i], m, multi)) {
      const std::string subject = m[1];
      add("synth.multidriven", subject, indented_block());
    } else if (std::regex_match(lines[i], m, undriven)) {
      add("synth.undriven", m[1], "");
    }
  }
  return out;
}

std::optional<std::int64_t> parse_ltp(std::string_view text) {
  static const std::regex re(R"(Longest topological path in \S+ \(length=(\d+)\))");
  std::optional<std::int64_t> best;
  for (const auto& line : lines_of(text)) {
    std::smatch m;
    if (std::regex_search(line, m, re)) best = std::max<std::int64_t>(best.value_or(0), std::stoll(m[1]));
  }
  return best;
}

Resources classify(Target target, const std::map<std::string, std::int64_t>& cells) {
  Resources r;
  for (const auto& [type, n] : cells) {
    if (target == Target::Generic) {
      if (type.find("DFF") != std::string::npos || type.find("SDFF") != std::string::npos ||
          type.find("DLATCH") != std::string::npos)
        r.ffs += n;
      else if (starts_with(type, "$_"))
        r.luts += n;  // generic: gate cells
      else
        r.other += n;
      continue;
    }
    if (target == Target::Xilinx) {
      static const std::regex lut(R"(LUT[1-6])"), ff(R"(FD[CPRS]E?(_1)?)"), ramb18(R"(RAMB18(E1|E2|SDP)?)"),
          ramb36(R"(RAMB36(E1|E2|SDP)?)"), dsp(R"(DSP48E?[12]?)"), carry(R"(CARRY[48])"), muxf(R"(MUXF[789])"),
          srl(R"(SRLC?(16|32)E?)"), io(R"(I?O?BUF.*|IBUFG?|OBUFT?|IOBUF|BUFG.*)");
      // Distributed RAM primitives and the LUTs each occupies (UG474/UG574).
      static const std::map<std::string, std::int64_t> lutram = {
          {"RAM16X1S", 1}, {"RAM32X1S", 1}, {"RAM64X1S", 1}, {"RAM128X1S", 2}, {"RAM256X1S", 4},
          {"RAM512X1S", 8}, {"RAM16X1D", 2}, {"RAM32X1D", 2}, {"RAM64X1D", 2}, {"RAM128X1D", 4},
          {"RAM256X1D", 8}, {"RAM32M", 4}, {"RAM64M", 4}, {"RAM32M16", 8}, {"RAM64M8", 8},
          {"RAM32X16DR8", 8}, {"RAM64X8SW", 8}};
      if (std::regex_match(type, lut)) r.luts += n;
      else if (std::regex_match(type, ff)) r.ffs += n;
      else if (std::regex_match(type, ramb18)) r.ramb18 += n;
      else if (std::regex_match(type, ramb36)) r.ramb36 += n;
      else if (std::regex_match(type, dsp)) r.dsp += n;
      else if (std::regex_match(type, carry)) r.carry += n;
      else if (std::regex_match(type, muxf)) r.muxf += n;
      else if (std::regex_match(type, srl)) r.srl += n;
      else if (const auto it = lutram.find(type); it != lutram.end()) {
        r.lutram_cells += n;
        r.lutram_luts += n * it->second;
      } else if (std::regex_match(type, io)) r.io += n;
      else r.other += n;
      continue;
    }
    // iCE40
    if (type == "SB_LUT4") r.luts += n;
    else if (starts_with(type, "SB_DFF")) r.ffs += n;
    else if (starts_with(type, "SB_RAM40_4K")) r.bram += n;
    else if (type == "SB_MAC16") r.dsp += n;
    else if (type == "SB_CARRY") r.carry += n;
    else if (type == "SB_SPRAM256KA") r.spram += n;
    else if (starts_with(type, "SB_IO") || starts_with(type, "SB_GB")) r.io += n;
    else r.other += n;
  }
  if (target == Target::Xilinx) {
    r.bram = r.ramb18 + r.ramb36;
    r.bram36 = static_cast<double>(r.ramb36) + static_cast<double>(r.ramb18) / 2.0;
  }
  return r;
}

PnrResult parse_nextpnr_report(std::string_view text) {
  const json j = parse_json(text, "nextpnr report");
  PnrResult r;
  r.routed = true;
  try {
    if (j.contains("fmax"))
      for (const auto& [clock, f] : j.at("fmax").items()) {
        const double achieved = f.value("achieved", 0.0);
        if (!r.fmax_mhz || achieved < *r.fmax_mhz) {
          r.fmax_mhz = achieved;
          r.clock = clock;
        }
      }
    if (j.contains("utilization"))
      for (const auto& [res, u] : j.at("utilization").items())
        r.utilization[res] = {u.value("used", std::int64_t{0}), u.value("available", std::int64_t{0})};
  } catch (const json::exception& e) {
    throw Error("synth.report", fmt::format("nextpnr report: unexpected layout ({})", e.what()));
  }
  return r;
}

PnrResult parse_nextpnr_failure(std::string_view log) {
  PnrResult r;
  // Utilisation lines: "Info: 	         ICESTORM_LC:  9000/ 5280   170%".
  static const std::regex util(R"(^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%)");
  static const std::regex cell_type(R"(cell type '(\w+)')"), io_cell(R"(cell '[^']*\$sb_io')");
  for (const auto& line : lines_of(log)) {
    std::smatch m;
    if (std::regex_search(line, m, util)) {
      const std::int64_t used = std::stoll(m[2]), avail = std::stoll(m[3]);
      r.utilization[m[1]] = {used, avail};
      if (used > avail && r.resource.empty()) r.resource = m[1];
    }
    if (r.error.empty() && starts_with(line, "ERROR:")) {
      r.error = trim(line.substr(6));
      if (r.resource.empty() && std::regex_search(line, m, cell_type)) r.resource = m[1];
      if (r.resource.empty() && std::regex_search(line, io_cell)) r.resource = "SB_IO";
    }
  }
  return r;
}

}  // namespace tpugen::synth
