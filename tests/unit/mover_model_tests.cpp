// The memory mover's reference model (tb/model/mover): its registers, every
// mode, bounds and padding, broadcast, held walkers, every fault in check
// order with nothing written, AXI errors; expected values are worked out
// from mover-notes.md by hand or by a second, deliberately plain walk.
#include <catch2/catch.hpp>
#include <functional>
#include <random>

#include "model/mover/descriptor.h"
#include "model/mover/memory.h"
#include "model/mover/mover_model.h"
#include "model/mover/philox.h"
#include "model/mover/quantiser.h"
#include "model/mover/walker.h"
#include "memory_image_support.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::mover;

namespace {

const SystemNodeSpec& spec() { return test::shipped_system_node_spec(); }

constexpr std::uint64_t kBase = test::kImageBase;
constexpr std::size_t kSize = test::kImageSize;
constexpr std::uint32_t kCopy = 0, kGather = 2, kGenerate = 3, kFill = 4, kXform = 5;  // mover-notes §1
constexpr int kSrc = 0, kDst = 1;

MoverMemory patterned() { return test::patterned_image(); }

MoverWord word_at(const MoverMemory& m, std::uint64_t address) { return test::image_word(m, address); }

/// A walker of the given dims {count, stride} (outermost first).
WalkerDesc walker(std::uint64_t base, std::vector<std::pair<std::uint32_t, std::int64_t>> dims) {
  WalkerDesc w;
  w.base = base;
  w.ndim = static_cast<std::uint32_t>(dims.size());
  for (std::size_t i = 0; i < dims.size(); ++i) w.dims[i] = {dims[i].first, dims[i].second, 0, 0};
  return w;
}

MoveDescriptor copy(WalkerDesc src, WalkerDesc dst) {
  MoveDescriptor d;
  d.mode = kCopy;
  d.walkers[kSrc] = src;
  d.walkers[kDst] = dst;
  return d;
}

/// Fault codes by name from the contract (mover-notes §4), not from the spec.
constexpr std::uint32_t kIndexLength = 1, kRange = 2, kAxi = 3, kMode = 4, kElemWidth = 5, kAlignment = 6,
                        kXformBound = 7;

/// The expected result of a COPY, by a plain walk: six nested loops over
/// the destination's live dimensions in order, the source's element found by
/// counting (held at its last), bounds by the coordinate formula.
void plain_copy(const MoveDescriptor& d, MoverMemory& mem) {
  const MoverWord fill = fill_word(d.imm, 8 << d.elem_width);
  struct Pos {
    std::int64_t address;
    bool in_bounds;
  };
  auto elements_of = [](const WalkerDesc& w) {
    std::vector<Pos> out;
    const int live = w.ndim > 6 ? 6 : static_cast<int>(w.ndim);
    std::vector<std::int64_t> index(6, 0);
    std::function<void(int)> loop = [&](int dim) {
      if (dim == live) {
        std::int64_t address = static_cast<std::int64_t>(w.base);
        std::int64_t c[2] = {w.axes[0].abase, w.axes[1].abase};
        for (int k = 0; k < live; ++k) {
          address += index[static_cast<std::size_t>(k)] * w.dims[static_cast<std::size_t>(k)].stride;
          const std::uint32_t sel = w.dims[static_cast<std::size_t>(k)].bound_sel;
          if (sel == 1 || sel == 2)
            c[sel - 1] += index[static_cast<std::size_t>(k)] * w.dims[static_cast<std::size_t>(k)].astep;
        }
        bool in = true;
        for (int a = 0; a < 2; ++a) {
          const auto coord = static_cast<std::int16_t>(static_cast<std::uint16_t>(c[a] & 0xFFFF));
          if (w.axes[static_cast<std::size_t>(a)].extent != 0 &&
              (coord < 0 || coord >= static_cast<std::int64_t>(w.axes[static_cast<std::size_t>(a)].extent)))
            in = false;
        }
        out.push_back({address, in});
        return;
      }
      const std::uint32_t n =
          w.dims[static_cast<std::size_t>(dim)].count == 0 ? 1 : w.dims[static_cast<std::size_t>(dim)].count;
      for (std::uint32_t i = 0; i < n; ++i) {
        index[static_cast<std::size_t>(dim)] = i;
        loop(dim + 1);
      }
    };
    loop(0);
    return out;
  };
  const std::vector<Pos> src = elements_of(d.walkers[kSrc]);
  const std::vector<Pos> dst = elements_of(d.walkers[kDst]);
  for (std::size_t e = 0; e < dst.size(); ++e) {
    if (!dst[e].in_bounds) continue;
    const Pos& s = src[std::min(e, src.size() - 1)];
    MoverWord w = fill;
    if (s.in_bounds) REQUIRE(mem.read(static_cast<std::uint64_t>(s.address), w) == Resp::Okay);
    REQUIRE(mem.write(static_cast<std::uint64_t>(dst[e].address), w) == Resp::Okay);
  }
}

}  // namespace

