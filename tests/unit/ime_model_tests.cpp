// tb/model/ime: the IME's reference model. The seed's worked examples as
// golden tests (with the corrections docs/ime_seed_review.md argues), the
// base and sliding-window classes against a plain integer matmul on random
// tiles of both profiles, and every rule of execution broken once.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ime/codec.h"
#include "model/ime/fp16.h"
#include "model/ime/matrix_unit.h"
#include "spec/ime_spec.h"
#include "test_support.h"

using namespace tpugen;
using ime::MatrixState;

namespace {

const ImeSpec& spec() {
  static const ImeSpec s = load_ime_spec(TPUGEN_SOURCE_DIR "/spec/ime.yaml");
  return s;
}

const ImeProfile& profile(const char* name) { return *spec().profile(name); }

ime::Decoded instr(const std::string& text) { return ime::parse(spec(), text); }

/// Run one instruction that must be legal.
void run(const char* prof, const std::string& text, MatrixState& s) {
  const auto illegal = ime::execute(spec(), profile(prof), instr(text), s);
  INFO(text << ": " << (illegal ? illegal->message : ""));
  REQUIRE_FALSE(illegal);
}

/// Bytes into register r on (the test's own packing: 8-bit elements in order).
void load_bytes(MatrixState& s, int r, const std::vector<int>& values) {
  const std::size_t at = static_cast<std::size_t>(r) * static_cast<std::size_t>(s.v.vlen() / 8);
  for (std::size_t i = 0; i < values.size(); ++i) s.v.bytes()[at + i] = static_cast<std::uint8_t>(values[i]);
}

/// The int32 C tile from register r on, rows of n.
std::vector<std::int32_t> c_tile(const MatrixState& s, int r, std::size_t count) {
  std::vector<std::int32_t> c;
  const std::size_t at = static_cast<std::size_t>(r) * static_cast<std::size_t>(s.v.vlen() / 8);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t w = 0;
    for (std::size_t b = 0; b < 4; ++b) w |= std::uint32_t{s.v.bytes()[at + 4 * i + b]} << (8 * b);
    c.push_back(static_cast<std::int32_t>(w));
  }
  return c;
}

/// A random element of `bits` bits, signed or not; `extreme`: the most
/// negative (signed) or the largest (unsigned) one instead.
std::int64_t draw_element(std::mt19937_64& rng, int bits, bool is_signed, bool extreme = false) {
  const std::int64_t lo = is_signed ? -(std::int64_t{1} << (bits - 1)) : 0;
  const std::int64_t span = std::int64_t{1} << bits;
  if (extreme) return is_signed ? lo : span - 1;
  return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span));
}

/// The exact dot product of A's row `row` and B's column `col` (B held
/// transposed: its columns are rows of k), the plain reference's matmul.
std::int64_t plain_dot(const std::vector<std::int64_t>& a, int row, const std::vector<std::int64_t>& bt, int col,
                       int k) {
  std::int64_t sum = 0;
  for (int q = 0; q < k; ++q)
    sum += a[static_cast<std::size_t>(row * k + q)] * bt[static_cast<std::size_t>(col * k + q)];
  return sum;
}

const std::vector<int> kG1A = {0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7,  8,
                               2, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7, 8, 9, 10, 11};
const std::vector<int> kG1B = {0, 1, 2, 3, 4, 5, 6, 7, 1,  2, 3, 4, 5, 6, 7, 8,
                               2, 3, 4, 5, 6, 7, 8, 9, 11, 4, 5, 6, 7, 8, 9, 10};

}  // namespace

TEST_CASE("ime model: the seed's A60 smt.vmadot example (5.1.6)") {
  MatrixState s(256);
  load_bytes(s, 0, kG1A);
  load_bytes(s, 1, kG1B);
  run("A60", "smt.vmadot v16, v0, v1", s);
  CHECK(c_tile(s, 16, 16) ==
        std::vector<std::int32_t>{140, 168, 196, 224, 168, 204, 240, 284, 196, 240, 284, 344, 252, 312, 372, 464});
}

TEST_CASE("ime model: the seed's A60 sliding-window example (5.2.6), its one misprint corrected") {
  MatrixState s(256);
  std::vector<int> a = kG1A;  // eight rows over v0 and v1: the example's six, then zeros
  for (int r = 5; r <= 6; ++r)
    for (int k = 0; k < 8; ++k) a.push_back(r + k);
  a.resize(64, 0);
  load_bytes(s, 0, std::vector<int>(a.begin(), a.begin() + 32));
  load_bytes(s, 1, std::vector<int>(a.begin() + 32, a.end()));
  load_bytes(s, 8, kG1B);
  run("A60", "smt.vmadot v16, v0, v8", s);
  run("A60", "smt.vmadot1 v16, v0, v8", s);
  // The seed prints 224 for C[0][3] here (L735); A rows 1-4 give 284 more
  // than the 224 before, 508, which the next step's 852 = 508 + 344 confirms.
  CHECK(c_tile(s, 16, 16) ==
        std::vector<std::int32_t>{308, 372, 436, 508, 364, 444, 524, 628, 448, 552, 656, 808, 532, 660, 788, 988});
  run("A60", "smt.vmadot2 v16, v0, v8", s);
  CHECK(c_tile(s, 16, 16) == std::vector<std::int32_t>{504, 612, 720, 852, 616, 756, 896, 1092, 728, 900, 1072, 1332,
                                                       840, 1044, 1248, 1572});
}

