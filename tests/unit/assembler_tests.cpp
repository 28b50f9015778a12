// Tests of the text assembly format: parse_assembly, parse_assembly_file, disassemble.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/instr.h"
#include "isa/program.h"
#include "spec/params.h"
#include "spec/spec.h"
#include "test_support.h"

using namespace tpugen;

namespace {

const Spec& the_spec() {
  static const Spec spec = load_spec(TPUGEN_SOURCE_DIR "/spec/tinytpu_isa.yaml");
  return spec;
}

Isa make_isa(std::int64_t t) { return Isa(the_spec(), legal_params(the_spec(), {{"T", t}})); }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kGemmPath = TPUGEN_SOURCE_DIR "/examples/asm/gemm_8x8x8.asm";
const std::string kVaddPath = TPUGEN_SOURCE_DIR "/examples/asm/vadd_relu.asm";

/// The 1-based line of the first line of `text` that contains `needle`.
int line_of(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  return 0;
}

/// Parse `text`, expecting an Error with `rule` at `line` (and `column` when nonzero).
void expect_error(const Isa& isa, const std::string& text, const std::string& rule, int line, int column = 0) {
  INFO("source:\n" << text);
  try {
    (void)parse_assembly(isa, text, "t.asm");
    FAIL("expected " << rule << ", but the text assembled");
  } catch (const Error& e) {
    INFO("error: " << e.what());
    CHECK(e.rule() == rule);
    CHECK(e.where().file == "t.asm");
    CHECK(e.where().line == line);
    if (column != 0) CHECK(e.where().column == column);
    CHECK_FALSE(e.message().empty());
  }
}

std::string error_message(const Isa& isa, const std::string& text) {
  try {
    (void)parse_assembly(isa, text, "t.asm");
  } catch (const Error& e) {
    return e.message();
  }
  return {};
}

std::int64_t target_of(const Opcode& op, const std::string& operand) {
  return the_spec().field(op.operand(operand)->field)->agu_target;
}

/// disassemble -> parse gives the same instructions and the same encoding.
void check_round_trip(const Isa& isa, const Program& p) {
  const std::string text = disassemble(isa, p);
  INFO("disassembly:\n" << text);
  const Program q = parse_assembly(isa, text, "disassembly");
  REQUIRE(q.instrs.size() == p.instrs.size());
  for (std::size_t i = 0; i < p.instrs.size(); ++i) {
    INFO("instruction " << i);
    CHECK(q.instrs[i] == p.instrs[i]);
    std::vector<std::uint64_t> words;
    try {
      words = isa.encode(p.instrs[i]);
    } catch (const Error&) {
      CHECK_THROWS_AS(isa.encode(q.instrs[i]), Error);  // e.g. a field with its spare bit set
      continue;
    }
    CHECK(isa.encode(q.instrs[i]) == words);
  }
}

/// Index of an opcode value that the spec does not define (and the op field can encode).
std::int64_t undefined_opcode_value(const Spec& spec) {
  const Field* op = spec.field("op");
  for (std::int64_t v = 0; v <= op->usable_max; ++v)
    if (!spec.opcode(v)) return v;
  return -1;
}

const std::string kDeepProgram = R"(# three loops deep, several terms per field
const BASE = 3
loop a 3
  loop b 2
    loop c 4
      vld vr0=BASE + a*100 + c*2, spad0=b*7, nr=4
      vadd ar_d=a*8, ar_s1=1 + b*16, ar_s2=2 + c, nr=2
      mm vr_a=0, ar0=0, acc=1, spad_w=a*64 + b*4 + c, nr=T
    endloop
    loop _ 2
      dma_ld mode=3, dram_row0=b, col_block=1, dst_row0=5 + b*T, nr=T
    endloop
  endloop
endloop
nop
dma_st
)";

}  // namespace

