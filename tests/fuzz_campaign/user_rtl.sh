#!/usr/bin/env bash
# tpugen fuzz --rtl: fuzz an RTL directory the user supplies. The generated
# RTL, copied, must agree with the model; the same copy with a defect edited
# into it by hand must be caught, shrunk, and replay as a mismatch.
# Usage: user_rtl.sh TPUGEN WORKDIR
set -euo pipefail
tpugen="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
params=(--T 4 --maxdim 16)
"$tpugen" gen "${params[@]}" --out "$work/good" > /dev/null
"$tpugen" fuzz "${params[@]}" --rtl "$work/good" --count 40 --jobs 2 --out "$work/good-out" | tail -1 | tee "$work/good.txt"
grep -q "40 programs .*, 0 mismatches, 0 errors" "$work/good.txt"

# The defect: the emitted row always comes from the first issue slot's sum
# (wrong whenever an mvout issues from the second slot, beside an mm).
cp -r "$work/good" "$work/bad"
sed -i "s/assign e = ex0_q.em ? v0\[l\*AccW +: AccW\] : v1\[l\*AccW +: AccW\];/assign e = v0[l*AccW +: AccW];/" \
  "$work/bad/tpu_accu.sv"
if cmp -s "$work/good/tpu_accu.sv" "$work/bad/tpu_accu.sv"; then
  echo "user_rtl.sh: the defect was not edited in (tpu_accu.sv changed?)"; exit 1
fi
set +e
"$tpugen" fuzz "${params[@]}" --rtl "$work/bad" --count 300 --jobs 2 --max-repros 1 --out "$work/bad-out" \
  --json "$work/bad.json" > "$work/bad.txt" 2>&1
code=$?
set -e
tail -4 "$work/bad.txt"
[ "$code" -eq 1 ] || { echo "user_rtl.sh: the campaign on the edited RTL exited $code, expected 1"; exit 1; }
repro=$(ls -d "$work"/bad-out/seed-* | head -1)
grep -q "\"rtl_dir\": \"$work/bad\"" "$repro/case.json" || grep -q "bad\"" "$repro/case.json"
set +e
"$tpugen" fuzz --replay "$repro" > "$work/replay.txt" 2>&1
code=$?
set -e
cat "$work/replay.txt"
[ "$code" -eq 1 ] && grep -q MISMATCH "$work/replay.txt" || { echo "user_rtl.sh: the reproducer does not replay"; exit 1; }
echo "user_rtl.sh: the edited RTL was caught and its reproducer replays"
