#include "model/mover/mover_model.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <vector>

#include "model/mover/philox.h"
#include "model/mover/quantiser.h"
#include "model/mover/walker.h"
#include "util/diag.h"

namespace tpugen::mover {

namespace {

constexpr std::int64_t kWord = kWordBytes;

/// The spec's mode and fault codes the model dispatches on, found once.
struct Codes {
  std::uint32_t copy, gather, generate, fill, xform;
  std::uint32_t elem_width, mode, index_length, xform_bound, alignment, range, axi_response;
  std::uint32_t source, destination;

  explicit Codes(const MoverSpec& m)
      : copy(m.require_mode("COPY").code),
        gather(m.require_mode("GATHER").code),
        generate(m.require_mode("GENERATE").code),
        fill(m.require_mode("FILL").code),
        xform(m.require_mode("XFORM").code),
        elem_width(m.require_fault("ELEM_WIDTH").code),
        mode(m.require_fault("MODE").code),
        index_length(m.require_fault("INDEX_LENGTH").code),
        xform_bound(m.require_fault("XFORM_BOUND").code),
        alignment(m.require_fault("ALIGNMENT").code),
        range(m.require_fault("RANGE").code),
        axi_response(m.require_fault("AXI_RESPONSE").code),
        source(m.require_walker("source").code),
        destination(m.require_walker("destination").code) {}
};

PhiloxConstants philox_of(const MoverSpec& m) { return {m.generate.multipliers, m.generate.weyl, m.generate.rounds}; }

QuantiserConstants quantiser_of(const MoverSpec& m) {
  const QuantiserSpec& q = m.quantiser;
  return {q.reciprocal, q.sexp_min, q.sexp_max, q.scale_bias, q.lanes, q.lane_elems};
}

/// A GO-time check that failed: the fault it reports.
struct Refused {
  std::uint32_t fault;
};

/// One move: the checks, then the walk.
class Move {
 public:
  Move(const SystemNodeSpec& spec, const MoveDescriptor& d, MoverMemory& mem, const MoverLimits& limits)
      : spec_(spec),
        m_(spec.mover),
        c_(spec.mover),
        d_(d),
        mem_(mem),
        limits_(limits),
        src_(d.walkers[c_.source], spec.mover),
        dst_(d.walkers[c_.destination], spec.mover) {}

  MoveResult run() {
    try {
      check_at_go();
      walk();
    } catch (const Refused& r) {
      result_.fault = r.fault;
    }
    return result_;
  }

 private:
  [[noreturn]] static void refuse(std::uint32_t fault) { throw Refused{fault}; }

  [[nodiscard]] bool is(std::uint32_t mode) const { return d_.mode == mode; }
  [[nodiscard]] std::uint64_t gather_words() const { return d_.gather_words == 0 ? 1 : d_.gather_words; }
  [[nodiscard]] std::uint64_t index_words() const {
    const auto per_word = static_cast<std::uint64_t>(spec_.word_bits / m_.index_bits);
    return (d_.index_count + per_word - 1) / per_word;
  }
  [[nodiscard]] bool in_map(std::int64_t lowest, std::int64_t highest_word) const {
    return lowest >= 0 && highest_word + kWord <= (std::int64_t{1} << spec_.address_bits);
  }

  /// The GO-time checks in the spec's order (mover-notes §4): the first that
  /// applies is the fault, and nothing has been read or written.
  void check_at_go() {
    if (!m_.elem_width_of(d_.elem_width)) refuse(c_.elem_width);
    const SysCode* mode = m_.mode_of(d_.mode);
    if (!mode || !mode->implemented) refuse(c_.mode);
    if (is(c_.xform)) {
      occupant_ = m_.occupant_of(d_.xform_id);
      if (!occupant_) refuse(c_.mode);
    }
    if (is(c_.gather)) {
      if (d_.index_count > static_cast<std::uint32_t>(m_.index_entries)) refuse(c_.index_length);
      if (dst_.elements() > std::uint64_t{d_.index_count} * gather_words()) refuse(c_.index_length);
    }
    if (is(c_.xform) && (src_.has_bound_axis() || dst_.has_bound_axis())) refuse(c_.xform_bound);
    check_alignment();
    check_range();
    const Walk& iterating = is(c_.xform) ? src_ : dst_;
    if (iterating.elements() > limits_.max_elements)
      throw Error("mover.limit", fmt::format("the move has {} elements; the model runs at most {}",
                                             iterating.elements(), limits_.max_elements));
  }

