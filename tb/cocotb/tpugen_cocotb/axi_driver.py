"""AxiDriver: TpuDriver for the AXI top (tpu_axi_top, `tpugen gen --top axi`).

The memory behind the AXI4 master m_axi_<bundle>_* is an AxiMemory (axi.py)
holding four regions, as the C++ harness places them (tb/sim/axi/axi_harness.h):
the program image (padded to IMEM_SIZE words), A and B (each followed by a
read-only page of zeros: an operand burst may read past a matrix), and C,
writable; each at a bus-aligned base above 4 GB (so the high address words
matter) that puts a 4 KB page boundary a random number of bus beats into it
(so the core's bursts must split there). An AxiChecker watches every cycle of
the master and the memory. The control slave s_axi_<bundle>_* is driven by an
AxiLiteHost running the host program of docs/axi.md: write the base addresses
(each a _lo and a _hi word), GIE and IER, then CTRL.ap_start (start()); wait
for `interrupt`, read ISR and write it back (toggle on write), and on
isr_done read CTRL, STATUS, FAULT and CYCLES (wait_done()). Every register
offset and bit comes from tpu_config.json ("axi", from spec/axi_top.yaml).

The cycle loop is CoreDriver's: on the falling edge of ap_clk the memory
and the host drive their side (data buses carry noise while their valid is
low); in the read-only phase before the rising edge the top's side is
sampled, checked, and the handshakes committed.
"""

from __future__ import annotations

import random
from typing import Callable, Dict, List, Optional, Sequence, Union

import numpy as np

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge, ReadOnly, RisingEdge

from .axi import (AxiAddr, AxiChecker, AxiCheckerConfig, AxiLiteHost, AxiMemory, AxiTiming, AxiW, LiteSlaveSignals,
                  MasterSignals, PAGE)
from .config import TpuConfig
from .driver import DRIVERS, Matrix, Progress, RunResult, TpuDriver, matrix_bytes
from .memory import PortTiming, ProtocolError

#: The base address registers (their <name>_lo / <name>_hi fields, as the AXI
#: spec's streams name them) and the memory region each points at.
BASE_REGIONS = {"imem_base": "imem", "a_base": "A", "b_base": "B", "c_base": "C"}

_FIRST_WINDOW = 1 << 32  # regions above 4 GB ...
_WINDOW = 1 << 20        # ... each in its own 1 MB window


class _AxiRun:
    def __init__(self, max_cycles: int):
        self.max_cycles = max_cycles
        self.start_cycle: Optional[int] = None
        self.result: Optional[RunResult] = None


