// gen/ime's host instructions, the program assembler and binaries, and
// tb/model/ime's machine (the host core `tpugen ime run` plays): the
// encodings against GNU as's words, every host instruction round-tripped,
// the assembler's errors with their lines, li's sequences executed, and the
// machine's vsetvli, loads, stores, CSR and exceptions.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ime/codec.h"
#include "ime/program.h"
#include "model/ime/machine.h"
#include "spec/ime_spec.h"

using namespace tpugen;

namespace {

const ImeSpec& spec() {
  static const ImeSpec s = load_ime_spec(TPUGEN_SOURCE_DIR "/spec/ime.yaml");
  return s;
}

const ImeProfile& profile(const char* name) { return *spec().profile(name); }

std::vector<std::uint32_t> words_of(const std::string& text) {
  std::vector<std::uint32_t> w;
  for (const auto& pw : ime::assemble(spec(), text, "test.s").words) w.push_back(pw.word);
  return w;
}

/// The Error an assembly raises: its rule, line, column and message.
Error asm_error(const std::string& text) {
  try {
    (void)ime::assemble(spec(), text, "bad.s");
  } catch (const Error& e) {
    return e;
  }
  FAIL("assembled without an error: " << text);
  return Error("none", "none");
}

/// A machine after running `text` on a profile, with the run's result.
struct Ran {
  ime::Machine m;
  ime::RunResult r;
};
Ran run_text(const char* prof, const std::string& text, std::size_t memory = 4096, bool bf16 = false) {
  ime::Machine m(spec(), profile(prof), memory, bf16);
  const auto p = ime::assemble(spec(), text, "run.s");
  auto r = ime::run(spec(), profile(prof), p, m);
  return {std::move(m), r};
}

}  // namespace

// GNU as 2.40 (binutils-riscv64-linux-gnu, -march=rv64gv) assembled these
// lines to these words; tests/ime/gnu_as_host.py holds thousands more to it.
TEST_CASE("ime host: the encodings are GNU as's") {
  const std::pair<const char*, std::uint32_t> kat[] = {
      {"addi x1, x0, 5", 0x00500093},
      {"vle8.v v0, (a0)", 0x02050007},
      {"vsetvli t0, zero, e8, m1, tu, mu", 0x000072d7},
      {"vsetvli t0, zero, e8, m1", 0x000072d7},
      {"add a0, a0, a1", 0x00b50533},
      {"lui a0, 0x12345", 0x12345537},
      {"addiw a0, a0, -2048", 0x8005051b},
      {"slli a0, a0, 63", 0x03f51513},
      {"csrrw zero, 0x7c0, a0", 0x7c051073},
      {"csrrw zero, mcpm, a0", 0x7c051073},
      {"csrw mcpm, a0", 0x7c051073},
      {"csrrwi t1, mcpm, 1", 0x7c00d373},
      {"vse32.v v16, (a2)", 0x02066827},
      {"vle64.v v8, (sp)", 0x02017407},
      {"vse16.v v31, (t6)", 0x020fdfa7},
      {"vmv.v.i v16, -16", 0x5e083857},
      {"vmv.v.x v8, a0", 0x5e054457},
      {"vsetivli t0, 16, e32, m2, ta, ma", 0xcd1872d7},
      {"vsetvli zero, a0, e64, mf8, tu, ma", 0x09d57057},
      {"mv a0, x31", 0x000f8513},
  };
  for (const auto& [text, word] : kat) {
    INFO(text);
    CHECK(words_of(text) == std::vector<std::uint32_t>{word});
  }
}