TEST_CASE("mover: the register file resets, stages, commits and places fields as the notes' map", "[mover][model]") {
  MoverRegisterFile regs(spec());
  const MoveDescriptor& d = regs.descriptor();
  CHECK(d.elem_width == 1);
  CHECK(d.gather_words == 1);
  CHECK(d.walkers[kSrc].ndim == 1);
  CHECK(d.walkers[kDst].ndim == 1);
  CHECK(d.walkers[kDst].dims[3].count == 0);
  // 0x10: [0] walker, [43:4] base, [46:44] ndim.
  CHECK_FALSE(regs.write(0x10, 1 | (0x12340ULL << 4) | (3ULL << 44)));
  CHECK(d.walkers[kDst].base == 0x12340);
  CHECK(d.walkers[kDst].ndim == 3);
  CHECK(d.walkers[kSrc].base == 0);
  // 0x18 stages {walker, dimension, count, stride}; 0x20 commits with {bound_sel, astep}.
  const std::uint64_t stride = static_cast<std::uint32_t>(-64);
  regs.write(0x18, 1 | (2ULL << 1) | (5ULL << 4) | (stride << 20));
  CHECK(d.walkers[kDst].dims[2].count == 0);  // staged, not yet committed
  regs.write(0x20, 2 | (static_cast<std::uint64_t>(0xFFFE) << 2));
  CHECK(d.walkers[kDst].dims[2].count == 5);
  CHECK(d.walkers[kDst].dims[2].stride == -64);
  CHECK(d.walkers[kDst].dims[2].bound_sel == 2);
  CHECK(d.walkers[kDst].dims[2].astep == -2);
  // A commit of dimension 6 or 7 changes nothing.
  const MoveDescriptor before = d;
  regs.write(0x18, (6ULL << 1) | (9ULL << 4));
  regs.write(0x20, 1);
  regs.write(0x18, (7ULL << 1) | (9ULL << 4));
  regs.write(0x20, 1);
  CHECK(d == before);
  // 0x28: [0] walker, [1] axis, [17:2] abase, [33:18] extent.
  regs.write(0x28, 0 | (1ULL << 1) | (static_cast<std::uint64_t>(0xFFFD) << 2) | (40ULL << 18));
  CHECK(d.walkers[kSrc].axes[1].abase == -3);
  CHECK(d.walkers[kSrc].axes[1].extent == 40);
  // 0x30, 0x38, 0x40, 0x50.
  regs.write(0x30, 0x80ULL | (2048ULL << 40));
  CHECK((d.index_base == 0x80 && d.index_count == 2048));
  regs.write(0x38, 0xFEDCBA9876543210ULL);
  CHECK(d.seed == 0xFEDCBA9876543210ULL);
  regs.write(0x40, 0xFFFFFFFF1234ABCDULL);
  CHECK(d.imm == 0x1234ABCD);
  regs.write(0x50, 96 | (3ULL << 32));
  CHECK((d.pitch == 96 && d.gather_words == 3));
  // 0x00: mode, element width, flags, GO, XFORM_ID, XFORM_MODE.
  CHECK(regs.write(0x00, 5 | (2ULL << 3) | (0xA8ULL << 8) | (1ULL << 16) | (1ULL << 20) | (0x81ULL << 24)));
  CHECK((d.mode == 5 && d.elem_width == 2 && d.flags == 0xA8 && d.xform_id == 1 && d.xform_mode == 0x81));
  CHECK_FALSE(regs.write(0x00, 5));
  // STATUS and unknown offsets change nothing.
  const MoveDescriptor now = d;
  CHECK_FALSE(regs.write(0x78, ~0ULL));
  CHECK_FALSE(regs.write(0x08, ~0ULL));
  CHECK(d == now);
  regs.reset();
  CHECK(d.elem_width == 1);
  CHECK(d.mode == 0);
}

