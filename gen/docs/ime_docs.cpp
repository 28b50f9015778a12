#include "docs/ime_docs.h"

#include <fmt/format.h>

#include <filesystem>

#include "docs/markdown.h"

namespace tpugen {

namespace {

std::string bits_text(int msb, int lsb) { return msb == lsb ? fmt::format("{}", msb) : fmt::format("{}:{}", msb, lsb); }

std::string bit_string(std::uint32_t v, int width) {
  std::string s;
  for (int b = width - 1; b >= 0; --b) s += ((v >> b) & 1U) != 0 ? '1' : '0';
  return s;
}

/// What a field holds: "vs1 (a vector register)", "imm2[1]", "fixed".
std::string holds(const ImeField& f) {
  switch (f.kind) {
    case ImeOperandKind::None:
      return "fixed by the instruction";
    case ImeOperandKind::Vreg:
      return fmt::format("`{}`: a vector register, v0 .. v31", f.operand);
    case ImeOperandKind::VregEven:
      return fmt::format("`{}`[4:1]: an even vector register, v0 .. v30 (the seed's {{{}[4:1],0}})", f.operand,
                         f.operand);
    case ImeOperandKind::Vsel:
      return fmt::format("`{}`: v0 (0) or v1 (1)", f.operand);
    case ImeOperandKind::Uimm:
      return f.operand == f.name ? fmt::format("`{}`: an unsigned immediate", f.operand)
                                 : fmt::format("`{}`[{}]: part of an unsigned immediate", f.operand,
                                               bits_text(f.at + f.width() - 1, f.at));
    case ImeOperandKind::Simm:
      return fmt::format("`{}`: a signed (two's complement) immediate", f.operand);
    case ImeOperandKind::Xreg:
      return fmt::format("`{}`: a scalar register, x0 .. x31", f.operand);
    case ImeOperandKind::XregMem:
      return fmt::format("`{}`: the scalar register holding the address, written `({})`", f.operand, f.operand);
    case ImeOperandKind::Csr:
      return fmt::format("`{}`: a CSR, by name or number", f.operand);
    case ImeOperandKind::Vtype:
      return fmt::format("`{}`: vtype, written `e8, m1, ta, ma` (its fields below)", f.operand);
  }
  return "?";
}

/// A section per format: its role, its syntax and its fields; `opcode`
/// the text for the opcode field (the IME's one opcode, or "per instruction").
std::string formats_section(const std::vector<ImeFormat>& formats, const std::string& level,
                            const std::string& opcode) {
  std::string o;
  for (const auto& f : formats) {
    std::string syntax;
    for (const auto& op : f.syntax) syntax += (syntax.empty() ? " " : ", ") + op;
    o += fmt::format("{} Format {}\n\n{}. Syntax: `mnemonic{}`.\n\n", level, f.name, f.role, syntax);
    Table ft({"bits", "field", "holds"});
    for (const auto& fd : f.fields)
      ft.row({bits_text(fd.msb, fd.lsb), fmt::format("`{}`", fd.name), fd.name == "opcode" ? opcode : holds(fd)});
    o += ft.str();
  }
  return o;
}

/// The host's instructions, formats, vtype, CSRs, rules and pseudo-instructions.
std::string host_section(const ImeHost& h) {
  std::string o = "## The host's instructions\n\n";
  o += fmt::format(
      "What a program needs beside the smt.* instructions, as the seed's examples use them: RV64I's scalar "
      "instructions that make addresses (XLEN {}) and RVV 1.0's vsetvli, unit-stride loads and stores and vmv.v "
      "(ELEN {}). `tpugen ime run` plays the host core: it runs these and hands rs1 values to the vector "
      "instructions.\n\n",
      h.xlen, h.elen);
  Table t({"mnemonic", "format", "operation", "EEW", "MATCH", "MASK"});
  for (const auto& i : h.instructions)
    t.row({fmt::format("`{}`", i.mnemonic), fmt::format("[{}](#format-{})", i.format, i.format), i.operation,
           i.eew == 0 ? "" : fmt::format("{}", i.eew), fmt::format("`{:08X}`", i.match),
           fmt::format("`{:08X}`", i.mask)});
  o += t.str();
  Table pt({"pseudo-instruction", "is"});
  for (const auto& p : h.pseudo_instructions) {
    std::string syntax;
    for (const auto& op : p.syntax) syntax += (syntax.empty() ? " " : ", ") + op;
    pt.row({fmt::format("`{}{}`", p.mnemonic, syntax),
            p.expansion == "materialise"
                ? "the shortest sequence of `lui`, `addiw`, `addi` and `slli` that makes the 64-bit value (LLVM's "
                  "RISCVMatInt)"
                : fmt::format("`{}`", p.expansion)});
  }
  o += pt.str();
  std::string regs;
  for (std::size_t r = 0; r < h.xregs.size(); ++r) regs += fmt::format("{}x{} `{}`", r == 0 ? "" : ", ", r, h.xregs[r]);
  for (const auto& [alias, r] : h.xreg_aliases) regs += fmt::format("; `{}` is x{} too", alias, r);
  o += fmt::format("Scalar registers: {}.\n\n", regs);
  o += "### vtype\n\n";
  Table vt({"field", "bits", "values"});
  for (const auto& f : h.vtype) {
    std::string values;
    for (const auto& v : f.values)
      values += fmt::format("{}`{}` {} ({})", values.empty() ? "" : ", ", v.name, bit_string(v.code, f.msb - f.lsb + 1),
                            v.den == 1 ? fmt::format("{}", v.num) : fmt::format("{}/{}", v.num, v.den));
    vt.row({fmt::format("`{}`", f.name), bits_text(f.msb, f.lsb), values});
  }
  o += vt.str();
  o += "### CSRs\n\n";
  Table cs({"CSR", "number", "field", "bits", "meaning"});
  for (const auto& c : h.csrs) {
    cs.row({fmt::format("`{}`", c.name), fmt::format("`0x{:03X}`", c.number), "", "", c.role});
    for (const auto& f : c.fields) cs.row({"", "", fmt::format("`{}`", f.name), bits_text(f.msb, f.lsb), f.role});
  }
  o += cs.str();
  o += "### The host's rules\n\n";
  Table rt({"rule", "meaning"});
  for (const auto& r : h.rules) rt.row({fmt::format("`{}`", r.name), r.role});
  o += rt.str();
  o += formats_section(h.formats, "###", "the opcode, fixed by the instruction");
  return o;
}

}  // namespace

std::string render_ime_markdown(const ImeSpec& s) {
  const std::string file = std::filesystem::path(s.path).filename().string();
  std::string o = "# The SpacemiT matrix extension (IME): encodings and profiles\n\n";
  o += fmt::format(
      "<!-- Generated by `tpugen docs` from spec/{} (sha256 {}). Do not edit: change the spec and regenerate; CI "
      "runs `tpugen docs --check`. -->\n\n",
      file, s.sha256);
  o += fmt::format(
      "Seed 002 (Zvvm_spacemit profile v0.6) with the public toolchains' encodings (`ime-notes.md`); the review of "
      "the seed is [ime_seed_review.md](ime_seed_review.md). Every instruction is {} bits, in the {} major opcode "
      "(`{}` in bits {}). Each instruction's MATCH and MASK are derived from its format and its fixed fields: a word "
      "`w` is the instruction when `(w & MASK) == MATCH`.\n\n",
      s.word_bits, s.opcode_name, bit_string(s.opcode >> s.opcode_lsb, s.opcode_msb - s.opcode_lsb + 1),
      bits_text(s.opcode_msb, s.opcode_lsb));

  o += "## Instructions\n\n";
  o += fmt::format("{} encodings. The type operand of an integer instruction is its DT code in bits {}; ",
                   s.instructions.size(), bits_text(s.dt_msb, s.dt_lsb));
  for (const auto& d : s.data_types)
    if (d.is_default) o += fmt::format("`{}` may be left out. ", d.name);
  o += "The floating-point instructions read fp16 or bf16 by MCPM.BF16, which no encoding holds.\n\n";
  Table t({"mnemonic", "type", "class", "signedness", "sub-extension", "format", "MATCH", "MASK"});
  for (const auto& i : s.instructions)
    t.row({fmt::format("`{}`", i.mnemonic), i.type.empty() ? "" : fmt::format("`{}`", i.type), i.cls, i.signedness,
           fmt::format("`{}`", i.sub_extension), fmt::format("[{}](#format-{})", i.format, i.format),
           fmt::format("`{:08X}`", i.match), fmt::format("`{:08X}`", i.mask)});
  o += t.str();

  o += "## Classes and their rules\n\n";
  o += "What an instruction of each class reads and writes (registers from the operand on; MUL_C is the profile's "
       "for the instruction's sub-extension), and the rules it keeps when it executes: one broken raises the "
       "illegal-instruction exception. What the encoding cannot express (an odd register in an even field, a "
       "reserved DT or slide code) decodes as no instruction.\n\n";
  Table ct({"class", "registers", "rules", "meaning"});
  for (const auto& c : s.classes) {
    std::string regs, rules;
    for (const auto& [op, n] : c.registers)
      regs +=
          fmt::format("{}{} {}", regs.empty() ? "" : ", ", op, n == ImeClass::kMulC ? "MUL_C" : fmt::format("{}", n));
    for (const auto& r : c.rules) rules += fmt::format("{}`{}`", rules.empty() ? "" : ", ", r);
    std::string meaning = c.role;
    for (const auto& [type, bits] : c.segment_bits) meaning += fmt::format("; {} mask segments of {} bits", type, bits);
    if (c.group_bits > 0) meaning += fmt::format("; scale groups of {} bits", c.group_bits);
    if (!c.pack_len.empty()) {
      std::string lens;
      for (std::size_t k = 0; k < c.pack_len.size(); ++k)
        lens += fmt::format("{}{} {}", k == 0 ? "" : ", ", k,
                            c.pack_len[k] == 0 ? "SEW" : fmt::format("{}", c.pack_len[k]));
      meaning += fmt::format("; pack_len by imm2: {}", lens);
    }
    ct.row({c.name, regs, rules, meaning});
  }
  o += ct.str();
  Table rt({"rule", "meaning"});
  for (const auto& r : s.rules) rt.row({fmt::format("`{}`", r.name), r.role});
  o += rt.str();

  o += "## Formats\n\n";
  o += formats_section(
      s.formats, "###",
      fmt::format("the opcode, `{}`", bit_string(s.opcode >> s.opcode_lsb, s.opcode_msb - s.opcode_lsb + 1)));

  o += "## Data types and signedness\n\n";
  Table dt({"type", "bits", "DT", "meaning"});
  for (const auto& d : s.data_types)
    dt.row({fmt::format("`{}`{}", d.name, d.is_default ? " (default)" : ""), fmt::format("{}", d.bits),
            fmt::format("`{}`", bit_string(d.dt, s.dt_msb - s.dt_lsb + 1)), d.role});
  o += dt.str();
  Table sg({"variant", "suffix", "A (vs1)", "B (vs2)"});
  for (const auto& v : s.signedness)
    sg.row({v.name, v.suffix.empty() ? "(none)" : fmt::format("`{}`", v.suffix), v.a_signed ? "signed" : "unsigned",
            v.b_signed ? "signed" : "unsigned"});
  o += sg.str();

  o += "## Sub-extensions and profiles\n\n";
  Table se({"sub-extension", "meaning"});
  for (const auto& x : s.sub_extensions) se.row({fmt::format("`{}`", x.name), x.role});
  o += se.str();
  o += "Per profile, at LMUL = 1: L_A = VLEN / (SEW / W), K = λ x W (x 2 on the 2:4 sparse paths), M = N = L_A / "
       "(λ x W), MUL_C = VLEN / (SEW x λ²), the registers the C tile takes.\n\n";
  for (const auto& p : s.profiles) {
    o += fmt::format("### {} (VLEN {})\n\n", p.name, p.vlen);
    Table pt({"sub-extension", "λ", "SEW", "W", "tile M x K x N", "MUL_C"});
    for (const auto& e : p.supports)
      pt.row({fmt::format("`{}`", e.sub_extension), fmt::format("{}", e.lambda), fmt::format("{}", e.sew),
              fmt::format("{}", e.w), fmt::format("{} x {} x {}", e.m, e.k, e.n), fmt::format("{}", e.mul_c)});
    o += pt.str();
  }
  o += "The data layout instructions (sub-extension `none`) run on every profile.\n\n";
  o += host_section(s.host);
  return o;
}

}  // namespace tpugen
