#include "model/agent/agent_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "noc/endpoint.h"
#include "util/diag.h"

namespace tpugen::agent {

namespace {

[[noreturn]] void spec_error(const std::string& message, const SourceLoc& loc = {}) {
  throw Error("agent.spec", message, loc);
}

std::uint32_t type_code(const NocSpec& s, std::string_view name) {
  const NocCode* t = s.type(name);
  if (!t) spec_error(fmt::format("noc.yaml has no message type {}, which the memory agent's model needs", name));
  return t->code;
}

const NocField& mem_req_field(const NocSpec& s, std::string_view name) {
  const NocLayout* layout = s.payload("mem_req");
  const NocField* f = layout ? layout->field(name) : nullptr;
  if (!f) spec_error(fmt::format("noc.yaml's mem_req payload has no field {}, which the agent needs", name));
  return *f;
}

}  // namespace

AgentModel::AgentModel(const SystemNodeSpec& spec, const noc::Codec& codec, noc::Coord at, mover::MoverMemory& mem,
                       const NocParams& params)
    : codec_(&codec), at_(at), mem_(&mem) {
  const NocSpec& ns = codec.spec();
  if (spec.word_bits != mover::kWordBits)
    spec_error(fmt::format("the agent's model moves {}-bit words; the spec's word is {} bits", mover::kWordBits,
                           spec.word_bits),
               spec.section("word_bits"));
  const int side = 1 << ns.pos_width;
  if (at.x < 0 || at.y < 0 || at.x >= side || at.y >= side)
    spec_error(fmt::format("the agent's node ({},{}) is not a node coordinate ({} bits)", at.x, at.y, ns.pos_width));
  wr_slots_ = static_cast<int>(params["WR_SLOTS"]);
  word_bytes_ = static_cast<std::uint64_t>(spec.word_bytes());
  address_bits_ = ns.address_bits;
  write_max_len_ = static_cast<std::uint64_t>(spec.agent.write_max_len);

  t_rd_req_ = type_code(ns, "MEM_RD_REQ");
  t_wr_req_ = type_code(ns, "MEM_WR_REQ");
  t_wr_data_ = type_code(ns, "MEM_WR_DATA");
  t_rd_resp_ = type_code(ns, "MEM_RD_RESP");
  t_wr_ack_ = type_code(ns, "MEM_WR_ACK");
  t_error_ = type_code(ns, "ERROR");

  txn_modulus_ = std::uint32_t{1} << codec.field("txn").width;
  addr_ = codec.field("mem_req.addr");
  len_ = codec.field("mem_req.len");
  stream_ = codec.field("mem_req.flags.STREAM");
  count_ = codec.field("mem_req.count");
  entry_words_ = codec.field("mem_req.entry_words");
  entry_stride_ = codec.field("mem_req.entry_stride");
  first_word_ = codec.field("mem_req.first_word");
  n_peer_ = codec.field("mem_req.n_peer");
  word_ = codec.field("data.word");
  if (word_.width != mover::kWordBits)
    spec_error(fmt::format("noc.yaml's data.word has {} bits; the agent's word is {}", word_.width, mover::kWordBits));
  count_field_ = &mem_req_field(ns, "count");
  entry_words_field_ = &mem_req_field(ns, "entry_words");
  const NocField& peer = mem_req_field(ns, "peer");
  for (int k = 0; k < peer.repeat; ++k)
    peers_.emplace_back(codec.field(fmt::format("mem_req.peer[{}].x", k)),
                        codec.field(fmt::format("mem_req.peer[{}].y", k)));
  if ((std::uint64_t{1} << n_peer_.width) - 1 > peers_.size())
    spec_error(
        fmt::format("mem_req.n_peer counts up to {} peers, peer has {}", (1 << n_peer_.width) - 1, peers_.size()));

  for (const AgentServes& sv : spec.agent.serves) {
    const NocField* f = ns.address_map.field(sv.field);
    if (!f) spec_error(fmt::format("the agent serves address-map field {}, which noc.yaml lacks", sv.field), sv.loc);
    serves_.push_back({f->lsb, f->width(), sv.value});
  }

  struct Known {
    const char* name;
    Rule* rule;
  };
  const Known known[] = {{"TYPE_NOT_SERVED", &type_not_served_}, {"ADDRESS_NOT_SERVED", &address_not_served_},
                         {"MISALIGNED", &misaligned_},           {"WRITE_TOO_LONG", &write_too_long_},
                         {"WRITE_OPEN", &write_open_},           {"WRITE_SLOTS_FULL", &write_slots_full_},
                         {"AXI_RESPONSE", &axi_response_}};
  for (const Known& k : known) {
    bool found = false;
    for (const SysCode& r : spec.agent.error_rules)
      if (r.name == k.name) {
        *k.rule = {r.name, r.code};
        found = true;
      }
    if (!found) spec_error(fmt::format("the agent's error rules lack {}, which its model needs", k.name));
  }
  for (const SysCode& r : spec.agent.error_rules) {
    const Rule* rule = nullptr;
    for (const Known& k : known)
      if (r.name == k.name) rule = k.rule;
    if (!rule)
      spec_error(fmt::format("agent error rule {} has no meaning in tb/model/agent/agent_model.cpp", r.name), r.loc);
    if (rule != &axi_response_) request_rules_.push_back(rule);  // AXI_RESPONSE is memory's answer, not a check
  }
}

bool AgentModel::served(std::uint64_t addr) const {
  if (address_bits_ < 64 && (addr >> address_bits_) != 0) return false;
  for (const Served& s : serves_) {
    const std::uint64_t mask = s.width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << s.width) - 1;
    if (((addr >> s.lsb) & mask) != s.value) return false;
  }
  return true;
}