TEST_CASE("mover: writes_for programs any descriptor, and a value that does not fit is refused", "[mover][model]") {
  std::mt19937_64 rng(7);
  auto bits = [&](int n) { return rng() & ((std::uint64_t{1} << n) - 1); };
  auto sbits = [&](int n) { return static_cast<std::int64_t>(bits(n)) - (std::int64_t{1} << (n - 1)); };
  for (int round = 0; round < 200; ++round) {
    MoveDescriptor d;
    d.mode = static_cast<std::uint32_t>(bits(3));
    d.elem_width = static_cast<std::uint32_t>(bits(2));
    d.flags = static_cast<std::uint32_t>(bits(8));
    d.xform_id = static_cast<std::uint32_t>(bits(4));
    d.xform_mode = static_cast<std::uint32_t>(bits(8));
    for (auto& w : d.walkers) {
      w.base = bits(40);
      w.ndim = static_cast<std::uint32_t>(bits(3));
      for (auto& dim : w.dims)
        dim = {static_cast<std::uint32_t>(bits(16)), sbits(32), static_cast<std::uint32_t>(bits(2)), sbits(16)};
      for (auto& a : w.axes) a = {sbits(16), static_cast<std::uint32_t>(bits(16))};
    }
    d.index_base = bits(40);
    d.index_count = static_cast<std::uint32_t>(bits(16));
    d.seed = rng();
    d.imm = static_cast<std::uint32_t>(bits(32));
    d.pitch = static_cast<std::uint32_t>(bits(32));
    d.gather_words = static_cast<std::uint32_t>(bits(16));
    MoverRegisterFile regs(spec());
    const std::vector<RegWrite> writes = regs.writes_for(d, true);
    int gos = 0;
    for (const auto& w : writes) gos += regs.write(w.offset, w.value) ? 1 : 0;
    CHECK(gos == 1);
    CHECK(writes.back().offset == 0x00);  // GO goes last
    CHECK(regs.descriptor() == d);
  }
  MoverRegisterFile regs(spec());
  MoveDescriptor bad;
  bad.walkers[kDst].dims[0].stride = std::int64_t{1} << 31;
  CHECK_THROWS_WITH(regs.writes_for(bad, true), Catch::Contains("stride"));
  bad = MoveDescriptor{};
  bad.walkers[kSrc].base = std::uint64_t{1} << 40;
  CHECK_THROWS_WITH(regs.writes_for(bad, true), Catch::Contains("base"));
}

