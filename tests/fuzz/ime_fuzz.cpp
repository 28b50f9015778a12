/// @file ime_fuzz.cpp
/// @brief libFuzzer harness: one line of IME assembly text -> parse, and for
/// text it accepts the word, its decoding and its disassembly; the first four
/// bytes as a word -> decode.
///
/// The contracts (gen/ime/codec.h): parse refuses bad text with
/// tpugen::Error; a parsed instruction encodes, decodes to itself and
/// disassembles to text that parses to the same word; any word decodes to
/// nothing or to an instruction that encodes back to it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "fuzz_support.h"
#include "ime/codec.h"
#include "spec/ime_spec.h"

namespace {

void require(bool holds) {
  if (!holds) std::abort();
}

const tpugen::ImeSpec& ime_spec() {
  static const tpugen::ImeSpec s = tpugen::load_ime_spec(tpugen::ime_spec_path(tpugen::default_spec_path()));
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpugen;
  const ImeSpec& spec = ime_spec();
  if (size >= 4) {
    std::uint32_t word = 0;
    std::memcpy(&word, data, 4);
    if (const auto d = ime::decode(spec, word)) require(ime::encode(spec, *d) == word);
  }
  ime::Decoded d;
  try {
    d = ime::parse(spec, fuzz::text_of(data, size));
  } catch (const Error&) {
    return 0;  // refused, naming the rule
  }
  const std::uint32_t word = ime::encode(spec, d);
  const auto back = ime::decode(spec, word);
  require(back.has_value() && *back == d);
  require(ime::encode(spec, ime::parse(spec, ime::disassemble(spec, d))) == word);
  return 0;
}
