#!/usr/bin/env python3
"""The helper library's AXI models (tb/cocotb/tpugen_cocotb/axi.py) on their
own, without a simulator: the AXI4 slave memory (latency, bursts, byte lanes,
strobes, W before AW, same-ID order under reordering, DECERR and SLVERR), the
protocol checker (a broken master per rule, a broken slave) and the
AXI4-Lite host against a small register slave. Run by CTest as
cocotb.axi_models with Debian's python3."""

import sys
import types
import unittest
from pathlib import Path

# The modules alone: the package's __init__ imports cocotb, which this test does not need.
_pkg = types.ModuleType("tpugen_cocotb")
_pkg.__path__ = [str(Path(__file__).resolve().parents[2] / "tb" / "cocotb" / "tpugen_cocotb")]
sys.modules["tpugen_cocotb"] = _pkg

from tpugen_cocotb.axi import (AxiAddr, AxiB, AxiChecker, AxiCheckerConfig, AxiLiteHost, AxiMemory,  # noqa: E402
                               AxiR, AxiTiming, AxiW, LiteSlaveSignals, MasterSignals, SlaveSignals, BURST_INCR,
                               RESP_DECERR, RESP_OKAY, RESP_SLVERR)
from tpugen_cocotb.memory import PortTiming  # noqa: E402

BUS = 8


def memory(timing=None, seed=1):
    m = AxiMemory(BUS, timing or AxiTiming(reorder=False, interleave=False), seed)
    m.map("ro", 0x1000, bytes(range(256)), False)
    m.map("rw", 0x2000, 256, True)
    return m


class Master:
    """A scripted master: shows each AR / AW / W until taken, takes every B
    response and the R responses of the cycles where rready(cycle) holds."""

    def __init__(self, mem, ars=(), aws=(), ws=(), rready=lambda cycle: True):
        self.mem, self.ars, self.aws, self.ws = mem, list(ars), list(aws), list(ws)
        self.rready = rready
        self.rs, self.bs = [], []
        self.checker = AxiChecker(BUS, AxiCheckerConfig(id_bits=2, max_burst_beats=16))
        self.cycle = 0

    def step(self):
        s = self.mem.drive(self.cycle)
        m = MasterSignals(rready=self.rready(self.cycle), bready=True)
        if self.ars:
            m.arvalid, m.ar = True, self.ars[0]
        if self.aws:
            m.awvalid, m.aw = True, self.aws[0]
        if self.ws:
            m.wvalid, m.w = True, self.ws[0]
        self.checker.check(self.cycle, m, s)
        self.mem.clock(self.cycle, m)
        if m.arvalid and s.arready:
            self.ars.pop(0)
        if m.awvalid and s.awready:
            self.aws.pop(0)
        if m.wvalid and s.wready:
            self.ws.pop(0)
        if s.rvalid and m.rready:
            self.rs.append((self.cycle, s.r))
        if s.bvalid:
            self.bs.append((self.cycle, s.b))
        self.cycle += 1

    def run(self, cycles=200):
        for _ in range(cycles):
            self.step()
        self.checker.finish(self.cycle)
        return self


def lane_bytes(data, lo, hi):
    return bytes((data >> (8 * k)) & 0xFF for k in range(lo, hi + 1))