TEST_CASE("ime host: every host instruction round-trips through its text and its word") {
  std::mt19937_64 rng(13);
  for (const auto& i : spec().host.instructions) {
    const ImeFormat& f = spec().host.format_of(i);
    for (int trial = 0; trial < 200; ++trial) {
      ime::HostDecoded d{&i, {}};
      for (const auto& o : f.operands) {
        std::uint32_t v = static_cast<std::uint32_t>(rng()) & ((1U << o.width) - 1U);
        if (o.kind == ImeOperandKind::Vtype) {  // a vtype every field of which has a name
          v = 0;
          for (const auto& vf : spec().host.vtype) v |= vf.values[rng() % vf.values.size()].code << vf.lsb;
        }
        if (trial == 0) v = 0;
        if (trial == 1 && o.kind != ImeOperandKind::Vtype) v = (1U << o.width) - 1U;
        d.operands.emplace_back(o.name, v);
      }
      const std::uint32_t w = ime::encode(spec(), d);
      const auto back = ime::decode_host(spec(), w);
      REQUIRE(back);
      CHECK(*back == d);
      const std::string text = ime::disassemble(spec(), d);
      INFO(text);
      CHECK(ime::parse_host(spec(), text) == d);
      CHECK_FALSE(ime::decode(spec(), w));  // no smt.* instruction takes it
    }
  }
}

TEST_CASE("ime program: statements, symbols, comments, labels and .word") {
  const auto p = ime::assemble(spec(),
                               "# a comment\n"
                               ".equ ROW, 4*8\n"
                               "start:  addi a0, a0, ROW   // the seed's comments\n"
                               "\n"
                               "  .word 0xe210382b, 7\n"
                               "smt.vmadot v16, v0, v1\n",
                               "p.s");
  REQUIRE(p.words.size() == 4);
  CHECK(p.words[0].word == ime::encode(spec(), ime::parse_host(spec(), "addi a0, a0, 32")));
  CHECK(p.words[0].line == 3);
  CHECK(p.words[1].word == 0xe210382bU);
  CHECK(p.words[2].word == 7U);
  CHECK(p.words[2].line == 5);
  CHECK(p.words[3].word == 0xe210382bU);  // .word and the instruction agree
  // The disassembly assembles to the same words, an unknown word as .word.
  std::vector<std::uint32_t> words;
  for (const auto& w : p.words) words.push_back(w.word);
  CHECK(ime::disassemble_word(spec(), 7) == ".word 0x00000007");
  CHECK(words_of(ime::disassemble_words(spec(), words)) == words);
}

TEST_CASE("ime program: bad input names the file, the line, the column and the rule broken") {
  const auto check = [](const std::string& text, int line, int column, const std::string& needle) {
    const Error e = asm_error(text);
    INFO(text << " -> " << e.what());
    CHECK(e.rule() == "ime.asm");
    CHECK(e.where().file == "bad.s");
    CHECK(e.where().line == line);
    CHECK(e.where().column == column);
    CHECK(e.message().find(needle) != std::string::npos);
  };
  check("addi a0, a0, 1\n  smt.vmadotx v16, v0, v8\n", 2, 3, "unknown mnemonic 'smt.vmadotx'");
  check("smt.vmadot v16, v0, v32\n", 1, 1, "v32; the registers are v0 .. v31");
  check("smt.vmadot v17, v0, v8\n", 1, 1, "must be an even register");
  check("smt.vmadot.sp v16, v2, v8, v2, 0, i8\n", 1, 1, "selects v0 or v1");
  check("smt.vmadot v16, v0, v8, i16\n", 1, 1, "has no i16 form");
  check("addi a0, x32, 1\n", 1, 1, "takes a scalar register");
  check("addi a0, a0, 2048\n", 1, 1, "does not fit its 12 signed bits (-2048 .. 2047)");
  check("slli a0, a0, 64\n", 1, 1, "does not fit its 6 bit(s)");
  check("vmv.v.i v1, 16\n", 1, 1, "(-16 .. 15)");
  check("vle8.v v0, a0\n", 1, 1, "in parentheses");
  check("vsetvli t0, zero, e128\n", 1, 1, "'e128' is no vtype value");
  check("vsetvli t0, zero, e8, e16\n", 1, 1, "gives vsew twice");
  check("csrw mvendorid, a0\n", 1, 1, "takes a CSR (mcpm or a number)");
  check("addi a0, a0, X\n", 1, 1, "X");
  check(".equ A, 1\n.equ A, 2\n", 2, 1, "defined already, at line 1");
  check(".align 4\n", 1, 1, "unknown directive '.align'");
  check("li a0\n", 1, 1, "li takes 2 operand(s)");
  check("  lbl: vle8.v v0, (a0), v0.t\n", 1, 8, "takes 2 operand(s), not 3");
}

