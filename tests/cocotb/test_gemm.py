"""The shipped GEMM (tpugen program gemm) on the core: C against the
reference model's whole, and against clip(A @ B) on the result."""

import numpy as np

import cocotb

from common import operands, run_program, setup
from tpugen_cocotb import PortTiming, TpuConfig


async def gemm(dut, m: int, k: int, n: int, relu: bool = False, timing: PortTiming = None, seed: int = 1):
    shape = f"{m}x{k}x{n}"
    cfg, tools = setup(f"gemm_{shape}{'_relu' if relu else ''}")
    program = tools.program("gemm", f"gemm_{shape}.s", "--gemm", shape, *(["--relu"] if relu else []))
    a, b, c = operands(cfg, seed)
    tpu, _ = await run_program(dut, cfg, tools, program, a, b, c, timing=timing, seed=seed)
    # Independently of the model: the M x N result is clip(A @ B) (relu
    # first), and C outside it keeps its prefill.
    acc = a[:m, :k].astype(np.int64) @ b[:k, :n].astype(np.int64)
    if relu:
        acc = np.maximum(acc, 0)
    want = np.clip(acc, -128, 127).astype(np.int8)
    got = tpu.c
    assert np.array_equal(got[:m, :n], want), "C != clip(A @ B)"
    outside = np.ones_like(got, dtype=bool)
    outside[:m, :n] = False
    assert np.array_equal(got[outside], c[outside]), "C outside the result lost its prefill"


@cocotb.test()
async def gemm_maxdim_cubed(dut):
    d = TpuConfig.load().maxdim
    await gemm(dut, d, d, d)


@cocotb.test()
async def gemm_small_relu_backpressure(dut):
    t = TpuConfig.load().parameters["T"]
    await gemm(dut, 2 * t, 3 * t, t, relu=True, timing=PortTiming(latency=3, backpressure=0.3), seed=7)
