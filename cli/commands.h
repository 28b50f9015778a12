/// @file commands.h
/// @brief What each subcommand is for, in one table: its --help (summary,
/// details, example) and the command table of README.md, which `tpugen docs`
/// writes from it and `tpugen docs --check` holds to it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tpugen::cli {

struct CommandDoc {
  std::string_view name;     ///< the subcommand, `tpugen <name>`
  std::string_view usage;    ///< how the README's table shows it, e.g. "tpugen asm FILE.s -o OUT.hex"
  std::string_view summary;  ///< one sentence: the README's table and `tpugen --help`
  std::string_view details;  ///< more for `tpugen <name> --help` (may be empty)
  std::string_view example;  ///< one command line a user can type (lines joined by '\n')
  std::string_view doc;      ///< its page under docs/ (may be empty)
};

/// Every subcommand, in the order `tpugen --help` and the README list them.
const std::vector<CommandDoc>& command_docs();
/// The entry of `name`; throws Error("cli.internal") for a name it lacks.
const CommandDoc& command_doc(std::string_view name);

/// The footer of `tpugen <name> --help`: the details and the example.
std::string command_footer(const CommandDoc& doc);

/// README.md's command table, as Markdown.
std::string render_command_table();
/// `readme` with the text between its command-table markers replaced by
/// render_command_table(); throws Error("docs.readme") naming `path` when a
/// marker is missing.
std::string with_command_table(const std::string& readme, const std::string& path);

}  // namespace tpugen::cli
