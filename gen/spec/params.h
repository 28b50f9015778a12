/// @file params.h
/// @brief Build parameters resolved against the spec: flag over environment
/// over default expression, then derived constants, then the constraints.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/spec.h"

namespace tpugen {

/// Values given explicitly (by flag), by parameter name.
using ParamOverrides = std::map<std::string, std::int64_t>;
/// Reads an environment variable; nullptr when unset.
using EnvReader = std::function<const char*(const char*)>;

/// A resolved build configuration: every parameter, derived constant and ISA
/// constant by name.
class Params {
 public:
  [[nodiscard]] std::int64_t operator[](std::string_view name) const;
  [[nodiscard]] std::optional<std::int64_t> get(std::string_view name) const;
  [[nodiscard]] Scope scope() const;
  /// Where a parameter's value came from: "flag", "env TPU_T", "default".
  [[nodiscard]] const std::string& source(const std::string& name) const;
  [[nodiscard]] const std::map<std::string, std::int64_t>& values() const { return values_; }
  /// Only the build parameters, in spec order.
  [[nodiscard]] std::vector<std::pair<std::string, std::int64_t>> build_parameters() const;

 private:
  friend class ParamResolver;
  const Spec* spec_ = nullptr;
  std::map<std::string, std::int64_t> values_;
  std::map<std::string, std::string> sources_;
};

/// Resolve every parameter. Throws tpugen::Error for input that cannot be
/// read (a malformed environment value, a cyclic default, an unknown
/// override name); constraint violations are reported by check_params.
Params resolve_params(const Spec& spec, const ParamOverrides& overrides = {},
                      const EnvReader& env = nullptr);

/// One broken rule of a parameter set.
struct ParamViolation {
  std::string rule;     ///< "params.range" or "params.constraint"
  std::string message;  ///< names the parameter or the constraint, and the ceiling
};

/// Range checks and the cross-parameter constraints; empty when legal.
std::vector<ParamViolation> check_params(const Spec& spec, const Params& params);

/// Resolve and insist on legality: throws tpugen::Error("params.constraint")
/// listing every violation.
Params legal_params(const Spec& spec, const ParamOverrides& overrides = {},
                    const EnvReader& env = nullptr);

/// The largest multiple of T (the other parameters as in `params`) for
/// which the ceiling's predicate holds; nullopt if it holds past 2^16.
std::optional<std::int64_t> maxdim_ceiling(const Spec& spec, const Ceiling& ceiling,
                                           const Params& params);

}  // namespace tpugen
