#include "fuzz/agent/agent_campaign.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "util/diag.h"
#include "util/file_io.h"
#include "util/text.h"

namespace tpugen::agent {

namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kWriteRegion = 8192;  ///< bytes of each port's write region
constexpr std::uint64_t kReadRegion = 16384;  ///< bytes of the read region, after the write regions
constexpr int kMaxSources = 4;                ///< sources a port has, at most (but WR_SLOTS + 1 now and then)

/// The message kinds a source sends, and how often.
enum Kind : std::size_t {
  kPlain,
  kStream,
  kWrite,
  kWriteNested,
  kWriteTooLong,
  kStray,
  kWrongType,
  kErrorIn,
  kNotServed,
  kMisaligned,
  kAxiRead,
  kAxiWrite,
  kWritePair,
  kKinds
};
constexpr std::array<std::uint64_t, kKinds> kKindWeights = {20, 18, 22, 6, 4, 3, 4, 3, 5, 4, 5, 4, 6};

/// The flit fields the generator writes, resolved once.
struct Fields {
  explicit Fields(const noc::Codec& c)
      : addr(c.field("mem_req.addr")),
        len(c.field("mem_req.len")),
        stream(c.field("mem_req.flags.STREAM")),
        count(c.field("mem_req.count")),
        n_peer(c.field("mem_req.n_peer")),
        entry_words(c.field("mem_req.entry_words")),
        entry_stride(c.field("mem_req.entry_stride")),
        first_word(c.field("mem_req.first_word")),
        word(c.field("data.word")),
        t_rd_req(c.type_code("MEM_RD_REQ")),
        t_wr_req(c.type_code("MEM_WR_REQ")),
        t_wr_data(c.type_code("MEM_WR_DATA")),
        t_error(c.type_code("ERROR")) {
    for (int k = 0;; ++k) {
      try {
        peers.emplace_back(c.field(fmt::format("mem_req.peer[{}].x", k)),
                           c.field(fmt::format("mem_req.peer[{}].y", k)));
      } catch (const Error&) {
        break;
      }
    }
  }
  noc::FieldRef addr, len, stream, count, n_peer, entry_words, entry_stride, first_word, word;
  std::vector<std::pair<noc::FieldRef, noc::FieldRef>> peers;
  std::uint32_t t_rd_req, t_wr_req, t_wr_data, t_error;
};

/// One port's generator.
class PortGen {
 public:
  PortGen(Rng& rng, const SystemNodeSpec& spec, const noc::Codec& codec, const Fields& f, noc::Coord agent,
          std::uint64_t read_lo, std::uint64_t read_hi, std::uint64_t write_lo, std::uint64_t write_hi,
          std::vector<std::uint64_t> read_bad, std::vector<std::uint64_t> write_bad)
      : rng_(rng),
        spec_(spec),
        codec_(codec),
        f_(f),
        agent_(agent),
        read_lo_(read_lo),
        read_hi_(read_hi),
        write_lo_(write_lo),
        write_hi_(write_hi),
        read_bad_(std::move(read_bad)),
        write_bad_(std::move(write_bad)),
        word_(static_cast<std::uint64_t>(spec.word_bytes())) {}

