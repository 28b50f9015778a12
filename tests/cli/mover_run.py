#!/usr/bin/env python3
"""`tpugen mover run` end to end: the examples in examples/mover over a memory
image, each result checked against a second, plain reading of
mover-notes.md written here in Python (COPY with padding, GATHER, GENERATE
with its own Philox-4x32-10), and the report's keys.

Usage: mover_run.py TPUGEN EXAMPLES_DIR WORK_DIR [ENGINE_ARG...]

ENGINE_ARG...: added to every `mover run` (e.g. --engine both --latency 20
--stall 0.2): with the RTL engine the report's cycles and bus_utilization
are numbers, and `both` exits 1 on any RTL/model difference.
"""
import json
import os
import random
import subprocess
import sys

BASE = 0x10000
SIZE = 0x10000
MASK32 = 0xFFFFFFFF


def run(tpugen, move, mem, work, extra=()):
    mem_in = os.path.join(work, "mem.bin")
    mem_out = os.path.join(work, "out.bin")
    report = os.path.join(work, "report.json")
    with open(mem_in, "wb") as f:
        f.write(mem)
    cmd = [tpugen, "mover", "run", "--move", move, "--mem-in", mem_in, "--mem-base", hex(BASE),
           "--mem-out", mem_out, "--json", report, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stdout, p.stderr, end="")
    if p.returncode != 0:
        sys.exit(f"mover_run: {' '.join(cmd)} exited {p.returncode}")
    with open(mem_out, "rb") as f:
        out = f.read()
    with open(report) as f:
        rep = json.load(f)
    for key in ("fault_code", "fault_name", "moves_done", "words_read", "words_written", "cycles", "bus_utilization"):
        if key not in rep:
            sys.exit(f"mover_run: the report lacks '{key}'")
    if rep["engine"] != "model":
        if not isinstance(rep["cycles"], int) or not isinstance(rep["bus_utilization"], (int, float)):
            sys.exit("mover_run: the RTL engine's report has no cycles or bus_utilization figure")
        if rep["rtl"]["checker_errors"] or rep["rtl"]["harness_errors"]:
            sys.exit("mover_run: the RTL run reported protocol or harness errors")
    if len(out) != len(mem):
        sys.exit("mover_run: --mem-out is not the extent of --mem-in")
    return out, rep


def word(mem, addr):
    return mem[addr - BASE:addr - BASE + 32]


def expect(cond, what):
    if not cond:
        sys.exit(f"mover_run: {what}")
    print(f"  ok: {what}")


def philox(ctr, key, rounds=10):
    """Philox-4x32-R as Random123 defines it, written out here."""
    m0, m1, w0, w1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
    c = list(ctr)
    k = list(key)
    for r in range(rounds):
        if r:
            k = [(k[0] + w0) & MASK32, (k[1] + w1) & MASK32]
        p0, p1 = m0 * c[0], m1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK32, (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK32]
    return c


def generate_word(seed, addr):
    w = addr >> 5
    out = b""
    for h in range(2):
        ctr = [w & MASK32, (((w >> 32) & 7) << 1) | h, 0, 0]
        for v in philox(ctr, [seed & MASK32, seed >> 32]):
            out += v.to_bytes(4, "little")
    return out


def main():
    tpugen, examples, work = sys.argv[1], sys.argv[2], sys.argv[3]
    engine_args = sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    rng = random.Random(14)
    mem = bytes(rng.randrange(256) for _ in range(SIZE))

    # The Random123 known answer, through Python's Philox (checks the checker).
    expect(philox([0, 0, 0, 0], [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8],
           "this script's Philox gives Random123's all-zero answer")

    # COPY, 2-D: 4 rows of 8 words, rows 256 bytes apart, to 0x18000.
    out, rep = run(tpugen, os.path.join(examples, "copy_2d.json"), mem, work, engine_args)
    ok = all(word(out, 0x18000 + 256 * i + 32 * j) == word(mem, BASE + 256 * i + 32 * j)
             for i in range(4) for j in range(8))
    expect(ok and rep["fault_code"] == 0 and rep["words_read"] == 32, "copy_2d: 32 words where they belong")

    # COPY with padding: 12 destination words; source element e at 0xFFC0 + 32 e
    # is on axis 0 at coordinate e - 2, in bounds for 0 <= e - 2 < 8, else the
    # 16-bit fill 0x7FC0.
    out, rep = run(tpugen, os.path.join(examples, "pad_row.json"), mem, work, engine_args)
    fill = (0x7FC0).to_bytes(2, "little") * 16
    ok = all(word(out, 0x18000 + 32 * e) == (word(mem, 0xFFC0 + 32 * e) if 0 <= e - 2 < 8 else fill)
             for e in range(12))
    expect(ok and rep["words_read"] == 8 and rep["words_written"] == 12, "pad_row: 2 fill words, 8 copied, 2 fill")

    # GATHER: 16 indices at 0x10000, rows of 4 words at 0x11000 + index * 128.
    index = [rng.randrange(64) for _ in range(16)]
    g = bytearray(mem)
    for i, v in enumerate(index):
        g[4 * i:4 * i + 4] = v.to_bytes(4, "little")
    g = bytes(g)
    out, rep = run(tpugen, os.path.join(examples, "gather.json"), g, work, engine_args)
    ok = all(word(out, 0x18000 + 32 * e) == word(g, 0x11000 + index[e // 4] * 128 + 32 * (e % 4)) for e in range(64))
    expect(ok and rep["words_read"] == 2 + 64, "gather: 64 words from their rows, 2 index words read")

    # GENERATE: 256 words of Philox(seed, address).
    out, rep = run(tpugen, os.path.join(examples, "generate.json"), mem, work, engine_args)
    seed = 0x243F6A8885A308D3
    ok = all(word(out, BASE + 32 * i) == generate_word(seed, BASE + 32 * i) for i in range(256))
    expect(ok and rep["words_read"] == 0, "generate: every word Philox-4x32-10 of (seed, address)")

    # XFORM through the quantiser: 32 words in, 4 entries, 16 words out.
    out, rep = run(tpugen, os.path.join(examples, "quantise.json"), mem, work, engine_args)
    expect(rep["fault_code"] == 0 and rep["words_written"] == 16, "quantise: 4 entries of 4 words")

    # An access outside the image: DECERR, fault 3; SLVERR injected: fault 3.
    out, rep = run(tpugen, os.path.join(examples, "copy_2d.json"), mem[:0x800], work, engine_args)
    expect(rep["fault_code"] == 3 and rep["fault_name"] == "AXI_RESPONSE", "copy_2d over a 2 KiB image: fault 3")
    out, rep = run(tpugen, os.path.join(examples, "copy_2d.json"), mem, work, ["--slverr", hex(0x18000 + 256)] + engine_args)
    expect(rep["fault_code"] == 3, "an injected SLVERR on a destination word: fault 3")


if __name__ == "__main__":
    main()
