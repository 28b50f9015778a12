"""The memories outside the core, as cycle-level valid/ready models.

The same contract as the C++ harness's models (tb/sim/harness/memory_models.h):
imem (beats of 64-bit words, reads only), the operand read port (A or B),
and the C write port. Each port is a request stream from the core and a
response stream back, in request order. Per cycle the driver calls
`drive(cycle)` (what the memory shows the core: request ready, response
valid and data), lets the core settle, then `clock(cycle, ...)` with what the
core showed (request valid and payload, response ready): `clock` commits the
handshakes of the cycle. A request accepted in cycle c has its response valid
at the earliest in cycle c + 1 + latency. `backpressure` is the probability
that the memory withholds its request ready, or the raising of its response
valid, in a cycle (a raised valid is held until the handshake).

Protocol checks on the core's side of each stream: a request valid that drops
before its handshake, a request payload that changes while valid and not
ready, and each memory's own address rules (alignment, range). Each is
recorded as a ProtocolError naming the cycle and the port.

Pure Python: no cocotb import, so the models can be tested on their own.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Deque, List, Optional, Sequence, Tuple


@dataclass
class ProtocolError:
    cycle: int
    port: str
    message: str

    def __str__(self) -> str:
        return f"cycle {self.cycle}, {self.port}: {self.message}"


@dataclass
class PortTiming:
    """How a memory answers."""

    latency: int = 0            #: cycles from the request handshake to response valid, beyond the next cycle
    backpressure: float = 0.0   #: 0..1: probability of withholding ready, or raising valid, in a cycle
    max_outstanding: int = 16   #: requests accepted and not yet answered (ready falls when full)

    def __post_init__(self) -> None:
        if self.latency < 0:
            raise ValueError(f"latency must be >= 0, not {self.latency}")
        if not 0.0 <= self.backpressure < 1.0:
            raise ValueError(f"backpressure must be in [0, 1), not {self.backpressure}")
        if self.max_outstanding < 1:
            raise ValueError(f"max_outstanding must be >= 1, not {self.max_outstanding}")


@dataclass
class PortStats:
    requests: int = 0
    responses: int = 0
    req_stall_cycles: int = 0   #: request valid and not ready
    rsp_stall_cycles: int = 0   #: response valid and not ready
    max_outstanding: int = 0


@dataclass
class Outputs:
    """What a memory shows the core in one cycle."""

    req_ready: bool = False
    rsp_valid: bool = False
    rsp: Any = None  #: the response shown, when rsp_valid


class Port:
    """A request/response stream pair with latency, backpressure, an in-order
    queue and protocol checks. Subclasses implement `serve`."""

    def __init__(self, name: str, timing: PortTiming, seed: int):
        self.name = name
        self.timing = timing
        self._rng = random.Random(seed)
        self._queue: Deque[Tuple[int, Any]] = deque()  # (ready_at, response)
        self._out = Outputs()
        self._rsp_shown = False        # response valid shown last cycle and not taken
        self._pending_req: Any = None  # request shown last cycle and not accepted
        self.errors: List[ProtocolError] = []
        self.stats = PortStats()

    def serve(self, req: Any) -> Tuple[Any, str]:
        """Answer one accepted request: (response, error message or "")."""
        raise NotImplementedError

    def _withhold(self) -> bool:
        return self.timing.backpressure > 0.0 and self._rng.random() < self.timing.backpressure

    def drive(self, cycle: int) -> Outputs:
        """Decide this cycle's memory-side signals (once per cycle, before the
        core's outputs are sampled)."""
        hold_ready = self._withhold()
        hold_valid = self._withhold()
        out = Outputs()
        out.req_ready = len(self._queue) < self.timing.max_outstanding and not hold_ready
        out.rsp_valid = self._rsp_shown or (bool(self._queue) and self._queue[0][0] <= cycle and not hold_valid)
        out.rsp = self._queue[0][1] if out.rsp_valid else None
        self._out = out
        return out

    def clock(self, cycle: int, req_valid: bool, req: Any, rsp_ready: bool) -> None:
        """The core's side of the cycle (sampled after it settled, before the
        clock edge): check it and commit the handshakes."""
        if self._pending_req is not None:
            if not req_valid:
                self.error(cycle, "request valid dropped before the handshake")
            elif req != self._pending_req:
                self.error(cycle, "request payload changed while valid and not ready")
        self._pending_req = None
        if req_valid and self._out.req_ready:
            rsp, err = self.serve(req)
            if err:
                self.error(cycle, err)
            self._queue.append((cycle + 1 + self.timing.latency, rsp))
            self.stats.requests += 1
            self.stats.max_outstanding = max(self.stats.max_outstanding, len(self._queue))
        elif req_valid:
            self._pending_req = req
            self.stats.req_stall_cycles += 1
        if self._out.rsp_valid and rsp_ready:
            self._queue.popleft()
            self._rsp_shown = False
            self.stats.responses += 1
        else:
            self._rsp_shown = self._out.rsp_valid
            if self._out.rsp_valid:
                self.stats.rsp_stall_cycles += 1
        self._out = Outputs()

    @property
    def outstanding(self) -> int:
        """Requests accepted whose response the core has not taken."""
        return len(self._queue)

    def error(self, cycle: int, message: str) -> None:
        self.errors.append(ProtocolError(cycle, self.name, message))


