#include "hdl/cu/cu_generate.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "hdl/generate.h"
#include "hdl/noc/noc_generate.h"

namespace tpugen::hdl {

std::vector<std::string> cu_rtl_files() { return primitive_files(std::vector<std::string_view>{"prim", "cu"}); }

bool cu_file_needs_core(std::string_view stem) { return stem == "tpu_noc_tinytpu_unit" || stem == "tpu_noc_tinytpu_cu"; }

void append_new(std::vector<ConfigFile>& files, std::vector<ConfigFile> more) {
  for (auto& f : more) {
    bool seen = false;
    for (const auto& g : files) seen = seen || g.name == f.name;
    if (!seen) files.push_back(std::move(f));
  }
}

std::vector<ConfigFile> cu_config_files(const CuContext& ctx, const NocContext& noc, bool with_unit) {
  std::vector<ConfigFile> files;
  files.push_back({"tpu_noc_pkg.sv", noc_module_text(noc, "tpu_noc_pkg"), "tpu_noc_pkg.sv (generated)"});
  files.push_back({"tpu_cu_pkg.sv", emit_tpu_cu_pkg(ctx), "tpu_cu_pkg.sv (generated)"});
  for (const auto& p : cu_rtl_files()) {
    const std::filesystem::path path(p);
    if (cu_file_needs_core(path.stem().string()) && !with_unit) continue;
    files.push_back({path.filename().string(), hand_written_file(path, path.stem().string(), {}),
                     "rtl/" + path.parent_path().filename().string() + "/" + path.filename().string()});
  }
  return files;
}

nlohmann::ordered_json cu_params_json(const CuContext& ctx, const NocContext& noc, const std::string& top) {
  nlohmann::ordered_json j;
  j["top"] = top;
  j["spec"] = std::filesystem::path(ctx.spec().path).filename().string();
  j["spec_sha256"] = ctx.spec().sha256;
  j["noc_spec"] = std::filesystem::path(noc.spec().path).filename().string();
  j["noc_spec_sha256"] = noc.spec().sha256;
  j["generator"] = fmt::format("tpugen {}", TPUGEN_VERSION);
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, v] : noc.params().listing()) params[name] = v;
  for (const auto& [name, v] : ctx.cu_base_params().listing()) params["CU_" + name] = v;
  for (const auto& [name, v] : ctx.orch_params().listing()) params["ORCH_" + name] = v;
  j["parameters"] = params;
  return j;
}

std::vector<std::string> generate_cu(const NocContext& noc, const CuContext& ctx, const std::string& top,
                                     const std::string& out_dir, const RtlContext* core) {
  std::vector<ConfigFile> files;
  std::vector<std::string_view> packages;
  if (core != nullptr) {
    files = configuration_files(*core);
    packages = configuration_packages(*core);
  }
  append_new(files, cu_config_files(ctx, noc, core != nullptr));
  packages.push_back("tpu_noc_pkg");
  packages.push_back("tpu_cu_pkg");
  return write_configuration(out_dir, packages, files, cu_params_json(ctx, noc, top).dump(2) + "\n");
}

}  // namespace tpugen::hdl
