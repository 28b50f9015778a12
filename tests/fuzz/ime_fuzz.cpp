/// @file ime_fuzz.cpp
/// @brief libFuzzer harness: the input as IME program text -> assemble, and
/// for a program it accepts its words' disassembly and a run on the
/// machine; the input's bytes as a binary -> decode each word, run them.
///
/// The contracts (gen/ime/codec.h, program.h, tb/model/ime/machine.h): the
/// assembler refuses bad text with tpugen::Error; an accepted program's
/// disassembly assembles to the same words; any word decodes to nothing or
/// to an instruction that encodes back to it; a run of any words ends (an
/// exception, an Error for what the model does not run, or the end) and
/// never crashes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "fuzz_support.h"
#include "ime/codec.h"
#include "ime/program.h"
#include "model/ime/machine.h"
#include "spec/ime_spec.h"

namespace {

void require(bool holds) {
  if (!holds) std::abort();
}

const tpugen::ImeSpec& ime_spec() {
  static const tpugen::ImeSpec s = tpugen::load_ime_spec(tpugen::ime_spec_path(tpugen::default_spec_path()));
  return s;
}

/// Run on both profiles with a small memory; an Error is the model refusing
/// what it does not run yet (ime.model), which is allowed.
void run_everywhere(const tpugen::ImeSpec& spec, const tpugen::ime::Program& p) {
  for (const auto& profile : spec.profiles) {
    try {
      tpugen::ime::Machine m(spec, profile, 4096, false);
      const auto r = tpugen::ime::run(spec, profile, p, m);
      require(r.retired <= p.words.size());
      require(r.stop.has_value() || r.retired == p.words.size());
    } catch (const tpugen::Error&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpugen;
  const ImeSpec& spec = ime_spec();
  // The bytes as a binary: every word decodes to nothing or to itself.
  const std::size_t whole = std::min<std::size_t>(size / 4, 64) * 4;
  if (whole > 0) {
    const ime::Program bin = ime::read_binary(std::string_view(reinterpret_cast<const char*>(data), whole), "fuzz.bin");
    for (const auto& w : bin.words) {
      if (const auto d = ime::decode(spec, w.word)) require(ime::encode(spec, *d) == w.word);
      if (const auto h = ime::decode_host(spec, w.word)) require(ime::encode(spec, *h) == w.word);
    }
    run_everywhere(spec, bin);
  }
  // The bytes as program text.
  ime::Program p;
  try {
    p = ime::assemble(spec, fuzz::text_of(data, size), "fuzz.s");
  } catch (const Error&) {
    return 0;  // refused, naming the line and the rule
  }
  std::vector<std::uint32_t> words;
  for (const auto& w : p.words) words.push_back(w.word);
  const ime::Program again = ime::assemble(spec, ime::disassemble_words(spec, words), "again.s");
  require(again.words.size() == words.size());
  for (std::size_t k = 0; k < words.size(); ++k) require(again.words[k].word == words[k]);
  if (words.size() <= 256) run_everywhere(spec, p);
  return 0;
}
