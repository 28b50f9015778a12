/// @file ime_spec_read.h
/// @brief The readers spec/ime.yaml's loaders share (gen/spec/ime_spec.cpp
/// for the smt.* instructions, gen/spec/ime_host_spec.cpp for the host's):
/// bit ranges, bit strings, named lists and instruction formats, each
/// failing as Error("ime.spec") with the file and line. Internal to gen/spec.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spec/by_name.h"
#include "spec/ime_spec.h"
#include "spec/yaml_reader.h"

namespace tpugen::ime_read {

inline constexpr std::string_view kSpec = "ime.spec";

inline constexpr ImeOperandKind kOperandKinds[] = {
    ImeOperandKind::Vreg, ImeOperandKind::VregEven, ImeOperandKind::Vsel, ImeOperandKind::Uimm, ImeOperandKind::Simm,
    ImeOperandKind::Xreg, ImeOperandKind::XregMem,  ImeOperandKind::Csr,  ImeOperandKind::Vtype};

[[noreturn]] void fail(const std::string& message, const SourceLoc& where);

/// `key: [msb, lsb]` within a word of `word_bits`.
std::pair<int, int> read_bits(YamlMap& m, const std::string& key, int word_bits, const std::string& what);

/// A bit string ("0101011") of exactly `width` bits.
std::uint32_t read_bit_string(const std::string& text, int width, const std::string& what, const SourceLoc& where);

/// A format: its fields (each bit of the word in one), its operands in
/// syntax order, a fixed `opcode` field at the spec's opcode bits.
ImeFormat read_format(const YAML::Node& n, const ImeSpec& s);

/// The fixed fields of an instruction of format `f` (every field without an
/// operand but `skip`), from the map `n`, with the MATCH and MASK bits they set.
struct FixedFields {
  std::vector<std::pair<std::string, std::uint32_t>> values;
  std::uint32_t match = 0, mask = 0;
};
FixedFields read_fixed(const YAML::Node& n, const std::string& path, const ImeFormat& f, const std::string& what,
                       std::string_view skip);

/// The first entry of `list` whose MATCH/MASK takes `word`, or nullptr.
template <typename List>
const typename List::value_type* by_match(const List& list, std::uint32_t word) {
  for (const auto& i : list)
    if ((word & i.mask) == i.match) return &i;
  return nullptr;
}

/// Each element of the list at `key`, read by `read`, its name unique in the list.
template <typename T, typename Read>
std::vector<T> read_named(YamlMap& top, const std::string& key, const std::string& what, Read read) {
  std::vector<T> out;
  for (const auto& n : top.seq(key)) {
    T item = read(n);
    if (by_name(out, item.name)) fail(fmt::format("a second {} named {}", what, item.name), item.loc);
    out.push_back(std::move(item));
  }
  return out;
}

/// An entry of a name and a role (a sub-extension, a rule).
template <typename T>
T read_name_role(const YAML::Node& n, const std::string& path, const std::string& what) {
  YamlMap m(n, path, what);
  T x;
  x.loc = m.loc();
  x.name = m.str("name");
  x.role = m.str("role");
  m.finish();
  return x;
}

/// The host section (spec/ime.yaml `host`), validated: its encodings overlap
/// neither each other nor the smt.* instructions' (read after those).
ImeHost read_host(const YAML::Node& n, const ImeSpec& s);

}  // namespace tpugen::ime_read
