#include "model/ime/matrix_unit.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "model/ime/fp16.h"
#include "util/bits.h"
#include "util/diag.h"

namespace tpugen::ime {

namespace {

/// The registers an operand's group takes on this profile.
int group_size(const ImeClass& c, const ImeProfileEntry* entry, const std::string& operand, const Lmul& lmul) {
  const int scale = c.lmul_groups && lmul.num > lmul.den ? lmul.num / lmul.den : 1;
  for (const auto& [op, n] : c.registers)
    if (op == operand) return n == ImeClass::kMulC ? (entry ? entry->mul_c : 1) : n * scale;
  return 0;
}

std::string group_text(std::uint32_t first, int n) {
  return n == 1 ? fmt::format("v{}", first) : fmt::format("v{}..v{}", first, first + static_cast<std::uint32_t>(n) - 1);
}

/// A signed or unsigned element of `width` bits as an integer.
std::int64_t extend(std::uint64_t raw, int width, bool is_signed) {
  return is_signed ? sign_extend(raw, width) : static_cast<std::int64_t>(raw);
}

/// An integer instruction's elements: their width and how A's and B's extend.
struct IntElements {
  int bits = 0;
  bool a_signed = false, b_signed = false;
  /// Element `index` of A (vs1's group) or of B (vs2's), as an integer.
  [[nodiscard]] std::int64_t a(const MatrixState& s, int reg, std::size_t index) const {
    return extend(s.v.get(reg, bits, index), bits, a_signed);
  }
  [[nodiscard]] std::int64_t b(const MatrixState& s, int reg, std::size_t index) const {
    return extend(s.v.get(reg, bits, index), bits, b_signed);
  }
};

IntElements int_elements(const ImeSpec& spec, const Decoded& d) {
  const ImeDataType* t = spec.data_type(d.instr->type);
  const ImeSignedness* sign = spec.signedness_of(*d.instr);
  if (!t || !sign) throw Error("ime.internal", fmt::format("{} has no type or signedness", d.instr->label()));
  return {t->bits, sign->a_signed, sign->b_signed};
}

/// Row r of A (K elements from r x K in vs1's group) dot row c of B^T (vs2), exact.
std::int64_t dot(const MatrixState& s, const IntElements& el, int vs1, int vs2, std::size_t r, std::size_t c,
                 std::size_t k) {
  std::int64_t sum = 0;
  for (std::size_t q = 0; q < k; ++q) sum += el.a(s, vs1, r * k + q) * el.b(s, vs2, c * k + q);
  return sum;
}

/// The accumulator's bits (SEW of the profile entry): integer sums wrap there.
std::uint64_t accumulator_mask(const ImeProfileEntry& e) { return e.sew >= 64 ? ~0ULL : (1ULL << e.sew) - 1; }

/// The element widths a floating-point class's arithmetic is written for,
/// held to the profile entry's (SEW, and SEW / W for the inputs).
void require_widths(const ImeProfileEntry& e, const Decoded& d, int sew, int input_bits) {
  if (e.sew != sew || e.sew / e.w != input_bits)
    throw Error("ime.model", fmt::format("{}: the model computes {}-bit results from {}-bit inputs; {} gives SEW {} "
                                         "and W {}",
                                         d.instr->label(), sew, input_bits, e.sub_extension, e.sew, e.w));
}

/// C (vd group, int32) += A x B^T: A's rows from row `first_row` of vs1's
/// group on, B^T's N rows of K in vs2 (seed 5.1, 5.2).
void integer_matmul(const ImeSpec& spec, const ImeProfileEntry& e, const Decoded& d, int first_row, MatrixState& s) {
  const IntElements el = int_elements(spec, d);
  const int vd = static_cast<int>(d.operand("vd")), vs1 = static_cast<int>(d.operand("vs1")),
            vs2 = static_cast<int>(d.operand("vs2"));
  const auto k = static_cast<std::size_t>(e.k), n = static_cast<std::size_t>(e.n);
  for (std::size_t p = 0; p < static_cast<std::size_t>(e.m) * n; ++p) {
    const std::int64_t sum = dot(s, el, vs1, vs2, p / n + static_cast<std::size_t>(first_row), p % n, k);
    // The accumulator wraps at 32 bits (seed 5.1: within the destination's width).
    s.v.set(vd, e.sew, p, (s.v.get(vd, e.sew, p) + static_cast<std::uint64_t>(sum)) & accumulator_mask(e));
  }
}

/// C += A x B^T with B 2:4 sparse (seed 5.3): vs2 holds Kc = K / 2 kept
/// values a row, two for every group of four K positions, and a 4-bit mask
/// a group in segment imm2 of v0/v1 (vmask) says which two (bit k: position
/// k; the lower position takes the first value; a mask without exactly two
/// bits set contributes nothing, the seed's default case). Row c's masks are
/// nibbles c x Kc / 2 on of the segment, the low nibble of a byte first.
void sparse_matmul(const ImeSpec& spec, const ImeClass& cls, const ImeProfileEntry& e, const Decoded& d,
                   MatrixState& s) {
  const IntElements el = int_elements(spec, d);
  int seg_bits = 0;
  for (const auto& [type, bits] : cls.segment_bits)
    if (type == d.instr->type) seg_bits = bits;
  if (seg_bits == 0) throw Error("ime.internal", fmt::format("{} has no mask segment", d.instr->label()));
  const int vd = static_cast<int>(d.operand("vd")), vs1 = static_cast<int>(d.operand("vs1")),
            vs2 = static_cast<int>(d.operand("vs2")), mask_reg = static_cast<int>(d.operand("vmask"));
  const std::size_t k = static_cast<std::size_t>(e.k), kc = k / 2, n = static_cast<std::size_t>(e.n);
  const std::size_t first_nibble = static_cast<std::size_t>(d.operand("imm2")) * static_cast<std::size_t>(seg_bits / 4);
  for (std::size_t p = 0; p < static_cast<std::size_t>(e.m) * n; ++p) {
    const std::size_t r = p / n, c = p % n;
    std::int64_t sum = 0;
    for (std::size_t q = 0; q < kc / 2; ++q) {
      const auto m = static_cast<unsigned>(s.v.get(mask_reg, 4, first_nibble + c * kc / 2 + q));
      if (std::popcount(m) != 2) continue;
      const auto lo = static_cast<std::size_t>(std::countr_zero(m)),
                 hi = static_cast<std::size_t>(std::bit_width(m) - 1);
      sum += el.b(s, vs2, c * kc + 2 * q) * el.a(s, vs1, r * k + 4 * q + lo) +
             el.b(s, vs2, c * kc + 2 * q + 1) * el.a(s, vs1, r * k + 4 * q + hi);
    }
    s.v.set(vd, e.sew, p, (s.v.get(vd, e.sew, p) + static_cast<std::uint64_t>(sum)) & accumulator_mask(e));
  }
}

/// C (fp32, vd group) += A x B^T in fp16 or bf16 (MCPM.BF16) (seed 6.1,
/// 6.2): each product widened to binary32 and added to C in K order, every
/// operation rounded to nearest even in binary32, as the seed's pseudocode
/// writes it (the products of two 16-bit values are exact in binary32 unless
/// they overflow or underflow). A NaN result is the canonical NaN 0x7FC00000,
/// as RISC-V's floating point gives (tpugen's decision: the seed is silent).
/// (The multiply and the add stay two roundings: ISO C++ mode keeps gcc from
/// contracting them into a fused multiply-add.)
void fp_matmul(const ImeProfileEntry& e, const Decoded& d, int first_row, MatrixState& s) {
  require_widths(e, d, 32, 16);  // binary32 sums of fp16/bf16 products
  const int in_bits = e.sew / e.w;
  const int vd = static_cast<int>(d.operand("vd")), vs1 = static_cast<int>(d.operand("vs1")),
            vs2 = static_cast<int>(d.operand("vs2"));
  const auto widen = [&](std::uint64_t raw) {
    const auto h = static_cast<std::uint16_t>(raw);
    return s.bf16 ? bf16_to_float(h) : fp16_to_float(h);
  };
  const auto k = static_cast<std::size_t>(e.k), n = static_cast<std::size_t>(e.n);
  for (std::size_t p = 0; p < static_cast<std::size_t>(e.m) * n; ++p) {
    const std::size_t r = p / n + static_cast<std::size_t>(first_row), c = p % n;
    float acc = std::bit_cast<float>(static_cast<std::uint32_t>(s.v.get(vd, e.sew, p)));
    for (std::size_t q = 0; q < k; ++q) {
      const float product = widen(s.v.get(vs1, in_bits, r * k + q)) * widen(s.v.get(vs2, in_bits, c * k + q));
      acc = acc + product;
    }
    const std::uint32_t bits = acc != acc ? 0x7FC00000U : std::bit_cast<std::uint32_t>(acc);
    s.v.set(vd, e.sew, p, bits);
  }
}

/// smt.vmadot*.hp (seed 5.4): C (fp16 or bf16 by MCPM.BF16, vd alone) +=
/// F(F(A x B^T) x S[c]), column c's scale the c-th 16-bit element of group
/// imm3 of v0/v1 (vscale). The integer sum is exact; each of the three steps
/// (the sum to F, the product with the scale, the add to C) rounds to
/// nearest even in F, which is what the seed's example prints (three of its
/// values are the rounded ones: docs/ime_seed_review.md D17). A sum past F's
/// range is infinity; a NaN result is F's canonical NaN.
void quant_matmul(const ImeSpec& spec, const ImeClass& cls, const ImeProfileEntry& e, const Decoded& d,
                  MatrixState& s) {
  const IntElements el = int_elements(spec, d);
  require_widths(e, d, 16, el.bits);  // fp16/bf16 results and scales from the integer type's inputs
  const int vd = static_cast<int>(d.operand("vd")), vs1 = static_cast<int>(d.operand("vs1")),
            vs2 = static_cast<int>(d.operand("vs2")), scale_reg = static_cast<int>(d.operand("vscale"));
  const auto value = [&](std::uint64_t bits) -> double {
    const auto h = static_cast<std::uint16_t>(bits);
    return s.bf16 ? bf16_to_float(h) : fp16_to_float(h);
  };
  const auto round = [&](double x) -> std::uint64_t { return s.bf16 ? round_to_bf16(x) : round_to_fp16(x); };
  const auto k = static_cast<std::size_t>(e.k), n = static_cast<std::size_t>(e.n);
  const std::size_t group =
      static_cast<std::size_t>(d.operand("imm3")) * static_cast<std::size_t>(cls.group_bits / e.sew);
  for (std::size_t p = 0; p < static_cast<std::size_t>(e.m) * n; ++p) {
    const std::size_t c = p % n;
    const std::int64_t sum = dot(s, el, vs1, vs2, p / n, c, k);
    const std::uint64_t scaled =
        round(value(round(static_cast<double>(sum))) * value(s.v.get(scale_reg, e.sew, group + c)));
    s.v.set(vd, e.sew, p, round(value(s.v.get(vd, e.sew, p)) + value(scaled)));
  }
}

/// The chunk pack_len bits imm2 selects (0 in the class's table: SEW).
int pack_len_of(const ImeClass& cls, const Decoded& d, const MatrixState& s) {
  const int code = cls.pack_len[d.operand("imm2")];
  return code == 0 ? s.sew : code;
}

/// smt.vpack.vv / smt.vupack.vv (seed 7.3, 7.4), in elements of SEW (the
/// seed's pseudocode indexes some registers in bits, some in elements: D22).
/// vpack interleaves vs1's and vs2's chunks of n = pack_len / SEW elements
/// into vd, vd+1; vupack is its inverse. The sources are read whole before
/// vd is written.
void pack(const ImeClass& cls, const Decoded& d, MatrixState& s) {
  const int sew = s.sew, group = static_cast<int>(s.lmul.times(1));  // registers a source group holds
  const auto n = static_cast<std::size_t>(pack_len_of(cls, d, s) / sew);
  const auto per_reg = static_cast<std::size_t>(s.lmul.times(s.v.vlen()) / sew);  // elements of a source group
  const int vd = static_cast<int>(d.operand("vd"));
  std::vector<std::uint64_t> a(per_reg), b(per_reg);
  for (std::size_t k = 0; k < per_reg; ++k) {
    a[k] = s.v.get(static_cast<int>(d.operand("vs1")), sew, k);
    b[k] = s.v.get(static_cast<int>(d.operand("vs2")), sew, k);
  }
  const std::size_t chunks = per_reg / n;  // chunks of a register
  if (d.instr->mnemonic == "smt.vpack.vv") {
    for (std::size_t p = 0; p < chunks; ++p)
      for (std::size_t i = 0; i < n; ++i) {
        s.v.set(vd, sew, 2 * p * n + i, a[p * n + i]);
        s.v.set(vd, sew, 2 * p * n + n + i, b[p * n + i]);
      }
    return;
  }
  // vupack: the chunks of vs1 || vs2 in turn, the even ones to vd, the odd
  // ones to vd+1 (at LMUL > 1: to the groups from vd and from vd + LMUL).
  // The seed's form (vs1's and vs2's even chunks to vd's two halves) is the
  // same wherever a register holds two chunks or more, and this one also
  // covers pack_len = VLEN, where the seed's loop runs no iteration: vupack
  // then copies, as vpack does (tpugen's decision).
  for (std::size_t j = 0; j < 2 * chunks; ++j) {
    const std::vector<std::uint64_t>& src = j < chunks ? a : b;
    const std::size_t from = (j % chunks) * n;
    for (std::size_t i = 0; i < n; ++i)
      s.v.set(vd + static_cast<int>(j % 2) * group, sew, (j / 2) * n + i, src[from + i]);
  }
}

/// A narrowing instruction's form, by mnemonic.
struct NarrowForm {
  std::string_view mnemonic;
  bool to_nibbles, saturate;
};

const NarrowForm& narrow_form(const Decoded& d) {
  static constexpr NarrowForm kForms[] = {{"smt.vnpack.vv", false, false},
                                          {"smt.vnspack.vv", false, true},
                                          {"smt.vnpack4.vv", true, false},
                                          {"smt.vnspack4.vv", true, true}};
  for (const auto& f : kForms)
    if (f.mnemonic == d.instr->mnemonic) return f;
  throw Error("ime.model", fmt::format("{}: not a narrowing form the model knows", d.instr->mnemonic));
}

/// The width of a narrowing instruction's source elements: 2 x SEW, or SEW
/// for the nibble forms.
int narrow_source_bits(const NarrowForm& f, const MatrixState& s) { return f.to_nibbles ? s.sew : 2 * s.sew; }

/// smt.vnpack.vv / smt.vnspack.vv (seed 7.5): vtype's SEW is the narrow
/// destination's width, the sources' elements 2 x SEW; each pack_len-bit
/// chunk of vs1 and then of vs2, narrowed, goes to vd in turn. vnpack keeps
/// the low SEW bits; vnspack saturates as signed (the seed gives only the
/// signed formula, and no bit selects another: tpugen's decision).
///
/// smt.vnpack4.vv / smt.vnspack4.vv (seed 7.6) the same to 4 bits, two to a
/// byte (the lower element in the low nibble, as seed 2.7 stores int4), from
/// SEW = 8 sources. The seed's pseudocode reads two chunks' worth of
/// elements a chunk and restarts its output at every chunk (D23); tpugen
/// reads it as vnpack's nibble counterpart: each pack_len-bit chunk of vs1,
/// then of vs2, narrowed, the bytes one after another, which fills vd
/// exactly. Another SEW is not defined by it (the rule narrow_widths).
void narrow(const ImeClass& cls, const Decoded& d, MatrixState& s) {
  const NarrowForm& form = narrow_form(d);
  const bool to_nibbles = form.to_nibbles, saturate = form.saturate;
  const int out_bits = to_nibbles ? 4 : s.sew, in_bits = narrow_source_bits(form, s);
  const long long vlen = s.lmul.times(s.v.vlen());  // the bits of a source group
  const int len = pack_len_of(cls, d, s);
  const auto ns = static_cast<std::size_t>(len / in_bits);
  const auto per_reg = static_cast<std::size_t>(vlen / in_bits);
  const auto cut = [&](std::uint64_t raw) -> std::uint64_t {
    const std::uint64_t low = out_bits == 64 ? ~0ULL : (1ULL << out_bits) - 1;
    if (!saturate) return raw & low;
    const std::int64_t x = extend(raw, in_bits, true), hi = (std::int64_t{1} << (out_bits - 1)) - 1, lo = -hi - 1;
    return static_cast<std::uint64_t>(std::clamp(x, lo, hi)) & low;
  };
  std::vector<std::uint64_t> a(per_reg), b(per_reg);
  for (std::size_t k = 0; k < per_reg; ++k) {
    a[k] = s.v.get(static_cast<int>(d.operand("vs1")), in_bits, k);
    b[k] = s.v.get(static_cast<int>(d.operand("vs2")), in_bits, k);
  }
  const int vd = static_cast<int>(d.operand("vd"));
  for (std::size_t p = 0; p < per_reg / ns; ++p)
    for (std::size_t i = 0; i < ns; ++i) {
      s.v.set(vd, out_bits, 2 * p * ns + i, cut(a[p * ns + i]));
      s.v.set(vd, out_bits, 2 * p * ns + ns + i, cut(b[p * ns + i]));
    }
}

}  // namespace

std::optional<Illegal> check(const ImeSpec& spec, const ImeProfile& profile, const Decoded& d, const MatrixState& s) {
  const ImeInstruction& i = *d.instr;
  const ImeClass& c = spec.class_of(i);
  const ImeProfileEntry* entry = profile.entry(i.sub_extension);
  for (const auto& rule : c.rules) {
    // A rule the spec names and this model does not know would go unchecked.
    static constexpr std::string_view kKnown[] = {"sub_extension", "lmul_one",    "vs1_even", "vd_disjoint",
                                                  "mask_segment",  "scale_group", "pack_len", "lmul_group", "narrow_widths"};
    if (std::find(std::begin(kKnown), std::end(kKnown), rule) == std::end(kKnown))
      throw Error("ime.model", fmt::format("{}: the model does not know the rule {}", i.label(), rule));
    if (rule == "sub_extension" && !profile.supports_sub_extension(i.sub_extension))
      return Illegal{rule, fmt::format("{} belongs to {}, which the {} does not support", i.label(), i.sub_extension,
                                       profile.name)};
    if (rule == "lmul_one" && !s.lmul.is_one())
      return Illegal{rule, fmt::format("{} needs LMUL = 1; vtype has LMUL = {}", i.label(), s.lmul.str())};
    if (rule == "lmul_group") {
      if (s.lmul.num < s.lmul.den)
        return Illegal{rule, fmt::format("{} is not defined at a fractional LMUL ({})", i.label(), s.lmul.str())};
      for (const auto& [op, n] : c.registers) {
        const std::uint32_t first = d.operand(op);
        const auto size = static_cast<std::uint32_t>(group_size(c, entry, op, s.lmul));
        if (first % size != 0 || first + size > 32)
          return Illegal{rule, fmt::format("{}: at LMUL = {}, {} = v{} does not start a group of {} registers",
                                           i.label(), s.lmul.str(), op, first, size)};
      }
    }
    if (rule == "narrow_widths") {
      const NarrowForm& form = narrow_form(d);
      const int in_bits = narrow_source_bits(form, s), len = pack_len_of(c, d, s);
      if ((form.to_nibbles && s.sew != 8) || in_bits > 64 || len < in_bits)
        return Illegal{rule, fmt::format("{}: {}-bit sources (SEW {}) in {}-bit chunks are not defined", i.label(),
                                         in_bits, s.sew, len)};
    }
    if (rule == "vs1_even" && d.operand("vs1") % 2 != 0)
      return Illegal{rule, fmt::format("{} needs an even vs1, not v{}", i.label(), d.operand("vs1"))};
    if (rule == "vd_disjoint") {
      const std::uint32_t vd = d.operand("vd");
      const int nd = group_size(c, entry, "vd", s.lmul);
      for (const auto& [op, n] : c.registers) {
        if (op == "vd") continue;
        const std::uint32_t src = d.operand(op);
        const int ns = group_size(c, entry, op, s.lmul);
        if (src < vd + static_cast<std::uint32_t>(nd) && vd < src + static_cast<std::uint32_t>(ns))
          return Illegal{rule, fmt::format("{}: the destination {} overlaps {} ({})", i.label(), group_text(vd, nd), op,
                                           group_text(src, ns))};
      }
    }
    if (rule == "mask_segment") {
      int bits = 0;
      for (const auto& [t, b] : c.segment_bits)
        if (t == i.type) bits = b;
      const std::uint32_t segments = static_cast<std::uint32_t>(profile.vlen / bits);
      if (d.operand("imm2") >= segments)
        return Illegal{rule, fmt::format("{}: imm2 = {} names no mask segment ({} of {} bits in VLEN {})", i.label(),
                                         d.operand("imm2"), segments, bits, profile.vlen)};
    }
    if (rule == "scale_group") {
      const std::uint32_t groups = static_cast<std::uint32_t>(profile.vlen / c.group_bits);
      if (d.operand("imm3") >= groups)
        return Illegal{rule, fmt::format("{}: imm3 = {} names no scale group ({} of {} bits in VLEN {})", i.label(),
                                         d.operand("imm3"), groups, c.group_bits, profile.vlen)};
    }
    if (rule == "pack_len") {
      const int len = pack_len_of(c, d, s);
      if (len > s.lmul.times(profile.vlen))
        return Illegal{rule, fmt::format("{}: imm2 = {} selects {}-bit chunks, more than VLEN x LMUL = {}", i.label(),
                                         d.operand("imm2"), len, s.lmul.times(profile.vlen))};
    }
  }
  return std::nullopt;
}

std::optional<Illegal> execute(const ImeSpec& spec, const ImeProfile& profile, const Decoded& d, MatrixState& s) {
  if (auto illegal = check(spec, profile, d, s)) return illegal;
  const ImeInstruction& i = *d.instr;
  const ImeProfileEntry* e = profile.entry(i.sub_extension);
  if (i.cls == "base" && e) {
    integer_matmul(spec, *e, d, 0, s);
  } else if (i.cls == "slide" && e) {
    integer_matmul(spec, *e, d, i.slide, s);
  } else if (i.cls == "sparse" && e) {
    sparse_matmul(spec, spec.class_of(i), *e, d, s);
  } else if (i.cls == "quant" && e) {
    quant_matmul(spec, spec.class_of(i), *e, d, s);
  } else if ((i.cls == "fp" || i.cls == "fp_slide") && e) {
    fp_matmul(*e, d, i.slide, s);
  } else if (i.cls == "pack" || i.cls == "narrow") {
    if (i.cls == "pack")
      pack(spec.class_of(i), d, s);
    else
      narrow(spec.class_of(i), d, s);
  } else {
    throw Error("ime.model", fmt::format("{}: the model does not run the {} class yet", i.label(), i.cls));
  }
  return std::nullopt;
}

}  // namespace tpugen::ime
