/// @file sysnode_context.h
/// @brief What the system node's emitters read: the NoC spec and the system
/// node's (spec/system_node.yaml), the mover's and the agent's resolved
/// build parameters, and the generator option that is no parameter (a
/// deliberate defect).
#pragma once

#include <string>
#include <string_view>

#include "spec/noc_spec.h"
#include "spec/system_node_spec.h"

namespace tpugen::hdl {

class SysnodeContext {
 public:
  /// Throws Error("rtl.inject") for a defect tpugen does not have.
  SysnodeContext(const NocSpec& noc, const SystemNodeSpec& spec, NocParams mover_params, NocParams agent_params,
                 std::string inject_bug = {});

  [[nodiscard]] const NocSpec& noc() const { return *noc_; }
  [[nodiscard]] const SystemNodeSpec& spec() const { return *spec_; }
  [[nodiscard]] const NocParams& mover_params() const { return mover_params_; }
  [[nodiscard]] const NocParams& agent_params() const { return agent_params_; }
  [[nodiscard]] const std::string& inject_bug() const { return inject_bug_; }

  /// The comment every generated file starts with: tool, version, spec file
  /// and hash, every build parameter, "do not edit". No timestamp.
  [[nodiscard]] std::string file_header(std::string_view module, std::string_view description) const;

 private:
  const NocSpec* noc_;
  const SystemNodeSpec* spec_;
  NocParams mover_params_, agent_params_;
  std::string inject_bug_;
};

}  // namespace tpugen::hdl