TEST_CASE("ime program: binaries are little-endian words, a truncated or empty one is refused") {
  const auto p = ime::assemble(spec(), "addi x1, x0, 5\nvle8.v v0, (a0)\n", "p.s");
  const std::string bin = ime::binary_of(p);
  CHECK(bin == std::string("\x93\x00\x50\x00\x07\x00\x05\x02", 8));
  const auto back = ime::read_binary(bin, "p.bin");
  REQUIRE(back.words.size() == 2);
  CHECK(back.words[1].word == 0x02050007U);
  try {
    (void)ime::read_binary(bin.substr(0, 7), "t.bin");
    FAIL("a truncated binary was read");
  } catch (const Error& e) {
    CHECK(e.rule() == "ime.bin");
    CHECK(std::string(e.what()).find("7 bytes is not a whole number of 32-bit words") != std::string::npos);
  }
  CHECK_THROWS_AS(ime::read_binary("", "e.bin"), Error);
}

// li: the sequence for a value, run on the machine, makes the value; every
// sequence is at most eight instructions, and the short ones are LLVM's.
TEST_CASE("ime program: li makes any 64-bit value, in RISCVMatInt's sequences") {
  CHECK(ime::materialise(spec(), 10, 5) == std::vector<std::string>{"addi a0, zero, 5"});
  CHECK(ime::materialise(spec(), 10, -1) == std::vector<std::string>{"addi a0, zero, -1"});
  CHECK(ime::materialise(spec(), 10, 0x12345678) == std::vector<std::string>{"lui a0, 74565", "addiw a0, a0, 1656"});
  CHECK(ime::materialise(spec(), 10, 0x1000) == std::vector<std::string>{"lui a0, 1"});
  CHECK(ime::materialise(spec(), 10, std::int64_t{1} << 32) ==
        std::vector<std::string>{"addi a0, zero, 1", "slli a0, a0, 32"});
  CHECK(ime::materialise(spec(), 10, INT64_MIN) == std::vector<std::string>{"addi a0, zero, -1", "slli a0, a0, 63"});
  std::mt19937_64 rng(64);
  std::vector<std::int64_t> values = {0,
                                      1,
                                      -1,
                                      2047,
                                      -2048,
                                      2048,
                                      0x7FFFFFFF,
                                      0x80000000LL,
                                      -0x80000000LL,
                                      0xFFFFFFFFLL,
                                      INT64_MAX,
                                      INT64_MIN,
                                      0x123456789ABCDEF0LL};
  for (int k = 0; k < 3000; ++k) {
    const std::uint64_t r = rng();
    values.push_back(static_cast<std::int64_t>(k % 3 == 0 ? r << (rng() % 64) : k % 3 == 1 ? r >> (rng() % 64) : r));
  }
  for (const std::int64_t v : values) {
    const auto seq = ime::materialise(spec(), 11, v);
    INFO(fmt::format("li a1, {:#x}", static_cast<std::uint64_t>(v)));
    CHECK(seq.size() <= 8);
    const Ran ran =
        run_text("A60", fmt::format("li a1, {}\n", v == INT64_MIN ? "0x8000000000000000" : std::to_string(v)));
    REQUIRE_FALSE(ran.r.stop);
    CHECK(ran.r.retired == seq.size());
    CHECK(ran.m.x[11] == static_cast<std::uint64_t>(v));
  }
  CHECK(words_of("li a0, 0xFFFFFFFFFFFFFFFF") == words_of("li a0, -1"));
  // Every spelling GNU as takes: -2^63 .. 2^64 - 1, decimal or hexadecimal, signed or not, mod 2^64.
  CHECK(words_of("li a0, 18446744073709551615") == words_of("li a0, -1"));
  CHECK(words_of("li a0, -9223372036854775808") == words_of("li a0, 0x8000000000000000"));
  CHECK(words_of("li a0, 9223372036854775808") == words_of("li a0, 0x8000000000000000"));
  CHECK(words_of("li a0, -0x8000000000000000") == words_of("li a0, 0x8000000000000000"));
  CHECK(words_of("li a0, 2*8") == words_of("li a0, 16"));
  CHECK(asm_error("li a0, 18446744073709551616").message().find("outside -2^63 .. 2^64 - 1") != std::string::npos);
  CHECK(asm_error("li a0, -9223372036854775809").message().find("outside") != std::string::npos);
}

