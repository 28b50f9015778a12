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
# The sanitizer build and its tests, then the libFuzzer build and its smoke
# run, run beside the main CTest run: they share nothing (build-debug/ and
# build-fuzz/ against build/), and the whole takes less wall time than in a
# row, though both cores are busy most of the time (on 2 cores the
# sanitizer job, starved while CTest runs, finishes a few minutes after it).
# Their log is build/sanitize.log.
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
t_sanitize=$SECONDS
# Both run even when the first fails: each failure is its own finding.
{
  rc=0
  bash ci/sanitize.sh || rc=1
  # 10 s a harness (the script's default is 20): the smoke is on CI's
  # longest path, beside CTest; longer runs are by hand.
  bash ci/fuzz-smoke.sh 10 || rc=1
  exit "$rc"
} > build/sanitize.log 2>&1 &
sanitize=$!

status=0
t=$SECONDS
ctest --preset default -j2 || status=1
phases+=("ctest (default preset)|$((SECONDS - t))")

if wait "$sanitize"; then
  grep -E "^ci/(sanitize|fuzz-smoke).sh: " build/sanitize.log
else
  cat build/sanitize.log
  echo "ci/test.sh: ci/sanitize.sh or ci/fuzz-smoke.sh FAILED (log above: build/sanitize.log)" >&2
  status=1
fi
phases+=("sanitizers + libFuzzer smoke (beside ctest)|$((SECONDS - t_sanitize))")
phases+=("total of ci/test.sh|$SECONDS")
exit "$status"
