// The memory agent's reference model (tb/model/agent): plain and stream
// reads, multicast, writes and their reassembly, every bad input in the
// spec's rule order, and random flits. Expected flits are built here from
// the contract (mover-notes §6, system_node.yaml's agent section, noc.yaml's
// payloads) field by field through the codec; type and rule codes are the
// specs' numbers, written out.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "agent_flits_support.h"
#include "memory_image_support.h"
#include "model/agent/agent_model.h"
#include "model/mover/memory.h"
#include "noc/codec.h"
#include "test_support.h"

using namespace tpugen;
using namespace tpugen::agent;
using mover::MoverMemory;
using mover::MoverWord;
using mover::Resp;
using noc::Coord;
using noc::Flit;
using noc::Header;

namespace {

using test::kAddressNotServed, test::kAxiResponse, test::kCuInst, test::kError, test::kMisaligned, test::kRdReq,
    test::kRdResp, test::kTypeNotServed, test::kWrAck, test::kWrData, test::kWriteOpen, test::kWriteSlotsFull,
    test::kWriteTooLong, test::kWrReq, test::word_of_seed;
// noc.yaml's address map: aperture bit 39, mesh bits 37:36.
constexpr std::uint64_t kAperture1 = std::uint64_t{1} << 39, kMesh1 = std::uint64_t{1} << 36;

constexpr std::uint64_t kBase = test::kImageBase;
constexpr std::size_t kSize = test::kImageSize;
constexpr Coord kAgent{1, 1}, kReq{2, 3};

const noc::Codec& codec() {
  static const noc::Codec c(test::shipped_noc_spec());
  return c;
}

MoverMemory patterned() { return test::patterned_image(); }

MoverWord word_at(const MoverMemory& m, std::uint64_t address) { return test::image_word(m, address); }

Header header(Coord dst, Coord src, std::uint32_t type, std::uint32_t txn, std::uint32_t last, std::uint32_t rsvd) {
  return test::flit_header(dst, src, type, txn, last, rsvd);
}

Flit request(const test::AgentRequest& r) { return test::request_flit(codec(), kAgent, r); }
Flit data(Coord src, const MoverWord& w, bool last) { return test::data_flit(codec(), kAgent, src, w, last); }
/// The MEM_RD_RESP the contract names.
Flit rd_resp(Coord to, std::uint32_t txn, bool last, std::uint32_t word_index, const MoverWord& w) {
  return test::rd_resp_flit(codec(), kAgent, to, txn, last, word_index, w);
}
Flit wr_ack(Coord to, std::uint32_t txn) { return test::wr_ack_flit(codec(), kAgent, to, txn); }
/// The ERROR flit the contract names: to `to`, from the agent, the offending txn, last 1, rsvd 0.
Flit error_to(Coord to, const Flit& offending, std::uint32_t rule) {
  return test::error_flit_to(codec(), kAgent, to, offending, rule);
}

struct Fixture {
  MoverMemory mem = patterned();
  AgentModel agent{test::shipped_system_node_spec(), codec(), kAgent, mem,
                   resolve_agent_params(test::shipped_system_node_spec())};
};

/// Flits compared one by one, each described when they differ.
void check_flits(const std::vector<Flit>& got, const std::vector<Flit>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("flit " << i << ": got " << codec().describe(got[i]) << "\n  want " << codec().describe(want[i]));
    CHECK(got[i] == want[i]);
  }
}

/// The flits of a stream read worked out from the contract: entry i at addr + 32 E i,
/// its E words to the requester then each peer; `bad` word addresses answered by ERROR.
std::vector<Flit> stream_flits(const MoverMemory& m, const Flit& rq, std::uint64_t addr, std::uint32_t txn,
                               std::uint64_t count, std::uint64_t e, const std::vector<Coord>& peers,
                               const std::vector<std::uint64_t>& bad = {}) {
  std::vector<Coord> dests{kReq};
  dests.insert(dests.end(), peers.begin(), peers.end());
  std::vector<Flit> out;
  for (std::uint64_t i = 0; i < count; ++i)
    for (const Coord& d : dests)
      for (std::uint64_t j = 0; j < e; ++j) {
        const std::uint64_t a = addr + 32 * (e * i + j);
        if (std::find(bad.begin(), bad.end(), a) != bad.end()) {
          out.push_back(error_to(d, rq, kAxiResponse));
        } else {
          out.push_back(rd_resp(d, static_cast<std::uint32_t>((txn + i) % 256), j == e - 1,
                                static_cast<std::uint32_t>(j), word_at(m, a)));
        }
      }
  return out;
}

}  // namespace