  /// One message of a source: its flits, in order.
  std::vector<noc::Flit> message(noc::Coord src) {
    std::vector<noc::Flit> out;
    switch (static_cast<Kind>(rng_.weighted(kKindWeights))) {
      case kPlain: {
        const std::uint64_t len = rng_.chance(1, 10) ? static_cast<std::uint64_t>(rng_.uniform(8, 63))
                                                     : static_cast<std::uint64_t>(rng_.small(0, 7));
        out.push_back(read_req(src, read_run(len + 1), len, false));
        break;
      }
      case kStream:
        out.push_back(stream_req(src, std::nullopt));
        break;
      case kWrite:
        write(out, src, write_run(static_cast<std::uint64_t>(rng_.small(0, 7)) + 1), std::nullopt, false);
        break;
      case kWriteNested: {
        const std::uint64_t len = static_cast<std::uint64_t>(rng_.uniform(1, 7));
        write(out, src, write_run(len + 1), len, true);
        break;
      }
      case kWriteTooLong: {
        const auto max = static_cast<std::uint64_t>(spec_.agent.write_max_len);
        const auto len = static_cast<std::uint64_t>(
            rng_.uniform(static_cast<std::int64_t>(max) + 1, static_cast<std::int64_t>(max) + 13));
        write(out, src, write_run(1), len, false);
        break;
      }
      case kStray:
        for (std::int64_t k = rng_.uniform(1, 2); k > 0; --k) out.push_back(data(src, rng_.chance(1, 2)));
        break;
      case kWrongType: {
        std::vector<std::uint32_t> others;
        for (std::uint32_t t = 0; t < (1U << codec_.field("type").width); ++t)
          if (t != f_.t_rd_req && t != f_.t_wr_req && t != f_.t_wr_data && t != f_.t_error) others.push_back(t);
        noc::Flit x = random_payload();
        set_header(x, src, rng_.pick(others), static_cast<std::uint32_t>(rng_.uniform(0, 255)),
                   static_cast<std::uint32_t>(rng_.uniform(0, 1)));
        out.push_back(x);
        break;
      }
      case kErrorIn: {
        noc::Flit x = random_payload();
        set_header(x, src, f_.t_error, static_cast<std::uint32_t>(rng_.uniform(0, 255)), 1);
        out.push_back(x);
        break;
      }
      case kNotServed: {
        const std::uint64_t len = static_cast<std::uint64_t>(rng_.small(0, 7));
        const std::uint64_t a = not_served(len + 1);
        if (rng_.chance(1, 2)) {
          write(out, src, a, len, false);
        } else if (rng_.chance(1, 3)) {
          out.push_back(stream_req(src, a));
        } else {
          out.push_back(read_req(src, a, len, false));
        }
        break;
      }
      case kMisaligned: {
        const std::uint64_t len = static_cast<std::uint64_t>(rng_.small(0, 7));
        const auto off = static_cast<std::uint64_t>(rng_.uniform(1, static_cast<std::int64_t>(word_) - 1));
        if (rng_.chance(1, 2))
          write(out, src, write_run(len + 1) + off, len, false);
        else
          out.push_back(read_req(src, read_run(len + 1) + off, len, false));
        break;
      }
      case kAxiRead: {
        const std::uint64_t len = static_cast<std::uint64_t>(rng_.small(0, 7));
        std::uint64_t a = 0;
        if (!read_bad_.empty() && rng_.chance(2, 3)) {
          const std::uint64_t bad = rng_.pick(read_bad_);
          a = std::max(read_lo_,
                       bad - word_ * static_cast<std::uint64_t>(rng_.uniform(0, static_cast<std::int64_t>(len))));
          a = std::min(a, read_hi_ - word_ * (len + 1));
        } else {  // past the image's end: DECERR
          a = read_hi_ - word_ * static_cast<std::uint64_t>(rng_.uniform(0, static_cast<std::int64_t>(len)));
        }
        if (rng_.chance(1, 3))
          out.push_back(stream_req(src, a));
        else
          out.push_back(read_req(src, a, len, false));
        break;
      }
      case kAxiWrite: {
        const std::uint64_t len = static_cast<std::uint64_t>(rng_.small(0, 7));
        std::uint64_t a = write_run(len + 1);
        if (!write_bad_.empty()) {
          const std::uint64_t bad = rng_.pick(write_bad_);
          a = std::max(write_lo_,
                       bad - word_ * static_cast<std::uint64_t>(rng_.uniform(0, static_cast<std::int64_t>(len))));
          a = std::min(a, write_hi_ - word_ * (len + 1));
        }
        write(out, src, a, len, false);
        break;
      }
      case kWritePair: {  // two writes at consecutive addresses: one burst would join them
        const std::uint64_t la = static_cast<std::uint64_t>(rng_.small(0, 7)),
                            lb = static_cast<std::uint64_t>(rng_.small(0, 7));
        std::uint64_t a = write_run(la + lb + 2);
        if (!write_bad_.empty() && rng_.chance(1, 2)) {  // the first (or the second) answered with an error
          const std::uint64_t bad = rng_.pick(write_bad_);
          const std::uint64_t back = rng_.chance(1, 2) ? 0 : la + 1;
          if (bad >= write_lo_ + word_ * back && bad - word_ * back + word_ * (la + lb + 2) <= write_hi_)
            a = bad - word_ * back;
        }
        write(out, src, a, la, false);
        write(out, src, a + word_ * (la + 1), lb, false);
        break;
      }
      case kKinds:
        break;
    }
    return out;
  }

 private:
  void set_header(noc::Flit& x, noc::Coord src, std::uint32_t type, std::uint32_t txn, std::uint32_t last) {
    const std::uint32_t rsvd = rng_.chance(1, 8) ? static_cast<std::uint32_t>(rng_.uniform(0, 3)) : 0;  // ignored
    codec_.set_header(x, noc::Header::between(agent_, src, type, txn, last, rsvd));
  }

