"""The shipped vadd program (tpugen program vadd) on the core."""

import cocotb

from common import operands, run_program, setup
from tpugen_cocotb import PortTiming


@cocotb.test()
async def vadd_program(dut):
    cfg, tools = setup("vadd")
    a, b, c = operands(cfg, 3)
    await run_program(dut, cfg, tools, tools.program("vadd"), a, b, c)


@cocotb.test()
async def vadd_program_latency_backpressure(dut):
    cfg, tools = setup("vadd_bp")
    a, b, c = operands(cfg, 4)
    await run_program(dut, cfg, tools, tools.program("vadd"), a, b, c,
                      timing=PortTiming(latency=2, backpressure=0.25), seed=4)
