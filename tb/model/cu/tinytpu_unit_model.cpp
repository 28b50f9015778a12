#include "model/cu/tinytpu_unit_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "isa/image.h"
#include "model/core/model.h"
#include "util/diag.h"

namespace tpugen::cu {

namespace {

constexpr int kWordBytes = mover::kWordBytes;
constexpr int kImemWordBytes = 8;  // an imem word is 64 bits (the spec's imem row_bits; checked below)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

/// A flit's payload as a word (byte k is bits [8k+7:8k]), and back.
mover::MoverWord word_of(const noc::Flit& f) {
  mover::MoverWord w{};
  for (int k = 0; k < kWordBytes; ++k) w[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(f.bits(8 * k, 8));
  return w;
}

void put_word(noc::Flit& f, const mover::MoverWord& w) {
  for (int k = 0; k < kWordBytes; ++k) f.set_bits(8 * k, 8, w[static_cast<std::size_t>(k)]);
}

/// The 64-bit imem words a payload holds, word q at bits [64q+63:64q].
constexpr int kImemPerWord = kWordBytes / kImemWordBytes;

const Memory& memory(const Spec& s, std::string_view name) {
  for (const auto& m : s.memories)
    if (m.name == name) return m;
  throw Error("cu.spec", fmt::format("the core has no memory {}, which the TinyTPU unit holds", name));
}

}  // namespace

TinyTpuUnitModel::TinyTpuUnitModel(const Isa& isa, const ComputeUnitsSpec& spec, const SystemNodeSpec& sysnode,
                                   const noc::Codec& codec, noc::Coord at, noc::Coord agent)
    : isa_(&isa),
      unit_(&spec.require_unit("tinytpu")),
      codec_(&codec),
      at_(at),
      agent_(agent),
      k_(evaluate_unit(*unit_, isa.params().scope())) {
  maxdim_ = static_cast<int>(isa.param("MAXDIM"));
  t_ = static_cast<int>(isa.param("T"));
  imem_size_ = static_cast<int>(isa.param("IMEM_SIZE"));
  row_words_ = static_cast<int>(k_["ROW_WORDS"]);
  write_max_len_ = sysnode.agent.write_max_len;
  fault_code_ = spec.cu_base.fault_result.field("code");
  if (memory(isa.spec(), "imem").row_bits.eval(isa.params().scope()) != kImemWordBytes * 8)
    throw Error("cu.spec", "the TinyTPU unit loads imem as 64-bit words");
  for (const char* m : {"A", "B", "C"})
    if (!memory(isa.spec(), m).dram) throw Error("cu.spec", fmt::format("the core's {} has no DRAM layout", m));
  t_rd_req_ = codec.type_code("MEM_RD_REQ");
  t_wr_req_ = codec.type_code("MEM_WR_REQ");
  t_wr_data_ = codec.type_code("MEM_WR_DATA");
  t_rd_resp_ = codec.type_code("MEM_RD_RESP");
  t_wr_ack_ = codec.type_code("MEM_WR_ACK");
  t_error_ = codec.type_code("ERROR");
  axi_rule_ = sysnode.agent.require_error_rule("AXI_RESPONSE").code;
  imem_.assign(static_cast<std::size_t>(imem_size_), 0);
  for (Buffer* b : {&a_, &b_}) {
    b->words.assign(static_cast<std::size_t>(maxdim_ * row_words_), mover::MoverWord{});
    b->arrived.assign(b->words.size(), false);
  }
}

std::uint64_t TinyTpuUnitModel::field(const noc::Flit& inst, const UnitField& f) const {
  return inst.bits(f.lsb, f.width());
}

std::uint64_t TinyTpuUnitModel::value_of(const noc::Flit& inst, const UnitOpcode& op, std::string_view name) const {
  const UnitField& f = op.require_field(name);
  const std::uint64_t raw = field(inst, f);
  if (raw == 0 && f.zero_means) return static_cast<std::uint64_t>(f.zero_means->eval(k_.scope));
  return raw;
}

std::uint32_t TinyTpuUnitModel::fault_result(std::string_view fault, std::uint32_t detail) const {
  const NocField& d = *fault_code_;
  const std::uint32_t detail_mask = (1u << d.lsb) - 1;  // the detail sits below the code
  return (unit_->require_fault(fault).code << d.lsb) | (detail & detail_mask);
}

void TinyTpuUnitModel::finish(ExecOutcome o) {
  if (o.fault) {
    last_fault_ = o.result;
    ++counters_.faults;
  }
  outcome_ = o;
  // A RUN that started used its rows, whether it completed or faulted: their
  // arrival is cleared (a peer may bring the next RUN's rows any time after).
  if (run_used_) {
    for (int r = 0; r < maxdim_; ++r)
      for (int w = 0; w < row_words_; ++w) {
        const auto at = static_cast<std::size_t>(r * row_words_ + w);
        if (r < m_) a_.arrived[at] = false;
        if (r < k_dim_) b_.arrived[at] = false;
      }
    run_used_ = false;
  }
  phase_ = Phase::Done;
}

noc::Flit TinyTpuUnitModel::request(std::uint32_t type, std::uint32_t txn, std::uint64_t addr) const {
  noc::Flit f;
  codec_->set_header(f, noc::Header::between(agent_, at_, type, txn, 1));
  codec_->set(f, "mem_req.addr", addr);
  return f;
}

void TinyTpuUnitModel::read_stream(std::uint64_t addr, StreamGeometry g, std::uint32_t txn, const noc::Flit& inst,
                                   const UnitField* npeer, const UnitField* peer, std::vector<noc::Flit>& out) {
  noc::Flit f = request(t_rd_req_, txn, addr);
  codec_->set(f, "mem_req.flags.STREAM", 1);
  codec_->set(f, "mem_req.count", static_cast<std::uint64_t>(g.count));
  codec_->set(f, "mem_req.entry_words", static_cast<std::uint64_t>(g.entry_words));
  codec_->set(f, "mem_req.entry_stride", static_cast<std::uint64_t>(g.stride));
  codec_->set(f, "mem_req.first_word", static_cast<std::uint64_t>(g.first_word));
  if (npeer != nullptr && peer != nullptr) {
    const std::uint64_t n = field(inst, *npeer);
    codec_->set(f, "mem_req.n_peer", n);
    for (std::uint64_t i = 0; i < n; ++i)
      for (const char* sub : {"x", "y"}) {
        const NocSubfield* s = peer->subfield(sub);
        if (s == nullptr) throw Error("cu.spec", fmt::format("{} has no sub-field {}", peer->name, sub));
        const int lsb = peer->lsb + static_cast<int>(i) * peer->element_width() + s->lsb;
        codec_->set(f, fmt::format("mem_req.peer[{}].{}", i, sub), inst.bits(lsb, s->width()));
      }
  }
  pending_.push_back({txn, static_cast<std::uint32_t>(g.count), g.count * g.entry_words});
  ++counters_.requests;
  out.push_back(f);
}

void TinyTpuUnitModel::start(const noc::Flit& inst) {
  inst_ = inst;
  outcome_.reset();
  pending_.clear();
  acks_left_ = 0;
  const auto code = static_cast<std::uint32_t>(inst.bits(unit_->opcode_lsb, unit_->opcode_width()));
  const UnitOpcode* op = unit_->opcode_of(code);
  if (op == nullptr) return fail("UNKNOWN_OPCODE", code);
  if (op->name == "LOAD") return start_load(inst);
  if (op->name == "RUN") return start_run(inst);
  if (op->name == "STATUS") {
    ++counters_.statuses;
    const UnitField& sel = op->require_field("select");
    const std::uint64_t v = field(inst, sel);
    for (const auto& s : unit_->status_selects)
      if (s.code == v) {
        const std::uint64_t r = s.name == "RUNS" ? counters_.runs : s.name == "LAST_FAULT" ? last_fault_ : loaded_;
        return finish({static_cast<std::uint32_t>(r), false});
      }
    return fail("GEOMETRY", static_cast<std::uint32_t>(sel.lsb));
  }
  throw Error("cu.spec", fmt::format("the TinyTPU unit model does not know opcode {}", op->name));
}

void TinyTpuUnitModel::start_load(const noc::Flit& inst) {
  const UnitOpcode& op = unit_->require_opcode("LOAD");
  ++counters_.loads;
  load_addr_ = value_of(inst, op, "addr");
  const std::uint64_t words = value_of(inst, op, "words");
  if (load_addr_ % kWordBytes != 0) return fail("MISALIGNED", 0);
  if (words > static_cast<std::uint64_t>(imem_size_))
    return fail("GEOMETRY", static_cast<std::uint32_t>(op.require_field("words").lsb));
  load_words_ = static_cast<int>(words);
  load_next_ = 0;
  program_ = false;  // imem is rewritten: a program again once the LOAD retires
  phase_ = Phase::Load;
}

void TinyTpuUnitModel::issue_load(std::vector<noc::Flit>& out) {
  // Mesh words of the image, one a stream entry, tagged from `own`: one
  // request a round of the tags.
  const int mesh_words = ceil_div(load_words_, kImemPerWord);
  const auto own = k_.tag("own");
  const int count_max = (1 << codec_->field("mem_req.count").width) - 1;  // a stream's entries, at most
  const int round = std::min<int>(static_cast<int>(own.count), count_max);
  load_base_ = load_next_;
  const int end = std::min(mesh_words, load_next_ + round);
  read_stream(load_addr_ + static_cast<std::uint64_t>(load_next_) * kWordBytes, {end - load_next_, 1, 0, 0},
              static_cast<std::uint32_t>(own.first), *inst_, nullptr, nullptr, out);
  load_next_ = end;
}

void TinyTpuUnitModel::start_run(const noc::Flit& inst) {
  const UnitOpcode& op = unit_->require_opcode("RUN");
  ++counters_.runs;
  const char* addrs[] = {"a_addr", "b_addr", "c_addr"};
  const char* strides[] = {"a_stride", "b_stride", "c_stride"};
  for (int i = 0; i < 3; ++i) {
    addr_[i] = value_of(inst, op, addrs[i]);
    stride_[i] = static_cast<int>(value_of(inst, op, strides[i]));
  }
  recv_[0] = value_of(inst, op, "a_recv") != 0;
  recv_[1] = value_of(inst, op, "b_recv") != 0;
  m_ = static_cast<int>(value_of(inst, op, "m"));
  k_dim_ = static_cast<int>(value_of(inst, op, "k"));
  n_ = static_cast<int>(value_of(inst, op, "n"));
  for (const char* d : {"m", "k", "n"})
    if (value_of(inst, op, d) > static_cast<std::uint64_t>(maxdim_))
      return fail("GEOMETRY", static_cast<std::uint32_t>(op.require_field(d).lsb));
  const int cols[] = {k_dim_, n_, n_};
  for (int i = 0; i < 3; ++i)
    if (stride_[i] * kWordBytes < cols[i]) return fail("GEOMETRY", static_cast<std::uint32_t>(op.require_field(strides[i]).lsb));
  for (int i = 0; i < 3; ++i)
    if ((i == 2 || !recv_[i]) && addr_[i] % kWordBytes != 0) return fail("MISALIGNED", static_cast<std::uint32_t>(i));
  if (!program_) return fail("NO_PROGRAM", 0);
  for (Buffer* b : {&a_, &b_})
    if (b->twice) {
      const std::uint32_t tag = *b->twice;
      b->twice.reset();
      return fail("ROW_TWICE", tag);
    }
  next_phase_ = 0;
  run_used_ = true;
  merge_tag_.clear();
  c_words_.clear();
  c_mask_.clear();
  // The core starts at once and its sequencer refuses an opcode the spec
  // does not define as it issues it: in the program's first instruction that
  // is before the core reads a row, so the RUN faults CORE whatever rows are
  // still to come (a peer's that never arrive included).
  if (first_opcode_undefined()) return fail("CORE", 0);
  phase_ = Phase::Rows;
}

bool TinyTpuUnitModel::first_opcode_undefined() const {
  Program p;
  try {
    p = decode_image(*isa_, imem_, "imem");
  } catch (const Error&) {
    return false;  // the core model refuses it when it runs
  }
  return !p.instrs.empty() && isa_->opcode_of(p.instrs.front()) == nullptr;
}

// RUN's reads (the RTL's phases, run_phase): 0 word 0 of B's first T rows, 1 word 0
// of A's rows, 2 word 0 of the rest of B's, 3 the other words of A's rows,
// 4 the other words of B's rows; each one strided stream, a row an entry.
namespace {
constexpr int kPhases = 5;
constexpr bool phase_is_b(int p) { return p == 0 || p == 2 || p == 4; }
}  // namespace

TinyTpuUnitModel::RunRead TinyTpuUnitModel::run_read(int p) const {
  RunRead r;
  r.operand = phase_is_b(p) ? 1 : 0;
  const int head = std::min(k_dim_, t_);
  r.first = p == 2 ? head : 0;
  r.end = p == 0 ? head : (r.operand == 1 ? k_dim_ : m_);
  const int words = ceil_div(r.operand == 0 ? k_dim_ : n_, kWordBytes);  // a row's
  r.first_word = p < 3 ? 0 : 1;
  r.entry_words = p < 3 ? std::min(words, 1) : words - 1;
  if (recv_[r.operand] || r.first >= r.end) r.entry_words = 0;
  return r;
}

void TinyTpuUnitModel::issue_phase(int p, std::vector<noc::Flit>& out) {
  const RunRead r = run_read(p);
  if (r.entry_words <= 0) return;
  const int i = r.operand;
  const UnitOpcode& op = unit_->require_opcode("RUN");
  const auto tag = k_.tag(i == 0 ? "A" : "B");
  read_stream(addr_[i] + (static_cast<std::uint64_t>(r.first) * stride_[i] + static_cast<std::uint64_t>(r.first_word)) *
                             kWordBytes,
              {r.end - r.first, r.entry_words, stride_[i], r.first_word},
              static_cast<std::uint32_t>(tag.first + r.first), *inst_,
              &op.require_field(i == 0 ? "a_npeer" : "b_npeer"), &op.require_field(i == 0 ? "a_peer" : "b_peer"), out);
}

bool TinyTpuUnitModel::col0_a_in() const {
  for (int r = 0; r < m_; ++r)
    if (!a_.arrived[static_cast<std::size_t>(r * row_words_)]) return false;
  return true;
}

bool TinyTpuUnitModel::rows_in() const {
  const Buffer* bufs[] = {&a_, &b_};
  const int rows[] = {m_, k_dim_};
  const int words[] = {ceil_div(k_dim_, kWordBytes), ceil_div(n_, kWordBytes)};
  for (int i = 0; i < 2; ++i)
    for (int r = 0; r < rows[i]; ++r)
      for (int w = 0; w < words[i]; ++w)
        if (!bufs[i]->arrived[static_cast<std::size_t>(r * row_words_ + w)]) return false;
  return true;
}

void TinyTpuUnitModel::compute() {
  const auto md = static_cast<std::size_t>(maxdim_);
  auto matrix = [&](const Buffer& b, int rows, int cols) {
    std::vector<std::int8_t> out(md * md, 0);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const auto& word = b.words[static_cast<std::size_t>(r * row_words_ + c / kWordBytes)];
        out[static_cast<std::size_t>(r) * md + static_cast<std::size_t>(c)] =
            static_cast<std::int8_t>(word[static_cast<std::size_t>(c % kWordBytes)]);
      }
    }
    return out;
  };
  Model core(*isa_);
  core.set_dram("A", matrix(a_, m_, k_dim_));
  core.set_dram("B", matrix(b_, k_dim_, n_));
  try {
    core.run_image(imem_);
  } catch (const Error&) {
    return fail("CORE", 0);
  }
  const auto& c = core.dram("C");
  const auto& stored = core.dram_stored("C");
  for (int r = 0; r < m_; ++r)
    for (int col = 0; col < n_; ++col) {
      const std::size_t i = static_cast<std::size_t>(r) * md + static_cast<std::size_t>(col);
      if (!stored[i]) continue;
      const std::uint64_t byte = addr_[2] + static_cast<std::uint64_t>(r) * stride_[2] * kWordBytes + col;
      const std::uint64_t word = byte & ~std::uint64_t{kWordBytes - 1};
      c_words_[word][byte % kWordBytes] = static_cast<std::uint8_t>(c[i]);
      c_mask_[word] |= 1u << (byte % kWordBytes);
    }
  run_result_ = static_cast<std::uint32_t>(c_words_.size());
  phase_ = Phase::Merge;
}