TEST_CASE("assembler: the deep program's fields and terms", "[assembler]") {
  const Isa isa = make_isa(4);
  const Spec& spec = the_spec();
  const Program p = parse_assembly(isa, kDeepProgram, "deep.asm");
  REQUIRE(p.instrs.size() == 14);
  CHECK(p.source == "deep.asm");

  const Instr& vld = p.instrs[3];
  const Opcode& vld_op = spec.opcode_named("vld");
  CHECK(isa.opcode_of(vld) == &vld_op);
  CHECK(vld.line == 6);
  CHECK(isa.operand(vld, vld_op, "vr0") == 3);
  CHECK(isa.operand(vld, vld_op, "spad0") == 0);
  CHECK(isa.nr(vld) == 4);
  // field order first (vr0 before spad0 in word 0), then level
  const std::vector<AguTerm> vld_terms = {{target_of(vld_op, "vr0"), 0, 100},
                                          {target_of(vld_op, "vr0"), 2, 2},
                                          {target_of(vld_op, "spad0"), 1, 7}};
  CHECK(vld.terms == vld_terms);

  const Instr& mm = p.instrs[5];
  const Opcode& mm_op = spec.opcode_named("mm");
  CHECK(isa.nr(mm) == 4);
  const std::int64_t w = target_of(mm_op, "spad_w");
  CHECK(mm.terms == std::vector<AguTerm>{{w, 0, 64}, {w, 1, 4}, {w, 2, 1}});

  const Instr& dma = p.instrs[8];
  const Opcode& dma_op = spec.opcode_named("dma_ld");
  CHECK(dma.line == 11);
  CHECK(isa.operand(dma, dma_op, "dst_row0") == 5);
  CHECK(dma.terms ==
        std::vector<AguTerm>{{target_of(dma_op, "dram_row0"), 1, 1}, {target_of(dma_op, "dst_row0"), 1, 4}});

  // loops carry their trip in nr and no terms; every instruction carries its line
  CHECK(isa.nr(p.instrs[0]) == 3);
  CHECK(isa.nr(p.instrs[1]) == 2);
  CHECK(isa.nr(p.instrs[2]) == 4);
  CHECK(isa.nr(p.instrs[7]) == 2);
  for (const Instr& in : p.instrs) CHECK(in.line > 0);
  CHECK(p.instrs.back().line == 16);
  CHECK(isa.opcode_of(p.instrs.back()) == &spec.opcode_named("dma_st"));

  // the issue stream resolves the terms as the loops run
  const std::vector<Issue> issues = expand(isa, p);
  std::vector<std::int64_t> spad_w;
  for (const Issue& is : issues)
    if (is.opcode == &mm_op) spad_w.push_back(is.fields[isa.operand_index(mm_op, "spad_w")]);
  std::vector<std::int64_t> expect;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c) expect.push_back(a * 64 + b * 4 + c);
  CHECK(spad_w == expect);
}

TEST_CASE("assembler: the GEMM example expands to the shipped addresses", "[assembler]") {
  const Isa isa = make_isa(4);
  const Spec& spec = the_spec();
  const Program p = parse_assembly_file(isa, kGemmPath);
  CHECK(p.source == kGemmPath);
  const std::int64_t T = 4, MAXDIM = isa.param("MAXDIM"), M = 8, K = 8, N = 8;
  const std::int64_t Kt = K / T, Nt = N / T, A_VR = 0, B_SP = 0, AR_C = 0;

  // What the program should issue, by plain loops over the tiling.
  struct Want {
    std::string op;
    std::map<std::string, std::int64_t> operands;
    std::int64_t nr;
  };
  std::vector<Want> want;
  for (std::int64_t kb = 0; kb < Kt; ++kb)
    want.push_back({"dma_ld", {{"mode", 2}, {"dram_row0", 0}, {"col_block", kb}, {"dst_row0", A_VR + kb * MAXDIM}}, M});
  for (std::int64_t nb = 0; nb < Nt; ++nb)
    want.push_back({"dma_ld", {{"mode", 1}, {"dram_row0", 0}, {"col_block", nb}, {"dst_row0", B_SP + nb * MAXDIM}}, K});
  for (std::int64_t nb = 0; nb < Nt; ++nb) {
    want.push_back({"mm", {{"vr_a", A_VR}, {"ar0", AR_C}, {"acc", 0}, {"spad_w", B_SP + nb * MAXDIM}}, M});
    for (std::int64_t kb = 0; kb < Kt - 1; ++kb)
      want.push_back({"mm",
                      {{"vr_a", A_VR + MAXDIM + kb * MAXDIM},
                       {"ar0", AR_C},
                       {"acc", 1},
                       {"spad_w", B_SP + T + nb * MAXDIM + kb * T}},
                      M});
    want.push_back({"mvout", {{"ar0", AR_C}, {"dram_row0", 0}, {"col_block", nb}}, M});
  }

  std::vector<Issue> got;
  for (const Issue& is : expand(isa, p))
    if (is.opcode->name != "loop" && is.opcode->name != "endloop") got.push_back(is);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("issue " << i << " (" << want[i].op << ")");
    REQUIRE(got[i].opcode->name == want[i].op);
    for (const auto& [name, value] : want[i].operands)
      CHECK(got[i].fields[isa.operand_index(*got[i].opcode, name)] == value);
    CHECK(got[i].fields[isa.nr_index()] == want[i].nr);
    CHECK(got[i].line > 0);
  }

  // The accumulating mm spends every AGU term: vr_a on kb, spad_w on nb and kb.
  const Opcode& mm = spec.opcode_named("mm");
  const std::string text = read_text(kGemmPath);
  const int acc_line = line_of(text, "acc=1, spad_w");
  const Instr* acc_mm = nullptr;
  for (const Instr& in : p.instrs)
    if (in.line == acc_line) acc_mm = &in;
  REQUIRE(acc_mm != nullptr);
  CHECK(acc_mm->terms == std::vector<AguTerm>{{target_of(mm, "vr_a"), 1, MAXDIM},
                                             {target_of(mm, "spad_w"), 0, MAXDIM},
                                             {target_of(mm, "spad_w"), 1, T}});
  CHECK(isa.operand(*acc_mm, mm, "spad_w") == B_SP + T);
  CHECK(isa.operand(*acc_mm, mm, "vr_a") == A_VR + MAXDIM);

  // disassembly writes terms as base + iv*stride, ivs named by level
  const std::string dis = disassemble(isa, p);
  CHECK(dis.find(fmt::format("spad_w={} + i0*{} + i1*{}", B_SP + T, MAXDIM, T)) != std::string::npos);
  CHECK(dis.find(fmt::format("loop i1 {}", Kt - 1)) != std::string::npos);
}

