#!/usr/bin/env python3
"""check_synth.py TPUGEN OUT EXPECT [tpugen synth arguments...]

Runs `tpugen synth ... --out OUT` and checks what it did.
EXPECT is `ok` (exit 0, every output well-formed, plausible numbers) or a
rule code (e.g. synth.latch), optionally followed by `:TEXT`: exit 1, the
rule (and TEXT) named on stderr, the failure in synth_report.json, which is
still written. `ok:units=A,B,...` also wants ice40's per-unit place and
route: the whole top did not fit, each named unit (and every unit tried)
routed with an Fmax, and the core estimate the minimum of those. The extra
argument --no-ram (removed before tpugen sees it) drops the expectation of a
RAM for a design without one; --no-ram-primitive only that of an instance of
the RAM primitive (a design whose memories are other arrays, still mapped to
block or distributed RAM). --noc runs `tpugen noc synth` instead of `tpugen
synth`. --want-param NAME=VALUE wants the report's parameters to say so;
--want-top-param NAME=VALUE also wants the top elaborated with it: in
synth_report.json's top_parameters, a chparam in synth.ys, a -generic in
vivado_synth.tcl and a vlogparam of the .core.
"""
import json
import os
import re
import shutil
import subprocess
import sys


report_dir = "."


def fail(msg):
    print(f"check_synth.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    tpugen, out, expect = sys.argv[1:4]
    expect, _, expect_text = expect.partition(":")  # RULE:TEXT also wants TEXT in the error
    args = sys.argv[4:]
    # Options of this script, not of tpugen.
    no_ram = "--no-ram" in args  # a design without RAM
    no_ram_primitive = no_ram or "--no-ram-primitive" in args  # without the RAM primitive
    command = ["noc", "synth"] if "--noc" in args else ["synth"]
    want_params, want_top_params, rest = {}, {}, []
    i = 0
    while i < len(args):
        if args[i] in ("--want-param", "--want-top-param"):
            name, _, value = args[i + 1].partition("=")
            (want_params if args[i] == "--want-param" else want_top_params)[name] = value
            i += 2
            continue
        if args[i] not in ("--no-ram", "--no-ram-primitive", "--noc"):
            rest.append(args[i])
        i += 1
    args = rest
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.run([tpugen, *command, *args, "--out", out], capture_output=True, text=True)
    print(proc.stdout)
    print(proc.stderr, file=sys.stderr)
    report_path = os.path.join(out, "synth_report.json")
    global report_dir
    report_dir = out
    if expect != "ok":
        if proc.returncode != 1:
            fail(f"exit code {proc.returncode}, expected 1 for {expect}")
        if f"error [{expect}]" not in proc.stderr:
            fail(f"stderr does not name [{expect}]")
        if expect_text and expect_text not in proc.stderr:
            fail(f"stderr does not say {expect_text!r}")
        report = json.load(open(report_path))
        if report["ok"] or report["failure"]["rule"] != expect:
            fail(f"synth_report.json does not record the failure {expect}: {report.get('failure')}")
        gate = [g for g in report["gates"] if g["rule"] == expect]
        if not gate or gate[0]["status"] != "fail" or not gate[0]["message"]:
            fail(f"gate {expect} not recorded as failed with a message")
        print(f"check_synth.py: failed as expected: [{expect}] {gate[0]['message']}")
        return

    if proc.returncode != 0:
        fail(f"exit code {proc.returncode}, expected 0")
    report = json.load(open(report_path))
    target, top = report["target"], report["top"]
    for f in report["files"]:
        if not os.path.exists(os.path.join(out, f)):
            fail(f"the report lists {f}, which does not exist")
    for f in ["files.f", "synth.ys", "yosys.log", "netlist.v", "netlist.json", "constraints.sdc",
              "synth_report.txt", "synth_report.json"]:
        if not os.path.getsize(os.path.join(out, f)):
            fail(f"{f} missing or empty")
    if target != "ice40":
        for f in ["constraints.xdc", "vivado_synth.tcl"]:
            if not os.path.getsize(os.path.join(out, f)):
                fail(f"{f} missing or empty")
    for f in os.listdir(out):  # no placeholder left unfilled
        path = os.path.join(out, f)
        if os.path.isfile(path) and f.endswith((".sdc", ".xdc", ".tcl", ".core", ".ys", ".sv")):
            if re.search(r"\{\{\w+\}\}", open(path).read()):
                fail(f"{f} has an unfilled placeholder")

    # files.f: every source exists, in rtl/, and the package (if any) first.
    sources = [l.strip() for l in open(os.path.join(out, "files.f")) if l.strip()]
    for s in sources:
        if not s.startswith("rtl/") or not os.path.exists(os.path.join(out, s)):
            fail(f"files.f names {s}, not a file under rtl/")
    pkgs = [i for i, s in enumerate(sources) if s.endswith("_pkg.sv")]
    if pkgs and pkgs != [0]:
        fail("the package is not first in files.f")

    # The netlist has the top module with ports.
    netlist = json.load(open(os.path.join(out, "netlist.json")))
    if top not in netlist["modules"] or not netlist["modules"][top]["ports"]:
        fail(f"netlist.json has no module {top} with ports")
    if f"module {top}" not in open(os.path.join(out, "netlist.v")).read():
        fail(f"netlist.v has no module {top}")

    # The FuseSoC core: CAPI=2 first, a VLNV name, every file of files.f, the targets.
    cores = [f for f in os.listdir(out) if f.endswith(".core")]
    if len(cores) != 1:
        fail(f"expected one .core file, found {cores}")
    core = open(os.path.join(out, cores[0])).read()
    if not core.startswith("CAPI=2:\n"):
        fail(".core does not start with CAPI=2:")
    if not re.search(r"^name: tpugen:tpugen:\S+:\d+\.\d+\.\d+$", core, re.M):
        fail(".core has no VLNV name tpugen:tpugen:<name>:<version>")
    core_files = re.findall(r"^\s+- (rtl/\S+)$", core, re.M)
    if core_files != sources:
        fail(f".core lists {core_files}, files.f {sources} (same files, same order expected)")
    for t in ["default:", "lint:", "synth:"]:
        if not re.search(rf"^  {t}", core, re.M):
            fail(f".core has no target {t}")
    if core.count(f"toplevel: {top}") != 1 or "file_type: systemVerilogSource" not in core:
        fail(".core: toplevel or file_type missing")

    # The constraints name the clock port the netlist has.
    clock = report["clock"]["port"]
    ports = netlist["modules"][top]["ports"]
    if clock not in ports:
        fail(f"clock port {clock!r} is not a port of {top}")
    if f"get_ports {clock}" not in open(os.path.join(out, "constraints.sdc")).read():
        fail("constraints.sdc does not constrain the clock port")

    # Gates and plausible numbers.
    if not report["ok"] or any(g["status"] != "pass" for g in report["gates"]):
        fail(f"a gate did not pass: {report['gates']}")
    rules = {g["rule"] for g in report["gates"]}
    want = {"synth.latch", "synth.comb_loop", "synth.multidriven", "synth.undriven", "synth.memory"}
    if target == "ice40":
        want.add("synth.fit")
    if rules != want:
        fail(f"gates {sorted(rules)}, expected {sorted(want)}")
    res = report["resources"]
    if report["memories"]["ram_instances"] < 1 and not no_ram_primitive:
        fail("no instance of the RAM primitive counted")
    if report["tools"]["yosys"].find("Yosys") < 0 or not report["spec"]:
        fail("tool versions or spec missing")
    if report.get("depth", {}).get("cells", 0) < 1:
        fail("no logic depth")
    if target == "generic":
        if res["gates"] <= 0 or res["ff"] <= 0:
            fail(f"implausible generic counts {res}")
    else:
        if res["lut"] <= 0 or res["ff"] <= 0:
            fail(f"no LUT or FF: {res}")
        ram = res["bram"] + res.get("lutram_cells", 0)
        if ram < 1 and not no_ram:
            fail(f"no block or distributed RAM: {res}")
    check_parameters(report, out, top, core, want_params, want_top_params)
    if target == "ice40" and expect_text.startswith("units="):
        check_units(report, expect_text[len("units="):].split(","))
    elif target == "ice40":
        pnr = report["pnr"]
        if not pnr["routed"] or not pnr.get("fmax_mhz", 0) > 0:
            fail(f"no Fmax from nextpnr: {pnr}")
    print(f"check_synth.py: {target} ok: {res}")


def check_parameters(report, out, top, core, want_params, want_top_params):
    """The report's parameters, and the top's in every script that elaborates it."""
    params = report["parameters"]
    top_params = report.get("top_parameters", {})
    if not want_top_params and top_params:
        fail(f"top_parameters {top_params}, none expected")
    for name, value in {**want_params, **want_top_params}.items():
        if params.get(name) != value:
            fail(f"the report's parameters say {name}={params.get(name)!r}, expected {value!r}: {params}")
    synth_ys = open(os.path.join(out, "synth.ys")).read()
    for name, value in want_top_params.items():
        if top_params.get(name) != value:
            fail(f"top_parameters say {name}={top_params.get(name)!r}, expected {value!r}")
        chparam = f"chparam -set {name} {value} {top}\n"
        if chparam not in synth_ys or synth_ys.index(chparam) > synth_ys.index(f"hierarchy -check -top {top}"):
            fail(f"synth.ys does not set {name} = {value} before hierarchy elaborates {top}")
        if report["target"] != "ice40" and f" -generic {name}={value}" not in open(
                os.path.join(out, "vivado_synth.tcl")).read():
            fail(f"vivado_synth.tcl does not pass -generic {name}={value}")
        if not re.search(rf"^  {name}:\n    datatype: int\n    paramtype: vlogparam\n    default: {value}$", core, re.M):
            fail(f"the .core has no vlogparam {name} with default {value}")
    if want_top_params and f"    parameters: [{', '.join(want_top_params)}]" not in core:
        fail("the .core's default target does not take the top's parameters")


def check_units(report, want):
    """ice40 per-unit mode: every unit routed with an Fmax, the estimate the minimum."""
    per_unit = report.get("per_unit")
    if not per_unit:
        fail("no per_unit section in synth_report.json")
    if per_unit["top_fits"] or report["pnr"]["routed"]:
        fail("the whole top was expected not to fit")
    fit = [g for g in report["gates"] if g["rule"] == "synth.fit"][0]
    if "does not fit" not in fit["message"] or "per unit" not in fit["message"]:
        fail(f"synth.fit does not report the whole top's failure and the per-unit run: {fit['message']}")
    units = per_unit["units"]
    routed = [u for u in units if u["status"] == "routed"]
    for u in units:
        if u["status"] not in ("routed", "split"):
            fail(f"unit {u['name']} is {u['status']}")
        if not os.path.exists(os.path.join(report_dir, u["dir"], "pnr_report.json")) and u["status"] == "routed":
            fail(f"unit {u['name']}: no pnr_report.json in {u['dir']}")
    for u in routed:
        if not u.get("fmax_mhz", 0) > 0 or u["cells"]["lut"] <= 0:
            fail(f"unit {u['name']}: no Fmax or no LUT: {u}")
    names = {u["name"] for u in routed}
    missing = [n for n in want if n not in names]
    if missing:
        fail(f"units {missing} not placed and routed (routed: {sorted(names)})")
    fmin = min(u["fmax_mhz"] for u in routed)
    if abs(per_unit["core_fmax_estimate_mhz"] - fmin) > 1e-9:
        fail(f"core estimate {per_unit['core_fmax_estimate_mhz']} is not the minimum {fmin}")
    slowest = [u["name"] for u in routed if u["fmax_mhz"] == fmin]
    if per_unit["limited_by"] not in slowest:
        fail(f"limited_by {per_unit['limited_by']}, the slowest is {slowest}")
    for u in routed:
        print(f"check_synth.py: unit {u['name']:<16} {u['fmax_mhz']:8.2f} MHz  "
              f"LC {u['utilization']['ICESTORM_LC']['used']}")
    print(f"check_synth.py: core estimate {fmin:.2f} MHz ({per_unit['limited_by']})")


if __name__ == "__main__":
    main()