TEST_CASE("mover: COPY moves words in walk order, 1-D and 2-D strided", "[mover][model]") {
  MoverMemory mem = patterned();
  const MoverMemory before = mem;
  // 4 contiguous words from 0x10000 to 0x18000.
  MoveResult r = run_move(spec(), copy(walker(kBase, {{4, 32}}), walker(kBase + 0x8000, {{4, 32}})), mem);
  CHECK(r.fault == 0);
  CHECK(r.words_read == 4);
  CHECK(r.words_written == 4);
  for (int i = 0; i < 4; ++i) CHECK(word_at(mem, kBase + 0x8000 + 32 * i) == word_at(before, kBase + 32 * i));
  // 2-D: 3 rows of 2 words, source rows 0x100 apart, destination packed; and
  // a transpose by walker order: destination dims swapped.
  mem = patterned();
  r = run_move(spec(), copy(walker(kBase, {{3, 0x100}, {2, 32}}), walker(kBase + 0x9000, {{2, 32 * 3}, {3, 32}})), mem);
  CHECK(r.fault == 0);
  // Element e = (row i, word j) of the source goes to destination element e
  // = (i', j') with e = 3 i' + j': destination address 0x9000 + 96 i' + 32 j'.
  for (int e = 0; e < 6; ++e) {
    const int i = e / 2, j = e % 2;
    const int di = e / 3, dj = e % 3;
    INFO(e);
    CHECK(word_at(mem, kBase + 0x9000 + 96 * di + 32 * dj) == word_at(before, kBase + 0x100 * i + 32 * j));
  }
  // ndim 0: one element at base; ndim 7: all six dimensions.
  mem = patterned();
  WalkerDesc one = walker(kBase + 0x40, {{4, 32}});
  one.ndim = 0;
  r = run_move(spec(), copy(one, walker(kBase + 0xA000, {})), mem);
  CHECK(r.words_written == 1);
  CHECK(word_at(mem, kBase + 0xA000) == word_at(before, kBase + 0x40));
  WalkerDesc six = walker(kBase, {{2, 32}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {3, 64}});
  six.ndim = 7;
  r = run_move(spec(), copy(six, six), mem);  // to itself: 6 elements
  CHECK(r.words_written == 6);
}

TEST_CASE("mover: stride 0 broadcasts, a shorter source holds its last word, later writes win", "[mover][model]") {
  MoverMemory mem = patterned();
  const MoverMemory before = mem;
  MoveResult r = run_move(spec(), copy(walker(kBase + 0x20, {{8, 0}}), walker(kBase + 0x8000, {{8, 32}})), mem);
  CHECK(r.words_read == 8);
  for (int i = 0; i < 8; ++i) CHECK(word_at(mem, kBase + 0x8000 + 32 * i) == word_at(before, kBase + 0x20));
  mem = patterned();
  r = run_move(spec(), copy(walker(kBase, {{3, 32}}), walker(kBase + 0x8000, {{6, 32}})), mem);
  for (int i = 0; i < 6; ++i)
    CHECK(word_at(mem, kBase + 0x8000 + 32 * i) == word_at(before, kBase + 32 * std::min(i, 2)));
  // Destination stride 0: every element to one word, the last write wins.
  mem = patterned();
  r = run_move(spec(), copy(walker(kBase, {{5, 32}}), walker(kBase + 0x8000, {{5, 0}})), mem);
  CHECK(r.words_written == 5);
  CHECK(word_at(mem, kBase + 0x8000) == word_at(before, kBase + 4 * 32));
}

TEST_CASE("mover: padding writes the fill word with no read, out-of-bounds destinations are skipped",
          "[mover][model]") {
  MoverMemory mem = patterned();
  const MoverMemory before = mem;
  // A row of 4 source words padded by 2 before and 1 after: source axis 0
  // base -2, extent 4, fed by its one dimension with step 1; 7 destination words.
  WalkerDesc src = walker(kBase - 64, {{7, 32}});
  src.dims[0].bound_sel = 1;
  src.dims[0].astep = 1;
  src.axes[0] = {-2, 4};
  MoveDescriptor d = copy(src, walker(kBase + 0x8000, {{7, 32}}));
  d.imm = 0x1234ABCD;
  d.elem_width = 1;
  const MoveResult r = run_move(spec(), d, mem);
  CHECK(r.fault == 0);
  CHECK(r.words_read == 4);
  CHECK(r.words_written == 7);
  const MoverWord fill = fill_word(0x1234ABCD, 16);
  for (int i = 0; i < 7; ++i) {
    INFO(i);
    const bool pad = i < 2 || i >= 6;
    CHECK(word_at(mem, kBase + 0x8000 + 32 * i) == (pad ? fill : word_at(before, kBase + 32 * (i - 2))));
  }
  // Destination bounds: columns 1 .. 2 of 4 written, source still stepping.
  mem = patterned();
  WalkerDesc dst = walker(kBase + 0x8000, {{4, 32}});
  dst.dims[0].bound_sel = 2;
  dst.dims[0].astep = 1;
  dst.axes[1] = {-1, 2};
  const MoveResult r2 = run_move(spec(), copy(walker(kBase, {{4, 32}}), dst), mem);
  CHECK(r2.words_read == 2);
  CHECK(r2.words_written == 2);
  CHECK(word_at(mem, kBase + 0x8000) == word_at(before, kBase + 0x8000));
  CHECK(word_at(mem, kBase + 0x8020) == word_at(before, kBase + 0x20));
  CHECK(word_at(mem, kBase + 0x8040) == word_at(before, kBase + 0x40));
  CHECK(word_at(mem, kBase + 0x8060) == word_at(before, kBase + 0x8060));
}

