#include "hdl/noc/noc_context.h"

#include <fmt/format.h>

#include <filesystem>

#include "hdl/file_header.h"
#include "hdl/injected_bugs.h"

namespace tpugen::hdl {

NocContext::NocContext(const NocSpec& spec, NocParams params, std::string inject_bug)
    : spec_(&spec),
      params_(std::move(params)),
      codec_(spec),
      route_(noc::routing_function(spec, params_.routing())),
      inject_bug_(std::move(inject_bug)) {
  if (!inject_bug_.empty()) (void)injected_bug(inject_bug_, BugTarget::Noc);
}

std::string NocContext::port_const(const NocPort& p) { return "tpu_noc_pkg::PORT_" + p.name; }

std::string NocContext::file_header(std::string_view module, std::string_view description) const {
  std::string params;
  for (const auto& [name, v] : params_.listing()) params += fmt::format(" {}={}", name, v);
  return generated_file_header({module, description, spec_->path, spec_->sha256, params, {}, inject_bug_});
}

}  // namespace tpugen::hdl