TEST_CASE("agent: a plain read of 1 and 8 beats answers each beat from memory to the requester", "[agent]") {
  for (std::uint64_t len : {0U, 7U}) {
    Fixture fx;
    INFO("len " << len);
    // Peers are present but ignored on a plain read.
    const Flit rq = request({kRdReq, kReq, 0x5A, kBase + 0x400, len, false, 3, 2, {{0, 0}, {3, 3}}});
    std::vector<Flit> want;
    for (std::uint64_t k = 0; k <= len; ++k)
      want.push_back(rd_resp(kReq, 0x5A, k == len, 0, word_at(fx.mem, kBase + 0x400 + 32 * k)));
    check_flits(fx.agent.accept(rq), want);
    CHECK(fx.agent.reads() == 1);
    CHECK(fx.agent.counters().words_read == len + 1);
  }
  // A burst across 4 KB is the requester's to avoid: the model reads it as asked.
  Fixture fx;
  const Flit rq = request({kRdReq, kReq, 1, kBase + 0x1000 - 64, 3});
  std::vector<Flit> want;
  for (std::uint64_t k = 0; k < 4; ++k)
    want.push_back(rd_resp(kReq, 1, k == 3, 0, word_at(fx.mem, kBase + 0x1000 - 64 + 32 * k)));
  check_flits(fx.agent.accept(rq), want);
}

TEST_CASE("agent: a stream sends E words an entry, txn + i, the word index in rsvd, last per entry", "[agent]") {
  struct Case {
    std::uint64_t entry_words, e, count, entries;
    std::uint32_t txn;
  };
  // entry_words 0 and above 4 mean 4; count 0 means 1; txn wraps mod 256.
  for (const Case& k :
       {Case{1, 1, 5, 5, 10}, Case{3, 3, 4, 4, 0}, Case{4, 4, 2, 2, 7}, Case{0, 4, 3, 3, 9}, Case{9, 4, 2, 2, 1},
        Case{2, 2, 0, 1, 33}, Case{1, 1, 255, 255, 200}, Case{4, 4, 255, 255, 255}}) {
    INFO("entry_words " << k.entry_words << " count " << k.count << " txn " << k.txn);
    Fixture fx;
    // len is not a stream's: a stray len changes nothing.
    const Flit rq = request({kRdReq, kReq, k.txn, kBase + 0x200, 6, true, k.count, k.entry_words});
    const std::vector<Flit> got = fx.agent.accept(rq);
    check_flits(got, stream_flits(fx.mem, rq, kBase + 0x200, k.txn, k.entries, k.e, {}));
    CHECK(fx.agent.counters().words_read == k.entries * k.e);
    if (k.count == 255) {
      // Entry 56 of txn 200 is txn 0: the wrap, spelled out.
      CHECK(codec().header(got[static_cast<std::size_t>(56 * k.e)]).txn == (k.txn + 56) % 256);
      CHECK(codec().header(got.back()).txn == (k.txn + 254) % 256);
    }
  }
}

TEST_CASE("agent: a strided stream reads entry i at addr + 32 S i and numbers its words from first_word", "[agent]") {
  Fixture fx;
  // A column of words: word 1 of three 2-word rows (E 1, S 2, first_word 1).
  test::AgentRequest column{kRdReq, kReq, 40, kBase + 0x220, 0, true, 3, 1};
  column.entry_stride = 2;
  column.first_word = 1;
  const std::vector<Flit> got = fx.agent.accept(request(column));
  REQUIRE(got.size() == 3);
  CHECK(got[0] == rd_resp(kReq, 40, true, 1, word_at(fx.mem, kBase + 0x220)));
  CHECK(got[1] == rd_resp(kReq, 41, true, 1, word_at(fx.mem, kBase + 0x260)));
  CHECK(got[2] == rd_resp(kReq, 42, true, 1, word_at(fx.mem, kBase + 0x2a0)));
  // Overlapping entries (E 2, S 1) read their shared word for each; the
  // word index wraps past 3.
  test::AgentRequest overlap{kRdReq, kReq, 50, kBase + 0x400, 0, true, 2, 2, {{1, 1}}};
  overlap.entry_stride = 1;
  overlap.first_word = 3;
  const std::vector<Flit> o = fx.agent.accept(request(overlap));
  REQUIRE(o.size() == 8);
  CHECK(o[0] == rd_resp(kReq, 50, false, 3, word_at(fx.mem, kBase + 0x400)));
  CHECK(o[1] == rd_resp(kReq, 50, true, 0, word_at(fx.mem, kBase + 0x420)));
  CHECK(o[2] == rd_resp({1, 1}, 50, false, 3, word_at(fx.mem, kBase + 0x400)));
  CHECK(o[4] == rd_resp(kReq, 51, false, 3, word_at(fx.mem, kBase + 0x420)));
  CHECK(o[5] == rd_resp(kReq, 51, true, 0, word_at(fx.mem, kBase + 0x440)));
  CHECK(fx.agent.counters().words_read == 3 + 4);
  // S = E is the stream of seed 003, as S = 0 is.
  test::AgentRequest same{kRdReq, kReq, 60, kBase + 0x600, 0, true, 4, 2};
  same.entry_stride = 2;
  check_flits(fx.agent.accept(request(same)), stream_flits(fx.mem, request(same), kBase + 0x600, 60, 4, 2, {}));
}