  noc::Flit random_payload() {
    noc::Flit x;
    for (int c = 0; c < codec_.spec().payload_bits / 64; ++c) x.set_bits(64 * c, 64, rng_.next());
    return x;
  }

  noc::Flit request(noc::Coord src, std::uint32_t type, std::uint64_t a, std::uint64_t len) {
    noc::Flit x;
    if (rng_.chance(1, 6)) x = random_payload();  // bits the agent does not read
    set_header(x, src, type, static_cast<std::uint32_t>(rng_.uniform(0, 255)),
               static_cast<std::uint32_t>(rng_.uniform(0, 1)));
    f_.addr.set(x, a & ((std::uint64_t{1} << f_.addr.width) - 1));
    f_.len.set(x, len);
    if (rng_.chance(1, 4)) f_.stream.set(x, 1);  // STREAM on a write is ignored
    return x;
  }

  noc::Flit read_req(noc::Coord src, std::uint64_t a, std::uint64_t len, bool stream) {
    noc::Flit x = request(src, f_.t_rd_req, a, len);
    f_.stream.set(x, stream ? 1 : 0);
    return x;
  }

  /// A stream read at `at` (else at a read run of its words).
  noc::Flit stream_req(noc::Coord src, std::optional<std::uint64_t> at) {
    std::uint64_t ew = 0;
    switch (rng_.weighted(std::array<std::uint64_t, 3>{2, 8, 2})) {
      case 0:
        ew = 0;
        break;
      case 1:
        ew = static_cast<std::uint64_t>(rng_.uniform(1, 4));
        break;
      default:
        ew = rng_.chance(1, 2) ? static_cast<std::uint64_t>(rng_.uniform(5, 9)) : 255;
        break;
    }
    const auto count = static_cast<std::uint64_t>(rng_.edgy(0, 6));
    const std::uint64_t e = (ew == 0 || ew > 4) ? 4 : ew, n = count == 0 ? 1 : count;
    // tpugen's entry_stride: 0 (consecutive entries) half the time, else
    // overlapping, consecutive, gapped or, rarely, the widest.
    std::uint64_t stride = 0;
    if (rng_.chance(1, 2))
      stride = rng_.chance(1, 16) ? (std::uint64_t{1} << f_.entry_stride.width) - 1
                                  : static_cast<std::uint64_t>(rng_.uniform(1, static_cast<std::int64_t>(2 * e + 3)));
    const std::uint64_t span = (stride == 0 ? e : stride) * (n - 1) + e;  // words from the first to past the last
    const std::uint64_t a = at ? *at : read_run(span);
    noc::Flit x = read_req(src, a, static_cast<std::uint64_t>(rng_.uniform(0, 255)), true);
    f_.count.set(x, count);
    f_.entry_words.set(x, ew);
    f_.entry_stride.set(x, stride);
    f_.first_word.set(x, rng_.chance(1, 3) ? static_cast<std::uint64_t>(rng_.uniform(
                                                 1, static_cast<std::int64_t>((1 << f_.first_word.width) - 1)))
                                           : 0);
    const auto np = static_cast<std::uint64_t>(rng_.uniform(0, static_cast<std::int64_t>(f_.peers.size())));
    f_.n_peer.set(x, std::min<std::uint64_t>(np, (std::uint64_t{1} << f_.n_peer.width) - 1));
    for (const auto& [px, py] : f_.peers) {  // every peer field set, used or not
      noc::Coord p{static_cast<int>(rng_.uniform(0, 15)), static_cast<int>(rng_.uniform(0, 15))};
      if (rng_.chance(1, 6)) p = src;  // the requester again: not merged
      px.set(x, static_cast<std::uint64_t>(p.x));
      py.set(x, static_cast<std::uint64_t>(p.y));
    }
    return x;
  }

  noc::Flit data(noc::Coord src, bool last) {
    noc::Flit x = random_payload();
    set_header(x, src, f_.t_wr_data, static_cast<std::uint32_t>(rng_.uniform(0, 255)), last ? 1 : 0);
    return x;
  }

