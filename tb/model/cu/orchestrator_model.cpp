#include "model/cu/orchestrator_model.h"

#include <fmt/format.h>

#include "util/diag.h"

namespace tpugen::cu {

namespace {

std::uint32_t code_of(const std::vector<NocCode>& list, std::string_view name) {
  for (const auto& c : list)
    if (c.name == name) return c.code;
  throw Error("cu.spec", fmt::format("noc.yaml has no code {}, which the orchestrator needs", name));
}

}  // namespace

OrchestratorModel::OrchestratorModel(const ComputeUnitsSpec& spec, const noc::Codec& codec, noc::Coord at, int nx,
                                     int ny, const NocParams& params, MoverWindow mover)
    : spec_(&spec.orchestrator), codec_(&codec), at_(at), nx_(nx), ny_(ny), mover_(std::move(mover)) {
  slots_.assign(static_cast<std::size_t>(params["PROG_FLITS"]), noc::Flit{});
  channels_.assign(static_cast<std::size_t>(params["CHANNELS"]), ChannelState{});
  for (auto& c : channels_) c.state = spec_->require_state("IDLE").code;
  const NocSpec& ns = codec.spec();
  t_signal_ = codec.type_code("CU_SIGNAL");
  t_ctrl_ = codec.type_code("CU_CTRL");
  t_error_ = codec.type_code("ERROR");
  sig_inst_ = ns.require_signal("SIG_INST_COMPLETE").code;
  sig_batch_ = ns.require_signal("SIG_BATCH_COMPLETE").code;
  sig_fault_ = ns.require_signal("SIG_FAULT").code;
  ctrl_read_ = code_of(ns.cu_ctrl_ops, "READ");
  ctrl_reply_ = code_of(ns.cu_ctrl_ops, "REPLY");
}

std::uint32_t OrchestratorModel::field_of(const char* reg, const char* field, std::uint64_t v) const {
  return static_cast<std::uint32_t>(spec_->require_register(reg).require_field(field).get(v));
}

const std::string& OrchestratorModel::state_name(std::uint32_t code) const {
  for (const auto& s : spec_->channel_states)
    if (s.code == code) return s.name;
  throw Error("cu.spec", fmt::format("no channel state has code {}", code));
}

void OrchestratorModel::kick(std::uint64_t value) {
  const std::uint32_t c = field_of("PROG_KICK", "channel", value);
  const std::uint32_t base = field_of("PROG_BASE", "base", prog_base_);
  const std::uint32_t len = field_of("PROG_LEN", "len", prog_len_);
  const std::uint32_t cred = field_of("PROG_CRED", "credits", prog_cred_);
  const noc::Coord dst{static_cast<int>(field_of("PROG_DST", "x", prog_dst_)),
                       static_cast<int>(field_of("PROG_DST", "y", prog_dst_))};
  const char* refused = nullptr;
  if (c >= channels_.size()) refused = "NO_CHANNEL";
  else if (channels_[c].state == state_code("SENDING") || channels_[c].state == state_code("WAITING"))
    refused = "CHANNEL_BUSY";
  else if (len == 0) refused = "EMPTY";
  else if (std::uint64_t{base} + len > slots_.size()) refused = "PAST_STAGING";
  else if (cred == 0) refused = "NO_CREDITS";
  else if (dst.x >= nx_ || dst.y >= ny_ || dst == at_) refused = "BAD_NODE";
  if (refused != nullptr) {
    kick_error_ = spec_->require_kick_error(refused).code;
    return;
  }
  kick_error_ = 0;
  ChannelState& ch = channels_[c];
  ch = ChannelState{};
  ch.state = state_code("SENDING");
  ch.dst = dst;
  ch.base = base;
  ch.len = len;
  ch.credits = cred;
  done_bits_ &= ~(1u << c);
  fault_bits_ &= ~(1u << c);
}

void OrchestratorModel::write(std::uint32_t offset, std::uint64_t value) {
  if (offset % 8 != 0) return;
  const OrchestratorSpec& o = *spec_;
  if (offset >= o.staging_offset && offset < o.staging_offset + slots_.size() * o.slot_bytes) {
    const std::uint32_t s = (offset - o.staging_offset) / o.slot_bytes;
    const auto w = static_cast<int>((offset - o.staging_offset) % o.slot_bytes / 8);
    if (w < o.payload_words) slots_[s].set_bits(w * 64, 64, value);
    else if (w == o.header_word)
      slots_[s].set_bits(codec_->spec().payload_bits, codec_->spec().header_bits, value);
    return;
  }
  if (offset >= o.window_offset && offset < o.window_offset + o.window_bytes) {
    if (mover_.write) mover_.write(offset - o.window_offset, value);
    return;
  }
  const CuRegister* r = nullptr;
  for (const auto& x : o.registers)
    if (x.offset == offset) r = &x;
  if (r == nullptr) return;  // unmapped or read-only channel registers: ignored
  auto rw = [&](std::uint64_t& into) {
    for (const auto& f : r->fields)
      if (f.access == CuAccess::Rw) into = f.with(into, f.get(value));
  };
  if (r->name == "PROG_BASE") rw(prog_base_);
  else if (r->name == "PROG_LEN") rw(prog_len_);
  else if (r->name == "PROG_DST") rw(prog_dst_);
  else if (r->name == "PROG_CRED") rw(prog_cred_);
  else if (r->name == "IRQ_ENABLE") rw(irq_enable_);
  else if (r->name == "PROG_KICK") kick(value);
  else if (r->name == "IRQ_STATUS") {
    for (const auto& f : r->fields)
      if (f.access == CuAccess::W1c) irq_status_ &= ~(f.with(0, f.get(value)));
  } else if (r->name == "CTRL_REQ") {
    const noc::Coord to{static_cast<int>(field_of("CTRL_REQ", "x", value)), static_cast<int>(field_of("CTRL_REQ", "y", value))};
    noc::Flit f;
    codec_->set_header(f, noc::Header::between(to, at_, t_ctrl_, 0, 1));
    codec_->set(f, "cu_ctrl.op", ctrl_read_);
    codec_->set(f, "cu_ctrl.index", field_of("CTRL_REQ", "index", value));
    ctrl_out_ = f;
    ctrl_pending_ = true;
    ctrl_valid_ = false;
  }
}

std::uint64_t OrchestratorModel::read(std::uint32_t offset) const {
  if (offset % 8 != 0) return 0;
  const OrchestratorSpec& o = *spec_;
  if (offset >= o.staging_offset && offset < o.staging_offset + slots_.size() * o.slot_bytes) {
    const std::uint32_t s = (offset - o.staging_offset) / o.slot_bytes;
    const auto w = static_cast<int>((offset - o.staging_offset) % o.slot_bytes / 8);
    if (w < o.payload_words) return slots_[s].bits(w * 64, 64);
    if (w == o.header_word) return slots_[s].bits(codec_->spec().payload_bits, codec_->spec().header_bits);
    return 0;
  }
  if (offset >= o.window_offset && offset < o.window_offset + o.window_bytes)
    return mover_.read ? mover_.read(offset - o.window_offset) : 0;
  const std::uint32_t ch0 = o.channel_registers.front().offset;
  if (offset >= ch0 && offset < ch0 + channels_.size() * o.channel_stride) {
    const ChannelState& c = channels_[(offset - ch0) / o.channel_stride];
    const std::uint32_t at = ch0 + (offset - ch0) % o.channel_stride;
    for (const auto& r : o.channel_registers) {
      if (r.offset != at) continue;
      std::uint64_t v = 0;
      auto put = [&](const char* f, std::uint64_t x) { v = r.require_field(f).with(v, x); };
      if (r.name == "CH_STAT") {
        put("x", static_cast<std::uint64_t>(c.dst.x));
        put("y", static_cast<std::uint64_t>(c.dst.y));
        put("state", c.state);
        put("credits", c.credits);
        put("sent", c.sent);
        put("retired", c.retired);
      } else if (r.name == "CH_LAST") {
        put("arg", c.last_arg);
        put("code", c.last_code);
        put("txn", c.last_txn);
      }
      return v;
    }
    return 0;
  }
  for (const auto& r : o.registers) {
    if (r.offset != offset) continue;
    std::uint64_t v = 0;
    auto put = [&](const char* f, std::uint64_t x) { v = r.require_field(f).with(v, x); };
    if (r.name == "ORCH_CAPS") {
      put("x", static_cast<std::uint64_t>(at_.x));
      put("y", static_cast<std::uint64_t>(at_.y));
      put("nx", static_cast<std::uint64_t>(nx_));
      put("ny", static_cast<std::uint64_t>(ny_));
      put("channels", channels_.size());
      put("prog_flits", slots_.size());
    } else if (r.name == "PROG_BASE") v = prog_base_;
    else if (r.name == "PROG_LEN") v = prog_len_;
    else if (r.name == "PROG_DST") v = prog_dst_;
    else if (r.name == "PROG_CRED") v = prog_cred_;
    else if (r.name == "PROG_STAT") {
      std::uint64_t busy = 0;
      for (std::size_t c = 0; c < channels_.size(); ++c)
        if (channels_[c].state == state_code("SENDING") || channels_[c].state == state_code("WAITING"))
          busy |= 1ULL << c;
      put("busy", busy);
      put("done", done_bits_);
      put("fault", fault_bits_);
      put("kick_error", kick_error_);
    } else if (r.name == "COMPLETIONS") {
      put("batches", batches_ & 0xFFFFFFFFu);
      put("retirements", retirements_ & 0xFFFFFFFFu);
    } else if (r.name == "IRQ_ENABLE") v = irq_enable_;
    else if (r.name == "IRQ_STATUS") v = irq_status_;
    else if (r.name == "STRAY") {
      put("signals", stray_signals_ & 0xFFFFFFFFu);
      put("errors", stray_errors_ & 0xFFFFFFFFu);
    } else if (r.name == "CTRL_STAT") {
      put("pending", ctrl_pending_);
      put("valid", ctrl_valid_);
    } else if (r.name == "CTRL_VALUE") v = ctrl_value_;
    return v;
  }
  return 0;
}

std::optional<noc::Flit> OrchestratorModel::next() {
  if (ctrl_out_) {
    noc::Flit f = *ctrl_out_;
    ctrl_out_.reset();
    return f;
  }
  const int n = static_cast<int>(channels_.size());
  for (int i = 0; i < n; ++i) {
    const int c = (rr_ + i) % n;
    ChannelState& ch = channels_[static_cast<std::size_t>(c)];
    if (ch.state != state_code("SENDING") || ch.credits == 0) continue;
    noc::Flit f = slots_[ch.base + ch.sent];
    noc::Header h = codec_->header(f);
    h.dst_x = static_cast<std::uint32_t>(ch.dst.x);
    h.dst_y = static_cast<std::uint32_t>(ch.dst.y);
    h.src_x = static_cast<std::uint32_t>(at_.x);
    h.src_y = static_cast<std::uint32_t>(at_.y);
    codec_->set_header(f, h);
    --ch.credits;
    if (++ch.sent == ch.len) ch.state = state_code("WAITING");
    rr_ = (c + 1) % n;
    return f;
  }
  return std::nullopt;
}

void OrchestratorModel::end(ChannelState& c, const char* state) {
  c.state = state_code(state);
  const auto bit = 1u << static_cast<std::uint32_t>(&c - channels_.data());
  const std::string s = state;
  if (s == "ENDED") return;
  ++batches_;
  const CuRegister& st = spec_->require_register("IRQ_STATUS");
  if (s == "DONE") {
    done_bits_ |= bit;
    irq_status_ = st.require_field("batch").with(irq_status_, 1);
  } else {
    fault_bits_ |= bit;
    irq_status_ = st.require_field("fault").with(irq_status_, 1);
  }
}

void OrchestratorModel::accept(const noc::Flit& in) {
  const noc::Header h = codec_->header(in);
  if (h.type == t_error_) {
    ++stray_errors_;
    return;
  }
  if (h.type == t_ctrl_) {
    if (codec_->get(in, "cu_ctrl.op") == ctrl_reply_) {
      ctrl_value_ = codec_->get(in, "cu_ctrl.value");
      ctrl_valid_ = true;
      ctrl_pending_ = false;
    }
    return;
  }
  const std::uint32_t code = h.type == t_signal_ ? static_cast<std::uint32_t>(codec_->get(in, "cu_signal.code")) : ~0u;
  if (code != sig_inst_ && code != sig_batch_ && code != sig_fault_) {
    ++stray_signals_;
    return;
  }
  for (auto& c : channels_) {
    const bool busy = c.state == state_code("SENDING") || c.state == state_code("WAITING");
    if (!busy || c.dst != h.src() || c.retired >= c.sent) continue;
    ++c.credits;
    ++c.retired;
    ++retirements_;
    c.last_code = code;
    c.last_txn = h.txn;
    c.last_arg = static_cast<std::uint32_t>(codec_->get(in, "cu_signal.arg"));
    if (code == sig_fault_) c.fault = true;
    if (code == sig_batch_) c.batch = true;
    if (c.retired == c.len) end(c, c.fault ? "FAULT" : c.batch ? "DONE" : "ENDED");
    return;
  }
  ++stray_signals_;
}

bool OrchestratorModel::irq() const { return (irq_status_ & irq_enable_) != 0; }

}  // namespace tpugen::cu