const AgentModel::Rule* AgentModel::refusal(const noc::Flit& in, const noc::Header& h, bool is_write) const {
  const bool request = h.type == t_rd_req_ || h.type == t_wr_req_;
  const std::uint64_t addr = addr_.get(in);
  for (const Rule* r : request_rules_) {
    if (r == &type_not_served_) {
      if (!request && h.type != t_wr_data_) return r;
    } else if (!request) {
      continue;
    } else if (r == &address_not_served_) {
      // Every word address the request names: a stream's count entries of E, else len + 1.
      if (!is_write && stream_.get(in) != 0) {
        const StreamShape s = stream_shape(in);
        for (std::uint64_t i = 0; i < s.count; ++i)
          for (std::uint64_t j = 0; j < s.e; ++j)
            if (!served(addr + word_bytes_ * (s.stride * i + j))) return r;
      } else {
        for (std::uint64_t k = 0; k <= len_.get(in); ++k)
          if (!served(addr + word_bytes_ * k)) return r;
      }
    } else if (r == &misaligned_) {
      if (addr % word_bytes_ != 0) return r;
    } else if (r == &write_too_long_) {
      if (is_write && len_.get(in) > write_max_len_) return r;
    } else if (r == &write_open_) {
      if (is_write && slots_.count(h.src())) return r;
    } else if (r == &write_slots_full_) {
      if (is_write && slots_full()) return r;
    }
  }
  return nullptr;
}

void AgentModel::send_error(const noc::Flit& offending, const Rule& rule, noc::Coord to, std::vector<noc::Flit>& out) {
  out.push_back(noc::error_flit(*codec_, offending, rule.code, to, at_));
  ++counters_.errors_sent[rule.name];
}

noc::Flit AgentModel::data_flit(std::uint32_t type, noc::Coord to, std::uint32_t txn, std::uint32_t last,
                                std::uint32_t rsvd, const mover::MoverWord* word) const {
  noc::Flit f;
  codec_->set_header(f, noc::Header::between(to, at_, type, txn, last, rsvd));
  if (word) {
    // Byte k of the word is bits [8k+7:8k] of data.word, 64 bits at a time.
    for (int c = 0; c < mover::kWordBits / 64; ++c) {
      std::uint64_t v = 0;
      for (int b = 7; b >= 0; --b) v = (v << 8) | (*word)[static_cast<std::size_t>(c * 8 + b)];
      f.set_bits(word_.lsb + 64 * c, 64, v);
    }
  }
  return f;
}

