/// @file agent_model.h
/// @brief The memory agent's reference model (mover-notes §6; the agent section
/// of spec/system_node.yaml; the mem_req, data and error payloads of
/// spec/noc.yaml), the oracle its RTL is compared against flit by flit: the
/// flits arriving at the agent's endpoint, in arrival order, in; the flits the
/// agent sends, out. Every field is read and written through the codec by name;
/// the error rules are the spec's, checked in the spec's order.
///
/// What the agent does with a flit (the first line that applies):
///   - ERROR: dropped and counted (errors_dropped), never answered, so two
///     endpoints cannot answer each other's ERROR flits for ever (the agent's
///     own flit to a node outside the mesh comes back as one from its router).
///   - a type other than MEM_RD_REQ, MEM_WR_REQ, MEM_WR_DATA: TYPE_NOT_SERVED.
///   - MEM_WR_DATA: the next beat of its source's open write; the final one
///     (the len+1-th, counted: `last` is not what ends it, a disagreeing `last`
///     is counted in data_last_mismatches) writes the words and answers
///     MEM_WR_ACK, or AXI_RESPONSE in its place when memory answered any word
///     SLVERR or DECERR (the words memory took are written; what such a write
///     leaves in memory is implementation-dependent, so a comparison must not
///     rely on it). No write open from its source: dropped and counted
///     (stray_data_flits). A write refused by its own request (below) consumes
///     its len+1 data flits (discarded_data_flits), writes nothing and answers
///     nothing more.
///   - MEM_RD_REQ, MEM_WR_REQ: the spec's error rules in order:
///     ADDRESS_NOT_SERVED when any word address the request names (addr + 32k
///     for each of its words: len+1 for a plain read or a write, count x E for
///     a stream) is outside [0, 2^address_bits) or breaks `serves`; MISALIGNED
///     when addr is not word-aligned; WRITE_TOO_LONG (writes) when len >
///     write_max_len; WRITE_OPEN (writes) when the source has a write open (a
///     discard slot, below, is one: its data is still to come);
///     WRITE_SLOTS_FULL (writes) when WR_SLOTS writes, discard slots too, are
///     open. A refused request is answered with ONE ERROR flit, when it
///     arrives. A refused MEM_WR_REQ whose source has no write open opens a
///     discard slot that consumes its len+1 data flits (the contract says so
///     for WRITE_TOO_LONG; tpugen: ADDRESS_NOT_SERVED and MISALIGNED alike),
///     when a slot is left: with every slot open (WRITE_SLOTS_FULL, or an
///     earlier rule then) its data flits find no write open and are dropped as
///     stray; one refused while its source has a write open (WRITE_OPEN, or an
///     earlier rule) changes nothing: the open write goes on, and the data
///     flits that follow are its own (a data flit names no request).
///   - a plain read (STREAM 0): len+1 beats from addr, one MEM_RD_RESP each to
///     the requester, txn echoed, `last` on the final beat, rsvd 0; the peers
///     are ignored, and the 4 KB rule is the requester's (the model reads
///     across it: the RTL's AXI adapter splits the burst).
///   - a stream read (STREAM 1): E = entry_words' effective value (0 or > 4
///     mean 4), count's (0 means 1) entries, entry i at addr + 32 S i, where S
///     is entry_stride (0 means E: consecutive entries); the flit of entry i
///     word j carries txn (txn + i) mod 2^8, rsvd = (first_word + j) mod 4
///     (rsvd[1:0] the word index), `last` when j = E-1. Destination 0 is the requester, then
///     peer[0] .. peer[n_peer-1] (duplicates are not merged); each entry is
///     read once, its E words go to destination 0, then to each peer, then the
///     next entry. `len` is not used.
///   - a beat memory answers SLVERR or DECERR: an AXI_RESPONSE ERROR flit takes
///     the place of that beat's MEM_RD_RESP, in every destination's copy of a
///     stream (to that destination); the other beats go as usual.
/// An ERROR flit (endpoint.h's error_flit): dst the destination (the offending
/// flit's source, or a stream's peer), src the agent's node, type ERROR, the
/// offending request's txn (a stream's ERROR keeps the request's txn, not
/// txn + i: its place in the sequence says which beat it is), last 1, rsvd 0;
/// the payload names the rule's code and carries the offending flit's header
/// as it arrived: the request's (a write's AXI_RESPONSE names its MEM_WR_REQ),
/// the flit's own for TYPE_NOT_SERVED.
/// Fields the agent does not read: the requests' dst (the router delivered the
/// flit here), `last` and rsvd; flags other than STREAM (QUANT and BLAYOUT are
/// reserved and ignored; STREAM on a MEM_WR_REQ is ignored: a write is len+1
/// beats); a data flit's txn and rsvd.
///
/// Timing. The model is untimed: the answers to one request are sent in full
/// when the request (a write: its final data flit) is accepted, so the flits
/// one accept() returns all answer one source's one request.
/// WR_SLOTS is a semantic, not only a capacity: the slots count open writes
/// (and discard slots) in arrival order, which the RTL counts alike, so
/// WRITE_SLOTS_FULL is decided by the flits alone. (A request that waited for
/// a slot instead could hang the port: the open writes' data may be queued
/// behind it. The RTL still waits for a slot whose complete write drains to
/// memory, which needs nothing from the intake.)
///
/// The comparison contract. The RTL may interleave the answers of different
/// requests, but for every pair (requesting source S, destination D) the flits
/// it sends to D in answer to S's flits must equal the model's: the flits to D,
/// in order, of every accept() whose input came from S, in accept order. So per
/// destination each request's flits keep their order, and per source its
/// requests keep theirs; AnswerStreams collects exactly these sequences, which
/// the RTL's comparator checks per destination.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/mover/memory.h"
#include "noc/codec.h"
#include "spec/system_node_spec.h"

