#include "fuzz/mover/mover_campaign.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "model/mover/move_file.h"
#include "model/mover/walker.h"
#include "util/file_io.h"

namespace tpugen::mover {

namespace {

constexpr std::int64_t kWord = kWordBytes;

/// What the generator and the coverage model read of the spec: the page no
/// burst crosses, the register fields' ranges and the codes that fault.
struct CaseFacts {
  std::int64_t page = 0;                  ///< axi.boundary_bytes
  std::uint32_t ndim_max = 0;             ///< WALKER.ndim's largest value
  std::uint32_t mode_codes = 0;           ///< MOVE.mode's values
  std::vector<std::uint32_t> bad_modes;   ///< codes with no implemented mode
  std::vector<std::uint32_t> bad_widths;  ///< element-width codes no width has
  std::vector<std::uint32_t> free_ids;    ///< XFORM_IDs no occupant has
  std::size_t burst_caps = 0;             ///< the burst cap flag's codes
};

CaseFacts facts_of(const SystemNodeSpec& spec) {
  const MoverSpec& m = spec.mover;
  CaseFacts f;
  f.page = spec.axi.boundary_bytes;
  f.ndim_max = (1U << m.require_field("ndim", "the mover's campaign").width()) - 1;
  f.mode_codes = 1U << m.require_field("mode", "the mover's campaign").width();
  for (std::uint32_t c = 0; c < f.mode_codes; ++c)
    if (const SysCode* mode = m.mode_of(c); !mode || !mode->implemented) f.bad_modes.push_back(c);
  for (std::uint32_t c = 0; c < (1U << m.require_field("elem_width", "the mover's campaign").width()); ++c)
    if (!m.elem_width_of(c)) f.bad_widths.push_back(c);
  for (std::uint32_t id = 0; id < (1U << m.require_field(m.xform_id_field, "the mover's campaign").width()); ++id)
    if (!m.occupant_of(id)) f.free_ids.push_back(id);
  for (const auto& flag : m.flags)
    if (flag.name == "burst_cap") f.burst_caps = flag.values.size();
  return f;
}

template <class T>
T pick_of(Rng& rng, const std::vector<T>& items) {
  if (items.empty()) throw Error("mover.spec", "the mover's campaign found no value to draw a fault from");
  return rng.pick(items);
}

/// The aims: no fault, or one fault by name (weights: a fault-free move most often).
struct Aim {
  const char* name;
  std::uint64_t weight;
};
constexpr std::array<Aim, 8> kAims = {{{"none", 60},
                                       {"ELEM_WIDTH", 3},
                                       {"MODE", 4},
                                       {"INDEX_LENGTH", 5},
                                       {"XFORM_BOUND", 4},
                                       {"ALIGNMENT", 6},
                                       {"RANGE", 8},
                                       {"AXI_RESPONSE", 10}}};

std::int64_t stride_words(Rng& rng, std::int64_t page) {
  switch (rng.weighted(std::array<std::uint64_t, 5>{8, 4, 2, 2, 1})) {
    case 0:
      return 1;
    case 1:
      return rng.uniform(-4, 4);
    case 2:
      return 0;
    case 3:
      return rng.uniform(-16, 16);
    default:
      return rng.chance(1, 2) ? page / kWord : -page / kWord;  // a page a step
  }
}

/// A walker's geometry at base 0: ndim 0 .. its largest value, counts within
/// `budget` elements.
WalkerDesc random_walker(Rng& rng, const CaseFacts& f, std::uint64_t budget, bool bounds) {
  WalkerDesc w;
  w.ndim = static_cast<std::uint32_t>(rng.edgy(0, f.ndim_max));
  std::uint64_t elems = 1;
  std::int64_t inner = 1;  // the innermost dimension steps one word most of the time
  for (int d = w.live_dims() - 1; d >= 0; --d) {
    DimDesc& dim = w.dims[static_cast<std::size_t>(d)];
    const std::uint64_t room = std::max<std::uint64_t>(1, budget / elems);
    const std::uint64_t count =
        static_cast<std::uint64_t>(rng.small(1, static_cast<std::int64_t>(std::min<std::uint64_t>(room, 40))));
    dim.count = count == 1 && rng.chance(1, 2) ? 0 : static_cast<std::uint32_t>(count);  // 0 means 1
    elems *= count;
    dim.stride = (d == w.live_dims() - 1 && rng.chance(2, 3) ? inner : stride_words(rng, f.page)) * kWord;
    inner = std::max<std::int64_t>(1, static_cast<std::int64_t>(count));
  }
  if (bounds && w.live_dims() > 0) {
    for (int d = 0; d < w.live_dims(); ++d) {
      DimDesc& dim = w.dims[static_cast<std::size_t>(d)];
      dim.bound_sel = static_cast<std::uint32_t>(rng.uniform(0, 3));
      dim.astep = rng.chance(3, 4) ? 1 : rng.uniform(-2, 2);
    }
    for (AxisDesc& a : w.axes) {
      if (!rng.chance(2, 3)) continue;
      a.abase = rng.edgy(-3, 2);
      a.extent = static_cast<std::uint32_t>(rng.small(1, 24));
    }
  }
  return w;
}

/// The lowest and highest element offset of a walk from its base.
std::optional<Walk::Span> span_of(const SystemNodeSpec& spec, WalkerDesc w) {
  w.base = 0;
  return Walk(w, spec.mover).span();
}

/// Place a walker's base so that its span (and `extra` bytes past its
/// highest word) lies inside [lo, hi), near a page boundary half the time.
bool place(Rng& rng, const SystemNodeSpec& spec, WalkerDesc& w, std::int64_t lo, std::int64_t hi,
           std::int64_t extra = 0) {
  const auto s = span_of(spec, w);
  if (!s) return false;
  const std::int64_t first = lo - s->lowest, last = hi - kWord - extra - s->highest;
  if (first > last) return false;
  std::int64_t base = first + rng.uniform(0, (last - first) / kWord) * kWord;
  if (rng.chance(1, 2)) {  // a run starting a few words before a page boundary
    const std::int64_t p = spec.axi.boundary_bytes;
    const std::int64_t page = (base / p + 1) * p - rng.uniform(1, 4) * kWord;
    if (page >= first && page <= last) base = page;
  }
  w.base = static_cast<std::uint64_t>(base);
  return true;
}

/// Halve a walker's counts until it fits (at worst one element).
void fit(Rng& rng, const SystemNodeSpec& spec, WalkerDesc& w, std::int64_t lo, std::int64_t hi,
         std::int64_t extra = 0) {
  for (int tries = 0; tries < 12; ++tries) {
    if (place(rng, spec, w, lo, hi, extra)) return;
    for (auto& d : w.dims) d.count = d.count / 2;
  }
  w = WalkerDesc{};
  w.ndim = 0;
  (void)place(rng, spec, w, lo, hi, extra);
}

void put_u32(std::vector<std::uint8_t>& image, std::uint64_t offset, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) image[offset + static_cast<std::uint64_t>(b)] = static_cast<std::uint8_t>(v >> (8 * b));
}

std::uint64_t elements(const SystemNodeSpec& spec, const WalkerDesc& w) { return Walk(w, spec.mover).elements(); }

}  // namespace