void TinyTpuUnitModel::issue_merges(std::vector<noc::Flit>& out) {
  const auto own = k_.tag("own");
  std::uint32_t txn = static_cast<std::uint32_t>(own.first);
  for (const auto& [word, mask] : c_mask_) {
    if (mask == 0xFFFFFFFFu) continue;
    bool asked = false;
    for (const auto& [t, w] : merge_tag_) asked = asked || w == word;
    if (asked) continue;
    if (txn >= own.first + own.count) break;  // a round of tags; the rest after these come back
    while (merge_tag_.count(txn)) ++txn;
    if (txn >= own.first + own.count) break;
    merge_tag_[txn] = word;
    pending_.push_back({txn, 1, 1});
    ++counters_.requests;
    out.push_back(request(t_rd_req_, txn, word));
  }
}

void TinyTpuUnitModel::issue_writes(std::vector<noc::Flit>& out) {
  std::uint32_t writes = 0;
  for (auto it = c_words_.begin(); it != c_words_.end();) {
    auto end = it;
    int n = 0;
    while (end != c_words_.end() && n <= write_max_len_ &&
           end->first == it->first + static_cast<std::uint64_t>(n) * kWordBytes)
      ++end, ++n;
    const std::uint32_t txn = writes % 256;  // acknowledgements are counted, not matched
    noc::Flit req = request(t_wr_req_, txn, it->first);
    codec_->set(req, "mem_req.len", static_cast<std::uint64_t>(n - 1));
    out.push_back(req);
    ++counters_.requests;
    int j = 0;
    for (auto w = it; w != end; ++w, ++j) {
      noc::Flit d;
      codec_->set_header(d, noc::Header::between(agent_, at_, t_wr_data_, txn, j == n - 1 ? 1 : 0));
      put_word(d, w->second);
      out.push_back(d);
      ++counters_.words_written;
    }
    ++acks_left_;
    ++writes;
    it = end;
  }
  c_words_.clear();
}

