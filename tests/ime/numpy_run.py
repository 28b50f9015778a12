#!/usr/bin/env python3
"""An independent numpy cross-check of `tpugen ime run` on the A100 (VLEN 1024)
for the floating-point and block-quantised IME classes, in fp16 and in bf16
(--bf16, MCPM.BF16 = 1).

The reference is written from the rules of docs/ime.md, not from the model:

- smt.vfwmadot, smt.vfwmadot1/2/3 (8 x 8 x 8): A's rows [slide, slide + 8) of
  vs1 (and vs1 + 1 on the slides, 16 rows in all), B^T in vs2, C 8 x 8 fp32 in
  vd, vd + 1. Each product of two fp16 (bf16) elements widened to binary32 and
  added to C in K order, every multiply and every add rounded to nearest even
  in binary32 (np.float32 arithmetic, one step at a time), subnormals kept; a
  NaN result is 0x7FC00000.
- smt.vmadot{,u,us,su}.hp, i8 (8 x 16 x 8) and i4 (8 x 32 x 8): the exact
  integer sum over K, then F(sum), F(F(sum) x scale[c]), F(C + that), each F a
  rounding to nearest even in fp16 (numpy float16) or bf16 (a rounding from
  binary32 bits written here); scale[c] the c-th 16-bit float of group imm3
  (128 bits) of v0 / v1; C in vd alone; a NaN result is fp16 0x7E00, bf16 0x7FC0.

Each run is one program of many instructions on a random register image
(normal values, values that overflow, subnormals, infinities and NaNs, by
case); the whole register image tpugen writes must equal the reference's bit
for bit. On a mismatch the program's prefixes are run to find the first
instruction that differs, and its inputs, the expected and the got bits are
printed; the case's files are kept.

Usage: numpy_run.py TPUGEN [SEED]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

import numpy as np

VLEN = 1024
RB = VLEN // 8  # bytes a register
NREG = 32
M = N = 8
F32_NAN = 0x7FC00000
HP_NAN = {False: 0x7E00, True: 0x7FC0}

tpugen = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20260413
rng = np.random.default_rng(seed)


# --- Number formats -----------------------------------------------------------

def bf16_bits_to_f32(bits):
    """bf16 bits (any integer array) as the binary32 values they are the high half of."""
    return (np.asarray(bits, dtype=np.uint32) << np.uint32(16)).view(np.float32)


def fp16_bits_to_f32(bits):
    return np.asarray(bits, dtype=np.uint16).view(np.float16).astype(np.float32)


def f32_to_bf16_bits(x):
    """binary32 values rounded to nearest even in bf16 (the bits); NaN -> 0x7FC0.

    Round on the 16 bits dropped: add 0x7FFF plus the kept part's lowest bit,
    so that exactly half rounds to the even neighbour; a carry runs into the
    exponent (up to infinity), which is the right result for normals,
    subnormals and overflow alike."""
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    r[np.isnan(x)] = HP_NAN[True]
    return r


def hp_value(bits, bf16):
    """16-bit float bits (fp16 or bf16) as exact float64 values."""
    return (bf16_bits_to_f32(bits) if bf16 else fp16_bits_to_f32(bits)).astype(np.float64)


def hp_round(x, bf16):
    """float64 values rounded to nearest even in fp16 / bf16, their bits; NaN canonical.

    fp16: numpy's double -> half conversion, one rounding. bf16: to binary32
    (numpy, nearest even) and then to bf16 from the binary32 bits; both steps
    act on the exact result of one operation on 16-bit operands (or on an
    integer below 2^24), where the binary32 step loses nothing that matters
    (24 >= 2 x 8 + 2 bits, and float64's 53 >= 2 x 24 + 2)."""
    x = np.asarray(x, dtype=np.float64)
    if bf16:
        return f32_to_bf16_bits(x.astype(np.float32))
    r = x.astype(np.float16).view(np.uint16).copy()
    r[np.isnan(x)] = HP_NAN[False]
    return r


def self_check():
    """The roundings on values whose answer is known by hand."""
    f32 = lambda *u: np.array(u, dtype=np.uint32).view(np.float32)
    cases = [
        # bf16 from binary32 bits: ties to even, carries, overflow, subnormals, NaN
        (f32_to_bf16_bits(f32(0x3F808000, 0x3F818000, 0x3F808001, 0x3F7FFFFF)), [0x3F80, 0x3F82, 0x3F81, 0x3F80]),
        (f32_to_bf16_bits(f32(0x7F7F7FFF, 0x7F7F8000, 0x7F800000, 0xFF800000)), [0x7F7F, 0x7F80, 0x7F80, 0xFF80]),
        (f32_to_bf16_bits(f32(0x00008000, 0x00018000, 0x00000001, 0x80000000)), [0x0000, 0x0002, 0x0000, 0x8000]),
        (f32_to_bf16_bits(f32(0x7F800001, 0xFFC00000)), [0x7FC0, 0x7FC0]),
        # fp16: the integer sums' roundings and overflow (from 65520 on), NaN
        (hp_round([2049, 2051, 65519, 65520, -65520, 2.0 ** -25, 3 * 2.0 ** -26, np.nan], False),
         [0x6800, 0x6802, 0x7BFF, 0x7C00, 0xFC00, 0x0000, 0x0001, 0x7E00]),
        (hp_round([257, 259, -0.0, np.nan], True), [0x4380, 0x4382, 0x8000, 0x7FC0]),
    ]
    for got, want in cases:
        if [int(x) for x in got] != want:
            sys.exit(f"numpy_run.py: a rounding of the reference is wrong: {[hex(int(x)) for x in got]} != "
                     f"{[hex(x) for x in want]}")


# --- Register image access -----------------------------------------------------

def get(img, reg, dtype, count, byte_offset=0):
    start = reg * RB + byte_offset
    n = np.dtype(dtype).itemsize * count
    return np.frombuffer(img[start:start + n].tobytes(), dtype=np.dtype(dtype).newbyteorder("<")).copy()


def put(img, reg, values):
    b = np.asarray(values).astype(np.asarray(values).dtype.newbyteorder("<")).tobytes()
    img[reg * RB:reg * RB + len(b)] = np.frombuffer(b, dtype=np.uint8)


# --- The reference -------------------------------------------------------------

class Fw:
    """smt.vfwmadot (slide 0) / smt.vfwmadotS vd, vs1, vs2."""

    def __init__(self, slide, vd, vs1, vs2):
        self.slide, self.vd, self.vs1, self.vs2 = slide, vd, vs1, vs2
        self.key = "smt.vfwmadot" + (str(slide) if slide else "")

    def text(self):
        return f"{self.key} v{self.vd}, v{self.vs1}, v{self.vs2}"

    def dests(self):
        return [self.vd, self.vd + 1]

    def operands(self, img, bf16):
        rows = 16 if self.slide else 8
        widen = bf16_bits_to_f32 if bf16 else fp16_bits_to_f32
        a_bits = get(img, self.vs1, np.uint16, rows * 8).reshape(rows, 8)[self.slide:self.slide + M]
        b_bits = get(img, self.vs2, np.uint16, N * 8).reshape(N, 8)
        c_bits = get(img, self.vd, np.uint32, M * N).reshape(M, N)
        return a_bits, b_bits, c_bits, widen(a_bits), widen(b_bits)

    def run(self, img, bf16):
        _, _, c_bits, a, b = self.operands(img, bf16)
        acc = c_bits.view(np.float32).copy()
        with np.errstate(all="ignore"):
            for q in range(8):  # K order, C first: acc = acc + A[r][q] x B^T[c][q]
                product = np.multiply(a[:, q][:, None], b[:, q][None, :], dtype=np.float32)
                acc = np.add(acc, product, dtype=np.float32)
        out = acc.view(np.uint32).copy()
        out[np.isnan(acc)] = F32_NAN
        put(img, self.vd, out.reshape(-1))
        return out

    def explain(self, img, bf16, r, c):
        a_bits, b_bits, c_bits, _, _ = self.operands(img, bf16)
        return (f"A row {r + self.slide} = [{' '.join(f'{x:04x}' for x in a_bits[r])}], "
                f"B^T row {c} = [{' '.join(f'{x:04x}' for x in b_bits[c])}], C = {c_bits[r, c]:08x}")


SIGNS = {"u": (False, False), "us": (False, True), "su": (True, False), "": (True, True)}


class Hp:
    """smt.vmadot{sign}.hp vd, vs1, vs2, v{vscale}, imm3, {typ}."""

    def __init__(self, sign, typ, vd, vs1, vs2, vscale, imm3):
        self.sign, self.typ, self.vd, self.vs1, self.vs2 = sign, typ, vd, vs1, vs2
        self.vscale, self.imm3 = vscale, imm3
        self.key = f"smt.vmadot{sign}.hp {typ}"

    def text(self):
        return f"smt.vmadot{self.sign}.hp v{self.vd}, v{self.vs1}, v{self.vs2}, v{self.vscale}, {self.imm3}, {self.typ}"

    def dests(self):
        return [self.vd]

    def ints(self, img, reg, signed):
        raw = get(img, reg, np.uint8, RB).astype(np.int64)
        if self.typ == "i8":
            v = raw - 256 * (raw >= 128) if signed else raw
        else:  # element 2n in byte n's low nibble
            v = np.empty(2 * RB, dtype=np.int64)
            v[0::2], v[1::2] = raw & 15, raw >> 4
            if signed:
                v = v - 16 * (v >= 8)
        return v.reshape(8, -1)

    def steps(self, img, bf16):
        a_signed, b_signed = SIGNS[self.sign]
        a = self.ints(img, self.vs1, a_signed)
        b = self.ints(img, self.vs2, b_signed)
        total = a @ b.T  # exact, [r][c]
        scale = get(img, self.vscale, np.uint16, N, byte_offset=16 * self.imm3)
        c_bits = get(img, self.vd, np.uint16, M * N).reshape(M, N)
        with np.errstate(all="ignore"):
            f_sum = hp_round(total.astype(np.float64), bf16)
            scaled = hp_round(hp_value(f_sum, bf16) * hp_value(scale, bf16)[None, :], bf16)
            out = hp_round(hp_value(c_bits, bf16) + hp_value(scaled, bf16), bf16)
        return a, b, total, scale, c_bits, f_sum, scaled, out

    def run(self, img, bf16):
        out = self.steps(img, bf16)[-1]
        put(img, self.vd, out.reshape(-1))
        return out

    def explain(self, img, bf16, r, c):
        a, b, total, scale, c_bits, f_sum, scaled, _ = self.steps(img, bf16)
        return (f"A row {r} = {a[r].tolist()}, B^T row {c} = {b[c].tolist()}, sum = {total[r, c]}, "
                f"scale[{c}] = {scale[c]:04x}, C = {c_bits[r, c]:04x}; F(sum) = {f_sum[r, c]:04x}, "
                f"F(F(sum) x scale) = {scaled[r, c]:04x}")


# --- Random data ---------------------------------------------------------------

def float_bits(n, exp_bits, frac_bits, weights):
    """n random bit patterns of a binary format, by category (weights: name -> weight)."""
    names = list(weights)
    p = np.array([weights[k] for k in names], dtype=float)
    cat = rng.choice(len(names), size=n, p=p / p.sum())
    emax, bias = (1 << exp_bits) - 1, (1 << (exp_bits - 1)) - 1
    sign = rng.integers(0, 2, n, dtype=np.uint64) << np.uint64(exp_bits + frac_bits)
    frac = rng.integers(0, 1 << frac_bits, n, dtype=np.uint64)
    nonzero_frac = rng.integers(1, 1 << frac_bits, n, dtype=np.uint64)
    exps = {
        "zero": (np.zeros(n), np.zeros(n)),
        "sub": (np.zeros(n), nonzero_frac),
        "mid": (bias + rng.integers(-4, 5, n), frac),  # about 1/16 .. 16
        "any": (rng.integers(1, emax, n), frac),  # every normal exponent
        "big": (rng.integers(emax - 3, emax, n), frac),  # the top three binades
        "small": (rng.integers(1, 4, n), frac),  # the lowest normal binades
        "inf": (np.full(n, emax), np.zeros(n)),
        "nan": (np.full(n, emax), nonzero_frac),  # quiet and signalling, any payload
    }
    e = np.zeros(n, dtype=np.uint64)
    f = np.zeros(n, dtype=np.uint64)
    for i, name in enumerate(names):
        sel = cat == i
        e[sel] = np.asarray(exps[name][0], dtype=np.uint64)[sel]
        f[sel] = np.asarray(exps[name][1], dtype=np.uint64)[sel]
    return sign | (e << np.uint64(frac_bits)) | f


def bits16(n, bf16, weights):
    return float_bits(n, 8 if bf16 else 5, 7 if bf16 else 10, weights).astype(np.uint16)


def bits32(n, weights):
    return float_bits(n, 8, 23, weights).astype(np.uint32)


# Per case: the weights of the 16-bit inputs (A, B^T; scales) and of C.
ALL = ("zero", "sub", "mid", "any", "big", "small", "inf", "nan")
# A result reads 17 inputs (C and eight pairs; .hp: C and a scale), so the
# weights of infinities and NaNs are kept low enough for most results to stay finite.
FW_MODES = {
    "normal": ({"mid": 0.9, "zero": 0.05, "any": 0.05}, {"mid": 0.95, "zero": 0.05}),
    "overflow": ({"big": 0.5, "mid": 0.48, "inf": 0.02}, {"big": 0.6, "mid": 0.38, "inf": 0.02}),
    "subnormal": ({"sub": 0.5, "small": 0.2, "zero": 0.2, "mid": 0.1}, {"sub": 0.5, "small": 0.3, "zero": 0.2}),
    "nan": ({"nan": 0.02, "inf": 0.02, "zero": 0.2, "mid": 0.76}, {"nan": 0.1, "inf": 0.1, "mid": 0.8}),
    "mixed": ({**{k: 1.0 for k in ALL}, "inf": 0.1, "nan": 0.1}, {k: 1.0 for k in ALL}),
}
HP_MODES = {  # (scales, C, the integer data's styles)
    "normal": ({"mid": 0.9, "zero": 0.1}, {"mid": 0.9, "zero": 0.1}, ("rand", "mid", "mid", "small")),
    "overflow": ({"big": 0.5, "mid": 0.45, "inf": 0.05}, {"big": 0.5, "mid": 0.45, "inf": 0.05}, ("rand", "extreme")),
    "subnormal": ({"sub": 0.5, "small": 0.3, "zero": 0.2}, {"sub": 0.6, "small": 0.2, "zero": 0.2}, ("small", "mid")),
    "nan": ({"nan": 0.15, "inf": 0.15, "zero": 0.2, "mid": 0.5}, {"nan": 0.15, "inf": 0.15, "mid": 0.7},
            ("rand", "mid", "extreme", "small")),
    "mixed": ({k: 1.0 for k in ALL}, {k: 1.0 for k in ALL}, ("rand", "mid", "extreme", "small")),
}


def int_bytes(style):
    if style == "rand":
        return rng.integers(0, 256, RB, dtype=np.uint8)
    if style == "mid":  # -40 .. 40: i8 sums mostly within fp16's range
        return (rng.integers(-40, 41, RB) & 255).astype(np.uint8)
    if style == "small":  # -3 .. 3 in each byte, or in each nibble
        lo, hi = rng.integers(-3, 4, RB) & 15, rng.integers(-3, 4, RB) & 15
        whole = rng.integers(-3, 4, RB) & 255
        return np.where(rng.random(RB) < 0.5, lo | (hi << 4), whole).astype(np.uint8)
    # extreme: the ends of every range, as bytes and as nibbles
    return rng.choice(np.array([0x7F, 0x80, 0xFF, 0x00, 0x77, 0x88, 0x7F, 0x80], dtype=np.uint8), RB)


# --- Programs ------------------------------------------------------------------

def fw_case(bf16, mode, chained):
    """Eight vfwmadot* on disjoint destination pairs (each written once), their
    sources the other registers; `chained` adds four more on pairs already written."""
    w_in, w_c = FW_MODES[mode]
    img = np.zeros(NREG * RB, dtype=np.uint8)
    pairs = rng.permutation(16)
    src_pairs, dst_pairs = pairs[:8], pairs[8:]
    sources = sorted(int(2 * p + h) for p in src_pairs for h in (0, 1))
    for reg in sources:
        put(img, reg, bits16(RB // 2, bf16, w_in))
    for p in dst_pairs:
        put(img, int(2 * p), bits32(2 * RB // 4, w_c))
    instrs = []
    dests = [int(2 * p) for p in dst_pairs]
    if chained:
        dests += [int(x) for x in rng.choice(dests, 4)]
    for vd in dests:
        slide = int(rng.integers(0, 4))
        vs1 = int(2 * rng.choice(src_pairs)) if slide else int(rng.choice(sources))
        instrs.append(Fw(slide, vd, vs1, int(rng.choice(sources))))
    return img, instrs


def hp_case(bf16, mode, chained):
    """v0 and v1 hold the scales (8 groups each); ten source registers hold
    integer data; the other twenty are destinations, each written once (every
    signedness and type in turn), `chained` adding six on ones already written."""
    w_scale, w_c, styles = HP_MODES[mode]
    img = np.zeros(NREG * RB, dtype=np.uint8)
    put(img, 0, bits16(RB // 2, bf16, w_scale))
    put(img, 1, bits16(RB // 2, bf16, w_scale))
    regs = [int(r) for r in rng.permutation(np.arange(2, NREG))]
    sources, dests = regs[:10], regs[10:]
    for reg in sources:
        put(img, reg, int_bytes(styles[int(rng.integers(0, len(styles)))]))
    for reg in dests:
        put(img, reg, bits16(RB // 2, bf16, w_c))
    if chained:
        dests = dests + [int(x) for x in rng.choice(dests, 6)]
    variants = [(s, t) for t in ("i8", "i4") for s in ("", "u", "us", "su")]
    start = int(rng.integers(0, len(variants)))
    instrs = []
    for i, vd in enumerate(dests):
        sign, typ = variants[(start + i) % len(variants)]
        pool = sources + [0, 1] if rng.random() < 0.1 else sources  # now and then A or B^T from v0/v1
        instrs.append(Hp(sign, typ, vd, int(rng.choice(pool)), int(rng.choice(pool)), int(rng.integers(0, 2)),
                         int(rng.integers(0, 8))))
    return img, instrs


def hp_scale_register_case(bf16):
    """The scale register not named may be the destination: v1 written with v0's
    scales, then v0 written with v1's new values as its scales (in order)."""
    img = np.zeros(NREG * RB, dtype=np.uint8)
    for reg in (0, 1):
        put(img, reg, bits16(RB // 2, bf16, HP_MODES["normal"][0]))
    for reg in range(2, 10):
        put(img, reg, int_bytes("mid"))
    instrs = [Hp("", "i8", 1, 2, 3, 0, int(rng.integers(0, 8))), Hp("su", "i4", 0, 4, 5, 1, int(rng.integers(0, 8))),
              Hp("us", "i8", 1, 6, 7, 0, int(rng.integers(0, 8))), Hp("u", "i4", 8, 9, 2, 1, int(rng.integers(0, 8)))]
    return img, instrs


def seed_example_case():
    """Seed 5.4.7: smt.vmadot.hp v16, v2, v8, v0, 0, i8 with its data; the
    reference must give the seed's printed C (a check of the reference)."""
    img = np.zeros(NREG * RB, dtype=np.uint8)
    rows = np.array([[r + k for k in range(16)] for r in range(8)], dtype=np.uint8).reshape(-1)
    put(img, 2, rows)
    put(img, 8, rows)
    put(img, 0, np.arange(1, 9, dtype=np.float16).view(np.uint16))
    printed = [[1240, 2720, 4440, 6400, 8600, 11040, 13720, 16640],
               [1360, 2992, 4896, 7072, 9520, 12240, 15232, 18496],
               [1480, 3264, 5352, 7744, 10440, 13440, 16736, 20352],
               [1600, 3536, 5808, 8416, 11360, 14640, 18256, 22208],
               [1720, 3808, 6264, 9088, 12280, 15840, 19776, 24064],
               [1840, 4080, 6720, 9760, 13200, 17040, 21280, 25920],
               [1960, 4352, 7176, 10432, 14120, 18240, 22784, 27776],
               [2080, 4624, 7632, 11104, 15040, 19440, 24304, 29632]]
    instr = Hp("", "i8", 16, 2, 8, 0, 0)
    got = instr.run(img.copy(), False).view(np.float16).astype(np.float64).reshape(8, 8)
    if not np.array_equal(got, np.array(printed, dtype=np.float64)):
        sys.exit(f"numpy_run.py: the reference does not give seed 5.4.7's C:\n{got}")
    return img, [instr]


# --- Running and comparing -----------------------------------------------------

failures = []
counts = Counter()  # instructions per (key, format)
elements = Counter()  # result classes over all checked elements
runs = 0
workdir = tempfile.mkdtemp(prefix="ime_numpy_run.")


def tpugen_run(name, lines, img, bf16):
    """Run the program on the image; the register image it ends with (or None and the message)."""
    global runs
    runs += 1
    prog, vin, vout = (os.path.join(workdir, f"{name}.{x}") for x in ("s", "vregs_in.bin", "vregs_out.bin"))
    with open(prog, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    img.tofile(vin)
    cmd = [tpugen, "ime", "run", "--profile", "A100", "--program", prog, "--vregs-in", vin, "--vregs-out", vout]
    if bf16:
        cmd.append("--bf16")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"`{' '.join(cmd)}` exited {r.returncode}:\n{r.stdout}{r.stderr}"
    out = np.fromfile(vout, dtype=np.uint8)
    if out.size != NREG * RB:
        return None, f"--vregs-out holds {out.size} bytes, not {NREG * RB}"
    return out, None


def classify(instr, out, bf16):
    """Count the result classes (NaN, infinity, subnormal, zero, normal) of one instruction."""
    if isinstance(instr, Fw):
        exp, frac, e_all = (out >> 23) & 0xFF, out & 0x7FFFFF, 0xFF
        fmt = "fp32"
    else:
        fmt = "bf16" if bf16 else "fp16"
        shift, e_all, fmask = (7, 0xFF, 0x7F) if bf16 else (10, 0x1F, 0x3FF)
        exp, frac = (out >> shift) & e_all, out & fmask
    elements[(fmt, "NaN")] += int(np.sum((exp == e_all) & (frac != 0)))
    elements[(fmt, "inf")] += int(np.sum((exp == e_all) & (frac == 0)))
    elements[(fmt, "subnormal")] += int(np.sum((exp == 0) & (frac != 0)))
    elements[(fmt, "zero")] += int(np.sum((exp == 0) & (frac == 0)))
    elements[(fmt, "normal")] += int(np.sum((exp != 0) & (exp != e_all)))


def check_case(name, img, instrs, bf16):
    fmt = "bf16" if bf16 else "fp16"
    states = [img.copy()]
    for instr in instrs:
        state = states[-1].copy()
        classify(instr, instr.run(state, bf16), bf16)
        states.append(state)
        counts[(instr.key, fmt)] += 1
    lines = [i.text() for i in instrs]
    got, err = tpugen_run(name, lines, img, bf16)
    if err:
        failures.append(f"{name} ({fmt}): {err}")
        return
    if np.array_equal(got, states[-1]):
        return
    # Find the first instruction whose result differs: run the prefixes.
    for n in range(1, len(instrs) + 1):
        part, err = tpugen_run(f"{name}.prefix{n}", lines[:n], img, bf16)
        if err:
            failures.append(f"{name} ({fmt}), prefix of {n}: {err}")
            return
        if not np.array_equal(part, states[n]):
            break
    instr, before, want = instrs[n - 1], states[n - 1], states[n]
    msg = [f"{name} ({fmt}): instruction {n} of {len(instrs)}, `{instr.text()}`, differs from docs/ime.md's rule "
           f"(files in {workdir}/{name}.*):"]
    diff_regs = [r for r in range(NREG) if not np.array_equal(part[r * RB:(r + 1) * RB], want[r * RB:(r + 1) * RB])]
    stray = [r for r in diff_regs if r not in instr.dests()]
    if stray:
        msg.append(f"  registers outside the destination changed: {['v%d' % r for r in stray]}")
    width = np.uint32 if isinstance(instr, Fw) else np.uint16
    e_want = get(want, instr.dests()[0], width, M * N)
    e_got = get(part, instr.dests()[0], width, M * N)
    bad = np.nonzero(e_want != e_got)[0]
    digits = 8 if width is np.uint32 else 4
    for p in bad[:8]:
        r, c = divmod(int(p), N)
        msg.append(f"  C[{r}][{c}]: expected {int(e_want[p]):0{digits}x}, got {int(e_got[p]):0{digits}x}; "
                   f"{instr.explain(before, bf16, r, c)}")
    if len(bad) > 8:
        msg.append(f"  ... {len(bad)} of {M * N} elements differ")
    failures.append("\n".join(msg))


start = time.time()
self_check()
check_case("seed_5_4_7", *seed_example_case(), False)
for bf16 in (False, True):
    fmt = "bf16" if bf16 else "fp16"
    for mode in FW_MODES:
        for i in range(4):
            check_case(f"fw_{fmt}_{mode}_{i}", *fw_case(bf16, mode, chained=i % 2 == 1), bf16)
    for mode in HP_MODES:
        for i in range(4):
            check_case(f"hp_{fmt}_{mode}_{i}", *hp_case(bf16, mode, chained=i % 2 == 1), bf16)
    check_case(f"hp_{fmt}_scale_register", *hp_scale_register_case(bf16), bf16)
elapsed = time.time() - start

print(f"ime numpy_run (seed {seed}): {runs} runs of tpugen ime run on A100, {elapsed:.1f} s")
print("instructions checked (each 64 results, bit for bit):")
for key in sorted({k for k, _ in counts}):
    print(f"  {key:24s} fp16 {counts[(key, 'fp16')]:4d}   bf16 {counts[(key, 'bf16')]:4d}")
print("reference results by class:")
for fmt in ("fp32", "fp16", "bf16"):
    print(f"  {fmt}: " + ", ".join(f"{elements[(fmt, k)]} {k}" for k in ("normal", "subnormal", "zero", "inf", "NaN")))
if failures:
    print(f"\n{len(failures)} case(s) FAILED:", file=sys.stderr)
    for f in failures:
        print(f, file=sys.stderr)
    sys.exit(1)
shutil.rmtree(workdir)
print("tpugen ime run agrees with the numpy reference on every register of every case")