MoverMemory MoverCase::memory() const {
  MoverMemory mem(mem_base, image);
  for (const auto a : slverr) mem.inject_slverr(a);
  return mem;
}

MoverCase random_case(Rng& rng, const SystemNodeSpec& spec) {
  const MoverSpec& m = spec.mover;
  const CaseFacts facts = facts_of(spec);
  MoverCase c;
  std::array<std::uint64_t, kAims.size()> weights{};
  for (std::size_t i = 0; i < kAims.size(); ++i) weights[i] = kAims[i].weight;
  c.aim = kAims[rng.weighted(weights)].name;

  // The memory: an image of 16 .. 64 KiB, at a low address or above 4 GB.
  const std::array<std::uint64_t, 3> bases = {0x0, 0x40000, std::uint64_t{1} << 32};
  c.mem_base = bases[static_cast<std::size_t>(rng.uniform(0, 2))];
  const std::uint64_t size = static_cast<std::uint64_t>(rng.uniform(4, 16) * facts.page);
  c.image.resize(size);
  for (auto& b : c.image) b = static_cast<std::uint8_t>(rng.next());
  const auto lo = static_cast<std::int64_t>(c.mem_base), hi = static_cast<std::int64_t>(c.mem_base + size);
  const std::int64_t mid = lo + static_cast<std::int64_t>(size / 2 / kWord) * kWord;

  // The move.
  MoveDescriptor& d = c.move;
  const std::array<std::uint64_t, 5> mode_weights = {30, 22, 10, 10, 18};
  const std::array<const char*, 5> modes = {"COPY", "GATHER", "GENERATE", "FILL", "XFORM"};
  const char* mode = modes[rng.weighted(mode_weights)];
  if (c.aim == std::string("INDEX_LENGTH")) mode = "GATHER";  // the faults only these modes have
  if (c.aim == std::string("XFORM_BOUND")) mode = "XFORM";
  d.mode = m.require_mode(mode).code;
  d.elem_width = static_cast<std::uint32_t>(rng.uniform(0, 2));
  d.imm = static_cast<std::uint32_t>(rng.next());
  d.seed = rng.chance(1, 8) ? 0 : rng.next();
  d.flags = static_cast<std::uint32_t>(rng.uniform(0, 255));
  WalkerDesc& src = d.walkers[m.require_walker("source").code];
  WalkerDesc& dst = d.walkers[m.require_walker("destination").code];
  const bool is_gather = d.mode == m.require_mode("GATHER").code;
  const bool is_xform = d.mode == m.require_mode("XFORM").code;
  const bool is_copy = d.mode == m.require_mode("COPY").code;

  if (is_xform) {
    const TransformOccupant& occ = rng.chance(2, 3) ? m.require_occupant("quantiser") : m.require_occupant("bypass");
    d.xform_id = occ.id;
    d.xform_mode = static_cast<std::uint32_t>(rng.uniform(0, 255));
    const auto in = static_cast<std::uint32_t>(occ.in_bits / spec.word_bits);
    const auto entries = static_cast<std::uint32_t>(rng.small(1, 12));
    // The source: entries x IN words, as one run or rows of an entry.
    src.ndim = 2;
    src.dims[0] = {entries, static_cast<std::int64_t>(in) * kWord * (rng.chance(1, 3) ? 2 : 1), 0, 0};
    src.dims[1] = {in, kWord, 0, 0};
    dst.ndim = 1;
    dst.dims[0] = {entries, static_cast<std::int64_t>(occ.out_words) * kWord * (rng.chance(1, 4) ? -1 : 1), 0, 0};
    fit(rng, spec, src, lo, mid);
    fit(rng, spec, dst, mid, hi, (occ.out_words - 1) * kWord);
  } else if (is_gather) {
    d.gather_words = static_cast<std::uint32_t>(rng.chance(1, 8) ? 0 : rng.small(1, 5));
    const std::uint64_t g = d.gather_words == 0 ? 1 : d.gather_words;
    dst = random_walker(rng, facts, 256, rng.chance(1, 3));
    fit(rng, spec, dst, mid, hi);
    const std::uint64_t rows_used = (elements(spec, dst) + g - 1) / g;
    d.index_count = static_cast<std::uint32_t>(
        rng.chance(1, 12) ? m.index_entries : rows_used + static_cast<std::uint64_t>(rng.small(0, 20)));
    d.index_count = std::min<std::uint32_t>(d.index_count, static_cast<std::uint32_t>(m.index_entries));
    // The rows: a table of `rows` rows of pitch bytes at the start of the image.
    d.pitch = static_cast<std::uint32_t>((g + static_cast<std::uint64_t>(rng.small(0, 3))) * kWord);
    const std::uint64_t index_bytes = (d.index_count + 7) / 8 * kWord;
    const std::uint64_t table = size / 2 - index_bytes;
    const std::uint64_t rows = std::max<std::uint64_t>(1, (table - g * kWord) / d.pitch + 1);
    src = WalkerDesc{};
    src.base = c.mem_base;
    d.index_base = c.mem_base + size / 2 - index_bytes;
    for (std::uint32_t i = 0; i < d.index_count; ++i)
      put_u32(c.image, d.index_base - c.mem_base + 4 * i,
              static_cast<std::uint32_t>(rng.edgy(0, static_cast<std::int64_t>(rows) - 1)));
  } else {
    dst = random_walker(rng, facts, kCaseElements, rng.chance(1, 2));
    fit(rng, spec, dst, mid, hi);
    if (is_copy) {
      if (rng.chance(1, 3)) {
        src = random_walker(rng, facts, kCaseElements, rng.chance(1, 3));
      } else {  // the destination's shape, other strides; sometimes shorter (held)
        src = dst;
        for (auto& dim : src.dims) dim.stride = stride_words(rng, facts.page) * kWord;
        if (rng.chance(1, 4) && src.live_dims() > 0)
          src.dims[0].count = std::max<std::uint32_t>(1, src.dims[0].count / 2);
        if (rng.chance(1, 2)) src.axes = {};
      }
      fit(rng, spec, src, lo, mid);
    }
  }

  // The conditions.
  c.conditions.latency = static_cast<unsigned>(rng.chance(1, 2) ? 0 : rng.small(1, 60));
  c.conditions.stall = rng.chance(1, 2) ? 0.0 : 0.1 * static_cast<double>(rng.uniform(1, 5));
  c.conditions.port = std::array<const char*, 3>{"host", "cp", "random"}[static_cast<std::size_t>(rng.uniform(0, 2))];
  c.conditions.seed = rng.next() % 1000000;

  // The fault aimed at.
  auto word_of = [&](const WalkerDesc& w, std::uint64_t e) {
    return static_cast<std::uint64_t>(Walk(w, m).at(e).address);
  };
  if (c.aim == std::string("ELEM_WIDTH")) {
    d.elem_width = pick_of(rng, facts.bad_widths);
  } else if (c.aim == std::string("MODE")) {
    if (is_xform)
      d.xform_id = pick_of(rng, facts.free_ids);
    else
      d.mode = pick_of(rng, facts.bad_modes);
  } else if (c.aim == std::string("INDEX_LENGTH") && is_gather) {
    if (rng.chance(1, 2))
      d.index_count = static_cast<std::uint32_t>(m.index_entries + rng.small(1, 30000));
    else
      d.index_count = static_cast<std::uint32_t>(
          std::max<std::uint64_t>(1, elements(spec, dst) / (d.gather_words == 0 ? 1 : d.gather_words)) - 1);
  } else if (c.aim == std::string("XFORM_BOUND") && is_xform) {
    WalkerDesc& w = rng.chance(1, 2) ? src : dst;
    w.axes[static_cast<std::size_t>(rng.uniform(0, 1))].extent = static_cast<std::uint32_t>(rng.uniform(1, 100));
  } else if (c.aim == std::string("ALIGNMENT")) {
    const auto off = static_cast<std::uint64_t>(rng.uniform(1, 31));
    switch (rng.uniform(0, is_gather ? 3 : 1)) {
      case 0:
        dst.base += off;
        break;
      case 1:
        if (dst.live_dims() > 0) {
          dst.dims[static_cast<std::size_t>(dst.live_dims() - 1)].count = 2;
          dst.dims[static_cast<std::size_t>(dst.live_dims() - 1)].stride += static_cast<std::int64_t>(off);
        } else {
          dst.base += off;
        }
        break;
      case 2:
        d.pitch += static_cast<std::uint32_t>(off);
        break;
      default:
        d.index_base += off;
        break;
    }
  } else if (c.aim == std::string("RANGE")) {
    switch (rng.uniform(0, 3)) {
      case 0:
        dst.base = (std::uint64_t{1} << spec.address_bits) - kWord;
        dst.ndim = 1;
        dst.dims[0] = {2, kWord, 0, 0};
        break;
      case 1:
        dst.base = 0;
        dst.ndim = 1;
        dst.dims[0] = {2, -kWord, 0, 0};
        break;
      case 2:
        dst.ndim = 2;
        dst.dims[0] = {3, std::int64_t{1} << 30, 0, 0};
        dst.dims[1] = {2, std::int64_t{1} << 30, 0, 0};
        break;
      default:
        if (is_gather && d.index_count > 0)
          put_u32(c.image, d.index_base - c.mem_base, 0xffffffffu);
        else if (is_xform)
          src.dims[1].count = src.dims[1].count + 1;
        else {  // a run past the top of the map
          dst.base = (std::uint64_t{1} << spec.address_bits) - static_cast<std::uint64_t>(facts.page);
          dst.ndim = 1;
          dst.dims[0] = {static_cast<std::uint32_t>(facts.page / kWord + 1), kWord, 0, 0};
        }
        break;
    }
  } else if (c.aim == std::string("AXI_RESPONSE")) {
    const WalkerDesc& w = (is_copy || is_xform) && rng.chance(1, 2) ? src : dst;
    const std::uint64_t n = elements(spec, w);
    if (rng.chance(1, 2)) {
      c.slverr.push_back(word_of(w, static_cast<std::uint64_t>(rng.uniform(0, static_cast<std::int64_t>(n) - 1))));
    } else {  // a walker that runs off the image: DECERR
      WalkerDesc& v = (&w == &src) ? src : dst;
      v.base = c.mem_base + size - kWord * static_cast<std::uint64_t>(rng.uniform(0, 2));
      if (v.base < c.mem_base) v.base = c.mem_base;
    }
  }
  return c;
}

