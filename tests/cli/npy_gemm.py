#!/usr/bin/python3
"""Check `tpugen run` against NumPy: operands chosen here, written with
numpy.save, C read back with numpy.load and compared with clip(A @ B).
Usage: npy_gemm.py TPUGEN WORKDIR T MAXDIM MxKxN [--relu]"""
import subprocess
import sys
from pathlib import Path

import numpy as np


def main() -> int:
    tpugen, work, t, maxdim, shape = sys.argv[1:6]
    relu = "--relu" in sys.argv[6:]
    m, k, n = (int(x) for x in shape.split("x"))
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(2026)
    a = rng.integers(-128, 128, size=(m, k), dtype=np.int8)
    b = rng.integers(-128, 128, size=(k, n), dtype=np.int8)
    a[0, 0], b[-1, -1] = -128, 127
    np.save(work / "A.npy", a)
    np.save(work / "B.npy", b)
    cmd = [tpugen, "run", "--engine", "model", "--T", t, "--maxdim", maxdim, "--gemm", shape,
           "--a", str(work / "A.npy"), "--b", str(work / "B.npy"), "--c-out", str(work / "C.npy")]
    if relu:
        cmd.append("--relu")
    done = subprocess.run(cmd, capture_output=True, text=True)
    print(done.stdout, done.stderr)
    if done.returncode != 0:
        print(f"npy_gemm.py: tpugen exited {done.returncode}")
        return 1
    c = np.load(work / "C.npy")
    acc = a.astype(np.int64) @ b.astype(np.int64)
    if relu:
        acc = np.maximum(acc, 0)
    want = np.clip(acc, -128, 127).astype(np.int8)
    if c.dtype != np.int8 or c.shape != (m, n) or not np.array_equal(c, want):
        bad = np.argwhere(c != want) if c.shape == want.shape else []
        print(f"npy_gemm.py: mismatch; dtype {c.dtype} shape {c.shape}; first {bad[:1]}")
        return 1
    print(f"npy_gemm.py: C == clip(A @ B) for {shape} at T={t} MAXDIM={maxdim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