TEST_CASE("mover: the fill word replicates the immediate at 8, 16 and 32 bits", "[mover][model]") {
  const MoverWord b = fill_word(0x1234ABCD, 8), h = fill_word(0x1234ABCD, 16), w = fill_word(0x1234ABCD, 32);
  for (int k = 0; k < 32; ++k) {
    CHECK(b[static_cast<std::size_t>(k)] == 0xCD);
    CHECK(h[static_cast<std::size_t>(k)] == (k % 2 == 0 ? 0xCD : 0xAB));
    const std::uint8_t bytes[4] = {0xCD, 0xAB, 0x34, 0x12};
    CHECK(w[static_cast<std::size_t>(k)] == bytes[k % 4]);
  }
  MoverMemory mem = patterned();
  MoveDescriptor d;
  d.mode = kFill;
  d.walkers[kDst] = walker(kBase + 0x100, {{2, 0x40}});
  d.imm = 0x1234ABCD;
  d.elem_width = 0;
  const MoveResult r = run_move(spec(), d, mem);
  CHECK((r.fault == 0 && r.words_read == 0 && r.words_written == 2));
  CHECK(word_at(mem, kBase + 0x100) == b);
  CHECK(word_at(mem, kBase + 0x140) == b);
}

TEST_CASE("mover: GENERATE writes Philox of (seed, address), whatever the walk", "[mover][model]") {
  const PhiloxConstants philox{{0xD2511F53, 0xCD9E8D57}, {0x9E3779B9, 0xBB67AE85}, 10};
  MoverMemory a = patterned(), b = patterned();
  MoveDescriptor d;
  d.mode = kGenerate;
  d.seed = 0x0123456789ABCDEFULL;
  d.walkers[kDst] = walker(kBase, {{16, 32}});
  CHECK(run_move(spec(), d, a).words_read == 0);
  d.walkers[kDst] = walker(kBase + 15 * 32, {{4, -128}, {4, 32}});  // the same 16 words in another order
  d.walkers[kDst].dims[0] = {4, 32, 0, 0};
  d.walkers[kDst].dims[1] = {4, 128, 0, 0};
  d.walkers[kDst].base = kBase;
  CHECK(run_move(spec(), d, b).fault == 0);
  for (int i = 0; i < 16; ++i) {
    const std::uint64_t address = kBase + 32 * static_cast<std::uint64_t>(i);
    CHECK(word_at(a, address) == generate_word(philox, d.seed, address));
    CHECK(word_at(b, address) == word_at(a, address));
  }
}

