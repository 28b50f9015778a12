/// @file noc_layout_read.h
/// @brief The readers of noc.yaml's bit layouts and code lists, for the spec
/// files that lay out fields the same way (compute_units.yaml's CU_CTRL
/// words and fault results): `bits: [msb, lsb]` fields with zero_means,
/// above, flags and repeated elements, no two on one bit; lists of names
/// with unique codes. Errors name the file and line, with the caller's rule.
/// Internal to gen/spec.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spec/noc_spec.h"
#include "spec/yaml_reader.h"

namespace tpugen {

/// A layout: `fields` (and optional `name`, `role`) over a frame of `frame_bits`.
NocLayout read_noc_layout(const YAML::Node& n, const std::string& file, int frame_bits, const std::string& kind,
                          std::string_view rule);

/// The list under `key`: entries with name, code (0 .. max_code) and role;
/// `payload` and `signal` read those entries' extra keys; with `detail_bits`
/// > 0 an entry may have `detail`, sub-fields {name, bits} within that many
/// bits that do not overlap (a fault's detail).
std::vector<NocCode> read_noc_codes(YamlMap& top, const std::string& key, const std::string& file,
                                    std::int64_t max_code, std::string_view rule, bool payload = false,
                                    bool signal = false, int detail_bits = 0);

/// `key: {from, to}` within 0 .. max_code.
NocRange read_noc_range(YamlMap& top, const std::string& key, const std::string& file, std::int64_t max_code,
                        std::string_view rule);

}  // namespace tpugen
