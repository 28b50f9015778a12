#include "model/ime/machine.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string_view>

#include "ime/codec.h"
#include "util/bits.h"

namespace tpugen::ime {

namespace {

constexpr std::string_view kOperations[] = {"add",     "addi",     "addiw", "slli", "lui",     "csrrw",  "csrrwi",
                                            "vsetvli", "vsetivli", "vle",   "vse",  "vmv_v_i", "vmv_v_x"};

Exception illegal(std::string rule, std::string message) {
  return Exception{"illegal_instruction", std::move(rule), std::move(message)};
}

/// vtype's meaning: SEW, LMUL, and whether it is legal (vill clear).
struct Vtype {
  int sew = 8;
  Lmul lmul;
  bool legal = false;
};

Vtype read_vtype(const ImeHost& h, std::uint32_t vtypei) {
  Vtype t;
  for (const auto& f : h.vtype)
    if (!f.value_of(vtypei)) return t;               // a reserved code
  if (h.vtype_reserved_bits(vtypei) != 0) return t;  // a reserved bit
  const ImeVtypeValue* sew = h.vtype_field("vsew")->value_of(vtypei);
  const ImeVtypeValue* lmul = h.vtype_field("vlmul")->value_of(vtypei);
  t.sew = sew->num / sew->den;
  t.lmul = Lmul{lmul->num, lmul->den};
  // SEW <= LMUL x ELEN (RVV 3.4.2): a fractional LMUL holds one element at least.
  t.legal = static_cast<long long>(t.sew) * t.lmul.den <= static_cast<long long>(h.elen) * t.lmul.num;
  return t;
}

std::uint64_t vlmax(const ImeProfile& p, const Machine& m) {
  return static_cast<std::uint64_t>(m.unit.lmul.times(p.vlen) / m.unit.sew);
}

class Step {
 public:
  Step(const ImeSpec& spec, const ImeProfile& profile, Machine& m) : spec_(spec), profile_(profile), m_(m) {}

  std::optional<Exception> host(const HostDecoded& d) {
    const std::string& op = d.instr->operation;
    const auto xr = [&](const char* name) { return m_.x[d.operand(name)]; };
    const auto simm = [&](const char* name) {
      return sign_extend(d.operand(name), spec_.host.format_of(*d.instr).operand(name)->width);
    };
    if (op == "add") return write_x(d.operand("rd"), xr("rs1") + xr("rs2"));
    if (op == "addi") return write_x(d.operand("rd"), xr("rs1") + static_cast<std::uint64_t>(simm("imm")));
    if (op == "addiw")
      return write_x(d.operand("rd"),
                     static_cast<std::uint64_t>(sign_extend(xr("rs1") + static_cast<std::uint64_t>(simm("imm")), 32)));
    if (op == "slli") return write_x(d.operand("rd"), xr("rs1") << d.operand("shamt"));
    if (op == "lui")
      return write_x(d.operand("rd"),
                     static_cast<std::uint64_t>(sign_extend(std::uint64_t{d.operand("imm")} << 12, 32)));
    if (op == "csrrw" || op == "csrrwi") return csr_write(d, op == "csrrw" ? xr("rs1") : d.operand("uimm"));
    if (op == "vsetvli" || op == "vsetivli") return vset(d, op == "vsetvli");
    if (m_.vill) return illegal("vill", fmt::format("{} runs under an illegal vtype (vill)", d.instr->mnemonic));
    if (op == "vle" || op == "vse") return load_store(d, op == "vle");
    if (op == "vmv_v_i" || op == "vmv_v_x") {
      const std::uint64_t v = op == "vmv_v_i" ? static_cast<std::uint64_t>(simm("simm5")) : xr("rs1");
      const auto vd = d.operand("vd");
      if (auto e = group_check(d.instr->mnemonic, vd, m_.unit.lmul)) return e;
      for (std::uint64_t i = 0; i < m_.vl; ++i) m_.unit.v.set(static_cast<int>(vd), m_.unit.sew, i, v);
      return std::nullopt;
    }
    throw Error("ime.model", fmt::format("{}: the model does not implement the operation {}", d.instr->mnemonic, op));
  }

 private:
  std::optional<Exception> write_x(std::uint32_t rd, std::uint64_t v) {
    if (rd != 0) m_.x[rd] = v;
    return std::nullopt;
  }