// The plain reference: the tiles drawn as integers, packed into the
// registers by the seed's layout (A row-major, B transposed, int4 two to a
// byte, low nibble first), C computed as a matmul in int64 and wrapped.
TEST_CASE("ime model: base and sliding-window instructions equal a plain matmul on random tiles") {
  std::mt19937_64 rng(2026);
  const char* profiles[] = {"A60", "A100"};
  for (const char* pname : profiles) {
    const ImeProfile& p = profile(pname);
    for (const auto& i : spec().instructions) {
      if ((i.cls != "base" && i.cls != "slide") || !p.supports_sub_extension(i.sub_extension)) continue;
      const ImeProfileEntry& e = *p.entry(i.sub_extension);
      const int bits = spec().data_type(i.type)->bits;
      const ImeSignedness* sg = spec().signedness_of(i);
      const int rows_a = i.cls == "slide" ? 2 * e.m : e.m;
      for (int trial = 0; trial < 20; ++trial) {
        INFO(pname << " " << i.label() << " trial " << trial);
        // Extremes on the first trials: every element the most negative (or
        // largest unsigned) value, then the accumulator near its wrap.
        const auto draw = [&](bool is_signed) { return draw_element(rng, bits, is_signed, trial == 0); };
        std::vector<std::int64_t> a(static_cast<std::size_t>(rows_a * e.k)), bt(static_cast<std::size_t>(e.n * e.k));
        for (auto& x : a) x = draw(sg->a_signed);
        for (auto& x : bt) x = draw(sg->b_signed);
        std::vector<std::int64_t> c0(static_cast<std::size_t>(e.m * e.n));
        for (auto& x : c0) x = trial == 1 ? 0x7FFFFFF0 : static_cast<std::int32_t>(rng());
        MatrixState s(p.vlen);
        const int vs1 = 4, vs2 = 9, vd = 16;
        auto pack = [&](int reg, const std::vector<std::int64_t>& v) {
          for (std::size_t k = 0; k < v.size(); ++k) {
            const std::size_t bit = static_cast<std::size_t>(reg * p.vlen) + k * static_cast<std::size_t>(bits);
            const auto raw = static_cast<std::uint8_t>(static_cast<std::uint64_t>(v[k]) & ((1U << bits) - 1));
            auto& byte = s.v.bytes()[bit / 8];
            byte = bits == 8 ? raw : static_cast<std::uint8_t>(byte | (raw << (bit % 8)));
          }
        };
        pack(vs1, a);
        pack(vs2, bt);
        for (std::size_t k = 0; k < c0.size(); ++k) s.v.set(vd, 32, k, static_cast<std::uint64_t>(c0[k]));
        const int slide = i.slide;
        run(pname, fmt::format("{} v{}, v{}, v{}, {}", i.mnemonic, vd, vs1, vs2, i.type), s);
        const auto c = c_tile(s, vd, c0.size());
        for (int r = 0; r < e.m; ++r)
          for (int col = 0; col < e.n; ++col) {
            const std::int64_t sum =
                c0[static_cast<std::size_t>(r * e.n + col)] + plain_dot(a, r + slide, bt, col, e.k);
            CHECK(c[static_cast<std::size_t>(r * e.n + col)] ==
                  static_cast<std::int32_t>(static_cast<std::uint32_t>(sum)));
          }
      }
    }
  }
}

TEST_CASE("ime model: the seed's A100 2:4 sparse example (5.3), with the data arrays as written") {
  // The arrays of the example's program (L1013-L1040), not its comment's
  // picture: rows 3-7 of A repeat an element and B[7][3] is 0 there, and
  // only the arrays give the printed C (docs/ime_seed_review.md, D13). The
  // mask bit order is the pseudocode's (bit k: position k), not the
  // picture's (D12).
  MatrixState s(1024);
  std::vector<int> a;
  for (int r = 0; r < 8; ++r) {
    for (int k = 0; k < 16; ++k) a.push_back(r + k);
    for (int k = 0; k < 16; ++k) a.push_back(r < 3 ? r + 16 + k : r + 15 + k);
  }
  std::vector<int> b;
  for (int c = 0; c < 8; ++c)
    for (int k = 0; k < 16; ++k) b.push_back(c == 7 && k == 3 ? 0 : c + k);
  const std::vector<int> masks = {0x99, 0xAA, 0xCC, 0x55, 0x66, 0x33, 0x99, 0xAA};
  std::vector<int> v0;
  for (const int m : masks) v0.insert(v0.end(), 4, m);
  load_bytes(s, 2, std::vector<int>(a.begin(), a.begin() + 128));
  load_bytes(s, 3, std::vector<int>(a.begin() + 128, a.end()));
  load_bytes(s, 8, b);
  load_bytes(s, 0, v0);
  run("A100", "smt.vmadot.sp v16, v2, v8, v0, 0, i8", s);
  CHECK(c_tile(s, 16, 64) == std::vector<std::int32_t>{2544, 2856, 3184, 3200, 3528, 3576, 4032, 4322, 2664, 2992, 3336,
                                                       3368, 3712, 3776, 4248, 4544, 2784, 3128, 3488, 3536, 3896, 3976,
                                                       4464, 4766, 2812, 3164, 3532, 3588, 3956, 4044, 4540, 4840, 2932,
                                                       3300, 3684, 3756, 4140, 4244, 4756, 5062, 3052, 3436, 3836, 3924,
                                                       4324, 4444, 4972, 5284, 3172, 3572, 3988, 4092, 4508, 4644, 5188,
                                                       5506, 3292, 3708, 4140, 4260, 4692, 4844, 5404, 5728});
}

