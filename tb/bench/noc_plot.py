#!/usr/bin/env python3
"""Latency against offered load, one curve per traffic pattern, from the JSON
`tpugen noc bench --json` writes (its "curves"). Uses Debian's
python3-matplotlib. The PNG carries the SHA-256 of the curves it draws (its
"tpugen-curves-sha256" text chunk), so a committed plot can be checked
against a fresh bench without comparing pixels (tests/noc/bench_doc.py).

    noc_plot.py BENCH.json OUT.png
"""
import hashlib
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curves_sha256(bench):
    """The hash of what the plot shows: the curves, as canonical JSON."""
    text = json.dumps(bench["curves"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        bench = json.load(f)
    mesh = bench["mesh"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for pattern, points in bench["curves"].items():
        offered = [p["offered"] for p in points]
        latency = [p["latency_avg"] for p in points]
        ax.plot(offered, latency, marker="o", markersize=3, label=pattern)
    ax.set_xlabel("offered load (flits / node / cycle)")
    ax.set_ylabel("average latency (cycles, source queue included)")
    ax.set_yscale("log")
    ax.set_title(f"tpugen NoC, {mesh['nx']} x {mesh['ny']} mesh, DEPTH {mesh['depth']}, "
                 f"{mesh['routing']} routing ({bench['engine']})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120, metadata={"tpugen-curves-sha256": curves_sha256(bench)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
