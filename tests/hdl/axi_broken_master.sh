#!/usr/bin/env bash
# axi_broken_master.sh TPUGEN WORKDIR BUG RULE [tpugen run flags...]
# The AXI protocol checker, tested by a deliberately broken master: build the
# AXI top with the defect BUG (tpugen --inject-bug, a change to the master's
# stream adapters, rtl/axi/) and run the shipped GEMM through the AXI harness.
# The run must fail with a protocol error whose rule id is RULE (e.g.
# axi.ar_4k_boundary), and the same run without the defect must pass, so the
# checker flags the defect and nothing else.
set -euo pipefail
tpugen="$1"; work="$2"; bug="$3"; rule="$4"; shift 4
rm -rf "$work"; mkdir -p "$work"
export TPUGEN_RTL_CACHE="$work/../axi-broken-cache"

if "$tpugen" run --engine rtl --top axi --inject-bug "$bug" "$@" > "$work/broken.log" 2>&1; then
  cat "$work/broken.log"
  echo "axi_broken_master.sh: the run with the defect $bug passed" >&2; exit 1
fi
if ! grep -q "protocol_error" "$work/broken.log" || ! grep -qF "[$rule]" "$work/broken.log"; then
  cat "$work/broken.log"
  echo "axi_broken_master.sh: the defect $bug did not end in a protocol error of rule $rule" >&2; exit 1
fi
grep -F "[$rule]" "$work/broken.log" | head -n 3

if ! "$tpugen" run --engine rtl --top axi "$@" > "$work/clean.log" 2>&1; then
  cat "$work/clean.log"
  echo "axi_broken_master.sh: the same run without the defect failed" >&2; exit 1
fi
echo "axi_broken_master.sh: $bug caught as [$rule]; the clean master passes"