TEST_CASE("assembler: the GEMM example is refused at T=8 where its k loop would run 0 times", "[assembler]") {
  const Isa isa = make_isa(8);
  const Error e = test::error_of([&] { (void)parse_assembly_file(isa, kGemmPath); });
  CHECK(e.rule() == "asm.loop_trip");
  CHECK(e.where().file == kGemmPath);
  CHECK(e.where().line == line_of(read_text(kGemmPath), "loop kb Kt - 1"));
}

TEST_CASE("assembler: round trips at T=4 and T=8", "[assembler]") {
  for (std::int64_t t : {4, 8}) {
    INFO("T = " << t);
    const Isa isa = make_isa(t);
    check_round_trip(isa, parse_assembly(isa, kDeepProgram, "deep"));
    check_round_trip(isa, parse_assembly_file(isa, kVaddPath));
    check_round_trip(isa, parse_assembly(isa, "loop a 2\n loop b 3\n  loop c 2\n   loop d 2\n"
                                              "    vaddrelu ar_d=a + d*5, ar_s1=c*3, ar_s2=1, nr=1\n"
                                              "    vrelu ar_d=b, ar_s=b*2 + 1, nr=1\n"
                                              "   endloop\n  endloop\n endloop\nendloop\n",
                                         "four deep"));
    if (t == 4) check_round_trip(isa, parse_assembly_file(isa, kGemmPath));
  }
}

TEST_CASE("assembler: the vadd/vrelu example", "[assembler]") {
  for (std::int64_t t : {4, 8}) {
    const Isa isa = make_isa(t);
    const Program p = parse_assembly_file(isa, kVaddPath);
    std::vector<std::string> ops;
    for (const Issue& is : expand(isa, p)) ops.push_back(is.opcode->name);
    CHECK(ops == std::vector<std::string>{"dma_ld", "dma_ld", "mm", "mm", "vadd", "vrelu", "mvout"});
    const Opcode& mm = the_spec().opcode_named("mm");
    CHECK(isa.operand(p.instrs[3], mm, "ar0") == isa.param("MAXDIM") + 1);
    CHECK(isa.nr(p.instrs[6]) == t);
  }
}

TEST_CASE("assembler: comments, blank lines, CRLF, tabs and free operand order", "[assembler]") {
  const Isa isa = make_isa(4);
  const std::string text =
      "# header comment\r\n"
      "\r\n"
      "   \t  \n"
      "const X = (2 + 3) * 2   # ten\n"
      "\tvrelu nr=4, ar_s=X, ar_d=max(X, 1) - 1 # comment after\r\n"
      "#vrelu ar_d=0, ar_s=0, nr=1\n"
      "nop#no space needed\n"
      "loop   k\t3  # spaces and tabs between tokens\n"
      "vrelu ar_d = k * 2 , ar_s = 0 , nr = 1\n"
      "endloop";
  const Program p = parse_assembly(isa, text, "c.asm");
  REQUIRE(p.instrs.size() == 5);
  const Opcode& vrelu = the_spec().opcode_named("vrelu");
  CHECK(p.instrs[0].line == 5);
  CHECK(isa.operand(p.instrs[0], vrelu, "ar_s") == 10);
  CHECK(isa.operand(p.instrs[0], vrelu, "ar_d") == 9);
  CHECK(isa.nr(p.instrs[0]) == 4);
  CHECK(p.instrs[1].line == 7);
  CHECK(p.instrs[2].line == 8);
  CHECK(isa.nr(p.instrs[2]) == 3);
  CHECK(p.instrs[3].terms == std::vector<AguTerm>{{target_of(vrelu, "ar_d"), 0, 2}});
  CHECK(p.instrs[4].line == 10);
  CHECK(parse_assembly(isa, "", "empty").instrs.empty());
  CHECK(parse_assembly(isa, "# only a comment\n\n", "c").instrs.empty());
}

