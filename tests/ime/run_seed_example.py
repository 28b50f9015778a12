#!/usr/bin/env python3
"""tpugen ime asm | disasm | run on the seed's examples as programs
(examples/ime): the A60 smt.vmadot example (seed 5.1.6): the memory image
holds A and B^T, the run stores C, which must be the seed's; the program's
binary, disassembled and assembled again, is the same words; the JSON names
the end state. Then the A100 smt.vfwmadot (6.1.6) and smt.vmadot.hp (5.4.7)
examples, their C held to the seed's figures (numpy's float16 for .hp's
rounded steps)."""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

tpugen = sys.argv[1]
examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "ime")
source = os.path.join(examples, "vmadot_a60.s")
A = [0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7, 8, 9, 10, 11]
BT = [0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7, 8, 9, 11, 4, 5, 6, 7, 8, 9, 10]
C = [140, 168, 196, 224, 168, 204, 240, 284, 196, 240, 284, 344, 252, 312, 372, 464]


def tool(*args):
    r = subprocess.run([tpugen, "ime", *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"tpugen ime {' '.join(args)} exited {r.returncode}:\n{r.stdout}{r.stderr}")
    return r.stdout


with tempfile.TemporaryDirectory() as d:
    binary, again, text = (os.path.join(d, n) for n in ("p.bin", "again.bin", "p.s"))
    mem_in, mem_out, js = (os.path.join(d, n) for n in ("mem.bin", "out.bin", "run.json"))
    tool("asm", source, "-o", binary, "--profile", "A60")
    tool("disasm", binary, "-o", text)
    tool("asm", text, "-o", again)
    if open(binary, "rb").read() != open(again, "rb").read():
        sys.exit("the disassembly does not assemble to the same words")
    with open(mem_in, "wb") as f:
        f.write(bytes(A + BT + [0xAA] * 192))
    for program in (source, binary):
        tool("run", "--profile", "A60", "--program", program, "--mem-in", mem_in, "--mem-out", mem_out, "--json", js)
        out = open(mem_out, "rb").read()
        if len(out) != 256:
            sys.exit(f"--mem-out wrote {len(out)} bytes, not the 256 of --mem-in")
        got = list(struct.unpack("<16i", out[64:128]))
        if got != C:
            sys.exit(f"{program}: C = {got}, the seed's is {C}")
        if out[128:] != bytes([0xAA] * 128) or out[:64] != bytes(A + BT):
            sys.exit(f"{program}: the run wrote outside C")
        j = json.load(open(js))
        if j["status"] != "ok" or j["retired"] != j["words"] or j["state"]["vl"] != 16:
            sys.exit(f"{program}: the JSON says {j['status']}, {j['retired']} of {j['words']}, vl {j['state']['vl']}")

    def run_a100(name, memory, at, count, fmt):
        with open(mem_in, "wb") as f:
            f.write(memory)
        tool("run", "--profile", "A100", "--program", os.path.join(examples, name), "--mem-in", mem_in,
             "--mem-out", mem_out)
        return list(struct.unpack(f"<{count}{fmt}", open(mem_out, "rb").read()[at:at + count * struct.calcsize(fmt)]))

    # vfwmadot (6.1.6): A[r][k] = r + k, B^T[c][k] = c + k in fp16; C[3][0] is the seed's 224.0.
    ab = np.array([[r + k for k in range(8)] for r in range(8)], dtype=np.float16)
    got = run_a100("vfwmadot_a100.s", ab.tobytes() + ab.tobytes() + bytes(256), 256, 64, "f")
    want = [float(sum((r + k) * (c + k) for k in range(8))) for r in range(8) for c in range(8)]
    if got != want or got[24] != 224.0:
        sys.exit(f"vfwmadot_a100.s: C = {got}, the seed's is {want}")
    # .hp (5.4.7): A[r][k] = B^T[r][k] = r + k (8 x 16 int8), scale c = c + 1; three steps rounded to fp16.
    a = bytes(r + k for r in range(8) for k in range(16))
    scales = np.arange(1, 9, dtype=np.float16).tobytes()
    got = run_a100("vmadot_hp_a100.s", a + a + scales + bytes(1024 - 256 - 16), 512, 64, "e")
    want = [float(np.float16(np.float16(sum((r + k) * (c + k) for k in range(16))) * np.float16(c + 1)))
            for r in range(8) for c in range(8)]
    if got != want:
        sys.exit(f"vmadot_hp_a100.s: C = {got}, expected {want}")
print("ime run: the seed's A60 smt.vmadot example gives the seed's C, from the source and from its binary; "
      "the A100 vfwmadot and .hp examples give theirs")