  std::optional<Exception> csr_write(const HostDecoded& d, std::uint64_t value) {
    const ImeCsr* c = spec_.host.csr(d.operand("csr"));
    if (!c)
      return illegal("csr", fmt::format("{} names CSR {:#x}, which this machine does not have", d.instr->mnemonic,
                                        d.operand("csr")));
    // The machine has one CSR, MCPM; another the spec adds is not modelled.
    if (c->name != "mcpm")
      throw Error("ime.model", fmt::format("{}: the model does not implement CSR {}", d.instr->mnemonic, c->name));
    // Only the fields the spec gives hold a value; the other bits read 0.
    std::uint64_t writable = 0;
    for (const auto& f : c->fields)
      writable |= low_mask(f.msb - f.lsb + 1) << f.lsb;
    const std::uint64_t old = m_.mcpm;
    m_.mcpm = value & writable;
    (void)write_x(d.operand("rd"), old);
    m_.unit.bf16 = ((m_.mcpm >> c->field("BF16")->lsb) & 1U) != 0;
    return std::nullopt;
  }

  std::optional<Exception> vset(const HostDecoded& d, bool from_register) {
    const std::uint32_t rd = d.operand("rd"), vtypei = d.operand("vtypei");
    const Vtype t = read_vtype(spec_.host, vtypei);
    const std::uint64_t old_vlmax = vlmax(profile_, m_);
    std::uint64_t avl = 0;
    bool keep_vl = false;
    if (!from_register) {
      avl = d.operand("avl");
    } else if (d.operand("rs1") != 0) {
      avl = m_.x[d.operand("rs1")];
    } else if (rd != 0) {
      avl = ~0ULL;  // rs1 = x0, rd != x0: VLMAX
    } else {
      keep_vl = true;  // rs1 = rd = x0: vl kept, vtype changed
    }
    m_.vtype = vtypei;
    m_.vill = !t.legal;
    if (t.legal) {
      m_.unit.sew = t.sew;
      m_.unit.lmul = t.lmul;
    }
    const std::uint64_t max = t.legal ? vlmax(profile_, m_) : 0;
    // tpugen: the keep-vl form with a vtype that changes VLMAX is reserved
    // (RVV 6.2); it sets vill.
    if (keep_vl && max != old_vlmax) m_.vill = true;
    if (m_.vill)
      m_.vl = 0;
    else if (!keep_vl)
      m_.vl = std::min(avl, max);  // vl = min(AVL, VLMAX)
    return write_x(rd, m_.vl);
  }

  std::optional<Exception> group_check(const std::string& mnemonic, std::uint32_t first, Lmul emul) const {
    const bool too_small = static_cast<long long>(emul.num) * 8 < emul.den;
    const bool too_big = emul.num > 8 * emul.den;
    if (too_small || too_big)
      return illegal("vreg_group",
                     fmt::format("{}: its register group would be {} registers (1/8 .. 8)", mnemonic, emul.str()));
    const std::uint32_t regs = emul.num >= emul.den ? static_cast<std::uint32_t>(emul.num / emul.den) : 1U;
    if (first % regs != 0 || first + regs > 32)
      return illegal("vreg_group",
                     fmt::format("{}: v{} does not start a group of {} registers", mnemonic, first, regs));
    return std::nullopt;
  }

