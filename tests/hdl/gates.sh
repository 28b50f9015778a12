#!/usr/bin/env bash
# gates.sh TPUGEN WORKDIR [--noc] [--yosys-coarse|--yosys-front] [parameter flags...]
# The portability gates on one generated configuration: Verilator -Wall lint
# with no warning (with and without the simulation-only assertions,
# -DTPU_ASSERT), Yosys 0.23 (read_verilog -sv, hierarchy -check, proc,
# check -assert, synth) with no latch cell, and an Icarus -g2012 compile.
# The top is the one the configuration names (params.json: tpu_top, or
# tpu_axi_top with --top axi). --yosys-coarse stops Yosys' synth before its
# fine stage (techmap and ABC, most of its time on a large configuration):
# the front end, the coarse passes and the latch check still run; the full
# synth runs on the smaller configurations and in the synth.* tests.
# --yosys-front runs no synth at all: the front end, proc (which is where a
# latch would be inferred), `check -assert` (combinational loops, undriven and
# multiply-driven nets) and the latch check. For a fabric of many routers whose
# one router the smaller mesh's full synth and the synth.noc_* tests cover.
# --noc gates a NoC fabric (`tpugen noc gen`, top tpu_noc_mesh) instead.
set -euo pipefail
tpugen="$1"; work="$2"; shift 2
gen=(gen)
if [ "${1:-}" = "--noc" ]; then gen=(noc gen); shift; fi
yosys_stage=full
case "${1:-}" in
  --yosys-coarse) yosys_stage=coarse; shift ;;
  --yosys-front) yosys_stage=front; shift ;;
esac
rm -rf "$work"; mkdir -p "$work"
"$tpugen" "${gen[@]}" "$@" --out "$work/rtl" > "$work/gen.log"
cd "$work/rtl"
mapfile -t files < files.f
top=$(python3 -c 'import json; print(json.load(open("params.json"))["top"])')

echo "== verilator --lint-only -Wall"
verilator --lint-only -Wall --top-module "$top" "${files[@]}" 2>&1 | tee ../verilator.log
if grep -q "%Warning\|%Error" ../verilator.log; then echo "gates.sh: Verilator reported warnings" >&2; exit 1; fi
# The same with the simulation-only assertions compiled in (`ifdef TPU_ASSERT).
verilator --lint-only -Wall -DTPU_ASSERT --top-module "$top" "${files[@]}" 2>&1 | tee ../verilator_assert.log
if grep -q "%Warning\|%Error" ../verilator_assert.log; then echo "gates.sh: Verilator reported warnings with -DTPU_ASSERT" >&2; exit 1; fi

echo "== yosys"
case "$yosys_stage" in
  full) synth="synth -top $top;" ;;
  coarse) synth="synth -top $top -run begin:fine;" ;;
  front) synth="" ;;
esac
reads=""
for f in "${files[@]}"; do reads="$reads read_verilog -sv $f;"; done
yosys -q -l ../yosys.log -p "$reads hierarchy -check -top $top; proc; check -assert; $synth select -assert-none t:\$dlatch* t:\$_DLATCH*; stat" > /dev/null
if grep -qi "warning" ../yosys.log; then grep -i warning ../yosys.log; echo "gates.sh: Yosys reported warnings" >&2; exit 1; fi
grep -A40 "=== $top ===\|=== design hierarchy ===" ../yosys.log | tail -40

echo "== iverilog -g2012"
iverilog -g2012 -o ../icarus.vvp -s "$top" "${files[@]}" 2>&1 | tee ../iverilog.log
# Icarus 11 notes that it ignores `unique` on case statements and cannot read
# struct members in some always_comb sensitivity lists; both are documented in
# docs/microarch.md. Anything else it prints fails the gate.
if grep -v "sorry: Case unique/unique0 qualities are ignored" ../iverilog.log \
   | grep -v "sorry: constant selects in always_\* processes are not currently supported" \
   | grep -q .; then
  echo "gates.sh: Icarus reported diagnostics" >&2; exit 1
fi
echo "gates.sh: all three gates pass"
