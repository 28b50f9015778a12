"""AXI models for the AXI top (tpu_axi_top): the memory behind its AXI4
master, a protocol checker of that master, and the AXI4-Lite host of its
control slave. Cycle-level, like the C++ harness's (tb/sim/axi/axi_memory.h,
axi_checker.h, axi_lite.h), and with the same per-cycle contract as the
core's port models (memory.py): `drive(cycle)` decides what the model shows
this cycle before the DUT's outputs are known; after the DUT settled,
`clock(cycle, ...)` (or `check`) takes what the DUT showed and commits the
handshakes of the cycle.

AxiMemory: named regions of a sparse 64-bit byte address space. A read burst
takes its data when its AR is accepted; a write beat lands when it is
accepted and its AW is known (W beats may lead their AW). A beat touching an
unmapped byte answers DECERR, a write to a read-only region SLVERR; each such
burst is an error. Timing: an AR (or the last W of a write) accepted in cycle
c has its first R (its B) valid at the earliest in c + 1 + latency;
`ready_stall` withholds ARREADY, AWREADY and WREADY at random, `valid_stall`
delays the raising of RVALID and BVALID; a raised valid holds, with its
payload, until taken. Responses of one ID keep their order; with `reorder`
a response among several ready bursts of different IDs is picked at random,
with `interleave` R beats of different-ID bursts may interleave.

AxiChecker: the rules of both sides, each error's message starting with its
rule id, as the C++ checker's: [axi.ar_valid_dropped],
[axi.w_payload_changed], [axi.ar_4k_boundary], [axi.aw_burst_too_long],
[axi.wlast_missing], [axi.wlast_early], [axi.r_same_id_order], ...

AxiLiteHost: queued register reads and writes, one at a time; AWVALID and
WVALID rise after random delays in a random order, BREADY and RREADY are
withheld at random; the slave's side is checked ([axil.b_valid_dropped],
[axil.r_resp], ...).

Data beats are Python ints (little-endian over the bus: byte lane k is bits
8k+7..8k); WSTRB is an int with bit k for lane k.

Pure Python: no cocotb import, so the models can be tested on their own.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Deque, Dict, List, Optional, Tuple

from .memory import PortTiming, ProtocolError

BURST_FIXED, BURST_INCR, BURST_WRAP = 0, 1, 2
RESP_OKAY, RESP_EXOKAY, RESP_SLVERR, RESP_DECERR = 0, 1, 2, 3
RESP_NAMES = {RESP_OKAY: "OKAY", RESP_EXOKAY: "EXOKAY", RESP_SLVERR: "SLVERR", RESP_DECERR: "DECERR"}
PAGE = 4096  #: AXI4: no burst crosses a 4 KB boundary


def resp_name(resp: int) -> str:
    return RESP_NAMES.get(resp, f"resp {resp}")


@dataclass(frozen=True)
class AxiAddr:
    """An AR or AW payload."""

    addr: int
    id: int = 0
    len: int = 0      #: beats - 1
    size: int = 0     #: log2 of the bytes of a beat
    burst: int = BURST_INCR
    cache: int = 0
    prot: int = 0
    lock: int = 0

    @property
    def beats(self) -> int:
        return self.len + 1

    @property
    def beat_bytes(self) -> int:
        return 1 << min(self.size, 12)

    def beat_addr(self, n: int) -> int:
        """Address of beat n (AXI4 A3.4.1)."""
        nb = self.beat_bytes
        if self.burst == BURST_FIXED or n == 0:
            return self.addr
        addr = (self.addr & ~(nb - 1)) + n * nb
        if self.burst == BURST_WRAP:
            total = nb * self.beats
            lower = (self.addr // total) * total
            while addr >= lower + total:
                addr -= total
        return addr

    def lanes(self, n: int, bus_bytes: int) -> Tuple[int, int]:
        """Byte lanes (lo, hi) of beat n on a bus of bus_bytes."""
        addr = self.beat_addr(n)
        nb = min(self.beat_bytes, bus_bytes)
        return addr % bus_bytes, (addr & ~(nb - 1)) % bus_bytes + nb - 1

    def crosses_4k(self) -> bool:
        if self.burst != BURST_INCR:
            return False
        end = (self.addr & ~(self.beat_bytes - 1)) + self.beat_bytes * self.beats
        return (self.addr // PAGE) != ((end - 1) // PAGE)

    def __str__(self) -> str:
        return f"(id {self.id}, {self.addr:#x}, {self.beats} beats, size {self.size}, burst {self.burst})"


@dataclass(frozen=True)
class AxiW:
    data: int
    strb: int
    last: bool


@dataclass(frozen=True)
class AxiR:
    id: int
    data: int
    resp: int
    last: bool


@dataclass(frozen=True)
class AxiB:
    id: int
    resp: int


@dataclass
class MasterSignals:
    """What the master drove in one cycle (payloads only meaningful with their valid)."""

    arvalid: bool = False
    ar: Optional[AxiAddr] = None
    rready: bool = False
    awvalid: bool = False
    aw: Optional[AxiAddr] = None
    wvalid: bool = False
    w: Optional[AxiW] = None
    bready: bool = False


@dataclass
class SlaveSignals:
    """What the memory shows in one cycle."""

    arready: bool = False
    awready: bool = False
    wready: bool = False
    rvalid: bool = False
    r: Optional[AxiR] = None
    bvalid: bool = False
    b: Optional[AxiB] = None


@dataclass
class AxiTiming:
    """How an AxiMemory answers."""

    latency: int = 0            #: cycles from AR / last-W handshake to first R / B, beyond the next cycle
    ready_stall: float = 0.0    #: probability of withholding ARREADY, AWREADY or WREADY in a cycle
    valid_stall: float = 0.0    #: probability of delaying the raising of RVALID or BVALID in a cycle
    max_reads: int = 8          #: read bursts accepted and not fully returned
    max_writes: int = 8         #: write bursts accepted whose B is not taken
    max_early_w: int = 16       #: W beats accepted before their AW
    reorder: bool = True        #: responses of different IDs in random order (one ID stays in order)
    interleave: bool = True     #: R beats of different-ID bursts may interleave

    def __post_init__(self) -> None:
        if self.latency < 0:
            raise ValueError(f"latency must be >= 0, not {self.latency}")
        for name in ("ready_stall", "valid_stall"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ValueError(f"{name} must be in [0, 1), not {getattr(self, name)}")
        if min(self.max_reads, self.max_writes) < 1 or self.max_early_w < 0:
            raise ValueError("max_reads and max_writes must be >= 1, max_early_w >= 0")

    @classmethod
    def of(cls, timing: "PortTiming | AxiTiming | None") -> "AxiTiming":
        """An AxiTiming as is; a PortTiming (the core's port knobs) as the C++
        harness maps them: latency, backpressure as both stalls."""
        if timing is None:
            return cls()
        if isinstance(timing, AxiTiming):
            return timing
        return cls(latency=timing.latency, ready_stall=timing.backpressure, valid_stall=timing.backpressure)


@dataclass
class AxiMemoryStats:
    read_bursts: int = 0
    write_bursts: int = 0
    read_beats: int = 0
    write_beats: int = 0
    max_outstanding_reads: int = 0
    max_outstanding_writes: int = 0
    read_reorders: int = 0     #: read bursts started before an older outstanding one
    interleaves: int = 0       #: R beats given while another burst was part-way through
    early_w_beats: int = 0     #: W beats accepted before their AW
    longest_burst: int = 0
    bursts_to_page_end: int = 0  #: bursts ending on the last byte of a 4 KB page


@dataclass
class Region:
    name: str
    base: int
    data: bytearray
    writable: bool

    @property
    def end(self) -> int:
        return self.base + len(self.data)


@dataclass
class _ReadBurst:
    seq: int
    ready_at: int
    id: int
    beats: List[AxiR]
    next: int = 0


@dataclass
class _WriteBurst:
    seq: int
    aw: AxiAddr
    beats_in: int = 0
    resp: int = RESP_OKAY
    ready_at: int = 0

    @property
    def w_done(self) -> bool:
        return self.beats_in >= self.aw.beats


class AxiMemory:
    """An AXI4 slave memory: regions, latency, stalls, reordering, interleaving."""

    def __init__(self, bus_bytes: int, timing: Optional[AxiTiming] = None, seed: int = 1, name: str = "m_axi"):
        if bus_bytes < 1 or bus_bytes & (bus_bytes - 1):
            raise ValueError(f"{name}: bus width {bus_bytes} bytes is not a power of two")
        self.bus_bytes = bus_bytes
        self.timing = timing or AxiTiming()
        self.name = name
        self._rng = random.Random(seed)
        self.regions: List[Region] = []
        self._reads: List[_ReadBurst] = []
        self._writes: List[_WriteBurst] = []
        self._early_w: Deque[AxiW] = deque()
        self._seq = 0
        self._r_pick = -1
        self._b_pick = -1
        self._r_shown = False
        self._b_shown = False
        self._out = SlaveSignals()
        self.errors: List[ProtocolError] = []
        self.stats = AxiMemoryStats()

    # --- regions ----------------------------------------------------------------
    def map(self, name: str, base: int, contents, writable: bool) -> Region:
        """Map a region at base: `contents` bytes, or an int (that many zero bytes)."""
        data = bytearray(contents)
        if not data:
            raise ValueError(f"{self.name}: region {name!r} is empty")
        for r in self.regions:
            if r.name == name:
                raise ValueError(f"{self.name}: region {name!r} is mapped twice")
            if base < r.end and r.base < base + len(data):
                raise ValueError(f"{self.name}: region {name!r} overlaps {r.name!r}")
        region = Region(name, base, data, writable)
        self.regions.append(region)
        return region

    def region(self, name: str) -> Region:
        for r in self.regions:
            if r.name == name:
                return r
        raise KeyError(f"{self.name}: no region named {name!r}")

    def _find(self, addr: int) -> Optional[Region]:
        for r in self.regions:
            if r.base <= addr < r.end:
                return r
        return None

    def _decode(self, addr: int, n: int, write: bool) -> Tuple[int, int, str]:
        """(resp, first failing byte, its region) for the bytes [addr, addr + n)."""
        resp, bad, where = RESP_OKAY, 0, ""
        b = addr
        while b < addr + n:
            r = self._find(b)
            if r is None:
                return RESP_DECERR, b, ""
            if write and not r.writable and resp == RESP_OKAY:
                resp, bad, where = RESP_SLVERR, b, r.name
            b = min(addr + n, r.end)
        return resp, bad, where

    def _read_bytes(self, addr: int, n: int) -> bytes:
        out = bytearray()
        b = addr
        while b < addr + n:
            r = self._find(b)
            assert r is not None
            k = min(addr + n, r.end) - b
            out += r.data[b - r.base:b - r.base + k]
            b += k
        return bytes(out)

    def _record(self, cycle: int, write: bool, a: AxiAddr, bad: int, resp: int, why: str) -> None:
        self.errors.append(ProtocolError(cycle, self.name, f"{'write' if write else 'read'} burst {a} at {bad:#x}: "
                                                           f"{why}, answered {resp_name(resp)}"))

    # --- the cycle ----------------------------------------------------------------
    def _coin(self, p: float) -> bool:
        return p > 0.0 and self._rng.random() < p

    def drive(self, cycle: int) -> SlaveSignals:
        t = self.timing
        out = SlaveSignals()
        out.arready = len(self._reads) < t.max_reads and not self._coin(t.ready_stall)
        out.awready = len(self._writes) < t.max_writes and not self._coin(t.ready_stall)
        out.wready = ((self._first_w_owed() < len(self._writes) or len(self._early_w) < t.max_early_w)
                      and not self._coin(t.ready_stall))
        self._out = out
        self._drive_r(cycle)
        self._drive_b(cycle)
        return out

    def clock(self, cycle: int, m: MasterSignals) -> None:
        out = self._out
        if m.arvalid and out.arready:
            assert m.ar is not None
            self._accept_ar(cycle, m.ar)
        if out.rvalid and m.rready:
            self._take_r()
        self._r_shown = out.rvalid and not m.rready
        if m.awvalid and out.awready:
            assert m.aw is not None
            self._accept_aw(cycle, m.aw)
        if m.wvalid and out.wready:
            assert m.w is not None
            self._accept_w(cycle, m.w)
        if out.bvalid and m.bready:
            self._take_b()
        self._b_shown = out.bvalid and not m.bready

    def clear_in_flight(self) -> None:
        """Forget every burst in flight (after a reset of the master); the regions keep their bytes."""
        self._reads.clear()
        self._writes.clear()
        self._early_w.clear()
        self._r_shown = self._b_shown = False

    @property
    def outstanding_reads(self) -> int:
        return len(self._reads)

    @property
    def outstanding_writes(self) -> int:
        return len(self._writes)

    @property
    def idle(self) -> bool:
        return not self._reads and not self._writes and not self._early_w

    # --- reads --------------------------------------------------------------------
    def _burst_stats(self, a: AxiAddr) -> None:
        self.stats.longest_burst = max(self.stats.longest_burst, a.beats)
        end = (a.addr & ~(a.beat_bytes - 1)) + a.beat_bytes * a.beats
        if end % PAGE == 0:
            self.stats.bursts_to_page_end += 1

    def _noise(self) -> int:
        return self._rng.getrandbits(8 * self.bus_bytes)

    def _accept_ar(self, cycle: int, a: AxiAddr) -> None:
        bus = self.bus_bytes
        beats: List[AxiR] = []
        too_wide = a.beat_bytes > bus
        recorded = False
        if too_wide:
            self._record(cycle, False, a, a.addr, RESP_SLVERR, f"AxSIZE {a.size} is wider than the bus")
            recorded = True
        for n in range(a.beats):
            data = self._noise()
            resp = RESP_SLVERR
            if not too_wide:
                lo, hi = a.lanes(n, bus)
                addr = a.beat_addr(n)
                resp, bad, _ = self._decode(addr, hi - lo + 1, False)
                if resp != RESP_OKAY and not recorded:
                    self._record(cycle, False, a, bad, resp, "unmapped address")
                    recorded = True
                if resp == RESP_OKAY:
                    mask = ((1 << (8 * (hi - lo + 1))) - 1) << (8 * lo)
                    data = (data & ~mask) | (int.from_bytes(self._read_bytes(addr, hi - lo + 1), "little") << (8 * lo))
            beats.append(AxiR(a.id, data, resp, n == a.len))
        self._reads.append(_ReadBurst(self._seq, cycle + 1 + self.timing.latency, a.id, beats))
        self._seq += 1
        self.stats.read_bursts += 1
        self.stats.max_outstanding_reads = max(self.stats.max_outstanding_reads, len(self._reads))
        self._burst_stats(a)

    def _drive_r(self, cycle: int) -> None:
        out = self._out
        if self._r_shown:
            out.rvalid = True  # held, with its payload, until taken
            out.r = self._shown_r
            return
        ready: List[int] = []
        in_progress = None
        seen_ids = set()
        for i, rb in enumerate(self._reads):
            if rb.next > 0:
                in_progress = i
            if rb.id not in seen_ids:   # the oldest burst of its ID
                seen_ids.add(rb.id)
                if rb.ready_at <= cycle:
                    ready.append(i)
        if not ready:
            return
        t = self.timing
        pick = ready[0]
        if not t.interleave and in_progress is not None:
            pick = in_progress  # the burst part-way through goes on
            if pick not in ready:
                return
        elif t.reorder or t.interleave:
            pick = ready[self._rng.randrange(len(ready))]
        elif pick != 0:
            return  # in order: only the oldest burst may start
        if self._coin(t.valid_stall):
            return
        rb = self._reads[pick]
        self._r_pick = rb.seq
        out.rvalid = True
        out.r = self._shown_r = rb.beats[rb.next]

    def _take_r(self) -> None:
        for i, rb in enumerate(self._reads):
            if rb.seq != self._r_pick:
                continue
            if rb.next == 0 and i != 0:
                self.stats.read_reorders += 1
            if any(o.seq != rb.seq and o.next > 0 for o in self._reads):
                self.stats.interleaves += 1
            rb.next += 1
            self.stats.read_beats += 1
            if rb.next == len(rb.beats):
                del self._reads[i]
            return

    # --- writes -------------------------------------------------------------------
    def _first_w_owed(self) -> int:
        for i, wb in enumerate(self._writes):
            if not wb.w_done:
                return i
        return len(self._writes)

    def _accept_aw(self, cycle: int, a: AxiAddr) -> None:
        self._writes.append(_WriteBurst(self._seq, a))
        self._seq += 1
        self.stats.write_bursts += 1
        self.stats.max_outstanding_writes = max(self.stats.max_outstanding_writes, len(self._writes))
        self._burst_stats(a)
        while self._early_w and self._first_w_owed() < len(self._writes):
            self._land_w(cycle, self._writes[self._first_w_owed()], self._early_w.popleft())

    def _accept_w(self, cycle: int, w: AxiW) -> None:
        self.stats.write_beats += 1
        i = self._first_w_owed()
        if i < len(self._writes):
            self._land_w(cycle, self._writes[i], w)
        else:
            self._early_w.append(w)
            self.stats.early_w_beats += 1

    def _land_w(self, cycle: int, wb: _WriteBurst, w: AxiW) -> None:
        a = wb.aw
        n = wb.beats_in
        wb.beats_in += 1
        if wb.w_done:
            wb.ready_at = cycle + 1 + self.timing.latency
        if a.beat_bytes > self.bus_bytes:
            if wb.resp == RESP_OKAY:
                self._record(cycle, True, a, a.addr, RESP_SLVERR, f"AxSIZE {a.size} is wider than the bus")
            wb.resp = RESP_SLVERR
            return
        lo, hi = a.lanes(n, self.bus_bytes)
        addr = a.beat_addr(n)
        resp, bad, where = self._decode(addr, hi - lo + 1, True)
        if resp != RESP_OKAY:
            if wb.resp == RESP_OKAY:
                self._record(cycle, True, a, bad, resp,
                             "unmapped address" if resp == RESP_DECERR else f"read-only region {where!r}")
            wb.resp = max(wb.resp, resp)
            return
        for lane in range(lo, hi + 1):
            if (w.strb >> lane) & 1:
                b = addr + lane - lo
                r = self._find(b)
                assert r is not None
                r.data[b - r.base] = (w.data >> (8 * lane)) & 0xFF

    def _drive_b(self, cycle: int) -> None:
        out = self._out
        if self._b_shown:
            out.bvalid = True
            out.b = self._shown_b
            return
        ready: List[int] = []
        seen_ids = set()
        for i, wb in enumerate(self._writes):
            first_of_id = wb.aw.id not in seen_ids
            seen_ids.add(wb.aw.id)
            if first_of_id and wb.w_done and wb.ready_at <= cycle:
                ready.append(i)
        if not ready:
            return
        pick = ready[0]
        if self.timing.reorder:
            pick = ready[self._rng.randrange(len(ready))]
        elif pick != 0:
            return
        if self._coin(self.timing.valid_stall):
            return
        wb = self._writes[pick]
        self._b_pick = wb.seq
        out.bvalid = True
        out.b = self._shown_b = AxiB(wb.aw.id, wb.resp)

    def _take_b(self) -> None:
        for i, wb in enumerate(self._writes):
            if wb.seq == self._b_pick:
                del self._writes[i]
                return


@dataclass
class AxiCheckerConfig:
    id_bits: int = 8
    addr_bits: int = 64
    max_burst_beats: int = 16
    max_w_lead: int = 16          #: W beats the master may send ahead of their AW
    port: str = "m_axi"


@dataclass
class _WriteTrack:
    aw: AxiAddr
    w_beats: int = 0
    b_done: bool = False

    @property
    def w_done(self) -> bool:
        return self.w_beats >= self.aw.beats


class AxiChecker:
    """Watches both sides of an AXI4 port; records each broken rule as a
    ProtocolError whose message starts with its rule id ("[axi.wlast_early] ...").

    Master: axi.{ar,aw,w}_valid_dropped, axi.{ar,aw,w}_payload_changed,
    axi.{ar,aw}_4k_boundary, axi.{ar,aw}_burst_too_long, axi.{ar,aw}_size_too_wide,
    axi.{ar,aw}_unaligned, axi.{ar,aw}_burst_type (INCR only), axi.{ar,aw}_id_width,
    axi.{ar,aw}_addr_width, axi.wlast_missing, axi.wlast_early, axi.w_without_aw,
    axi.wstrb_lanes. Slave: axi.{r,b}_valid_dropped, axi.{r,b}_payload_changed,
    axi.r_unexpected_id, axi.rlast_missing, axi.rlast_early, axi.r_same_id_order,
    axi.b_unexpected_id, axi.b_before_wlast. `finish`: axi.finish_reads_outstanding,
    axi.finish_writes_outstanding, axi.finish_w_owed, axi.finish_w_without_aw.
    """

    def __init__(self, bus_bytes: int, config: Optional[AxiCheckerConfig] = None):
        self.bus_bytes = bus_bytes
        self.cfg = config or AxiCheckerConfig()
        self.errors: List[ProtocolError] = []
        self._cycle = 0
        self._hold: Dict[str, object] = {}  # channel -> payload shown last cycle, valid and not ready
        self._reads: Dict[int, Deque[AxiAddr]] = {}
        self._r_count: Dict[int, int] = {}
        self._writes: Deque[_WriteTrack] = deque()
        self._w_early: Deque[AxiW] = deque()

    def _error(self, rule: str, what: str) -> None:
        self.errors.append(ProtocolError(self._cycle, self.cfg.port, f"[axi.{rule}] {what}"))

    def rules(self) -> set:
        return {e.message[1:e.message.index("]")] for e in self.errors if e.message.startswith("[")}

    def check(self, cycle: int, m: MasterSignals, s: SlaveSignals) -> None:
        self._cycle = cycle
        h = self._hold
        for ch, valid, now in (("ar", m.arvalid, m.ar), ("aw", m.awvalid, m.aw), ("w", m.wvalid, m.w),
                               ("r", s.rvalid, s.r), ("b", s.bvalid, s.b)):
            if ch in h:
                if not valid:
                    self._error(f"{ch}_valid_dropped", f"{ch.upper()}VALID dropped before its handshake")
                elif now != h[ch]:
                    self._error(f"{ch}_payload_changed", f"{ch.upper()} payload changed while valid and not ready")
        if m.arvalid and h.get("ar") != m.ar:
            self._check_addr("ar", m.ar)
        if m.awvalid and h.get("aw") != m.aw:
            self._check_addr("aw", m.aw)
        if s.rvalid and h.get("r") != s.r and not self._reads.get(s.r.id):
            self._error("r_unexpected_id", f"R with RID {s.r.id}, which has no read burst outstanding")
        if s.rvalid and m.rready:
            self._r_beat(s.r)
        if s.bvalid and h.get("b") != s.b:
            self._b_raised(s.b)
        if s.bvalid and m.bready:
            self._b_taken(s.b)
        if m.arvalid and s.arready:
            self._reads.setdefault(m.ar.id, deque()).append(m.ar)
        if m.awvalid and s.awready:
            self._aw_taken(m.aw)
        if m.wvalid and s.wready:
            self._w_taken(m.w)
        h.clear()
        if m.arvalid and not s.arready:
            h["ar"] = m.ar
        if m.awvalid and not s.awready:
            h["aw"] = m.aw
        if m.wvalid and not s.wready:
            h["w"] = m.w
        if s.rvalid and not m.rready:
            h["r"] = s.r
        if s.bvalid and not m.bready:
            h["b"] = s.b

    def finish(self, cycle: int) -> None:
        """The end of a test (or of a run): whatever is still owed is an error."""
        self._cycle = cycle
        reads = sum(len(q) for q in self._reads.values())
        no_b = sum(not t.b_done for t in self._writes)
        w_owed = sum(not t.w_done for t in self._writes)
        if reads:
            self._error("finish_reads_outstanding", f"{reads} read burst(s) never fully answered")
        if no_b:
            self._error("finish_writes_outstanding", f"{no_b} write burst(s) never answered by a B")
        if w_owed:
            self._error("finish_w_owed", f"{w_owed} write burst(s) still owed W beats")
        if self._w_early:
            self._error("finish_w_without_aw", f"{len(self._w_early)} W beat(s) never matched by an AW")

    def _check_addr(self, ch: str, a: AxiAddr) -> None:
        c = self.cfg
        what = f"{ch.upper()} {a}"
        if a.id >> c.id_bits:
            self._error(f"{ch}_id_width", f"{what}: ID wider than {c.id_bits} bits")
        if c.addr_bits < 64 and a.addr >> c.addr_bits:
            self._error(f"{ch}_addr_width", f"{what}: address wider than {c.addr_bits} bits")
        if a.burst != BURST_INCR:
            self._error(f"{ch}_burst_type", f"{what}: burst type {a.burst} is not allowed (INCR only)")
        if a.beats > c.max_burst_beats or a.len > 255:
            self._error(f"{ch}_burst_too_long", f"{what}: {a.beats} beats, more than {c.max_burst_beats}")
        if a.beat_bytes > self.bus_bytes:
            self._error(f"{ch}_size_too_wide", f"{what}: {a.beat_bytes}-byte beats on a {self.bus_bytes}-byte bus")
        if a.addr % a.beat_bytes:
            self._error(f"{ch}_unaligned", f"{what}: address not a multiple of the beat size")
        if a.crosses_4k():
            self._error(f"{ch}_4k_boundary", f"{what}: crosses a 4 KB boundary")

    def _r_beat(self, r: AxiR) -> None:
        q = self._reads.get(r.id)
        if not q:
            return  # reported when raised
        n = self._r_count.get(r.id, 0) + 1
        self._r_count[r.id] = n
        want = q[0].beats
        if r.last:
            if n == want:
                q.popleft()
            else:
                younger = next((j for j in range(1, len(q)) if q[j].beats == n), None)
                if younger is not None:
                    self._error("r_same_id_order", f"RID {r.id}: a burst of {n} beats answered before the older {q[0]}")
                    del q[younger]
                else:
                    self._error("rlast_early" if n < want else "rlast_missing",
                                f"RLAST on beat {n} of the {want}-beat read {q[0]}")
                    q.popleft()
            self._r_count[r.id] = 0
            return
        if n < want or any(q[j].beats > n for j in range(1, len(q))):
            return
        self._error("rlast_missing", f"no RLAST on beat {n}, the last of the read {q[0]}")
        q.popleft()
        self._r_count[r.id] = 0

    def _first_write_of(self, bid: int) -> Optional[_WriteTrack]:
        return next((t for t in self._writes if t.aw.id == bid and not t.b_done), None)

    def _b_raised(self, b: AxiB) -> None:
        t = self._first_write_of(b.id)
        if t is None:
            self._error("b_unexpected_id", f"B with BID {b.id}, which has no write burst outstanding")
        elif not t.w_done:
            self._error("b_before_wlast", f"B for the write {t.aw} before its last W beat "
                                          f"({t.w_beats} of {t.aw.beats} in)")

    def _b_taken(self, b: AxiB) -> None:
        t = self._first_write_of(b.id)
        if t is not None:
            t.b_done = True
            self._drop_finished()

    def _drop_finished(self) -> None:
        while self._writes and self._writes[0].b_done and self._writes[0].w_done:
            self._writes.popleft()

    def _first_w_owed(self) -> Optional[_WriteTrack]:
        return next((t for t in self._writes if not t.w_done), None)

    def _aw_taken(self, aw: AxiAddr) -> None:
        self._writes.append(_WriteTrack(aw))
        while self._w_early and self._first_w_owed() is not None:
            self._attribute(self._first_w_owed(), self._w_early.popleft())

    def _w_taken(self, w: AxiW) -> None:
        t = self._first_w_owed()
        if t is not None:
            self._attribute(t, w)
            self._drop_finished()
            return
        self._w_early.append(w)
        if len(self._w_early) > self.cfg.max_w_lead:
            self._error("w_without_aw", f"{len(self._w_early)} W beats without their AW "
                                        f"(at most {self.cfg.max_w_lead} may lead)")

    def _attribute(self, t: _WriteTrack, w: AxiW) -> None:
        n = t.w_beats
        t.w_beats += 1
        where = f"W beat {n + 1} of the write {t.aw}"
        if n == t.aw.len and not w.last:
            self._error("wlast_missing", f"{where}: WLAST missing on the last beat")
        if n < t.aw.len and w.last:
            self._error("wlast_early", f"{where}: WLAST before the last beat")
        if t.aw.beat_bytes > self.bus_bytes:
            return  # reported on the AW
        lo, hi = t.aw.lanes(n, self.bus_bytes)
        outside = w.strb & ~(((1 << (hi - lo + 1)) - 1) << lo)
        if outside:
            lane = (outside & -outside).bit_length() - 1
            self._error("wstrb_lanes", f"{where}: WSTRB lane {lane} is outside the beat's lanes {lo}..{hi}")


@dataclass
class LiteMasterSignals:
    """What the AXI4-Lite host drives in one cycle (32-bit data)."""

    awvalid: bool = False
    awaddr: int = 0
    wvalid: bool = False
    wdata: int = 0
    wstrb: int = 0
    bready: bool = False
    arvalid: bool = False
    araddr: int = 0
    rready: bool = False


@dataclass
class LiteSlaveSignals:
    awready: bool = False
    wready: bool = False
    bvalid: bool = False
    bresp: int = RESP_OKAY
    arready: bool = False
    rvalid: bool = False
    rdata: int = 0
    rresp: int = RESP_OKAY


@dataclass
class LiteOp:
    write: bool
    addr: int
    data: int = 0
    strb: int = 0xF
    done: bool = False
    value: int = 0
    resp: int = RESP_OKAY


_NEVER = float("inf")


class AxiLiteHost:
    """An AXI4-Lite master with a queue of register reads and writes, one
    operation at a time, checking the slave's side of each."""

    def __init__(self, max_delay: int = 1, ready_stall: float = 0.0, seed: int = 1, port: str = "s_axi_control",
                 addr_bits: int = 32):
        self.max_delay = max_delay
        self.ready_stall = ready_stall
        self.port = port
        self._addr_bits = addr_bits
        self._rng = random.Random(seed)
        self.ops: List[LiteOp] = []
        self._next = 0
        self._cur: Optional[LiteOp] = None
        self._aw_done = self._w_done = self._ar_done = False
        self._aw_at = self._w_at = self._ar_at = _NEVER
        self._b_hold: Optional[int] = None
        self._r_hold: Optional[Tuple[int, int]] = None
        self._out = LiteMasterSignals()
        self._cycle = 0
        self.errors: List[ProtocolError] = []
        self.writes = 0
        self.reads = 0

    def write(self, addr: int, data: int, strb: int = 0xF) -> LiteOp:
        op = LiteOp(True, addr, data & 0xFFFFFFFF, strb)
        self.ops.append(op)
        return op

    def read(self, addr: int) -> LiteOp:
        op = LiteOp(False, addr)
        self.ops.append(op)
        return op

    @property
    def idle(self) -> bool:
        return self._cur is None and self._next == len(self.ops)

    def _error(self, rule: str, what: str) -> None:
        self.errors.append(ProtocolError(self._cycle, self.port, f"[axil.{rule}] {what}"))

    def _delay(self) -> int:
        return self._rng.randint(0, self.max_delay)

    def _coin(self) -> bool:
        return self.ready_stall > 0.0 and self._rng.random() < self.ready_stall

    def drive(self, cycle: int) -> LiteMasterSignals:
        if self._cur is None and self._next < len(self.ops):
            op = self._cur = self.ops[self._next]
            self._next += 1
            if op.write:
                self._aw_done = self._w_done = False
                order = self._rng.randrange(3)  # together, AW first, W first
                first = cycle + self._delay()
                self._aw_at = _NEVER if order == 2 else first
                self._w_at = _NEVER if order == 1 else first
            else:
                self._ar_done = False
                self._ar_at = cycle + self._delay()
        out = LiteMasterSignals()
        op = self._cur
        if op is not None and op.write:
            if not self._aw_done and cycle >= self._aw_at:
                out.awvalid, out.awaddr = True, op.addr
            if not self._w_done and cycle >= self._w_at:
                out.wvalid, out.wdata, out.wstrb = True, op.data, op.strb
        if op is not None and not op.write and not self._ar_done and cycle >= self._ar_at:
            out.arvalid, out.araddr = True, op.addr
        if not out.awvalid:
            out.awaddr = self._rng.getrandbits(self._addr_bits)  # noise while not valid
        if not out.wvalid:
            out.wdata, out.wstrb = self._rng.getrandbits(32), self._rng.getrandbits(4)
        if not out.arvalid:
            out.araddr = self._rng.getrandbits(self._addr_bits)
        out.bready = not self._coin()
        out.rready = not self._coin()
        self._out = out
        return out

    def clock(self, cycle: int, s: LiteSlaveSignals) -> None:
        self._cycle = cycle
        out, op = self._out, self._cur
        if self._b_hold is not None:
            if not s.bvalid:
                self._error("b_valid_dropped", "BVALID dropped before its handshake")
            elif s.bresp != self._b_hold:
                self._error("b_payload_changed", "BRESP changed while BVALID and not BREADY")
        if self._r_hold is not None:
            if not s.rvalid:
                self._error("r_valid_dropped", "RVALID dropped before its handshake")
            elif (s.rdata, s.rresp) != self._r_hold:
                self._error("r_payload_changed", "R data or RRESP changed while RVALID and not RREADY")
        writing = op is not None and op.write
        write_answerable = writing and self._aw_done and self._w_done
        if s.bvalid and self._b_hold is None:
            if not writing:
                self._error("b_unexpected", "BVALID with no write outstanding")
            elif not write_answerable:
                self._error("b_early", f"BVALID for the write to {op.addr:#x} before its handshakes")
        if s.bvalid and out.bready and write_answerable:
            if s.bresp != RESP_OKAY:
                self._error("b_resp", f"write to {op.addr:#x} answered {resp_name(s.bresp)}")
            op.done, op.resp = True, s.bresp
            self._cur = None
            self.writes += 1
        read_answerable = op is not None and not op.write and self._ar_done
        if s.rvalid and self._r_hold is None and not read_answerable:
            self._error("r_unexpected", "RVALID with no read outstanding")
        if s.rvalid and out.rready and read_answerable:
            if s.rresp != RESP_OKAY:
                self._error("r_resp", f"read of {op.addr:#x} answered {resp_name(s.rresp)}")
            op.done, op.value, op.resp = True, s.rdata, s.rresp
            self._cur = None
            self.reads += 1
        aw_hs = out.awvalid and s.awready
        w_hs = out.wvalid and s.wready
        if aw_hs or w_hs:
            self._aw_done = self._aw_done or aw_hs
            self._w_done = self._w_done or w_hs
            if self._aw_done and self._w_at == _NEVER:
                self._w_at = cycle + 1 + self._delay()
            if self._w_done and self._aw_at == _NEVER:
                self._aw_at = cycle + 1 + self._delay()
        if out.arvalid and s.arready:
            self._ar_done = True
        self._b_hold = s.bresp if s.bvalid and not out.bready else None
        self._r_hold = (s.rdata, s.rresp) if s.rvalid and not out.rready else None

    def finish(self, cycle: int) -> None:
        self._cycle = cycle
        pending = sum(not o.done for o in self.ops)
        if pending:
            self._error("finish_pending", f"{pending} operation(s) never answered")
