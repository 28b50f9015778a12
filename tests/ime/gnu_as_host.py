#!/usr/bin/env python3
"""tpugen ime asm against GNU as (binutils-riscv64-linux-gnu) on the host's
instructions (docs/ime_isa.md, "The host's instructions"): the RV64I, Zicsr
and RVV subset a program uses beside the smt.* instructions.

1. A few thousand instructions (fixed seed): every mnemonic and pseudo-
   instruction but li, every register in every operand (xN, ABI names, fp),
   every immediate's extremes and its whole range where it is small, every
   vtype spelling (a field left out or not). GNU as (-march=rv64gv: no
   compressed instructions) and tpugen ime asm must give the same words.
2. tpugen ime disasm of those words, assembled again by tpugen: the same words.
3. GNU objdump -M no-aliases of tpugen's words names each word's mnemonic
   (the pseudo-instruction's base for mv, csrw, csrwi); so does tpugen's
   disassembly. The raw binary (-b binary -m riscv:rv64) is disassembled
   without V, so the vector words are also disassembled from an ELF that GNU as
   builds from `.insn 0xWORD` lines under -march=rv64gv.
4. li rd, V for V special and random 64-bit values: tpugen's sequence (which
   follows LLVM's RISCVMatInt, not GNU as's, so its words are not compared)
   must be lui / addiw / addi / slli writing only rd, at most 8 of them, that
   computes V from nothing but x0 (evaluated here on 64-bit values). GNU's
   sequences are evaluated too, to check the evaluator. The li words also go
   through the disassembly round trip.
5. The spellings of a 64-bit li value GNU as accepts (decimal INT64_MIN,
   unsigned decimal above INT64_MAX, negative hexadecimal) give tpugen the
   same words as the value's plain hexadecimal spelling.

Usage: gnu_as_host.py TPUGEN. It fails (does not skip) when
riscv64-linux-gnu-as, -objcopy or -objdump is missing."""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

if len(sys.argv) != 2:
    sys.exit("usage: gnu_as_host.py TPUGEN")
TPUGEN = sys.argv[1]
GAS, OBJCOPY, OBJDUMP = (f"riscv64-linux-gnu-{t}" for t in ("as", "objcopy", "objdump"))
missing = [t for t in (GAS, OBJCOPY, OBJDUMP) if shutil.which(t) is None]
if missing:
    sys.exit(f"FAIL: {', '.join(missing)} not found: install Debian's binutils-riscv64-linux-gnu "
             "(this test does not skip without it)")

rng = random.Random(0x1E5EED)
MASK64 = (1 << 64) - 1
ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
       "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"]
MCPM = 0x7C0
failures = []


def fail(msg):
    failures.append(msg)


def run(argv, what, check=True):
    r = subprocess.run(argv, capture_output=True, text=True)
    if check and r.returncode != 0:
        sys.exit(f"FAIL: {what}: {' '.join(argv)} exited {r.returncode}:\n{r.stdout}{r.stderr}")
    return r


# --- spelling of operands ---------------------------------------------------

def xreg(i, style=None):
    style = style or rng.choice(("x", "abi"))
    if style == "x":
        return f"x{i}"
    if i == 8 and rng.random() < 0.3:
        return "fp"
    return ABI[i]


def rand_x():
    return rng.randrange(32)


def num(v):
    """v in decimal or hexadecimal (either case), with a sign if negative."""
    r = rng.random()
    if r < 0.6:
        return str(v)
    digits = f"{abs(v):x}" if r < 0.8 else f"{abs(v):X}"
    return ("-" if v < 0 else "") + ("0x" if rng.random() < 0.8 else "0X") + digits


def csr_gnu():
    return "0x7c0"


def csr_tpugen():
    return rng.choice(("mcpm", "0x7c0", "0x7C0", str(MCPM)))