void TinyTpuUnitModel::receive(const noc::Flit& f) {
  const noc::Header h = codec_->header(f);
  if (h.type == t_error_) {
    const auto rule = static_cast<std::uint32_t>(codec_->get(f, "error.rule"));
    const NocCode& memory = unit_->require_fault("MEMORY");
    memory_fault_ = static_cast<std::uint32_t>(
        memory.require_detail("txn").with(memory.require_detail("rule").with(0, rule), h.txn));
    // An AXI_RESPONSE takes one beat's place; another rule refuses the whole request.
    const auto offending = [&](const char* name) {  // a field of the offending header
      const noc::FieldRef field = codec_->field(name);
      return static_cast<std::uint32_t>((codec_->get(f, "error.header") >> (field.lsb - codec_->spec().payload_bits)) &
                                        ((1u << field.width) - 1));
    };
    const std::uint32_t offending_type = offending("type");
    if (offending_type == t_wr_req_) {
      if (acks_left_ > 0) --acks_left_;  // the write's one answer
      return;
    }
    // A request of the unit's own (a peer's multicast brings copies of the
    // peer's): the oldest in flight with the txn.
    const noc::Coord offending_src{static_cast<int>(offending("src_x")), static_cast<int>(offending("src_y"))};
    if (!(offending_src == at_)) return;
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) { return p.txn == h.txn; });
    if (it != pending_.end()) {
      if (rule == axi_rule_ && --it->words > 0) return;  // one beat's place
      pending_.erase(it);  // the whole request refused
    }
    return;
  }
  if (h.type == t_wr_ack_) {
    if (acks_left_ > 0) --acks_left_;
    return;
  }
  if (h.type != t_rd_resp_) return;  // nothing else is the unit's
  ++counters_.words_read;
  const mover::MoverWord word = word_of(f);
  // Which request it answers: the one whose tags cover its txn.
  auto owner = std::find_if(pending_.begin(), pending_.end(),
                            [&](const Pending& p) { return h.txn >= p.txn && h.txn < p.txn + p.count; });
  const bool mine = owner != pending_.end();
  const auto a = k_.tag("A"), b = k_.tag("B"), own = k_.tag("own");
  if (h.txn >= a.first && h.txn < b.first + b.count) {
    Buffer& buf = h.txn < b.first ? a_ : b_;
    const auto row = static_cast<int>(h.txn - (h.txn < b.first ? a.first : b.first));
    const auto at = static_cast<std::size_t>(row * row_words_ + static_cast<int>(h.rsvd));
    if (at < buf.words.size()) {
      if (buf.arrived[at] && !buf.twice) buf.twice = h.txn;
      buf.words[at] = word;
      buf.arrived[at] = true;
    }
  } else if (h.txn >= own.first && phase_ == Phase::Load) {
    const int mesh_word = load_base_ + static_cast<int>(h.txn - own.first);
    for (int q = 0; q < kImemPerWord; ++q) {
      const int w = mesh_word * kImemPerWord + q;
      if (w < load_words_) imem_[static_cast<std::size_t>(w)] = f.bits(q * kImemWordBytes * 8, kImemWordBytes * 8);
    }
  } else if (auto m = merge_tag_.find(h.txn); m != merge_tag_.end() && phase_ == Phase::Merge) {
    auto& w = c_words_[m->second];
    const std::uint32_t mask = c_mask_[m->second];
    for (int k = 0; k < kWordBytes; ++k)
      if (!(mask >> k & 1u)) w[static_cast<std::size_t>(k)] = word[static_cast<std::size_t>(k)];
    c_mask_[m->second] = 0xFFFFFFFFu;
    ++counters_.merges;
    merge_tag_.erase(m);
  }
  if (mine && --owner->words == 0) pending_.erase(owner);
}

