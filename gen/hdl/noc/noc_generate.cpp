#include "hdl/noc/noc_generate.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "hdl/generate.h"
#include "hdl/noc/noc_emitters.h"
#include "util/diag.h"

namespace tpugen::hdl {

namespace {
constexpr std::string_view kPackage = "tpu_noc_pkg";
}  // namespace

const std::vector<NocModule>& noc_modules() {
  static const std::vector<NocModule> table = {
      {"tpu_noc_route", "the routing function", emit_tpu_noc_route},
      {"tpu_noc_check", "the local port's check of a flit entering the mesh", emit_tpu_noc_check},
      {"tpu_noc_mesh", "NX x NY routers and their links", emit_tpu_noc_mesh},
  };
  return table;
}

const std::vector<std::string_view>& noc_rtl_dirs() {
  static const std::vector<std::string_view> dirs = {"prim", "noc"};
  return dirs;
}

std::string noc_module_text(const NocContext& ctx, std::string_view module) {
  if (module == kPackage) return emit_tpu_noc_pkg(ctx);
  for (const auto& m : noc_modules())
    if (m.module == module) return m.emit(ctx);
  for (const auto& p : primitive_files(noc_rtl_dirs())) {
    const std::filesystem::path path(p);
    if (path.stem() == module) return hand_written_file(path, module, ctx.inject_bug());
  }
  throw Error("gen.module", fmt::format("the NoC fabric has no module '{}'", module));
}

std::vector<ConfigFile> noc_config_files(const NocContext& ctx) {
  std::vector<ConfigFile> files;
  files.push_back({std::string(kPackage) + ".sv", emit_tpu_noc_pkg(ctx), fmt::format("{}.sv (generated)", kPackage)});
  for (const auto& p : primitive_files(noc_rtl_dirs())) {
    const std::filesystem::path path(p);
    files.push_back({path.filename().string(), hand_written_file(path, path.stem().string(), ctx.inject_bug()),
                     "rtl/" + path.parent_path().filename().string() + "/" + path.filename().string()});
  }
  for (const auto& m : noc_modules())
    files.push_back({std::string(m.module) + ".sv", m.emit(ctx), fmt::format("{}.sv (generated)", m.module)});
  return files;
}

std::vector<std::string> generate_noc(const NocContext& ctx, const std::string& out_dir) {
  noc::check_deadlock_free(ctx.spec(), ctx.mesh(), ctx.route(), ctx.params().routing());
  const std::vector<ConfigFile> files = noc_config_files(ctx);
  nlohmann::ordered_json j;
  j["top"] = "tpu_noc_mesh";
  j["spec"] = std::filesystem::path(ctx.spec().path).filename().string();
  j["spec_sha256"] = ctx.spec().sha256;
  j["generator"] = fmt::format("tpugen {}", TPUGEN_VERSION);
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& p : ctx.spec().parameters) {
    if (p.is_choice()) params[p.name] = ctx.params().choice(p.name);
    else params[p.name] = ctx.params()[p.name];
  }
  j["parameters"] = params;
  j["derived"] = {{"NODES", ctx.params().nx() * ctx.params().ny()},
                  {"FLIT_W", ctx.spec().flit_bits()},
                  {"PORTS", ctx.spec().ports.size()}};
  j["options"] = {{"inject_bug", ctx.inject_bug()}};
  return write_configuration(out_dir, {kPackage}, files, j.dump(2) + "\n");
}

}  // namespace tpugen::hdl
