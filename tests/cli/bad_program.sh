#!/usr/bin/env bash
# bad_program.sh TPUGEN FILE
# FILE starts with "# expect: <rule> line <n>" naming the contract (or
# assembler rule) the program breaks and the source line that breaks it.
# Passes when `tpugen check FILE` exits non-zero (never by a crash: 1 or 2)
# and one of its messages names that rule at that line.
set -u
tpugen="$1"; file="$2"
read -r _ _ rule _ line < <(grep -m1 '^# expect:' "$file")
out="$("$tpugen" check "$file" 2>&1)"; code=$?
printf '%s\n' "$out"
if [ "$code" -ne 1 ] && [ "$code" -ne 2 ]; then
  echo "bad_program.sh: exit code $code, expected 1 or 2" >&2; exit 1
fi
# One message must name both the rule and the line.
if ! printf '%s\n' "$out" | grep -F -- "[$rule]" | grep -Eq -- "$(basename "$file"):$line:"; then
  echo "bad_program.sh: no message names [$rule] at $(basename "$file"):$line" >&2; exit 1
fi
