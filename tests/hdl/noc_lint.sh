#!/usr/bin/env bash
# noc_lint.sh TPUGEN WORKDIR [noc gen flags...]
# Generate a NoC fabric and lint it with Verilator -Wall, with the
# simulation-only assertions compiled in (all the code there is): no warning
# passes. (The full gates, gates.sh --noc, lint without them too and take
# Yosys and Icarus through smaller meshes.)
set -euo pipefail
tpugen="$1"; work="$2"; shift 2
rm -rf "$work"; mkdir -p "$work"
"$tpugen" noc gen "$@" --out "$work/rtl" > "$work/gen.log"
cd "$work/rtl"
mapfile -t files < files.f
for define in "-DTPU_ASSERT"; do
  echo "== verilator --lint-only -Wall $define"
  verilator --lint-only -Wall $define --top-module tpu_noc_mesh "${files[@]}" 2>&1 | tee ../verilator.log
  if grep -q "%Warning\|%Error" ../verilator.log; then echo "noc_lint.sh: Verilator reported warnings" >&2; exit 1; fi
done
echo "noc_lint.sh: lint clean"
