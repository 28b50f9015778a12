#!/usr/bin/env python3
"""The helper library's memory models (tb/cocotb/tpugen_cocotb/memory.py) on
their own, without a simulator: the port contract of tb/sim/harness/memory_models.h
(latency, in-order responses, held valid, backpressure, protocol checks,
address rules). Run by CTest as cocotb.memory_models with Debian's python3."""

import sys
import unittest
from pathlib import Path

# memory.py alone: the package's __init__ imports cocotb, which this test does not need.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tb" / "cocotb" / "tpugen_cocotb"))

from memory import CWriteMemory, ImemMemory, OperandMemory, PortTiming, WriteReq  # noqa: E402


def cycle(port, c, req_valid, req, rsp_ready):
    out = port.drive(c)
    shown = (out.req_ready, out.rsp_valid, out.rsp)
    port.clock(c, req_valid, req, rsp_ready)
    return shown


class Latency(unittest.TestCase):
    def test_response_after_one_plus_latency_cycles(self):
        for latency in (0, 1, 4):
            m = ImemMemory([10, 11, 12, 13], beat_words=2, depth=8, timing=PortTiming(latency=latency), seed=1)
            ready, valid, _ = cycle(m, 0, True, 2, True)
            self.assertTrue(ready)
            self.assertFalse(valid)
            seen = None
            for c in range(1, 10):
                _, valid, rsp = cycle(m, c, False, None, True)
                if valid:
                    seen = (c, rsp)
                    break
            self.assertEqual(seen, (1 + latency, [12, 13]))
            self.assertEqual(m.errors, [])

    def test_responses_in_request_order(self):
        m = OperandMemory(bytes(range(16)), bytes(range(100, 116)), beat_bytes=4,
                          timing=PortTiming(latency=2), seed=1)
        for c, req in enumerate([(0, 8), (1, 0), (0, 4)]):
            cycle(m, c, True, req, False)
        got = []
        for c in range(3, 12):
            _, valid, rsp = cycle(m, c, False, None, True)
            if valid:
                got.append(rsp)
        self.assertEqual(got, [bytes([8, 9, 10, 11]), bytes([100, 101, 102, 103]), bytes([4, 5, 6, 7])])


class Backpressure(unittest.TestCase):
    def test_valid_held_until_taken_and_ready_withheld_sometimes(self):
        m = ImemMemory(list(range(64)), beat_words=1, depth=64, timing=PortTiming(backpressure=0.5), seed=3)
        not_ready = 0
        held = 0
        for c in range(200):
            ready, valid, _ = cycle(m, c, True, c % 64, False)
            not_ready += not ready
            if valid:
                # Not taken: shown again next cycle, whatever the coin says.
                _, again, _ = cycle(m, c + 1000, False, None, True)
                held += again
                break
        self.assertGreater(not_ready, 0)
        self.assertEqual(held, 1)

    def test_full_queue_drops_ready(self):
        m = ImemMemory([0] * 8, beat_words=1, depth=8, timing=PortTiming(latency=50, max_outstanding=2), seed=1)
        readies = [cycle(m, c, True, c, False)[0] for c in range(4)]
        self.assertEqual(readies, [True, True, False, False])


class ProtocolChecks(unittest.TestCase):
    def test_valid_dropped_before_handshake(self):
        m = ImemMemory([0] * 8, beat_words=1, depth=8, timing=PortTiming(max_outstanding=1), seed=1)
        cycle(m, 0, True, 0, False)   # accepted: the queue is now full
        cycle(m, 1, True, 1, False)   # not ready: pending
        cycle(m, 2, False, None, False)
        self.assertEqual([e.message for e in m.errors], ["request valid dropped before the handshake"])

    def test_payload_changed_while_stalled(self):
        m = ImemMemory([0] * 8, beat_words=1, depth=8, timing=PortTiming(max_outstanding=1), seed=1)
        cycle(m, 0, True, 0, False)
        cycle(m, 1, True, 1, False)
        cycle(m, 2, True, 2, False)
        self.assertEqual([e.message for e in m.errors], ["request payload changed while valid and not ready"])

    def test_address_rules(self):
        im = ImemMemory([0] * 8, beat_words=2, depth=8, timing=PortTiming(), seed=1)
        cycle(im, 0, True, 3, True)
        cycle(im, 1, True, 8, True)
        self.assertIn("not a multiple of the beat", im.errors[0].message)
        self.assertIn("past IMEM_SIZE", im.errors[1].message)
        rd = OperandMemory(bytes(16), bytes(16), beat_bytes=4, timing=PortTiming(), seed=1)
        cycle(rd, 0, True, (1, 6), True)
        self.assertIn("operand read address 6", rd.errors[0].message)


class CWrites(unittest.TestCase):
    def test_strobed_bytes_land_on_accept(self):
        m = CWriteMemory(bytes(8), beat_bytes=4, timing=PortTiming(latency=3), seed=1)
        cycle(m, 0, True, WriteReq(4, bytes([1, 2, 3, 4]), (True, False, True, False)), False)
        self.assertEqual(bytes(m.c), bytes([0, 0, 0, 0, 1, 0, 3, 0]))
        self.assertEqual(m.bytes_written, 2)
        self.assertEqual(m.outstanding, 1)  # one acknowledgement owed

    def test_bad_writes_are_dropped_and_named(self):
        m = CWriteMemory(bytes(8), beat_bytes=4, timing=PortTiming(), seed=1)
        cycle(m, 0, True, WriteReq(2, bytes(4), (True,) * 4), True)
        cycle(m, 1, True, WriteReq(4, bytes(4), (False,) * 4), True)
        cycle(m, 2, True, WriteReq(8, bytes([9] * 4), (True,) * 4), True)
        msgs = [e.message for e in m.errors]
        self.assertIn("not a multiple of the beat", msgs[0])
        self.assertIn("no byte strobe", msgs[1])
        self.assertIn("past C", msgs[2])
        self.assertEqual(bytes(m.c), bytes(8))


class Timing(unittest.TestCase):
    def test_out_of_range_knobs_are_refused(self):
        for bad in (dict(latency=-1), dict(backpressure=1.0), dict(max_outstanding=0)):
            with self.assertRaises(ValueError):
                PortTiming(**bad)


if __name__ == "__main__":
    unittest.main(verbosity=1)
