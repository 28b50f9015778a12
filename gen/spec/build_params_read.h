/// @file build_params_read.h
/// @brief The one reader of a build parameter in the NoC family's spec files
/// (noc.yaml's fabric, system_node.yaml's agent and mover): an integer with
/// default, min and max as expressions over the file's constants, or a
/// choice among the names of one of the file's lists. Internal to gen/spec.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "spec/expr.h"
#include "spec/noc_spec.h"

namespace tpugen {

/// Read one parameter; Error(rule) with the file and line for a bad one.
NocParameter read_build_parameter(const YAML::Node& n, const std::string& file, const Scope& scope,
                                  const ChoiceList& choices, std::string_view rule);

}  // namespace tpugen
