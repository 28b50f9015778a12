#include "hdl/generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "hdl/emitters.h"
#include "hdl/injected_bugs.h"
#include "hdl/package_uses.h"
#include "hdl/tops.h"
#include "util/file_io.h"

namespace tpugen::hdl {

const std::vector<Emitter>& emitters() {
  static const std::vector<Emitter> table = {
      {"tpu_pkg", "ISA constants and the dispatched instruction type, from the spec", emit_tpu_pkg},
      {"tpu_pe", "one processing element of the weight-stationary array", {}, "core/tpu_pe.sv"},
      {"tpu_array", "the T x T weight-stationary systolic array", emit_tpu_array},
      {"tpu_seq_fetch", "the sequencer's imem fetch, header words and instruction buffer", {},
       "core/tpu_seq_fetch.sv"},
      {"tpu_seq_agu", "the sequencer's AGU: per target, the sum of the terms that name it", {},
       "core/tpu_seq_agu.sv"},
      {"tpu_seq_issue", "the sequencer's issue control: decode faults, the loop stack and pc", {},
       "core/tpu_seq_issue.sv"},
      {"tpu_seq_run", "the sequencer's run state: busy, done, the fault registers and the watchdog", {},
       "core/tpu_seq_run.sv"},
      {"tpu_sequencer", "imem fetch, header, loop stack, AGU and dispatch", emit_tpu_sequencer},
      {"tpu_instr_slot", "a DRAM mover's instruction in flight, run one step at a time", {},
       "core/tpu_instr_slot.sv"},
      {"tpu_dma_rd", "dma_ld's DRAM reads: the request register, tags and the row FIFO", {},
       "core/tpu_dma_rd.sv"},
      {"tpu_dma_ld", "dma_ld: operand rows from A and B", emit_tpu_dma_ld},
      {"tpu_mem_queue", "a memory unit's engine queue of pending instructions and its hazard check", {},
       "core/tpu_mem_queue.sv"},
      {"tpu_spm", "spm: the scratchpad and its streams", emit_tpu_spm},
      {"tpu_vru", "vru: the vector registers and the activation stream", emit_tpu_vru},
      {"tpu_accu", "accu: the accumulator registers and their ALU", emit_tpu_accu},
      {"tpu_dma_wr", "dma_st's DRAM writes: the request register, beats and strobes, acknowledgements", {},
       "core/tpu_dma_wr.sv"},
      {"tpu_dma_st", "dma_st: result rows to C", emit_tpu_dma_st},
      {"tpu_top", "the TinyTPU-isa core", emit_tpu_top},
      {"tpu_axi_pkg", "the AXI spec's constants: the master's widths and burst rules", emit_tpu_axi_pkg},
      {"tpu_axi_ctrl", "the AXI4-Lite control slave (ap_ctrl_hs)", emit_tpu_axi_ctrl},
      {"tpu_axi_top", "the core behind AXI4 (an RTL kernel)", emit_tpu_axi_top},
  };
  return table;
}

std::vector<std::string> primitive_files(const std::vector<std::string_view>& rtl_dirs) {
  std::vector<std::string> out;
  for (const auto dir : rtl_dirs) {
    std::vector<std::string> here;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(TPUGEN_RTL_PRIMITIVES) / dir))
      if (e.path().extension() == ".sv") here.push_back(e.path().string());
    std::sort(here.begin(), here.end());
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

std::vector<std::string> primitive_files(TopKind top) { return primitive_files(top_of(top).rtl_dirs); }

const Emitter& emitter(std::string_view module) {
  for (const auto& e : emitters())
    if (e.module == module) return e;
  throw Error("gen.module", fmt::format("no module '{}' in the emitter table", module));
}

namespace {
constexpr std::string_view kIo = "gen.io";
}  // namespace

std::string sv_template(std::string_view path, const TemplateValues& values) {
  const std::string text = read_file(std::filesystem::path(TPUGEN_RTL_PRIMITIVES) / path, kIo);
  std::size_t body = 0;
  while (body < text.size() && text.compare(body, 3, "//!") == 0) {
    const std::size_t eol = text.find('\n', body);
    body = eol == std::string::npos ? text.size() : eol + 1;
  }
  return fill_template(std::string_view(text).substr(body), values, fmt::format("rtl/{}", path), kSvTemplate);
}

std::string hand_written_file(const std::filesystem::path& path, std::string_view module, std::string_view inject_bug) {
  std::string text = read_file(path, kIo);
  if (!inject_bug.empty()) inject_primitive_defect(text, module, inject_bug);
  return text;
}

namespace {
std::string hand_written_text(const RtlContext& ctx, const std::filesystem::path& path, std::string_view module) {
  return hand_written_file(path, module, ctx.options().inject_bug);
}
}  // namespace

std::string module_text(const RtlContext& ctx, const Emitter& e) {
  if (e.emit) return e.emit(ctx);
  return hand_written_text(ctx, std::filesystem::path(TPUGEN_RTL_PRIMITIVES) / e.source, e.module);
}

std::string module_text(const RtlContext& ctx, std::string_view module) { return module_text(ctx, emitter(module)); }

std::vector<std::string> write_configuration(const std::string& out_dir, const std::vector<std::string_view>& packages,
                                             const std::vector<ConfigFile>& files, const std::string& params_json) {
  // Every module reads only names the packages declare (package_uses.h);
  // nothing is written unless all of them do.
  std::vector<std::pair<std::string_view, std::set<std::string>>> declared;  // package, its names
  for (const auto& f : files) {
    check_known_packages(packages, f.origin, f.text);
    for (const auto& [package, names] : declared) check_package_uses(package, names, f.origin, f.text);
    const std::string stem = f.name.substr(0, f.name.rfind('.'));
    if (const auto it = std::find(packages.begin(), packages.end(), stem); it != packages.end())
      declared.emplace_back(*it, package_names(f.text));  // a package: what the files after it may read
  }
  const std::filesystem::path dir(out_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("gen.io", fmt::format("cannot create '{}': {}", out_dir, ec.message()), SourceLoc{out_dir});
  std::vector<std::string> written;
  std::string filelist;
  for (const auto& f : files) {
    write_file(dir / f.name, f.text, kIo);
    written.push_back((dir / f.name).string());
    filelist += f.name + "\n";
  }
  write_file(dir / "files.f", filelist, kIo);
  written.push_back((dir / "files.f").string());
  write_file(dir / "params.json", params_json, kIo);
  written.push_back((dir / "params.json").string());
  return written;
}

std::vector<ConfigFile> configuration_files(const RtlContext& ctx) {
  // The packages first, then the primitives, then the top's modules (the top
  // last), generated or hand-written (Emitter::source), in the top's order.
  const Top& top = top_of(ctx.options().top);
  std::vector<ConfigFile> files;
  for (const auto package : top.packages)
    files.push_back({std::string(package) + ".sv", module_text(ctx, emitter(package)),
                     fmt::format("{}.sv (generated)", package)});
  for (const auto& p : primitive_files(ctx.options().top)) {
    const std::filesystem::path path(p);
    files.push_back({path.filename().string(), hand_written_text(ctx, path, path.stem().string()),
                     "rtl/" + path.parent_path().filename().string() + "/" + path.filename().string()});
  }
  for (const auto module : top.modules) {
    const Emitter& e = emitter(module);
    files.push_back({std::string(module) + ".sv", module_text(ctx, e),
                     e.source ? fmt::format("rtl/{}", e.source) : fmt::format("{}.sv (generated)", module)});
  }
  return files;
}

std::vector<std::string_view> configuration_packages(const RtlContext& ctx) {
  const Top& top = top_of(ctx.options().top);
  return {top.packages.begin(), top.packages.end()};
}

std::vector<std::string> generate(const RtlContext& ctx, const std::string& out_dir) {
  const Top& top = top_of(ctx.options().top);
  const std::vector<ConfigFile> files = configuration_files(ctx);

  std::string json = fmt::format("{{\n  \"top\": \"{}\",\n", top_module(ctx.options().top));
  json += fmt::format("  \"spec\": \"{}\",\n  \"spec_sha256\": \"{}\",\n  \"generator\": \"tpugen {}\",\n",
                      std::filesystem::path(ctx.spec().path).filename().string(), ctx.spec().sha256, TPUGEN_VERSION);
  json += "  \"parameters\": {";
  bool first = true;
  for (const auto& [name, v] : ctx.isa().params().build_parameters()) {
    json += fmt::format("{}\n    \"{}\": {}", first ? "" : ",", name, v);
    first = false;
  }
  json += "\n  },\n  \"derived\": {";
  first = true;
  for (const auto& c : ctx.spec().derived_constants) {
    json += fmt::format("{}\n    \"{}\": {}", first ? "" : ",", c.name, ctx.param(c.name));
    first = false;
  }
  // The options a user sets (rtl_options.h), but the top: "top" above names its module.
  json += "\n  },\n  \"options\": {";
  first = true;
  for (const auto& f : rtl_option_fields()) {
    if (!f.recorded() || f.key == "top") continue;
    json += fmt::format("{}\n    \"{}\": {}", first ? "" : ",", f.key, f.json(ctx.options()));
    first = false;
  }
  json += "\n  }\n}\n";
  return write_configuration(out_dir, top.packages, files, json);
}

}  // namespace tpugen::hdl
