/// @file program.h
/// @brief An IME program: the words of smt.* and host instructions, each
/// with the source line it came from. Assembled from a `.s` file (the seed's
/// syntax, the pseudo-instructions of spec/ime.yaml, `.equ` symbols and
/// `.word`), read from a `.bin` (little-endian 32-bit words), written back
/// to either.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ime_spec.h"

namespace tpugen::ime {

struct ProgramWord {
  std::uint32_t word = 0;
  int line = 0;      ///< its source line (1-based); a binary's: 0
  std::string text;  ///< the source statement it came from; a binary's: empty
};

struct Program {
  std::string source;  ///< the file it was read from
  std::vector<ProgramWord> words;
};

/// Assemble a program's text. One statement a line: an instruction, a
/// pseudo-instruction, `.equ NAME, EXPR` (or `.set`), `.word EXPR, ...`, or
/// `.text` / `.globl NAME` (which change nothing); a `label:` may start a
/// line; `#` and `//` start a comment. Throws Error("ime.asm") with the
/// file, the line and the column of the first error.
[[nodiscard]] Program assemble(const ImeSpec& spec, std::string_view text, const std::string& source);
[[nodiscard]] Program assemble_file(const ImeSpec& spec, const std::string& path);

/// `li`'s sequence for a 64-bit value into register rd: the host
/// instructions' texts (lui, addiw, addi, slli), at most eight.
[[nodiscard]] std::vector<std::string> materialise(const ImeSpec& spec, int rd, std::int64_t value);

/// A binary's words: Error("ime.bin") naming the file when its size is not a
/// whole number of words (a truncated binary) or it is empty.
[[nodiscard]] Program read_binary(std::string_view bytes, const std::string& source);
[[nodiscard]] Program read_binary_file(const std::string& path);
/// Little-endian 32-bit words.
[[nodiscard]] std::string binary_of(const Program& p);

/// One line a word: its instruction in the seed's syntax, or `.word 0x...`
/// for a word no instruction takes; assemble() takes the text back to the
/// same words.
[[nodiscard]] std::string disassemble_words(const ImeSpec& spec, const std::vector<std::uint32_t>& words);
/// One word's text (an instruction, or `.word 0x...`).
[[nodiscard]] std::string disassemble_word(const ImeSpec& spec, std::uint32_t word);

}  // namespace tpugen::ime