TEST_CASE("assembler: parameters, derived constants and constants in expressions", "[assembler]") {
  const Isa isa = make_isa(8);
  const Program p = parse_assembly(isa,
                                   "const A = WPR - 1\n"
                                   "const B = A * 2 + MAXROWS // T\n"
                                   "mvout ar0=B, dram_row0=2**3 % 5, col_block=A, nr=min(T, MAXDIM, 100)\n",
                                   "p");
  const Opcode& mvout = the_spec().opcode_named("mvout");
  const std::int64_t A = isa.param("WPR") - 1;
  CHECK(isa.operand(p.instrs[0], mvout, "col_block") == A);
  CHECK(isa.operand(p.instrs[0], mvout, "ar0") == A * 2 + isa.param("MAXROWS") / 8);
  CHECK(isa.operand(p.instrs[0], mvout, "dram_row0") == 3);
  CHECK(isa.nr(p.instrs[0]) == 8);
  // (-1)**n alternates (the evaluator once returned 1 for every odd n > 1)
  const Program q = parse_assembly(isa, "vrelu ar_d=10 + (-1)**3 + (-1)**5 * 2, ar_s=(-1)**4, nr=1", "pow");
  CHECK(isa.operand(q.instrs[0], the_spec().opcode_named("vrelu"), "ar_d") == 7);
  CHECK(isa.operand(q.instrs[0], the_spec().opcode_named("vrelu"), "ar_s") == 1);
}

TEST_CASE("assembler: no range checks on fields, the encoder reports them", "[assembler]") {
  const Isa isa = make_isa(4);
  const Program p = parse_assembly(isa, "vrelu ar_d=100000, ar_s=0, nr=1000\nmm vr_a=0, ar0=0, acc=7, spad_w=0, nr=0",
                                   "r");
  CHECK(isa.nr(p.instrs[0]) == 1000);
  CHECK_THROWS_AS(isa.encode(p.instrs[0]), Error);
  check_round_trip(isa, Program{{p.instrs[1]}, "r"});
}

