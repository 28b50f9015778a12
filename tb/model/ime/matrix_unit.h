/// @file matrix_unit.h
/// @brief The reference model of the IME's smt.* instructions on a profile:
/// the rules of spec/ime.yaml checked before anything is written (a broken
/// one is the illegal-instruction exception: the state is left as it was),
/// then the instruction's effect on the vector registers, bit-exact.
/// Every class: the integer ones (base, sliding-window, 2:4 sparse,
/// block-quantised .hp), the fp16/bf16 widening ones (vfwmadot,
/// vfwmadot1/2/3), and the layout instructions, on register groups at
/// LMUL > 1. What the seed leaves undefined (vnpack4 from other than 8-bit
/// sources, ...) is illegal by the rule narrow_widths; a class, rule or form
/// the spec adds and the model does not know is refused with
/// Error("ime.model") rather than run wrongly.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>

#include "ime/codec.h"
#include "model/ime/vregs.h"
#include "spec/ime_spec.h"

namespace tpugen::ime {

/// vtype's LMUL: num / den, 1/8 .. 8.
struct Lmul {
  int num = 1, den = 1;
  [[nodiscard]] bool is_one() const { return num == den; }
  /// `bits` x LMUL (whole: VLEN x LMUL for LMUL >= 1/8 of VLEN >= 64).
  [[nodiscard]] long long times(long long bits) const { return bits * num / den; }
  [[nodiscard]] std::string str() const { return den == 1 ? std::to_string(num) : fmt::format("{}/{}", num, den); }
};

/// What the instructions read beside their operands: vtype's LMUL and SEW
/// and MCPM.BF16.
struct MatrixState {
  explicit MatrixState(int vlen) : v(vlen) {}
  VectorRegs v;
  Lmul lmul;
  int sew = 8;
  bool bf16 = false;
};

/// An illegal-instruction exception: the rule broken (a rule of the spec's)
/// and what broke it.
struct Illegal {
  std::string rule;
  std::string message;
};

/// The first rule of the instruction's class it breaks here, or nothing.
[[nodiscard]] std::optional<Illegal> check(const ImeSpec& spec, const ImeProfile& profile, const Decoded& d,
                                           const MatrixState& state);

/// Check, then run: an Illegal leaves `state` unchanged.
[[nodiscard]] std::optional<Illegal> execute(const ImeSpec& spec, const ImeProfile& profile, const Decoded& d,
                                             MatrixState& state);

}  // namespace tpugen::ime
