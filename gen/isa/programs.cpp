/// @file programs.cpp
/// @brief The program library.
///
/// The shipped GEMM (Kt = K/T, Nt = N/T; memory map from gemm_layout):
///
///   loop Kt (k):  dma_ld A->vr,   dram_row0 0, col_block kb, dst_row0 A_VR + kb*MAXDIM, nr M
///   loop Nt (n):  dma_ld B->spad, dram_row0 0, col_block nb, dst_row0 B_SP + nb*MAXDIM, nr K
///   loop Nt (n):
///     mm vr_a A_VR, ar0 AR_C, acc 0, spad_w B_SP + nb*MAXDIM, nr M                (peeled k-tile 0)
///     loop Kt-1 (k):                                                             (only when Kt > 1)
///       mm vr_a A_VR+MAXDIM + kb*MAXDIM, ar0 AR_C, acc 1, spad_w B_SP+T + nb*MAXDIM + kb*T, nr M
///     vrelu ar_d AR_C, ar_s AR_C, nr M                                           (only with relu)
///     mvout ar0 AR_C, dram_row0 0, col_block nb, nr M
///
/// Loops of trip 1 (Kt == 1 for the A loads, Nt == 1) are kept: all three
/// forms agree on that, and the inner k loop is the only one omitted, when
/// Kt == 1 (a trip of Kt - 1 = 0 is not a loop the sequencer can run).
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
  return fmt::format("gemm {}x{}x{}{}{}{}", s.m, s.k, s.n, o.relu ? " relu" : "", o.split_operand_load ? " split" : "",
                     form);
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

  /// The pieces each of `ld`'s loads is issued as.
  [[nodiscard]] std::vector<Piece> pieces(const OperandLoad& ld) const {
    return load_pieces(ld.rows, split_operand_load, g.maxrows);
  }
};

GemmPlan gemm_plan(const Isa& isa, GemmShape shape, GemmOptions options) {
  const Tiling g = tiling(isa, shape, "gemm");
  const GemmLayout l = gemm_layout(isa);
  return {g, l,
          {{{g.kt, "k", g.m, dma_mode(isa, "A", "vr"), l.a_vr},
            {g.nt, "n", g.k, dma_mode(isa, "B", "spad"), l.b_sp}}},
          options.split_operand_load};
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

/// The dma_ld of `piece` of one of `ld`'s loads.
void emit_load(ProgramBuilder& b, const OperandLoad& ld, const Piece& piece, const Ref& col_block, const Ref& dst_row0) {
  b.emit("dma_ld", {{"mode", ld.mode}, {"dram_row0", piece.offset}, {"col_block", col_block}, {"dst_row0", dst_row0}},
         piece.rows);
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
  return build_gemm(isa, shape, options, "", [&](ProgramBuilder& b, const GemmPlan& plan, const Tiling& g,
                                                 const GemmLayout& l) {
    for (const OperandLoad& ld : plan.loads)
      b.loop(ld.tiles, ld.iv, [&](const Iv& tile) {
        for (const Piece& p : plan.pieces(ld))
          emit_load(b, ld, p, Ref(0).at(tile, 1), Ref(ld.base + p.offset).at(tile, g.maxdim));
      });
    b.loop(g.nt, "n", [&](const Iv& nb) {
      // The first k-tile is peeled: it overwrites the accumulator (acc 0).
      b.emit("mm", {{"vr_a", l.a_vr}, {"ar0", l.ar_c}, {"acc", 0}, {"spad_w", Ref(l.b_sp).at(nb, g.maxdim)}}, g.m);
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

  // Level 0: the A loads, one per k-tile; then the B loads, one per n-tile.
  for (const OperandLoad& ld : plan.loads) {
    out.push_back(h.loop(ld.tiles));
    for (const Piece& piece : plan.pieces(ld)) {
      Instr in = h.instr(
          "dma_ld", {{"mode", ld.mode}, {"dram_row0", piece.offset}, {"col_block", 0}, {"dst_row0", ld.base + piece.offset}},
          piece.rows);
      in.terms = {h.term("dma_ld", "col_block", 0, 1), h.term("dma_ld", "dst_row0", 0, g.maxdim)};
      out.push_back(in);
    }
    out.push_back(h.endloop());
  }

  // Level 0: the n-tiles; level 1: the k-tiles after the peeled first.
  out.push_back(h.loop(g.nt));
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
  return p;
}

Program gemm_program_flat(const Isa& isa, GemmShape shape, GemmOptions options) {
  return build_gemm(isa, shape, options, " (flat)", [&](ProgramBuilder& b, const GemmPlan& plan, const Tiling& g,
                                                        const GemmLayout& l) {
    for (const OperandLoad& ld : plan.loads)
      for (std::int64_t tile = 0; tile < ld.tiles; ++tile)
        for (const Piece& p : plan.pieces(ld)) emit_load(b, ld, p, tile, ld.base + tile * g.maxdim + p.offset);
    for (std::int64_t nb = 0; nb < g.nt; ++nb) {
      for (std::int64_t kb = 0; kb < g.kt; ++kb)
        b.emit("mm",
               {{"vr_a", l.a_vr + kb * g.maxdim},
                {"ar0", l.ar_c},
                {"acc", kb == 0 ? 0 : 1},
                {"spad_w", l.b_sp + nb * g.maxdim + kb * g.t}},
               g.m);
      if (options.relu) b.emit("vrelu", {{"ar_d", l.ar_c}, {"ar_s", l.ar_c}}, g.m);
      b.emit("mvout", {{"ar0", l.ar_c}, {"dram_row0", 0}, {"col_block", nb}}, g.m);
    }
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