mover::MoverWord AgentModel::word_of(const noc::Flit& f) const {
  mover::MoverWord w{};
  for (int c = 0; c < mover::kWordBits / 64; ++c) {
    const std::uint64_t v = f.bits(word_.lsb + 64 * c, 64);
    for (int b = 0; b < 8; ++b) w[static_cast<std::size_t>(c * 8 + b)] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  return w;
}

std::vector<noc::Flit> AgentModel::accept(const noc::Flit& in) {
  std::vector<noc::Flit> out;
  const noc::Header h = codec_->header(in);
  if (h.type == t_error_) {
    ++counters_.errors_dropped;
    return out;
  }
  const bool is_write = h.type == t_wr_req_;
  if (const Rule* r = refusal(in, h, is_write)) {
    ++counters_.refused;
    send_error(in, *r, h.src(), out);
    // A refused write whose source has none open consumes its data flits,
    // in a slot of its own when one is left.
    if (is_write && !slots_.count(h.src()) && !slots_full()) {
      Slot s;
      s.request = in;
      s.beats = static_cast<int>(len_.get(in)) + 1;
      s.discard = true;
      slots_.emplace(h.src(), std::move(s));
      counters_.max_open_writes = std::max<std::uint64_t>(counters_.max_open_writes, slots_.size());
    }
    return out;
  }
  if (h.type == t_rd_req_) {
    read(in, h, out);
  } else if (is_write) {
    write_request(in, h, out);
  } else {
    write_data(in, h, out);
  }
  return out;
}

void AgentModel::read(const noc::Flit& in, const noc::Header& h, std::vector<noc::Flit>& out) {
  ++counters_.reads;
  const std::uint64_t addr = addr_.get(in);
  const noc::Coord requester = h.src();
  if (stream_.get(in) == 0) {
    const std::uint64_t beats = len_.get(in) + 1;
    for (std::uint64_t k = 0; k < beats; ++k) {
      mover::MoverWord w{};
      ++counters_.words_read;
      if (mem_->read(addr + word_bytes_ * k, w) != mover::Resp::Okay) {
        ++counters_.axi_errors;
        send_error(in, axi_response_, requester, out);
      } else {
        out.push_back(data_flit(t_rd_resp_, requester, h.txn, k + 1 == beats ? 1U : 0U, 0, &w));
      }
    }
    return;
  }
  const StreamShape shape = stream_shape(in);
  const std::uint64_t e = shape.e, count = shape.count, first = first_word_.get(in);
  const std::uint64_t word_index_mask = (std::uint64_t{1} << first_word_.width) - 1;
  std::vector<noc::Coord> dests{requester};
  const std::uint64_t n_peer = n_peer_.get(in);
  for (std::uint64_t k = 0; k < n_peer && k < peers_.size(); ++k)
    dests.push_back({static_cast<int>(peers_[k].first.get(in)), static_cast<int>(peers_[k].second.get(in))});
  std::vector<mover::MoverWord> words(e);
  std::vector<bool> okay(e);
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::uint64_t j = 0; j < e; ++j) {
      ++counters_.words_read;
      okay[j] = mem_->read(addr + word_bytes_ * (shape.stride * i + j), words[j]) == mover::Resp::Okay;
      if (!okay[j]) ++counters_.axi_errors;
    }
    const auto txn = static_cast<std::uint32_t>((h.txn + i) % txn_modulus_);
    for (const noc::Coord& d : dests)
      for (std::uint64_t j = 0; j < e; ++j) {
        if (!okay[j]) {
          send_error(in, axi_response_, d, out);
        } else {
          out.push_back(data_flit(t_rd_resp_, d, txn, j + 1 == e ? 1U : 0U,
                                  static_cast<std::uint32_t>((first + j) & word_index_mask), &words[j]));
        }
      }
  }
}

AgentModel::StreamShape AgentModel::stream_shape(const noc::Flit& in) const {
  StreamShape s;
  s.count = count_field_->effective(count_.get(in));
  s.e = entry_words_field_->effective(entry_words_.get(in));
  s.stride = entry_stride_.get(in) == 0 ? s.e : entry_stride_.get(in);  // 0: consecutive (noc.yaml)
  return s;
}

void AgentModel::write_request(const noc::Flit& in, const noc::Header& h, std::vector<noc::Flit>& /*out*/) {
  Slot s;
  s.request = in;
  s.addr = addr_.get(in);
  s.beats = static_cast<int>(len_.get(in)) + 1;
  s.words.reserve(static_cast<std::size_t>(s.beats));
  slots_.emplace(h.src(), std::move(s));
  counters_.max_open_writes = std::max<std::uint64_t>(counters_.max_open_writes, slots_.size());
}

void AgentModel::write_data(const noc::Flit& in, const noc::Header& h, std::vector<noc::Flit>& out) {
  const auto it = slots_.find(h.src());
  if (it == slots_.end()) {
    ++counters_.stray_data_flits;
    return;
  }
  Slot& s = it->second;
  if (s.discard) {
    ++counters_.discarded_data_flits;
    --s.beats;
    if ((h.last != 0) != (s.beats == 0)) ++counters_.data_last_mismatches;
    if (s.beats == 0) slots_.erase(it);
    return;
  }
  s.words.push_back(word_of(in));
  const bool final = static_cast<int>(s.words.size()) == s.beats;
  if ((h.last != 0) != final) ++counters_.data_last_mismatches;
  if (!final) return;
  bool okay = true;
  for (std::size_t k = 0; k < s.words.size(); ++k) {
    ++counters_.words_written;
    if (mem_->write(s.addr + word_bytes_ * k, s.words[k]) != mover::Resp::Okay) okay = false;
  }
  ++counters_.writes;
  const noc::Header rq = codec_->header(s.request);
  if (okay) {
    out.push_back(data_flit(t_wr_ack_, h.src(), rq.txn, 1, 0, nullptr));
  } else {
    ++counters_.axi_errors;
    send_error(s.request, axi_response_, h.src(), out);
  }
  slots_.erase(it);
}

std::optional<int> AgentModel::beats_awaited(noc::Coord source) const {
  const auto it = slots_.find(source);
  if (it == slots_.end()) return std::nullopt;
  if (it->second.discard) return it->second.beats;
  return it->second.beats - static_cast<int>(it->second.words.size());
}

void append_answers(AnswerStreams& streams, const noc::Codec& codec, const noc::Flit& in,
                    const std::vector<noc::Flit>& out) {
  const noc::Coord source = codec.header(in).src();
  for (const noc::Flit& f : out) streams[{source, codec.header(f).dst()}].push_back(f);
}

}  // namespace tpugen::agent