TEST_CASE("agent: a multicast stream sends each entry to the requester, then each peer, reading it once", "[agent]") {
  const std::vector<Coord> all_peers{{0, 0}, {3, 2}, {1, 3}};
  for (std::size_t n = 1; n <= 3; ++n) {
    INFO(n << " peers");
    Fixture fx;
    const std::vector<Coord> peers(all_peers.begin(), all_peers.begin() + static_cast<std::ptrdiff_t>(n));
    const Flit rq = request({kRdReq, kReq, 250, kBase + 0x800, 0, true, 3, 2, peers});
    const std::vector<Flit> got = fx.agent.accept(rq);
    // By hand for the first entry: word 0 and 1 to the requester, then to peer 1, ...
    REQUIRE(got.size() == 3 * 2 * (n + 1));
    CHECK(got[0] == rd_resp(kReq, 250, false, 0, word_at(fx.mem, kBase + 0x800)));
    CHECK(got[1] == rd_resp(kReq, 250, true, 1, word_at(fx.mem, kBase + 0x820)));
    CHECK(got[2] == rd_resp(peers[0], 250, false, 0, word_at(fx.mem, kBase + 0x800)));
    CHECK(got[3] == rd_resp(peers[0], 250, true, 1, word_at(fx.mem, kBase + 0x820)));
    CHECK(got[2 * (n + 1)] == rd_resp(kReq, 251, false, 0, word_at(fx.mem, kBase + 0x840)));
    check_flits(got, stream_flits(fx.mem, rq, kBase + 0x800, 250, 3, 2, peers));
    CHECK(fx.agent.counters().words_read == 6);
  }
  // n_peer names how many of the peers are present: the rest are not sent to.
  Fixture fx;
  Flit rq = request({kRdReq, kReq, 4, kBase, 0, true, 1, 1, {{0, 0}}});
  codec().set(rq, "mem_req.peer[1].x", 3);
  codec().set(rq, "mem_req.peer[2].y", 2);
  check_flits(fx.agent.accept(rq), stream_flits(fx.mem, rq, kBase, 4, 1, 1, {{0, 0}}));
}

TEST_CASE("agent: writes of 1 and 8 beats land in memory and are acknowledged", "[agent]") {
  for (std::uint64_t len : {0U, 7U}) {
    INFO("len " << len);
    Fixture fx;
    const std::uint64_t at = kBase + 0x2000;
    CHECK(fx.agent.accept(request({kWrReq, kReq, 0x77, at, len})).empty());
    CHECK(fx.agent.beats_awaited(kReq) == static_cast<int>(len + 1));
    for (std::uint64_t k = 0; k < len; ++k) CHECK(fx.agent.accept(data(kReq, word_of_seed(k), false)).empty());
    check_flits(fx.agent.accept(data(kReq, word_of_seed(len), true)), {wr_ack(kReq, 0x77)});
    for (std::uint64_t k = 0; k <= len; ++k) CHECK(word_at(fx.mem, at + 32 * k) == word_of_seed(k));
    CHECK(word_at(fx.mem, at + 32 * (len + 1)) == word_at(patterned(), at + 32 * (len + 1)));
    CHECK(fx.agent.writes() == 1);
    CHECK_FALSE(fx.agent.beats_awaited(kReq));
    CHECK(fx.agent.counters().data_last_mismatches == 0);
  }
}

