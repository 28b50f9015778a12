#include "model/cu/cu_base_model.h"

#include <fmt/format.h>

#include "util/diag.h"

// The steering table says where each type goes; the wrapper itself answers
// the two types it knows (CU_CTRL and CU_DATA) when the table sends them to it.

namespace tpugen::cu {

namespace {

const NocRegister& reg(const NocSpec& s, std::string_view name) {
  for (const auto& r : s.cu_ctrl_registers)
    if (r.name == name) return r;
  throw Error("cu.spec", fmt::format("noc.yaml has no CU_CTRL register {}, which the CU wrapper answers", name));
}

const NocField& reg_field(const NocRegister& r, std::string_view name) {
  for (const auto& f : r.fields)
    if (f.name == name) return f;
  throw Error("cu.spec", fmt::format("noc.yaml's CU_CTRL register {} has no field {}", r.name, name));
}

std::uint64_t put(std::uint64_t word, const NocField& f, std::uint64_t v) {
  const std::uint64_t mask = f.width() >= 64 ? ~0ULL : (1ULL << f.width()) - 1;
  if (v > mask) throw Error("cu.spec", fmt::format("{} does not fit CU_CTRL field {} ({} bits)", v, f.name, f.width()));
  return word | (v << f.lsb);
}

std::uint32_t code_of(const std::vector<NocCode>& list, std::string_view name, std::string_view what) {
  for (const auto& c : list)
    if (c.name == name) return c.code;
  throw Error("cu.spec", fmt::format("noc.yaml has no {} {}, which the CU wrapper needs", what, name));
}

}  // namespace

CuBaseModel::CuBaseModel(const ComputeUnitsSpec& spec, const noc::Codec& codec, noc::Coord at, const NocParams& params,
                         const UnitSpec& caps, UnitModel& unit)
    : codec_(&codec), at_(at), unit_(&unit) {
  const NocSpec& ns = codec.spec();
  depth_ = static_cast<std::size_t>(params["INST_DEPTH"]);
  const CuBaseSpec& b = spec.cu_base;
  const NocField& code = *b.fault_result.field("code");
  overflow_result_ = b.require_fault("INST_OVERFLOW").code << code.lsb;
  steer_.resize(std::size_t{1} << codec.field("type").width);
  for (std::uint32_t t = 0; t < steer_.size(); ++t) {
    const std::string& to = b.steer(codec.type_name(t));
    steer_[t] = to == "inst_fifo" ? Steer::Inst : to == "wrapper" ? Steer::Wrapper : Steer::Unit;
  }
  t_inst_ = codec.type_code("CU_INST");
  t_ctrl_ = codec.type_code("CU_CTRL");
  t_data_ = codec.type_code("CU_DATA");
  t_signal_ = codec.type_code("CU_SIGNAL");
  sig_inst_ = ns.require_signal("SIG_INST_COMPLETE").code;
  sig_batch_ = ns.require_signal("SIG_BATCH_COMPLETE").code;
  sig_fault_ = ns.require_signal("SIG_FAULT").code;
  sig_data_ = ns.require_signal("SIG_DATA_RECEIVED").code;
  ctrl_read_ = code_of(ns.cu_ctrl_ops, "READ", "CU_CTRL op");
  ctrl_reply_ = code_of(ns.cu_ctrl_ops, "REPLY", "CU_CTRL op");
  const NocRegister& c = reg(ns, "CAPS");
  reg_caps_ = c.index;
  caps_ = put(0, reg_field(c, "type"), caps.type);
  caps_ = put(caps_, reg_field(c, "version"), caps.version);
  caps_ = put(caps_, reg_field(c, "n_buffers"), caps.buffers.size());
  caps_ = put(caps_, reg_field(c, "inst_depth"), depth_);
  const NocRegister& s = reg(ns, "STATUS");
  reg_status_ = s.index;
  for (auto [ref, name] : {std::pair{&status_busy_, "busy"}, {&status_error_, "error"}, {&status_space_, "inst_space"}}) {
    const NocField& f = reg_field(s, name);
    *ref = noc::FieldRef{name, f.lsb, f.width()};
  }
  reg_counters_ = reg(ns, "COUNTERS").index;
  reg_dbg_ = reg(ns, "DBG").index;
}

std::uint32_t CuBaseModel::current_txn() const {
  return current_ ? codec_->header(*current_).txn : 0;
}

noc::Flit CuBaseModel::signal(noc::Coord to, std::uint32_t txn, std::uint32_t code, std::uint32_t arg) const {
  noc::Flit f;
  codec_->set_header(f, noc::Header::between(to, at_, t_signal_, txn, 1));
  codec_->set(f, "cu_signal.code", code);
  codec_->set(f, "cu_signal.arg", arg);
  return f;
}

void CuBaseModel::retire(const noc::Flit& inst, ExecOutcome o, std::vector<noc::Flit>& out) {
  const noc::Header h = codec_->header(inst);
  std::uint32_t code = sig_inst_, arg = o.result;
  if (o.fault) {
    code = sig_fault_;
    error_ = true;
    ++counters_.faults;
  } else if (h.last) {
    code = sig_batch_;
    arg = h.txn;
  }
  out.push_back(signal(h.src(), h.txn, code, arg));
  ++counters_.retired;
}

void CuBaseModel::ctrl(const noc::Flit& in, std::vector<noc::Flit>& out) const {
  if (codec_->get(in, "cu_ctrl.op") != ctrl_read_) return;  // tpugen: only a READ is answered
  const noc::Header h = codec_->header(in);
  const auto index = static_cast<int>(codec_->get(in, "cu_ctrl.index"));
  std::uint64_t value = 0;
  if (index == reg_caps_) {
    value = caps_;
  } else if (index == reg_status_) {
    const std::size_t space = depth_ - std::min(depth_, outstanding());
    value = (std::uint64_t{current_.has_value()} << status_busy_.lsb) | (std::uint64_t{error_} << status_error_.lsb) |
            (static_cast<std::uint64_t>(space) << status_space_.lsb);
  } else if (index == reg_counters_) {
    value = unit_->counters();
  } else if (index == reg_dbg_) {
    value = unit_->dbg();
  }
  noc::Flit r;
  codec_->set_header(r, noc::Header::between(h.src(), at_, t_ctrl_, h.txn, 1));
  codec_->set(r, "cu_ctrl.op", ctrl_reply_);
  codec_->set(r, "cu_ctrl.index", static_cast<std::uint64_t>(index));
  codec_->set(r, "cu_ctrl.value", value);
  out.push_back(r);
}

void CuBaseModel::data(const noc::Flit& in, std::vector<noc::Flit>& out) {
  if (!transfer_) {
    Transfer t;
    t.buf = static_cast<std::uint32_t>(codec_->get(in, "cu_data.buf_id"));
    t.granule = static_cast<std::uint32_t>(codec_->get(in, "cu_data.offset"));
    t.left = static_cast<std::uint32_t>(codec_->get(in, "cu_data.len")) + 1;
    t.signal = codec_->get(in, "cu_data.flags.SIGNAL") != 0;
    t.ack = {static_cast<int>(codec_->get(in, "cu_data.ack_x")), static_cast<int>(codec_->get(in, "cu_data.ack_y"))};
    transfer_ = t;
    return;
  }
  unit_->data_write(transfer_->buf, transfer_->granule++, in);
  ++counters_.data_flits;
  if (--transfer_->left == 0) {
    if (transfer_->signal) out.push_back(signal(transfer_->ack, codec_->header(in).txn, sig_data_, transfer_->buf));
    transfer_.reset();
  }
}

void CuBaseModel::advance(std::vector<noc::Flit>& out) {
  for (;;) {
    if (!current_) {
      if (queue_.empty()) return;
      current_ = queue_.front();
      queue_.pop_front();
      unit_->start(*current_);
    }
    const std::optional<ExecOutcome> done = unit_->poll(out);
    if (!done) return;
    retire(*current_, *done, out);
    current_.reset();
  }
}

std::vector<noc::Flit> CuBaseModel::accept(const noc::Flit& in) {
  std::vector<noc::Flit> out;
  const std::uint32_t type = codec_->header(in).type;
  const Steer to = type < steer_.size() ? steer_[type] : Steer::Unit;
  if (to == Steer::Inst) {
    ++counters_.instructions;
    if (outstanding() >= depth_) {
      ++counters_.overflows;
      retire(in, {overflow_result_, true}, out);
    } else {
      queue_.push_back(in);
    }
  } else if (to == Steer::Wrapper && type == t_ctrl_) {
    ++counters_.ctrl_reads;
    ctrl(in, out);
  } else if (to == Steer::Wrapper && type == t_data_) {
    data(in, out);
  } else {
    unit_->receive(in);
  }
  advance(out);
  return out;
}

std::vector<noc::Flit> CuBaseModel::poll() {
  std::vector<noc::Flit> out;
  advance(out);
  return out;
}

}  // namespace tpugen::cu
