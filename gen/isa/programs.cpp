/// @file programs.cpp
/// @brief The program library.
///
/// The shipped GEMM (Kt = K/T, Nt = N/T; memory map from gemm_layout):
///
///   dma_ld B->spad, dram_row0 0, col_block 0, dst_row0 B_SP, nr K           (B's first n-tile)
///   loop Kt (k):
///     dma_ld A->vr, dram_row0 0, col_block kb, dst_row0 A_VR + kb*MAXDIM, nr M
///   loop Nt-1 (n):                                                 (only when Nt > 1)
///     dma_ld B->spad, dram_row0 0, col_block 1 + nb, dst_row0 B_SP + MAXDIM + nb*MAXDIM, nr K
///   loop Nt (n):
///     mm vr_a A_VR, ar0 AR_C, acc 0, spad_w B_SP + nb*MAXDIM, nr M                (peeled k-tile 0)
///     loop Kt-1 (k):                                                             (only when Kt > 1)
///       mm vr_a A_VR+MAXDIM + kb*MAXDIM, ar0 AR_C, acc 1, spad_w B_SP+T + nb*MAXDIM + kb*T, nr M
///     vrelu ar_d AR_C, ar_s AR_C, nr M                                           (only with relu)
///     mvout ar0 AR_C, dram_row0 0, col_block nb, nr M
///
/// last_strip_parts P > 1: the n loop runs Nt - 1 strips (omitted at 0), and
/// the last strip (nb = Nt - 1) is computed in P groups of R = M/P rows:
///
///   loop P (p):
///     mm vr_a A_VR + p*R, ar0 AR_C, acc 0, spad_w B_SP + nb*MAXDIM, nr R
///     loop Kt-1 (k):                                                 (only when Kt > 1)
///       mm vr_a A_VR+MAXDIM + kb*MAXDIM + p*R, ar0 AR_C, acc 1, spad_w B_SP+T + nb*MAXDIM + kb*T, nr R
///     vrelu ar_d AR_C, ar_s AR_C, nr R                               (only with relu)
///     mvout ar0 AR_C, dram_row0 p*R, col_block nb, nr R
///
/// Every group accumulates into the same AR_C rows, as consecutive strips
/// do (a group's first mm overwrites the rows the previous group's mvout
/// reads, a row behind it), which keeps the mm at three AGU terms.
///
/// The loads come in the order the first column strip's mm read them: its
/// first mm reads A's first k-tile and B's first column block's first T
/// rows, and each later mm the next k-tile of A, which the DMA delivers (M
/// rows) in the M cycles the mm before it takes. So the array starts after
/// K + M rows, not after all of A and B, and the rest of B arrives while
/// the first strip runs.
///
/// interleave_loads: B's first column block is loaded a k-tile at a time,
/// beside A's, so the first mm waits for T + M rows:
///
///   loop Kt (k):
///     dma_ld B->spad, dram_row0 kb*T, col_block 0, dst_row0 B_SP + kb*T, nr T
///     dma_ld A->vr,   dram_row0 0, col_block kb, dst_row0 A_VR + kb*MAXDIM, nr M
///
/// The standalone core gains nothing by it (its DMA moves a packed word a
/// cycle, so the first strip waits for the same K + Kt*M rows either way)
/// and its Kt more dma_ld fill the DMA's instruction queue; a compute unit,
/// which fetches whole rows (B's first T, A's, the rest of B's), starts
/// after T + M rows of them instead of K + M.
///
/// Loops of trip 1 (Kt == 1 for the first loads, Nt == 1) are kept: all
/// three forms agree on that, and only the loops of trip Kt - 1 and Nt - 1
/// are omitted when that trip is 0 (not a loop the sequencer can run).
///
/// split_operand_load: a dma_ld whose nr would exceed MAXROWS is issued as
/// ceil(nr / MAXROWS) loads of balanced size, the earlier pieces one row
/// larger when nr does not divide evenly; each piece p moves DRAM rows
/// dram_row0 + off_p .. and lands at dst_row0 + off_p, so the pieces cover
/// exactly the rows the one load would. For every shape the addressing
/// ceiling admits below T = 32 that is exactly two loads of nr/2 rows (K is
/// a multiple of T, so even). It applies to every operand load, A's (nr M)
/// as well as B's (nr K); the mm still carries M in its nr, so only K leaves
/// the row count.
#include "isa/programs.h"

