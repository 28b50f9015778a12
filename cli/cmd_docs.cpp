// tpugen docs: write the documents generated from the specs and README.md's
// command table (cli/commands.cpp), or check them for drift.
#include <fmt/format.h>

#include <filesystem>

#include "cli/cli.h"
#include "cli/commands.h"
#include "docs/axi_docs.h"
#include "docs/compute_units_docs.h"
#include "docs/ime_docs.h"
#include "docs/isa_docs.h"
#include "docs/markdown.h"
#include "docs/noc_docs.h"
#include "docs/system_node_docs.h"
#include "util/file_io.h"

namespace tpugen::cli {

Command docs_command() {
  return {"docs",
          [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            auto out = std::make_shared<std::string>();
            auto check = std::make_shared<bool>(false);
            auto axi_out = std::make_shared<std::string>();
            sub.add_option("--out", *out, "the ISA document (default: docs/isa.md beside the spec's directory)");
            sub.add_option("--axi-out", *axi_out, "the AXI top's document (default: docs/axi_top.md)");
            sub.add_flag("--check", *check, "compare instead of writing; non-zero exit on drift");
            return [&ctx, out, check, axi_out]() {
              const std::filesystem::path docs = std::filesystem::path(ctx.spec.path).parent_path().parent_path() / "docs";
              const std::string axi_spec = axi_top_spec_path(ctx.spec.path);
              const std::string readme = (docs.parent_path() / "README.md").string();
              const std::string noc_doc = (docs / "noc.md").string();
              const std::string node_doc = (docs / "system_node.md").string();
              const std::string cu_doc = (docs / "compute_units.md").string();
              const NocSpec noc = load_noc_spec(noc_spec_path(ctx.spec.path));
              const SystemNodeSpec sysnode = load_system_node_spec(system_node_spec_path(ctx.spec.path), noc);
              const std::pair<std::string, std::string> documents[] = {
                  {out->empty() ? (docs / "isa.md").string() : *out, render_isa_markdown(ctx.spec)},
                  {axi_out->empty() ? (docs / "axi_top.md").string() : *axi_out,
                   render_axi_markdown(load_axi_top_spec(axi_spec))},
                  {noc_doc, with_noc_tables(read_file(noc_doc, "docs.noc"), noc, noc_doc)},
                  {node_doc, with_system_node_tables(read_file(node_doc, "docs.sysnode"), sysnode, node_doc)},
                  {cu_doc, with_compute_units_tables(
                               read_file(cu_doc, "docs.cu"),
                               load_compute_units_spec(compute_units_spec_path(ctx.spec.path), noc, sysnode), cu_doc)},
                  {(docs / "ime_isa.md").string(), render_ime_markdown(load_ime_spec(ime_spec_path(ctx.spec.path)))},
                  {readme, with_command_table(read_file(readme, "docs.readme"), readme)}};
              int status = kOk;
              for (const auto& [path, text] : documents) {
                if (*check) {
                  const std::string drift = text_drift(text, path);
                  if (!drift.empty()) {
                    fmt::print(stderr, "tpugen: {}\ntpugen: {} is not up to date; regenerate it with: tpugen docs\n",
                               drift, path);
                    status = kFail;
                  } else {
                    fmt::print("{} is up to date\n", path);
                  }
                  continue;
                }
                write_file(path, text, "cli.io");
                fmt::print("wrote {}\n", path);
              }
              return status;
            };
          }};
}

}  // namespace tpugen::cli