class Memory(unittest.TestCase):
    def test_read_burst_after_latency_in_lanes(self):
        for latency in (0, 3):
            mst = Master(memory(AxiTiming(latency=latency, reorder=False, interleave=False)),
                         ars=[AxiAddr(0x1010, id=1, len=2, size=3)]).run(20)
            self.assertEqual(mst.rs[0][0], 1 + latency)
            self.assertEqual([r.last for _, r in mst.rs], [False, False, True])
            self.assertEqual(b"".join(lane_bytes(r.data, 0, 7) for _, r in mst.rs), bytes(range(0x10, 0x28)))
            self.assertEqual(mst.checker.errors, [])

    def test_narrow_beats_use_their_lanes(self):
        mst = Master(memory(), ars=[AxiAddr(0x1004, len=1, size=2)]).run(10)
        (_, r0), (_, r1) = mst.rs
        self.assertEqual(lane_bytes(r0.data, 4, 7), bytes([4, 5, 6, 7]))
        self.assertEqual(lane_bytes(r1.data, 0, 3), bytes([8, 9, 10, 11]))

    def test_strobed_write_and_w_before_aw(self):
        mem = memory()
        mst = Master(mem, ws=[AxiW(0x1122334455667788, 0b00001111, False), AxiW(0xAABBCCDDEEFF0011, 0b11110000, True)])
        for _ in range(5):
            mst.step()  # W beats lead their AW
        self.assertEqual(mem.stats.early_w_beats, 2)
        mst.aws.append(AxiAddr(0x2008, id=0, len=1, size=3))
        mst.run(20)
        self.assertEqual(bytes(mem.region("rw").data[8:24]),
                         bytes([0x88, 0x77, 0x66, 0x55, 0, 0, 0, 0, 0, 0, 0, 0, 0xDD, 0xCC, 0xBB, 0xAA]))
        self.assertEqual([b for _, b in mst.bs], [AxiB(0, RESP_OKAY)])
        self.assertEqual(mst.checker.errors, [])

    def test_same_id_order_kept_under_reordering(self):
        seen_swapped = False
        for seed in range(20):
            mst = Master(memory(AxiTiming(reorder=True, interleave=True), seed),
                         ars=[AxiAddr(0x1000, id=0, len=3, size=3), AxiAddr(0x1040, id=1, len=0, size=3),
                              AxiAddr(0x1080, id=0, len=0, size=3)]).run(30)
            first = [lane_bytes(r.data, 0, 0)[0] for _, r in mst.rs if r.id == 0]
            self.assertEqual(first, [0x00, 0x08, 0x10, 0x18, 0x80])  # id 0: its two bursts in order
            ids = [r.id for _, r in mst.rs]
            seen_swapped |= ids.index(1) < 3
            self.assertEqual(mst.checker.errors, [])
        self.assertTrue(seen_swapped, "an id 1 burst never overtook the older id 0 burst")

    def test_decerr_and_slverr(self):
        mem = memory()
        mst = Master(mem, ars=[AxiAddr(0x3000, id=0, len=0, size=3)], aws=[AxiAddr(0x1000, id=1, len=0, size=3)],
                     ws=[AxiW(1, 0xFF, True)]).run(20)
        self.assertEqual([r.resp for _, r in mst.rs], [RESP_DECERR])
        self.assertEqual([b.resp for _, b in mst.bs], [RESP_SLVERR])
        self.assertEqual(len(mem.errors), 2)
        self.assertEqual(mem.region("ro").data[0], 0)  # not written

    def test_stalls_hold_valid_and_payload(self):
        mst = Master(memory(AxiTiming(ready_stall=0.5, valid_stall=0.5, reorder=True, interleave=True), 3),
                     ars=[AxiAddr(0x1000 + 0x10 * k, id=k % 2, len=1, size=3) for k in range(6)],
                     rready=lambda cycle: cycle % 3 == 0).run(300)
        self.assertEqual(mst.checker.errors, [])
        self.assertEqual(mst.mem.stats.read_beats, 12)

    def test_port_timing_maps_to_both_stalls(self):
        t = AxiTiming.of(PortTiming(latency=2, backpressure=0.25))
        self.assertEqual((t.latency, t.ready_stall, t.valid_stall), (2, 0.25, 0.25))
        with self.assertRaises(ValueError):
            AxiTiming(valid_stall=1.0)


class CheckerMaster(unittest.TestCase):
    def rules(self, **kw):
        return Master(memory(), **kw).run(40).checker.rules()

    def test_burst_across_4k(self):
        self.assertIn("axi.ar_4k_boundary", self.rules(ars=[AxiAddr(0x1FF8, len=1, size=3)]))

    def test_burst_too_long(self):
        self.assertIn("axi.ar_burst_too_long", self.rules(ars=[AxiAddr(0x1000, len=16, size=3)]))

    def test_wlast_early_and_missing(self):
        self.assertIn("axi.wlast_early", self.rules(aws=[AxiAddr(0x2000, len=1, size=3)],
                                                    ws=[AxiW(0, 0xFF, True), AxiW(0, 0xFF, True)]))
        self.assertIn("axi.wlast_missing", self.rules(aws=[AxiAddr(0x2000, len=1, size=3)],
                                                      ws=[AxiW(0, 0xFF, False), AxiW(0, 0xFF, False)]))

    def test_unaligned_and_wide(self):
        self.assertIn("axi.ar_unaligned", self.rules(ars=[AxiAddr(0x1002, size=2)]))
        self.assertIn("axi.ar_size_too_wide", self.rules(ars=[AxiAddr(0x1000, size=4)]))

    def test_valid_dropped_and_payload_changed(self):
        c = AxiChecker(BUS)
        stalled = SlaveSignals()
        c.check(0, MasterSignals(arvalid=True, ar=AxiAddr(0x1000, size=3)), stalled)
        c.check(1, MasterSignals(arvalid=True, ar=AxiAddr(0x1008, size=3)), stalled)
        c.check(2, MasterSignals(), stalled)
        self.assertEqual(c.rules(), {"axi.ar_payload_changed", "axi.ar_valid_dropped"})

    def test_strobe_outside_lanes(self):
        self.assertIn("axi.wstrb_lanes", self.rules(aws=[AxiAddr(0x2004, size=2)], ws=[AxiW(0, 0x0F, True)]))

    def test_clean_master_no_errors(self):
        self.assertEqual(self.rules(ars=[AxiAddr(0x1000, len=15, size=3)], aws=[AxiAddr(0x2000, len=1, size=3)],
                                    ws=[AxiW(0, 0xFF, False), AxiW(0, 0xFF, True)]), set())


