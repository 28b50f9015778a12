#!/usr/bin/env bash
# assert_fifo_overflow.sh TPUGEN WORKDIR
# The RTL's assertions are on in the Verilator harness (--assert -DTPU_ASSERT):
# generate T=4 MAXDIM=16, break the copy's tpu_fifo so that ready_o stays high
# when it is full (a full queue then takes a push), fuzz that directory
# (tpugen fuzz --rtl) and expect a non-zero exit with tpu_fifo's overflow
# assertion named in the report.
set -euo pipefail
tpugen="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
fail() { cat "$work/fuzz.log" 2>/dev/null || true; echo "assert_fifo_overflow.sh: $1" >&2; exit 1; }

"$tpugen" gen --T 4 --maxdim 16 --out "$work/rtl" > "$work/gen.log"
fifo="$work/rtl/tpu_fifo.sv"
correct="assign ready_o = (count_q != CntW'(Depth));"
[ "$(grep -cF "$correct" "$fifo")" = 1 ] || fail "tpu_fifo.sv no longer has the line this test breaks: $correct"
sed -i "s/assign ready_o = (count_q != CntW'(Depth));/assign ready_o = 1'b1;  \/\/ BROKEN: ready while full/" "$fifo"
grep -qF "BROKEN: ready while full" "$fifo" || fail "the sed did not break tpu_fifo.sv"

rc=0
"$tpugen" fuzz --rtl "$work/rtl" --T 4 --maxdim 16 --count 4 --seed 1 -j 1 --no-shrink \
  --out "$work/out" > "$work/fuzz.log" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "the broken FIFO ran through with exit 0"
grep -q "Assertion failed in TOP\.tpu_top\.u_[a-z0-9_]*\.u_push_while_full" "$work/fuzz.log" \
  || fail "no tpu_fifo overflow assertion in the report"
grep -m 1 "Assertion failed" "$work/fuzz.log"
echo "assert_fifo_overflow.sh: the broken FIFO's overflow assertion fired (exit $rc)"