TEST_CASE("mover: GATHER reads index rows of G words at base + index x pitch", "[mover][model]") {
  MoverMemory mem = patterned();
  // 11 indices (two index words) at 0x1000; rows of 2 words, pitch 0x40.
  const std::uint32_t index[11] = {3, 0, 7, 7, 1, 10, 2, 9, 4, 5, 6};
  for (int i = 0; i < 11; ++i) {
    MoverWord w{};
    const std::uint64_t at = kBase + 0x1000 + 32 * static_cast<std::uint64_t>(i / 8);
    REQUIRE(mem.read(at, w) == Resp::Okay);
    for (int b = 0; b < 4; ++b)
      w[static_cast<std::size_t>(4 * (i % 8) + b)] = static_cast<std::uint8_t>(index[i] >> (8 * b));
    REQUIRE(mem.write(at, w) == Resp::Okay);
  }
  const MoverMemory before = mem;
  MoveDescriptor d;
  d.mode = kGather;
  d.walkers[kSrc].base = kBase + 0x2000;
  d.walkers[kDst] = walker(kBase + 0x8000, {{22, 32}});
  d.index_base = kBase + 0x1000;
  d.index_count = 11;
  d.pitch = 0x40;
  d.gather_words = 2;
  const MoveResult r = run_move(spec(), d, mem);
  CHECK(r.fault == 0);
  CHECK(r.words_read == 2 + 22);
  for (int e = 0; e < 22; ++e) {
    INFO(e);
    CHECK(word_at(mem, kBase + 0x8000 + 32 * static_cast<std::uint64_t>(e)) ==
          word_at(before, kBase + 0x2000 + index[e / 2] * 0x40 + 32 * static_cast<std::uint64_t>(e % 2)));
  }
  // More destination elements than count x G: INDEX_LENGTH; G = 0 means 1.
  d.walkers[kDst] = walker(kBase + 0x8000, {{23, 32}});
  CHECK(run_move(spec(), d, mem).fault == kIndexLength);
  d.gather_words = 0;
  d.walkers[kDst] = walker(kBase + 0x8000, {{11, 32}});
  CHECK(run_move(spec(), d, mem).fault == 0);
  d.index_count = 2049;
  CHECK(run_move(spec(), d, mem).fault == kIndexLength);
}

TEST_CASE("mover: XFORM through bypass and the quantiser, the destination stepping once an entry", "[mover][model]") {
  MoverMemory mem = patterned();
  const MoverMemory before = mem;
  MoveDescriptor d;
  d.mode = kXform;
  d.xform_id = 0;
  d.walkers[kSrc] = walker(kBase, {{3, 64}});
  d.walkers[kDst] = walker(kBase + 0x8000, {{3, 32}});
  CHECK(run_move(spec(), d, mem).fault == 0);
  for (int i = 0; i < 3; ++i) CHECK(word_at(mem, kBase + 0x8000 + 32 * i) == word_at(before, kBase + 64 * i));
  // The quantiser: 16 source words are 2 entries; each entry's 4 words go to
  // the destination element's address + 32 w; destination elements 0x100 apart.
  const QuantiserSpec& q = spec().mover.quantiser;
  const QuantiserConstants qc{q.reciprocal, q.sexp_min, q.sexp_max, q.scale_bias, q.lanes, q.lane_elems};
  for (std::uint32_t mode : {0U, 1U}) {
    mem = patterned();
    d.xform_id = 1;
    d.xform_mode = mode;
    d.walkers[kSrc] = walker(kBase, {{16, 32}});
    d.walkers[kDst] = walker(kBase + 0x8000, {{2, 0x100}});
    const MoveResult r = run_move(spec(), d, mem);
    CHECK(r.fault == 0);
    CHECK(r.words_read == 16);
    CHECK(r.words_written == 8);
    for (int k = 0; k < 2; ++k) {
      std::array<MoverWord, 8> in{};
      for (int i = 0; i < 8; ++i) in[static_cast<std::size_t>(i)] = word_at(before, kBase + 32 * (8 * k + i));
      const auto out = quantise(qc, in, mode == 1);
      for (int w = 0; w < 4; ++w)
        CHECK(word_at(mem, kBase + 0x8000 + 0x100 * k + 32 * w) == out[static_cast<std::size_t>(w)]);
    }
  }
  // Not a whole number of entries: RANGE; a bound axis: XFORM_BOUND; id 2: MODE.
  d.walkers[kSrc] = walker(kBase, {{12, 32}});
  CHECK(run_move(spec(), d, mem).fault == kRange);
  d.walkers[kSrc] = walker(kBase, {{16, 32}});
  d.walkers[kDst].axes[0].extent = 5;
  CHECK(run_move(spec(), d, mem).fault == kXformBound);
  d.xform_id = 2;
  CHECK(run_move(spec(), d, mem).fault == kMode);
}

