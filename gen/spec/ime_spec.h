/// @file ime_spec.h
/// @brief The SpacemiT matrix extension (IME) as data (spec/ime.yaml): the
/// instruction formats and their fields, the 46 `smt.*` instructions with
/// their fixed fields, the data types, signedness variants, sub-extensions
/// and the profiles (A60, A100) with the tile shapes derived from them. Read
/// strictly and validated whole: each instruction's MATCH and MASK words are
/// derived here from its format and fixed fields, and no two instructions'
/// encodings overlap.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/diag.h"

namespace tpugen {

/// What an instruction field holds: a fixed value, or (part of) an operand:
/// a vector register (any, even, or v0/v1 in one bit), an unsigned or a
/// signed (two's complement) immediate, or, on the host's instructions, a
/// scalar register (`xreg_mem`: written `(rs1)`, the address of a load or
/// store), a CSR (by name or number) or vsetvli's vtype immediate.
enum class ImeOperandKind { None, Vreg, VregEven, Vsel, Uimm, Simm, Xreg, XregMem, Csr, Vtype };
std::string_view to_string(ImeOperandKind k);

/// A field of the instruction word, bits [msb, lsb].
struct ImeField {
  std::string name;
  int msb = 0, lsb = 0;
  ImeOperandKind kind = ImeOperandKind::None;
  std::string operand;  ///< the operand this field holds (part of); empty for a fixed field
  int at = 0;           ///< the operand bit the field's lsb holds (vreg_even: 1)
  SourceLoc loc;
  [[nodiscard]] int width() const { return msb - lsb + 1; }
  [[nodiscard]] std::uint32_t mask() const;
};

/// An assembler operand of a format, gathered from its fields.
struct ImeOperand {
  std::string name;
  ImeOperandKind kind = ImeOperandKind::None;
  int width = 0;  ///< bits of the operand's value (a register: 5; vsel: 1)
};

struct ImeFormat {
  std::string name, role;
  std::vector<std::string> syntax;   ///< the assembler's operand order
  std::vector<ImeField> fields;      ///< from the msb down
  std::vector<ImeOperand> operands;  ///< in syntax order (derived)
  SourceLoc loc;
  [[nodiscard]] const ImeField* field(std::string_view name) const;
  [[nodiscard]] const ImeOperand* operand(std::string_view name) const;
  /// The operand's value in `word`, gathered from its fields.
  [[nodiscard]] std::uint32_t operand_value(std::uint32_t word, std::string_view op) const;
  /// `word` with the operand set to `value`; Error("ime.range") when it does
  /// not fit the operand or an even register's value is odd.
  [[nodiscard]] std::uint32_t with_operand(std::uint32_t word, std::string_view op, std::uint32_t value) const;
};

struct ImeDataType {
  std::string name, role;
  int bits = 0;
  std::uint32_t dt = 0;  ///< its DT code
  bool is_default = false;
  SourceLoc loc;
};

struct ImeSignedness {
  std::string name, suffix;
  bool a_signed = false, b_signed = false;
  SourceLoc loc;
};

struct ImeSubExtension {
  std::string name, role;
  SourceLoc loc;
};

/// A rule an instruction keeps when it executes (else illegal-instruction).
struct ImeRule {
  std::string name, role;
  SourceLoc loc;
};

/// What an instruction of a class reads and writes, and its rules.
struct ImeClass {
  std::string name, role;
  /// Registers from each register operand on; kMulC: the profile's MUL_C.
  std::vector<std::pair<std::string, int>> registers;
  static constexpr int kMulC = -1;
  std::vector<std::string> rules;
  std::vector<std::pair<std::string, int>> segment_bits;  ///< sparse: a mask segment's bits per data type
  int group_bits = 0;                                     ///< quant: a scale group's bits
  std::vector<int> pack_len;                              ///< layout: the bits imm2 selects; 0 means SEW
  bool lmul_groups = false;  ///< the register counts are at LMUL = 1, each operand LMUL times as many at LMUL > 1
  SourceLoc loc;
  [[nodiscard]] bool has_rule(std::string_view rule) const;
};

struct ImeInstruction {
  std::string mnemonic;
  std::string type;        ///< a data type's name, or empty (fp, layout)
  std::string cls;         ///< base, slide, sparse, quant, fp, fp_slide, layout
  int slide = 0;           ///< 1 .. 3 for the sliding-window classes, else 0
  std::string format;      ///< its format's name
  std::string signedness;  ///< a signedness variant's name, or empty
  std::string sub_extension;
  std::vector<std::pair<std::string, std::uint32_t>> fixed;  ///< each fixed field's value
  std::uint32_t match = 0, mask = 0;                         ///< derived
  SourceLoc loc;
  /// "smt.vmadot (i8)", or the mnemonic alone when it has no type.
  [[nodiscard]] std::string label() const;
};

/// One sub-extension on one profile, and the tile shape derived from it.
struct ImeProfileEntry {
  std::string sub_extension;
  int lambda = 0, sew = 0, w = 0, k_factor = 1;
  std::array<int, 3> tile{};  ///< the seed's M x K x N, which the derivation reproduces
  int m = 0, k = 0, n = 0;    ///< derived at LMUL = 1
  int mul_c = 0;              ///< VLEN / (SEW x λ²): registers of the C tile
  SourceLoc loc;
};

struct ImeProfile {
  std::string name;
  int vlen = 0;
  std::vector<ImeProfileEntry> supports;
  SourceLoc loc;
  [[nodiscard]] const ImeProfileEntry* entry(std::string_view sub_extension) const;
  /// Whether an instruction of `sub_extension` runs here ("none": always).
  [[nodiscard]] bool supports_sub_extension(std::string_view sub_extension) const;
};

/// One value of a vtype field: its assembler name (e8, m1, ta), its code,
/// and what it means, num / den (SEW 8, LMUL 1/2, ta 1).
struct ImeVtypeValue {
  std::string name;
  std::uint32_t code = 0;
  int num = 0, den = 1;
};

/// A field of vtype (vlmul, vsew, vta, vma): bits of vsetvli's immediate.
struct ImeVtypeField {
  std::string name;
  int msb = 0, lsb = 0;
  std::vector<ImeVtypeValue> values;
  SourceLoc loc;
  [[nodiscard]] std::uint32_t code_of(std::uint32_t vtypei) const {
    return (vtypei >> lsb) & ((1U << (msb - lsb + 1)) - 1U);
  }
  [[nodiscard]] const ImeVtypeValue* value_of(std::uint32_t vtypei) const;
};

struct ImeCsrField {
  std::string name, role;
  int msb = 0, lsb = 0;
  SourceLoc loc;
};

struct ImeCsr {
  std::string name, role;
  std::uint32_t number = 0;
  std::vector<ImeCsrField> fields;
  SourceLoc loc;
  [[nodiscard]] const ImeCsrField* field(std::string_view name) const;
};

/// A host instruction: its format's fixed fields, the operation the runner
/// performs, and a load's or store's element width.
struct HostInstruction {
  std::string mnemonic, format, operation;
  int eew = 0;
  std::vector<std::pair<std::string, std::uint32_t>> fixed;
  std::uint32_t match = 0, mask = 0;  ///< derived
  SourceLoc loc;
  [[nodiscard]] const std::string& label() const { return mnemonic; }
};

/// An assembler pseudo-instruction: an instruction with some operands given
/// (`expansion` its text over the syntax's names) or, for `materialise`,
/// li's sequence.
struct HostPseudo {
  std::string mnemonic, expansion;
  std::vector<std::string> syntax;
  SourceLoc loc;
};

/// The host core's side of a program (spec/ime.yaml `host`): the scalar
/// registers, vtype, the CSRs, the instructions and their formats.
struct ImeHost {
  int xlen = 64, elen = 64;
  std::vector<std::string> xregs;                         ///< x0 .. x31's ABI names
  std::vector<std::pair<std::string, int>> xreg_aliases;  ///< another name, its register
  std::vector<ImeVtypeField> vtype;
  std::vector<ImeCsr> csrs;
  std::vector<ImeRule> rules;
  std::vector<ImeFormat> formats;
  std::vector<HostInstruction> instructions;
  std::vector<HostPseudo> pseudo_instructions;

