#!/usr/bin/env bash
# expect.sh EXIT REGEX [REGEX...] -- COMMAND...
# Run COMMAND; pass when it exits with EXIT and its combined output matches
# every extended regular expression REGEX (each on some line). Prints the
# output either way.
set -u
want_exit="$1"; shift
regexes=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do regexes+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
out="$("$@" 2>&1)"; code=$?
printf '%s\n' "$out"
if [ "$code" -ne "$want_exit" ]; then
  echo "expect.sh: exit code $code, expected $want_exit" >&2
  exit 1
fi
for regex in "${regexes[@]}"; do
  if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
    echo "expect.sh: output does not match: $regex" >&2
    exit 1
  fi
done