// --- Coverage ------------------------------------------------------------------------

namespace {

std::string mode_bin(const MoverSpec& m, std::uint32_t code) {
  const SysCode* c = m.mode_of(code);
  return "mode/" + (c ? c->name : fmt::format("code{}", code));
}

/// Each element's axis coordinates, as the walker computes them.
struct AxisReach {
  bool out[kAxes] = {false, false};  ///< some element out of bounds on the axis
};

AxisReach axis_reach(const MoverSpec& m, const WalkerDesc& w, std::uint64_t limit) {
  AxisReach r;
  const Walk walk(w, m);
  const std::uint64_t n = std::min(walk.elements(), limit);
  const int live = w.live_dims();
  for (std::uint64_t e = 0; e < n; ++e) {
    std::uint64_t rest = e;
    std::int64_t coord[kAxes] = {w.axes[0].abase, w.axes[1].abase};
    for (int dd = live - 1; dd >= 0; --dd) {
      const DimDesc& dim = w.dims[static_cast<std::size_t>(dd)];
      const std::uint64_t count = dim.count == 0 ? 1 : dim.count;
      const auto index = static_cast<std::int64_t>(rest % count);
      rest /= count;
      const int axis = m.bound_axis_of(dim.bound_sel);
      if (axis >= 0) coord[axis] += index * dim.astep;
    }
    for (int a = 0; a < kAxes; ++a) {
      const std::uint32_t ext = w.axes[static_cast<std::size_t>(a)].extent;
      const auto c16 = static_cast<std::int16_t>(static_cast<std::uint16_t>(coord[a]));
      if (ext != 0 && (c16 < 0 || static_cast<std::uint32_t>(c16) >= ext)) r.out[a] = true;
    }
  }
  return r;
}

bool crosses_page(const MoverSpec& m, const WalkerDesc& w, std::uint64_t limit, std::int64_t page) {
  const Walk walk(w, m);
  const std::uint64_t n = std::min(walk.elements(), limit);
  for (std::uint64_t e = 1; e < n; ++e) {
    const std::int64_t a = walk.at(e).address;
    if (a == walk.at(e - 1).address + kWord && a % page == 0) return true;
  }
  return false;
}

}  // namespace