  /// A MEM_WR_REQ at `a` and its len + 1 data flits (`len` by default the
  /// run's: a write_run's words - 1); `nested`: another request from the same
  /// source between two of its data flits (a second MEM_WR_REQ, refused
  /// WRITE_OPEN, or a read).
  void write(std::vector<noc::Flit>& out, noc::Coord src, std::uint64_t a, std::optional<std::uint64_t> len,
             bool nested) {
    const std::uint64_t l = len ? *len : last_len_;
    out.push_back(request(src, f_.t_wr_req, a, l));
    const std::uint64_t beats = l + 1;
    const std::uint64_t nest_at =
        nested ? static_cast<std::uint64_t>(rng_.uniform(1, static_cast<std::int64_t>(l))) : 0;
    const bool wrong = rng_.chance(1, 10);
    const auto wrong_at = static_cast<std::uint64_t>(rng_.uniform(0, static_cast<std::int64_t>(l)));
    for (std::uint64_t k = 0; k < beats; ++k) {
      if (nested && k == nest_at) {
        if (rng_.chance(2, 3)) {
          const std::uint64_t nl = static_cast<std::uint64_t>(rng_.small(0, 7));
          out.push_back(request(src, f_.t_wr_req, write_run(nl + 1), nl));
        } else {
          out.push_back(read_req(src, read_run(1), 0, false));
        }
      }
      const bool last = (k + 1 == beats) != (wrong && k == wrong_at);
      out.push_back(data(src, last));
    }
  }

  /// The start of a run of `words` words in the read region, across a page
  /// boundary a quarter of the time.
  std::uint64_t read_run(std::uint64_t words) {
    const std::uint64_t bytes = words * word_;
    if (bytes >= read_hi_ - read_lo_) return read_lo_;
    if (words > 1 && rng_.chance(1, 4)) {
      const std::uint64_t page = (read_lo_ / kPage + 1 + static_cast<std::uint64_t>(rng_.uniform(0, 2))) * kPage;
      const std::uint64_t a =
          page - word_ * static_cast<std::uint64_t>(rng_.uniform(1, static_cast<std::int64_t>(words) - 1));
      if (a >= read_lo_ && a + bytes <= read_hi_) return a;
    }
    return read_lo_ + word_ * static_cast<std::uint64_t>(
                                  rng_.uniform(0, static_cast<std::int64_t>((read_hi_ - read_lo_ - bytes) / word_)));
  }

  /// The start of a run of `words` (<= WRITE_MAX_BEATS) words in the port's write region.
  std::uint64_t write_run(std::uint64_t words) {
    last_len_ = words - 1;
    const std::uint64_t bytes = words * word_;
    if (words > 1 && rng_.chance(1, 5)) {  // across the region's middle page boundary
      const std::uint64_t page = (write_lo_ / kPage + 1) * kPage;
      const std::uint64_t a =
          page - word_ * static_cast<std::uint64_t>(rng_.uniform(1, static_cast<std::int64_t>(words) - 1));
      if (a >= write_lo_ && a + bytes <= write_hi_) return a;
    }
    return write_lo_ + word_ * static_cast<std::uint64_t>(
                                   rng_.uniform(0, static_cast<std::int64_t>((write_hi_ - write_lo_ - bytes) / word_)));
  }

  /// An address whose run of `words` words the agent does not serve: a
  /// served field with another value, or a run across the lowest served
  /// field's boundary, or one past 2^ADDR_W.
  std::uint64_t not_served(std::uint64_t words) {
    const NocSpec& ns = codec_.spec();
    const std::uint64_t top = std::uint64_t{1} << ns.address_bits;
    std::vector<const NocField*> fields;
    for (const AgentServes& s : spec_.agent.serves)
      if (const NocField* f = ns.address_map.field(s.field)) fields.push_back(f);
    const std::uint64_t base = read_run(1);
    const int choice = static_cast<int>(rng_.uniform(0, 2));
    if (choice == 0 && !fields.empty()) {
      const NocField* f = rng_.pick(fields);
      std::uint64_t served = 0;
      for (const AgentServes& s : spec_.agent.serves)
        if (s.field == f->name) served = s.value;
      const std::uint64_t mask = ((std::uint64_t{1} << f->width()) - 1);
      std::uint64_t v = static_cast<std::uint64_t>(rng_.uniform(0, static_cast<std::int64_t>(mask)));
      if (v == served) v = (v + 1) & mask;
      return (base & ~(mask << f->lsb)) | (v << f->lsb);
    }
    const std::uint64_t back = word_ * static_cast<std::uint64_t>(rng_.uniform(
                                           1, static_cast<std::int64_t>(std::max<std::uint64_t>(2, words) - 1)));
    if (choice == 1 && !fields.empty() && words > 1) {
      int lsb = ns.address_bits;
      for (const NocField* f : fields) lsb = std::min(lsb, f->lsb);
      return (((read_lo_ >> lsb) + 1) << lsb) - back;  // across the lowest served field's boundary
    }
    if (words > 1 || fields.empty()) return top - back;  // past the top of the map
    return not_served(words);                            // one word: another field value (choice 0 again, eventually)
  }