#include <fmt/format.h>

#include <array>
#include <functional>

#include "isa/builder.h"
#include "isa/derive.h"

namespace tpugen {

GemmLayout gemm_layout(const Isa& isa) {
  GemmLayout l;
  l.a_vr = 0;
  l.b_sp = 0;
  l.ar_c = 0;
  l.ar_p = isa.param("MAXDIM") + 1;
  return l;
}

namespace {

/// The shape's tiling, validated.
struct Tiling {
  std::int64_t m = 0, k = 0, n = 0;
  std::int64_t t = 0, maxdim = 0, maxrows = 0;
  std::int64_t kt = 0, nt = 0;
};

Tiling tiling(const Isa& isa, GemmShape s, std::string_view what) {
  Tiling g;
  g.t = isa.param("T");
  g.maxdim = isa.param("MAXDIM");
  g.maxrows = isa.param("MAXROWS");
  for (auto [name, v] : {std::pair<const char*, std::int64_t>{"M", s.m}, {"K", s.k}, {"N", s.n}})
    if (v <= 0 || v % g.t != 0)
      throw Error("program.shape", fmt::format("{} {}x{}x{}: {} = {} is not a positive multiple of T = {}", what, s.m,
                                               s.k, s.n, name, v, g.t));
  g.m = s.m;
  g.k = s.k;
  g.n = s.n;
  g.kt = s.k / g.t;
  g.nt = s.n / g.t;
  return g;
}

std::string gemm_source(GemmShape s, GemmOptions o, std::string_view form) {
  return fmt::format("gemm {}x{}x{}{}{}{}{}{}", s.m, s.k, s.n, o.relu ? " relu" : "",
                     o.split_operand_load ? " split" : "", o.interleave_loads ? " interleaved" : "",
                     o.last_strip_parts > 1 ? fmt::format(" last-strip-parts {}", o.last_strip_parts) : "", form);
}

/// The legal values of a restricted operand.
std::vector<std::int64_t> legal_values(const Isa& isa, const Operand& o) {
  if (!o.legal) return {};
  if (o.legal->is_set()) return o.legal->values;
  std::vector<std::int64_t> out;
  if (!o.legal->min || !o.legal->max) return out;
  const Scope params = isa.params().scope();
  for (std::int64_t v = o.legal->min->eval(params), hi = o.legal->max->eval(params); v <= hi; ++v) out.push_back(v);
  return out;
}

/// The dma_ld mode that reads DRAM matrix `source` and writes memory `dest`:
/// the unique legal value of `mode` for which the actions' only_if
/// conditions activate both a read of `source` and a write of `dest`.
std::int64_t dma_mode(const Isa& isa, std::string_view source, std::string_view dest) {
  const Opcode& op = isa.spec().opcode_named("dma_ld");
  const Operand* mode = op.operand("mode");
  if (!mode) throw Error("program.dma_mode", "dma_ld has no operand 'mode'");
  std::vector<std::int64_t> found;
  for (std::int64_t v : legal_values(isa, *mode)) {
    Instr probe = isa.make(op);
    probe.fields[isa.operand_index(op, "mode")] = v;
    probe.fields[isa.nr_index()] = 1;
    bool reads = false, writes = false;
    for (const Action* a : active_actions(isa, op, probe.fields)) {
      reads = reads || (a->kind == ActionKind::Read && a->state == source);
      writes = writes || (a->kind == ActionKind::Write && a->state == dest);
    }
    if (reads && writes) found.push_back(v);
  }
  if (found.size() != 1)
    throw Error("program.dma_mode", fmt::format("the spec gives {} legal dma_ld modes that move {} into {}; need one",
                                                found.size(), source, dest));
  return found.front();
}

/// One piece of a (possibly split) load: rows offset .. offset + rows - 1.
struct Piece {
  std::int64_t offset = 0, rows = 0;
};

/// The pieces a load of `rows` rows is issued as (see the file comment).
std::vector<Piece> load_pieces(std::int64_t rows, bool split, std::int64_t maxrows) {
  if (!split || rows <= maxrows || maxrows < 1) return {Piece{0, rows}};
  const std::int64_t n = (rows + maxrows - 1) / maxrows;
  std::vector<Piece> out;
  std::int64_t offset = 0;
  for (std::int64_t p = 0; p < n; ++p) {
    const std::int64_t size = rows / n + (p < rows % n ? 1 : 0);
    out.push_back(Piece{offset, size});
    offset += size;
  }
  return out;
}

/// One of the GEMM's operand loads (level 0 of all three forms): A into the
/// vector registers, one load of M rows per k-tile; B into the scratchpad,
/// one load of K rows per n-tile. Tile i's rows land at base + i * MAXDIM
/// from DRAM column block i.
struct OperandLoad {
  std::int64_t tiles = 0;  ///< the loads' loop trip: Kt or Nt
  const char* iv = "";     ///< that loop's induction variable: "k" or "n"
  std::int64_t rows = 0;   ///< the rows of one load: M or K
  std::int64_t mode = 0;   ///< dma_ld's mode for the route
  std::int64_t base = 0;   ///< the destination row of tile 0
};

/// What all three GEMM forms start from: the tiling, the memory map, the
/// operand loads (A's, then B's), and whether a load is split.
struct GemmPlan {
  Tiling g;
  GemmLayout l;
  std::array<OperandLoad, 2> loads;
  bool split_operand_load = false;
  std::int64_t parts = 1;  ///< last_strip_parts
  bool interleave_loads = false;

