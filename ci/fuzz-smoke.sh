#!/usr/bin/env bash
# fuzz-smoke.sh [SECONDS]: build the libFuzzer harnesses (the `fuzz` preset:
# clang-14, -fsanitize=fuzzer-no-link,address,undefined; build-fuzz/) and run
# each on its committed seed corpus (tests/fuzz/corpus/<target>/, plus the
# project's own inputs of that kind: the shipped spec, the example programs and
# the bad programs, read in place rather than copied) for SECONDS
# (default 20, or $TPUGEN_FUZZ_SECONDS). Fails on any crash, leak, timeout,
# out-of-memory or sanitizer report; the input that caused it is left in
# build-fuzz/fuzz-smoke/<target>/ (crash-*, leak-*, timeout-*, oom-*).
# Reproduce one with: build-fuzz/fuzz/fuzz_<target> <that file>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-${TPUGEN_FUZZ_SECONDS:-20}}"
start=$SECONDS
cmake --preset fuzz
cmake --build --preset fuzz --target fuzz_all

status=0
for target in spec asm image npy ime; do
  work="build-fuzz/fuzz-smoke/$target"
  rm -rf "$work"
  mkdir -p "$work/new"
  seeds=("tests/fuzz/corpus/$target")
  case "$target" in
    spec) seeds+=(spec) ;;
    asm) seeds+=(examples/asm tests/programs/bad) ;;
    ime) seeds+=(examples/ime) ;;
  esac
  echo "== fuzz_$target: ${seconds} s from ${seeds[*]}"
  # New inputs go to a scratch directory; the committed seeds are only read.
  # -timeout: one input taking longer is a hang. -rss_limit_mb/-malloc_limit_mb:
  # memory past that is a failure, not swapping.
  if ! ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      "build-fuzz/fuzz/fuzz_$target" "$work/new" "${seeds[@]}" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
      -artifact_prefix="$work/" -print_final_stats=1 >"$work/log" 2>&1; then
    tail -n 60 "$work/log"
    echo "ci/fuzz-smoke.sh: fuzz_$target FAILED; the input is in $work/ (see $work/log)" >&2
    status=1
  else
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units)" "$work/log" | tail -n 2
  fi
done
[ "$status" -eq 0 ] && echo "ci/fuzz-smoke.sh: no crash, leak, timeout or sanitizer report in $((SECONDS - start)) s"
exit "$status"
