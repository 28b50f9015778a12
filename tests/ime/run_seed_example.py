#!/usr/bin/env python3
"""tpugen ime asm | disasm | run on the seed's A60 smt.vmadot example (seed
5.1.6, examples/ime/vmadot_a60.s): the memory image holds A and B^T, the run
stores C, which must be the seed's; the program's binary, disassembled and
assembled again, is the same words; and the JSON names the end state."""
import json
import os
import struct
import subprocess
import sys
import tempfile

tpugen = sys.argv[1]
source = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "ime", "vmadot_a60.s")
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
print("ime run: the seed's A60 smt.vmadot example gives the seed's C, from the source and from its binary")