// The plain reference for 2:4 sparse: B's dense rows rebuilt from the kept
// values and each group's mask (the test's own decoding), then a matmul.
TEST_CASE("ime model: 2:4 sparse instructions equal a matmul with B rebuilt from its masks") {
  std::mt19937_64 rng(42);
  const ImeProfile& p = profile("A100");
  const unsigned patterns[] = {0x3, 0x5, 0x6, 0x9, 0xA, 0xC, 0x0, 0xF, 0x1, 0x7};  // the last four: no pair
  for (const auto& i : spec().instructions) {
    if (i.cls != "sparse") continue;
    const ImeProfileEntry& e = *p.entry(i.sub_extension);
    const int bits = spec().data_type(i.type)->bits;
    const ImeSignedness* sg = spec().signedness_of(i);
    const int kc = e.k / 2, segments = i.type == "i4" ? 2 : 4;
    for (int trial = 0; trial < 12; ++trial) {
      const auto imm2 = static_cast<int>(rng() % static_cast<unsigned>(segments));
      const int vmask = static_cast<int>(rng() % 2);
      INFO(i.label() << " trial " << trial << " imm2 " << imm2 << " v" << vmask);
      const auto draw = [&](bool is_signed) { return draw_element(rng, bits, is_signed, trial == 0); };
      MatrixState s(p.vlen);
      std::vector<std::int64_t> a(static_cast<std::size_t>(e.m * e.k)), bc(static_cast<std::size_t>(e.n * kc));
      for (auto& x : a) x = draw(sg->a_signed);
      for (auto& x : bc) x = draw(sg->b_signed);
      std::vector<unsigned> mask(static_cast<std::size_t>(e.n * kc / 2));
      for (auto& m : mask) m = patterns[rng() % (trial < 6 ? 6 : 10)];
      const int vs1 = 4, vs2 = 10, vd = 16;
      for (std::size_t k = 0; k < a.size(); ++k) s.v.set(vs1, bits, k, static_cast<std::uint64_t>(a[k]));
      for (std::size_t k = 0; k < bc.size(); ++k) s.v.set(vs2, bits, k, static_cast<std::uint64_t>(bc[k]));
      // The mask register: random beyond the segment, the masks inside it.
      for (std::size_t b = 0; b < static_cast<std::size_t>(p.vlen / 8); ++b) s.v.set(vmask, 8, b, rng() & 0xFF);
      const std::size_t first = static_cast<std::size_t>(imm2 * (i.type == "i4" ? 512 : 256) / 4);
      for (std::size_t g = 0; g < mask.size(); ++g) s.v.set(vmask, 4, first + g, mask[g]);
      run("A100", fmt::format("{} v{}, v{}, v{}, v{}, {}, {}", i.mnemonic, vd, vs1, vs2, vmask, imm2, i.type), s);
      const auto c = c_tile(s, vd, static_cast<std::size_t>(e.m * e.n));
      for (int r = 0; r < e.m; ++r)
        for (int col = 0; col < e.n; ++col) {
          std::int64_t sum = 0;
          for (int g = 0; g < kc / 2; ++g) {
            const unsigned m = mask[static_cast<std::size_t>(col * kc / 2 + g)];
            std::int64_t dense[4] = {0, 0, 0, 0};
            int kept = 0;
            for (int pos = 0; pos < 4; ++pos)
              if ((m >> pos & 1U) != 0 && kept < 2)
                dense[pos] = bc[static_cast<std::size_t>(col * kc + 2 * g + kept++)];
            if (std::popcount(m) != 2) continue;
            for (int pos = 0; pos < 4; ++pos) sum += a[static_cast<std::size_t>(r * e.k + 4 * g + pos)] * dense[pos];
          }
          CHECK(c[static_cast<std::size_t>(r * e.n + col)] ==
                static_cast<std::int32_t>(static_cast<std::uint32_t>(sum)));
        }
    }
  }
}

TEST_CASE("ime model: every rule of execution, broken, is the illegal-instruction exception") {
  auto rule_of = [](const char* prof, const std::string& text, int lmul = 1, int sew = 8) {
    MatrixState s(profile(prof).vlen);
    s.lmul = ime::Lmul{lmul, 1};
    s.sew = sew;
    const auto illegal = ime::check(spec(), profile(prof), instr(text), s);
    if (illegal) {  // executed, it stops before writing anything
      for (std::size_t b = 0; b < s.v.bytes().size(); ++b) s.v.bytes()[b] = static_cast<std::uint8_t>(b * 7);
      const auto before = s.v.bytes();
      const auto again = ime::execute(spec(), profile(prof), instr(text), s);
      CHECK((again && again->rule == illegal->rule));
      CHECK(s.v.bytes() == before);
    }
    return illegal ? illegal->rule : std::string("legal");
  };
  // The notes' own vector smt.vmadot v2, v3, v4: vd's group v2..v3 holds vs1.
  CHECK(rule_of("A60", "smt.vmadot v2, v3, v4") == "vd_disjoint");
  CHECK(rule_of("A60", "smt.vmadot v2, v4, v3") == "vd_disjoint");
  CHECK(rule_of("A60", "smt.vmadot1 v4, v4, v8") == "vd_disjoint");
  CHECK(rule_of("A60", "smt.vmadot1 v4, v6, v8") == "legal");             // A takes v6 and v7, C v4 and v5
  CHECK(rule_of("A60", "smt.vmadot v4, v5, v8") == "vd_disjoint");        // v5 is vd + 1
  CHECK(rule_of("A60", "smt.vmadot v2, v4, v6, i4") == "sub_extension");  // int4 is the A100's
  CHECK(rule_of("A60", "smt.vfwmadot v2, v4, v6") == "sub_extension");
  CHECK(rule_of("A100", "smt.vmadot v2, v4, v6", 2) == "lmul_one");
  CHECK(rule_of("A100", "smt.vfwmadot1 v2, v5, v8") == "vs1_even");
  CHECK(rule_of("A100", "smt.vmadot.sp v2, v4, v6, v0, 2, i4") == "mask_segment");  // int4: two 512-bit segments
  CHECK(rule_of("A60", "smt.vpack.vv v2, v4, v6, 3") == "pack_len");                // 512-bit chunks on VLEN 256
  CHECK(rule_of("A60", "smt.vpack.vv v2, v4, v6, 0", 1, 64) == "legal");
  // The mask and scale registers are sources too (docs/ime.md, open point 5).
  CHECK(rule_of("A100", "smt.vmadot.sp v0, v4, v8, v1, 0, i8") == "vd_disjoint");  // vd's v0..v1 holds the mask v1
  CHECK(rule_of("A100", "smt.vmadot.sp v2, v4, v8, v1, 0, i8") == "legal");
  CHECK(rule_of("A100", "smt.vmadot.hp v0, v4, v8, v0, 0, i8") == "vd_disjoint");  // .hp's vd is one register
  CHECK(rule_of("A100", "smt.vmadot.hp v1, v4, v8, v0, 0, i8") == "legal");
  CHECK(rule_of("A60", "smt.vpack.vv v2, v3, v6, 0") == "vd_disjoint");  // vd+1 is vs1
  CHECK(rule_of("A60", "smt.vnpack.vv v6, v2, v6, 0") == "vd_disjoint");
  // At LMUL 2 the groups are two registers (vpack's destination four), each aligned to its size.
  CHECK(rule_of("A60", "smt.vpack.vv v4, v8, v10, 3", 2) == "legal");  // 512-bit chunks fit VLEN x 2
  CHECK(rule_of("A60", "smt.vpack.vv v4, v9, v10, 0", 2) == "lmul_group");
  CHECK(rule_of("A60", "smt.vpack.vv v2, v8, v10, 0", 2) == "lmul_group");    // vd's four from v2
  CHECK(rule_of("A60", "smt.vpack.vv v4, v6, v10, 0", 2) == "vd_disjoint");   // v4..v7 holds v6..v7
  CHECK(rule_of("A60", "smt.vnpack.vv v30, v8, v10, 0", 4) == "lmul_group");  // v30..v33
  // The narrowing forms the seed defines: 2 x SEW sources of at most 64 bits, in chunks that hold one.
  CHECK(rule_of("A100", "smt.vnpack4.vv v2, v4, v6, 0", 1, 16) == "narrow_widths");  // nibbles from 16-bit sources
  CHECK(rule_of("A100", "smt.vnpack.vv v2, v4, v6, 3", 1, 64) == "narrow_widths");   // 128-bit sources
  CHECK(rule_of("A100", "smt.vnspack.vv v2, v4, v6, 0", 1, 32) == "narrow_widths");  // 64-bit sources, 32-bit chunks
  CHECK(rule_of("A100", "smt.vnspack.vv v2, v4, v6, 1", 1, 32) == "legal");
  MatrixState half(256);
  half.lmul = ime::Lmul{1, 2};
  const auto frac = ime::check(spec(), profile("A60"), instr("smt.vpack.vv v4, v8, v10, 0"), half);
  CHECK((frac && frac->rule == "lmul_group"));
}

