/// @file fuzz_support.h
/// @brief What every libFuzzer harness shares: the shipped spec at its
/// default parameters, loaded once, and the issue bound the harnesses run
/// programs under.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/instr.h"
#include "spec/params.h"
#include "spec/spec.h"

namespace tpugen::fuzz {

/// The shipped spec (TPUGEN_SPEC overrides it) at its default parameters.
inline const Isa& default_isa() {
  static const Spec spec = load_spec(default_spec_path());
  static const Isa isa(spec, legal_params(spec, {}, nullptr));
  return isa;
}

/// The expansion bound the harnesses give the checker and the model. A
/// hostile image can nest four loops of 127 trips; the library's own bound
/// (kMaxIssues) stops that at four million issues, which is correct but takes
/// seconds under the sanitizers. The harnesses pass this smaller bound, and a
/// program past it is refused with the same rule (issue_bound /
/// expand.too_long) as one past kMaxIssues: an error, reported, not a hang.
inline constexpr std::size_t kMaxIssues = std::size_t{1} << 12;

/// The input as text (bytes as they are; the parsers take any byte).
inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tpugen::fuzz