SEW = [None, "e8", "e16", "e32", "e64"]
LMUL = [None, "mf8", "mf4", "mf2", "m1", "m2", "m4", "m8"]
TA = [None, "tu", "ta"]
MA = [None, "mu", "ma"]
VTYPES = []
for s in SEW:
    for lm in LMUL:
        for t in TA:
            for m in MA:
                fields = [f for f in (s, lm, t, m) if f]
                if fields:
                    VTYPES.append(fields)


def vtype(fields):
    return (", " if rng.random() < 0.8 else ",").join(fields)


def simm12_values():
    return [-2048, -2047, -1025, -1024, -1, 0, 1, 1023, 1024, 2046, 2047] + \
        [rng.randrange(-2048, 2048) for _ in range(60)]


LUI_VALUES = [0, 1, 0x7FFFF, 0x80000, 0x80001, 0xFFFFE, 0xFFFFF] + [rng.randrange(1 << 20) for _ in range(60)]

# --- the instructions, as (gnu text, tpugen text, base mnemonic) --------------
# Each operand kind has a random source and a list of values to cover; for
# every operand of every mnemonic, each value of its list appears once with the
# other operands random.

KINDS = {
    "x": (rand_x, list(range(32))),
    "v": (lambda: rng.randrange(32), list(range(32))),
    "simm12": (lambda: rng.randrange(-2048, 2048), None),
    "shamt": (lambda: rng.randrange(64), list(range(64))),
    "uimm20": (lambda: rng.randrange(1 << 20), LUI_VALUES),
    "uimm5": (lambda: rng.randrange(32), list(range(32))),
    "simm5": (lambda: rng.randrange(-16, 16), list(range(-16, 16))),
    "vtype": (lambda: rng.choice(VTYPES), VTYPES),
    "csr": (lambda: MCPM, [MCPM]),
}

# mnemonic: (base mnemonic, operand kinds, formatter(values) -> (gnu, tpugen))
def fmt_plain(mn, kinds):
    def f(vals):
        parts_g, parts_t = [], []
        for k, v in zip(kinds, vals):
            if k == "x":
                s = xreg(v)
                parts_g.append(s)
                parts_t.append(s)
            elif k == "v":
                parts_g.append(f"v{v}")
                parts_t.append(f"v{v}")
            elif k == "vtype":
                s = vtype(v)
                parts_g.append(s)
                parts_t.append(s)
            elif k == "csr":
                parts_g.append(csr_gnu())
                parts_t.append(csr_tpugen())
            else:
                s = num(v)
                parts_g.append(s)
                parts_t.append(s)
        sep = ", " if rng.random() < 0.85 else ","
        return f"{mn} {sep.join(parts_g)}", f"{mn} {sep.join(parts_t)}"
    return f


def fmt_mem(mn):
    def f(vals):
        v, x = vals
        s = f"{mn} v{v}, ({xreg(x)})"
        return s, s
    return f


MNEMONICS = {
    "add": ("add", ["x", "x", "x"]),
    "addi": ("addi", ["x", "x", "simm12"]),
    "addiw": ("addiw", ["x", "x", "simm12"]),
    "slli": ("slli", ["x", "x", "shamt"]),
    "lui": ("lui", ["x", "uimm20"]),
    "csrrw": ("csrrw", ["x", "csr", "x"]),
    "csrrwi": ("csrrwi", ["x", "csr", "uimm5"]),
    "vsetvli": ("vsetvli", ["x", "x", "vtype"]),
    "vsetivli": ("vsetivli", ["x", "uimm5", "vtype"]),
    "vmv.v.i": ("vmv.v.i", ["v", "simm5"]),
    "vmv.v.x": ("vmv.v.x", ["v", "x"]),
    "mv": ("addi", ["x", "x"]),
    "csrw": ("csrrw", ["csr", "x"]),
    "csrwi": ("csrrwi", ["csr", "uimm5"]),
}
for eew in (8, 16, 32, 64):
    MNEMONICS[f"vle{eew}.v"] = (f"vle{eew}.v", ["v", "x"])
    MNEMONICS[f"vse{eew}.v"] = (f"vse{eew}.v", ["v", "x"])