namespace tpugen::agent {

/// What the agent has done since construction.
struct AgentCounters {
  std::uint64_t reads = 0;                 ///< MEM_RD_REQs served (not refused)
  std::uint64_t writes = 0;                ///< writes completed: acknowledged, or answered AXI_RESPONSE
  std::uint64_t words_read = 0;            ///< memory word reads (a stream's entry once, whatever its peers)
  std::uint64_t words_written = 0;         ///< memory word writes issued
  std::uint64_t refused = 0;               ///< requests answered with one ERROR flit (every rule but AXI_RESPONSE)
  std::uint64_t axi_errors = 0;            ///< beats and writes memory answered SLVERR or DECERR
  std::uint64_t stray_data_flits = 0;      ///< MEM_WR_DATA from a source with no write open: dropped
  std::uint64_t discarded_data_flits = 0;  ///< MEM_WR_DATA consumed by a refused write
  std::uint64_t data_last_mismatches = 0;  ///< data flits whose `last` disagrees with their place in the write
  std::uint64_t errors_dropped = 0;        ///< ERROR flits that arrived: dropped, never answered
  std::uint64_t max_open_writes = 0;       ///< the most writes (discard slots too) open at once
  std::map<std::string, std::uint64_t, std::less<>> errors_sent;  ///< ERROR flits sent, by rule name
};

class AgentModel {
 public:
  /// The agent at node `at`, over `mem`, with its build parameters `params`
  /// (resolve_agent_params). Throws Error("agent.spec") when the specs lack
  /// what the model needs (a word that is not 256 bits, a message type, an
  /// error rule, a served address-map field) or `at` is not a node
  /// coordinate; Error("noc.field") for a missing flit field, Error("noc.param")
  /// for parameters that are not the agent's. `codec` and `mem` must outlive
  /// the model.
  AgentModel(const SystemNodeSpec& spec, const noc::Codec& codec, noc::Coord at, mover::MoverMemory& mem,
             const NocParams& params);

  /// The flits one arriving flit causes the agent to send, in order. Never
  /// throws for any flit.
  std::vector<noc::Flit> accept(const noc::Flit& in);

  [[nodiscard]] const AgentCounters& counters() const { return counters_; }
  [[nodiscard]] std::uint64_t stray_data_flits() const { return counters_.stray_data_flits; }
  [[nodiscard]] std::uint64_t reads() const { return counters_.reads; }
  [[nodiscard]] std::uint64_t writes() const { return counters_.writes; }
  [[nodiscard]] std::uint64_t errors_dropped() const { return counters_.errors_dropped; }