TEST_CASE("assembler: error rules, lines and columns", "[assembler]") {
  const Isa isa = make_isa(4);
  const std::string vr = "vrelu ar_d=0, ar_s=0, nr=4\n";

  SECTION("opcodes and operands") {
    expect_error(isa, vr + "frob x=1\n", "asm.unknown_opcode", 2, 1);
    expect_error(isa, vr + "MM vr_a=0\n", "asm.unknown_opcode", 2, 1);
    expect_error(isa, "mm vr_a=0, ar0=0, acc=0, spad_w=0, nr=4, bogus=1", "asm.unknown_operand", 1, 42);
    expect_error(isa, vr + vr + "mm vr_a=0, ar0=0, acc=0, nr=4\n", "asm.missing_operand", 3, 1);
    expect_error(isa, "vrelu\n", "asm.missing_operand", 1, 1);
    expect_error(isa, "vrelu ar_d=0, ar_s=1, ar_d=2, nr=4", "asm.duplicate_operand", 1, 23);
    expect_error(isa, "vrelu ar_d=0, ar_s=1, nr=2, nr=2", "asm.duplicate_operand", 1, 29);
    expect_error(isa, "nop x=1", "asm.unknown_operand", 1, 5);
    expect_error(isa, "endloop x=1", "asm.unknown_operand", 1, 9);
    CHECK(error_message(isa, "mm vr_a=0, ar0=0, nr=4").find("acc, spad_w") != std::string::npos);
  }

  SECTION("nr") {
    expect_error(isa, vr + "vrelu ar_d=0, ar_s=1\n", "asm.nr", 2, 1);
    expect_error(isa, "nop nr=1", "asm.nr", 1, 5);
    expect_error(isa, "dma_st nr=1", "asm.nr", 1, 8);
    expect_error(isa, "loop i 4\n  vrelu ar_d=i, ar_s=0, nr=i + 1\nendloop", "asm.nr", 2, 28);
    expect_error(isa, "vrelu ar_d=0, ar_s=0, nr=0 - 1", "asm.nr", 1, 26);
  }

  SECTION("induction variable scope") {
    expect_error(isa, "loop kb 2\n  nop\nendloop\nvrelu ar_d=kb, ar_s=0, nr=4", "asm.iv_scope", 4, 12);
    expect_error(isa, "vrelu ar_d=0, ar_s=1 + kb, nr=4\nloop kb 2\nendloop", "asm.iv_scope", 1, 24);
    expect_error(isa, "loop a 2\n  loop b 2\n  endloop\n  vrelu ar_d=a, ar_s=b, nr=1\nendloop", "asm.iv_scope", 4, 22);
    expect_error(isa, "loop _ 2\n  vrelu ar_d=_, ar_s=0, nr=1\nendloop", "asm.unknown_name", 2, 14);
    expect_error(isa, "loop a 2\n  const C = a\nendloop", "asm.not_constant", 2, 13);
    expect_error(isa, "loop a 2\n  loop b a + 1\n  endloop\nendloop", "asm.not_constant", 2, 10);
  }

  SECTION("loops") {
    std::string deep;
    for (int i = 0; i < 5; ++i) deep += fmt::format("loop l{} 2\n", i);
    expect_error(isa, deep, "asm.loop_depth", 5, 1);
    CHECK(error_message(isa, deep).find("l0 > l1 > l2 > l3 > l4") != std::string::npos);
    expect_error(isa, "loop _ 2\nloop _ 2\nloop _ 2\nloop _ 2\n  loop _ 2", "asm.loop_depth", 5, 3);
    expect_error(isa, vr + "loop i 0\nendloop", "asm.loop_trip", 2, 8);
    expect_error(isa, "loop i T - 5\nendloop", "asm.loop_trip", 1, 8);
    expect_error(isa, vr + "endloop\n", "asm.loop_balance", 2, 1);
    expect_error(isa, "loop a 2\nendloop\nendloop", "asm.loop_balance", 3, 1);
    expect_error(isa, "nop\nloop i 2\n  nop\n", "asm.loop_balance", 2, 1);
    expect_error(isa, "loop a 2\n  loop b 2\n  nop\nendloop\n", "asm.loop_balance", 1, 1);
    expect_error(isa, "loop\n", "asm.syntax", 1, 1);
    expect_error(isa, "loop i\n", "asm.syntax", 1, 7);
    expect_error(isa, "loop i=3\n", "asm.syntax", 1, 7);
    expect_error(isa, "loop 3 i\n", "asm.syntax", 1, 6);
  }

  SECTION("AGU derivation") {
    const std::string pre = "loop nb 4\n loop kb 4\n";
    const std::string post = "\n endloop\nendloop\n";
    expect_error(isa, pre + "  vrelu ar_d=kb*kb, ar_s=0, nr=1" + post, "asm.nonlinear", 3, 14);
    expect_error(isa, pre + "  vrelu ar_d=0, ar_s=nb*kb, nr=1" + post, "asm.nonlinear", 3, 22);
    expect_error(isa, pre + "  vrelu ar_d=kb // 2, ar_s=0, nr=1" + post, "asm.nonlinear", 3, 14);
    expect_error(isa, pre + "  vrelu ar_d=min(kb, 1), ar_s=0, nr=1" + post, "asm.nonlinear", 3, 14);
    expect_error(isa, pre + "  vrelu ar_d=kb % 3, ar_s=0, nr=1" + post, "asm.nonlinear", 3, 14);
    expect_error(isa, pre + "  vrelu ar_d=40 - kb*2, ar_s=0, nr=1" + post, "asm.negative_stride", 3, 19);
    expect_error(isa, pre + "  vrelu ar_d=kb - 1, ar_s=0, nr=1" + post, "asm.negative_base", 3, 14);
    expect_error(isa, "vrelu ar_d=0, ar_s=3 - 4, nr=1", "asm.negative_base", 1, 20);
    expect_error(isa, pre + "  mm vr_a=nb + kb, ar0=0, acc=0, spad_w=nb + kb, nr=4" + post, "asm.too_many_terms", 3, 3);
    const std::string four = pre + "  mm vr_a=nb + kb, ar0=0, acc=0, spad_w=nb + kb, nr=4" + post;
    CHECK(error_message(isa, four).find("4 AGU terms") != std::string::npos);
    const std::int64_t too_big = the_spec().term.subfield("stride").usable_max + 1;
    expect_error(isa, pre + fmt::format("  vrelu ar_d=kb*{}, ar_s=0, nr=1", too_big) + post, "asm.stride_range", 3, 14);
    // a term per (field, iv): an iv used twice in one operand folds into one stride
    const Program p = parse_assembly(isa, pre + "  vrelu ar_d=kb + kb*2 + nb - nb, ar_s=0, nr=1" + post, "f");
    CHECK(p.instrs[2].terms == std::vector<AguTerm>{{target_of(the_spec().opcode_named("vrelu"), "ar_d"), 1, 3}});
  }

  SECTION("names and constants") {
    expect_error(isa, "const X = 1\nconst X = 2", "asm.redefined", 2, 7);
    expect_error(isa, "const T = 8", "asm.redefined", 1, 7);
    expect_error(isa, "const MAXROWS = 8", "asm.redefined", 1, 7);
    expect_error(isa, "const LOOP_DEPTH = 8", "asm.redefined", 1, 7);
    expect_error(isa, "loop T 2\nendloop", "asm.redefined", 1, 6);
    expect_error(isa, "const X = 1\nloop X 2\nendloop", "asm.redefined", 2, 6);
    expect_error(isa, "loop a 2\n loop a 2\n endloop\nendloop", "asm.redefined", 2, 7);
    expect_error(isa, "loop a 2\nendloop\nconst a = 1", "asm.redefined", 3, 7);
    expect_error(isa, "const min = 1", "asm.syntax", 1, 7);
    expect_error(isa, "const _ = 1", "asm.syntax", 1, 7);
    expect_error(isa, "const X = Y + 1", "asm.unknown_name", 1, 11);
    expect_error(isa, "vrelu ar_d=0, ar_s=FOO, nr=1", "asm.unknown_name", 1, 20);
    expect_error(isa, "const X = Y\nconst Y = 1", "asm.unknown_name", 1, 11);
    // two loops in sequence may reuse an iv name
    CHECK(parse_assembly(isa, "loop a 2\nendloop\nloop a 3\nendloop", "ok").instrs.size() == 4);
  }

  SECTION("expressions and syntax") {
    expect_error(isa, "vrelu ar_d=1/2, ar_s=0, nr=1", "asm.expr", 1, 13);
    expect_error(isa, "vrelu ar_d=1//0, ar_s=0, nr=1", "asm.expr", 1, 13);
    expect_error(isa, "vrelu ar_d=(1, ar_s=0, nr=1", "asm.expr", 1, 12);
    expect_error(isa, "vrelu ar_d=, ar_s=0, nr=1", "asm.expr", 1, 12);
    expect_error(isa, "vrelu ar_d=2**70, ar_s=0, nr=1", "asm.expr", 1);
    expect_error(isa, "const X = " + std::string(100, '(') + "1" + std::string(100, ')'), "asm.expr", 1);
    expect_error(isa, "const X = " + std::string(2000, '-') + "1", "asm.expr", 1);
    expect_error(isa, "loop k 4\n vrelu ar_d=100 // (k - 2), ar_s=0, nr=1\nendloop", "asm.expr", 2);
    expect_error(isa, "vrelu ar_d 0, ar_s=0, nr=1", "asm.syntax", 1, 12);
    expect_error(isa, "vrelu ar_d==0, ar_s=0, nr=1", "asm.syntax", 1, 11);
    expect_error(isa, "vrelu ar_d=0,, ar_s=0, nr=1", "asm.syntax", 1, 14);
    expect_error(isa, "vrelu ar_d=0, ar_s=0, nr=1,", "asm.syntax", 1, 28);
    expect_error(isa, "vrelu, ar_d=0", "asm.syntax", 1, 6);
    expect_error(isa, "const X 3", "asm.syntax", 1, 9);
    expect_error(isa, "const = 3", "asm.syntax", 1, 7);
    expect_error(isa, "= 3", "asm.syntax", 1, 1);
    expect_error(isa, vr + "  .word 0x1", "asm.syntax", 2, 3);
  }

  SECTION("raw") {
    expect_error(isa, ".raw 0x1", "asm.raw", 1, 1);
    expect_error(isa, ".raw 0x1, 0x2, 0x3", "asm.raw", 1, 1);
    expect_error(isa, ".raw 0xZZ, 0x0", "asm.raw", 1, 8);
    expect_error(isa, ".raw 12, 0x0", "asm.raw", 1, 6);
    expect_error(isa, ".raw 0x11112222333344445, 0x0", "asm.raw", 1, 6);
    expect_error(isa, ".raw", "asm.raw", 1, 5);
  }
}