  void check_alignment() const {
    auto misaligned = [](std::uint64_t a) { return a % kWord != 0; };
    const bool reads_source = is(c_.copy) || is(c_.xform);
    if (misaligned(d_.walkers[c_.destination].base) || dst_.strides_misaligned(kWord)) refuse(c_.alignment);
    if (reads_source && (misaligned(d_.walkers[c_.source].base) || src_.strides_misaligned(kWord)))
      refuse(c_.alignment);
    if (is(c_.gather) && (misaligned(d_.walkers[c_.source].base) || d_.pitch % kWord != 0 || misaligned(d_.index_base)))
      refuse(c_.alignment);
  }

  /// RANGE before anything moves: every address a used walker computes, and
  /// GATHER's index vector. GATHER's rows are checked after the index load.
  void check_range() const {
    auto walker_in_map = [&](const Walk& w, std::int64_t extra_words) {
      const std::optional<Walk::Span> s = w.span();
      return s && in_map(s->lowest, s->highest + extra_words * kWord);
    };
    const std::int64_t out_words = occupant_ ? occupant_->out_words : 1;
    if (!walker_in_map(dst_, is(c_.xform) ? out_words - 1 : 0)) refuse(c_.range);
    if ((is(c_.copy) || is(c_.xform)) && !walker_in_map(src_, 0)) refuse(c_.range);
    if (is(c_.xform) && src_.elements() % in_words() != 0) refuse(c_.range);
    if (is(c_.gather) &&
        !in_map(static_cast<std::int64_t>(d_.index_base),
                static_cast<std::int64_t>(d_.index_base) + (static_cast<std::int64_t>(index_words()) - 1) * kWord))
      refuse(c_.range);
  }

  [[nodiscard]] std::uint64_t in_words() const {
    return occupant_ ? static_cast<std::uint64_t>(occupant_->in_bits / spec_.word_bits) : 1;
  }

  MoverWord read(std::int64_t address) {
    MoverWord w{};
    const auto a = static_cast<std::uint64_t>(address);
    if (written_.count(a)) result_.read_after_write = true;
    const Resp r = mem_.read(a, w);
    ++result_.words_read;
    if (r != Resp::Okay) refuse(c_.axi_response);
    return w;
  }

  void write(std::int64_t address, const MoverWord& w) {
    const auto a = static_cast<std::uint64_t>(address);
    const Resp r = mem_.write(a, w);
    ++result_.words_written;
    written_.insert(a);
    if (r != Resp::Okay) refuse(c_.axi_response);
  }

  void walk() {
    const MoverWord fill = fill_word(d_.imm, m_.elem_width_of(d_.elem_width)->bits);
    if (is(c_.copy)) {
      for (std::uint64_t e = 0; e < dst_.elements(); ++e) {
        const Walk::Element to = dst_.at(e);
        if (!to.in_bounds) continue;  // no read, no write; the source still steps
        const Walk::Element from = src_.at(e);
        write(to.address, from.in_bounds ? read(from.address) : fill);
      }
    } else if (is(c_.fill)) {
      for (std::uint64_t e = 0; e < dst_.elements(); ++e)
        if (const Walk::Element to = dst_.at(e); to.in_bounds) write(to.address, fill);
    } else if (is(c_.generate)) {
      const PhiloxConstants philox = philox_of(m_);
      for (std::uint64_t e = 0; e < dst_.elements(); ++e)
        if (const Walk::Element to = dst_.at(e); to.in_bounds)
          write(to.address, generate_word(philox, d_.seed, static_cast<std::uint64_t>(to.address)));
    } else if (is(c_.gather)) {
      gather();
    } else if (is(c_.xform)) {
      xform();
    }
  }