TEST_CASE("agent: interleaved writes from three sources are each reassembled", "[agent]") {
  Fixture fx;
  const Coord a{0, 0}, b{3, 1}, c{2, 2};
  CHECK(fx.agent.accept(request({kWrReq, a, 1, kBase + 0x100, 2})).empty());
  CHECK(fx.agent.accept(request({kWrReq, b, 2, kBase + 0x300, 0})).empty());
  CHECK(fx.agent.accept(request({kWrReq, c, 3, kBase + 0x500, 3})).empty());
  CHECK(fx.agent.open_writes() == 3);
  CHECK(fx.agent.accept(data(c, word_of_seed(30), false)).empty());
  CHECK(fx.agent.accept(data(a, word_of_seed(10), false)).empty());
  check_flits(fx.agent.accept(data(b, word_of_seed(20), true)), {wr_ack(b, 2)});
  CHECK(fx.agent.accept(data(c, word_of_seed(31), false)).empty());
  CHECK(fx.agent.accept(data(a, word_of_seed(11), false)).empty());
  CHECK(fx.agent.accept(data(c, word_of_seed(32), false)).empty());
  // b opens another write while a and c are still open.
  CHECK(fx.agent.accept(request({kWrReq, b, 9, kBase + 0x700, 0})).empty());
  check_flits(fx.agent.accept(data(a, word_of_seed(12), true)), {wr_ack(a, 1)});
  check_flits(fx.agent.accept(data(b, word_of_seed(21), true)), {wr_ack(b, 9)});
  check_flits(fx.agent.accept(data(c, word_of_seed(33), true)), {wr_ack(c, 3)});
  for (std::uint64_t k = 0; k < 3; ++k) CHECK(word_at(fx.mem, kBase + 0x100 + 32 * k) == word_of_seed(10 + k));
  CHECK(word_at(fx.mem, kBase + 0x300) == word_of_seed(20));
  CHECK(word_at(fx.mem, kBase + 0x700) == word_of_seed(21));
  for (std::uint64_t k = 0; k < 4; ++k) CHECK(word_at(fx.mem, kBase + 0x500 + 32 * k) == word_of_seed(30 + k));
  CHECK(fx.agent.writes() == 4);
  CHECK(fx.agent.open_writes() == 0);
  CHECK(fx.agent.counters().max_open_writes == 3);
}

TEST_CASE("agent: a write with every slot open is refused WRITE_SLOTS_FULL, its data is stray, the open writes go on",
          "[agent]") {
  Fixture fx;
  const MoverMemory before = patterned();
  const int slots = fx.agent.write_slots();
  CHECK(slots == 4);  // system_node.yaml's WR_SLOTS default
  for (int s = 0; s < slots; ++s) CHECK(fx.agent.accept(request({kWrReq, {s, 0}, 0, kBase + 0x40 * s, 0})).empty());
  CHECK(fx.agent.open_writes() == slots);
  // One more source: refused, and no slot opened for it.
  const Flit over = request({kWrReq, {slots, 0}, 5, kBase + 0x40 * slots, 1});
  check_flits(fx.agent.accept(over), {error_to({slots, 0}, over, kWriteSlotsFull)});
  CHECK(fx.agent.beats_awaited({slots, 0}) == std::nullopt);
  // Its two data flits, queued behind it, are dropped; the open writes' data completes them.
  CHECK(fx.agent.accept(data({slots, 0}, word_of_seed(200), false)).empty());
  CHECK(fx.agent.accept(data({slots, 0}, word_of_seed(201), true)).empty());
  CHECK(fx.agent.stray_data_flits() == 2);
  CHECK(word_at(fx.mem, kBase + 0x40 * slots) == word_at(before, kBase + 0x40 * slots));
  // A refused write of another rule opens no discard slot either while they are full.
  const Flit too_long = request({kWrReq, {slots + 1, 0}, 6, kBase, 8});
  check_flits(fx.agent.accept(too_long), {error_to({slots + 1, 0}, too_long, kWriteTooLong)});
  CHECK(fx.agent.beats_awaited({slots + 1, 0}) == std::nullopt);
  // A source with its own write open is told WRITE_OPEN, the earlier rule.
  const Flit again = request({kWrReq, {0, 0}, 7, kBase, 0});
  check_flits(fx.agent.accept(again), {error_to({0, 0}, again, kWriteOpen)});
  for (int s = 0; s < slots; ++s)
    check_flits(fx.agent.accept(data({s, 0}, word_of_seed(100 + s), true)), {wr_ack({s, 0}, 0)});
  for (int s = 0; s < slots; ++s) CHECK(word_at(fx.mem, kBase + 0x40 * s) == word_of_seed(100 + s));
  // With a slot free again the refused source is served.
  CHECK(fx.agent.accept(request({kWrReq, {slots, 0}, 8, kBase + 0x40 * slots, 0})).empty());
  check_flits(fx.agent.accept(data({slots, 0}, word_of_seed(202), true)), {wr_ack({slots, 0}, 8)});
  CHECK(fx.agent.counters().errors_sent.at("WRITE_SLOTS_FULL") == 1);
  CHECK(fx.agent.counters().max_open_writes == static_cast<std::uint64_t>(slots));
}