MoverCoverage::MoverCoverage(const SystemNodeSpec& spec)
    : fuzz::BinCoverage("the mover's coverage model"), spec_(&spec) {
  const MoverSpec& m = spec.mover;
  const CaseFacts facts = facts_of(spec);
  std::vector<std::string> bins;
  for (std::uint32_t code = 0; code < facts.mode_codes; ++code) bins.push_back(mode_bin(m, code));
  bins.push_back("fault/NONE");
  for (const auto& f : m.faults) bins.push_back("fault/" + f.name);
  for (const char* w : {"src", "dst"})
    for (std::uint32_t n = 0; n <= facts.ndim_max; ++n) bins.push_back(fmt::format("ndim/{}/{}", w, n));
  for (const char* b : {"stride/negative",
                        "stride/zero_broadcast",
                        "stride/page",
                        "pad/dst/axis0",
                        "pad/dst/axis1",
                        "pad/src/axis0",
                        "pad/src/axis1",
                        "pad/copy_fill",
                        "held/src",
                        "page/cross",
                        "gather/count_1_8",
                        "gather/count_9_256",
                        "gather/count_257_2047",
                        "gather/count_full",
                        "gather/rows_past_8",
                        "gather/g_gt_1",
                        "xform/bypass",
                        "xform/quantiser_a",
                        "xform/quantiser_b",
                        "xform/entries_gt_1",
                        "flags/coalesce",
                        "flags/no_coalesce",
                        "conditions/latency",
                        "conditions/stall",
                        "conditions/port_cp",
                        "conditions/port_random"})
    bins.emplace_back(b);
  for (const auto& w : m.elem_widths) bins.push_back(fmt::format("elem_width/{}", w.code));
  bins.emplace_back("elem_width/invalid");
  for (std::size_t cap = 0; cap < facts.burst_caps; ++cap) bins.push_back(fmt::format("flags/burst_cap_{}", cap));
  for (const auto& b : bins) declare(b);
}

