#!/usr/bin/env python3
"""Run one step of the cocotb tests (CTest: cocotb.*); fail loudly, never skip.

    run_cocotb.py build TPUGEN VENV CFG_DIR [gen flags...]
        tpugen gen --vpi into CFG_DIR, then verilate it (the cocotb build,
        CFG_DIR/sim_build, shared by every other step).
    run_cocotb.py test TPUGEN VENV CFG_DIR MODULE [WORK_DIR]
        make -C CFG_DIR MODULE=MODULE (the modules of tests/cocotb, or the
        generated example test_tpu), then read the results file: every test
        must pass and there must be at least one.

VENV is the Python environment with cocotb (ci/install-cocotb.sh). A missing
venv, cocotb of another version than tb/cocotb/requirements.txt pins, a
failed gen or verilation, a missing results file: each is a failure with a
message saying what to do.
"""

import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
REQUIREMENTS = ROOT / "tb" / "cocotb" / "requirements.txt"


def fail(message: str) -> None:
    print(f"run_cocotb: FAIL: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def pinned_version() -> str:
    m = re.search(r"^cocotb==(\S+)", REQUIREMENTS.read_text(), re.M)
    if not m:
        fail(f"{REQUIREMENTS} pins no cocotb==VERSION")
    return m.group(1)


def check_venv(venv: Path) -> dict:
    """The environment for make: the venv's bin first on PATH. Fails unless
    the venv has the pinned cocotb."""
    want = pinned_version()
    config = venv / "bin" / "cocotb-config"
    if not config.exists():
        fail(f"cocotb is not installed: no {config}. Install cocotb {want} from PyPI into that venv with "
             f"`TPUGEN_COCOTB_VENV={venv} bash ci/install-cocotb.sh`, or configure with "
             f"-DTPUGEN_COCOTB_VENV=<a venv with cocotb {want}>.")
    got = subprocess.run([str(config), "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True).stdout.strip()
    if got != want:
        fail(f"{venv} has cocotb {got!r}; the tests pin cocotb {want} (tb/cocotb/requirements.txt): "
             f"rerun `TPUGEN_COCOTB_VENV={venv} bash ci/install-cocotb.sh`.")
    env = dict(os.environ)
    env["PATH"] = f"{venv / 'bin'}:{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the source tree
    env.pop("PYTHONHOME", None)
    return env


def run(cmd, env, cwd=None) -> None:
    print("run_cocotb: $ " + " ".join(map(str, cmd)), flush=True)
    rc = subprocess.run(list(map(str, cmd)), env=env, cwd=cwd).returncode
    if rc != 0:
        fail(f"{' '.join(map(str, cmd[:3]))} ... exited {rc}")


def build(tpugen: str, venv: Path, cfg: Path, gen_flags) -> None:
    env = check_venv(venv)
    t0 = time.monotonic()
    run([tpugen, "gen", *gen_flags, "--vpi", "--out", cfg], env)
    for f in ("cocotb.mk", "tpu_config.json", "tpugen_cocotb/__init__.py"):
        if not (cfg / f).exists():
            fail(f"tpugen gen --vpi wrote no {f} in {cfg}")
    run(["make", "-C", cfg, "-j2", cfg / "sim_build" / "Vtop"], env)  # cocotb.mk: SIM_BUILD = CFG_DIR/sim_build
    if not (cfg / "sim_build" / "Vtop").exists():
        fail(f"the Verilator build wrote no {cfg}/sim_build/Vtop")
    print(f"run_cocotb: built the cocotb simulator in {time.monotonic() - t0:.0f} s")


def test(tpugen: str, venv: Path, cfg: Path, module: str, work: Path) -> None:
    env = check_venv(venv)
    if not (cfg / "sim_build" / "Vtop").exists():
        fail(f"no cocotb build in {cfg}/sim_build (the cocotb.build test makes it)")
    env["TPUGEN"] = tpugen
    env["TPUGEN_COCOTB_WORK"] = str(work)
    env["PYTHONPATH"] = f"{HERE}:{env['PYTHONPATH']}" if env.get("PYTHONPATH") else str(HERE)
    results = work / f"results_{module}.xml"
    work.mkdir(parents=True, exist_ok=True)
    results.unlink(missing_ok=True)
    t0 = time.monotonic()
    run(["make", "-C", cfg, f"MODULE={module}", f"COCOTB_RESULTS_FILE={results}"], env)
    if not results.exists():
        fail(f"cocotb wrote no results file {results}")
    cases = ET.parse(results).getroot().iter("testcase")
    passed, failed = [], []
    for c in cases:
        bad = c.find("failure") is not None or c.find("error") is not None
        (failed if bad else passed).append(c.get("name"))
    secs = time.monotonic() - t0
    if failed:
        print(f"run_cocotb: failed: {', '.join(failed)}")
    print(f"{module}: {len(passed)} passed, {len(failed)} failed ({secs:.0f} s)")
    if failed:
        sys.exit(1)
    if not passed:
        fail(f"{results} holds no test case: MODULE={module} ran no test")


def main(argv) -> None:
    if len(argv) < 5 or argv[1] not in ("build", "test"):
        fail(__doc__)
    tpugen, venv, cfg = str(Path(argv[2]).resolve()), Path(argv[3]).resolve(), Path(argv[4]).resolve()
    if argv[1] == "build":
        build(tpugen, venv, cfg, argv[5:])
    else:
        module = argv[5]
        work = Path(argv[6]).resolve() if len(argv) > 6 else cfg / "work"
        test(tpugen, venv, cfg, module, work)


if __name__ == "__main__":
    main(sys.argv)