  [[nodiscard]] const ImeFormat& format_of(const HostInstruction& i) const;
  [[nodiscard]] const HostInstruction* match(std::uint32_t word) const;
  [[nodiscard]] const HostInstruction* instruction(std::string_view mnemonic) const;
  /// x0 .. x31, an ABI name or an alias: the register's number, or nothing.
  [[nodiscard]] std::optional<int> xreg(std::string_view name) const;
  [[nodiscard]] const ImeCsr* csr(std::string_view name) const;
  [[nodiscard]] const ImeCsr* csr(std::uint32_t number) const;
  [[nodiscard]] const ImeVtypeField* vtype_field(std::string_view name) const;
  /// The bits of a vtype immediate in none of vtype's fields (reserved).
  [[nodiscard]] std::uint32_t vtype_reserved_bits(std::uint32_t vtypei) const;
};

struct ImeSpec {
  std::string path, sha256, name;
  std::string mnemonic_prefix;  ///< every mnemonic's ("smt.")
  int word_bits = 32;
  std::string opcode_name;
  int opcode_msb = 6, opcode_lsb = 0;
  std::uint32_t opcode = 0;
  int dt_msb = 30, dt_lsb = 29;  ///< where a typed instruction's DT code sits
  std::vector<ImeDataType> data_types;
  std::vector<ImeSignedness> signedness;
  std::vector<ImeFormat> formats;
  std::vector<ImeSubExtension> sub_extensions;
  std::vector<ImeRule> rules;
  std::vector<ImeClass> classes;
  std::vector<ImeInstruction> instructions;
  std::vector<ImeProfile> profiles;
  ImeHost host;

  [[nodiscard]] const ImeFormat& format_of(const ImeInstruction& i) const;
  [[nodiscard]] const ImeClass& class_of(const ImeInstruction& i) const;
  /// Its signedness variant, or nullptr (the floating-point and layout ones have none).
  [[nodiscard]] const ImeSignedness* signedness_of(const ImeInstruction& i) const;
  [[nodiscard]] const ImeDataType* data_type(std::string_view name) const;
  [[nodiscard]] const ImeProfile* profile(std::string_view name) const;
  /// The instruction whose MATCH/MASK a word fits, or nullptr.
  [[nodiscard]] const ImeInstruction* match(std::uint32_t word) const;
};

/// The IME spec's default path: ime.yaml beside the ISA spec.
[[nodiscard]] std::string ime_spec_path(const std::string& isa_spec_path);

/// Load and validate; throws Error("ime.spec" or "ime.yaml") with file:line.
ImeSpec load_ime_spec(const std::string& path);
ImeSpec load_ime_spec_text(const std::string& text, const std::string& path);

}  // namespace tpugen
