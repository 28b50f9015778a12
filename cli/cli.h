/// @file cli.h
/// @brief The pieces every `tpugen` subcommand shares: the loaded spec, the
/// build-parameter flags derived from it, and a table of subcommands.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/instr.h"
#include "isa/program.h"
#include "isa/programs.h"
#include "hdl/rtl_context.h"
#include "spec/noc_spec.h"

namespace tpugen::cli {

/// Exit codes: 0 success; 1 the job ran and found a failure (a mismatch, a
/// violated contract or constraint, a shape that does not fit); 2 bad input
/// (usage, unreadable file, malformed data).
inline constexpr int kOk = 0, kFail = 1, kBadInput = 2;

/// The spec, and the build parameters given on the command line.
struct Context {
  Spec spec;
  std::map<std::string, std::int64_t> flags;  ///< parameter name -> value, when given
  std::string command_line;                   ///< how tpugen was invoked (for reproducers)

  /// Resolve flags over environment over defaults and insist on legality.
  [[nodiscard]] Isa isa() const;
  /// Resolve without the legality check (for `params`, `limits`).
  [[nodiscard]] Params params() const;
};

/// Adds `--<name>` flags for every build parameter of the spec to `cmd`
/// (e.g. --T/--t, --maxdim, --qd, --spad-rows/--spad, --dma-words), writing
/// into ctx.flags.
void add_param_flags(CLI::App& cmd, Context& ctx);

/// Adds `--<prefix><name>` (kebab case) for every build parameter of a NoC-family
/// spec (noc.yaml's, system_node.yaml's), writing the value as text into
/// `into` by parameter name; resolve_build_params checks it.
void add_build_param_flags(CLI::App& cmd, std::map<std::string, std::string>& into,
                           const std::vector<NocParameter>& parameters, const std::string& prefix);

/// Adds a flag for every generator option that has one (hdl::rtl_option_fields():
/// --top, --imem-beat, --c-beat, --watchdog; --inject-bug hidden) to `cmd`, in
/// the option group `group`.
void add_rtl_option_flags(CLI::App& cmd, hdl::RtlOptions& options, const std::string& group);

/// "MxKxN" -> shape; throws Error("cli.shape").
GemmShape parse_shape(const std::string& text);

/// A program from an assembly file (.s, .asm, .tpu) or an image (.bin,
/// .hex, .mem), by extension.
Program load_program(const Isa& isa, const std::string& path);

/// One subcommand: set it up on `sub`, and return what runs it. What it is
/// for (its --help) is its entry in the command table (commands.h).
struct Command {
  const char* name;
  std::function<std::function<int()>(CLI::App& sub, Context& ctx)> setup;
};

/// A subcommand on the build-parameter flags: add_param_flags(sub), then
/// `options` adds the subcommand's own options into an Opts that lives as
/// long as the runner, and `run` runs it.
template <class Opts>
Command param_command(const char* name, std::function<void(CLI::App&, Opts&)> options,
                      std::function<int(Context&, Opts&)> run) {
  return {name,
          [options = std::move(options), run = std::move(run)](CLI::App& sub, Context& ctx) -> std::function<int()> {
            add_param_flags(sub, ctx);
            auto o = std::make_shared<Opts>();
            options(sub, *o);
            return [&ctx, o, run]() { return run(ctx, *o); };
          }};
}

Command params_command();
Command ime_command();
Command mover_command();
Command agent_command();
Command sysnode_command();
Command limits_command();
Command asm_command();
Command disasm_command();
Command check_command();
Command program_command();
Command docs_command();
Command run_command();
Command gen_command();
Command bench_command();
Command fuzz_command();
Command synth_command();
Command noc_command();

}  // namespace tpugen::cli
