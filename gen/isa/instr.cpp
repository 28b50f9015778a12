#include "isa/instr.h"

#include <fmt/format.h>

#include "util/bits.h"

namespace tpugen {

Isa::Isa(const Spec& spec, Params params) : spec_(&spec), params_(std::move(params)) {
  op_index_ = field_index("op");
  nr_index_ = field_index("nr");
}

std::size_t Isa::field_index(std::string_view field) const {
  for (std::size_t i = 0; i < spec_->word0.size(); ++i)
    if (spec_->word0[i].name == field) return i;
  throw Error("isa.unknown_field", fmt::format("the spec has no field '{}'", field));
}

std::size_t Isa::target_index(std::int64_t target) const {
  for (std::size_t i = 0; i < spec_->word0.size(); ++i)
    if (spec_->word0[i].agu_target == target && target != 0) return i;
  throw Error("isa.unknown_target", fmt::format("AGU target {} names no field", target));
}

Instr Isa::make(const Opcode& op) const {
  Instr i;
  i.fields.assign(spec_->word0.size(), 0);
  i.fields[op_index_] = op.value;
  return i;
}

const Opcode* Isa::opcode_of(const Instr& i) const { return spec_->opcode(i.fields[op_index_]); }

std::size_t Isa::operand_index(const Opcode& op, std::string_view operand) const {
  const Operand* o = op.operand(operand);
  if (!o) throw Error("isa.unknown_operand", fmt::format("{} has no operand '{}'", op.name, operand));
  return field_index(o->field);
}

Scope Isa::operand_scope(const Opcode& op, const std::vector<std::int64_t>& fields) const {
  return [this, &op, &fields](std::string_view name) -> std::optional<std::int64_t> {
    if (name == "nr") return fields[nr_index_];
    if (const Operand* o = op.operand(name)) return fields[field_index(o->field)];
    return params_.get(name);
  };
}

namespace {
void put(std::uint64_t& word, const Field& f, std::int64_t v, const std::string& what, int line) {
  if (v < 0 || v > f.usable_max)
    throw Error("encode.range",
                fmt::format("{} {} = {} is outside 0 .. {} (a {}-bit field under the spare-bit rule)", what, f.name, v,
                            f.usable_max, f.width),
                SourceLoc{"", line});
  word |= (static_cast<std::uint64_t>(v) & low_mask(f.width)) << f.lsb;
}

std::int64_t get(std::uint64_t word, int lsb, int width) {
  return static_cast<std::int64_t>((word >> lsb) & low_mask(width));
}
}  // namespace

std::vector<std::uint64_t> Isa::encode(const Instr& in) const {
  const Spec& s = *spec_;
  std::vector<std::uint64_t> words(static_cast<std::size_t>(s.iwords), 0);
  if (in.fields.size() != s.word0.size())
    throw Error("encode.shape", fmt::format("an instruction has {} fields, the spec {}", in.fields.size(), s.word0.size()));
  for (std::size_t k = 0; k < s.word0.size(); ++k) put(words[0], s.word0[k], in.fields[k], "field", in.line);
  if (static_cast<int>(in.terms.size()) > s.term.count)
    throw Error("encode.terms", fmt::format("{} AGU terms; an instruction carries at most {}", in.terms.size(), s.term.count),
                SourceLoc{"", in.line});
  for (std::size_t t = 0; t < in.terms.size(); ++t) {
    std::uint64_t term = 0;
    const std::string what = fmt::format("AGU term {}", t);
    put(term, s.term.subfield("target"), in.terms[t].target, what, in.line);
    put(term, s.term.subfield("level"), in.terms[t].level, what, in.line);
    put(term, s.term.subfield("stride"), in.terms[t].stride, what, in.line);
    words[1] |= term << (static_cast<int>(t) * s.term.width);
  }
  return words;
}

Instr Isa::decode(std::span<const std::uint64_t> words) const {
  const Spec& s = *spec_;
  if (words.size() != static_cast<std::size_t>(s.iwords))
    throw Error("decode.shape", fmt::format("an instruction is {} words, not {}", s.iwords, words.size()));
  Instr in;
  for (const auto& f : s.word0) in.fields.push_back(get(words[0], f.lsb, f.width));
  const Field& tf = s.term.subfield("target");
  const Field& lf = s.term.subfield("level");
  const Field& sf = s.term.subfield("stride");
  for (int t = 0; t < s.term.count; ++t) {
    const std::uint64_t term = (words[1] >> (t * s.term.width)) & low_mask(s.term.width);
    AguTerm a{get(term, tf.lsb, tf.width), get(term, lf.lsb, lf.width), get(term, sf.lsb, sf.width)};
    if (a.target != s.unused_target) in.terms.push_back(a);
  }
  return in;
}

std::vector<std::uint64_t> Isa::unused_masks() const {
  const Spec& s = *spec_;
  std::vector<std::uint64_t> used(static_cast<std::size_t>(s.iwords), 0);
  for (const auto& f : s.word0) used[0] |= low_mask(f.width) << f.lsb;
  for (int t = 0; t < s.term.count; ++t) used[1] |= low_mask(s.term.width) << (t * s.term.width);
  for (auto& u : used) u = ~u;
  return used;
}

}  // namespace tpugen
