#!/usr/bin/python3
"""The portability gate's simulation: one GEMM on the generated core under
Icarus Verilog must give exactly clip(A @ B) and leave the rest of C alone,
and equal what Verilator computes (tpugen run --engine rtl) for the same
operands.
Usage: icarus_gemm.py TPUGEN WORKDIR T MAXDIM MxKxN [GENERATOR OPTIONS...]
(generator options such as --c-beat 4 go to both `tpugen gen` and `tpugen run`)"""
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def run(cmd, **kw):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if done.returncode != 0:
        print(done.stdout, done.stderr)
        raise SystemExit(f"icarus_gemm.py: {' '.join(map(str, cmd))} exited {done.returncode}")
    return done.stdout


def write_bytes_hex(path, array):
    path.write_text("".join(f"{int(v) & 0xff:02x}\n" for v in array.reshape(-1)))


def main() -> int:
    tpugen, work, t, maxdim, shape = sys.argv[1:6]
    options = sys.argv[6:]
    t, maxdim = int(t), int(maxdim)
    m, k, n = (int(x) for x in shape.split("x"))
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    params = ["--T", str(t), "--maxdim", str(maxdim)]
    run([tpugen, "gen", *params, *options, "--out", work / "rtl"])
    run([tpugen, "program", "gemm", *params, "--gemm", shape, "--relu", "-o", work / "prog.hex"])

    rng = np.random.default_rng(7)
    a = rng.integers(-128, 128, size=(m, k), dtype=np.int8)
    b = rng.integers(-128, 128, size=(k, n), dtype=np.int8)
    a[0, 0], b[-1, -1] = -128, 127
    c_prefill = rng.integers(-128, 128, size=(maxdim, maxdim), dtype=np.int8)
    dram_a = np.zeros((maxdim, maxdim), dtype=np.int8)
    dram_b = np.zeros((maxdim, maxdim), dtype=np.int8)
    dram_a[:m, :k] = a
    dram_b[:k, :n] = b
    write_bytes_hex(work / "a.hex", dram_a)
    write_bytes_hex(work / "b.hex", dram_b)
    write_bytes_hex(work / "c.hex", c_prefill)

    files = [work / "rtl" / f for f in (work / "rtl" / "files.f").read_text().split()]
    import json
    cfg = json.loads((work / "rtl" / "params.json").read_text())
    run(["iverilog", "-g2012", f"-I{HERE}", "-o", work / "icarus.vvp", "-s", "icarus_tb",
         f"-Picarus_tb.MAXDIM={maxdim}", f"-Picarus_tb.T={t}",
         f"-Picarus_tb.DMA_WORDS={cfg['parameters']['DMA_WORDS']}",
         f"-Picarus_tb.ImemBeat={cfg['options']['imem_beat_words']}",
         f"-Picarus_tb.CBeat={cfg['options']['c_beat_words']}", *files, HERE / "icarus_tb.sv"])
    out = run(["vvp", "-n", work / "icarus.vvp", f"+IMEM={work / 'prog.hex'}", f"+A={work / 'a.hex'}",
               f"+B={work / 'b.hex'}", f"+C={work / 'c.hex'}", f"+COUT={work / 'c_out.hex'}"])
    print(out.strip())
    if "DONE" not in out:
        print("icarus_gemm.py: the run did not finish")
        return 1
    c_icarus = np.array([int(x, 16) for x in (work / "c_out.hex").read_text().split()], dtype=np.uint8)
    c_icarus = c_icarus.view(np.int8).reshape(maxdim, maxdim)
    want = c_prefill.copy()
    want[:m, :n] = np.clip(np.maximum(a.astype(np.int64) @ b.astype(np.int64), 0), -128, 127).astype(np.int8)
    if not np.array_equal(c_icarus, want):
        bad = np.argwhere(c_icarus != want)
        print(f"icarus_gemm.py: Icarus C differs from clip(relu(A @ B)) at {bad[:3].tolist()} ({len(bad)} elements)")
        return 1

    np.save(work / "A.npy", a)
    np.save(work / "B.npy", b)
    np.save(work / "Cin.npy", c_prefill[:m, :n])
    run([tpugen, "run", "--engine", "rtl", *params, *options, "--gemm", shape, "--relu", "--a", work / "A.npy",
         "--b", work / "B.npy", "--c-in", work / "Cin.npy", "--c-out", work / "Cv.npy"])
    c_verilator = np.load(work / "Cv.npy")
    if not np.array_equal(c_verilator, c_icarus[:m, :n]):
        print("icarus_gemm.py: Verilator and Icarus disagree")
        return 1
    print(f"icarus_gemm.py: Icarus and Verilator both compute clip(relu(A @ B)) for {shape} at T={t} MAXDIM={maxdim}"
          f" {' '.join(options)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
