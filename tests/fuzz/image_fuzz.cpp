/// @file image_fuzz.cpp
/// @brief libFuzzer harness: bytes -> a program image (little-endian 64-bit
/// words, as `tpugen check x.bin` reads them) -> decode_image, the checker,
/// the disassembler, and the reference model.
///
/// The contracts: decode_image refuses a truncated image with
/// tpugen::Error; check_program and check_image never throw; disassemble takes any decoded
/// program; the model either runs a program or refuses it with
/// tpugen::Error naming the instruction, within the issue bound
/// (fuzz::kMaxIssues) rather than looping for as long as the loop trips say;
/// and a program the checker accepts runs on the model without an error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fuzz_support.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"
#include "model/core/model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpugen;
  const Isa& isa = fuzz::default_isa();
  // read_image_bin's layout; a trailing partial word is dropped (the file
  // reader refuses it before decoding).
  std::vector<std::uint64_t> words(size / 8, 0);
  for (std::size_t i = 0; i < words.size() * 8; ++i) words[i / 8] |= std::uint64_t{data[i]} << (8 * (i % 8));

  Program program;
  try {
    program = decode_image(isa, words, "fuzz.bin");
  } catch (const Error&) {
    return 0;
  }
  (void)unpack_header(isa, words);
  (void)disassemble(isa, program);
  CheckResult checked = check_program(isa, program, fuzz::kMaxIssues);
  check_image(isa, words, program, checked);
  (void)checked.report("fuzz.bin");

  Model model(isa);
  if (checked.ok()) {
    model.run(program, fuzz::kMaxIssues);  // an Error here escapes: checker and model disagree
    return 0;
  }
  try {
    model.run(program, fuzz::kMaxIssues);
  } catch (const Error&) {
    // refused, naming the instruction
  }
  return 0;
}
