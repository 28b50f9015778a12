/// @file asm_fuzz.cpp
/// @brief libFuzzer harness: assembly text -> Program -> check_program, and
/// for a program every contract accepts: the image, its decoding and the
/// disassembly round trip.
///
/// The contracts: parse_assembly refuses bad text with tpugen::Error;
/// check_program never throws; a program it accepts encodes
/// (encode_image), decodes to the same instructions, and disassembles to
/// text that assembles to the same image (assembler.h).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz_support.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"

namespace {

/// A broken promise of the library: stop as a crash, so libFuzzer keeps the input.
void require(bool holds) {
  if (!holds) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpugen;
  const Isa& isa = fuzz::default_isa();
  Program program;
  try {
    program = parse_assembly(isa, fuzz::text_of(data, size), "fuzz.s");
  } catch (const Error&) {
    return 0;  // refused, naming the line and column
  }
  const CheckResult checked = check_program(isa, program, fuzz::kMaxIssues);
  (void)checked.report("fuzz.s");
  if (!checked.ok()) return 0;

  const auto words = encode_image(isa, program);
  const Program decoded = decode_image(isa, words, "fuzz.bin");
  require(decoded.instrs == program.instrs);
  const Program again = parse_assembly(isa, disassemble(isa, program), "fuzz.dis.s");
  require(encode_image(isa, again) == words);
  return 0;
}