  /// The strips of all M rows: every one, or all but the last in parts.
  [[nodiscard]] std::int64_t full_strips() const { return parts > 1 ? g.nt - 1 : g.nt; }
  /// The rows of one group of the last strip.
  [[nodiscard]] std::int64_t part_rows() const { return g.m / parts; }

  /// The pieces each of `ld`'s loads is issued as.
  [[nodiscard]] std::vector<Piece> pieces(const OperandLoad& ld) const {
    return load_pieces(ld.rows, split_operand_load, g.maxrows);
  }

  /// One dma_ld of the load section: each field a base plus a stride times
  /// its loop's induction variable.
  struct LoadStep {
    std::int64_t mode = 0, rows = 0;
    std::int64_t dram_row0 = 0, dram_row0_stride = 0;
    std::int64_t col_block = 0, col_block_stride = 0;
    std::int64_t dst_row0 = 0, dst_row0_stride = 0;
  };
  /// A loop of the load section (level 0) and the loads of its body; or,
  /// not `looped`, its body once, bare (the strides unused).
  struct LoadLoop {
    std::int64_t trip = 0;
    const char* iv = "";
    std::vector<LoadStep> body;
    bool looped = true;
  };

  /// The load section (see the file comment): B's first column block, then
  /// a loop over A's k-tiles (interleaved: the first column block's T rows
  /// of each k-tile loaded beside it), then a loop over the rest of B's
  /// column blocks.
  [[nodiscard]] std::vector<LoadLoop> load_section() const {
    const OperandLoad& a = loads[0];
    const OperandLoad& b = loads[1];
    std::vector<LoadLoop> out;
    LoadLoop first{a.tiles, a.iv, {}};
    if (interleave_loads) {
      first.body.push_back({b.mode, g.t, 0, g.t, 0, 0, b.base, g.t});
    } else {
      LoadLoop b0{1, b.iv, {}, false};
      for (const Piece& p : pieces(b)) b0.body.push_back({b.mode, p.rows, p.offset, 0, 0, 0, b.base + p.offset, 0});
      out.push_back(b0);
    }
    for (const Piece& p : pieces(a))
      first.body.push_back({a.mode, p.rows, p.offset, 0, 0, 1, a.base + p.offset, g.maxdim});
    out.push_back(first);
    if (b.tiles > 1) {
      LoadLoop rest{b.tiles - 1, b.iv, {}};
      for (const Piece& p : pieces(b))
        rest.body.push_back({b.mode, p.rows, p.offset, 0, 1, 1, b.base + g.maxdim + p.offset, g.maxdim});
      out.push_back(rest);
    }
    return out;
  }
};

GemmPlan gemm_plan(const Isa& isa, GemmShape shape, GemmOptions options) {
  const Tiling g = tiling(isa, shape, "gemm");
  if (options.last_strip_parts < 1 || g.m % options.last_strip_parts != 0)
    throw Error("program.shape", fmt::format("gemm {}x{}x{}: last_strip_parts {} does not divide M = {} into groups",
                                             shape.m, shape.k, shape.n, options.last_strip_parts, g.m));
  const GemmLayout l = gemm_layout(isa);
  return {g,
          l,
          {{{g.kt, "k", g.m, dma_mode(isa, "A", "vr"), l.a_vr}, {g.nt, "n", g.k, dma_mode(isa, "B", "spad"), l.b_sp}}},
          options.split_operand_load,
          options.last_strip_parts,
          options.interleave_loads};
}

/// A GEMM form the loop-nest builder writes (gemm_program, gemm_program_flat):
/// the plan, a builder whose source names the shape, the options and `form`,
/// and `body`, which emits the program from the plan's tiling and memory map.
using GemmBody = std::function<void(ProgramBuilder&, const GemmPlan&, const Tiling&, const GemmLayout&)>;

Program build_gemm(const Isa& isa, GemmShape shape, GemmOptions options, std::string_view form, const GemmBody& body) {
  const GemmPlan plan = gemm_plan(isa, shape, options);
  ProgramBuilder b(isa, gemm_source(shape, options, form));
  body(b, plan, plan.g, plan.l);
  return b.finish();
}

/// A field of a load step: its base, plus stride * iv when the stride is nonzero.
Ref load_field(std::int64_t base, std::int64_t stride, const Iv& iv) {
  return stride == 0 ? Ref(base) : Ref(base).at(iv, stride);
}

/// Load step `s` in the loop of induction variable `iv`.
void emit_load(ProgramBuilder& b, const GemmPlan::LoadStep& s, const Iv& iv) {
  b.emit("dma_ld",
         {{"mode", s.mode},
          {"dram_row0", load_field(s.dram_row0, s.dram_row0_stride, iv)},
          {"col_block", load_field(s.col_block, s.col_block_stride, iv)},
          {"dst_row0", load_field(s.dst_row0, s.dst_row0_stride, iv)}},
         s.rows);
}

/// Load step `s` at iteration `i`, every address absolute.
void emit_load_flat(ProgramBuilder& b, const GemmPlan::LoadStep& s, std::int64_t i) {
  b.emit("dma_ld",
         {{"mode", s.mode},
          {"dram_row0", s.dram_row0 + i * s.dram_row0_stride},
          {"col_block", s.col_block + i * s.col_block_stride},
          {"dst_row0", s.dst_row0 + i * s.dst_row0_stride}},
         s.rows);
}

// --- Handwritten instructions ------------------------------------------------

/// Instructions written field by field (the differential reference for the
/// builder): every operand set through operand_index, every term spelled out.
class Hand {
 public:
  explicit Hand(const Isa& isa) : isa_(isa) {}

