// tpugen gen --vpi: the cocotb build of a generated configuration.
#include "sim/cocotb_build.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "sim/rtl_engine.h"
#include "util/file_io.h"
#include "util/template.h"

namespace tpugen::sim {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kIo = "gen.io";

/// The cocotb templates (tb/cocotb/templates): `@NAME@`, through the one
/// strict filler (an `@NAME@` without a value is a bug in a template); one
/// value map serves all of them.
constexpr TemplateSyntax kCocotbTemplate{"@", "@", "gen.template", false};

/// The cocotb requirement pinned in tb/cocotb/requirements.txt ("cocotb==X").
std::string pinned_cocotb(const std::string& requirements) {
  const std::string key = "cocotb==";
  for (auto pos = requirements.find(key); pos != std::string::npos; pos = requirements.find(key, pos + 1)) {
    if (pos != 0 && requirements[pos - 1] != '\n') continue;
    const auto end = requirements.find_first_of(" \t\r\n#", pos);
    return requirements.substr(pos + key.size(), end == std::string::npos ? std::string::npos : end - pos - key.size());
  }
  throw Error("gen.template", "tb/cocotb/requirements.txt pins no cocotb==VERSION");
}

/// The AXI top's facts an AXI driver needs (hdl::TopKind::Axi): the master's bus
/// and burst rules, the bundles, its streams and the control registers' fields,
/// from the loaded AXI spec (as sim_config.h has them for the C++ harness).
nlohmann::ordered_json axi_config_json(const hdl::RtlContext& ctx) {
  const AxiTopSpec& a = ctx.axi();
  nlohmann::ordered_json j;
  j["spec"] = fs::absolute(a.path).string();
  j["spec_sha256"] = a.sha256;
  j["data_bytes"] = ctx.axi_data_bytes();
  j["addr_bits"] = a.master.addr_bits;
  j["id_bits"] = a.master.id_bits;
  j["max_burst_beats"] = a.master.max_burst_beats;
  j["boundary_bytes"] = a.master.boundary_bytes;
  j["max_outstanding"] = a.master.max_outstanding;
  j["master_bundle"] = a.master.bundle;
  j["control_bundle"] = a.control.bundle;
  j["control_data_bits"] = a.control.data_bits;
  j["control_addr_bits"] = a.control.addr_bits;
  j["streams"] = nlohmann::ordered_json::array();
  for (const auto& s : a.master.streams) j["streams"].push_back({{"port", s.port}, {"id", s.id}, {"bases", s.bases}});
  j["fields"] = nlohmann::ordered_json::object();
  for (const auto& r : a.control.registers)
    for (const auto& f : r.fields)
      j["fields"][f.name] = {{"register", r.name}, {"offset", r.offset}, {"lsb", f.lsb}, {"width", f.width},
                             {"access", std::string(access_name(f.access))}};
  return j;
}

}  // namespace

std::vector<std::string> cocotb_verilator_args() { return verilator_model_args(); }

std::string cocotb_config_json(const hdl::RtlContext& ctx) {
  const Spec& spec = ctx.spec();
  const std::int64_t vw = ctx.param("VW"), maxdim = ctx.param("MAXDIM");
  nlohmann::ordered_json j;
  j["generator"] = fmt::format("tpugen {}", TPUGEN_VERSION);
  j["spec"] = fs::absolute(spec.path).string();
  j["spec_sha256"] = spec.sha256;
  j["top"] = std::string(hdl::top_module(ctx.options().top));
  j["top_kind"] = std::string(hdl::top_kind_name(ctx.options().top));
  j["parameters"] = nlohmann::ordered_json::object();
  for (const auto& [name, v] : ctx.isa().params().build_parameters()) j["parameters"][name] = v;
  j["options"] = nlohmann::ordered_json::object();  // the knobs that are parameters of the top
  for (const auto& f : hdl::rtl_option_fields())
    if (!f.param.empty()) j["options"][std::string(f.key)] = nlohmann::ordered_json::parse(f.json(ctx.options()));
  j["maxdim"] = maxdim;
  j["matrix_bytes"] = maxdim * maxdim;
  j["imem_size"] = ctx.param("IMEM_SIZE");
  j["imem_beat_words"] = ctx.options().imem_beat_words;
  j["read_beat_bytes"] = ctx.param("DMA_WORDS") * vw / 8;
  j["write_beat_bytes"] = ctx.options().c_beat_words * vw / 8;
  j["count_width"] = ctx.count_width();
  j["counters"] = nlohmann::ordered_json::array();
  for (const auto& h : spec.header) {
    if (h.count.kind != HeaderCount::UnitSteps && h.count.kind != HeaderCount::PortItems) continue;
    const std::string unit = h.count.kind == HeaderCount::PortItems ? h.count.unit + "." + h.count.port : h.count.unit;
    j["counters"].push_back({{"name", h.name}, {"unit", unit}, {"hdr_word", h.word}, {"hdr_lsb", h.lsb},
                             {"hdr_width", h.width}});
  }
  j["unit_names"] = nlohmann::ordered_json::array();
  for (const auto& u : spec.units) j["unit_names"].push_back(u.name);
  j["fault_names"] = fault_names(ctx);
  if (ctx.options().top == hdl::TopKind::Axi) j["axi"] = axi_config_json(ctx);
  return j.dump(2) + "\n";
}

std::vector<std::string> write_cocotb_build(const hdl::RtlContext& ctx, const std::string& out_dir) {
  const fs::path dir(out_dir), src(TPUGEN_TB_COCOTB_DIR);
  const std::string requirements = read_file(src / "requirements.txt", kIo);
  std::string vargs;
  for (const auto& a : cocotb_verilator_args()) vargs += (vargs.empty() ? "" : " ") + a;
  std::string params;
  for (const auto& [name, v] : ctx.isa().params().build_parameters()) params += fmt::format(" {}={}", name, v);
  const TemplateValues vars = {
      {"TOPLEVEL", std::string(hdl::top_module(ctx.options().top))},
      {"VERILATOR_ARGS", vargs},
      {"COCOTB_VERSION", pinned_cocotb(requirements)},
      {"PARAMS", params.empty() ? params : params.substr(1)},
      {"GENERATOR", fmt::format("tpugen {}", TPUGEN_VERSION)},
  };
  std::vector<std::string> written;
  auto put = [&](const fs::path& rel, const std::string& text) {
    fs::create_directories((dir / rel).parent_path());
    write_file(dir / rel, text, kIo);
    written.push_back((dir / rel).string());
  };
  put("tpu_config.json", cocotb_config_json(ctx));
  put("requirements.txt", requirements);
  for (const char* t : {"cocotb.mk", "Makefile", "test_tpu.py", "COCOTB.md"})
    put(t, fill_template(read_file(src / "templates" / t, kIo), vars, fmt::format("tb/cocotb/templates/{}", t),
                         kCocotbTemplate));
  // The helper library, as it is (sorted: the output is byte-identical).
  std::vector<fs::path> lib;
  for (const auto& e : fs::directory_iterator(src / "tpugen_cocotb"))
    if (e.path().extension() == ".py") lib.push_back(e.path());
  std::sort(lib.begin(), lib.end());
  for (const auto& p : lib) put(fs::path("tpugen_cocotb") / p.filename(), read_file(p, kIo));
  return written;
}

}  // namespace tpugen::sim
