// The harness's memory models (tb/sim/harness/memory_models.h), driven cycle by
// cycle as sim_main.cpp drives them, with a scripted core on the other side.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "sim/harness/memory_models.h"

using namespace tpusim;

namespace {

std::vector<std::uint64_t> counting_words(std::size_t n) {
  std::vector<std::uint64_t> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = 0x1000 + i;
  return w;
}

/// A well-behaved core: issues `addrs` in order (holding each request until
/// accepted), takes every response at once; returns (cycle, first word) of
/// each response in arrival order.
struct Arrival {
  std::uint64_t cycle;
  std::uint64_t first_word;
};

std::vector<Arrival> fetch_all(ImemModel& m, const std::vector<std::uint32_t>& addrs, std::uint64_t max_cycles = 1000,
                               bool ready_every_other = false) {
  std::vector<Arrival> got;
  std::size_t next = 0;
  for (std::uint64_t c = 0; c < max_cycles && got.size() < addrs.size(); ++c) {
    const auto& o = m.drive(c);
    const bool rsp_ready = !ready_every_other || (c % 2 == 1);
    if (o.rsp_valid && rsp_ready) got.push_back({c, o.rsp->at(0)});
    const bool req_valid = next < addrs.size();
    const bool accepted = req_valid && o.req_ready;
    m.clock(c, req_valid, ImemReq{req_valid ? addrs[next] : 0}, rsp_ready);
    if (accepted) ++next;
  }
  return got;
}

}  // namespace

TEST_CASE("imem: latency 0 answers the cycle after the request, in order", "[memory_models]") {
  ImemModel m(counting_words(64), 8, 64, PortTiming{}, 1);
  const auto got = fetch_all(m, {0, 8, 16});
  REQUIRE(got.size() == 3);
  CHECK(got[0].cycle == 1);
  CHECK(got[0].first_word == 0x1000);
  CHECK(got[1].cycle == 2);
  CHECK(got[1].first_word == 0x1008);
  CHECK(got[2].first_word == 0x1010);
  CHECK(m.errors().empty());
  CHECK(m.outstanding() == 0);
  CHECK(m.stats().requests == 3);
  CHECK(m.stats().responses == 3);
}

TEST_CASE("imem: latency N delays the first response by N cycles and keeps the order", "[memory_models]") {
  PortTiming t;
  t.latency = 3;
  ImemModel m(counting_words(64), 8, 64, t, 1);
  const auto got = fetch_all(m, {8, 0, 24});
  REQUIRE(got.size() == 3);
  CHECK(got[0].cycle == 4);  // accepted at cycle 0, valid at 0 + 1 + 3
  CHECK(got[1].cycle == 5);  // pipelined: one a cycle
  CHECK(got[0].first_word == 0x1008);
  CHECK(got[1].first_word == 0x1000);
  CHECK(got[2].first_word == 0x1018);
  CHECK(m.stats().max_outstanding >= 3);
}

TEST_CASE("imem: words past the image read 0", "[memory_models]") {
  ImemModel m(counting_words(10), 8, 64, PortTiming{}, 1);
  const auto& o0 = m.drive(0);
  REQUIRE(o0.req_ready);
  m.clock(0, true, ImemReq{8}, false);
  const auto& o1 = m.drive(1);
  REQUIRE(o1.rsp_valid);
  CHECK(o1.rsp->at(0) == 0x1008);
  CHECK(o1.rsp->at(1) == 0x1009);
  CHECK(o1.rsp->at(2) == 0);
  CHECK(o1.rsp->at(7) == 0);
}

