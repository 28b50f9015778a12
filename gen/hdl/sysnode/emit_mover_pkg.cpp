#include <fmt/format.h>

#include <algorithm>

#include "hdl/localparams.h"
#include "hdl/sysnode/sysnode_emitters.h"
#include "util/names.h"

namespace tpugen::hdl {

namespace {

/// A bit mask of `width` bits with the bits of `codes` set, as SystemVerilog binary digits.
template <typename List, typename Code>
std::string code_mask(const List& list, int width, Code code_of) {
  std::string bits(static_cast<std::size_t>(width), '0');
  for (const auto& e : list) {
    const int c = code_of(e);
    if (c >= 0 && c < width) bits[static_cast<std::size_t>(width - 1 - c)] = '1';
  }
  return "b" + bits;
}

}  // namespace

std::string emit_tpu_mover_pkg(const SysnodeContext& ctx) {
  const SystemNodeSpec& s = ctx.spec();
  const MoverSpec& m = s.mover;
  std::string o = ctx.file_header("tpu_mover_pkg", "the memory mover's constants, from the spec");
  o += R"(
// tpu_mover_pkg: the mover's register map (each register's offset, each
// field's place as <REGISTER>_<FIELD>_LSB / _W), its modes, element widths,
// flags, walker geometry, fault codes, GATHER's index buffer, GENERATE's
// Philox constants, the transform slot's occupants, the quantiser's
// constants and this build's parameters, as spec/system_node.yaml gives
// them. The hand-written mover (rtl/mover) reads them by name. Not every
// constant is used by every module, so unused-parameter lint is waived for
// this file only (as for tpu_pkg).
/* verilator lint_off UNUSEDPARAM */
package tpu_mover_pkg;

)";
  Localparams lp;
  lp.add("WORD_W", s.word_bits, "bits of a word: one transfer, one AXI beat");
  lp.add("WORD_BYTES", s.word_bytes(), "bytes of a word: the alignment of every address");
  lp.add("ADDR_W", s.address_bits, "bits of a byte address");
  lp.add("REG_W", m.register_bits, "bits of a command register");
  std::uint32_t max_offset = 0;
  for (const auto& r : m.registers) max_offset = std::max(max_offset, r.offset);
  int offset_w = 1;
  while ((std::uint32_t{1} << offset_w) <= max_offset) ++offset_w;
  lp.add("REG_OFFSET_W", offset_w, "bits of a register's byte offset");
  lp.blank();
  for (const auto& r : m.registers) {
    lp.add_bits("REG_" + r.name, offset_w, fmt::format("h{:x}", r.offset), short_role(r.role));
    for (const auto& f : r.fields) {
      const std::string name = r.name + "_" + upper(f.name);
      lp.add(name + "_LSB", f.lsb, short_role(f.role));
      lp.add(name + "_W", f.width());
      if (f.kind == MoverFieldKind::Value) {
        const std::uint64_t mask = f.width() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.width()) - 1;
        lp.add_bits(name + "_RESET", f.width(), fmt::format("h{:x}", static_cast<std::uint64_t>(f.reset) & mask),
                    "its value after reset");
      }
    }
    lp.blank();
  }
  const int mode_w = m.require_field("mode", "tpu_mover_pkg").width();
  for (const auto& c : m.modes) lp.add_bits("MODE_" + c.name, mode_w, fmt::format("d{}", c.code), short_role(c.role));
  lp.add_bits(
      "MODES_IMPLEMENTED", 1 << mode_w,
      code_mask(m.modes, 1 << mode_w, [](const SysCode& c) { return c.implemented ? static_cast<int>(c.code) : -1; }),
      "bit c: mode code c runs (else fault MODE)");
  lp.blank();
  const int ew_w = m.require_field("elem_width", "tpu_mover_pkg").width();
  lp.add_bits("ELEM_WIDTHS", 1 << ew_w,
              code_mask(m.elem_widths, 1 << ew_w, [](const MoverElemWidth& w) { return static_cast<int>(w.code); }),
              "bit c: element-width code c is valid (else fault ELEM_WIDTH)");
  for (const auto& w : m.elem_widths) lp.add(fmt::format("ELEM_BITS_{}", w.code), w.bits, "lane bits of the code");
  lp.blank();
  for (const auto& f : m.flags) {
    lp.add("FLAG_" + upper(f.name) + "_LSB", f.lsb, short_role(f.role));
    lp.add("FLAG_" + upper(f.name) + "_W", f.width());
    for (std::size_t c = 0; c < f.values.size(); ++c)
      lp.add(fmt::format("FLAG_{}_{}", upper(f.name), c), f.values[c], fmt::format("what code {} means", c));
    if (!f.values.empty())
      lp.add(fmt::format("FLAG_{}_MAX", upper(f.name)), *std::max_element(f.values.begin(), f.values.end()),
             "the largest of them");
  }
  lp.blank();
  for (const auto& w : m.walkers) lp.add("WALKER_" + upper(w.name), static_cast<std::int64_t>(w.code), "walker code");
  lp.add("DIMS", m.dimensions, "dimensions a walker");
  lp.add("AXES", m.bound_axes, "bound axes a walker");
  const int sel_w = m.require_field("bound_sel", "tpu_mover_pkg").width();
  for (int a = 0; a < m.bound_axes; ++a)
    lp.add_bits(fmt::format("BOUND_SEL_FEEDS_{}", a), 1 << sel_w,
                code_mask(m.bound_selectors, 1 << sel_w,
                          [a](const BoundSelector& b) { return b.axis == a ? static_cast<int>(b.code) : -1; }),
                fmt::format("bit c: bound_sel c feeds bound axis {}", a));
  lp.blank();
  const int fault_w = m.require_field("fault", "tpu_mover_pkg").width();
  lp.add("FAULT_W", fault_w, "bits of a fault code");
  lp.add_bits("FAULT_NONE", fault_w, "d0", "no fault");
  for (const auto& f : m.faults)
    lp.add_bits("FAULT_" + f.name, fault_w, fmt::format("d{}", f.code), short_role(f.role));
  lp.blank();
  lp.add("INDEX_ENTRIES", m.index_entries, "indices GATHER's buffer holds");
  lp.add("INDEX_W", m.index_bits, "bits of an index");
  lp.add("INDEX_PER_WORD", s.word_bits / m.index_bits, "indices a word");
  lp.blank();
  lp.add("PHILOX_ROUNDS", m.generate.rounds, "Philox-4x32 rounds");
  lp.add_bits("PHILOX_M0", 32, fmt::format("h{:08x}", m.generate.multipliers[0]), "multiplier of counter word 0");
  lp.add_bits("PHILOX_M1", 32, fmt::format("h{:08x}", m.generate.multipliers[1]), "multiplier of counter word 2");
  lp.add_bits("PHILOX_W0", 32, fmt::format("h{:08x}", m.generate.weyl[0]), "Weyl constant of key word 0");
  lp.add_bits("PHILOX_W1", 32, fmt::format("h{:08x}", m.generate.weyl[1]), "Weyl constant of key word 1");
  lp.blank();
  const int id_w = m.require_field(m.xform_id_field, "tpu_mover_pkg").width();
  lp.add_bits("XFORM_OCCUPANTS", 1 << id_w,
              code_mask(m.occupants, 1 << id_w, [](const TransformOccupant& t) { return static_cast<int>(t.id); }),
              "bit i: XFORM_ID i has an occupant (else fault MODE)");
  for (const auto& t : m.occupants) {
    const std::string n = "XFORM_" + upper(t.name);
    lp.add_bits(n + "_ID", id_w, fmt::format("d{}", t.id), short_role(t.role));
    lp.add(n + "_IN_WORDS", t.in_bits / s.word_bits, "IN_BITS / WORD_W");
    lp.add(n + "_OUT_WORDS", t.out_words, "OUT_WORDS");
    for (const auto& f : t.mode_flags) lp.add(n + "_" + upper(f.name) + "_BIT", f.bit, short_role(f.role));
  }
  lp.blank();
  const QuantiserSpec& q = m.quantiser;
  lp.add("QUANT_LANES", q.lanes, "lanes of an entry");
  lp.add("QUANT_LANE_ELEMS", q.lane_elems, "FP16 elements of a lane");
  lp.add("QUANT_CODE_W", q.code_bits, "bits of an element's code");
  lp.add("QUANT_SCALE_BIAS", q.scale_bias, "the scale field's exponent is sexp + this, mod 32");
  lp.add("QUANT_SEXP_MIN", q.sexp_min, "the clamp of sexp");
  lp.add("QUANT_SEXP_MAX", q.sexp_max);
  std::string table;
  for (auto it = q.reciprocal.rbegin(); it != q.reciprocal.rend(); ++it)
    table += (table.empty() ? "" : ", ") + fmt::format("16'd{}", it->second);
  lp.add_vector("QUANT_R_TABLE", 16 * static_cast<int>(q.reciprocal.size()), "{" + table + "}",
                "R[m8] at bits [16*(m8-8) +: 16]");
  lp.blank();
  for (const auto& p : m.parameters) lp.add(p.name, ctx.mover_params()[p.name], short_role(p.role));
  lp.add("BOUNDARY", s.axi.boundary_bytes, "no burst crosses a multiple of this many bytes");
  lp.add("MAX_BURST", s.axi.max_burst_beats, "the most beats an AXI burst has");
  for (const auto& mst : s.axi.masters)
    lp.add("AXI_MASTER_" + upper(mst.name), mst.id, "the ID prefix of this master on the system node's AXI port");
  o += lp.str();
  o += "\nendpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  return o;
}

}  // namespace tpugen::hdl
