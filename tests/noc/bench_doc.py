#!/usr/bin/env python3
"""docs/noc.md's 4 x 4 bench table and docs/noc_4x4.png, and
docs/compute_units.md's multi-core GEMM table, held to a fresh bench.

    bench_doc.py TPUGEN [--engine rtl|model] [--write]
    bench_doc.py TPUGEN --compute-units [--write]

--compute-units runs `tpugen noc bench --compute-units` (always the RTL: the
table is its cycles, which are deterministic) for the second table.

Runs `tpugen noc bench --nx 4 --ny 4` (the RTL by default: the figures the
docs quote are the RTL's) and, with --write, writes the table between the
document's markers and draws the plot; without it, checks that the table and
the plot's embedded curves hash (tb/bench/noc_plot.py) are what the bench
gives, and exits 1 naming what drifted. CI checks with --engine model: the
delivery model is cycle-exact with the RTL (the fuzz.noc_campaign_* tests
hold the two together), and it runs the bench in seconds. Simulation speed
is not in the table (it is the machine's, not the design's).
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "noc.md")
PNG = os.path.join(ROOT, "docs", "noc_4x4.png")
BEGIN = "<!-- the 4x4 bench: written by tests/noc/bench_doc.py --write from `tpugen noc bench --nx 4 --ny 4` -->"
END = "<!-- end of the 4x4 bench -->"
CU_DOC = os.path.join(ROOT, "docs", "compute_units.md")
CU_BEGIN = "<!-- the multi-core table: written by tests/noc/bench_doc.py --compute-units --write -->"
CU_END = "<!-- end of the multi-core table -->"


def curves_sha256(bench):
    text = json.dumps(bench["curves"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def render(bench):
    rates = [p["offered"] for p in next(iter(bench["curves"].values()))]
    out = ["", "| pattern | saturation (flits/node/cycle) | " + " | ".join(f"{r:g}" for r in rates) + " |",
           "|---|---|" + "---|" * len(rates)]
    for pattern, points in bench["curves"].items():
        cells = " | ".join(f"{p['latency_avg']:.1f}" for p in points)
        out.append(f"| {pattern} | {bench['saturation'][pattern]:.3f} | {cells} |")
    out += ["", f"Latency columns: average cycles from creation (source queue included) to delivery at each offered "
            f"load (flits/node/cycle), measured over {bench['window']} cycles after {bench['warmup']} of warm-up. "
            f"Zero-load latency: {bench['zero_load_latency_per_hop']:.2f} cycles per hop + "
            f"{bench['zero_load_latency_intercept']:.2f}. Uniform saturation: "
            f"{100 * bench['uniform_saturation_over_bisection_bound']:.1f}% of the bisection bound "
            f"({bench['bisection_bound']:.2f} flits/node/cycle).", ""]
    return "\n".join(out) + "\n"


def render_cu(bench):
    alone = bench["standalone"]
    out = ["", f"The standalone core on one {alone['shape']} block: {alone['cycles']} cycles, "
           f"{100 * alone['utilization']:.1f}% of its {bench['T'] ** 2} MAC/cycle peak "
           f"(T = {bench['T']}, MAXDIM = {bench['MAXDIM']}, memory latency {bench['latency']}).", "",
           "| units | mesh | agent ports | GEMM | cycles | ideal | utilization | of the standalone core's | flits | unit busy |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in bench["rows"]:
        busy = f"{100 * min(r['core_busy']):.1f}-{100 * max(r['core_busy']):.1f}%"
        out.append(f"| {r['cores']} | {r['mesh'][0]} x {r['mesh'][1]} | {r['agent_ports']} | {r['shape']} | {r['cycles']} | "
                   f"{r['ideal_cycles']:.0f} | {100 * r['utilization']:.1f}% | "
                   f"{100 * r['utilization_of_standalone']:.1f}% | {r['flits']} | {busy} |")
    return "\n".join(out + [""]) + "\n"


def splice(path, begin, end, text):
    """The document at `path` with `text` between its markers, or None."""
    doc = open(path).read()
    if begin not in doc or end not in doc:
        print(f"bench_doc.py: {path} lacks the markers {begin!r} ... {end!r}", file=sys.stderr)
        return doc, None
    head, rest = doc.split(begin + "\n", 1)
    _, tail = rest.split(end, 1)
    return doc, head + begin + "\n" + text + end + tail


def run_bench(cmd):
    """The JSON report of `cmd` (a tpugen command line that takes --json FILE)."""
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "bench.json")
        subprocess.run(cmd + ["--json", js], check=True)
        return json.load(open(js))


def main_cu(tpugen, write):
    bench = run_bench([tpugen, "noc", "bench", "--compute-units"])
    status = settle(CU_DOC, CU_BEGIN, CU_END, render_cu(bench), write, "the multi-core table",
                    "`tpugen noc bench --compute-units`", "--compute-units --write")
    if status == 0 and not write:
        print("bench_doc.py: the multi-core table is up to date")
    return status


def settle(path, begin, end, text, write, what, command, flags):
    """Write `text` between the markers (write), or check it is there: 0, or 1 naming the drift."""
    doc, want = splice(path, begin, end, text)
    if want is None:
        return 1
    if write:
        open(path, "w").write(want)
        print(f"wrote {what} of {path}")
        return 0
    if want != doc:
        print(f"bench_doc.py: {what} of {path} is not what {command} gives; rewrite it with "
              f"tests/noc/bench_doc.py TPUGEN {flags}", file=sys.stderr)
        return 1
    return 0


def png_hash(path):
    data = open(path, "rb").read()
    i = 8
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        if kind == b"tEXt" and body.startswith(b"tpugen-curves-sha256\0"):
            return body.split(b"\0", 1)[1].decode()
        i += 12 + n
    return None


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    tpugen, write = args[0], "--write" in args
    if "--compute-units" in args:
        return main_cu(tpugen, write)
    engine = args[args.index("--engine") + 1] if "--engine" in args else "rtl"
    cmd = [tpugen, "noc", "bench", "--nx", "4", "--ny", "4", "--engine", engine]
    bench = run_bench(cmd + (["--plot", PNG] if write else []))
    status = settle(DOC, BEGIN, END, render(bench), write, "the 4x4 bench table", "`tpugen noc bench`", "--write")
    if write:
        print(f"drew {PNG}")
        return status
    if png_hash(PNG) != curves_sha256(bench):
        print(f"bench_doc.py: {PNG} does not draw the bench's curves; redraw it with --write", file=sys.stderr)
        status = 1
    if status == 0:
        print("bench_doc.py: the 4x4 bench table and plot are up to date")
    return status


if __name__ == "__main__":
    sys.exit(main())