TEST_CASE("ime machine: vsetvli sets vl = min(AVL, VLMAX), vtype, and vill for what is reserved") {
  // A60: VLEN 256. e8, m1: VLMAX 32; e32, m2: 16; e8, mf2: 16.
  Ran a = run_text("A60", "li a0, 20\nvsetvli t0, a0, e8, m1\n");
  CHECK(a.m.vl == 20);
  CHECK(a.m.x[5] == 20);
  a = run_text("A60", "li a0, 100\nvsetvli t0, a0, e32, m2, ta, ma\n");
  CHECK(a.m.vl == 16);
  CHECK(a.m.unit.sew == 32);
  CHECK(a.m.unit.lmul.num == 2);
  a = run_text("A60", "vsetvli t1, zero, e8, mf2\n");  // rs1 = x0, rd != x0: VLMAX
  CHECK(a.m.vl == 16);
  a = run_text("A60", "vsetivli t0, 5, e16, m1\nvsetvli zero, zero, e32, m2\n");  // keep vl: same SEW/LMUL ratio
  CHECK(a.m.vl == 5);
  CHECK_FALSE(a.m.vill);
  a = run_text("A60", "vsetivli t0, 5, e16, m1\nvsetvli zero, zero, e32, m1\n");  // keep vl, VLMAX changes: reserved
  CHECK(a.m.vill);
  a = run_text("A60", "vsetvli t0, zero, e16, mf8\n");  // SEW 16 > LMUL 1/8 x ELEN 64
  CHECK(a.m.vill);
  CHECK(a.m.vl == 0);
  CHECK(a.m.x[5] == 0);
  a = run_text("A60", "vsetvli t0, zero, 0x100\n");  // a reserved bit of vtype
  CHECK(a.m.vill);
  a = run_text("A60", "vsetvli t0, zero, 0x20\nvle8.v v0, (zero)\n");  // vsew 100: reserved; a vector instruction
  REQUIRE(a.r.stop);
  CHECK(a.r.stop->exception.rule == "vill");
  CHECK(a.r.stop->index == 1);
  a = run_text("A60", "vsetvli t0, zero, 0x20\nsmt.vmadot v16, v0, v8\n");
  REQUIRE(a.r.stop);
  CHECK(a.r.stop->exception.rule == "vill");
}

TEST_CASE("ime machine: unit-stride loads and stores move vl elements of EEW, little-endian") {
  ime::Machine m(spec(), profile("A60"), 256, false);
  for (std::size_t b = 0; b < 256; ++b) m.memory[b] = static_cast<std::uint8_t>(b);
  const auto p = ime::assemble(spec(),
                               "li a0, 16\nvsetvli t0, zero, e16, m1\nvle16.v v3, (a0)\n"
                               "vsetivli t0, 3, e32, m1\nli a1, 200\nvse32.v v3, (a1)\n",
                               "ls.s");
  const auto r = ime::run(spec(), profile("A60"), p, m);
  REQUIRE_FALSE(r.stop);
  CHECK(m.unit.v.get(3, 16, 0) == 0x1110);
  CHECK(m.unit.v.get(3, 16, 15) == 0x2f2e);
  CHECK(m.unit.v.get(4, 8, 0) == 0);  // a load of one register writes no other
  for (std::size_t b = 0; b < 12; ++b) CHECK(m.memory[200 + b] == 16 + b);
  CHECK(m.memory[212] == 212);  // three elements stored, no more
  // A vmv.v fills vl elements of SEW.
  const Ran v = run_text("A60", "vsetivli t0, 3, e16, m1\nli a0, -2\nvmv.v.x v5, a0\nvmv.v.i v6, -16\n");
  CHECK(v.m.unit.v.get(5, 16, 2) == 0xFFFE);
  CHECK(v.m.unit.v.get(5, 16, 3) == 0);
  CHECK(v.m.unit.v.get(6, 16, 0) == 0xFFF0);
}

