/// @file noc_context.h
/// @brief What the NoC's emitters read: the NoC spec, a fabric's resolved
/// build parameters, the flit codec, the mesh and its routing function, and
/// the generator option that is no parameter (a deliberate defect).
#pragma once

#include <string>
#include <string_view>

#include "noc/codec.h"
#include "noc/routing.h"
#include "spec/noc_spec.h"

namespace tpugen::hdl {

class NocContext {
 public:
  /// Throws Error("rtl.inject") for a defect the NoC does not have.
  NocContext(const NocSpec& spec, NocParams params, std::string inject_bug = {});

  [[nodiscard]] const NocSpec& spec() const { return *spec_; }
  [[nodiscard]] const NocParams& params() const { return params_; }
  [[nodiscard]] const noc::Codec& codec() const { return codec_; }
  [[nodiscard]] noc::Mesh mesh() const { return {params_.nx(), params_.ny()}; }
  [[nodiscard]] const noc::RouteFn& route() const { return route_; }
  [[nodiscard]] const std::string& inject_bug() const { return inject_bug_; }

  /// "tpu_noc_pkg::PORT_N" for a port.
  [[nodiscard]] static std::string port_const(const NocPort& p);
  /// The comment every generated file starts with: tool, version, spec file
  /// and hash, every build parameter, "do not edit". No timestamp.
  [[nodiscard]] std::string file_header(std::string_view module, std::string_view description) const;

 private:
  const NocSpec* spec_;
  NocParams params_;
  noc::Codec codec_;
  noc::RouteFn route_;
  std::string inject_bug_;
};

}  // namespace tpugen::hdl
