"""Shared by the cocotb test modules of tests/cocotb: a program on the core
from random (or given) DRAM images, C compared whole with the reference
model's (tpugen run --engine model)."""

import os
from pathlib import Path
from typing import Optional, Tuple

import numpy as np

from tpugen_cocotb import PortTiming, RunResult, TpuConfig, TpuDriver, Tpugen, driver_for, random_matrix


def setup(name: str) -> Tuple[TpuConfig, Tpugen]:
    """The configuration and tpugen, with a work directory for this test."""
    cfg = TpuConfig.load()
    work = Path(os.environ.get("TPUGEN_COCOTB_WORK", "work")) / name
    return cfg, Tpugen(cfg, work)


def operands(cfg: TpuConfig, seed: int):
    rng = np.random.default_rng(seed)
    return tuple(random_matrix(cfg, rng) for _ in range(3))


def first_differences(got: np.ndarray, want: np.ndarray, n: int = 5) -> str:
    idx = np.argwhere(got != want)
    shown = ", ".join(f"C[{r}][{c}]: core {got[r, c]}, model {want[r, c]}" for r, c in idx[:n])
    return f"{len(idx)} bytes differ: {shown}"


async def run_program(dut, cfg: TpuConfig, tools: Tpugen, program: Path, a, b, c,
                      timing: Optional[PortTiming] = None, seed: int = 1,
                      max_cycles: int = 200_000) -> Tuple[TpuDriver, RunResult]:
    """Assemble, run on the core, and check C against the model's, whole."""
    image = tools.assemble(program)
    tpu = driver_for(dut, cfg, timing=timing or PortTiming(), seed=seed)
    await tpu.reset()
    tpu.load(image, a, b, c)
    result = await tpu.run(max_cycles=max_cycles)
    assert result.done, f"{program.name}: {result}"
    expected = tools.run_model(program, a, b, c)
    got = tpu.c
    assert np.array_equal(got, expected), f"{program.name}: core != model: {first_differences(got, expected)}"
    dut._log.info("%s: C == model on all %d bytes after %d cycles", program.name, got.size, result.cycles)
    return tpu, result