TEST_CASE("mover: GO-time faults in order 5, 4, 1, 7, 6, 2, nothing read or written", "[mover][model]") {
  // Word 0 of the image zero: GATHER's indices there are 0.
  const MoverMemory pristine = [] {
    MoverMemory m = patterned();
    REQUIRE(m.write(kBase, MoverWord{}) == Resp::Okay);
    return m;
  }();
  auto faults = [&](MoveDescriptor d) {
    MoverMemory mem = pristine;
    const MoveResult r = run_move(spec(), d, mem);
    if (r.fault != 0 && r.fault != kAxi) {
      CHECK(mem.bytes() == pristine.bytes());
      CHECK(r.words_written == 0);
    }
    return r.fault;
  };
  MoveDescriptor d = copy(walker(kBase, {{4, 32}}), walker(kBase + 0x8000, {{4, 32}}));
  REQUIRE(faults(d) == 0);
  // Each alone.
  MoveDescriptor e = d;
  e.elem_width = 3;
  CHECK(faults(e) == kElemWidth);
  for (std::uint32_t m : {1U, 6U, 7U}) {
    e = d;
    e.mode = m;
    CHECK(faults(e) == kMode);
  }
  e = d;
  e.walkers[kDst].base += 16;
  CHECK(faults(e) == kAlignment);
  e = d;
  e.walkers[kSrc].dims[0].stride = 48;
  CHECK(faults(e) == kAlignment);
  e = d;
  e.walkers[kSrc].dims[0] = {1, 48, 0, 0};  // count 1: the stride is never used
  CHECK(faults(e) == 0);
  e = d;
  e.walkers[kDst].base = 32;
  e.walkers[kDst].dims[0].stride = -64;  // below address 0
  CHECK(faults(e) == kRange);
  e = d;
  e.walkers[kDst].ndim = 2;
  e.walkers[kDst].dims[0] = {0xFFFF, 0x7FFFFFE0, 0, 0};  // index x stride leaves signed 32 bits
  e.walkers[kDst].dims[1] = {4, 32, 0, 0};
  CHECK(faults(e) == kRange);
  e = d;
  e.walkers[kDst].base = (std::uint64_t{1} << 40) - 64;  // the last of 4 words past 2^40
  CHECK(faults(e) == kRange);
  // The order: each pair reports the earlier check.
  e = d;
  e.elem_width = 3;
  e.mode = 7;
  CHECK(faults(e) == kElemWidth);
  e = d;
  e.mode = 7;
  e.walkers[kDst].base += 16;
  CHECK(faults(e) == kMode);
  e = d;
  e.mode = kGather;
  e.index_count = 4000;
  e.walkers[kDst].base += 16;
  CHECK(faults(e) == kIndexLength);
  e = d;
  e.mode = kXform;
  e.walkers[kSrc].axes[1].extent = 1;
  e.walkers[kDst].base += 16;
  CHECK(faults(e) == kXformBound);
  e = d;
  e.walkers[kDst].base = (std::uint64_t{1} << 40) - 48;  // misaligned and out of range
  CHECK(faults(e) == kAlignment);
  // GATHER's alignment covers the source base, the pitch and the index base.
  MoveDescriptor g;
  g.mode = kGather;
  g.walkers[kSrc].base = kBase;
  g.walkers[kDst] = walker(kBase + 0x8000, {{2, 32}});
  g.index_base = kBase;
  g.index_count = 2;
  g.pitch = 32;
  REQUIRE(faults(g) == 0);
  for (int which = 0; which < 3; ++which) {
    e = g;
    if (which == 0) e.walkers[kSrc].base += 8;
    if (which == 1) e.pitch = 40;
    if (which == 2) e.index_base += 4;
    CHECK(faults(e) == kAlignment);
  }
  // GATHER's index-dependent RANGE follows the index load: indices read, nothing written.
  MoverMemory mem = pristine;
  MoverWord iw{};
  iw[3] = 0xFF;  // index 0 = 0xFF000000: x pitch 0x100 >= 2^32
  REQUIRE(mem.write(kBase, iw) == Resp::Okay);
  const MoverMemory loaded = mem;
  e = g;
  e.pitch = 0x100;
  const MoveResult r = run_move(spec(), e, mem);
  CHECK(r.fault == kRange);
  CHECK(r.words_read == 1);
  CHECK(r.words_written == 0);
  CHECK(mem.bytes() == loaded.bytes());
}

