#include "cli/system_node_specs.h"

#include <fmt/format.h>

#include <filesystem>

namespace tpugen::cli {

std::shared_ptr<SystemNodeSpecs> load_system_node_specs(const Context& ctx) {
  auto loaded = std::make_shared<SystemNodeSpecs>();
  try {
    loaded->noc = load_noc_spec(noc_spec_path(ctx.spec.path));
    loaded->spec = load_system_node_spec(system_node_spec_path(ctx.spec.path), *loaded->noc);
  } catch (const Error& e) {
    loaded->error = e.what();
  }
  return loaded;
}

void print_written_files(std::string_view command, const std::string& settings, const std::vector<std::string>& files,
                         const std::string& out) {
  fmt::print("tpugen {}:{}\nwrote {} files to {}:\n", command, settings, files.size(), out);
  for (const auto& f : files)
    fmt::print("  {:<26} {:>8} bytes\n", std::filesystem::path(f).lexically_relative(out).string(),
               std::filesystem::file_size(f));
}

CLI::App* add_unit_gen_command(CLI::App& sub, const std::string& help, const std::vector<NocParameter>* parameters,
                               UnitGenFlags& f) {
  CLI::App* gen = sub.add_subcommand("gen", help);
  if (parameters)
    add_build_param_flags(*gen, f.params, *parameters, "");
  else
    gen->allow_extras();
  gen->add_option("--out", f.out, "the output directory")->required();
  gen->add_option("--inject-bug", f.inject_bug)->group("");
  return gen;
}

}  // namespace tpugen::cli