  /// The data flits still awaited from `source` (nullopt: it has no write open).
  [[nodiscard]] std::optional<int> beats_awaited(noc::Coord source) const;
  /// Sources with a write (or a discard slot) open.
  [[nodiscard]] int open_writes() const { return static_cast<int>(slots_.size()); }
  [[nodiscard]] int write_slots() const { return wr_slots_; }
  [[nodiscard]] noc::Coord at() const { return at_; }

 private:
  /// A source's open write.
  struct Slot {
    noc::Flit request;  ///< its MEM_WR_REQ, as it arrived
    std::uint64_t addr = 0;
    int beats = 0;         ///< len + 1
    bool discard = false;  ///< refused: consume the data, write nothing, answer nothing
    std::vector<mover::MoverWord> words;
  };
  /// A served rule's code, resolved once.
  struct Rule {
    std::string name;
    std::uint32_t code = 0;
  };
  /// A `serves` entry as bits of the address.
  struct Served {
    int lsb = 0, width = 0;
    std::uint64_t value = 0;
  };

  void read(const noc::Flit& in, const noc::Header& h, std::vector<noc::Flit>& out);
  void write_request(const noc::Flit& in, const noc::Header& h, std::vector<noc::Flit>& out);
  void write_data(const noc::Flit& in, const noc::Header& h, std::vector<noc::Flit>& out);
  /// The first error rule the request breaks (nullptr: none).
  [[nodiscard]] const Rule* refusal(const noc::Flit& in, const noc::Header& h, bool is_write) const;
  [[nodiscard]] bool served(std::uint64_t addr) const;
  /// Every slot holds an open write (or a discard slot).
  [[nodiscard]] bool slots_full() const { return static_cast<int>(slots_.size()) >= wr_slots_; }
  void send_error(const noc::Flit& offending, const Rule& rule, noc::Coord to, std::vector<noc::Flit>& out);
  [[nodiscard]] noc::Flit data_flit(std::uint32_t type, noc::Coord to, std::uint32_t txn, std::uint32_t last,
                                    std::uint32_t rsvd, const mover::MoverWord* word) const;
  [[nodiscard]] mover::MoverWord word_of(const noc::Flit& f) const;

  const noc::Codec* codec_;
  noc::Coord at_;
  mover::MoverMemory* mem_;
  int wr_slots_ = 1;
  std::uint64_t word_bytes_ = 32;
  int address_bits_ = 40;
  std::uint32_t txn_modulus_ = 256;
  std::uint32_t t_rd_req_ = 0, t_wr_req_ = 0, t_wr_data_ = 0, t_rd_resp_ = 0, t_wr_ack_ = 0, t_error_ = 0;
  Rule type_not_served_, address_not_served_, misaligned_, write_too_long_, write_open_, write_slots_full_,
      axi_response_;
  std::vector<const Rule*> request_rules_;  ///< the request rules in the spec's order
  std::vector<Served> serves_;
  noc::FieldRef addr_, len_, stream_, count_, entry_words_, entry_stride_, first_word_, n_peer_, word_;
  std::vector<std::pair<noc::FieldRef, noc::FieldRef>> peers_;  ///< {x, y} of peer[k]
  const NocField* count_field_ = nullptr;
  const NocField* entry_words_field_ = nullptr;
  /// A stream's geometry: entries, words an entry, words from one entry's start to the next's.
  struct StreamShape {
    std::uint64_t count = 1, e = 1, stride = 1;
  };
  [[nodiscard]] StreamShape stream_shape(const noc::Flit& in) const;
  std::uint64_t write_max_len_ = 7;
  std::map<noc::Coord, Slot> slots_;
  AgentCounters counters_;
};

/// The model's answers as the comparison contract groups them: by
/// (requesting source, destination), each the flits in the order sent.
using AnswerStreams = std::map<std::pair<noc::Coord, noc::Coord>, std::vector<noc::Flit>>;

/// Add one accept()'s answers (`out`, answering `in`) to `streams`.
void append_answers(AnswerStreams& streams, const noc::Codec& codec, const noc::Flit& in,
                    const std::vector<noc::Flit>& out);

}  // namespace tpugen::agent