void MoverCoverage::add(const MoverCase& c, const MoveResult& model) {
  const MoverSpec& m = spec_->mover;
  const MoveDescriptor& d = c.move;
  const std::int64_t page = spec_->axi.boundary_bytes;
  count_case();
  hit(mode_bin(m, d.mode));
  const SysCode* fault = nullptr;
  for (const auto& f : m.faults)
    if (f.code == model.fault) fault = &f;
  hit(fault ? "fault/" + fault->name : "fault/NONE");
  hit(m.elem_width_of(d.elem_width) ? fmt::format("elem_width/{}", d.elem_width) : "elem_width/invalid");
  const MoverFlag* coalesce = nullptr;
  const MoverFlag* cap = nullptr;
  for (const auto& f : m.flags) {
    if (f.name == "coalesce") coalesce = &f;
    if (f.name == "burst_cap") cap = &f;
  }
  if (coalesce) hit(((d.flags >> coalesce->lsb) & 1U) != 0 ? "flags/coalesce" : "flags/no_coalesce");
  if (cap) hit(fmt::format("flags/burst_cap_{}", (d.flags >> cap->lsb) & ((1U << cap->width()) - 1)));
  if (c.conditions.latency > 0) hit("conditions/latency");
  if (c.conditions.stall > 0) hit("conditions/stall");
  if (c.conditions.port == "cp") hit("conditions/port_cp");
  if (c.conditions.port == "random") hit("conditions/port_random");
  if (model.fault != 0) return;  // the rest is what a move that ran did

  const bool copy = d.mode == m.require_mode("COPY").code, xform = d.mode == m.require_mode("XFORM").code,
             gather = d.mode == m.require_mode("GATHER").code;
  const WalkerDesc& src = d.walkers[m.require_walker("source").code];
  const WalkerDesc& dst = d.walkers[m.require_walker("destination").code];
  hit(fmt::format("ndim/dst/{}", dst.ndim));
  if (copy || xform) hit(fmt::format("ndim/src/{}", src.ndim));
  auto strides = [&](const WalkerDesc& w, bool broadcast_counts) {
    for (int k = 0; k < w.live_dims(); ++k) {
      const DimDesc& dim = w.dims[static_cast<std::size_t>(k)];
      if (dim.count <= 1) continue;
      if (dim.stride < 0) hit("stride/negative");
      if (dim.stride == 0 && broadcast_counts) hit("stride/zero_broadcast");
      if (dim.stride >= page || dim.stride <= -page) hit("stride/page");
    }
  };
  strides(dst, false);
  if (copy || xform) strides(src, copy);
  const AxisReach dr = axis_reach(m, dst, kCaseElements);
  if (dr.out[0]) hit("pad/dst/axis0");
  if (dr.out[1]) hit("pad/dst/axis1");
  if (copy) {
    const AxisReach sr = axis_reach(m, src, kCaseElements);
    if (sr.out[0]) hit("pad/src/axis0");
    if (sr.out[1]) hit("pad/src/axis1");
    const Walk sw(src, m), dw(dst, m);
    for (std::uint64_t e = 0; e < std::min(dw.elements(), kCaseElements); ++e)
      if (dw.at(e).in_bounds && !sw.at(e).in_bounds) {
        hit("pad/copy_fill");
        break;
      }
    if (sw.elements() < dw.elements()) hit("held/src");
  }
  if (crosses_page(m, dst, kCaseElements, page) || ((copy || xform) && crosses_page(m, src, kCaseElements, page)))
    hit("page/cross");
  if (gather) {
    const std::uint32_t n = d.index_count;
    hit(n <= 8                                            ? "gather/count_1_8"
        : n <= 256                                        ? "gather/count_9_256"
        : n < static_cast<std::uint32_t>(m.index_entries) ? "gather/count_257_2047"
                                                          : "gather/count_full");
    const std::uint64_t g = d.gather_words == 0 ? 1 : d.gather_words;
    if ((Walk(dst, m).elements() + g - 1) / g > 8) hit("gather/rows_past_8");
    if (g > 1) hit("gather/g_gt_1");
  }
  if (xform) {
    const TransformOccupant* occ = m.occupant_of(d.xform_id);
    if (occ && occ->name == "bypass") hit("xform/bypass");
    if (occ && occ->name == "quantiser") {
      const OccupantModeFlag* b = occ->mode_flag("B_PACKING");
      hit(b && ((d.xform_mode >> b->bit) & 1U) != 0 ? "xform/quantiser_b" : "xform/quantiser_a");
    }
    if (occ && Walk(src, m).elements() > static_cast<std::uint64_t>(occ->in_bits / spec_->word_bits))
      hit("xform/entries_gt_1");
  }
}