  Rng& rng_;
  const SystemNodeSpec& spec_;
  const noc::Codec& codec_;
  const Fields& f_;
  noc::Coord agent_;
  std::uint64_t read_lo_, read_hi_, write_lo_, write_hi_;
  std::vector<std::uint64_t> read_bad_, write_bad_;
  std::uint64_t word_;
  std::uint64_t last_len_ = 0;
};

}  // namespace

AgentCaseShape case_shape(const NocParams& agent_params) {
  return {static_cast<int>(agent_params["MEM_PORTS"]), static_cast<int>(agent_params["WR_SLOTS"])};
}

AgentCase random_case(Rng& rng, const SystemNodeSpec& spec, const noc::Codec& codec, const AgentCaseShape& shape) {
  const Fields f(codec);
  AgentCase c;
  AgentStimulus& s = c.stimulus;
  const auto ports = static_cast<std::uint64_t>(shape.ports);
  // The memory: each port's write region, then the read region.
  const NocSpec& ns = codec.spec();
  const std::uint64_t size = ports * kWriteRegion + kReadRegion;
  const std::array<std::uint64_t, 4> bases = {0x0, 0x20000, std::uint64_t{1} << (ns.address_bits - 2),
                                              (std::uint64_t{1} << 36) - 0x10000};
  s.mem_base = bases[static_cast<std::size_t>(rng.uniform(0, 3))];
  s.image.resize(size);
  for (std::size_t i = 0; i < size; i += 8) {
    const std::uint64_t v = rng.next();
    for (std::size_t b = 0; b < 8 && i + b < size; ++b) s.image[i + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  const std::uint64_t word = static_cast<std::uint64_t>(spec.word_bytes());
  const std::uint64_t read_lo = s.mem_base + ports * kWriteRegion, read_hi = s.mem_base + size;
  auto some_words = [&](std::uint64_t lo, std::uint64_t hi, int most) {
    std::vector<std::uint64_t> out;
    if (!rng.chance(2, 3)) return out;
    for (std::int64_t k = rng.uniform(1, most); k > 0; --k)
      out.push_back(lo +
                    word * static_cast<std::uint64_t>(rng.uniform(0, static_cast<std::int64_t>((hi - lo) / word) - 1)));
    return out;
  };
  const std::vector<std::uint64_t> read_bad = some_words(read_lo, read_hi, 3);
  s.slverr = read_bad;

  // The sources: nodes other than the agent's ports' (which sit at y = 0).
  std::set<noc::Coord> used;
  for (std::uint64_t p = 0; p < ports; ++p) {
    AgentPortInput port;
    port.node = {static_cast<int>(p), 0};
    const std::uint64_t write_lo = s.mem_base + p * kWriteRegion, write_hi = write_lo + kWriteRegion;
    const std::vector<std::uint64_t> write_bad = some_words(write_lo, write_hi, 2);
    s.slverr.insert(s.slverr.end(), write_bad.begin(), write_bad.end());
    PortGen gen(rng, spec, codec, f, port.node, read_lo, read_hi, write_lo, write_hi, read_bad, write_bad);
    // Now and then one more source than slots, so that a write finds every slot open (WRITE_SLOTS_FULL).
    const int nsrc = rng.chance(1, 6) ? shape.wr_slots + 1 : static_cast<int>(rng.uniform(1, kMaxSources));
    std::vector<noc::Coord> srcs;
    while (static_cast<int>(srcs.size()) < nsrc) {
      const noc::Coord src{static_cast<int>(rng.uniform(0, 15)), static_cast<int>(rng.uniform(1, 15))};
      if (std::find(srcs.begin(), srcs.end(), src) == srcs.end()) srcs.push_back(src);
    }
    std::vector<std::deque<noc::Flit>> queues(srcs.size());
    for (std::size_t k = 0; k < srcs.size(); ++k) {
      for (std::int64_t m = rng.chance(1, 10) ? rng.uniform(20, 40) : rng.uniform(2, 12); m > 0; --m)
        for (noc::Flit& x : gen.message(srcs[k])) queues[k].push_back(std::move(x));
    }
    // Interleave the sources' flits, keeping each source's order.
    const auto gap_max = static_cast<unsigned>(rng.chance(1, 3) ? 0 : rng.uniform(1, 6));
    std::size_t last = 0;
    for (;;) {
      std::vector<std::size_t> ready;
      for (std::size_t k = 0; k < queues.size(); ++k)
        if (!queues[k].empty()) ready.push_back(k);
      if (ready.empty()) break;
      std::size_t k = rng.pick(ready);
      if (rng.chance(1, 2) && std::find(ready.begin(), ready.end(), last) != ready.end()) k = last;
      last = k;
      AgentFlit af;
      af.flit = queues[k].front();
      queues[k].pop_front();
      af.gap = gap_max == 0 || rng.chance(1, 2) ? 0 : static_cast<unsigned>(rng.uniform(1, gap_max));
      port.flits.push_back(std::move(af));
    }
    s.ports.push_back(std::move(port));
  }
  std::sort(s.slverr.begin(), s.slverr.end());
  s.slverr.erase(std::unique(s.slverr.begin(), s.slverr.end()), s.slverr.end());

  // The conditions.
  c.conditions.latency = static_cast<unsigned>(rng.chance(1, 2) ? 0 : rng.small(1, 40));
  c.conditions.stall = rng.chance(1, 2) ? 0.0 : 0.05 * static_cast<double>(rng.uniform(1, 6));
  for (std::uint64_t p = 0; p < ports; ++p)
    c.conditions.backpressure.push_back(rng.chance(1, 3) ? 0.0 : 0.1 * static_cast<double>(rng.uniform(1, 7)));
  c.conditions.seed = rng.next() % 1000000;
  return c;
}

// --- Coverage ------------------------------------------------------------------------

AgentCoverage::AgentCoverage(const SystemNodeSpec& spec, const AgentCaseShape& shape)
    : fuzz::BinCoverage("the agent's coverage model"), wr_slots_(shape.wr_slots) {
  std::vector<std::string> bins;
  for (const SysCode& r : spec.agent.error_rules) bins.push_back("rule/" + r.name);
  if (shape.wr_slots >= 2) bins.emplace_back("write/interleaved");
  bins.emplace_back("write/slots_full");
  for (const char* b : {"read/plain", "read/stream", "read/long", "read/page_cross", "stream/count_gt_1", "write/ack",
                        "write/eight_beats", "write/adjacent", "data/stray", "data/discarded", "data/last_mismatch",
                        "input/error_dropped", "conditions/latency", "conditions/stall", "conditions/backpressure"})
    bins.emplace_back(b);
  for (int e = 1; e <= 4; ++e) bins.push_back(fmt::format("stream/e_{}", e));
  for (const char* b : {"stream/stride_overlap", "stream/stride_gap", "stream/first_word"}) bins.emplace_back(b);
  for (int n = 0; n <= 3; ++n) bins.push_back(fmt::format("stream/peers_{}", n));
  for (int p = 0; p < shape.ports; ++p) bins.push_back(fmt::format("ports/port_{}", p));
  for (const auto& b : bins) declare(b);
}

void AgentCoverage::add(const noc::Codec& codec, const AgentCase& c, const AgentExpectation& model) {
  const Fields f(codec);
  count_case();
  const noc::FieldRef ew = codec.field("mem_req.entry_words");
  const std::uint32_t t_ack = codec.type_code("MEM_WR_ACK");
  std::set<std::string> seen;
  for (std::size_t p = 0; p < c.stimulus.ports.size(); ++p) {
    const AgentPortInput& port = c.stimulus.ports[p];
    if (!port.flits.empty()) seen.insert(fmt::format("ports/port_{}", p));
    std::uint64_t write_end = 0;  // the end of the port's last MEM_WR_REQ's words
    for (const AgentFlit& af : port.flits) {
      const noc::Header h = codec.header(af.flit);
      const std::uint64_t a = f.addr.get(af.flit), len = f.len.get(af.flit);
      if (h.type == f.t_wr_req && len == 7 && a % 32 == 0) seen.insert("write/eight_beats");
      if (h.type == f.t_wr_req) {
        if (a == write_end && a % 32 == 0) seen.insert("write/adjacent");
        write_end = a + 32 * (len + 1);
      }
      if (h.type != f.t_rd_req) continue;
      std::uint64_t words = len + 1;
      if (f.stream.get(af.flit) != 0) {
        const std::uint64_t raw = ew.get(af.flit), cnt = f.count.get(af.flit);
        const std::uint64_t e = (raw == 0 || raw > 4) ? 4 : raw, n = cnt == 0 ? 1 : cnt;
        seen.insert("read/stream");
        seen.insert(fmt::format("stream/e_{}", e));
        seen.insert(fmt::format("stream/peers_{}", f.n_peer.get(af.flit)));
        if (n > 1) seen.insert("stream/count_gt_1");
        const std::uint64_t stride = f.entry_stride.get(af.flit);
        if (n > 1 && stride != 0 && stride < e) seen.insert("stream/stride_overlap");
        if (n > 1 && stride > e) seen.insert("stream/stride_gap");
        if (f.first_word.get(af.flit) != 0) seen.insert("stream/first_word");
        words = (stride == 0 ? e : stride) * (n - 1) + e;
      } else {
        seen.insert("read/plain");
        if (len >= 32) seen.insert("read/long");
      }
      if (a % 32 == 0 && a / kPage != (a + 32 * (words - 1)) / kPage && a >= c.stimulus.mem_base &&
          a + 32 * words <= c.stimulus.mem_base + c.stimulus.image.size())
        seen.insert("read/page_cross");
    }
  }
  for (std::size_t p = 0; p < model.counters.size(); ++p) {
    const AgentCounters& k = model.counters[p];
    for (const auto& [rule, n] : k.errors_sent)
      if (n > 0) seen.insert("rule/" + rule);
    if (k.stray_data_flits) seen.insert("data/stray");
    if (k.discarded_data_flits) seen.insert("data/discarded");
    if (k.data_last_mismatches) seen.insert("data/last_mismatch");
    if (k.errors_dropped) seen.insert("input/error_dropped");
    if (k.max_open_writes >= 2 && wr_slots_ >= 2) seen.insert("write/interleaved");
    if (static_cast<int>(k.max_open_writes) >= wr_slots_) seen.insert("write/slots_full");
    for (const auto& [key, flits] : model.streams[p])
      for (const noc::Flit& x : flits)
        if (codec.header(x).type == t_ack) seen.insert("write/ack");
  }
  if (c.conditions.latency > 0) seen.insert("conditions/latency");
  if (c.conditions.stall > 0) seen.insert("conditions/stall");
  for (const double b : c.conditions.backpressure)
    if (b > 0) seen.insert("conditions/backpressure");
  for (const auto& b : seen) hit(b);
}

// --- Shrinking and reproducers --------------------------------------------------------

std::size_t case_flits(const AgentCase& c) { return c.stimulus.flits(); }

AgentShrunk shrink_case(const AgentCase& c, const std::string& failure, const AgentJudge& judge, int budget) {
  AgentShrunk s{c, failure, 0};
  // Try a candidate: kept when it still fails.
  auto attempt = [&](const AgentCase& y) {
    if (s.runs >= budget) return false;
    ++s.runs;
    const std::string fail = judge(y);
    if (fail.empty()) return false;
    s.c = y;
    s.failure = fail;
    return true;
  };
  {  // the plain conditions, no gaps, no SLVERR words
    AgentCase y = s.c;
    y.conditions = AgentConditions{};
    y.conditions.backpressure.assign(y.stimulus.ports.size(), 0.0);
    y.conditions.seed = s.c.conditions.seed;
    if (!(y.conditions == s.c.conditions)) (void)attempt(y);
    y = s.c;
    bool gaps = false;
    for (auto& p : y.stimulus.ports)
      for (auto& f : p.flits) gaps = gaps || f.gap != 0, f.gap = 0;
    if (gaps) (void)attempt(y);
    if (!s.c.stimulus.slverr.empty()) {
      y = s.c;
      y.stimulus.slverr.clear();
      (void)attempt(y);
    }
  }
  for (std::size_t p = 0; p < s.c.stimulus.ports.size() && s.c.stimulus.ports.size() > 1; ++p) {
    if (s.c.stimulus.ports[p].flits.empty()) continue;
    AgentCase y = s.c;
    y.stimulus.ports[p].flits.clear();
    (void)attempt(y);
  }
  // Runs of flits dropped, halving the run until single flits.
  bool progress = true;
  while (progress && s.runs < budget) {
    progress = false;
    for (std::size_t p = 0; p < s.c.stimulus.ports.size() && s.runs < budget; ++p) {
      for (std::size_t chunk = std::max<std::size_t>(1, s.c.stimulus.ports[p].flits.size() / 2);
           chunk >= 1 && s.runs < budget; chunk /= 2) {
        for (std::size_t at = 0; at < s.c.stimulus.ports[p].flits.size() && s.runs < budget;) {
          AgentCase y = s.c;
          auto& fl = y.stimulus.ports[p].flits;
          const std::size_t n = std::min(chunk, fl.size() - at);
          fl.erase(fl.begin() + static_cast<std::ptrdiff_t>(at), fl.begin() + static_cast<std::ptrdiff_t>(at + n));
          if (attempt(y))
            progress = true;  // the flits at `at` are new: try them
          else
            at += n;
        }
        if (chunk == 1) break;
      }
    }
  }
  return s;
}

std::string replay_command(const std::string& dir, const NocParams& agent_params, const std::string& inject_bug) {
  std::string cmd = fmt::format("tpugen agent fuzz --replay {}", dir);
  for (const auto& [name, v] : agent_params.listing()) {
    std::string flag = name;
    std::transform(flag.begin(), flag.end(), flag.begin(),
                   [](char ch) { return ch == '_' ? '-' : static_cast<char>(std::tolower(ch)); });
    cmd += fmt::format(" --{} {}", flag, v);
  }
  if (!inject_bug.empty()) cmd += " --inject-bug " + inject_bug;
  return cmd;
}

void write_reproducer(const noc::Codec& codec, const AgentCase& c, const std::string& failure, const std::string& dir,
                      const NocParams& agent_params, const std::string& inject_bug) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path d(dir);
  const AgentStimulus& s = c.stimulus;
  write_file(d / "mem.bin", std::string(reinterpret_cast<const char*>(s.image.data()), s.image.size()), "fuzz.io");
  const std::string replay = replay_command(dir, agent_params, inject_bug);
  nlohmann::ordered_json j;
  j["failure"] = failure;
  j["replay"] = replay;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, v] : agent_params.listing()) params[name] = v;
  j["parameters"] = params;
  j["latency"] = c.conditions.latency;
  j["stall"] = c.conditions.stall;
  j["backpressure"] = c.conditions.backpressure;
  j["seed"] = c.conditions.seed;
  j["mem_base"] = fmt::format("{:#x}", s.mem_base);
  j["mem_size"] = s.image.size();
  std::vector<std::string> slverr;
  for (const auto a : s.slverr) slverr.push_back(fmt::format("{:#x}", a));
  j["slverr"] = slverr;
  nlohmann::ordered_json ports = nlohmann::ordered_json::array();
  for (const AgentPortInput& p : s.ports) {
    nlohmann::ordered_json port;
    port["node"] = {p.node.x, p.node.y};
    nlohmann::ordered_json flits = nlohmann::ordered_json::array();
    for (const AgentFlit& f : p.flits)
      flits.push_back({{"gap", f.gap}, {"flit", codec.hex(f.flit)}, {"is", codec.describe(f.flit)}});
    port["flits"] = flits;
    ports.push_back(port);
  }
  j["ports"] = ports;
  write_file(d / "case.json", j.dump(2) + "\n", "fuzz.io");
  write_file(d / "replay.sh", "#!/bin/sh\n" + replay + "\n", "fuzz.io");
}

