#include "model/cu/cu_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <tuple>

#include "isa/check.h"
#include "isa/image.h"
#include "util/diag.h"

namespace tpugen::cu {

namespace {

int round_up(int v, int to) { return (v + to - 1) / to * to; }

}  // namespace

noc::Flit cu_inst(const UnitSpec& unit, const noc::Codec& codec, std::string_view op,
                  const std::map<std::string, std::uint64_t>& fields, std::uint32_t txn, bool last) {
  const UnitOpcode& o = unit.require_opcode(op);
  noc::Flit f;
  f.set_bits(unit.opcode_lsb, unit.opcode_width(), o.code);
  static const std::regex element(R"(([a-z_]+)\[([0-9]+)\]\.([a-z_]+))");
  for (const auto& [name, value] : fields) {
    int lsb = 0, width = 0;
    std::smatch m;
    if (std::regex_match(name, m, element)) {
      const UnitField* fld = o.field(m[1].str());
      const int i = std::stoi(m[2].str());
      const NocSubfield* s = fld ? fld->subfield(m[3].str()) : nullptr;
      if (s == nullptr || i >= fld->repeat) throw Error("cu.field", fmt::format("{} has no field {}", o.name, name));
      lsb = fld->lsb + i * fld->element_width() + s->lsb;
      width = s->width();
    } else {
      const UnitField* fld = o.field(name);
      if (fld == nullptr) throw Error("cu.field", fmt::format("{} has no field {}", o.name, name));
      lsb = fld->lsb;
      width = fld->width();
    }
    if (width < 64 && value >> width != 0)
      throw Error("cu.field", fmt::format("{}.{} = {} does not fit its {} bits", o.name, name, value, width));
    f.set_bits(lsb, width, value);
  }
  codec.set_header(f, noc::Header::between({0, 0}, {0, 0}, codec.type_code("CU_INST"), txn, last ? 1 : 0));
  return f;
}

GemmPlan plan_gemm(const Isa& isa, const ComputeUnitsSpec& spec, const noc::Codec& codec,
                   const noc::SystemLayout& layout, GemmShape shape, std::uint64_t base) {
  const int maxdim = static_cast<int>(isa.param("MAXDIM"));
  const int t = static_cast<int>(isa.param("T"));
  const int M = static_cast<int>(shape.m), K = static_cast<int>(shape.k), N = static_cast<int>(shape.n);
  if (M < 1 || K < 1 || N < 1) throw Error("cu.shape", fmt::format("{}x{}x{}: every dimension is at least 1", M, K, N));
  if (M % t || K % t || N % t)
    throw Error("cu.shape", fmt::format("{}x{}x{}: a unit runs whole T x T tiles, so M, K and N must be multiples of "
                                        "T = {} (ragged shapes are issue 17's)",
                                        M, K, N, t));
  if (K > maxdim)
    throw Error("cu.shape", fmt::format("K = {} is past MAXDIM = {}: a unit holds the whole K of its block (C is int8, "
                                        "so a K split would lose the partial sums)",
                                        K, maxdim));
  // Block widths: a multiple of T and of the mesh word for every block but
  // the last, so a word of C holds one unit's block alone.
  const int word = codec.field("data.word").width / 8;  // the mesh word, whose bytes share one write
  const int lcm = std::lcm(t, word);
  const int nb_max = N <= maxdim ? N : maxdim / lcm * lcm;
  if (nb_max == 0)
    throw Error("cu.shape", fmt::format("N = {} is past MAXDIM = {}, and a block of C narrower than N must be whole "
                                        "{}-byte words and T-lane tiles ({} columns), more than MAXDIM",
                                        N, maxdim, word, lcm));
  const int mb_max = M <= maxdim ? M : maxdim / t * t;
  GemmPlan p;
  p.shape = shape;
  p.word_bytes = word;
  p.a_stride = round_up(K, word) / word;
  p.b_stride = round_up(N, word) / word;
  p.c_stride = p.b_stride;
  p.a_addr = base;
  p.b_addr = p.a_addr + static_cast<std::uint64_t>(M) * p.a_stride * word;
  p.c_addr = p.b_addr + static_cast<std::uint64_t>(K) * p.b_stride * word + word;  // a guard word before C
  std::uint64_t at = p.c_addr + static_cast<std::uint64_t>(M) * p.c_stride * word + word;
  const int k_units = static_cast<int>(layout.cores.size());
  std::vector<std::pair<int, int>> rows, cols;  // (start, size)
  for (int m0 = 0; m0 < M; m0 += mb_max) rows.emplace_back(m0, std::min(mb_max, M - m0));
  for (int n0 = 0; n0 < N; n0 += nb_max) cols.emplace_back(n0, std::min(nb_max, N - n0));
  const bool one_round = static_cast<int>(rows.size() * cols.size()) <= k_units;
  int next = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) {
      GemmBlock b;
      b.core = next++ % k_units;
      b.m0 = rows[i].first;
      b.mb = rows[i].second;
      b.n0 = cols[j].first;
      b.nb = cols[j].second;
      p.blocks.push_back(b);
    }
  if (one_round) {
    // One read of an operand for every unit that needs it: the blocks of a
    // block row share A, of a block column B, in groups of at most four (a
    // reader and the descriptor's three peers). Which member reads is chosen
    // so that the units read as evenly as can be (the fewest reads on the
    // busiest unit, then the fewest in all): a read's multicast leaves the
    // reader's agent port a flit a destination a cycle, so the busiest
    // reader's port paces the operands. Between choices as even, A's readers
    // are the units dispatched first (the lowest unit numbers, the latest
    // of them first, then all of them): every core
    // needs its A before anything else, and a peer's multicast can start no
    // earlier than its reader's RUN.
    struct Group {
      std::vector<std::size_t> blocks;
      bool is_a = false;
    };
    std::vector<Group> groups;
    for (const bool is_a : {true, false}) {
      std::map<int, std::vector<std::size_t>> by;
      for (std::size_t x = 0; x < p.blocks.size(); ++x) by[is_a ? p.blocks[x].m0 : p.blocks[x].n0].push_back(x);
      for (const auto& [key, members] : by)
        for (std::size_t first = 0; first < members.size(); first += 4)
          groups.push_back(
              {std::vector<std::size_t>(members.begin() + static_cast<long>(first),
                                        members.begin() + static_cast<long>(std::min(first + 4, members.size()))),
               is_a});
    }
    // Every choice when there are few (a few thousand), else each group's
    // least-loaded member in turn.
    std::vector<std::size_t> pick(groups.size(), 0), best = pick;
    std::size_t choices = 1;
    for (const auto& g : groups) choices = std::min<std::size_t>(choices * g.blocks.size(), 1u << 20);
    const auto cost = [&](const std::vector<std::size_t>& c) {
      std::vector<int> reads(static_cast<std::size_t>(k_units), 0);
      for (std::size_t g = 0; g < groups.size(); ++g)
        ++reads[static_cast<std::size_t>(p.blocks[groups[g].blocks[c[g]]].core)];
      int most = 0, squares = 0, a_last = 0, a_sum = 0;
      for (const int r : reads) most = std::max(most, r), squares += r * r;
      for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g].is_a) {
          const int reader = p.blocks[groups[g].blocks[c[g]]].core;
          a_last = std::max(a_last, reader), a_sum += reader;
        }
      return std::make_tuple(most, squares, a_last, a_sum);
    };
    if (choices <= 4096) {
      for (auto best_cost = cost(best);;) {
        std::size_t g = 0;
        while (g < groups.size() && ++pick[g] == groups[g].blocks.size()) pick[g++] = 0;
        if (g == groups.size()) break;
        if (const auto c = cost(pick); c < best_cost) best = pick, best_cost = c;
      }
    } else {
      std::vector<int> reads(static_cast<std::size_t>(k_units), 0);
      for (std::size_t g = 0; g < groups.size(); ++g) {
        for (std::size_t i = 1; i < groups[g].blocks.size(); ++i)
          if (reads[static_cast<std::size_t>(p.blocks[groups[g].blocks[i]].core)] <
              reads[static_cast<std::size_t>(p.blocks[groups[g].blocks[best[g]]].core)])
            best[g] = i;
        ++reads[static_cast<std::size_t>(p.blocks[groups[g].blocks[best[g]]].core)];
      }
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      GemmBlock& reader = p.blocks[groups[g].blocks[best[g]]];
      for (const std::size_t x : groups[g].blocks) {
        if (x == groups[g].blocks[best[g]]) continue;
        GemmBlock& other = p.blocks[x];
        (groups[g].is_a ? reader.a_peers : reader.b_peers)
            .push_back(layout.cores[static_cast<std::size_t>(other.core)]);
        (groups[g].is_a ? other.a_recv : other.b_recv) = true;
      }
    }
  }
  // The images, one a block shape.
  for (const auto& b : p.blocks) {
    const auto key = std::make_pair(b.mb, b.nb);
    if (p.images.count(key)) continue;
    // The unit's GEMM: B's first column block loaded beside A's k-tiles (the
    // unit fetches whole rows: B's first T, A's, the rest of B's), and the
    // last column strip in groups of rows, the most of 4, 2 and 1 whose
    // groups are at least T rows and whose program fits imem, so that little
    // of C is left to write once the array is done (a word of C leaves when
    // it is whole, and the last strip completes a word in every row).
    Program prog;
    CheckResult checked;
    for (const std::int64_t parts : {4, 2, 1}) {
      if (parts > 1 && (b.mb % parts != 0 || b.mb / parts < t)) continue;
      GemmOptions options;
      options.interleave_loads = true;
      options.last_strip_parts = parts;
      prog = gemm_program(isa, {b.mb, K, b.nb}, options);
      checked = check_program(isa, prog);
      if (checked.ok()) break;
    }
    if (!checked.ok())
      throw Error("cu.shape", fmt::format("the {}x{}x{} block's program breaks {}: {}", b.mb, K, b.nb,
                                          checked.violations.front().rule, checked.violations.front().message));
    p.image_words[key] = encode_image(isa, prog);
    p.images[key] = at;
    at += static_cast<std::uint64_t>(round_up(static_cast<int>(p.image_words[key].size()) * 8, word));
  }
  p.end = at;
  // Each unit's program: LOAD when its block shape changes, RUN per block.
  const UnitSpec& unit = spec.require_unit("tinytpu");
  p.programs.assign(static_cast<std::size_t>(k_units), {});
  std::vector<std::pair<int, int>> loaded(static_cast<std::size_t>(k_units), {-1, -1});
  for (const auto& b : p.blocks) {
    auto& prog = p.programs[static_cast<std::size_t>(b.core)];
    const auto txn = static_cast<std::uint32_t>(b.core);
    const auto key = std::make_pair(b.mb, b.nb);
    if (loaded[static_cast<std::size_t>(b.core)] != key) {
      prog.push_back(
          cu_inst(unit, codec, "LOAD", {{"addr", p.images[key]}, {"words", p.image_words[key].size()}}, txn, false));
      loaded[static_cast<std::size_t>(b.core)] = key;
    }
    std::map<std::string, std::uint64_t> f = {
        {"a_addr", p.a_addr + static_cast<std::uint64_t>(b.m0) * p.a_stride * word},
        {"b_addr", p.b_addr + static_cast<std::uint64_t>(b.n0)},
        {"c_addr",
         p.c_addr + static_cast<std::uint64_t>(b.m0) * p.c_stride * word + static_cast<std::uint64_t>(b.n0)},
        {"a_stride", static_cast<std::uint64_t>(p.a_stride)},
        {"b_stride", static_cast<std::uint64_t>(p.b_stride)},
        {"c_stride", static_cast<std::uint64_t>(p.c_stride)},
        {"m", static_cast<std::uint64_t>(b.mb)},
        {"k", static_cast<std::uint64_t>(K)},
        {"n", static_cast<std::uint64_t>(b.nb)},
        {"a_recv", b.a_recv ? 1u : 0u},
        {"b_recv", b.b_recv ? 1u : 0u},
        {"a_npeer", b.a_peers.size()},
        {"b_npeer", b.b_peers.size()}};
    for (std::size_t q = 0; q < b.a_peers.size(); ++q) {
      f[fmt::format("a_peer[{}].x", q)] = static_cast<std::uint64_t>(b.a_peers[q].x);
      f[fmt::format("a_peer[{}].y", q)] = static_cast<std::uint64_t>(b.a_peers[q].y);
    }
    for (std::size_t q = 0; q < b.b_peers.size(); ++q) {
      f[fmt::format("b_peer[{}].x", q)] = static_cast<std::uint64_t>(b.b_peers[q].x);
      f[fmt::format("b_peer[{}].y", q)] = static_cast<std::uint64_t>(b.b_peers[q].y);
    }
    prog.push_back(cu_inst(unit, codec, "RUN", f, txn, false));
  }
  for (auto& prog : p.programs)
    if (!prog.empty()) {
      noc::Header h = codec.header(prog.back());
      h.last = 1;
      codec.set_header(prog.back(), h);
    }
  return p;
}