TEST_CASE("ime model: vupack undoes vpack at every granularity and element width, vpack at SEW is a zip") {
  std::mt19937_64 rng(7);
  for (const char* pname : {"A60", "A100"}) {
    const ImeProfile& p = profile(pname);
    for (const int sew : {8, 16, 32, 64})
      for (int imm2 = 0; imm2 < 4; ++imm2) {
        MatrixState s(p.vlen);
        s.sew = sew;
        for (auto& byte : s.v.bytes()) byte = static_cast<std::uint8_t>(rng());
        const std::string pack_text = fmt::format("smt.vpack.vv v6, v2, v3, {}", imm2);
        if (ime::check(spec(), p, instr(pack_text), s)) continue;  // a chunk wider than VLEN: pack_len's rule
        INFO(pname << " SEW " << sew << " imm2 " << imm2);
        const auto a = s.v.get(2, sew, 1), b = s.v.get(3, sew, 0);
        const MatrixState before = s;
        run(pname, pack_text, s);
        if (imm2 == 0) {  // chunks of one element: vd, vd+1 = a0 b0 a1 b1 ...
          CHECK(s.v.get(6, sew, 2) == a);
          CHECK(s.v.get(6, sew, 1) == b);
        }
        run(pname, fmt::format("smt.vupack.vv v10, v6, v7, {}", imm2), s);
        const std::size_t reg = static_cast<std::size_t>(p.vlen / 8);
        CHECK(std::equal(s.v.bytes().begin() + 10 * reg, s.v.bytes().begin() + 12 * reg,
                         before.v.bytes().begin() + 2 * reg));
      }
  }
}

// At LMUL > 1 each source is a group of LMUL registers and vpack's
// destination one of 2 x LMUL: the chunks interleave over the whole groups.
TEST_CASE("ime model: the layout instructions at LMUL 2 and 4 work on register groups") {
  std::mt19937_64 rng(8);
  for (const int lmul : {2, 4})
    for (const int sew : {8, 32})
      for (int imm2 = 0; imm2 < 4; ++imm2) {
        MatrixState s(256);
        s.sew = sew;
        s.lmul = ime::Lmul{lmul, 1};
        for (auto& byte : s.v.bytes()) byte = static_cast<std::uint8_t>(rng());
        INFO("LMUL " << lmul << " SEW " << sew << " imm2 " << imm2);
        const MatrixState before = s;
        run("A60", fmt::format("smt.vpack.vv v16, v8, v12, {}", imm2), s);
        const std::size_t per_group = static_cast<std::size_t>(256 * lmul / sew);
        const std::size_t n = static_cast<std::size_t>((imm2 == 0 ? sew : 64 << imm2) / sew);
        for (std::size_t k = 0; k < per_group; ++k) {  // chunk p of vs1 at 2p n, of vs2 at 2p n + n
          const std::size_t p = k / n, i = k % n;
          CHECK(s.v.get(16, sew, 2 * p * n + i) == before.v.get(8, sew, k));
          CHECK(s.v.get(16, sew, 2 * p * n + n + i) == before.v.get(12, sew, k));
        }
        run("A60", fmt::format("smt.vupack.vv v24, v16, v{}, {}", 16 + lmul, imm2), s);
        for (std::size_t k = 0; k < per_group; ++k) {
          CHECK(s.v.get(24, sew, k) == before.v.get(8, sew, k));
          CHECK(s.v.get(24 + lmul, sew, k) == before.v.get(12, sew, k));
        }
        // vnpack: the groups' 2 x SEW elements narrowed, chunk by chunk, into vd's group.
        if (sew == 32) continue;
        MatrixState t = before;
        const int len = 32 << imm2;
        if (len > 256 * lmul) continue;
        run("A60", fmt::format("smt.vnpack.vv v20, v8, v12, {}", imm2), t);
        const std::size_t ns = static_cast<std::size_t>(len / (2 * sew)), src = per_group / 2;
        for (std::size_t k = 0; k < src; ++k) {
          const std::size_t p = k / ns, i = k % ns;
          CHECK(t.v.get(20, sew, 2 * p * ns + i) == (before.v.get(8, 2 * sew, k) & 0xFF));
          CHECK(t.v.get(20, sew, 2 * p * ns + ns + i) == (before.v.get(12, 2 * sew, k) & 0xFF));
        }
      }
}

