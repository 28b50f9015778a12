#!/usr/bin/python3
"""A bounded campaign must find a deliberate defect, shrink its reproducer to a
handful of instructions, and the reproducer must replay as a mismatch.
Usage: injected.py TPUGEN WORKDIR BUG [PARAMETER FLAGS...]"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

MAX_SHRUNK = 12  # "a handful of instructions"


def main() -> int:
    tpugen, work, bug = sys.argv[1:4]
    params = sys.argv[4:] or ["--T", "4", "--maxdim", "16"]
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    report = work / "report.json"
    cmd = [tpugen, "fuzz", *params, "--count", "300", "--seed", "1", "--jobs", "2", "--inject-bug", bug,
           "--max-repros", "1", "--out", str(work / "repro"), "--json", str(report)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    print(done.stdout)
    if done.returncode != 1:
        print(done.stderr)
        print(f"injected.py: the campaign with {bug} exited {done.returncode}, expected 1 (mismatches found)")
        return 1
    r = json.loads(report.read_text())
    if r["mismatches"] < 1 or not r["reproducers"]:
        print(f"injected.py: no mismatch reported for {bug}")
        return 1
    repro = r["reproducers"][0]
    print(f"injected.py: {bug}: {r['mismatches']} of {r['programs']} programs disagree; seed {repro['seed']} shrunk "
          f"from {repro['original_instructions']} to {repro['instructions']} instructions ({repro['kind']}: "
          f"{repro['detail']})")
    if repro["instructions"] > MAX_SHRUNK or repro["instructions"] >= repro["original_instructions"]:
        print(f"injected.py: the reproducer was not shrunk to at most {MAX_SHRUNK} instructions")
        return 1
    case = json.loads((Path(repro["dir"]) / "case.json").read_text())
    if case["generator_options"]["inject_bug"] != bug:
        print("injected.py: the reproducer does not record the defect")
        return 1
    replay = subprocess.run([tpugen, "fuzz", "--replay", repro["dir"]], capture_output=True, text=True)
    print(replay.stdout.strip())
    if replay.returncode != 1 or "MISMATCH" not in replay.stdout:
        print(replay.stderr)
        print(f"injected.py: the reproducer does not replay as a mismatch (exit {replay.returncode})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