TEST_CASE("assembler: parse_assembly_file reports a missing file", "[assembler]") {
  const Isa isa = make_isa(4);
  const Error e = test::error_of([&] { (void)parse_assembly_file(isa, "/nonexistent/dir/x.asm"); });
  CHECK(e.rule() == "asm.io");
  CHECK(e.where().file == "/nonexistent/dir/x.asm");
}

TEST_CASE("assembler: .raw decodes and round trips what text cannot say", "[assembler]") {
  const Isa isa = make_isa(4);
  const Spec& spec = the_spec();
  const Opcode& vrelu = spec.opcode_named("vrelu");
  const Opcode& loop = spec.opcode_named("loop");

  // .raw of an encoded instruction is that instruction
  const Program src =
      parse_assembly(isa, "loop k 3\n  mm vr_a=1 + k*4, ar0=2, acc=1, spad_w=3 + k, nr=4\nendloop", "s");
  const std::vector<std::uint64_t> w = isa.encode(src.instrs[1]);
  const Program viaraw = parse_assembly(
      isa, fmt::format("loop k 3\n  .raw 0x{:x}, 0X{:X}  # comment\nendloop", w[0], w[1]), "s");
  CHECK(viaraw.instrs[1] == src.instrs[1]);
  CHECK(viaraw.instrs[1].line == 2);

  Program p;
  p.source = "garbage";
  Instr a = isa.make(vrelu);  // a field vrelu has no operand in
  a.fields[isa.field_index(spec.opcode_named("vadd").operand("ar_s2")->field)] = 5;
  a.fields[isa.nr_index()] = 4;
  Instr b = isa.make(vrelu);  // a term on a non-operand field, at a level that is not open
  b.fields[isa.nr_index()] = 1;
  b.terms = {{spec.field(spec.opcode_named("mm").operand("spad_w")->field)->agu_target, 0, 3}};
  Instr c;  // an opcode the spec does not define
  c.fields.assign(spec.word0.size(), 0);
  c.fields[isa.op_index()] = undefined_opcode_value(spec);
  c.fields[isa.nr_index()] = 9;
  Instr d = isa.make(loop);  // trip 0, and an endloop with garbage nr
  Instr e = isa.make(spec.opcode_named("endloop"));
  e.fields[isa.nr_index()] = 2;
  Instr f = isa.make(spec.opcode_named("nop"));  // a nop with a term
  f.terms = {{1, 0, 1}};
  Instr g = isa.make(vrelu);  // terms out of canonical order
  g.fields[isa.nr_index()] = 1;
  Instr lp = isa.make(loop);
  lp.fields[isa.nr_index()] = 2;
  g.terms = {{target_of(vrelu, "ar_s"), 0, 1}, {target_of(vrelu, "ar_d"), 0, 1}};
  Instr end = isa.make(spec.opcode_named("endloop"));
  Instr unclosed = isa.make(loop);  // a loop never closed
  unclosed.fields[isa.nr_index()] = 3;
  p.instrs = {a, b, c, d, f, e, lp, g, end, end, unclosed};
  p.source = "garbage\nwith a newline";
  const std::string text = disassemble(isa, p);
  INFO(text);
  CHECK(text.find(".raw") != std::string::npos);
  check_round_trip(isa, p);
}