TEST_CASE("ime model: vnpack keeps the low bits and vnspack saturates, chunk by chunk from vs1 then vs2") {
  MatrixState s(256);
  s.sew = 8;  // the destination's width: the sources are 16-bit
  const std::vector<std::uint64_t> a = {0x1234, 0x7FFF, 0x8000, 0x0100, 0xFF80, 0x0005};
  const std::vector<std::uint64_t> b = {0xABCD, 0xFFFF, 0x007F, 0x0080, 0xFF7F, 0x0002};
  for (std::size_t k = 0; k < a.size(); ++k) {
    s.v.set(2, 16, k, a[k]);
    s.v.set(3, 16, k, b[k]);
  }
  MatrixState t = s;
  run("A60", "smt.vnpack.vv v5, v2, v3, 0", s);  // 32-bit chunks: two sources' elements each
  const std::vector<std::uint64_t> plain = {0x34, 0xFF, 0xCD, 0xFF, 0x00, 0x00, 0x7F, 0x80, 0x80, 0x05, 0x7F, 0x02};
  for (std::size_t k = 0; k < plain.size(); ++k) CHECK(s.v.get(5, 8, k) == plain[k]);
  run("A60", "smt.vnspack.vv v5, v2, v3, 0", t);
  const std::vector<std::uint64_t> sat = {0x7F, 0x7F, 0x80, 0xFF, 0x80, 0x7F, 0x7F, 0x7F, 0x80, 0x05, 0x80, 0x02};
  for (std::size_t k = 0; k < sat.size(); ++k) CHECK(t.v.get(5, 8, k) == sat[k]);
}

namespace {

/// fp16 bits of a small integer (exact: |v| < 2048), the test's own encoding.
std::uint16_t fp16_of(int v) {
  if (v == 0) return 0;
  const unsigned sign = v < 0 ? 0x8000U : 0U;
  unsigned a = static_cast<unsigned>(v < 0 ? -v : v);
  int e = 0;
  while ((a >> (e + 1)) != 0) ++e;
  const unsigned frac = (a << (10 - e)) & 0x3FFU;
  return static_cast<std::uint16_t>(sign | (static_cast<unsigned>(e + 15) << 10) | frac);
}

/// The fp32 C tile from register r on, as floats.
std::vector<float> c_float(const MatrixState& s, int r, std::size_t count) {
  std::vector<float> c;
  for (std::size_t i = 0; i < count; ++i)
    c.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(s.v.get(r, 32, i))));
  return c;
}

/// 8 x 8 fp16 rows r = [r .. r + 7] from register `reg` on, `rows` of them.
void load_fp16_rows(MatrixState& s, int reg, int rows) {
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < 8; ++k) s.v.set(reg, 16, static_cast<std::size_t>(r * 8 + k), fp16_of(r + k));
}

}  // namespace

TEST_CASE("ime model: fp16 and bf16 widen exactly to binary32") {
  CHECK(ime::fp16_to_float(0x3C00) == 1.0f);
  CHECK(ime::fp16_to_float(0x7BFF) == 65504.0f);
  CHECK(ime::fp16_to_float(0x0001) == std::ldexp(1.0f, -24));  // the smallest subnormal
  CHECK(ime::fp16_to_float(0x03FF) == std::ldexp(1023.0f, -24));
  CHECK(ime::fp16_to_float(0x0400) == std::ldexp(1.0f, -14));  // the smallest normal
  CHECK(ime::fp16_to_float(0xC000) == -2.0f);
  CHECK(std::bit_cast<std::uint32_t>(ime::fp16_to_float(0x8000)) == 0x80000000U);
  CHECK(ime::fp16_to_float(0x7C00) == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(ime::fp16_to_float(0x7E00)));
  CHECK(ime::bf16_to_float(0x3F80) == 1.0f);
  CHECK(ime::bf16_to_float(0xFF80) == -std::numeric_limits<float>::infinity());
  for (int v = -2047; v <= 2047; ++v) CHECK(ime::fp16_to_float(fp16_of(v)) == static_cast<float>(v));
  for (unsigned f = 1; f < 1024; ++f) {  // every subnormal, either sign
    CHECK(ime::fp16_to_float(static_cast<std::uint16_t>(f)) == std::ldexp(static_cast<float>(f), -24));
    CHECK(ime::fp16_to_float(static_cast<std::uint16_t>(0x8000U | f)) == -std::ldexp(static_cast<float>(f), -24));
  }
}

TEST_CASE("ime model: the seed's A100 vfwmadot examples (6.1.6, 6.2.6)") {
  MatrixState s(1024);
  load_fp16_rows(s, 2, 8);
  load_fp16_rows(s, 8, 8);
  run("A100", "smt.vfwmadot v16, v2, v8", s);
  const auto c5 = c_float(s, 16, 64);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      CHECK(c5[static_cast<std::size_t>(r * 8 + c)] == static_cast<float>(140 + 28 * (r + c) + 8 * r * c));
  MatrixState t(1024);
  load_fp16_rows(t, 0, 16);  // sixteen rows over v0 and v1
  load_fp16_rows(t, 8, 8);
  run("A100", "smt.vfwmadot v16, v0, v8", t);
  run("A100", "smt.vfwmadot1 v16, v0, v8", t);
  const auto after1 = c_float(t, 16, 64);
  CHECK(after1[0] == 308);
  CHECK(after1[7] == 756);
  CHECK(after1[63] == 1932);
  run("A100", "smt.vfwmadot2 v16, v0, v8", t);
  const auto after2 = c_float(t, 16, 64);
  CHECK(after2[0] == 504);
  CHECK(after2[8 * 3 + 5] == 1656);
  CHECK(after2[63] == 3024);
  // Each step adds A's rows from the slide on: the plain sums of all three.
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      int sum = 0;
      for (int sl = 0; sl <= 2; ++sl)
        for (int k = 0; k < 8; ++k) sum += (r + sl + k) * (c + k);
      CHECK(after2[static_cast<std::size_t>(r * 8 + c)] == static_cast<float>(sum));
    }
}

TEST_CASE("ime model: vfwmadot on random integer-valued tiles equals the exact matmul, fp16 and bf16") {
  std::mt19937_64 rng(99);
  for (const bool bf16 : {false, true}) {
    for (int trial = 0; trial < 10; ++trial) {
      MatrixState s(1024);
      s.bf16 = bf16;
      std::vector<std::int64_t> a(64), b(64);
      for (auto& x : a) x = static_cast<std::int64_t>(rng() % 129) - 64;  // exact in bf16 too, sums exact in fp32
      for (auto& x : b) x = static_cast<std::int64_t>(rng() % 129) - 64;
      for (std::size_t k = 0; k < 64; ++k) {
        const auto enc = [&](std::int64_t v) -> std::uint64_t {
          return bf16 ? std::bit_cast<std::uint32_t>(static_cast<float>(v)) >> 16 : fp16_of(static_cast<int>(v));
        };
        s.v.set(4, 16, k, enc(a[k]));
        s.v.set(6, 16, k, enc(b[k]));
      }
      run("A100", "smt.vfwmadot v10, v4, v6", s);
      const auto c = c_float(s, 10, 64);
      for (int r = 0; r < 8; ++r)
        for (int col = 0; col < 8; ++col) {
          CHECK(c[static_cast<std::size_t>(r * 8 + col)] == static_cast<float>(plain_dot(a, r, b, col, 8)));
        }
    }
  }
}

