/// @file agent_commands.h
/// @brief `tpugen agent bench`: the memory agent's bench mixes on the RTL,
/// each checked against the reference model, with cycles and utilization.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "cli/rtl_engine_flags.h"
#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"

namespace tpugen::cli {

struct AgentBenchOpts {
  std::vector<unsigned> latencies{0, 50};
  std::string json;
  std::map<std::string, std::string> params;  ///< the agent's build parameters
  RtlEngineFlags rtl;                         ///< --rtl-cache and --max-cycles
};

/// Add the subcommand `bench` to `agent`, its flags writing into `o` (the
/// build parameters' flags from `parameters` when the spec loaded).
CLI::App* add_agent_bench_command(CLI::App& agent, AgentBenchOpts& o, const std::vector<NocParameter>* parameters);

/// Run the bench. kOk when every mix agreed with the model; throws Error otherwise.
int run_agent_bench(const NocSpec& noc, const SystemNodeSpec& spec, const AgentBenchOpts& o);

}  // namespace tpugen::cli