def cover(mn):
    base, kinds = MNEMONICS[mn]
    f = fmt_mem(mn) if re.fullmatch(r"v[ls]e[0-9]+\.v", mn) else fmt_plain(mn, kinds)
    out = []
    for pos, k in enumerate(kinds):
        values = KINDS[k][1] if KINDS[k][1] is not None else simm12_values()
        reps = 2 if k == "x" else 1      # registers: once as xN, once by ABI name
        for rep in range(reps):
            for v in values:
                vals = [KINDS[kk][0]() for kk in kinds]
                vals[pos] = v
                if k == "x":
                    # spell the covered register as xN on the first pass, by ABI name on the second
                    g, t = f(vals)
                    name = xreg(v, "x" if rep == 0 else "abi")
                    g, t = respell(g, kinds, pos, name), respell(t, kinds, pos, name)
                else:
                    g, t = f(vals)
                out.append((g, t, base))
    for _ in range(40):                   # and some fully random ones
        g, t = f([KINDS[k][0]() for k in kinds])
        out.append((g, t, base))
    return out


def respell(text, kinds, pos, name):
    """text with operand pos replaced by name (operands split at commas, a
    vtype's own commas kept together; a memory operand's parentheses kept)."""
    mn, rest = text.split(" ", 1)
    ops = [o.strip() for o in rest.split(",")]
    if "vtype" in kinds:
        i = kinds.index("vtype")
        ops = ops[:i] + [", ".join(ops[i:])]
    if ops[pos].startswith("("):
        ops[pos] = f"({name})"
    else:
        ops[pos] = name
    return f"{mn} {', '.join(ops)}"


items = []
for mn in MNEMONICS:
    items += cover(mn)
rng.shuffle(items)

# --- assemble the instructions with both -------------------------------------

HEADER = ["# tests/ime/gnu_as_host.py: the host's instructions, one word each"]


def write_source(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(HEADER + lines) + "\n")


def line_no(i):
    return len(HEADER) + 1 + i


def words(path):
    data = open(path, "rb").read()
    if len(data) % 4:
        sys.exit(f"FAIL: {path}: {len(data)} bytes is not a whole number of words")
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def gas_words(src, obj, out):
    r = run([GAS, "-march=rv64gv", src, "-o", obj], "GNU as", check=False)
    if r.returncode != 0:
        sys.exit(f"FAIL: GNU as rejects the generated program (a bug in this test):\n{r.stderr[:3000]}")
    run([OBJCOPY, "-O", "binary", "-j", ".text", obj, out], "objcopy")
    return words(out)


def tpugen_words(src, out):
    r = run([TPUGEN, "ime", "asm", src, "-o", out], "tpugen ime asm", check=False)
    if r.returncode != 0:
        sys.exit(f"FAIL: tpugen ime asm rejects {os.path.basename(src)} (GNU as takes it):\n"
                 f"{(r.stdout + r.stderr)[:3000]}")
    return words(out)