void TinyTpuUnitModel::data_write(std::uint32_t buf, std::uint32_t granule, const noc::Flit& data) {
  const mover::MoverWord word = word_of(data);
  for (const auto& b : unit_->buffers) {
    if (b.id != buf) continue;
    if (granule >= static_cast<std::uint32_t>(k_.granules.at(b.name))) return;  // past the buffer: dropped
    if (b.name == "imem") {
      program_ = true;
      for (int q = 0; q < kImemPerWord; ++q)
        imem_[static_cast<std::size_t>(granule) * kImemPerWord + static_cast<std::size_t>(q)] =
            data.bits(q * kImemWordBytes * 8, kImemWordBytes * 8);
    } else {
      Buffer& into = b.name == "A" ? a_ : b_;
      into.words[granule] = word;
      into.arrived[granule] = true;
    }
  }
}

std::optional<ExecOutcome> TinyTpuUnitModel::poll(std::vector<noc::Flit>& out) {
  for (;;) {
    if (phase_ == Phase::Done) {
      phase_ = Phase::Idle;
      inst_.reset();
      memory_fault_.reset();
      return outcome_;
    }
    if (!pending_.empty() || acks_left_ > 0) return std::nullopt;
    if (memory_fault_ && phase_ != Phase::Idle) {
      const std::uint32_t d = *memory_fault_;
      fail("MEMORY", d);
      continue;
    }
    switch (phase_) {
      case Phase::Idle: return std::nullopt;
      case Phase::Load:
        if (load_next_ * kImemPerWord >= load_words_) {
          loaded_ = static_cast<std::uint64_t>(load_words_);
          program_ = true;
          finish({static_cast<std::uint32_t>(load_words_), false});
          continue;
        }
        issue_load(out);
        continue;
      case Phase::Rows:
        // In the order the unit's GEMM program (interleave_loads in
        // gen/isa/programs.cpp) reads them, the first word column first (run_read's
        // phases). Where a peer brings A, the rest of B's first words wait for A's
        // first words, B's other words for all of A (A is what the core
        // needs first, and its reader is another unit).
        while (next_phase_ < kPhases) {
          if (recv_[0] && ((next_phase_ == 2 && !col0_a_in()) || (next_phase_ == 4 && !a_in()))) break;
          issue_phase(next_phase_++, out);
        }
        if (!pending_.empty()) return std::nullopt;
        if (!rows_in()) return std::nullopt;  // a peer's multicast is still to come
        compute();
        continue;
      case Phase::Merge: {
        bool partial = false;
        for (const auto& [w, mask] : c_mask_) partial = partial || mask != 0xFFFFFFFFu;
        if (!partial) {
          phase_ = Phase::Write;
          continue;
        }
        issue_merges(out);
        continue;
      }
      case Phase::Write:
        if (c_words_.empty()) {
          finish({run_result_, false});
          continue;
        }
        issue_writes(out);
        continue;
      case Phase::Done: continue;
    }
  }
}

bool TinyTpuUnitModel::expire() {
  if (phase_ != Phase::Rows || !pending_.empty() || rows_in()) return false;
  fail("ROWS_MISSING", a_in() ? 1 : 0);
  return true;
}

bool TinyTpuUnitModel::a_in() const {
  for (int r = 0; r < m_; ++r)
    for (int w = 0; w < ceil_div(k_dim_, kWordBytes); ++w)
      if (!a_.arrived[static_cast<std::size_t>(r * row_words_ + w)]) return false;
  return true;
}

std::string TinyTpuUnitModel::waiting_for() const {
  if (phase_ == Phase::Idle || phase_ == Phase::Done) return {};
  if (!pending_.empty()) return fmt::format("{} memory request(s) of its own unanswered", pending_.size());
  if (phase_ == Phase::Rows)
    return fmt::format("rows of {} from a peer's multicast (a_recv {}, b_recv {})", recv_[0] ? "A" : "B",
                       recv_[0], recv_[1]);
  return "its memory traffic";
}

}  // namespace tpugen::cu
