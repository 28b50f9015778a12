"""tpugen_cocotb: drive a tpugen-generated core from cocotb.

    from tpugen_cocotb import TpuConfig, Tpugen, driver_for

    cfg = TpuConfig.load()          # tpu_config.json of the build (TPUGEN_CONFIG)
    tpu = driver_for(dut, cfg)      # the driver of the configuration's top
    await tpu.reset()
    tpu.load(image, a, b, c)        # program words; MAXDIM x MAXDIM int8 A, B, C
    result = await tpu.run()        # start, then wait for done (or a fault)
    assert result.done, str(result)
    tpu.c                           # C after the run

`tpugen gen --vpi` copies this package beside the generated RTL; cocotb.mk
puts it on PYTHONPATH. See COCOTB.md there, or docs/cocotb.md in tpugen.
"""

from .config import AxiConfig, AxiStream, Counter, RegField, TpuConfig
from .driver import DRIVERS, CoreDriver, Progress, RunResult, TpuDriver, driver_for, matrix_bytes
from .axi import AxiChecker, AxiLiteHost, AxiMemory, AxiTiming
from .axi_driver import AxiDriver  # registers DRIVERS["axi"]
from .memory import (CWriteMemory, ImemMemory, OperandMemory, Port, PortStats, PortTiming, ProtocolError,
                     WriteReq)
from .tools import FuzzCase, Tpugen, random_matrix, read_image

__all__ = [
    "AxiConfig", "AxiStream", "Counter", "RegField", "TpuConfig", "DRIVERS", "CoreDriver", "AxiDriver",
    "AxiChecker", "AxiLiteHost", "AxiMemory", "AxiTiming", "Progress", "RunResult", "TpuDriver", "driver_for",
    "matrix_bytes", "CWriteMemory", "ImemMemory", "OperandMemory", "Port", "PortStats", "PortTiming",
    "ProtocolError", "WriteReq", "FuzzCase", "Tpugen", "random_matrix", "read_image",
]