TEST_CASE("ime model: vfwmadot's extremes: subnormal products, overflow to infinity, canonical NaN") {
  auto one_product = [](bool bf16, std::uint16_t a, std::uint16_t b) {
    MatrixState s(1024);
    s.bf16 = bf16;
    s.v.set(4, 16, 0, a);  // A[0][0] and B^T[0][0]; every other element +0
    s.v.set(6, 16, 0, b);
    run("A100", "smt.vfwmadot v10, v4, v6", s);
    return static_cast<std::uint32_t>(s.v.get(10, 32, 0));
  };
  CHECK(one_product(false, 0x0001, 0x0001) == 0x27800000U);  // 2^-24 x 2^-24 = 2^-48, exact in binary32
  CHECK(one_product(false, 0x7BFF, 0x7BFF) == std::bit_cast<std::uint32_t>(65504.0f * 65504.0f));
  CHECK(one_product(true, 0x7F7F, 0x7F7F) == 0x7F800000U);   // bf16's largest squared: +infinity
  CHECK(one_product(false, 0x7C00, 0x0000) == 0x7FC00000U);  // infinity x 0: the canonical NaN
  CHECK(one_product(false, 0x7E01, 0x3C00) == 0x7FC00000U);  // a NaN's payload is not kept
  CHECK(one_product(false, 0x8000, 0x3C00) == 0x00000000U);  // -0 + (+0 sums of the rest) = +0
}

namespace {

/// The value of a finite fp16 magnitude (bits 0x0000 .. 0x7BFF), from its
/// fields: the test's own decoding, not the model's.
double fp16_magnitude(std::uint32_t h) {
  const std::uint32_t exponent = h >> 10, mantissa = h & 0x3FFU;
  return exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, static_cast<int>(exponent) - 25);
}

/// The reference for tpugen's rounding: the fp16 nearest to x, ties to the
/// even one, found by searching fp16's ordered magnitudes and comparing with
/// the midpoint of the two around x (exact in double); at or past 65520 (the
/// tie above the largest value) infinity. Independent of the model's
/// algorithm and of the compiler (clang 14, which builds the sanitizer
/// preset, has no _Float16 on x86; where the compiler has it, the test below
/// holds this reference to the compiler's own conversion too).
std::uint16_t nearest_fp16(double x) {
  const auto sign = static_cast<std::uint16_t>(std::signbit(x) ? 0x8000U : 0U);
  const double a = std::fabs(x);
  if (std::isnan(x)) return 0x7E00;
  if (a >= 65520.0) return static_cast<std::uint16_t>(sign | 0x7C00U);
  std::uint32_t lo = 0, hi = 0x7BFF;  // the largest magnitude at or below a
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi + 1) / 2;
    if (fp16_magnitude(mid) <= a) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  std::uint32_t h = lo;
  if (lo < 0x7BFF) {
    const double midpoint = (fp16_magnitude(lo) + fp16_magnitude(lo + 1)) / 2;
    if (a > midpoint || (a == midpoint && (lo & 1U) != 0)) h = lo + 1;
  }
  return static_cast<std::uint16_t>(sign | h);
}

/// bf16 of a finite float by the usual bit trick: round the low half away,
/// to nearest even (the test's own, independent of round_to_binary).
std::uint16_t trick_bf16(float f) {
  const std::uint32_t b = std::bit_cast<std::uint32_t>(f);
  return static_cast<std::uint16_t>((b + 0x7FFFU + ((b >> 16) & 1U)) >> 16);
}

}  // namespace

TEST_CASE("ime model: rounding to fp16 and bf16 agrees with independent references") {
  // Every fp16 and bf16 value comes back as itself (NaNs as the canonical NaN).
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto x = static_cast<std::uint16_t>(h);
    const float f16 = ime::fp16_to_float(x), b16 = ime::bf16_to_float(x);
    CHECK(ime::round_to_fp16(f16) == (std::isnan(f16) ? 0x7E00 : x));
    CHECK(ime::round_to_bf16(b16) == (std::isnan(b16) ? 0x7FC0 : x));
  }
  // Random doubles over fp16's range and past it, and every midpoint of two
  // neighbours (the ties), against the reference.
  std::mt19937_64 rng(16);
  for (int i = 0; i < 200000; ++i) {
    const double x =
        std::ldexp(static_cast<double>(rng() >> 11) / 9007199254740992.0, static_cast<int>(rng() % 48) - 30) *
        ((rng() & 1) != 0 ? -1 : 1);
    INFO(x);
    CHECK(ime::round_to_fp16(x) == nearest_fp16(x));
#ifdef __FLT16_MANT_DIG__  // the compiler has _Float16 (gcc, which builds the default preset; clang from 15)
    CHECK(nearest_fp16(x) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(x)));
#endif
  }
  for (std::uint32_t h = 0; h < 0x7BFF; ++h) {
    const double mid = (static_cast<double>(ime::fp16_to_float(static_cast<std::uint16_t>(h))) +
                        static_cast<double>(ime::fp16_to_float(static_cast<std::uint16_t>(h + 1)))) /
                       2;
    CHECK(ime::round_to_fp16(mid) == nearest_fp16(mid));
#ifdef __FLT16_MANT_DIG__
    CHECK(nearest_fp16(mid) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(mid)));
#endif
  }
  CHECK(ime::round_to_fp16(65520.0) == 0x7C00);  // the tie above the largest value overflows
  CHECK(ime::round_to_fp16(16744.0) == nearest_fp16(16744.0));
  // bf16 against the bit trick, on random finite floats and on ties.
  for (int i = 0; i < 200000; ++i) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()) & 0xFF7FFFFFU);  // no Inf/NaN exponent
    CHECK(ime::round_to_bf16(f) == trick_bf16(f));
  }
}

