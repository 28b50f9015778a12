/// @file main.cpp
/// @brief `tpugen`: thin over the libraries; every subcommand is a Command.
#include <fmt/format.h>

#include <cstring>
#include <iostream>

#include "cli/cli.h"
#include "cli/commands.h"

namespace {

/// --spec must be known before the parameter flags (which come from the
/// spec) are created, so it is read ahead of the real parse.
std::string spec_path_from_args(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--spec") == 0 && i + 1 < argc) return argv[i + 1];
    if (std::strncmp(argv[i], "--spec=", 7) == 0) return argv[i] + 7;
  }
  return tpugen::default_spec_path();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tpugen;
  cli::Context ctx;
  ctx.command_line = "tpugen";
  for (int i = 1; i < argc; ++i) ctx.command_line += std::string(" ") + argv[i];
  try {
    ctx.spec = load_spec(spec_path_from_args(argc, argv));
  } catch (const Error& e) {
    fmt::print(stderr, "tpugen: {}\n", e.what());
    return cli::kBadInput;
  }

  CLI::App app{
      "tpugen: a generator, assembler and reference model for the TinyTPU-isa GEMM accelerator.\n"
      "Every fact comes from the spec (spec/tinytpu_isa.yaml)."};
  app.set_version_flag("--version", std::string(TPUGEN_VERSION));
  std::string spec_path;
  app.add_option("--spec", spec_path, "the ISA spec (default: the one this build ships; env TPUGEN_SPEC)");
  app.require_subcommand(1);

  const cli::Command commands[] = {
      cli::params_command(),  cli::limits_command(), cli::asm_command(), cli::disasm_command(), cli::check_command(),
      cli::program_command(), cli::docs_command(),   cli::run_command(), cli::gen_command(),    cli::bench_command(),
      cli::fuzz_command(),    cli::synth_command(),  cli::noc_command(), cli::ime_command(),    cli::mover_command(),
      cli::agent_command(),   cli::sysnode_command()};
  // In the command table's order; a command the table lacks, or an entry
  // with no command, is a defect of this build.
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (const auto& c : commands) {
    try {
      (void)cli::command_doc(c.name);
    } catch (const Error& e) {
      fmt::print(stderr, "tpugen: internal error: {}\n", e.what());
      return cli::kBadInput;
    }
  }
  for (const cli::CommandDoc& doc : cli::command_docs()) {
    const cli::Command* found = nullptr;
    for (const auto& c : commands)
      if (doc.name == c.name) found = &c;
    if (!found) {
      fmt::print(stderr, "tpugen: internal error: the command table names '{}', which no subcommand runs\n", doc.name);
      return cli::kBadInput;
    }
    const cli::Command& c = *found;
    CLI::App* sub = app.add_subcommand(c.name, std::string(doc.summary));
    sub->footer(cli::command_footer(doc));
    sub->fallthrough();
    try {
      runners.emplace_back(sub, c.setup(*sub, ctx));
    } catch (const Error& e) {  // a spec whose parameters this command cannot take as flags
      fmt::print(stderr, "tpugen: {}\n", e.what());
      return cli::kBadInput;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? cli::kOk : cli::kBadInput;
  }
  try {
    for (auto& [sub, run] : runners)
      if (sub->parsed()) return run();
  } catch (const Error& e) {
    fmt::print(stderr, "tpugen: {}\n", e.what());
    return cli::kBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tpugen: internal error: {}\n", e.what());
    return cli::kBadInput;
  }
  return cli::kOk;
}
