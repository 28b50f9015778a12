"""Bad binaries end in the fault the core names, not in a hang: the vadd
image with one progress counter's header count changed (the header slices
come from tpu_config.json)."""

import cocotb

from common import operands, setup
from tpugen_cocotb import driver_for


def with_count(cfg, image, counter, delta):
    """The image with `counter`'s header count changed by delta."""
    words = list(image)
    shift, mask = counter.hdr_lsb, (1 << counter.hdr_width) - 1
    count = (words[counter.hdr_word] >> shift) & mask
    new = count + delta
    assert 0 <= new <= mask, f"{counter.name}: count {count} + {delta} does not fit its slice"
    words[counter.hdr_word] = (words[counter.hdr_word] & ~(mask << shift)) | (new << shift)
    return words, count


async def run_bad(dut, name, delta):
    cfg, tools = setup(name)
    image = tools.assemble(tools.program("vadd"))
    # The last counter the program gives work (dma_st's C rows in the shipped spec).
    counter = [c for c in cfg.counters if with_count(cfg, image, c, 0)[1] > 0][-1]
    bad, count = with_count(cfg, image, counter, delta)
    a, b, c = operands(cfg, 5)
    tpu = driver_for(dut, cfg)
    await tpu.reset()
    tpu.load(bad, a, b, c)
    result = await tpu.run(max_cycles=4 * cfg.options["watchdog_cycles"] + 50_000)
    dut._log.info("%s count %d -> %d: %s", counter.name, count, count + delta, result)
    return result, counter.unit.split(".")[0]


@cocotb.test()
async def header_count_short_is_overrun(dut):
    result, unit = await run_bad(dut, "fault_overrun", -1)
    assert result.status == "fault", str(result)
    assert result.fault == "OVERRUN", str(result)
    assert result.fault_unit == unit, str(result)


@cocotb.test()
async def header_count_long_is_starved(dut):
    result, unit = await run_bad(dut, "fault_starved", +2)
    assert result.status == "fault", str(result)
    assert result.fault == "STARVED", str(result)
    assert result.fault_unit == unit, str(result)
