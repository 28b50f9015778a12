/// @file assembler.h
/// @brief The text assembly format (docs/assembly.md) and its inverse.
#pragma once

#include <string>
#include <string_view>

#include "isa/program.h"

namespace tpugen {

/// Parse assembly text into a Program. Every Instr carries its source line.
/// Throws tpugen::Error with rule "asm.*" and the file, line and column of
/// the first error (unknown opcode or operand, a missing or repeated
/// operand, a bad expression, an induction variable used outside its loop,
/// a non-linear or negative AGU expression, too many terms, ...).
Program parse_assembly(const Isa& isa, std::string_view text, const std::string& source);
Program parse_assembly_file(const Isa& isa, const std::string& path);

/// Assembly text for a program: loops get induction variables named by
/// level (i0, i1, ...), operands by name. parse_assembly(disassemble(p))
/// encodes to the same words as p.
std::string disassemble(const Isa& isa, const Program& program);

}  // namespace tpugen