class AxiDriver(TpuDriver):
    """tpu_axi_top's ports: the AXI4 master served by an AxiMemory and
    watched by an AxiChecker, the AXI4-Lite control slave driven by an
    AxiLiteHost, ap_clk, ap_rst_n and interrupt.

    timing: a PortTiming (latency; backpressure as both the memory's ready
    and valid stalls, and the host's ready stalls and valid delays, as the C++
    harness maps --latency and --backpressure) or an AxiTiming (every knob of
    the memory: reorder and interleave across IDs are on by default).
    """

    DEFAULT_MAX_CYCLES = 2_000_000

    def __init__(self, dut, config: Optional[TpuConfig] = None,
                 timing: Union[PortTiming, AxiTiming, None] = None, seed: int = 1, clock_period_ns: int = 10,
                 start_clock: bool = True, reset_cycles: int = 5):
        self.dut = dut
        self.config = config or TpuConfig.load()
        if self.config.top_kind != "axi" or self.config.axi is None:
            raise ValueError(f"AxiDriver drives the AXI top; this configuration's top is {self.config.top} "
                             f"({self.config.top_kind}): use driver_for()")
        self.axi = self.config.axi
        self.seed = seed
        self.clock_period_ns = clock_period_ns
        self.start_clock = start_clock
        self.reset_cycles = reset_cycles
        self._set_timing(timing)
        self._noise = random.Random(seed ^ 0x9E3779B97F4A7C15)
        self._clock = None
        self._loop = None
        self._cycle = 0
        self._run: Optional[_AxiRun] = None
        self._waiters: List[tuple] = []
        self._own_errors: List[ProtocolError] = []
        self.interrupts = 0
        ax = self.axi
        for base in (b for s in ax.streams for b in s.bases):
            if base not in BASE_REGIONS:
                raise ValueError(f"the AXI spec ({ax.spec}) names a base {base!r} this driver does not place; "
                                 f"it knows {', '.join(BASE_REGIONS)}")
            ax.field(f"{base}_lo"), ax.field(f"{base}_hi")
        self._f = {n: ax.field(n) for n in (
            "ap_start", "ap_done", "ap_idle", "gie", "ier_done", "ier_ready", "isr_done", "busy", "done", "base_error",
            "rresp_error", "bresp_error", "fault", "fault_pc", "fault_unit", "cycles")}
        self._data_bits = 8 * ax.data_bytes
        # Handles, looked up once (each lookup by name costs a VPI call).
        mp, sp = ax.master_prefix, ax.control_prefix
        self._m = {sig: getattr(dut, mp + sig) for sig in (
            "AWVALID", "AWREADY", "AWADDR", "AWID", "AWLEN", "AWSIZE", "AWBURST", "AWLOCK", "AWCACHE", "AWPROT",
            "WVALID", "WREADY", "WDATA", "WSTRB", "WLAST", "BVALID", "BREADY", "BRESP", "BID",
            "ARVALID", "ARREADY", "ARADDR", "ARID", "ARLEN", "ARSIZE", "ARBURST", "ARLOCK", "ARCACHE", "ARPROT",
            "RVALID", "RREADY", "RDATA", "RRESP", "RLAST", "RID")}
        self._s = {sig: getattr(dut, sp + sig) for sig in (
            "AWVALID", "AWREADY", "AWADDR", "WVALID", "WREADY", "WDATA", "WSTRB", "BVALID", "BREADY", "BRESP",
            "ARVALID", "ARREADY", "ARADDR", "RVALID", "RREADY", "RDATA", "RRESP")}
        self._clk = dut.ap_clk
        self._rst = dut.ap_rst_n
        # VPI names the port by its SystemVerilog name (the C++ model's is __SYM__interrupt).
        self._irq = dut.interrupt
        self._progress = self._header = None
        try:  # the core's progress counters and header, for a report of where a run stopped
            self._progress, self._header = dut.core_progress, dut.core_header
        except AttributeError:
            pass
        self._last: Dict[int, int] = {}  # id(handle) -> the value last written
        self._place_regions()
        self.load([], bytes(self.config.matrix_bytes), bytes(self.config.matrix_bytes))

    def _set_timing(self, timing: Union[PortTiming, AxiTiming, None]) -> None:
        self.timing = AxiTiming.of(timing)
        bp = timing.backpressure if isinstance(timing, PortTiming) else self.timing.ready_stall
        self._host_delay = 4 if bp > 0.0 else 1
        self._host_stall = bp

    # --- memory ------------------------------------------------------------------
    def _place_regions(self) -> None:
        """Each region in its own window above 4 GB, at a bus-aligned base a
        random number of beats (at least one) below a 4 KB page boundary."""
        cfg, beat = self.config, self.axi.data_bytes
        rng = random.Random(self.seed * 5 + 3)
        sizes = {"imem": cfg.imem_size * 8, "A": cfg.matrix_bytes, "B": cfg.matrix_bytes, "C": cfg.matrix_bytes}
        self.bases: Dict[str, int] = {}
        window = _FIRST_WINDOW
        for name, size in sizes.items():
            most = max(1, min(size // beat, PAGE // beat - 1))
            self.bases[name] = window + 2 * PAGE - rng.randint(1, most) * beat
            window += _WINDOW

    def load(self, image: Sequence[int], a: Matrix, b: Matrix, c: Optional[Matrix] = None,
             timing: Union[PortTiming, AxiTiming, None] = None) -> None:
        cfg = self.config
        words = self._image_words(image)
        if timing is not None:
            self._set_timing(timing)
        imem = bytearray(cfg.imem_size * 8)
        for k, w in enumerate(words):
            imem[8 * k:8 * k + 8] = w.to_bytes(8, "little")
        m = AxiMemory(self.axi.data_bytes, self.timing, self.seed * 5 + 1, "m_axi")
        bs = self.bases
        m.map("imem", bs["imem"], imem, False)
        m.map("A", bs["A"], matrix_bytes(a, cfg, "A"), False)
        m.map("A_pad", bs["A"] + cfg.matrix_bytes, PAGE, False)
        m.map("B", bs["B"], matrix_bytes(b, cfg, "B"), False)
        m.map("B_pad", bs["B"] + cfg.matrix_bytes, PAGE, False)
        m.map("C", bs["C"], bytes(cfg.matrix_bytes) if c is None else matrix_bytes(c, cfg, "C"), True)
        self.mem = m
        self._new_checkers()

    def _new_checkers(self) -> None:
        ax = self.axi
        self.checker = AxiChecker(ax.data_bytes, AxiCheckerConfig(id_bits=ax.id_bits, addr_bits=ax.addr_bits,
                                                                  max_burst_beats=ax.max_burst_beats))
        self.host = AxiLiteHost(self._host_delay, self._host_stall, self.seed * 5 + 2, "s_axi_control",
                                ax.control_addr_bits)
        self._own_errors = []

    @property
    def c(self) -> np.ndarray:
        m = self.config.maxdim
        return np.frombuffer(bytes(self.mem.region("C").data), dtype=np.int8).reshape(m, m).copy()

    @property
    def errors(self) -> List[ProtocolError]:
        return self._own_errors + self.checker.errors + self.mem.errors + self.host.errors

    # --- reset, start, wait ---------------------------------------------------------
    async def reset(self) -> None:
        if self._clock is None and self.start_clock:
            self._clock = cocotb.start_soon(Clock(self._clk, self.clock_period_ns, units="ns").start())
        if self._loop is not None:
            self._loop.kill()
            self._loop = None
        self._run = None
        self._waiters = []
        await FallingEdge(self._clk)
        self._last.clear()
        self._drive_idle()
        self._rst.value = 0
        for _ in range(self.reset_cycles):
            await RisingEdge(self._clk)
        self._rst.value = 1
        for _ in range(2):
            await RisingEdge(self._clk)
        # Nothing is in flight after a reset; the memory keeps its contents.
        self.mem.clear_in_flight()
        self._new_checkers()
        self._loop = cocotb.start_soon(self._serve())

    async def _until(self, pred: Callable[[], bool]) -> None:
        """Wait until pred() holds after a cycle's handshakes, or the run ends
        (a protocol error or its max_cycles)."""
        ev = Event()
        self._waiters.append((pred, ev))
        await ev.wait()

    def _write_reg(self, field_names: Sequence[str], values: Sequence[int]):
        """Queue a write of the register holding the fields (all of one register)."""
        fs = [self._f.get(n) or self.axi.field(n) for n in field_names]
        assert len({f.offset for f in fs}) == 1, field_names
        return self.host.write(fs[0].offset, sum(f.put(v) for f, v in zip(fs, values)))

    def _read_reg(self, field_name: str):
        return self.host.read(self._f[field_name].offset)

    async def start(self) -> None:
        if self._loop is None:
            raise RuntimeError("start() before reset()")
        if self._run is not None and self._run.result is None:
            raise RuntimeError("start() while a run is in progress")
        self._run = run = _AxiRun(self.DEFAULT_MAX_CYCLES)
        for base, region in BASE_REGIONS.items():
            addr = self.bases[region]
            self._write_reg([f"{base}_lo"], [addr & 0xFFFFFFFF])
            self._write_reg([f"{base}_hi"], [addr >> 32])
        self._write_reg(["gie"], [1])
        self._write_reg(["ier_done", "ier_ready"], [1, 1])
        go = self._write_reg(["ap_start"], [1])
        run.start_cycle = self._cycle
        await self._until(lambda: go.done)
        run.start_cycle = self._cycle  # the run counts from the ap_start write, not the set-up before it

    async def wait_done(self, max_cycles: Optional[int] = None) -> RunResult:
        run = self._run
        if run is None:
            raise RuntimeError("wait_done() before start()")
        if max_cycles is not None:
            run.max_cycles = max_cycles
        while run.result is None:
            await self._until(lambda: bool(self._irq_now))
            if run.result is not None:
                break
            self.interrupts += 1
            end = self._cycle
            isr = self._read_reg("isr_done")
            await self._until(lambda: isr.done)
            clear = self.host.write(isr.addr, isr.value)  # toggle on write: clears what was read
            await self._until(lambda: clear.done)
            if not self._f["isr_done"].get(isr.value):
                continue  # isr_ready: the start was taken; ap_done is still to come
            ctrl, status, fault, cycles = (self._read_reg(n) for n in ("ap_done", "fault", "fault_pc", "cycles"))
            await self._until(lambda: self.host.idle)
            if run.result is None:
                self._finish(run, end, ctrl.value, status.value, fault.value, cycles.value)
        return run.result

    # --- results ---------------------------------------------------------------------
    def _error(self, message: str) -> None:
        self._own_errors.append(ProtocolError(self._cycle, "s_axi_control", message))

    def _progress_now(self) -> List[Progress]:
        cfg = self.config
        if self._progress is None:
            return []
        try:
            progress_bits, header_bits = self._progress.value.integer, self._header.value.integer
        except ValueError:  # X or Z bits
            return []
        w = cfg.count_width
        return [Progress(c.name, c.unit, (progress_bits >> (k * w)) & ((1 << w) - 1),
                         (header_bits >> (64 * c.hdr_word + c.hdr_lsb)) & ((1 << c.hdr_width) - 1))
                for k, c in enumerate(cfg.counters)]

    def _finish(self, run: _AxiRun, end: int, ctrl: int, st: int, flt: int, cycles: int) -> None:
        """The host read CTRL, STATUS, FAULT and CYCLES after isr_done: the run's result."""
        f = self._f
        if not (f["ap_done"].get(ctrl) and f["ap_idle"].get(ctrl)):
            self._error(f"after the interrupt CTRL reads {ctrl:#010x}: ap_done and ap_idle should both be set")
        if int(self._irq.value):
            self._error("the interrupt is still high after ISR was cleared")
        if f["base_error"].get(st) or f["rresp_error"].get(st) or f["bresp_error"].get(st):
            self._error(f"STATUS reads {st:#010x}: a base or response error")
        code = f["fault"].get(st)
        if code:
            status = "fault"
        elif f["done"].get(st):
            status = "done"
            self.checker.finish(self._cycle)
            self.host.finish(self._cycle)
        else:
            status = "protocol_error"
            self._error(f"STATUS reads {st:#010x}: neither done nor a fault")
        if self.errors:
            status = "protocol_error"
        cfg = self.config
        assert run.start_cycle is not None
        run.result = RunResult(
            status=status, cycles=end - run.start_cycle,
            fault=cfg.fault_name(code) if status == "fault" else None, fault_code=code,
            fault_pc=f["fault_pc"].get(flt), fault_unit=cfg.unit_name(f["fault_unit"].get(flt)) if code else None,
            core_cycles=f["cycles"].get(cycles), progress=self._progress_now(),
            protocol_errors=[str(e) for e in self.errors])

    def _end_early(self, run: _AxiRun, status: str) -> None:
        assert run.start_cycle is not None
        run.result = RunResult(status=status, cycles=self._cycle - run.start_cycle, progress=self._progress_now(),
                               protocol_errors=[str(e) for e in self.errors])

    # --- the cycle loop ------------------------------------------------------------
    def _put(self, handle, value: int) -> None:
        """Write a signal when its value changes (each write is a VPI call)."""
        key = id(handle)
        if self._last.get(key) != value:
            self._last[key] = value
            handle.value = value

    def _drive_idle(self) -> None:
        m, s = self._m, self._s
        for sig in ("ARREADY", "AWREADY", "WREADY", "RVALID", "BVALID"):
            self._put(m[sig], 0)
        for sig in ("AWVALID", "WVALID", "ARVALID", "BREADY", "RREADY"):
            self._put(s[sig], 0)
        self._put(m["RDATA"], self._noise.getrandbits(self._data_bits))

    async def _serve(self) -> None:
        m, s, put = self._m, self._s, self._put
        falling, read_only = FallingEdge(self._clk), ReadOnly()
        self._irq_now = 0
        while True:
            await falling
            cycle = self._cycle
            # What the last cycle's handshakes decided, released here (not in
            # the read-only phase) so that woken coroutines may drive signals.
            self._settle_run()
            # The memory's and the host's side of this cycle.
            sl = self.mem.drive(cycle)
            put(m["ARREADY"], int(sl.arready))
            put(m["AWREADY"], int(sl.awready))
            put(m["WREADY"], int(sl.wready))
            put(m["RVALID"], int(sl.rvalid))
            if sl.rvalid:
                r = sl.r
                put(m["RID"], r.id)
                put(m["RRESP"], r.resp)
                put(m["RLAST"], int(r.last))
                put(m["RDATA"], r.data)
            else:
                put(m["RDATA"], self._noise.getrandbits(self._data_bits))
            put(m["BVALID"], int(sl.bvalid))
            if sl.bvalid:
                put(m["BID"], sl.b.id)
                put(m["BRESP"], sl.b.resp)
            h = self.host.drive(cycle)
            put(s["AWVALID"], int(h.awvalid))
            put(s["AWADDR"], h.awaddr)
            put(s["WVALID"], int(h.wvalid))
            put(s["WDATA"], h.wdata)
            put(s["WSTRB"], h.wstrb)
            put(s["BREADY"], int(h.bready))
            put(s["ARVALID"], int(h.arvalid))
            put(s["ARADDR"], h.araddr)
            put(s["RREADY"], int(h.rready))

            # The top's side, settled: check it and commit the handshakes.
            await read_only
            ms = MasterSignals()
            if int(m["ARVALID"].value):
                ms.arvalid = True
                ms.ar = AxiAddr(int(m["ARADDR"].value), int(m["ARID"].value), int(m["ARLEN"].value),
                                int(m["ARSIZE"].value), int(m["ARBURST"].value), int(m["ARCACHE"].value),
                                int(m["ARPROT"].value), int(m["ARLOCK"].value))
            ms.rready = bool(int(m["RREADY"].value))
            if int(m["AWVALID"].value):
                ms.awvalid = True
                ms.aw = AxiAddr(int(m["AWADDR"].value), int(m["AWID"].value), int(m["AWLEN"].value),
                                int(m["AWSIZE"].value), int(m["AWBURST"].value), int(m["AWCACHE"].value),
                                int(m["AWPROT"].value), int(m["AWLOCK"].value))
            if int(m["WVALID"].value):
                ms.wvalid = True
                ms.w = AxiW(m["WDATA"].value.integer, m["WSTRB"].value.integer, bool(int(m["WLAST"].value)))
            ms.bready = bool(int(m["BREADY"].value))
            self.checker.check(cycle, ms, sl)
            self.mem.clock(cycle, ms)

            ls = LiteSlaveSignals()
            if h.awvalid:
                ls.awready = bool(int(s["AWREADY"].value))
            if h.wvalid:
                ls.wready = bool(int(s["WREADY"].value))
            if h.arvalid:
                ls.arready = bool(int(s["ARREADY"].value))
            if int(s["BVALID"].value):
                ls.bvalid, ls.bresp = True, int(s["BRESP"].value)
            if int(s["RVALID"].value):
                ls.rvalid, ls.rdata, ls.rresp = True, s["RDATA"].value.integer, int(s["RRESP"].value)
            self.host.clock(cycle, ls)
            self._irq_now = int(self._irq.value)
            self._cycle = cycle + 1

    def _settle_run(self) -> None:
        """End the run on a protocol error or at its max_cycles; wake the
        waiters whose condition holds (all of them once the run has ended)."""
        run = self._run
        if run is not None and run.result is None and run.start_cycle is not None:
            if self.errors:
                self._end_early(run, "protocol_error")
            elif self._cycle - run.start_cycle >= run.max_cycles:
                self._end_early(run, "timeout")
        if self._waiters:
            ended = run is not None and run.result is not None
            keep = []
            for pred, ev in self._waiters:
                if ended or pred():
                    ev.set()
                else:
                    keep.append((pred, ev))
            self._waiters = keep


DRIVERS["axi"] = AxiDriver
