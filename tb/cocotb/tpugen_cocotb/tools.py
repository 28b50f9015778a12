"""The tpugen command line from a test: programs, images, the reference model,
fuzz programs. Every call carries the configuration's spec and build
parameters, so what it makes fits the core under test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Union

import numpy as np

from .config import TpuConfig

PathLike = Union[str, os.PathLike]


def read_image(path: PathLike) -> List[int]:
    """A program image as 64-bit words: .hex/.mem ($readmemh text, one word a
    line, // comments, @addr) or binary (little-endian 64-bit words)."""
    p = Path(path)
    if p.suffix in (".hex", ".mem"):
        words: List[int] = []
        at = 0
        for lineno, line in enumerate(p.read_text().splitlines(), 1):
            for tok in line.split("//")[0].split():
                try:
                    v = int(tok[1:] if tok.startswith("@") else tok, 16)
                except ValueError:
                    raise ValueError(f"{p}:{lineno}: '{tok}' is not a hex word") from None
                if tok.startswith("@"):
                    at = v
                    continue
                words.extend([0] * (at + 1 - len(words)))
                words[at] = v
                at += 1
        return words
    data = p.read_bytes()
    if len(data) % 8:
        raise ValueError(f"{p}: {len(data)} bytes is not a whole number of 64-bit words")
    return [int.from_bytes(data[i:i + 8], "little") for i in range(0, len(data), 8)]


def random_matrix(config: TpuConfig, rng: np.random.Generator, low: int = -128, high: int = 127) -> np.ndarray:
    """A MAXDIM x MAXDIM int8 DRAM image, uniform over [low, high]."""
    return rng.integers(low, high + 1, size=(config.maxdim, config.maxdim), dtype=np.int16).astype(np.int8)


@dataclass
class FuzzCase:
    """A random legal program from `tpugen fuzz --emit` and its DRAM images."""

    seed: int
    dir: Path
    program: Path   #: program.s
    a: np.ndarray   #: MAXDIM x MAXDIM int8
    b: np.ndarray
    c: np.ndarray   #: C's prior contents


class Tpugen:
    """tpugen, run with a configuration's spec and build parameters.

    exe: the tpugen binary; default $TPUGEN, else `tpugen` on PATH.
    workdir: where files it writes go by default (created)."""

    def __init__(self, config: TpuConfig, workdir: PathLike, exe: Optional[str] = None):
        self.config = config
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        exe = exe or os.environ.get("TPUGEN") or shutil.which("tpugen")
        if not exe:
            raise RuntimeError("tpugen not found: set TPUGEN to the binary (e.g. build/tpugen) or put it on PATH")
        self.exe = exe

    def param_args(self) -> List[str]:
        """The build parameters as tpugen flags (--t 4 --maxdim 16 ...)."""
        return [a for name, v in self.config.parameters.items()
                for a in (f"--{name.lower().replace('_', '-')}", str(v))]

    def __call__(self, command: str, *args: str, params: bool = True) -> str:
        """Run `tpugen --spec SPEC COMMAND [parameters] ARGS`; its stdout.
        Raises RuntimeError with its output when it fails."""
        cmd = [self.exe, "--spec", self.config.spec, command, *(self.param_args() if params else []), *map(str, args)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed (exit {p.returncode}):\n{p.stdout}")
        return p.stdout

    def _path(self, name: PathLike) -> Path:
        p = Path(name)
        return p if p.is_absolute() else self.workdir / p

    def program(self, name: str, out: Optional[PathLike] = None, *args: str) -> Path:
        """A program of tpugen's library (gemm, vadd, vector, ar-distance) as
        assembly; args: its options, e.g. "--gemm", "16x16x16", "--relu"."""
        path = self._path(out or f"{name}.s")
        self("program", name, *args, "-o", path)
        return path

    def assemble(self, source: PathLike, out: Optional[PathLike] = None) -> List[int]:
        """Assemble (checking every contract) into an image: its 64-bit words."""
        src = Path(source)
        path = self._path(out or src.with_suffix(".hex").name)
        self("asm", src, "-o", path, params=True)
        return read_image(path)

    def run_model(self, program: PathLike, a: np.ndarray, b: np.ndarray, c: np.ndarray,
                  name: Optional[str] = None) -> np.ndarray:
        """C after `program` on the reference model (tpugen run --engine model)
        from these DRAM images: MAXDIM x MAXDIM int8."""
        stem = self.workdir / (name or Path(program).stem)
        files = {}
        for k, m in (("a", a), ("b", b), ("c", c)):
            files[k] = Path(f"{stem}.{k}.npy")
            np.save(files[k], np.asarray(m, dtype=np.int8).reshape(self.config.maxdim, self.config.maxdim))
        c_out = Path(f"{stem}.model_c.npy")
        self("run", "--engine", "model", "--program", program, "--a", files["a"], "--b", files["b"],
             "--c-in", files["c"], "--c-out", c_out)
        return np.load(c_out)

    def fuzz_cases(self, seed: int, count: int, out: Optional[PathLike] = None, *args: str) -> List[FuzzCase]:
        """`count` random legal programs from seed `seed` on (tpugen fuzz
        --emit): deterministic by seed."""
        path = self._path(out or f"fuzz-{seed}")
        self("fuzz", "--emit", path, "--seed", seed, "--count", count, *args)
        cases = []
        for s in range(seed, seed + count):
            d = path / f"seed-{s}"
            cases.append(FuzzCase(s, d, d / "program.s", np.load(d / "A.npy"), np.load(d / "B.npy"),
                                  np.load(d / "C.npy")))
        return cases