TEST_CASE("assembler: random binaries round trip through disassembly", "[assembler]") {
  const Spec& spec = the_spec();
  std::mt19937_64 rng(12345);
  for (std::int64_t t : {4, 8}) {
    const Isa isa = make_isa(t);
    const Field* op_field = spec.field("op");
    std::vector<std::int64_t> values;
    for (const auto& o : spec.opcodes) values.push_back(o.value);
    values.push_back(undefined_opcode_value(spec));
    for (int round = 0; round < 150; ++round) {
      Program p;
      p.source = fmt::format("random {}", round);
      const int n = 1 + static_cast<int>(rng() % 12);
      for (int i = 0; i < n; ++i) {
        std::uint64_t w0 = rng() & (rng() & 1 ? ~std::uint64_t{0} : 0x00000000003fffffULL) & ~(~std::uint64_t{0} << 62);
        w0 &= ~((std::uint64_t{1} << op_field->width) - 1) << op_field->lsb;
        w0 |= static_cast<std::uint64_t>(values[rng() % values.size()]) << op_field->lsb;
        // small strides and levels mostly, so that many terms are representable as text
        std::uint64_t w1 = 0;
        for (int k = 0; k < spec.term.count; ++k)
          if (rng() % 3 == 0) {
            const std::uint64_t term = (rng() % 5) | ((rng() % 4) << 4) | ((rng() % 40) << 7);
            w1 |= term << (k * spec.term.width);
          }
        const std::vector<std::uint64_t> words = {w0, w1};
        p.instrs.push_back(isa.decode(words));
      }
      check_round_trip(isa, p);
    }
  }
}