// --- Shrinking and reproducers --------------------------------------------------------

MoverShrunk shrink_case(const SystemNodeSpec& spec, const MoverCase& c, const std::string& failure,
                        const MoverJudge& judge, int budget) {
  MoverShrunk s{c, failure, 0};
  const MoverSpec& m = spec.mover;
  auto candidates = [&](const MoverCase& x) {
    std::vector<MoverCase> out;
    if (!(x.conditions == MoverConditions{})) {
      MoverCase y = x;
      y.conditions = MoverConditions{};
      out.push_back(y);
    }
    if (!x.slverr.empty()) {
      MoverCase y = x;
      y.slverr.clear();
      out.push_back(y);
    }
    if (x.move.flags != 0) {
      MoverCase y = x;
      y.move.flags = 0;
      out.push_back(y);
    }
    for (std::size_t w = 0; w < 2; ++w) {
      const WalkerDesc& wk = x.move.walkers[w];
      if (wk.ndim > 0) {
        MoverCase y = x;
        y.move.walkers[w].ndim = static_cast<std::uint32_t>(std::min(wk.live_dims(), kDims) - 1);
        out.push_back(y);
      }
      for (std::size_t k = 0; k < kDims; ++k) {
        if (wk.dims[k].count > 1) {
          MoverCase y = x;
          y.move.walkers[w].dims[k].count = wk.dims[k].count / 2;
          out.push_back(y);
        }
        if (wk.dims[k].astep != 0 || wk.dims[k].bound_sel != 0) {
          MoverCase y = x;
          y.move.walkers[w].dims[k].astep = 0;
          y.move.walkers[w].dims[k].bound_sel = 0;
          out.push_back(y);
        }
      }
      for (std::size_t a = 0; a < kAxes; ++a)
        if (wk.axes[a].extent != 0) {
          MoverCase y = x;
          y.move.walkers[w].axes[a] = {};
          out.push_back(y);
        }
    }
    if (x.move.mode == m.require_mode("GATHER").code) {
      if (x.move.index_count > 1) {
        MoverCase y = x;
        y.move.index_count = (x.move.index_count + 1) / 2;
        out.push_back(y);
      }
      if (x.move.gather_words > 1) {
        MoverCase y = x;
        y.move.gather_words = 1;
        out.push_back(y);
      }
    }
    if (x.move.xform_mode != 0) {
      MoverCase y = x;
      y.move.xform_mode = 0;
      out.push_back(y);
    }
    return out;
  };
  bool progress = true;
  while (progress && s.runs < budget) {
    progress = false;
    for (const MoverCase& y : candidates(s.c)) {
      if (s.runs >= budget) break;
      ++s.runs;
      const std::string f = judge(y);
      if (f.empty()) continue;
      s.c = y;
      s.failure = f;
      progress = true;
      break;
    }
  }
  return s;
}