class ImemMemory(Port):
    """imem: a beat of `beat_words` 64-bit words per request (addr: the index of
    the beat's first word). Words past the image (up to `depth`) read 0."""

    def __init__(self, words: Sequence[int], beat_words: int, depth: int, timing: PortTiming, seed: int):
        super().__init__("imem", timing, seed)
        self.words = list(words)
        self.beat_words = beat_words
        self.depth = depth

    def serve(self, addr: int) -> Tuple[List[int], str]:
        err = ""
        if addr % self.beat_words:
            err = f"imem address {addr} is not a multiple of the beat ({self.beat_words} words)"
        elif addr >= self.depth:
            err = f"imem address {addr} is past IMEM_SIZE ({self.depth} words)"
        beat = [self.words[addr + k] if addr + k < len(self.words) else 0 for k in range(self.beat_words)]
        return beat, err


class OperandMemory(Port):
    """Operand reads: `beat_bytes` bytes of A (sel 0) or B (sel 1) from a byte
    offset; bytes past the matrix read 0. A request is (sel, addr)."""

    def __init__(self, a: bytes, b: bytes, beat_bytes: int, timing: PortTiming, seed: int):
        super().__init__("dram_rd", timing, seed)
        self.a = bytes(a)
        self.b = bytes(b)
        self.beat_bytes = beat_bytes

    def serve(self, req: Tuple[int, int]) -> Tuple[bytes, str]:
        sel, addr = req
        err = ""
        if addr % self.beat_bytes:
            err = f"operand read address {addr} is not a multiple of the beat ({self.beat_bytes} bytes)"
        m = self.b if sel else self.a
        beat = m[addr:addr + self.beat_bytes]
        return beat + bytes(self.beat_bytes - len(beat)), err


@dataclass(frozen=True)
class WriteReq:
    """One C write beat: byte k of `data` goes to addr + k when strb[k] is set."""

    addr: int
    data: bytes
    strb: Tuple[bool, ...]


class CWriteMemory(Port):
    """C writes: `beat_bytes` bytes to a byte offset, one acknowledgement per
    write. The bytes land when the request is accepted."""

    def __init__(self, c: bytes, beat_bytes: int, timing: PortTiming, seed: int):
        super().__init__("dram_wr", timing, seed)
        self.c = bytearray(c)
        self.beat_bytes = beat_bytes
        self.bytes_written = 0

    def serve(self, req: WriteReq) -> Tuple[None, str]:
        strobed = [k for k, s in enumerate(req.strb) if s]
        last = strobed[-1] + 1 if strobed else 0
        if req.addr % self.beat_bytes:
            return None, (f"C write address {req.addr} is not a multiple of the beat ({self.beat_bytes} bytes); "
                          "dropped")
        if not strobed:
            return None, f"C write at {req.addr} has no byte strobe set"
        if req.addr + last > len(self.c):
            return None, f"C write at {req.addr} strobes bytes past C ({len(self.c)} bytes); dropped"
        for k in strobed:
            self.c[req.addr + k] = req.data[k]
        self.bytes_written += len(strobed)
        return None, ""
