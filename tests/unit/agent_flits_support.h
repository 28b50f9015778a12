/// @file agent_flits_support.h
/// @brief The memory agent's flits as the tests build them from the contract
/// (mover-notes §6, system_node.yaml's agent section, noc.yaml's payloads),
/// field by field through the codec: requests, write data, the answers the
/// agent must send. Shared by the model's tests (tests/unit) and the RTL's
/// (tests/hdl); each names its agent's node.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/mover/memory.h"
#include "noc/codec.h"

namespace tpugen::test {

// noc.yaml's type codes and system_node.yaml's agent rule codes, written out
// (the tests' own reading of the specs, not derived from them).
inline constexpr std::uint32_t kRdReq = 0x0, kWrReq = 0x1, kRdResp = 0x2, kWrAck = 0x3, kWrData = 0x4, kCuInst = 0x5,
                               kError = 0xF;
inline constexpr std::uint32_t kTypeNotServed = 16, kAddressNotServed = 17, kMisaligned = 18, kWriteTooLong = 19,
                               kWriteOpen = 20, kAxiResponse = 21, kWriteSlotsFull = 22;

/// A word of bytes drawn from `seed`.
inline mover::MoverWord word_of_seed(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  mover::MoverWord w{};
  for (auto& b : w) b = static_cast<std::uint8_t>(rng());
  return w;
}

/// A word as hex digits, byte 31 first (byte k is bits [8k+7:8k]).
inline std::string hex_of(const mover::MoverWord& w) {
  std::string s;
  for (int k = static_cast<int>(w.size()) - 1; k >= 0; --k) s += fmt::format("{:02x}", w[static_cast<std::size_t>(k)]);
  return s;
}

inline noc::Header flit_header(noc::Coord dst, noc::Coord src, std::uint32_t type, std::uint32_t txn,
                               std::uint32_t last, std::uint32_t rsvd) {
  return noc::Header::between(dst, src, type, txn, last, rsvd);
}

/// A MEM_RD_REQ's or MEM_WR_REQ's fields, in this order, each defaulted.
struct AgentRequest {
  AgentRequest(std::uint32_t type_ = kRdReq, noc::Coord src_ = {}, std::uint32_t txn_ = 0, std::uint64_t addr_ = 0,
               std::uint64_t len_ = 0, bool stream_ = false, std::uint64_t count_ = 0, std::uint64_t entry_words_ = 0,
               std::vector<noc::Coord> peers_ = {})
      : type(type_),
        src(src_),
        txn(txn_),
        addr(addr_),
        len(len_),
        stream(stream_),
        count(count_),
        entry_words(entry_words_),
        peers(std::move(peers_)) {}
  std::uint32_t type;
  noc::Coord src;
  std::uint32_t txn;
  std::uint64_t addr;
  std::uint64_t len;
  bool stream;
  std::uint64_t count;
  std::uint64_t entry_words;
  std::vector<noc::Coord> peers;  ///< n_peer = peers.size()
  std::uint64_t entry_stride = 0;  ///< tpugen's: 0 is consecutive entries
  std::uint64_t first_word = 0;
};

/// The request as it arrives at the agent's node `agent`.
inline noc::Flit request_flit(const noc::Codec& c, noc::Coord agent, const AgentRequest& r) {
  noc::Flit f;
  c.set_header(f, flit_header(agent, r.src, r.type, r.txn, 0, 0));
  c.set(f, "mem_req.addr", r.addr);
  c.set(f, "mem_req.len", r.len);
  c.set(f, "mem_req.flags.STREAM", r.stream ? 1 : 0);
  c.set(f, "mem_req.count", r.count);
  c.set(f, "mem_req.entry_words", r.entry_words);
  c.set(f, "mem_req.entry_stride", r.entry_stride);
  c.set(f, "mem_req.first_word", r.first_word);
  c.set(f, "mem_req.n_peer", r.peers.size());
  for (std::size_t k = 0; k < r.peers.size(); ++k) {
    c.set(f, fmt::format("mem_req.peer[{}].x", k), static_cast<std::uint64_t>(r.peers[k].x));
    c.set(f, fmt::format("mem_req.peer[{}].y", k), static_cast<std::uint64_t>(r.peers[k].y));
  }
  return f;
}

/// A MEM_WR_DATA flit from `src` to the agent at `agent`.
inline noc::Flit data_flit(const noc::Codec& c, noc::Coord agent, noc::Coord src, const mover::MoverWord& w,
                           bool last) {
  noc::Flit f;
  c.set_header(f, flit_header(agent, src, kWrData, 0, last ? 1 : 0, 0));
  c.set_hex(f, "data.word", hex_of(w));
  return f;
}

/// The MEM_RD_RESP the contract names, from the agent at `agent`.
inline noc::Flit rd_resp_flit(const noc::Codec& c, noc::Coord agent, noc::Coord to, std::uint32_t txn, bool last,
                              std::uint32_t word_index, const mover::MoverWord& w) {
  noc::Flit f;
  c.set_header(f, flit_header(to, agent, kRdResp, txn, last ? 1 : 0, word_index));
  c.set_hex(f, "data.word", hex_of(w));
  return f;
}

inline noc::Flit wr_ack_flit(const noc::Codec& c, noc::Coord agent, noc::Coord to, std::uint32_t txn) {
  noc::Flit f;
  c.set_header(f, flit_header(to, agent, kWrAck, txn, 1, 0));
  return f;
}

/// The ERROR flit the contract names: to `to`, from the agent, the offending
/// txn, last 1, rsvd 0, the rule's code and the offending header.
inline noc::Flit error_flit_to(const noc::Codec& c, noc::Coord agent, noc::Coord to, const noc::Flit& offending,
                               std::uint32_t rule) {
  noc::Flit f;
  c.set_header(f, flit_header(to, agent, kError, c.header(offending).txn, 1, 0));
  c.set(f, "error.rule", rule);
  c.set(f, "error.header", c.header_bits(offending));
  return f;
}

}  // namespace tpugen::test
