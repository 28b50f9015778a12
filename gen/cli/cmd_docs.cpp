// tpugen docs: write docs/isa.md from the spec, or check it for drift.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "cli/cli.h"
#include "docs/isa_docs.h"

namespace tpugen::cli {

Command docs_command() {
  return {"docs", "Write the ISA tables (docs/isa.md) from the spec; --check fails if the file has drifted.\n"
                  "Example: tpugen docs --check",
          [](CLI::App& sub, Context& ctx) -> std::function<int()> {
            auto out = std::make_shared<std::string>();
            auto check = std::make_shared<bool>(false);
            sub.add_option("--out", *out, "the file (default: docs/isa.md beside the spec's directory)");
            sub.add_flag("--check", *check, "compare instead of writing; non-zero exit on drift");
            return [&ctx, out, check]() {
              std::string path = *out;
              if (path.empty())
                path = (std::filesystem::path(ctx.spec.path).parent_path().parent_path() / "docs" / "isa.md").string();
              if (*check) {
                const std::string drift = docs_drift(ctx.spec, path);
                if (!drift.empty()) {
                  fmt::print(stderr, "tpugen: {}\ntpugen: {} is not up to date; regenerate it with: tpugen docs\n", drift, path);
                  return kFail;
                }
                fmt::print("{} is up to date with {}\n", path, ctx.spec.path);
                return kOk;
              }
              std::ofstream f(path, std::ios::binary);
              f << render_isa_markdown(ctx.spec);
              if (!f) throw Error("cli.io", fmt::format("cannot write '{}'", path), SourceLoc{path});
              fmt::print("wrote {}\n", path);
              return kOk;
            };
          }};
}

}  // namespace tpugen::cli