TEST_CASE("ime model: the seed's A100 smt.vmadot.hp example (5.4.7), its three rounded values included") {
  MatrixState s(1024);
  std::vector<int> rows;
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 16; ++k) rows.push_back(r + k);
  load_bytes(s, 2, rows);
  load_bytes(s, 8, rows);
  for (int c = 0; c < 8; ++c) s.v.set(0, 16, static_cast<std::size_t>(c), fp16_of(c + 1));
  run("A100", "smt.vmadot.hp v16, v2, v8, v0, 0, i8", s);
  const std::vector<int> expected = {
      1240, 2720, 4440, 6400,  8600,  11040, 13720, 16640, 1360, 2992, 4896, 7072,  9520,  12240, 15232, 18496,
      1480, 3264, 5352, 7744,  10440, 13440, 16736, 20352, 1600, 3536, 5808, 8416,  11360, 14640, 18256, 22208,
      1720, 3808, 6264, 9088,  12280, 15840, 19776, 24064, 1840, 4080, 6720, 9760,  13200, 17040, 21280, 25920,
      1960, 4352, 7176, 10432, 14120, 18240, 22784, 27776, 2080, 4624, 7632, 11104, 15040, 19440, 24304, 29632};
  for (std::size_t p = 0; p < 64; ++p) {
    INFO("C[" << p / 8 << "][" << p % 8 << "]");
    CHECK(ime::fp16_to_float(static_cast<std::uint16_t>(s.v.get(16, 16, p))) == static_cast<float>(expected[p]));
  }
}

// The plain reference for .hp in fp16: the integer sum, then nearest_fp16's
// binary16 rounding at each of the three steps, on random tiles, scales and
// accumulators (sums past 65504 included: infinity), every variant.
TEST_CASE("ime model: .hp instructions equal the exact sum rounded step by step (fp16), on random tiles") {
  std::mt19937_64 rng(5);
  const ImeProfile& p = profile("A100");
  for (const auto& i : spec().instructions) {
    if (i.cls != "quant") continue;
    const ImeProfileEntry& e = *p.entry(i.sub_extension);
    const int bits = spec().data_type(i.type)->bits;
    const ImeSignedness* sg = spec().signedness_of(i);
    for (int trial = 0; trial < 6; ++trial) {
      INFO(i.label() << " trial " << trial);
      MatrixState s(p.vlen);
      const int vs1 = 4, vs2 = 6, vd = 9, vscale = static_cast<int>(rng() % 2), imm3 = static_cast<int>(rng() % 8);
      std::vector<std::int64_t> a(static_cast<std::size_t>(e.m * e.k)), b(static_cast<std::size_t>(e.n * e.k));
      const auto draw = [&](bool is_signed) { return draw_element(rng, bits, is_signed); };
      for (auto& x : a) x = draw(sg->a_signed);
      for (auto& x : b) x = draw(sg->b_signed);
      for (std::size_t k = 0; k < a.size(); ++k) s.v.set(vs1, bits, k, static_cast<std::uint64_t>(a[k]));
      for (std::size_t k = 0; k < b.size(); ++k) s.v.set(vs2, bits, k, static_cast<std::uint64_t>(b[k]));
      std::vector<std::uint16_t> scale(8), c0(64);
      for (auto& x : scale)
        x = nearest_fp16(std::ldexp(static_cast<double>(rng() % 2048) - 1024, -static_cast<int>(rng() % 12)));
      for (auto& x : c0) x = nearest_fp16(static_cast<double>(static_cast<int>(rng() % 20001) - 10000) / 4);
      for (std::size_t c = 0; c < 8; ++c) s.v.set(vscale, 16, static_cast<std::size_t>(imm3 * 8) + c, scale[c]);
      for (std::size_t k = 0; k < 64; ++k) s.v.set(vd, 16, k, c0[k]);
      run("A100", fmt::format("{} v{}, v{}, v{}, v{}, {}, {}", i.mnemonic, vd, vs1, vs2, vscale, imm3, i.type), s);
      const auto f = [](std::uint16_t h) { return static_cast<double>(ime::fp16_to_float(h)); };
      for (int r = 0; r < 8; ++r)
        for (int col = 0; col < 8; ++col) {
          const std::int64_t sum = plain_dot(a, r, b, col, e.k);
          const std::uint16_t prod =
              nearest_fp16(f(nearest_fp16(static_cast<double>(sum))) * f(scale[static_cast<std::size_t>(col)]));
          std::uint16_t want = nearest_fp16(f(c0[static_cast<std::size_t>(r * 8 + col)]) + f(prod));
          if (std::isnan(f(want))) want = 0x7E00;
          CHECK(s.v.get(vd, 16, static_cast<std::size_t>(r * 8 + col)) == want);
        }
    }
  }
}

// The same in bf16 (MCPM.BF16 = 1), the reference rounding by the bit trick
// on binary32: the integer sums are exact in binary32 and so are the
// products of two bf16; C starts at zero, so the add is exact too (a
// nonzero C's add is the same rounding, held against libgcc in fp16 above).
TEST_CASE("ime model: .hp in bf16 equals the sum and the product rounded by the bit trick") {
  std::mt19937_64 rng(6);
  const ImeProfile& p = profile("A100");
  for (const auto& i : spec().instructions) {
    if (i.cls != "quant") continue;
    const ImeProfileEntry& e = *p.entry(i.sub_extension);
    const int bits = spec().data_type(i.type)->bits;
    const ImeSignedness* sg = spec().signedness_of(i);
    MatrixState s(p.vlen);
    s.bf16 = true;
    std::vector<std::int64_t> a(static_cast<std::size_t>(e.m * e.k)), b(static_cast<std::size_t>(e.n * e.k));
    const auto draw = [&](bool is_signed) { return draw_element(rng, bits, is_signed); };
    for (auto& x : a) x = draw(sg->a_signed);
    for (auto& x : b) x = draw(sg->b_signed);
    for (std::size_t k = 0; k < a.size(); ++k) s.v.set(4, bits, k, static_cast<std::uint64_t>(a[k]));
    for (std::size_t k = 0; k < b.size(); ++k) s.v.set(6, bits, k, static_cast<std::uint64_t>(b[k]));
    std::vector<std::uint16_t> scale(8);
    for (auto& x : scale)
      x = trick_bf16(std::ldexp(static_cast<float>(rng() % 256) - 128, -static_cast<int>(rng() % 20)));
    for (std::size_t c = 0; c < 8; ++c) s.v.set(1, 16, 24 + c, scale[c]);  // group 3 of v1
    run("A100", fmt::format("{} v9, v4, v6, v1, 3, {}", i.mnemonic, i.type), s);
    INFO(i.label());
    for (int r = 0; r < 8; ++r)
      for (int col = 0; col < 8; ++col) {
        const std::int64_t sum = plain_dot(a, r, b, col, e.k);
        const float tmp = ime::bf16_to_float(trick_bf16(static_cast<float>(sum)));
        const std::uint16_t want = trick_bf16(tmp * ime::bf16_to_float(scale[static_cast<std::size_t>(col)]));
        CHECK(s.v.get(9, 16, static_cast<std::size_t>(r * 8 + col)) == (want == 0x8000 ? 0x0000 : want));
      }
  }
}

