/// @file spec_fuzz.cpp
/// @brief libFuzzer harness: YAML text -> load_spec, then the parameters and
/// the Isa built from the loaded spec.
///
/// The contract: a spec file either loads or is refused with tpugen::Error
/// (file, line, column and rule). A spec that loads is validated "before
/// anything downstream sees it", so resolving its parameters, checking them
/// and binding an Isa may refuse it with tpugen::Error too, but nothing may
/// crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpugen;
  try {
    const Spec spec = load_spec_text(fuzz::text_of(data, size), "fuzz.yaml");
    const Params params = resolve_params(spec, {}, nullptr);
    if (!check_params(spec, params).empty()) return 0;
    const Isa isa(spec, params);
    (void)isa.unused_masks();
  } catch (const Error&) {
    // Refused with a rule and a location: what a malformed spec must get.
  }
  return 0;
}