TEST_CASE("backpressure withholds ready and valid, but a raised valid holds until taken", "[memory_models]") {
  PortTiming t;
  t.backpressure = 0.5;
  ImemModel m(counting_words(256), 8, 256, t, 42);
  std::vector<std::uint32_t> addrs;
  for (std::uint32_t a = 0; a < 256; a += 8) addrs.push_back(a);
  // The core takes responses only every other cycle: a shown response must
  // stay valid with the same data until then.
  std::size_t next = 0, got = 0;
  bool shown = false;
  std::uint64_t shown_word = 0;
  std::uint64_t not_ready_cycles = 0;
  for (std::uint64_t c = 0; c < 5000 && got < addrs.size(); ++c) {
    const auto& o = m.drive(c);
    if (shown) {
      REQUIRE(o.rsp_valid);
      REQUIRE(o.rsp->at(0) == shown_word);
    }
    const bool rsp_ready = c % 2 == 1;
    const bool req_valid = next < addrs.size();
    if (req_valid && !o.req_ready) ++not_ready_cycles;
    if (o.rsp_valid) {
      CHECK(o.rsp->at(0) == 0x1000 + 8 * got);
      shown = !rsp_ready;
      shown_word = o.rsp->at(0);
      if (rsp_ready) ++got;
    }
    const bool accepted = req_valid && o.req_ready;
    m.clock(c, req_valid, ImemReq{req_valid ? addrs[next] : 0}, rsp_ready);
    if (accepted) ++next;
  }
  CHECK(got == addrs.size());
  CHECK(not_ready_cycles > 5);  // the coin withheld ready sometimes
  CHECK(m.errors().empty());
}

TEST_CASE("backpressure is deterministic for a seed", "[memory_models]") {
  auto run = [](std::uint64_t seed) {
    PortTiming t;
    t.backpressure = 0.3;
    t.latency = 2;
    ImemModel m(counting_words(128), 8, 128, t, seed);
    std::vector<std::uint32_t> addrs;
    for (std::uint32_t a = 0; a < 128; a += 8) addrs.push_back(a);
    std::vector<std::uint64_t> cycles;
    for (const auto& a : fetch_all(m, addrs, 5000, true)) cycles.push_back(a.cycle);
    return cycles;
  };
  CHECK(run(7) == run(7));
  CHECK(run(7) != run(8));
}

TEST_CASE("max_outstanding drops request ready when the queue is full", "[memory_models]") {
  PortTiming t;
  t.latency = 10;
  t.max_outstanding = 2;
  ImemModel m(counting_words(64), 8, 64, t, 1);
  CHECK(m.drive(0).req_ready);
  m.clock(0, true, ImemReq{0}, false);
  CHECK(m.drive(1).req_ready);
  m.clock(1, true, ImemReq{8}, false);
  CHECK_FALSE(m.drive(2).req_ready);
  m.clock(2, true, ImemReq{16}, false);  // held: legal
  CHECK(m.outstanding() == 2);
  CHECK(m.errors().empty());
}

TEST_CASE("protocol: a request valid dropped before its handshake is an error", "[memory_models]") {
  PortTiming t;
  t.max_outstanding = 0;  // never ready
  ImemModel m(counting_words(64), 8, 64, t, 1);
  m.drive(0);
  m.clock(0, true, ImemReq{0}, true);
  m.drive(1);
  m.clock(1, false, ImemReq{}, true);
  REQUIRE(m.errors().size() == 1);
  CHECK(m.errors()[0].cycle == 1);
  CHECK(m.errors()[0].port == "imem");
  CHECK(m.errors()[0].message.find("dropped before the handshake") != std::string::npos);
}

TEST_CASE("protocol: a request payload changing while valid and not ready is an error", "[memory_models]") {
  PortTiming t;
  t.max_outstanding = 0;
  OperandReadModel m(Bytes(256, 1), Bytes(256, 2), 4, t, 1);
  m.drive(0);
  m.clock(0, true, ReadReq{0, 16}, true);
  m.drive(1);
  m.clock(1, true, ReadReq{0, 16}, true);  // held: fine
  CHECK(m.errors().empty());
  m.drive(2);
  m.clock(2, true, ReadReq{1, 16}, true);  // sel changed
  REQUIRE(m.errors().size() == 1);
  CHECK(m.errors()[0].message.find("changed while valid and not ready") != std::string::npos);
}

TEST_CASE("operand reads: A or B by sel, bytes past the matrix read 0, alignment checked", "[memory_models]") {
  Bytes a(16), b(16);
  for (std::uint8_t i = 0; i < 16; ++i) {
    a[i] = i;
    b[i] = static_cast<std::uint8_t>(0x80 + i);
  }
  OperandReadModel m(a, b, 8, PortTiming{}, 1);
  m.drive(0);
  m.clock(0, true, ReadReq{1, 8}, false);
  const auto& o1 = m.drive(1);
  REQUIRE(o1.rsp_valid);
  CHECK(*o1.rsp == Bytes{0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f});
  m.clock(1, true, ReadReq{0, 16}, true);  // past the matrix: zeros
  const auto& o2 = m.drive(2);
  REQUIRE(o2.rsp_valid);
  CHECK(*o2.rsp == Bytes(8, 0));
  CHECK(m.errors().empty());
  m.clock(2, true, ReadReq{0, 4}, true);  // not a multiple of the 8-byte beat
  REQUIRE(m.errors().size() == 1);
  CHECK(m.errors()[0].message.find("not a multiple of the beat") != std::string::npos);
}

