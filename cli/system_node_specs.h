/// @file system_node_specs.h
/// @brief The specs every system-node command reads (spec/noc.yaml and
/// spec/system_node.yaml beside the ISA spec), loaded when the command table
/// is built: their parameters make the commands' flags. A spec that does not
/// load is kept as an error and reported when a system-node command runs,
/// never stopping the other commands.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"

namespace tpugen::cli {

struct SystemNodeSpecs {
  std::optional<NocSpec> noc;
  std::optional<SystemNodeSpec> spec;
  std::string error;  ///< why they did not load (empty: they did)
};

/// Load the two specs named by the context's ISA spec's folder.
std::shared_ptr<SystemNodeSpecs> load_system_node_specs(const Context& ctx);

/// What a unit's `gen` subcommand takes: its build parameters, --out and
/// the hidden --inject-bug.
struct UnitGenFlags {
  std::map<std::string, std::string> params;
  std::string out, inject_bug;
};

/// Add `gen` (described by `help`) to `sub`: a flag for each of
/// `parameters` (none given, as when the specs did not load: any flag, the
/// error reported when it runs), --out (required), --inject-bug (hidden).
CLI::App* add_unit_gen_command(CLI::App& sub, const std::string& help, const std::vector<NocParameter>* parameters,
                               UnitGenFlags& f);

/// A gen command's report: "tpugen COMMAND:SETTINGS", then every file
/// written under `out` with its size.
void print_written_files(std::string_view command, const std::string& settings, const std::vector<std::string>& files,
                         const std::string& out);

}  // namespace tpugen::cli
