"""Drivers: a cocotb test's handle on the generated core.

`TpuDriver` is what a test uses, whatever the configuration's top: reset,
load (program image and the DRAM matrices), start, wait_done, and C after the
run. `CoreDriver` drives tpu_top's native valid/ready memory ports with the
models of memory.py, one cycle at a time, like the C++ harness
(tb/sim/harness/sim_main.cpp). AxiDriver (axi_driver.py) drives the AXI top,
tpu_axi_top. `driver_for(dut)` picks the driver for the configuration's top
(tpu_config.json "top_kind"), so tests written against TpuDriver run
unchanged on either.

Adding a top: subclass TpuDriver, implement reset/load/start/wait_done/c,
and add it to DRIVERS under its top_kind.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Type, Union

import numpy as np

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge, ReadOnly, RisingEdge

from .config import TpuConfig
from .memory import CWriteMemory, ImemMemory, OperandMemory, PortTiming, WriteReq

Matrix = Union[bytes, bytearray, np.ndarray]


@dataclass
class Progress:
    """One progress counter at the end of a run: work done / the header's count."""

    name: str
    unit: str
    done: int
    count: int


@dataclass
class RunResult:
    """How a run ended.

    status: "done", "fault", "timeout" or "protocol_error". fault: the fault
    name (tpu_pkg::FAULT_*, e.g. "OPCODE") when status is "fault", else None.
    cycles: from the start pulse to the cycle done_o (or fault_o) was seen.
    """

    status: str
    cycles: int
    fault: Optional[str] = None
    fault_code: int = 0
    fault_pc: int = 0
    fault_unit: Optional[str] = None
    core_cycles: int = 0
    progress: List[Progress] = field(default_factory=list)
    protocol_errors: List[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.status == "done"

    def __str__(self) -> str:
        s = f"{self.status} after {self.cycles} cycles (core cycles_o {self.core_cycles})"
        if self.status == "fault":
            s += f": fault {self.fault} ({self.fault_code}) at instruction {self.fault_pc}, unit {self.fault_unit}"
        if self.status != "done":
            for p in self.progress:
                mark = "  <- short" if p.done < p.count else "  <- past its count" if p.done > p.count else ""
                s += f"\n    {p.name} {p.done}/{p.count}  ({p.unit}){mark}"
        for e in self.protocol_errors:
            s += f"\n    protocol error, {e}"
        return s


def matrix_bytes(m: Matrix, config: TpuConfig, name: str) -> bytes:
    """A DRAM matrix as MAXDIM * MAXDIM row-major int8 bytes."""
    if isinstance(m, (bytes, bytearray)):
        data = bytes(m)
    else:
        arr = np.asarray(m)
        if arr.dtype not in (np.int8, np.uint8):
            if arr.min(initial=0) < -128 or arr.max(initial=0) > 127:
                raise ValueError(f"{name} has values outside int8")
            arr = arr.astype(np.int8)
        data = np.ascontiguousarray(arr).tobytes()
    if len(data) != config.matrix_bytes:
        raise ValueError(f"{name} holds {len(data)} bytes; a MAXDIM x MAXDIM matrix is {config.matrix_bytes} "
                         f"(pad it: the DRAM image is MAXDIM x MAXDIM, row-major)")
    return data


class TpuDriver:
    """What a test needs from the core. Subclasses implement one top."""

    config: TpuConfig

    async def reset(self) -> None:
        """Start the clock (if this driver owns it) and reset the core."""
        raise NotImplementedError

    def load(self, image: Sequence[int], a: Matrix, b: Matrix, c: Optional[Matrix] = None) -> None:
        """The program image (64-bit words, header first) and the DRAM images
        of A, B and C's prior contents (MAXDIM x MAXDIM int8; C default zeros)."""
        raise NotImplementedError

    async def start(self) -> None:
        """Start the loaded program: returns once the start has been taken."""
        raise NotImplementedError

    async def wait_done(self, max_cycles: Optional[int] = None) -> RunResult:
        """Wait for done_o or fault_o (or a protocol error, or max_cycles)."""
        raise NotImplementedError

    @property
    def c(self) -> np.ndarray:
        """C as the memory holds it now: MAXDIM x MAXDIM int8."""
        raise NotImplementedError

    async def run(self, max_cycles: Optional[int] = None) -> RunResult:
        """start() then wait_done()."""
        await self.start()
        return await self.wait_done(max_cycles)

    def _image_words(self, image: Sequence[int]) -> List[int]:
        """What load() checks of every top: no run in progress, and an image
        (as 64-bit words) that fits imem."""
        run = getattr(self, "_run", None)
        if run is not None and run.result is None:
            raise RuntimeError("load() while a run is in progress: wait_done() first")
        words = [int(w) & (2**64 - 1) for w in image]
        if len(words) > self.config.imem_size:
            raise ValueError(f"the image holds {len(words)} words; IMEM_SIZE is {self.config.imem_size}")
        return words


class _Run:
    def __init__(self, max_cycles: int):
        self.max_cycles = max_cycles
        self.start_cycle: Optional[int] = None
        self.result: Optional[RunResult] = None
        self.started = Event("started")
        self.finished = Event("finished")


class CoreDriver(TpuDriver):
    """tpu_top's native ports: the imem read port, the operand read port
    (dram_rd_*) and the C write port (dram_wr_*), served by the memory
    models, plus start_i / done_o / fault_o.

    Each cycle, on the falling clock edge, the memories drive their side
    (data buses carry noise while their valid is low, so a core that uses
    data without valid shows it); in the read-only phase before the rising
    edge the core's side is sampled and the handshakes committed. timing:
    latency and random backpressure of every port (seeded by `seed`).
    """

    DEFAULT_MAX_CYCLES = 2_000_000

    def __init__(self, dut, config: Optional[TpuConfig] = None, timing: Optional[PortTiming] = None,
                 seed: int = 1, clock_period_ns: int = 10, start_clock: bool = True, reset_cycles: int = 5):
        self.dut = dut
        self.config = config or TpuConfig.load()
        if self.config.top_kind != "core":
            raise ValueError(f"CoreDriver drives tpu_top's native ports; this configuration's top is "
                             f"{self.config.top} ({self.config.top_kind}): use driver_for()")
        self.timing = timing or PortTiming()
        self.seed = seed
        self.clock_period_ns = clock_period_ns
        self.start_clock = start_clock
        self.reset_cycles = reset_cycles
        self._noise = random.Random(seed ^ 0x9E3779B97F4A7C15)
        self._clock = None
        self._loop = None
        self._cycle = 0
        self._run: Optional[_Run] = None
        self._start_pending = False
        cfg = self.config
        self._imem_bits = 64 * cfg.imem_beat_words
        self._rd_bits = 8 * cfg.read_beat_bytes
        self._wr_bytes = cfg.write_beat_bytes
        self.load([], bytes(cfg.matrix_bytes), bytes(cfg.matrix_bytes))
        # Handles, looked up once (each lookup by name costs a VPI call).
        self._h = {name: getattr(dut, name) for name in (
            "clk_i", "rst_ni", "start_i", "done_o", "fault_o", "fault_pc_o", "fault_unit_o", "progress_o",
            "header_o", "cycles_o",
            "imem_req_valid_o", "imem_req_ready_i", "imem_req_addr_o", "imem_rsp_valid_i", "imem_rsp_ready_o",
            "imem_rsp_data_i",
            "dram_rd_req_valid_o", "dram_rd_req_ready_i", "dram_rd_req_sel_o", "dram_rd_req_addr_o",
            "dram_rd_rsp_valid_i", "dram_rd_rsp_ready_o", "dram_rd_rsp_data_i",
            "dram_wr_req_valid_o", "dram_wr_req_ready_i", "dram_wr_req_addr_o", "dram_wr_req_data_o",
            "dram_wr_req_strb_o", "dram_wr_rsp_valid_i", "dram_wr_rsp_ready_o")}

    # --- loading -----------------------------------------------------------------
    def load(self, image: Sequence[int], a: Matrix, b: Matrix, c: Optional[Matrix] = None,
             timing: Optional[PortTiming] = None) -> None:
        cfg = self.config
        words = self._image_words(image)
        if timing is not None:
            self.timing = timing
        s = self.seed
        self.imem = ImemMemory(words, cfg.imem_beat_words, cfg.imem_size, self.timing, s * 3 + 1)
        self.rd = OperandMemory(matrix_bytes(a, cfg, "A"), matrix_bytes(b, cfg, "B"), cfg.read_beat_bytes,
                                self.timing, s * 3 + 2)
        c_bytes = bytes(cfg.matrix_bytes) if c is None else matrix_bytes(c, cfg, "C")
        self.wr = CWriteMemory(c_bytes, cfg.write_beat_bytes, self.timing, s * 3 + 3)

    @property
    def ports(self) -> Tuple[ImemMemory, OperandMemory, CWriteMemory]:
        return self.imem, self.rd, self.wr

    @property
    def c(self) -> np.ndarray:
        m = self.config.maxdim
        return np.frombuffer(bytes(self.wr.c), dtype=np.int8).reshape(m, m).copy()

    # --- reset, start, wait -------------------------------------------------------
    async def reset(self) -> None:
        h = self._h
        if self._clock is None and self.start_clock:
            self._clock = cocotb.start_soon(Clock(h["clk_i"], self.clock_period_ns, units="ns").start())
        if self._loop is not None:
            self._loop.kill()
            self._loop = None
        self._run = None
        self._start_pending = False
        await FallingEdge(h["clk_i"])
        self._drive_idle()
        h["rst_ni"].value = 0
        for _ in range(self.reset_cycles):
            await RisingEdge(h["clk_i"])
        h["rst_ni"].value = 1
        for _ in range(2):
            await RisingEdge(h["clk_i"])
        self._loop = cocotb.start_soon(self._serve())

    async def start(self) -> None:
        if self._loop is None:
            raise RuntimeError("start() before reset()")
        if self._run is not None and self._run.result is None:
            raise RuntimeError("start() while a run is in progress")
        self._run = _Run(self.DEFAULT_MAX_CYCLES)
        self._start_pending = True
        await self._run.started.wait()

    async def wait_done(self, max_cycles: Optional[int] = None) -> RunResult:
        if self._run is None:
            raise RuntimeError("wait_done() before start()")
        if max_cycles is not None:
            self._run.max_cycles = max_cycles
        await self._run.finished.wait()
        assert self._run.result is not None
        return self._run.result

    # --- the cycle loop ------------------------------------------------------------
    def _noise_int(self, bits: int) -> int:
        return self._noise.getrandbits(bits)

    def _drive_idle(self) -> None:
        h = self._h
        for name in ("start_i", "imem_req_ready_i", "imem_rsp_valid_i", "dram_rd_req_ready_i", "dram_rd_rsp_valid_i",
                     "dram_wr_req_ready_i", "dram_wr_rsp_valid_i"):
            h[name].value = 0
        h["imem_rsp_data_i"].value = self._noise_int(self._imem_bits)
        h["dram_rd_rsp_data_i"].value = self._noise_int(self._rd_bits)

    def _errors(self) -> List[str]:
        return [str(e) for p in self.ports for e in p.errors]

    def _check_drained(self, cycle: int) -> None:
        """done_o promises every C write was acknowledged; nothing else may be in flight either."""
        if self.wr.outstanding:
            self.wr.error(cycle, f"done_o rose with {self.wr.outstanding} C write(s) not acknowledged")
        if self.rd.outstanding:
            self.rd.error(cycle, f"done_o rose with {self.rd.outstanding} operand response(s) not taken")
        if self.imem.outstanding:
            self.imem.error(cycle, f"done_o rose with {self.imem.outstanding} imem response(s) not taken")

    def _result(self, status: str, cycles: int) -> RunResult:
        h, cfg = self._h, self.config
        fault = int(h["fault_o"].value)
        progress_bits = h["progress_o"].value.integer
        header_bits = h["header_o"].value.integer
        w = cfg.count_width
        progress = []
        for k, c in enumerate(cfg.counters):
            done = (progress_bits >> (k * w)) & ((1 << w) - 1)
            count = (header_bits >> (64 * c.hdr_word + c.hdr_lsb)) & ((1 << c.hdr_width) - 1)
            progress.append(Progress(c.name, c.unit, done, count))
        return RunResult(
            status=status, cycles=cycles,
            fault=cfg.fault_name(fault) if status == "fault" else None, fault_code=fault,
            fault_pc=int(h["fault_pc_o"].value),
            fault_unit=cfg.unit_name(int(h["fault_unit_o"].value)) if fault else None,
            core_cycles=int(h["cycles_o"].value), progress=progress, protocol_errors=self._errors())

    def _check_end(self, run: _Run, cycle: int) -> None:
        """The core's state after the last rising edge: has the run ended?"""
        h = self._h
        assert run.start_cycle is not None
        status = None
        if int(h["done_o"].value):
            self._check_drained(cycle)
            status = "protocol_error" if self._errors() else "done"
        elif int(h["fault_o"].value):
            status = "fault"
        elif self._errors():
            status = "protocol_error"
        elif cycle - run.start_cycle >= run.max_cycles:
            status = "timeout"
        if status:
            run.result = self._result(status, cycle - run.start_cycle)
            run.finished.set()

    async def _serve(self) -> None:
        h = self._h
        falling, read_only = FallingEdge(h["clk_i"]), ReadOnly()
        imem, rd, wr = h["imem_rsp_data_i"], h["dram_rd_rsp_data_i"], h["dram_wr_req_data_o"]
        while True:
            await falling
            cycle = self._cycle
            run = self._run
            if run is not None and run.start_cycle is not None and run.result is None:
                self._check_end(run, cycle)
            # The memories' side of this cycle.
            start = self._start_pending
            if start:
                self._start_pending = False
                assert run is not None
                run.start_cycle = cycle
            h["start_i"].value = int(start)
            im = self.imem.drive(cycle)
            h["imem_req_ready_i"].value = int(im.req_ready)
            h["imem_rsp_valid_i"].value = int(im.rsp_valid)
            imem.value = (sum(w << (64 * k) for k, w in enumerate(im.rsp)) if im.rsp_valid
                          else self._noise_int(self._imem_bits))
            r = self.rd.drive(cycle)
            h["dram_rd_req_ready_i"].value = int(r.req_ready)
            h["dram_rd_rsp_valid_i"].value = int(r.rsp_valid)
            rd.value = int.from_bytes(r.rsp, "little") if r.rsp_valid else self._noise_int(self._rd_bits)
            w = self.wr.drive(cycle)
            h["dram_wr_req_ready_i"].value = int(w.req_ready)
            h["dram_wr_rsp_valid_i"].value = int(w.rsp_valid)

            # The core's side, settled: commit the handshakes.
            await read_only
            v = int(h["imem_req_valid_o"].value)
            self.imem.clock(cycle, bool(v), int(h["imem_req_addr_o"].value) if v else None,
                            bool(int(h["imem_rsp_ready_o"].value)))
            v = int(h["dram_rd_req_valid_o"].value)
            self.rd.clock(cycle, bool(v),
                          (int(h["dram_rd_req_sel_o"].value), int(h["dram_rd_req_addr_o"].value)) if v else None,
                          bool(int(h["dram_rd_rsp_ready_o"].value)))
            v = int(h["dram_wr_req_valid_o"].value)
            req = None
            if v:
                strb = h["dram_wr_req_strb_o"].value.integer
                req = WriteReq(int(h["dram_wr_req_addr_o"].value),
                               wr.value.integer.to_bytes(self._wr_bytes, "little"),
                               tuple(bool((strb >> k) & 1) for k in range(self._wr_bytes)))
            self.wr.clock(cycle, bool(v), req, bool(int(h["dram_wr_rsp_ready_o"].value)))
            self._cycle = cycle + 1
            if start:
                assert run is not None
                run.started.set()


#: The driver of each top_kind (tpu_config.json); axi_driver.py adds "axi".
DRIVERS: Dict[str, Type[TpuDriver]] = {"core": CoreDriver}


def driver_for(dut, config: Optional[TpuConfig] = None, **kwargs) -> TpuDriver:
    """The driver for the configuration's top (config: default TpuConfig.load()).
    kwargs go to the driver (timing, seed, clock_period_ns, ...: CoreDriver's and AxiDriver's are alike)."""
    config = config or TpuConfig.load()
    cls = DRIVERS.get(config.top_kind)
    if cls is None:
        raise NotImplementedError(
            f"tpugen_cocotb has no driver for the {config.top_kind!r} top ({config.top}); it has "
            f"{', '.join(sorted(DRIVERS))}. See tpugen_cocotb/driver.py on adding one.")
    return cls(dut, config, **kwargs)
