#!/usr/bin/env bash
# Ctrl-C stops a campaign cleanly: the summary so far, the JSON report, exit 1.
# Usage: interrupt.sh TPUGEN WORKDIR
set -uo pipefail
tpugen="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
# Build (or find) the simulator first, so the interrupt lands mid-campaign.
"$tpugen" fuzz --T 4 --maxdim 16 --count 2 --out "$work/warm" > /dev/null 2>&1 || exit 1
timeout --preserve-status -s INT 4 "$tpugen" fuzz --T 4 --maxdim 16 --count 1000000 --jobs 2 --out "$work/out" \
  --json "$work/report.json" > "$work/out.txt" 2>&1
code=$?
tail -2 "$work/out.txt"
[ "$code" -eq 1 ] || { echo "interrupt.sh: exit $code after Ctrl-C, expected 1"; exit 1; }
grep -Eq "^tpugen fuzz: interrupted after [1-9][0-9]* of 1000000 programs .*, 0 errors" "$work/out.txt" || {
  echo "interrupt.sh: no summary of the programs run so far"; exit 1; }
grep -q '"interrupted": true' "$work/report.json" || { echo "interrupt.sh: the JSON report is missing"; exit 1; }
echo "interrupt.sh: Ctrl-C stopped the campaign with its summary"