std::vector<std::uint8_t> gemm_memory(const GemmPlan& p, const Int8Matrix& a, const Int8Matrix& b, std::uint8_t fill) {
  std::vector<std::uint8_t> mem(p.end, fill);
  const int M = static_cast<int>(p.shape.m), K = static_cast<int>(p.shape.k), N = static_cast<int>(p.shape.n);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < K; ++c)
      mem[p.a_addr + static_cast<std::uint64_t>(r) * p.a_stride * p.word_bytes + c] =
          static_cast<std::uint8_t>(a.data[static_cast<std::size_t>(r * K + c)]);
  for (int r = 0; r < K; ++r)
    for (int c = 0; c < N; ++c)
      mem[p.b_addr + static_cast<std::uint64_t>(r) * p.b_stride * p.word_bytes + c] =
          static_cast<std::uint8_t>(b.data[static_cast<std::size_t>(r * N + c)]);
  for (const auto& [key, at] : p.images) {
    const auto& words = p.image_words.at(key);
    for (std::size_t w = 0; w < words.size(); ++w)
      for (int k = 0; k < 8; ++k)
        mem[at + w * 8 + static_cast<std::uint64_t>(k)] = static_cast<std::uint8_t>(words[w] >> (8 * k));
  }
  return mem;
}

Int8Matrix gemm_c(const GemmPlan& p, const std::vector<std::uint8_t>& mem) {
  Int8Matrix c;
  c.rows = p.shape.m;
  c.cols = p.shape.n;
  for (std::int64_t r = 0; r < c.rows; ++r)
    for (std::int64_t col = 0; col < c.cols; ++col)
      c.data.push_back(static_cast<std::int8_t>(
          mem[p.c_addr + static_cast<std::uint64_t>(r) * p.c_stride * p.word_bytes + static_cast<std::uint64_t>(col)]));
  return c;
}