class CheckerSlave(unittest.TestCase):
    def test_same_id_order(self):
        c = AxiChecker(BUS)
        ok = SlaveSignals(arready=True)
        c.check(0, MasterSignals(arvalid=True, ar=AxiAddr(0x0, id=0, len=3, size=3)), ok)
        c.check(1, MasterSignals(arvalid=True, ar=AxiAddr(0x100, id=0, len=0, size=3)), ok)
        c.check(2, MasterSignals(rready=True), SlaveSignals(rvalid=True, r=AxiR(0, 0, RESP_OKAY, True)))
        self.assertEqual(c.rules(), {"axi.r_same_id_order"})

    def test_unexpected_ids_and_early_b(self):
        c = AxiChecker(BUS)
        c.check(0, MasterSignals(rready=True, bready=True),
                SlaveSignals(rvalid=True, r=AxiR(1, 0, RESP_OKAY, True), bvalid=True, b=AxiB(0, RESP_OKAY)))
        c.check(1, MasterSignals(awvalid=True, aw=AxiAddr(0x0, len=1, size=3)), SlaveSignals(awready=True))
        c.check(2, MasterSignals(bready=True), SlaveSignals(bvalid=True, b=AxiB(0, RESP_OKAY)))
        self.assertEqual(c.rules(), {"axi.r_unexpected_id", "axi.b_unexpected_id", "axi.b_before_wlast"})


class LiteSlave:
    """Registers behind AXI4-Lite: AW and W in any order, B after both, R a cycle after AR."""

    def __init__(self, drop_b=False):
        self.regs, self.aw, self.w, self.b, self.r = {}, None, None, False, None
        self.drop_b = drop_b

    def step(self, h):
        s = LiteSlaveSignals(awready=self.aw is None, wready=self.w is None, bvalid=self.b,
                             arready=self.r is None, rvalid=self.r is not None, rdata=self.r or 0)
        if self.r is not None and h.rready:
            self.r = None
        if self.b and (h.bready or self.drop_b):
            self.b = False
        if h.awvalid and s.awready:
            self.aw = h.awaddr
        if h.wvalid and s.wready:
            self.w = h.wdata
        if self.aw is not None and self.w is not None and not self.b and not s.bvalid:
            self.regs[self.aw], self.aw, self.w, self.b = self.w, None, None, True
        if h.arvalid and s.arready:
            self.r = self.regs.get(h.araddr, 0) | 0  # shown from the next cycle
        return s


def run_host(host, slave, cycles=300):
    for c in range(cycles):
        h = host.drive(c)
        host.clock(c, slave.step(h))
        if host.idle:
            break
    host.finish(c)


class LiteHost(unittest.TestCase):
    def test_writes_then_reads_back(self):
        host = AxiLiteHost(max_delay=4, ready_stall=0.3, seed=5)
        slave = LiteSlave()
        writes = [host.write(4 * k, 0x1000 + k) for k in range(6)]
        reads = [host.read(4 * k) for k in range(6)]
        run_host(host, slave)
        self.assertTrue(all(op.done for op in writes + reads))
        self.assertEqual([op.value for op in reads], [0x1000 + k for k in range(6)])
        self.assertEqual(host.errors, [])

    def test_slave_dropping_bvalid_is_named(self):
        host = AxiLiteHost(max_delay=0, ready_stall=0.9, seed=1)
        host.write(0, 1)
        run_host(host, LiteSlave(drop_b=True), 50)
        self.assertIn("[axil.b_valid_dropped]", " ".join(e.message for e in host.errors))


if __name__ == "__main__":
    unittest.main(verbosity=1)