  Instr instr(std::string_view opcode, std::initializer_list<std::pair<std::string_view, std::int64_t>> operands,
              std::int64_t nr) const {
    const Opcode& op = isa_.spec().opcode_named(opcode);
    Instr in = isa_.make(op);
    for (const auto& [name, value] : operands) in.fields[isa_.operand_index(op, name)] = value;
    in.fields[isa_.nr_index()] = nr;
    return in;
  }
  /// The AGU term that adds iv[level] * stride to `operand` of `opcode`.
  AguTerm term(std::string_view opcode, std::string_view operand, std::int64_t level, std::int64_t stride) const {
    const Opcode& op = isa_.spec().opcode_named(opcode);
    return AguTerm{isa_.spec().word0[isa_.operand_index(op, operand)].agu_target, level, stride};
  }
  Instr loop(std::int64_t trip) const { return instr("loop", {}, trip); }
  Instr endloop() const { return instr("endloop", {}, 0); }

 private:
  const Isa& isa_;
};

}  // namespace

Program gemm_program(const Isa& isa, GemmShape shape, GemmOptions options) {
  return build_gemm(
      isa, shape, options, "", [&](ProgramBuilder& b, const GemmPlan& plan, const Tiling& g, const GemmLayout& l) {
        for (const GemmPlan::LoadLoop& ll : plan.load_section()) {
          if (!ll.looped) {
            for (const GemmPlan::LoadStep& st : ll.body) emit_load_flat(b, st, 0);
            continue;
          }
          b.loop(ll.trip, ll.iv, [&](const Iv& iv) {
            for (const GemmPlan::LoadStep& st : ll.body) emit_load(b, st, iv);
          });
        }
        if (plan.full_strips() > 0)
          b.loop(plan.full_strips(), "n", [&](const Iv& nb) {
            // The first k-tile is peeled: it overwrites the accumulator (acc 0).
            b.emit("mm", {{"vr_a", l.a_vr}, {"ar0", l.ar_c}, {"acc", 0}, {"spad_w", Ref(l.b_sp).at(nb, g.maxdim)}},
                   g.m);
            // The rest accumulate; the bases A_VR + MAXDIM and B_SP + T say "kb starts at 1".
            if (g.kt > 1)
              b.loop(g.kt - 1, "k", [&](const Iv& kb) {
                b.emit("mm",
                       {{"vr_a", Ref(l.a_vr + g.maxdim).at(kb, g.maxdim)},
                        {"ar0", l.ar_c},
                        {"acc", 1},
                        {"spad_w", Ref(l.b_sp + g.t).at(nb, g.maxdim).at(kb, g.t)}},
                       g.m);
              });
            if (options.relu) b.emit("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, g.m);
            b.emit("mvout", {{"ar0", l.ar_c}, {"dram_row0", 0}, {"col_block", Ref(0).at(nb, 1)}}, g.m);
          });
        if (plan.parts == 1) return;
        // The last strip in groups of R rows.
        const std::int64_t nb = g.nt - 1, r = plan.part_rows();
        b.loop(plan.parts, "p", [&](const Iv& part) {
          b.emit("mm",
                 {{"vr_a", Ref(l.a_vr).at(part, r)}, {"ar0", l.ar_c}, {"acc", 0}, {"spad_w", l.b_sp + nb * g.maxdim}},
                 r);
          if (g.kt > 1)
            b.loop(g.kt - 1, "k", [&](const Iv& kb) {
              b.emit("mm",
                     {{"vr_a", Ref(l.a_vr + g.maxdim).at(part, r).at(kb, g.maxdim)},
                      {"ar0", l.ar_c},
                      {"acc", 1},
                      {"spad_w", Ref(l.b_sp + g.t + nb * g.maxdim).at(kb, g.t)}},
                     r);
            });
          if (options.relu) b.emit("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, r);
          b.emit("mvout", {{"ar0", l.ar_c}, {"dram_row0", Ref(0).at(part, r)}, {"col_block", nb}}, r);
        });
      });
}

Program gemm_program_handwritten(const Isa& isa, GemmShape shape, GemmOptions options) {
  const GemmPlan plan = gemm_plan(isa, shape, options);
  const Tiling& g = plan.g;
  const GemmLayout& l = plan.l;
  const Hand h(isa);
  Program p;
  p.source = gemm_source(shape, options, " (handwritten)");
  auto& out = p.instrs;

  // Level 0: B's first column block, bare, and the loop of A's loads (or,
  // interleaved, the loop of A's loads each with B's rows of its k-tile);
  // the loop of the rest of B's.
  for (const GemmPlan::LoadLoop& ll : plan.load_section()) {
    if (ll.looped) out.push_back(h.loop(ll.trip));
    for (const GemmPlan::LoadStep& st : ll.body) {
      Instr in = h.instr(
          "dma_ld",
          {{"mode", st.mode}, {"dram_row0", st.dram_row0}, {"col_block", st.col_block}, {"dst_row0", st.dst_row0}},
          st.rows);
      if (ll.looped) {
        if (st.dram_row0_stride != 0) in.terms.push_back(h.term("dma_ld", "dram_row0", 0, st.dram_row0_stride));
        if (st.col_block_stride != 0) in.terms.push_back(h.term("dma_ld", "col_block", 0, st.col_block_stride));
        if (st.dst_row0_stride != 0) in.terms.push_back(h.term("dma_ld", "dst_row0", 0, st.dst_row0_stride));
      }
      out.push_back(in);
    }
    if (ll.looped) out.push_back(h.endloop());
  }

  // Level 0: the n-tiles; level 1: the k-tiles after the peeled first.
  const std::int64_t full = plan.full_strips();
  if (full > 0) {
    out.push_back(h.loop(full));
    Instr first = h.instr("mm", {{"vr_a", l.a_vr}, {"ar0", l.ar_c}, {"acc", 0}, {"spad_w", l.b_sp}}, g.m);
    first.terms = {h.term("mm", "spad_w", 0, g.maxdim)};
    out.push_back(first);
    if (g.kt > 1) {
      out.push_back(h.loop(g.kt - 1));
      Instr rest =
          h.instr("mm", {{"vr_a", l.a_vr + g.maxdim}, {"ar0", l.ar_c}, {"acc", 1}, {"spad_w", l.b_sp + g.t}}, g.m);
      rest.terms = {h.term("mm", "vr_a", 1, g.maxdim), h.term("mm", "spad_w", 0, g.maxdim),
                    h.term("mm", "spad_w", 1, g.t)};
      out.push_back(rest);
      out.push_back(h.endloop());
    }
    if (options.relu) out.push_back(h.instr("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, g.m));
    Instr st = h.instr("mvout", {{"ar0", l.ar_c}, {"dram_row0", 0}, {"col_block", 0}}, g.m);
    st.terms = {h.term("mvout", "col_block", 0, 1)};
    out.push_back(st);
    out.push_back(h.endloop());
  }
  if (plan.parts == 1) return p;

  // Level 0: the last strip's groups of R rows; level 1: their k-tiles.
  const std::int64_t nb = g.nt - 1, r = plan.part_rows();
  out.push_back(h.loop(plan.parts));
  Instr pfirst = h.instr("mm", {{"vr_a", l.a_vr}, {"ar0", l.ar_c}, {"acc", 0}, {"spad_w", l.b_sp + nb * g.maxdim}}, r);
  pfirst.terms = {h.term("mm", "vr_a", 0, r)};
  out.push_back(pfirst);
  if (g.kt > 1) {
    out.push_back(h.loop(g.kt - 1));
    Instr rest = h.instr(
        "mm", {{"vr_a", l.a_vr + g.maxdim}, {"ar0", l.ar_c}, {"acc", 1}, {"spad_w", l.b_sp + g.t + nb * g.maxdim}}, r);
    rest.terms = {h.term("mm", "vr_a", 0, r), h.term("mm", "vr_a", 1, g.maxdim), h.term("mm", "spad_w", 1, g.t)};
    out.push_back(rest);
    out.push_back(h.endloop());
  }
  if (options.relu) out.push_back(h.instr("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, r));
  Instr pst = h.instr("mvout", {{"ar0", l.ar_c}, {"dram_row0", 0}, {"col_block", nb}}, r);
  pst.terms = {h.term("mvout", "dram_row0", 0, r)};
  out.push_back(pst);
  out.push_back(h.endloop());
  return p;
}

Program gemm_program_flat(const Isa& isa, GemmShape shape, GemmOptions options) {
  return build_gemm(isa, shape, options, " (flat)",
                    [&](ProgramBuilder& b, const GemmPlan& plan, const Tiling& g, const GemmLayout& l) {
                      for (const GemmPlan::LoadLoop& ll : plan.load_section())
                        for (std::int64_t i = 0; i < (ll.looped ? ll.trip : 1); ++i)
                          for (const GemmPlan::LoadStep& st : ll.body) emit_load_flat(b, st, i);
                      // Strip nb's group of `rows` rows from `row`: every strip is one group
                      // of M rows but the last, with last_strip_parts, P of M/P.
                      const auto group = [&](std::int64_t nb, std::int64_t row, std::int64_t rows) {
                        for (std::int64_t kb = 0; kb < g.kt; ++kb)
                          b.emit("mm",
                                 {{"vr_a", l.a_vr + kb * g.maxdim + row},
                                  {"ar0", l.ar_c},
                                  {"acc", kb == 0 ? 0 : 1},
                                  {"spad_w", l.b_sp + nb * g.maxdim + kb * g.t}},
                                 rows);
                        if (options.relu) b.emit("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, rows);
                        b.emit("mvout", {{"ar0", l.ar_c}, {"dram_row0", row}, {"col_block", nb}}, rows);
                      };
                      for (std::int64_t nb = 0; nb < plan.full_strips(); ++nb) group(nb, 0, g.m);
                      if (plan.parts > 1)
                        for (std::int64_t part = 0; part < plan.parts; ++part)
                          group(g.nt - 1, part * plan.part_rows(), plan.part_rows());
                    });
}

Program vadd_program(const Isa& isa, GemmShape shape) {
  // The first T x T output tile: A rows 0 .. T-1 over all of K, B's first
  // column block. M and N only have to be legal; the tile is always T x T.
  const Tiling g = tiling(isa, shape, "vadd");
  const GemmLayout l = gemm_layout(isa);
  const std::int64_t mode_a = dma_mode(isa, "A", "vr"), mode_b = dma_mode(isa, "B", "spad");
  ProgramBuilder b(isa, fmt::format("vadd {}x{}x{}", shape.m, shape.k, shape.n));
  b.loop(g.kt, "k", [&](const Iv& kb) {
    b.emit("dma_ld",
           {{"mode", mode_a},
            {"dram_row0", 0},
            {"col_block", Ref(0).at(kb, 1)},
            {"dst_row0", Ref(l.a_vr).at(kb, g.maxdim)}},
           g.t);
  });
  b.emit("dma_ld", {{"mode", mode_b}, {"dram_row0", 0}, {"col_block", 0}, {"dst_row0", l.b_sp}}, g.k);
  // The same product twice, into AR_C and AR_P.
  for (const std::int64_t ar : {l.ar_c, l.ar_p}) {
    b.emit("mm", {{"vr_a", l.a_vr}, {"ar0", ar}, {"acc", 0}, {"spad_w", l.b_sp}}, g.t);
    if (g.kt > 1)
      b.loop(g.kt - 1, "k", [&](const Iv& kb) {
        b.emit("mm",
               {{"vr_a", Ref(l.a_vr + g.maxdim).at(kb, g.maxdim)},
                {"ar0", ar},
                {"acc", 1},
                {"spad_w", Ref(l.b_sp + g.t).at(kb, g.t)}},
               g.t);
      });
  }
  // AR_RAW_DIST: the last mm writes AR_P row r on its iteration r; vadd reads
  // it on T + 2r + 1 (second source, odd iteration): distance T + r + 1. vadd
  // writes AR_C row r on 2r + 1 and vrelu reads it on 2T + r: distance
  // 2T - r - 1 >= T. mvout reads row r T iterations after vrelu wrote it.
  b.emit("vadd", {{"ar_d", l.ar_c}, {"ar_s1", l.ar_c}, {"ar_s2", l.ar_p}}, g.t);
  b.emit("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, g.t);
  b.emit("mvout", {{"ar0", l.ar_c}, {"dram_row0", 0}, {"col_block", 0}}, g.t);
  return b.finish();
}

Program vector_program(const Isa& isa) {
  // Every region is T rows, one row apart, so no two regions share a row and
  // every base is off the GEMM's 0. They fit the smallest memories the
  // defaults give (SPAD_ROWS = NVR = 64, NAR = 128) up to T = 20, and the
  // DRAM rows stay inside MAXDIM >= 2T + 1.
  const std::int64_t t = isa.param("T");
  const std::int64_t maxdim = isa.param("MAXDIM");
  const std::int64_t wpr = isa.param("WPR");
  const std::int64_t cb_last = wpr - 1, cb_mid = wpr / 2;
  auto region = [t](std::int64_t i) { return i * (t + 1) + 1; };             // rows region(i) .. region(i) + T - 1
  const std::int64_t sp_a = region(0), sp_b = region(1);                     // spad: A via spad, B weights
  const std::int64_t vr_a = region(1), vr_a2 = region(2), vr_b = region(0);  // vr: A via vld, A, B direct
  const std::int64_t r1 = region(0), r2 = region(1), r3 = region(2), r4 = region(3), r5 = region(4);  // ar
  ProgramBuilder b(isa, "vector");
  const std::int64_t a_sp = dma_mode(isa, "A", "spad"), b_sp = dma_mode(isa, "B", "spad");
  const std::int64_t a_vr = dma_mode(isa, "A", "vr"), b_vr = dma_mode(isa, "B", "vr");

  // All four dma_ld routes, with nonzero DRAM rows and column blocks.
  b.emit("dma_ld", {{"mode", a_sp}, {"dram_row0", maxdim - t}, {"col_block", cb_last}, {"dst_row0", sp_a}}, t);
  b.emit("vld", {{"vr0", vr_a}, {"spad0", sp_a}}, t);
  b.emit("dma_ld", {{"mode", b_sp}, {"dram_row0", 1}, {"col_block", cb_mid}, {"dst_row0", sp_b}}, t);
  b.emit("dma_ld", {{"mode", a_vr}, {"dram_row0", 2}, {"col_block", 0}, {"dst_row0", vr_a2}}, t);
  b.emit("dma_ld", {{"mode", b_vr}, {"dram_row0", maxdim - t - 1}, {"col_block", cb_last}, {"dst_row0", vr_b}}, t);
  // r1 = A' W + A'' W (overwrite, then accumulate T iterations later).
  b.emit("mm", {{"vr_a", vr_a}, {"ar0", r1}, {"acc", 0}, {"spad_w", sp_b}}, t);
  b.emit("mm", {{"vr_a", vr_a2}, {"ar0", r1}, {"acc", 1}, {"spad_w", sp_b}}, t);
  // r2 = B' A''' (B rows as activations, the spad-loaded A rows as weights).
  b.emit("mm", {{"vr_a", vr_b}, {"ar0", r2}, {"acc", 0}, {"spad_w", sp_a}}, t);
  // r3 = r1 + r2 (r2 row i: written on iteration i, read on T + 2i + 1).
  b.emit("vadd", {{"ar_d", r3}, {"ar_s1", r1}, {"ar_s2", r2}}, t);
  // r4 = relu(r3) (r3 row i: written on 2i + 1, read on 2T + i).
  b.emit("vrelu", {{"ar_d", r4}, {"ar_s", r3}}, t);
  // r5 = relu(r1 + r4) (r4 row i: written on i, read on T + 2i + 1).
  b.emit("vaddrelu", {{"ar_d", r5}, {"ar_s1", r1}, {"ar_s2", r4}}, t);
  // Two results to distinct C rows and column blocks.
  b.emit("mvout", {{"ar0", r5}, {"dram_row0", maxdim - t}, {"col_block", cb_last}}, t);
  b.emit("mvout", {{"ar0", r3}, {"dram_row0", 1}, {"col_block", 0}}, t);
  return b.finish();
}

Program ar_distance_program(const Isa& isa, std::int64_t distance) {
  // Distance is counted in accu iterations, the accu unit's steps: mm 1 per
  // row, vrelu 1 per row, mvout 1 per row, vadd/vaddrelu 2 per row (first
  // source on the even iteration, second source and the write on the odd
  // one); loop, endloop and the operand loads cost accu nothing. The mm
  // writes ar rows 0 .. d-1 on iterations 0 .. d-1; the in-place vrelu reads
  // row r on d + r and writes it there; mvout reads row r on 2d + r. Every
  // read is exactly d iterations after the write it depends on.
  const std::int64_t t = isa.param("T");
  const std::int64_t limit = std::min(isa.param("MAXDIM"), isa.param("MAXROWS"));
  if (distance < 1 || distance > limit)
    throw Error(
        "program.distance",
        fmt::format("ar_distance_program: distance {} is outside 1 .. {} (one load of A rows, nr <= MAXROWS and "
                    "<= MAXDIM)",
                    distance, limit));
  const GemmLayout l = gemm_layout(isa);
  ProgramBuilder b(isa, fmt::format("ar_distance {}", distance));
  b.emit("dma_ld", {{"mode", dma_mode(isa, "A", "vr")}, {"dram_row0", 0}, {"col_block", 0}, {"dst_row0", l.a_vr}},
         distance);
  b.emit("dma_ld", {{"mode", dma_mode(isa, "B", "spad")}, {"dram_row0", 0}, {"col_block", 0}, {"dst_row0", l.b_sp}}, t);
  b.emit("mm", {{"vr_a", l.a_vr}, {"ar0", l.ar_c}, {"acc", 0}, {"spad_w", l.b_sp}}, distance);
  b.emit("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, distance);
  b.emit("mvout", {{"ar0", l.ar_c}, {"dram_row0", 0}, {"col_block", 0}}, distance);
  return b.finish();
}

}  // namespace tpugen