HostPort model_port(SystemModel& system) {
  HostPort port;
  port.write = [&system](std::uint32_t o, std::uint64_t v) { system.orchestrator().write(o, v); };
  port.read = [&system](std::uint32_t o) { return system.orchestrator().read(o); };
  port.advance = [&system]() {
    const std::uint64_t before = system.flits();
    system.run();
    if (system.flits() == before) system.expire_waits();
    return system.flits() != before;
  };
  return port;
}

std::vector<DispatchEnd> host_dispatch(const OrchestratorSpec& spec, const noc::Codec& codec, HostPort& port,
                                       const std::vector<std::vector<noc::Flit>>& programs,
                                       const std::vector<noc::Coord>& nodes, int inst_depth, int prog_flits,
                                       int channels) {
  std::size_t slots = 0;
  for (const auto& p : programs) slots += p.size();
  if (slots > static_cast<std::size_t>(prog_flits))
    throw Error("cu.host", fmt::format("the programs take {} staging slots; the orchestrator has {} (PROG_FLITS)",
                                       slots, prog_flits));
  // Stage every flit.
  std::vector<std::uint32_t> base;
  std::uint32_t s = 0;
  for (const auto& p : programs) {
    base.push_back(s);
    for (const auto& f : p) {
      const std::uint32_t at = spec.staging_offset + s * spec.slot_bytes;
      for (int w = 0; w < spec.payload_words; ++w)
        port.write(at + static_cast<std::uint32_t>(w) * 8, f.bits(w * 64, 64));
      port.write(at + static_cast<std::uint32_t>(spec.header_word) * 8, codec.header_bits(f));
      ++s;
    }
  }
  const CuRegister& stat = spec.require_channel_register("CH_STAT");
  auto reg = [&](const char* r) { return spec.require_register(r).offset; };
  auto state_of = [&](std::uint64_t v) {
    const auto code = static_cast<std::uint32_t>(stat.require_field("state").get(v));
    for (const auto& st : spec.channel_states)
      if (st.code == code) return st.name;
    return std::string("?");
  };
  // A register the host last wrote with the same value is not written again
  // (programs of one length share PROG_LEN and PROG_CRED): a kick costs the
  // writes its program changes, and the units start closer together.
  std::map<std::uint32_t, std::uint64_t> written;
  auto set = [&](const char* r, std::uint64_t v) {
    const std::uint32_t o = reg(r);
    if (auto it = written.find(o); it != written.end() && it->second == v) return;
    port.write(o, v);
    written[o] = v;
  };
  std::vector<DispatchEnd> ends(programs.size());
  std::vector<int> on_channel(static_cast<std::size_t>(channels), -1);
  std::size_t next = 0, ended = 0;
  for (;;) {
    // Kick programs onto free channels.
    for (int c = 0; c < channels && next < programs.size(); ++c) {
      if (on_channel[static_cast<std::size_t>(c)] >= 0) continue;
      const auto& p = programs[next];
      if (p.empty()) {
        ends[next] = {c, nodes[next], "DONE", 0, 0, 0, 0, 0};
        ++next, ++ended;
        continue;
      }
      set("PROG_BASE", base[next]);
      set("PROG_LEN", p.size());
      const CuRegister& dst = spec.require_register("PROG_DST");
      set("PROG_DST",
          dst.require_field("y").with(dst.require_field("x").with(0, static_cast<std::uint64_t>(nodes[next].x)),
                                      static_cast<std::uint64_t>(nodes[next].y)));
      set("PROG_CRED", std::min<std::size_t>(p.size(), static_cast<std::size_t>(inst_depth)));
      port.write(reg("PROG_KICK"),
                 spec.require_register("PROG_KICK").require_field("channel").with(0, static_cast<std::uint64_t>(c)));
      const std::uint64_t err =
          spec.require_register("PROG_STAT").require_field("kick_error").get(port.read(reg("PROG_STAT")));
      if (err != 0)
        throw Error("cu.host", fmt::format("the orchestrator refused the kick of the program for ({},{}): kick "
                                           "error {}",
                                           nodes[next].x, nodes[next].y, err));
      ends[next] = {
          c, nodes[next], "SENDING", 0, 0, 0, static_cast<std::uint32_t>(p.size()), codec.header(p.front()).txn};
      on_channel[static_cast<std::size_t>(c)] = static_cast<int>(next++);
    }
    if (ended == programs.size()) return ends;
    const bool more = port.advance();
    for (int c = 0; c < channels; ++c) {
      const int prog = on_channel[static_cast<std::size_t>(c)];
      if (prog < 0) continue;
      const std::uint64_t v = port.read(stat.offset + static_cast<std::uint32_t>(c) * spec.channel_stride);
      DispatchEnd& e = ends[static_cast<std::size_t>(prog)];
      e.state = state_of(v);
      e.credits = static_cast<std::uint32_t>(stat.require_field("credits").get(v));
      e.sent = static_cast<std::uint32_t>(stat.require_field("sent").get(v));
      e.retired = static_cast<std::uint32_t>(stat.require_field("retired").get(v));
      if (e.state == "DONE" || e.state == "FAULT" || e.state == "ENDED") {
        on_channel[static_cast<std::size_t>(c)] = -1;
        ++ended;
      }
    }
    if (ended == programs.size()) return ends;
    if (!more) return ends;
  }
}

}  // namespace tpugen::cu