AgentCase read_case(const noc::Codec& codec, const std::string& path) {
  std::filesystem::path file(path);
  if (std::filesystem::is_directory(file)) file /= "case.json";
  const std::string text = read_file(file, "fuzz.case");
  auto bad = [&](const std::string& why) { return Error("fuzz.case", fmt::format("{}: {}", file.string(), why)); };
  AgentCase c;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    auto number = [&](const nlohmann::json& v) -> std::uint64_t {
      if (v.is_number_unsigned()) return v.get<std::uint64_t>();
      if (const auto n = v.is_string() ? parse_unsigned(v.get<std::string>()) : std::nullopt) return *n;
      throw bad(fmt::format("{} is neither an unsigned integer nor a decimal or \"0x...\" string", v.dump()));
    };
    c.conditions.latency = static_cast<unsigned>(number(j.at("latency")));
    c.conditions.stall = j.at("stall").get<double>();
    c.conditions.backpressure = j.at("backpressure").get<std::vector<double>>();
    c.conditions.seed = number(j.at("seed"));
    c.stimulus.mem_base = number(j.at("mem_base"));
    for (const auto& a : j.at("slverr")) c.stimulus.slverr.push_back(number(a));
    for (const auto& p : j.at("ports")) {
      AgentPortInput port;
      port.node = {p.at("node").at(0).get<int>(), p.at("node").at(1).get<int>()};
      for (const auto& f : p.at("flits"))
        port.flits.push_back({static_cast<unsigned>(number(f.at("gap"))),
                              codec.from_hex(f.at("flit").get<std::string>(), "a case's flit")});
      c.stimulus.ports.push_back(std::move(port));
    }
    const std::string img = read_file(file.parent_path() / "mem.bin", "fuzz.case");
    c.stimulus.image.assign(img.begin(), img.end());
    if (c.stimulus.image.size() != number(j.at("mem_size"))) throw bad("mem.bin is not mem_size bytes");
  } catch (const nlohmann::json::exception& e) {
    throw bad(e.what());
  } catch (const std::invalid_argument& e) {
    throw bad(e.what());
  }
  return c;
}

}  // namespace tpugen::agent