TEST_CASE("agent: bad input is answered by the first rule it breaks, one ERROR flit", "[agent]") {
  Fixture fx;
  const MoverMemory before = patterned();

  SECTION("WRITE_TOO_LONG answers on arrival and consumes its len+1 data flits, writing nothing") {
    const Flit rq = request({kWrReq, kReq, 0x31, kBase + 0x100, 8});
    check_flits(fx.agent.accept(rq), {error_to(kReq, rq, kWriteTooLong)});
    CHECK(fx.agent.beats_awaited(kReq) == 9);
    for (int k = 0; k < 9; ++k) CHECK(fx.agent.accept(data(kReq, word_of_seed(7), k == 8)).empty());
    CHECK(fx.agent.stray_data_flits() == 0);
    CHECK(fx.agent.counters().discarded_data_flits == 9);
    CHECK(fx.mem.bytes() == before.bytes());
    // The tenth is stray; the next write is served.
    CHECK(fx.agent.accept(data(kReq, word_of_seed(7), true)).empty());
    CHECK(fx.agent.stray_data_flits() == 1);
    CHECK(fx.agent.accept(request({kWrReq, kReq, 0x32, kBase + 0x100, 0})).empty());
    check_flits(fx.agent.accept(data(kReq, word_of_seed(8), true)), {wr_ack(kReq, 0x32)});
    CHECK(word_at(fx.mem, kBase + 0x100) == word_of_seed(8));
    CHECK(fx.agent.writes() == 1);
    // The longest: len 255, 256 data flits.
    const Flit longest = request({kWrReq, kReq, 0x33, kBase, 255});
    check_flits(fx.agent.accept(longest), {error_to(kReq, longest, kWriteTooLong)});
    for (int k = 0; k < 256; ++k) CHECK(fx.agent.accept(data(kReq, word_of_seed(9), false)).empty());
    CHECK(fx.agent.stray_data_flits() == 1);
    CHECK_FALSE(fx.agent.beats_awaited(kReq));
  }
  SECTION("a data flit with no open write is dropped and counted") {
    CHECK(fx.agent.accept(data(kReq, word_of_seed(1), true)).empty());
    CHECK(fx.agent.accept(data({0, 2}, word_of_seed(1), false)).empty());
    CHECK(fx.agent.stray_data_flits() == 2);
    CHECK(fx.mem.bytes() == before.bytes());
  }
  SECTION("WRITE_OPEN refuses a second write from a source; the open write goes on") {
    CHECK(fx.agent.accept(request({kWrReq, kReq, 1, kBase + 0x40, 1})).empty());
    CHECK(fx.agent.accept(data(kReq, word_of_seed(1), false)).empty());
    const Flit second = request({kWrReq, kReq, 2, kBase + 0x400, 0});
    check_flits(fx.agent.accept(second), {error_to(kReq, second, kWriteOpen)});
    // Too long and open: WRITE_TOO_LONG comes first.
    const Flit third = request({kWrReq, kReq, 3, kBase + 0x400, 9});
    check_flits(fx.agent.accept(third), {error_to(kReq, third, kWriteTooLong)});
    CHECK(fx.agent.beats_awaited(kReq) == 1);
    check_flits(fx.agent.accept(data(kReq, word_of_seed(2), true)), {wr_ack(kReq, 1)});
    CHECK(word_at(fx.mem, kBase + 0x40) == word_of_seed(1));
    CHECK(word_at(fx.mem, kBase + 0x60) == word_of_seed(2));
    CHECK(word_at(fx.mem, kBase + 0x400) == word_at(before, kBase + 0x400));
    CHECK(fx.agent.stray_data_flits() == 0);
    // A read from the same source is not a write: it is served while one is open.
    CHECK(fx.agent.accept(request({kWrReq, kReq, 4, kBase, 0})).empty());
    CHECK(fx.agent.accept(request({kRdReq, kReq, 5, kBase + 0x40})).size() == 1);
  }
  SECTION("MISALIGNED: an address that is not word-aligned") {
    for (std::uint64_t off : {1U, 8U, 31U}) {
      const Flit rd = request({kRdReq, kReq, 6, kBase + off});
      check_flits(fx.agent.accept(rd), {error_to(kReq, rd, kMisaligned)});
      // A misaligned write longer than 8 beats: MISALIGNED comes first.
      const Flit wr = request({kWrReq, kReq, 7, kBase + off, 8});
      check_flits(fx.agent.accept(wr), {error_to(kReq, wr, kMisaligned)});
      for (int k = 0; k < 9; ++k) CHECK(fx.agent.accept(data(kReq, word_of_seed(1), false)).empty());
    }
    CHECK(fx.agent.reads() == 0);
    CHECK(fx.agent.stray_data_flits() == 0);
    CHECK(fx.mem.bytes() == before.bytes());
  }
  SECTION("ADDRESS_NOT_SERVED: aperture 1, mesh 1, a range leaving the map, before MISALIGNED") {
    for (std::uint64_t addr : {kAperture1 | kBase, kMesh1 | kBase, (kMesh1 * 2) | kBase, kAperture1 | kMesh1 | 8}) {
      INFO("addr " << addr);
      const Flit rd = request({kRdReq, kReq, 8, addr, 0, true, 1, 1, {{0, 0}}});
      check_flits(fx.agent.accept(rd), {error_to(kReq, rd, kAddressNotServed)});
      // A refused write consumes its data flits like a long one.
      const Flit wr = request({kWrReq, kReq, 9, addr, 2});
      check_flits(fx.agent.accept(wr), {error_to(kReq, wr, kAddressNotServed)});
      for (int k = 0; k < 3; ++k) CHECK(fx.agent.accept(data(kReq, word_of_seed(1), k == 2)).empty());
      CHECK_FALSE(fx.agent.beats_awaited(kReq));
    }
    // The last words of mesh 0's window: 2 served, the third in mesh 1.
    const std::uint64_t top = kMesh1 - 64;
    const Flit plain = request({kRdReq, kReq, 10, top, 2});
    check_flits(fx.agent.accept(plain), {error_to(kReq, plain, kAddressNotServed)});
    const Flit stream = request({kRdReq, kReq, 11, top - 64, 0, true, 2, 2});  // 4 words: top-64 .. top+32
    CHECK(fx.agent.accept(stream).size() == 4);                                // served: DECERR, but served
    const Flit beyond = request({kRdReq, kReq, 12, top - 64, 0, true, 5, 1});  // 5 words: the fifth in mesh 1
    check_flits(fx.agent.accept(beyond), {error_to(kReq, beyond, kAddressNotServed)});
    // Two one-word entries 3 words apart end in mesh 0's last word; 4 apart, in mesh 1.
    test::AgentRequest strided{kRdReq, kReq, 13, top - 64, 0, true, 2, 1};
    strided.entry_stride = 3;
    CHECK(fx.agent.accept(request(strided)).size() == 2);
    strided.entry_stride = 4;
    const Flit past = request(strided);
    check_flits(fx.agent.accept(past), {error_to(kReq, past, kAddressNotServed)});
    CHECK(fx.agent.stray_data_flits() == 0);
  }
  SECTION("TYPE_NOT_SERVED: a CU_INST, a response, a reserved type") {
    for (std::uint32_t type : {kCuInst, kRdResp, kWrAck, 0x6U, 0x7U, 0x8U, 0x9U, 0xEU}) {
      Flit f;
      codec().set_header(f, header(kAgent, {3, 0}, type, 0xC4, 1, 5));
      codec().set_hex(f, "cu_inst.body", "deadbeef");
      check_flits(fx.agent.accept(f), {error_to({3, 0}, f, kTypeNotServed)});
    }
    // The header rides in the ERROR's payload as it arrived.
    Flit f;
    codec().set_header(f, header(kAgent, {3, 0}, kCuInst, 0xC4, 1, 5));
    const Flit e = fx.agent.accept(f).at(0);
    CHECK(codec().get(e, "error.header") == codec().header_bits(f));
    CHECK(codec().header(e) == header({3, 0}, kAgent, kError, 0xC4, 1, 0));
  }
  SECTION("an ERROR flit is dropped and counted, never answered") {
    Flit f;
    codec().set_header(f, header(kAgent, {2, 2}, kError, 3, 1, 0));
    codec().set(f, "error.rule", kTypeNotServed);
    CHECK(fx.agent.accept(f).empty());
    // Its own flit refused by its router comes back from its own node: dropped too.
    codec().set_header(f, header(kAgent, kAgent, kError, 3, 1, 0));
    CHECK(fx.agent.accept(f).empty());
    CHECK(fx.agent.errors_dropped() == 2);
  }
  SECTION("AXI_RESPONSE takes a beat's place: DECERR and SLVERR on reads, in every destination's copy") {
    // A plain read over the memory's end: beat 1 is DECERR.
    const Flit plain = request({kRdReq, kReq, 40, kBase + kSize - 32, 2});
    check_flits(fx.agent.accept(plain), {rd_resp(kReq, 40, false, 0, word_at(fx.mem, kBase + kSize - 32)),
                                         error_to(kReq, plain, kAxiResponse), error_to(kReq, plain, kAxiResponse)});
    // A stream with one peer whose second entry runs off the end (DECERR) ...
    const std::vector<Coord> peers{{0, 3}};
    const Flit off = request({kRdReq, kReq, 50, kBase + kSize - 64, 0, true, 2, 2, peers});
    check_flits(fx.agent.accept(off),
                stream_flits(fx.mem, off, kBase + kSize - 64, 50, 2, 2, peers, {kBase + kSize, kBase + kSize + 32}));
    // ... and one with SLVERR on entry 1 word 0 alone: entry 1's word 1 still goes.
    fx.mem.inject_slverr(kBase + 0x640);
    const Flit mid = request({kRdReq, kReq, 60, kBase + 0x600, 0, true, 3, 2, peers});
    const std::vector<Flit> got = fx.agent.accept(mid);
    check_flits(got, stream_flits(fx.mem, mid, kBase + 0x600, 60, 3, 2, peers, {kBase + 0x640}));
    CHECK(got[4] == error_to(kReq, mid, kAxiResponse));
    CHECK(got[5] == rd_resp(kReq, 61, true, 1, word_at(fx.mem, kBase + 0x660)));
    CHECK(got[6] == error_to({0, 3}, mid, kAxiResponse));
    CHECK(fx.agent.counters().words_read == 3 + 4 + 6);  // each entry read once
    CHECK(fx.agent.reads() == 3);
  }
  SECTION("AXI_RESPONSE takes the MEM_WR_ACK's place on a write memory refuses") {
    const Flit rq = request({kWrReq, kReq, 70, kBase + kSize - 32, 1});
    CHECK(fx.agent.accept(rq).empty());
    CHECK(fx.agent.accept(data(kReq, word_of_seed(1), false)).empty());
    check_flits(fx.agent.accept(data(kReq, word_of_seed(2), true)), {error_to(kReq, rq, kAxiResponse)});
    CHECK(fx.agent.writes() == 1);
    CHECK_FALSE(fx.agent.beats_awaited(kReq));
    // SLVERR alike; the source's next write is served.
    fx.mem.inject_slverr(kBase + 0x80);
    const Flit slv = request({kWrReq, kReq, 71, kBase + 0x80, 0});
    CHECK(fx.agent.accept(slv).empty());
    check_flits(fx.agent.accept(data(kReq, word_of_seed(3), true)), {error_to(kReq, slv, kAxiResponse)});
    CHECK(fx.agent.accept(request({kWrReq, kReq, 72, kBase + 0xA0, 0})).empty());
    check_flits(fx.agent.accept(data(kReq, word_of_seed(4), true)), {wr_ack(kReq, 72)});
    CHECK(fx.agent.counters().errors_sent.at("AXI_RESPONSE") == 2);
  }
}