TEST_CASE("mover: an AXI error stops the walk with fault 3", "[mover][model]") {
  MoverMemory mem = patterned();
  // A source word outside the image: DECERR.
  MoveResult r = run_move(spec(), copy(walker(kBase + kSize - 64, {{4, 32}}), walker(kBase, {{4, 32}})), mem);
  CHECK(r.fault == kAxi);
  CHECK(r.words_written == 2);
  CHECK(r.words_read == 3);
  // SLVERR injected on a destination word.
  mem = patterned();
  mem.inject_slverr(kBase + 0x8040);
  r = run_move(spec(), copy(walker(kBase, {{4, 32}}), walker(kBase + 0x8000, {{4, 32}})), mem);
  CHECK(r.fault == kAxi);
  CHECK(r.words_written == 3);
}

TEST_CASE("mover: the model's COPY equals a plain nested-loop walk on random descriptors", "[mover][model]") {
  std::mt19937_64 rng(20261203);
  auto pick = [&](int lo, int hi) {
    return static_cast<int>(lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)));
  };
  int padded = 0, skipped = 0;
  for (int round = 0; round < 300; ++round) {
    MoveDescriptor d;
    d.mode = kCopy;
    d.imm = static_cast<std::uint32_t>(rng());
    d.elem_width = static_cast<std::uint32_t>(pick(0, 2));
    for (int w = 0; w < 2; ++w) {
      WalkerDesc& wk = d.walkers[static_cast<std::size_t>(w)];
      wk.ndim = static_cast<std::uint32_t>(pick(0, 7));
      wk.base = kBase + 0x4000 + 0x4000 * static_cast<std::uint64_t>(w) + 32 * static_cast<std::uint64_t>(pick(0, 64));
      for (auto& dim : wk.dims)
        dim = {static_cast<std::uint32_t>(pick(0, 3)), 32 * pick(-8, 8), static_cast<std::uint32_t>(pick(0, 3)),
               pick(-2, 2)};
      for (auto& a : wk.axes) a = {pick(-3, 3), static_cast<std::uint32_t>(pick(0, 1) * pick(1, 6))};
    }
    MoverMemory got = patterned(), want = patterned();
    const MoveResult r = run_move(spec(), d, got);
    REQUIRE(r.fault == 0);
    plain_copy(d, want);
    INFO("round " << round);
    CHECK(got.bytes() == want.bytes());
    padded += r.words_written > r.words_read ? 1 : 0;
    const Walk dst(d.walkers[kDst], spec().mover);
    skipped += r.words_written < dst.elements() ? 1 : 0;
  }
  // The walks covered padding and skipped destinations.
  CHECK(padded > 20);
  CHECK(skipped > 20);
}

TEST_CASE("mover: STATUS counts fault-free moves, a GO clears the last fault, a read-back of a write is flagged",
          "[mover][model]") {
  MoverMemory mem = patterned();
  MoverModel mover(spec(), mem);
  MoverRegisterFile regs(spec());
  MoveDescriptor d = copy(walker(kBase, {{2, 32}}), walker(kBase + 0x8000, {{2, 32}}));
  for (const auto& w : regs.writes_for(d, true)) mover.write(w.offset, w.value);
  CHECK(mover.read(0x78) == (1ULL << 40));
  d.elem_width = 3;
  for (const auto& w : regs.writes_for(d, true)) mover.write(w.offset, w.value);
  CHECK(mover.read(0x78) == ((1ULL << 40) | (5ULL << 4)));
  d.elem_width = 1;
  for (const auto& w : regs.writes_for(d, true)) mover.write(w.offset, w.value);
  CHECK(mover.read(0x78) == (2ULL << 40));
  CHECK(mover.read(0x00) == 0);
  // A source that overlaps what the move already wrote.
  const MoveResult r = run_move(spec(), copy(walker(kBase, {{4, 32}}), walker(kBase + 32, {{4, 32}})), mem);
  CHECK(r.read_after_write);
  CHECK_FALSE(mover.last().read_after_write);
}