TEST_CASE("ime machine: every host rule, broken, stops the run there with the state before it") {
  const auto stop_of = [](const std::string& text, std::size_t memory = 64) {
    const Ran a = run_text("A60", text, memory);
    REQUIRE(a.r.stop);
    return *a.r.stop;
  };
  auto s = stop_of("li a0, 60\nvle8.v v0, (a0)\n");  // 32 bytes from 60 in a 64-byte memory
  CHECK(s.exception.cause == "access_fault");
  CHECK(s.exception.rule == "mem_bounds");
  CHECK(s.index == 1);
  CHECK(s.line == 2);
  s = stop_of("li a0, 0x7FFFFFFFFFFFFFFF\nvse8.v v0, (a0)\n");  // no wrap around the address space
  CHECK(s.exception.rule == "mem_bounds");
  s = stop_of("vle32.v v1, (zero)\n", 4096);  // e8, m1: EMUL 4, v1 starts no group of four
  CHECK(s.exception.rule == "vreg_group");
  s = stop_of("vsetvli t0, zero, e8, m8\nvle64.v v0, (zero)\n", 4096);  // EMUL 64
  CHECK(s.exception.rule == "vreg_group");
  s = stop_of("vsetvli t0, zero, e8, m4\nvmv.v.i v2, 0\n");
  CHECK(s.exception.rule == "vreg_group");
  s = stop_of("csrrw a0, 0x7C1, a1\n");
  CHECK(s.exception.rule == "csr");
  s = stop_of(".word 0\n");
  CHECK(s.exception.rule == "encoding");
  s = stop_of("li a0, 1\nsmt.vmadot v2, v3, v4\nli a0, 2\n");
  CHECK(s.exception.rule == "vd_disjoint");
  CHECK(s.index == 1);
  CHECK(s.text == "smt.vmadot v2, v3, v4, i8");
  // The state is that before the instruction: a0 is 1.
  const Ran a = run_text("A60", "li a0, 1\nsmt.vmadot v2, v3, v4\nli a0, 2\n");
  CHECK(a.m.x[10] == 1);
  CHECK(a.r.retired == 1);
}

TEST_CASE("ime machine: MCPM.BF16 is bit 0 of CSR mcpm, csrrw returns the old value") {
  const Ran a = run_text("A100", "csrwi mcpm, 1\nli a1, 0xFE\ncsrrw a0, mcpm, a1\n");
  REQUIRE_FALSE(a.r.stop);
  CHECK(a.m.x[10] == 1);
  CHECK(a.m.mcpm == 0);  // only BF16 is writable: 0xFE writes 0
  CHECK_FALSE(a.m.unit.bf16);
  const Ran b = run_text("A100", "li a1, 3\ncsrw mcpm, a1\n", 64, false);
  CHECK(b.m.unit.bf16);
  CHECK(b.m.mcpm == 1);
  const Ran c = run_text("A100", "csrrwi a0, mcpm, 0\n", 64, true);  // --bf16 at the start
  CHECK(c.m.x[10] == 1);
  CHECK_FALSE(c.m.unit.bf16);
}