TEST_CASE("ime model: vnpack4 and vnspack4 narrow int8 to nibbles, two to a byte, chunk by chunk") {
  MatrixState s(256);
  s.sew = 8;
  const std::vector<int> a = {0x12, 0x7F, 0x80, 0x05, 0xF0, 0xFE, 0x09, 0x08};
  const std::vector<int> b = {0x34, 0x01, 0xF9, 0xF8, 0x77, 0x00, 0x88, 0x07};
  load_bytes(s, 2, a);
  load_bytes(s, 3, b);
  MatrixState t = s;
  run("A60", "smt.vnpack4.vv v5, v2, v3, 0", s);  // 32-bit chunks: four int8 of vs1, then four of vs2
  // low nibbles: a0 a1 | a2 a3 | b0 b1 | b2 b3 | a4 a5 | a6 a7 | b4 b5 | b6 b7
  const std::vector<int> plain = {0xF2, 0x50, 0x14, 0x89, 0xE0, 0x89, 0x07, 0x78};
  for (std::size_t k = 0; k < plain.size(); ++k) CHECK(s.v.get(5, 8, k) == static_cast<std::uint64_t>(plain[k]));
  run("A60", "smt.vnspack4.vv v5, v2, v3, 0", t);  // saturated to -8 .. 7 first
  const std::vector<int> sat = {0x77, 0x58, 0x17, 0x89, 0xE8, 0x77, 0x07, 0x78};
  for (std::size_t k = 0; k < sat.size(); ++k) CHECK(t.v.get(5, 8, k) == static_cast<std::uint64_t>(sat[k]));
}

TEST_CASE("ime model: a rule the spec names and the model does not know stops the run") {
  ImeSpec edited = spec();
  for (auto& c : edited.classes)
    if (c.name == "base") c.rules.push_back("vd_odd");
  MatrixState s(256);
  CHECK_THROWS_WITH(ime::check(edited, *edited.profile("A60"), instr("smt.vmadot v2, v4, v6"), s),
                    Catch::Contains("does not know the rule vd_odd"));
}

TEST_CASE("ime model: an instruction the spec adds and the model does not know is refused, not run wrongly") {
  const ImeSpec edited = load_ime_spec_text(
      test::edited_text(TPUGEN_SOURCE_DIR "/spec/ime.yaml", "{mnemonic: smt.vnspack4.vv,", "{mnemonic: smt.vnspack8.vv,"),
      "edited.yaml");
  MatrixState s(256);
  CHECK_THROWS_WITH(
      ime::execute(edited, *edited.profile("A60"), ime::parse(edited, "smt.vnspack8.vv v2, v4, v6, 0"), s),
      Catch::Contains("not a narrowing form the model knows"));
}

// A profile of one's own is a new entry of the spec, its tiles derived as
// A60's and A100's are; the model runs it like them.
TEST_CASE("ime model: a profile of one's own (VLEN 512) derives its tile and runs against the plain matmul") {
  const std::string own =
      test::edited_text(TPUGEN_SOURCE_DIR "/spec/ime.yaml", "profiles:\n",
                        "profiles:\n  - name: X512\n    vlen: 512\n    supports:\n"
                        "      - {sub_extension: Xsmti8i32mm, lambda: 2, sew: 32, w: 4, tile: [8, 8, 8]}\n");
  const ImeSpec s = load_ime_spec_text(own, "own.yaml");
  const ImeProfile& p = *s.profile("X512");
  const ImeProfileEntry& e = *p.entry("Xsmti8i32mm");
  CHECK((e.m == 8 && e.k == 8 && e.n == 8 && e.mul_c == 4));  // C: 8 x 8 int32, four registers of 512 bits
  CHECK_THROWS_WITH(load_ime_spec_text(test::edited_text(TPUGEN_SOURCE_DIR "/spec/ime.yaml", "profiles:\n",
                                                         "profiles:\n  - name: X512\n    vlen: 512\n    supports:\n"
                                                         "      - {sub_extension: Xsmti8i32mm, lambda: 2, sew: 32, "
                                                         "w: 4, tile: [4, 8, 4]}\n"),
                                       "own.yaml"),
                    Catch::Contains("the derivation gives a 8 x 8 x 8 tile, not the 4 x 8 x 4 written"));
  std::mt19937_64 rng(512);
  MatrixState st(p.vlen);
  std::vector<std::int64_t> a(64), bt(64);
  for (auto& x : a) x = draw_element(rng, 8, true);
  for (auto& x : bt) x = draw_element(rng, 8, true);
  for (std::size_t k = 0; k < 64; ++k) {
    st.v.set(2, 8, k, static_cast<std::uint64_t>(a[k]));
    st.v.set(3, 8, k, static_cast<std::uint64_t>(bt[k]));
  }
  REQUIRE_FALSE(ime::execute(s, p, ime::parse(s, "smt.vmadot v8, v2, v3"), st));
  const auto c = c_tile(st, 8, 64);
  for (int r = 0; r < 8; ++r)
    for (int col = 0; col < 8; ++col)
      CHECK(c[static_cast<std::size_t>(r * 8 + col)] == static_cast<std::int32_t>(plain_dot(a, r, bt, col, 8)));
  // Its vd group is four registers: v8 .. v11, so a source in v10 overlaps it.
  const auto illegal = ime::check(s, p, ime::parse(s, "smt.vmadot v8, v10, v3"), st);
  CHECK((illegal && illegal->rule == "vd_disjoint"));
}