TEST_CASE("agent: the model refuses a node off the coordinates and parameters not the agent's", "[agent]") {
  MoverMemory mem = patterned();
  const SystemNodeSpec& s = test::shipped_system_node_spec();
  CHECK(test::rule_of([&] { AgentModel a(s, codec(), {16, 0}, mem, resolve_agent_params(s)); }) == "agent.spec");
  CHECK(test::rule_of([&] { AgentModel a(s, codec(), {0, 0}, mem, resolve_mover_params(s)); }) == "noc.param");
  CHECK(test::rule_of([&] {
          AgentModel a(s, codec(), {15, 15}, mem, resolve_agent_params(s, {{"WR_SLOTS", "1"}}));
        }).empty());
}

TEST_CASE("agent: answer streams group the answers by source and destination", "[agent]") {
  Fixture fx;
  AnswerStreams streams;
  const Coord other{0, 2};
  const Flit s1 = request({kRdReq, kReq, 1, kBase, 0, true, 1, 1, {other}});
  append_answers(streams, codec(), s1, fx.agent.accept(s1));
  const Flit s2 = request({kRdReq, other, 2, kBase + 0x20, 1});
  append_answers(streams, codec(), s2, fx.agent.accept(s2));
  REQUIRE(streams.size() == 3);
  CHECK(streams.at({kReq, kReq}).size() == 1);
  CHECK(streams.at({kReq, other}).size() == 1);
  check_flits(streams.at({other, other}), {rd_resp(other, 2, false, 0, word_at(fx.mem, kBase + 0x20)),
                                           rd_resp(other, 2, true, 0, word_at(fx.mem, kBase + 0x40))});
}