TEST_CASE("ime machine: the checker names every illegal instruction with its line, for the profile") {
  const auto p = ime::assemble(spec(),
                               "smt.vmadot v16, v0, v8\n"                // legal on both
                               "smt.vmadot.sp v16, v2, v8, v0, 0, i8\n"  // A60 has no sparse sub-extension
                               "vsetvli t0, zero, e8, m2\n"
                               "smt.vmadot v16, v0, v8\n"  // LMUL 2
                               "vle8.v v0, (zero)\n",      // an access fault is not the checker's
                               "c.s");
  const auto a60 = ime::illegal_instructions(spec(), profile("A60"), p, false);
  REQUIRE(a60.size() == 2);
  CHECK(a60[0].line == 2);
  CHECK(a60[0].exception.rule == "sub_extension");
  CHECK(a60[1].line == 4);
  CHECK(a60[1].exception.rule == "lmul_one");
  const auto a100 = ime::illegal_instructions(spec(), profile("A100"), p, false);
  REQUIRE(a100.size() == 1);
  CHECK(a100[0].line == 4);
}

// Seed 7.3.1 (L1711-L1724) as a program: four rows a, b, c, d of an A60
// register each, packed in two rounds. By the pseudocode, the second round
// at imm2 = 0 (pack_len = SEW = 64) gives a0 c0 b0 d0, not the "abcd" its
// comment says; imm2 = 1 (128-bit chunks) gives abcd (docs/ime.md, D29).
TEST_CASE("ime machine: the seed's vpack example (7.3.1): abab, cdcd, then a c b d at imm2 0 and abcd at 1") {
  const auto run_example = [](int second_imm2) {
    ime::Machine m(spec(), profile("A60"), 256, false);
    for (std::size_t b = 0; b < 128; ++b) m.memory[b] = static_cast<std::uint8_t>(b);  // row r: bytes 32r ..
    const auto p = ime::assemble(spec(),
                                 fmt::format(R"(.equ matrix_row_stride, 32
vsetvli  t0, x0, e8, m1, tu, mu
vle8.v  v0, (a0)
addi    a0, a0, matrix_row_stride
vle8.v  v1, (a0)
addi    a0, a0, matrix_row_stride
vle8.v  v2, (a0)
addi    a0, a0, matrix_row_stride
vle8.v  v3, (a0)
vsetvli  t0, x0, e64, m1, tu, mu
smt.vpack.vv v8, v0, v1, 0             // abab
smt.vpack.vv v10, v2, v3, 0            // cdcd
smt.vpack.vv v4, v8, v10, {0}
smt.vpack.vv v6, v9, v11, {0}
)",
                                             second_imm2),
                                 "vpack.s");
    const auto r = ime::run(spec(), profile("A60"), p, m);
    REQUIRE_FALSE(r.stop);
    // Each 64-bit element as (row, chunk): its first byte is 32 row + 8 chunk.
    std::vector<std::pair<int, int>> chunks;
    for (int reg : {8, 10, 4, 5, 6, 7})
      for (std::size_t k = 0; k < 4; ++k) {
        const auto first = static_cast<int>(m.unit.v.get(reg, 8, 8 * k));
        chunks.emplace_back(first / 32, first % 32 / 8);
      }
    return chunks;
  };
  using C = std::vector<std::pair<int, int>>;
  const C plain = run_example(0);
  CHECK(C(plain.begin(), plain.begin() + 4) == C{{0, 0}, {1, 0}, {0, 1}, {1, 1}});       // v8: a0 b0 a1 b1
  CHECK(C(plain.begin() + 4, plain.begin() + 8) == C{{2, 0}, {3, 0}, {2, 1}, {3, 1}});   // v10: c0 d0 c1 d1
  CHECK(C(plain.begin() + 8, plain.begin() + 12) == C{{0, 0}, {2, 0}, {1, 0}, {3, 0}});  // v4: a0 c0 b0 d0
  const C wide = run_example(1);
  CHECK(C(wide.begin() + 8, wide.end()) == C{{0, 0},
                                             {1, 0},
                                             {2, 0},
                                             {3, 0},
                                             {0, 1},
                                             {1, 1},
                                             {2, 1},
                                             {3, 1},
                                             {0, 2},
                                             {1, 2},
                                             {2, 2},
                                             {3, 2},
                                             {0, 3},
                                             {1, 3},
                                             {2, 3},
                                             {3, 3}});
}