  void gather() {
    // The index vector: ceil(count / per-word) words, indices little-endian.
    std::vector<std::uint64_t> index;
    const int index_bytes = m_.index_bits / 8;
    for (std::uint64_t i = 0; i < index_words(); ++i) {
      const MoverWord w = read(static_cast<std::int64_t>(d_.index_base) + static_cast<std::int64_t>(i) * kWord);
      for (int k = 0; k + index_bytes <= kWordBytes && index.size() < d_.index_count; k += index_bytes) {
        std::uint64_t v = 0;
        for (int b = index_bytes - 1; b >= 0; --b) v = (v << 8) | w[static_cast<std::size_t>(k + b)];
        index.push_back(v);
      }
    }
    // RANGE on the rows the destination names, now that the indices are known.
    const std::uint64_t g = gather_words();
    const std::uint64_t n = dst_.elements();
    const auto src_base = static_cast<std::int64_t>(d_.walkers[c_.source].base);
    for (std::uint64_t r = 0; r * g < n; ++r) {
      const std::uint64_t offset = index[r] * d_.pitch;
      const std::uint64_t last_word = std::min(g, n - r * g) - 1;
      if (offset >= (std::uint64_t{1} << 32) ||
          !in_map(src_base, src_base + static_cast<std::int64_t>(offset + last_word * kWord)))
        refuse(c_.range);
    }
    for (std::uint64_t e = 0; e < n; ++e) {
      const Walk::Element to = dst_.at(e);
      if (!to.in_bounds) continue;
      const std::uint64_t r = e / g, w = e % g;
      write(to.address, read(src_base + static_cast<std::int64_t>(index[r] * d_.pitch + w * kWord)));
    }
  }

  void xform() {
    const std::uint64_t n_in = in_words();
    const std::uint64_t entries = src_.elements() / n_in;
    const bool b_packing = [&] {
      const OccupantModeFlag* f = occupant_->mode_flag("B_PACKING");
      return f && ((d_.xform_mode >> f->bit) & 1U) != 0;
    }();
    const QuantiserConstants q = quantiser_of(m_);
    for (std::uint64_t k = 0; k < entries; ++k) {
      std::vector<MoverWord> in;
      for (std::uint64_t i = 0; i < n_in; ++i) in.push_back(read(src_.at(k * n_in + i).address));
      const std::vector<MoverWord> out = transform(in, q, b_packing);
      const Walk::Element to = dst_.at(k);
      for (std::size_t w = 0; w < out.size(); ++w) write(to.address + static_cast<std::int64_t>(w) * kWord, out[w]);
    }
  }

  /// The occupant XFORM_ID selects, on one entry.
  [[nodiscard]] std::vector<MoverWord> transform(const std::vector<MoverWord>& in, const QuantiserConstants& q,
                                                 bool b_packing) const {
    if (occupant_->name == "bypass") return in;
    if (occupant_->name == "quantiser") {
      std::array<MoverWord, kQuantiserInWords> entry{};
      if (in.size() != entry.size())
        throw Error("mover.spec",
                    fmt::format("the quantiser takes {} words, the spec gives it {}", entry.size(), in.size()),
                    occupant_->loc);
      std::copy(in.begin(), in.end(), entry.begin());
      const auto out = quantise(q, entry, b_packing);
      return {out.begin(), out.end()};
    }
    throw Error("mover.spec", fmt::format("occupant {} has no model", occupant_->name), occupant_->loc);
  }

  const SystemNodeSpec& spec_;
  const MoverSpec& m_;
  Codes c_;
  const MoveDescriptor& d_;
  MoverMemory& mem_;
  MoverLimits limits_;
  Walk src_, dst_;
  const TransformOccupant* occupant_ = nullptr;
  MoveResult result_;
  std::set<std::uint64_t> written_;
};

}  // namespace

MoverWord fill_word(std::uint32_t imm, int lane_bits) {
  MoverWord w{};
  const int lane_bytes = lane_bits / 8;
  for (int k = 0; k < kWordBytes; ++k)
    w[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(imm >> (8 * (k % lane_bytes)));
  return w;
}

MoveResult run_move(const SystemNodeSpec& spec, const MoveDescriptor& d, MoverMemory& mem, const MoverLimits& limits) {
  return Move(spec, d, mem, limits).run();
}

MoverModel::MoverModel(const SystemNodeSpec& spec, MoverMemory& mem, MoverLimits limits)
    : spec_(&spec), mem_(&mem), limits_(limits), regs_(spec) {}

bool MoverModel::write(std::uint32_t offset, std::uint64_t value) {
  if (!regs_.write(offset, value)) return false;
  last_ = run_move(*spec_, regs_.descriptor(), *mem_, limits_);
  if (last_.fault == 0) ++moves_done_;
  return true;
}

std::uint64_t MoverModel::read(std::uint32_t offset) const {
  const MoverRegister* r = spec_->mover.reg_at(offset);
  if (!r || !r->read_only()) return 0;
  std::uint64_t v = 0;
  for (const auto& f : r->fields) {
    if (f.name == "fault") v = f.with(v, last_.fault);
    if (f.name == "moves_done") v = f.with(v, static_cast<std::int64_t>(moves_done_));
  }
  return v;  // busy is 0: the model finishes a move at once
}

}  // namespace tpugen::mover