TEST_CASE("C writes land at the handshake, one ack per write, in order, after the latency", "[memory_models]") {
  PortTiming t;
  t.latency = 2;
  CWriteModel m(Bytes(64, 0xee), 4, t, 1);
  m.drive(0);
  m.clock(0, true, WriteReq{8, {1, 2, 3, 4}, {1, 1, 1, 1}}, false);
  CHECK(m.c()[8] == 1);
  CHECK(m.c()[11] == 4);
  CHECK(m.c()[12] == 0xee);
  m.drive(1);
  m.clock(1, true, WriteReq{12, {5, 6, 7, 8}, {1, 1, 1, 1}}, false);
  CHECK_FALSE(m.drive(2).rsp_valid);
  m.clock(2, false, WriteReq{}, true);
  CHECK(m.drive(3).rsp_valid);  // 0 + 1 + 2
  m.clock(3, false, WriteReq{}, true);
  CHECK(m.outstanding() == 1);
  CHECK(m.drive(4).rsp_valid);
  m.clock(4, false, WriteReq{}, true);
  CHECK(m.outstanding() == 0);
  CHECK(m.bytes_written() == 8);
  CHECK(m.errors().empty());
}

TEST_CASE("C writes: only the strobed bytes of a beat land", "[memory_models]") {
  CWriteModel m(Bytes(24, 0xee), 8, PortTiming{}, 1);
  m.drive(0);
  m.clock(0, true, WriteReq{8, {1, 2, 3, 4, 5, 6, 7, 8}, {0, 0, 0, 0, 1, 1, 1, 1}}, true);
  CHECK(m.c()[11] == 0xee);
  CHECK(m.c()[12] == 5);
  CHECK(m.c()[15] == 8);
  m.drive(1);
  // The last beat may reach past C as long as no strobed byte does.
  m.clock(1, true, WriteReq{16, {9, 9, 9, 9, 9, 9, 9, 9}, {1, 1, 0, 0, 0, 0, 0, 0}}, true);
  CHECK(m.c()[17] == 9);
  CHECK(m.c()[18] == 0xee);
  CHECK(m.bytes_written() == 6);
  CHECK(m.errors().empty());
}

TEST_CASE("C writes: misaligned, unstrobed or past C are errors and are dropped", "[memory_models]") {
  CWriteModel m(Bytes(16, 0), 4, PortTiming{}, 1);
  const Bytes all{1, 1, 1, 1};
  m.drive(0);
  m.clock(0, true, WriteReq{2, all, all}, true);
  m.drive(1);
  m.clock(1, true, WriteReq{16, all, all}, true);
  m.drive(2);
  m.clock(2, true, WriteReq{4, all, {0, 0, 0, 0}}, true);
  REQUIRE(m.errors().size() == 3);
  CHECK(m.errors()[0].message.find("not a multiple of the beat") != std::string::npos);
  CHECK(m.errors()[1].message.find("past C") != std::string::npos);
  CHECK(m.errors()[2].message.find("no byte strobe") != std::string::npos);
  CHECK(m.c() == Bytes(16, 0));
  CHECK(m.stats().requests == 3);  // still acknowledged, so the core does not hang
}

TEST_CASE("imem: misaligned and out-of-range beats are errors", "[memory_models]") {
  ImemModel m(counting_words(16), 8, 16, PortTiming{}, 1);
  m.drive(0);
  m.clock(0, true, ImemReq{4}, true);
  m.drive(1);
  m.clock(1, true, ImemReq{16}, true);
  REQUIRE(m.errors().size() == 2);
  CHECK(m.errors()[0].message.find("not a multiple of the beat") != std::string::npos);
  CHECK(m.errors()[1].message.find("past IMEM_SIZE") != std::string::npos);
}
