#!/usr/bin/env bash
# readme_drift.sh TPUGEN WORKDIR
# README.md's command table is written by `tpugen docs` from the command
# table (cli/commands.cpp): on a copy of spec/, docs/ and README.md, the copy
# is up to date; a row edited by hand is drift (exit 1, naming README.md);
# `tpugen docs` writes it back; a README without the markers is refused
# (exit 2, docs.readme).
set -euo pipefail
tpugen="$1"; work="$2"
src="$(cd "$(dirname "$0")/../.." && pwd)"
rm -rf "$work"; mkdir -p "$work"
cp -r "$src/spec" "$src/docs" "$src/README.md" "$work/"
spec="$work/spec/tinytpu_isa.yaml"
"$tpugen" --spec "$spec" docs --check | grep -q "README.md is up to date"
sed -i 's/^| `tpugen check FILE` | Check a program/| `tpugen check FILE` | Checks a program/' "$work/README.md"
set +e
out="$("$tpugen" --spec "$spec" docs --check 2>&1)"; code=$?
set -e
[ "$code" -eq 1 ] || { echo "$out"; echo "readme_drift.sh: an edited row exits $code, not 1" >&2; exit 1; }
echo "$out" | grep -q "README.md is not up to date" || { echo "$out"; exit 1; }
"$tpugen" --spec "$spec" docs > /dev/null
cmp -s "$work/README.md" "$src/README.md" || { echo "readme_drift.sh: tpugen docs did not restore the table" >&2; exit 1; }
grep -v "the command table" "$src/README.md" > "$work/README.md"
set +e
out="$("$tpugen" --spec "$spec" docs --check 2>&1)"; code=$?
set -e
[ "$code" -eq 2 ] || { echo "$out"; echo "readme_drift.sh: no markers exits $code, not 2" >&2; exit 1; }
echo "$out" | grep -q "docs.readme" || { echo "$out"; exit 1; }
echo "readme_drift.sh: the command table is held to cli/commands.cpp"
