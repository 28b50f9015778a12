/// @file file_header.h
/// @brief The comment every generated SystemVerilog file starts with (the
/// core's, the NoC's, the system node's): the module and what it is, the
/// tool and its version, the spec file and its hash, the build parameters,
/// "do not edit", and a warning when a deliberate defect is built in. No
/// timestamp, so identical inputs give identical files.
#pragma once

#include <string>
#include <string_view>

namespace tpugen::hdl {

struct GeneratedHeader {
  std::string_view module, description;
  std::string_view spec_path, spec_sha256;
  std::string parameters;  ///< " NAME=value" for each build parameter
  std::string options;     ///< the generator options' line, or empty for none
  std::string_view inject_bug;
};

std::string generated_file_header(const GeneratedHeader& h);

}  // namespace tpugen::hdl