def objdump_mnemonics(argv):
    r = run(argv, "objdump")
    got = {}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(\S+)", line)
        if m:
            got[int(m.group(1), 16) // 4] = (int(m.group(2), 16), m.group(3))
    return got


def tpugen_disasm_mnemonics(path):
    out = []
    for line in open(path):
        code = line.split("#", 1)[0].strip()
        if code:
            out.append(code.split()[0])
    return out


def report(title, rows, limit=15):
    if rows:
        fail(f"{title}: {len(rows)} case(s); the first {min(limit, len(rows))}:\n" +
             "\n".join("  " + r for r in rows[:limit]))


with tempfile.TemporaryDirectory() as d:
    p = lambda n: os.path.join(d, n)
    gnu_src, tp_src = p("host_gnu.s"), p("host_tpugen.s")
    write_source(gnu_src, [g for g, _, _ in items])
    write_source(tp_src, [t for _, t, _ in items])
    gw = gas_words(gnu_src, p("host.o"), p("host_gnu.bin"))
    tw = tpugen_words(tp_src, p("host_tpugen.bin"))

    # 1. the words
    if len(gw) != len(items) or len(tw) != len(items):
        fail(f"{len(items)} instructions: GNU as gave {len(gw)} words, tpugen {len(tw)}")
    rows = []
    for i, (g, t) in enumerate(zip(gw, tw)):
        if g != t:
            rows.append(f"line {line_no(i)}: GNU `{items[i][0]}` = {g:08x}, tpugen `{items[i][1]}` = {t:08x}"
                        f" (xor {g ^ t:08x})")
    report("tpugen and GNU as encode differently", rows)

    # 2. round trip through tpugen ime disasm
    run([TPUGEN, "ime", "disasm", p("host_tpugen.bin"), "-o", p("host_dis.s")], "tpugen ime disasm")
    again = tpugen_words(p("host_dis.s"), p("host_again.bin"))
    dis = tpugen_disasm_mnemonics(p("host_dis.s"))
    rows = [f"word {i} (line {line_no(i)} `{items[i][1]}`): {a:08x} -> disasm `{dis[i] if i < len(dis) else '?'}` -> {b:08x}"
            for i, (a, b) in enumerate(zip(tw, again)) if a != b]
    if len(again) != len(tw):
        rows.insert(0, f"{len(tw)} words became {len(again)}")
    report("tpugen ime disasm | tpugen ime asm changes", rows)

    # 3. mnemonics: GNU objdump (raw binary and .insn-built ELF) and tpugen's disassembly
    raw = objdump_mnemonics([OBJDUMP, "-D", "-b", "binary", "-m", "riscv:rv64", "-M", "no-aliases",
                             p("host_tpugen.bin")])
    with open(p("insn.s"), "w") as f:
        f.write("".join(f".insn 0x{w:08x}\n" for w in tw))
    iw = gas_words(p("insn.s"), p("insn.o"), p("insn.bin"))
    if iw != tw:
        fail("GNU as's .insn copy of tpugen's words is not those words (a bug in this test)")
    elf = objdump_mnemonics([OBJDUMP, "-d", "-M", "no-aliases", p("insn.o")])
    rows = []
    for i, (w, (_, t, base)) in enumerate(zip(tw, items)):
        vector = base.startswith("v")
        rw, rm = raw.get(i, (None, "?"))
        ew, em = elf.get(i, (None, "?"))
        if rw != w or ew != w:
            rows.append(f"word {i}: objdump shows {rw} / {ew}, not {w:08x}")
        elif not (rm == base or (vector and rm == ".4byte")):
            rows.append(f"line {line_no(i)} `{t}` = {w:08x}: objdump -b binary names `{rm}`, not `{base}`")
        elif em != base:
            rows.append(f"line {line_no(i)} `{t}` = {w:08x}: objdump (rv64gv ELF) names `{em}`, not `{base}`")
        elif i >= len(dis) or dis[i] != base:
            rows.append(f"line {line_no(i)} `{t}` = {w:08x}: tpugen ime disasm names "
                        f"`{dis[i] if i < len(dis) else '?'}`, not `{base}`")
    report("the mnemonic of a word is not the source's", rows)
    n_host = len(items)

    # 4. li
    specials = [0, 1, -1, 2, -2, 2047, 2048, -2048, -2049, 4095, 4096, 0x7FF, 0x800, 0xFFF, 0x1000,
                0x7FFFF000, 0x7FFFF7FF, 0x7FFFF800, 0x7FFFFFFF, 0x80000000, 0x80000800, 0xFFFFF800,
                0xFFFFFFFF, 1 << 32, (1 << 32) + 1, (1 << 32) - 2048, -(1 << 31), -(1 << 31) - 1,
                -(1 << 32), 0xFFFFFFFF00000000, 0x00000000FFFFF000, 0x0000FFFFFFFFFFFF,
                0x8000000000000000, 0x8000000000000001, 0x7FFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFF800,
                0xFFFFFFFFFFFFF800, 0x0123456789ABCDEF, 0xFEDCBA9876543210, 0xDEADBEEFCAFEBABE,
                0x5555555555555555, 0xAAAAAAAAAAAAAAAA, 0x7FF0000000000000, 0xFFF0000000000000,
                0x00000000800007FF, 0x0000000080000FFF, 0xFFFFFFFF7FFFFFFF, 0x000FFFFFFFFFFFFF]
    specials += [1 << k for k in range(64)] + [(1 << k) - 1 for k in range(1, 64)] + \
        [-(1 << k) for k in range(64)] + [MASK64 >> k for k in range(1, 64)]
    rand = []
    for _ in range(120):
        rand.append(rng.getrandbits(64))
    for _ in range(60):
        rand.append(rng.randrange(-(1 << 31), 1 << 31))
    for _ in range(60):
        rand.append(rng.randrange(-2048, 2048) << rng.randrange(0, 53))      # many trailing zeros
    for _ in range(60):
        rand.append(rng.getrandbits(rng.randrange(1, 64)) << rng.randrange(0, 32))
    for _ in range(40):
        rand.append((rng.getrandbits(64) >> rng.randrange(1, 63)) ^ (MASK64 if rng.random() < 0.5 else 0))
    values = []
    for v in specials + rand:
        v &= MASK64
        if v not in values:
            values.append(v)

    def spell(v):
        """a spelling tpugen and GNU as both take (the others are checked in 5)."""
        s = v - (1 << 64) if v >> 63 else v
        if s == -(1 << 63) or (s < 0 and rng.random() < 0.3):
            return f"0x{v:x}"
        r = rng.random()
        if r < 0.5:
            return str(s)
        if r < 0.8 or s < 0:
            return f"0x{v:x}" if s >= 0 or rng.random() < 0.5 else f"-0x{-s:x}"
        return f"0x{v:X}"

    SEPARATOR = "add zero, zero, zero"                  # 00000033: no li sequence holds it
    li = []
    lines = []
    for i, v in enumerate(values):
        rd = 1 + i % 31
        text = f"li {xreg(rd)}, {spell(v)}"
        li.append((text, v, rd))
        lines += [text, SEPARATOR]
    write_source(p("li.s"), lines)
    gl = gas_words(p("li.s"), p("li.o"), p("li_gnu.bin"))
    tl = tpugen_words(p("li.s"), p("li_tpugen.bin"))

    def split(ws):
        seqs, cur = [], []
        for w in ws:
            if w == 0x00000033:
                seqs.append(cur)
                cur = []
            else:
                cur.append(w)
        return seqs

    def sext(v, bits):
        v &= (1 << bits) - 1
        return v - (1 << bits) if v >> (bits - 1) else v

    def evaluate(seq, rd, extra=()):
        """the value rd holds after seq from a machine where only x0 is known;
        a string when seq is not a lui / addiw / addi / slli (+ extra) sequence on rd."""
        regs = {0: 0}
        for w in seq:
            op, d, f3, s1 = w & 0x7F, (w >> 7) & 31, (w >> 12) & 7, (w >> 15) & 31
            imm = sext(w >> 20, 12)
            if op == 0x37:
                name, val = "lui", sext((w >> 12) << 12, 32)
            elif op in (0x13, 0x1B) and s1 not in regs:
                return f"{w:08x} reads x{s1}, which the sequence has not written"
            elif op == 0x13 and f3 == 0:
                name, val = "addi", regs[s1] + imm
            elif op == 0x1B and f3 == 0:
                name, val = "addiw", sext(regs[s1] + imm, 32)
            elif op == 0x13 and f3 == 1 and w >> 26 == 0:
                name, val = "slli", regs[s1] << ((w >> 20) & 63)
            elif op == 0x13 and f3 == 5 and w >> 26 == 0 and "srli" in extra:
                name, val = "srli", (regs[s1] & MASK64) >> ((w >> 20) & 63)
            else:
                return f"{w:08x} is not lui / addiw / addi / slli"
            if d != rd:
                return f"{w:08x} ({name}) writes x{d}, not rd x{rd}"
            regs[d] = val & MASK64
        if rd not in regs:
            return "the sequence does not write rd"
        return regs[rd]

    gs, ts = split(gl), split(tl)
    if len(gs) != len(li) or len(ts) != len(li):
        fail(f"li: {len(li)} li lines, GNU as gave {len(gs)} sequences, tpugen {len(ts)}")
    rows, gnu_rows, longer = [], [], 0
    for i, ((text, v, rd), g, t) in enumerate(zip(li, gs, ts)):
        where = f"line {line_no(2 * i)} `{text}` (0x{v:016x})"
        got = evaluate(t, rd)
        if isinstance(got, str) or got != v:
            rows.append(f"{where}: tpugen's {' '.join(f'{w:08x}' for w in t)}: "
                        f"{got if isinstance(got, str) else f'gives 0x{got:016x}'}")
        elif not 1 <= len(t) <= 8:
            rows.append(f"{where}: tpugen uses {len(t)} instructions")
        got = evaluate(g, rd, ("srli",))
        if isinstance(got, str) or got != v:
            gnu_rows.append(f"{where}: GNU's {' '.join(f'{w:08x}' for w in g)}: "
                            f"{got if isinstance(got, str) else f'gives 0x{got:016x}'}")
        longer += len(t) > len(g)
    report("tpugen's li does not make its value", rows)
    report("GNU's li does not evaluate to its value here (a bug in this test's evaluator)", gnu_rows)
    run([TPUGEN, "ime", "disasm", p("li_tpugen.bin"), "-o", p("li_dis.s")], "tpugen ime disasm")
    if tpugen_words(p("li_dis.s"), p("li_again.bin")) != tl:
        fail("tpugen ime disasm | tpugen ime asm changes the li words")
    li_words = sum(len(t) for t in ts)
    gnu_li_words = sum(len(g) for g in gs)

    # 5. the other spellings of 64-bit values GNU as takes
    spellings = [("-9223372036854775808", 1 << 63), ("9223372036854775808", 1 << 63),
                 ("18446744073709551615", MASK64), ("-0x8000000000000000", 1 << 63),
                 ("-9223372036854775807", (1 << 63) + 1), ("0xffffffffffffffff", MASK64)]
    rows = []
    for k, (s, v) in enumerate(spellings):
        src = p(f"spell{k}.s")
        write_source(src, [f"li a0, {s}"])
        want = evaluate(gas_words(src, p(f"spell{k}.o"), p(f"spell{k}_gnu.bin")), 10, ("srli",))
        if want != v:
            continue                      # GNU as reads it otherwise: not held against tpugen
        write_source(p(f"spell{k}_hex.s"), [f"li a0, 0x{v:x}"])
        ref = tpugen_words(p(f"spell{k}_hex.s"), p(f"spell{k}_hex.bin"))
        r = run([TPUGEN, "ime", "asm", src, "-o", p(f"spell{k}.bin")], "tpugen", check=False)
        if r.returncode != 0:
            msg = (r.stdout + r.stderr).strip().splitlines()
            rows.append(f"`li a0, {s}` (0x{v:016x}; GNU as takes it): tpugen exits {r.returncode}: "
                        f"{msg[-1] if msg else ''}")
        elif words(p(f"spell{k}.bin")) != ref:
            rows.append(f"`li a0, {s}`: tpugen gives {words(p(f'spell{k}.bin'))}, `li a0, 0x{v:x}` {ref}")
    report("a 64-bit li value that GNU as takes is not taken by tpugen", rows)

print(f"{n_host} host instructions ({len(MNEMONICS)} mnemonics, {len(VTYPES)} vtype spellings) "
      f"compared with GNU as, round-tripped and disassembled")
print(f"{len(li)} li values: tpugen {li_words} words (at most 8 each), GNU as {gnu_li_words}; "
      f"tpugen longer than GNU as for {longer}")
if failures:
    print("\nFAIL:\n" + "\n\n".join(failures))
    sys.exit(1)
print("ok")
