#!/usr/bin/env bash
# Build tpugen and run every test (CTest: Catch2 unit tests, CLI tests, the
# RTL against the model on the core and the AXI top, the gates, the fuzz
# campaigns, the synthesis flows, cocotb, the docs drift and layer checks),
# and beside it the hardening runs: the tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer (ci/sanitize.sh) and a bounded libFuzzer smoke
# run of every harness (ci/fuzz-smoke.sh). Long campaigns are behind flags and
# not run here. Ends with each phase's wall time (.ci/run passes the install
# phase's in TPUGEN_CI_INSTALL_SECONDS).
#
# The sanitizer build and its tests, and the libFuzzer build and its smoke
# run, run beside the main CTest run as two jobs: they share nothing
# (build-debug/ and build-fuzz/ against build/), and the whole takes less
# wall time than in a row: both cores stay busy until CTest's last tests.
# Their logs are build/sanitize.log and build/fuzz-smoke.log.
set -euo pipefail
cd "$(dirname "$0")/.."

phases=()
if [ -n "${TPUGEN_CI_INSTALL_SECONDS:-}" ]; then
  phases+=("install (ci/install-deps.sh)|$TPUGEN_CI_INSTALL_SECONDS")
fi
report() {
  echo
  echo "ci/test.sh: phase times (wall clock)"
  local p
  for p in "${phases[@]}"; do
    printf '  %-44s %6d s\n' "${p%%|*}" "${p##*|}"
  done
}
trap report EXIT

t=$SECONDS
cmake --preset default
cmake --build --preset default
phases+=("configure and build (default preset)|$((SECONDS - t))")

# The tests build many Verilator simulators of nearly the same RTL (a
# configuration with one injected defect, a copy of it as user RTL, the AXI
# top with a broken master): Verilator's makefiles compile through ccache
# (OBJCACHE), so a variant recompiles only the files its change touches. The
# cache lives in the build tree; paths are hashed relative to the tree.
mkdir -p build
if command -v ccache > /dev/null; then
  export OBJCACHE=ccache CCACHE_DIR="$PWD/build/ccache" CCACHE_BASEDIR="$PWD"
fi
# Two jobs beside CTest, each failure its own finding: the sanitizer build
# and its tests, and the libFuzzer build and its smoke run (10 s a harness,
# the script's default being 20; longer runs are by hand). Measured alone
# (2026-12-02, CPU seconds): CTest 1,070, the sanitizer job 790, the fuzz
# job 190; CTest is the longest path and the jobs fill its gaps.
# job NAME COMMAND...: COMMAND in the background, its output in build/NAME.log
# and its wall time in build/NAME.seconds.
job() {
  local name=$1
  shift
  (
    start=$SECONDS
    rc=0
    "$@" > "build/$name.log" 2>&1 || rc=$?
    echo "$((SECONDS - start))" > "build/$name.seconds"
    exit "$rc"
  ) &
}
job sanitize bash ci/sanitize.sh
sanitize=$!
job fuzz-smoke bash ci/fuzz-smoke.sh 10
fuzz_smoke=$!

status=0
t=$SECONDS
ctest --preset default -j2 || status=1
phases+=("ctest (default preset)|$((SECONDS - t))")

# Each job's verdict line, or its whole log when it failed.
finish() {
  local pid=$1 log=$2 script=$3
  if wait "$pid"; then
    grep -E "^ci/${script}: " "$log"
  else
    cat "$log"
    echo "ci/test.sh: ci/${script} FAILED (log above: $log)" >&2
    status=1
  fi
}
finish "$fuzz_smoke" build/fuzz-smoke.log fuzz-smoke.sh
phases+=("libFuzzer build and smoke (beside ctest)|$(cat build/fuzz-smoke.seconds)")
finish "$sanitize" build/sanitize.log sanitize.sh
phases+=("sanitizer build and tests (beside ctest)|$(cat build/sanitize.seconds)")
phases+=("total of ci/test.sh|$SECONDS")
exit "$status"