TEST_CASE("assembler: disassembly of an unencodable program does not throw", "[assembler]") {
  const Isa isa = make_isa(4);
  Program p;
  Instr bad = isa.make(the_spec().opcode_named("vrelu"));
  bad.fields[isa.operand_index(the_spec().opcode_named("vrelu"), "ar_d")] = -3;
  p.instrs = {bad, Instr{}};
  std::string text;
  REQUIRE_NOTHROW(text = disassemble(isa, p));
  CHECK(text.find("# error") != std::string::npos);
  CHECK_THROWS_AS(parse_assembly(isa, text, "x"), Error);
}

TEST_CASE("assembler: garbage and truncated input never crash", "[assembler]") {
  const Isa isa = make_isa(4);
  std::mt19937 rng(2024);
  const std::vector<std::string> frags = {
      "mm",    "vrelu", "vadd", "dma_ld", "loop", "endloop", "nop", "const", ".raw", "0x", "ff",  "vr_a", "ar_d",
      "ar_s",  "nr",    "acc",  "spad_w", "kb",   "nb",      "_",   "T",     "MAXDIM", "=", "==",  ",",    "(",
      ")",     "+",     "-",    "*",      "//",   "%",       "**",  "#",     " ",     "  ", "\t",  "0",    "1",
      "7",     "-1",    "99999999999999999999", "min(", "max(", "if", "else", "\r", "\x01", "\xff", "é", ".", "/"};
  auto attempt = [&](const std::string& text) {
    INFO("input:\n" << text);
    try {
      const Program p = parse_assembly(isa, text, "fuzz");
      const Program q = parse_assembly(isa, disassemble(isa, p), "fuzz again");
      REQUIRE(q.instrs.size() == p.instrs.size());
      for (std::size_t i = 0; i < p.instrs.size(); ++i) CHECK(q.instrs[i] == p.instrs[i]);
    } catch (const Error& e) {
      CHECK(e.rule().rfind("asm.", 0) == 0);
      CHECK(e.where().line >= 1);
    }
  };
  for (int round = 0; round < 1500; ++round) {
    std::string text;
    const int lines = 1 + static_cast<int>(rng() % 6);
    for (int l = 0; l < lines; ++l) {
      const int n = static_cast<int>(rng() % 12);
      for (int k = 0; k < n; ++k) text += frags[rng() % frags.size()] + (rng() % 2 ? " " : "");
      text += "\n";
    }
    attempt(text);
  }
  // the deep program with random characters replaced
  const std::string alphabet = "abkcnT_0129+-*/%(),=#. \n\tx";
  for (int round = 0; round < 400; ++round) {
    std::string text = kDeepProgram;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits; ++k) text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
    attempt(text);
  }
  // every prefix of the example programs, and each with one character deleted
  for (const std::string& path : {kGemmPath, kVaddPath}) {
    const std::string text = read_text(path);
    for (std::size_t cut = 0; cut <= text.size(); cut += 7) attempt(text.substr(0, cut));
    for (std::size_t cut = 0; cut < text.size(); cut += 11) attempt(text.substr(0, cut) + text.substr(cut + 1));
  }
}

TEST_CASE("assembler: the examples in docs/assembly.md assemble as documented", "[assembler]") {
  const Isa isa = make_isa(4);
  const std::string doc = read_text(TPUGEN_SOURCE_DIR "/docs/assembly.md");
  std::vector<std::string> blocks;
  for (std::size_t at = doc.find("```\n"); at != std::string::npos;) {
    const std::size_t end = doc.find("```", at + 4);
    if (end == std::string::npos) break;
    blocks.push_back(doc.substr(at + 4, end - at - 4));
    at = doc.find("```\n", end + 3);
  }
  const std::string* first = nullptr;
  const std::string* worked = nullptr;
  for (const auto& b : blocks) {
    if (b.find("const Kt") != std::string::npos) first = &b;
    if (b.find("loop nb 2") != std::string::npos) worked = &b;
  }
  REQUIRE(first != nullptr);
  REQUIRE(worked != nullptr);
  CHECK(parse_assembly(isa, *first, "doc").instrs.size() == 13);

  const Program p = parse_assembly(isa, *worked, "doc");
  REQUIRE(p.instrs.size() == 5);
  const Instr& mm = p.instrs[2];
  CHECK(mm.fields[isa.field_index("f0")] == 64);
  CHECK(mm.fields[isa.field_index("f1")] == 0);
  CHECK(mm.fields[isa.field_index("f2")] == 1);
  CHECK(mm.fields[isa.field_index("f3")] == 4);
  CHECK(isa.nr(mm) == 8);
  CHECK(mm.terms == std::vector<AguTerm>{{1, 1, 64}, {4, 0, 64}, {4, 1, 4}});
}
