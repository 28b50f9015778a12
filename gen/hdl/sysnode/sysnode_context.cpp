#include "hdl/sysnode/sysnode_context.h"

#include <fmt/format.h>

#include <filesystem>

#include "hdl/file_header.h"
#include "hdl/injected_bugs.h"

namespace tpugen::hdl {

SysnodeContext::SysnodeContext(const NocSpec& noc, const SystemNodeSpec& spec, NocParams mover_params,
                               NocParams agent_params, std::string inject_bug)
    : noc_(&noc),
      spec_(&spec),
      mover_params_(std::move(mover_params)),
      agent_params_(std::move(agent_params)),
      inject_bug_(std::move(inject_bug)) {
  if (!inject_bug_.empty()) (void)injected_bug(inject_bug_, BugTarget::SystemNode);
}

std::string SysnodeContext::file_header(std::string_view module, std::string_view description) const {
  std::string params;
  for (const auto& [name, v] : mover_params_.listing()) params += fmt::format(" mover.{}={}", name, v);
  for (const auto& [name, v] : agent_params_.listing()) params += fmt::format(" agent.{}={}", name, v);
  return generated_file_header({module, description, spec_->path, spec_->sha256, params, {}, inject_bug_});
}

}  // namespace tpugen::hdl
