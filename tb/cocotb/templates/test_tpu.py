"""An example cocotb test of a tpugen configuration: the shipped vadd program
on random operands, C compared with the reference model's. Written by
@GENERATOR@ (gen --vpi) for @PARAMS@; run it with `make`."""

import numpy as np

import cocotb

from tpugen_cocotb import PortTiming, TpuConfig, Tpugen, driver_for, random_matrix


@cocotb.test()
async def vadd_matches_model(dut):
    cfg = TpuConfig.load()                          # this build's tpu_config.json
    tools = Tpugen(cfg, workdir="tpu_work")         # tpugen with cfg's parameters
    program = tools.program("vadd")                 # tpu_work/vadd.s
    image = tools.assemble(program)                 # its 64-bit words

    rng = np.random.default_rng(1)
    a, b, c = (random_matrix(cfg, rng) for _ in range(3))
    tpu = driver_for(dut, cfg, timing=PortTiming(latency=2, backpressure=0.2))
    await tpu.reset()
    tpu.load(image, a, b, c)
    result = await tpu.run(max_cycles=100_000)
    assert result.done, str(result)

    expected = tools.run_model(program, a, b, c)    # tpugen run --engine model
    assert np.array_equal(tpu.c, expected), f"C differs at {np.argwhere(tpu.c != expected)[:5].tolist()}"
    dut._log.info("vadd: C matches the model after %d cycles", result.cycles)