  std::optional<Exception> load_store(const HostDecoded& d, bool load) {
    const int eew = d.instr->eew;
    // EMUL = EEW / SEW x LMUL (RVV 7.3).
    Lmul emul{eew * m_.unit.lmul.num, m_.unit.sew * m_.unit.lmul.den};
    const int g = std::gcd(emul.num, emul.den);
    emul = Lmul{emul.num / g, emul.den / g};
    const std::uint32_t vreg = d.operand(load ? "vd" : "vs3");
    if (auto e = group_check(d.instr->mnemonic, vreg, emul)) return e;
    const std::uint64_t addr = m_.x[d.operand("rs1")], bytes = m_.vl * static_cast<std::uint64_t>(eew / 8);
    if (addr > m_.memory.size() || bytes > m_.memory.size() - addr)
      return Exception{"access_fault", "mem_bounds",
                       fmt::format("{} {} bytes [{:#x}, {:#x}) outside the memory's {} bytes", d.instr->mnemonic,
                                   load ? "reads" : "writes", addr, addr + bytes, m_.memory.size())};
    for (std::uint64_t i = 0; i < m_.vl; ++i) {
      const std::size_t at = static_cast<std::size_t>(addr + i * static_cast<std::uint64_t>(eew / 8));
      if (load) {
        std::uint64_t v = 0;
        for (int b = 0; b < eew / 8; ++b) v |= std::uint64_t{m_.memory[at + static_cast<std::size_t>(b)]} << (8 * b);
        m_.unit.v.set(static_cast<int>(vreg), eew, i, v);
      } else {
        const std::uint64_t v = m_.unit.v.get(static_cast<int>(vreg), eew, i);
        for (int b = 0; b < eew / 8; ++b)
          m_.memory[at + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(v >> (8 * b));
      }
    }
    return std::nullopt;
  }

  const ImeSpec& spec_;
  const ImeProfile& profile_;
  Machine& m_;
};

}  // namespace

Machine::Machine(const ImeSpec& spec, const ImeProfile& profile, std::size_t memory_bytes, bool bf16)
    : unit(profile.vlen), memory(memory_bytes, 0) {
  for (const auto& f : spec.host.vtype)
    for (const auto& v : f.values)
      if ((f.name == "vsew" && v.num == 8 && v.den == 1) || (f.name == "vlmul" && v.num == 1 && v.den == 1))
        vtype |= v.code << f.lsb;  // e8, m1; every other field code 0 (tu, mu)
  const Vtype t = read_vtype(spec.host, vtype);
  unit.sew = t.sew;
  unit.lmul = t.lmul;
  vill = !t.legal;
  vl = vill ? 0 : vlmax(profile, *this);
  const ImeCsr* c = spec.host.csr("mcpm");
  if (!c || !c->field("BF16")) throw Error("ime.model", "the spec's host has no CSR mcpm with a field BF16");
  mcpm = bf16 ? std::uint64_t{1} << c->field("BF16")->lsb : 0;
  unit.bf16 = bf16;
}

std::optional<Exception> step(const ImeSpec& spec, const ImeProfile& profile, std::uint32_t word, Machine& m) {
  if (const auto d = decode(spec, word)) {
    if (m.vill) return illegal("vill", fmt::format("{} runs under an illegal vtype (vill)", d->instr->label()));
    if (auto e = execute(spec, profile, *d, m.unit)) return illegal(e->rule, e->message);
    return std::nullopt;
  }
  if (const auto h = decode_host(spec, word)) {
    // Each operation checks everything before it writes anything.
    return Step(spec, profile, m).host(*h);
  }
  return illegal("encoding", fmt::format("{:#010x} is no instruction of spec/ime.yaml's", word));
}

namespace {

void require_operations(const ImeSpec& spec) {
  for (const auto& i : spec.host.instructions)
    if (std::find(std::begin(kOperations), std::end(kOperations), i.operation) == std::end(kOperations))
      throw Error("ime.model",
                  fmt::format("{}: the model does not implement the operation {}", i.mnemonic, i.operation));
}

}  // namespace

std::vector<Stop> illegal_instructions(const ImeSpec& spec, const ImeProfile& profile, const Program& program,
                                       bool bf16) {
  require_operations(spec);
  Machine m(spec, profile, 0, bf16);
  std::vector<Stop> out;
  for (std::size_t k = 0; k < program.words.size(); ++k) {
    const ProgramWord& w = program.words[k];
    if (auto e = step(spec, profile, w.word, m); e && e->cause == "illegal_instruction")
      out.push_back(Stop{*e, k, w.line, w.word, disassemble_word(spec, w.word)});
  }
  return out;
}

RunResult run(const ImeSpec& spec, const ImeProfile& profile, const Program& program, Machine& m) {
  require_operations(spec);
  RunResult r;
  for (std::size_t k = 0; k < program.words.size(); ++k) {
    const ProgramWord& w = program.words[k];
    if (auto e = step(spec, profile, w.word, m)) {
      r.stop = Stop{*e, k, w.line, w.word, disassemble_word(spec, w.word)};
      return r;
    }
    ++r.retired;
  }
  return r;
}

}  // namespace tpugen::ime