std::string replay_command(const MoverCase& c, const std::string& dir, const std::string& inject_bug) {
  const std::filesystem::path d(dir);
  std::string cmd = fmt::format(
      "tpugen mover run --move {} --mem-in {} --mem-base {:#x} --engine both --latency {} --stall {} --port {} --seed "
      "{}",
      (d / "move.json").string(), (d / "mem.bin").string(), c.mem_base, c.conditions.latency, c.conditions.stall,
      c.conditions.port, c.conditions.seed);
  for (const auto a : c.slverr) cmd += fmt::format(" --slverr {:#x}", a);
  if (!inject_bug.empty()) cmd += " --inject-bug " + inject_bug;
  return cmd;
}

void write_reproducer(const SystemNodeSpec& spec, const MoverCase& c, const std::string& failure,
                      const std::string& dir, const std::string& inject_bug) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path d(dir);
  write_file(d / "move.json", move_json(spec, c.move).dump(2) + "\n", "fuzz.io");
  write_file(d / "mem.bin", std::string(reinterpret_cast<const char*>(c.image.data()), c.image.size()), "fuzz.io");
  const std::string replay = replay_command(c, dir, inject_bug);
  nlohmann::ordered_json j;
  j["aim"] = c.aim;
  j["failure"] = failure;
  j["mem_base"] = c.mem_base;
  j["mem_size"] = c.image.size();
  j["slverr"] = c.slverr;
  j["latency"] = c.conditions.latency;
  j["stall"] = c.conditions.stall;
  j["port"] = c.conditions.port;
  j["seed"] = c.conditions.seed;
  j["replay"] = replay;
  write_file(d / "case.json", j.dump(2) + "\n", "fuzz.io");
  write_file(d / "replay.sh", "#!/bin/sh\n" + replay + "\n", "fuzz.io");
}

}  // namespace tpugen::mover
