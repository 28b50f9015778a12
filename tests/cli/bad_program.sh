#!/usr/bin/env bash
# bad_program.sh TPUGEN FILE
# FILE starts with "# expect: <rule> line <n>" naming the contract (or
# assembler rule) the program breaks and the source line that breaks it.
# Passes when `tpugen check FILE` exits non-zero (never by a crash: 1 or 2)
# and its message names that rule and the line.
set -u
tpugen="$1"; file="$2"
read -r _ _ rule _ line < <(grep -m1 '^# expect:' "$file")
out="$("$tpugen" check "$file" 2>&1)"; code=$?
printf '%s\n' "$out"
if [ "$code" -ne 1 ] && [ "$code" -ne 2 ]; then
  echo "bad_program.sh: exit code $code, expected 1 or 2" >&2; exit 1
fi
if ! printf '%s\n' "$out" | grep -q -- "\[$rule\]"; then
  echo "bad_program.sh: no [$rule] in the output" >&2; exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$(basename "$file"):$line(:|: )"; then
  echo "bad_program.sh: the error does not point at line $line" >&2; exit 1
fi