TEST_CASE("agent: random flits, garbage included, never throw and get their expected answers", "[agent]") {
  std::mt19937_64 rng(20240611);
  auto below = [&rng](std::uint64_t n) { return rng() % n; };
  Fixture fx;
  const std::vector<Coord> sources{{0, 0}, {2, 3}, {3, 0}, {1, 2}}, extra{{5, 5}, {6, 1}, {7, 7}, {4, 4}};
  struct Open {
    std::uint64_t left = 0;
    bool discard = false;
  };
  std::map<Coord, Open> open;  // the test's own reading of each source's write
  std::uint64_t stray = 0, dropped = 0, answers = 0;
  for (int n = 0; n < 4000; ++n) {
    Flit f;
    for (int b = 0; b < 288; b += 64) f.set_bits(b, std::min(64, 288 - b), rng());
    Header h = codec().header(f);
    const std::uint64_t pick = below(100);
    h.type = pick < 30 ? kRdReq : pick < 50 ? kWrReq : pick < 85 ? kWrData : static_cast<std::uint32_t>(below(16));
    // Mostly four sources; now and then four more (more sources than slots:
    // WRITE_SLOTS_FULL), or the garbage's own source (not for a write, whose
    // slot a source never heard from again would hold for ever).
    if (below(10) != 0 || h.type == kWrReq || below(2) == 0) {
      const Coord s = below(10) != 0 ? sources[below(sources.size())] : extra[below(extra.size())];
      h.src_x = static_cast<std::uint32_t>(s.x);
      h.src_y = static_cast<std::uint32_t>(s.y);
    }
    codec().set_header(f, h);
    if (h.type == kRdReq || h.type == kWrReq) {
      const std::uint64_t a = below(20);
      std::uint64_t addr = kBase + 32 * below(kSize / 32);
      if (a == 0) addr = rng() & ((std::uint64_t{1} << 40) - 1);
      if (a == 1) addr |= kAperture1;
      if (a == 2) addr |= kMesh1 * (1 + below(3));
      if (a == 3) addr += 1 + below(31);
      if (a == 4) addr = kBase + kSize - 32 * below(4);
      codec().set(f, "mem_req.addr", addr);
      if (below(16) != 0) codec().set(f, "mem_req.len", below(10));  // else any len: a long write blocks its source
      if (below(4) != 0) codec().set(f, "mem_req.count", below(10) == 0 ? 255 : below(6));
      if (below(4) != 0) codec().set(f, "mem_req.entry_words", below(11));
    }

    // What the contract says this flit gets: the number of answer flits.
    const Coord src = h.src();
    std::uint64_t expected = 0;
    std::optional<std::uint32_t> refusal;
    if (h.type == kError) {
      ++dropped;
    } else if (h.type != kRdReq && h.type != kWrReq && h.type != kWrData) {
      expected = 1;
      refusal = kTypeNotServed;
    } else if (h.type == kWrData) {
      auto it = open.find(src);
      if (it == open.end()) {
        ++stray;
      } else if (--it->second.left == 0) {
        expected = it->second.discard ? 0 : 1;
        open.erase(it);
      }
    } else {
      const std::uint64_t addr = codec().get(f, "mem_req.addr"), len = codec().get(f, "mem_req.len");
      const bool stream = h.type == kRdReq && codec().get(f, "mem_req.flags.STREAM") != 0;
      const std::uint64_t count = codec().get(f, "mem_req.count"), ew = codec().get(f, "mem_req.entry_words");
      const std::uint64_t e = (ew == 0 || ew > 4) ? 4 : ew;
      const std::uint64_t words = stream ? (count == 0 ? 1 : count) * e : len + 1;
      bool unserved = false;
      for (std::uint64_t k = 0; k < words; ++k) {
        const std::uint64_t w = addr + 32 * k;
        if ((w >> 40) != 0 || (w & kAperture1) != 0 || ((w >> 36) & 3) != 0) unserved = true;
      }
      if (unserved) {
        refusal = kAddressNotServed;
      } else if (addr % 32 != 0) {
        refusal = kMisaligned;
      } else if (h.type == kWrReq && len > 7) {
        refusal = kWriteTooLong;
      } else if (h.type == kWrReq && open.count(src)) {
        refusal = kWriteOpen;
      } else if (h.type == kWrReq && open.size() >= 4) {  // WR_SLOTS' default
        refusal = kWriteSlotsFull;
      }
      if (refusal) {
        expected = 1;
        if (h.type == kWrReq && !open.count(src) && open.size() < 4) open[src] = {len + 1, true};
      } else if (h.type == kWrReq) {
        open[src] = {len + 1, false};
      } else {
        expected = stream ? words * (1 + codec().get(f, "mem_req.n_peer")) : words;
      }
    }

    std::vector<Flit> out;
    INFO("flit " << n << ": " << codec().describe(f));
    REQUIRE_NOTHROW(out = fx.agent.accept(f));
    REQUIRE(out.size() == expected);
    answers += out.size();
    for (const Flit& o : out) {
      const Header oh = codec().header(o);
      CHECK(oh.src() == kAgent);
      CHECK((oh.type == kRdResp || oh.type == kWrAck || oh.type == kError));
      if (oh.type == kError) {
        CHECK(oh.last == 1);
        CHECK(oh.rsvd == 0);
        if (h.type != kWrData) CHECK(oh.txn == h.txn);  // a write's ERROR carries its request's txn
      }
    }
    if (refusal) {
      REQUIRE(out.size() == 1);
      CHECK(out[0] == error_to(src, f, *refusal));
    }
  }
  CHECK(fx.agent.stray_data_flits() == stray);
  CHECK(fx.agent.errors_dropped() == dropped);
  CHECK(fx.agent.open_writes() == static_cast<int>(open.size()));
  for (const auto& [s, o] : open) CHECK(fx.agent.beats_awaited(s) == static_cast<int>(o.left));
  CHECK(answers > 4000);          // the mix exercises reads, streams and writes, not refusals alone
  CHECK(fx.agent.writes() > 30);  // fewer than before WRITE_SLOTS_FULL: eight sources share four slots
  CHECK(fx.agent.reads() > 100);
  CHECK(fx.agent.counters().errors_sent.count("WRITE_SLOTS_FULL") == 1);
}
