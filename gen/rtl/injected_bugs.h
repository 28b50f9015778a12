/// @file injected_bugs.h
/// @brief Deliberate defects the generator can build into the RTL, to show
/// that the fuzzer finds what it should (tests/fuzz_injected, docs/fuzz.md).
///
/// Each is a one-line change of the kind a careful engineer still makes:
/// an off-by-one bound, a product one bit short, one term of one level
/// forgotten, an interlock that misses a case. A generated file that carries
/// one says so in its header. The CLI option that selects one
/// (--inject-bug) is hidden from --help: it is for testing the fuzzer.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace tpugen::rtl {

struct InjectedBug {
  std::string_view name;
  std::string_view module;       ///< the generated module that carries it
  std::string_view description;  ///< what is wrong, and what it takes to see it
};

/// Every defect the generator knows, by name.
std::span<const InjectedBug> injected_bugs();

/// The defect of that name; throws Error("rtl.inject") naming the known
/// ones when there is none.
const InjectedBug& injected_bug(std::string_view name);

/// Build defect `bug` into emitted text: replace the one occurrence of
/// `correct` with `defective`. Throws Error("rtl.inject") when `correct` is
/// not in the text exactly once (the emitter changed under the defect).
void inject_defect(std::string& text, std::string_view bug, std::string_view correct, std::string_view defective);

}  // namespace tpugen::rtl
