#!/usr/bin/env bash
# Build tpugen and run every test (CTest: Catch2 unit tests, CLI tests, the
# RTL against the model on the core and the AXI top, the gates, the fuzz
# campaigns, the synthesis flows, cocotb, the docs drift and layer checks),
# then the hardening runs: the tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer (ci/sanitize.sh) and a bounded libFuzzer smoke
# run of every harness (ci/fuzz-smoke.sh). Long campaigns are behind flags and
# not run here. Ends with each phase's wall time (.ci/run passes the install
# phase's in TPUGEN_CI_INSTALL_SECONDS).
#
# The sanitizer build and its tests run beside the main CTest run: CTest's
# simulations leave a core idle much of the time, and the two share nothing
# (build-debug/ against build/). Its log is build/sanitize.log.
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
bash ci/sanitize.sh > build/sanitize.log 2>&1 &
sanitize=$!

status=0
t=$SECONDS
ctest --preset default -j2 || status=1
phases+=("ctest (default preset)|$((SECONDS - t))")

if wait "$sanitize"; then
  tail -n 3 build/sanitize.log
else
  cat build/sanitize.log
  echo "ci/test.sh: ci/sanitize.sh FAILED (log above: build/sanitize.log)" >&2
  status=1
fi
phases+=("sanitizers (ci/sanitize.sh, beside ctest)|$((SECONDS - t_sanitize))")

t=$SECONDS
bash ci/fuzz-smoke.sh || status=1
phases+=("libFuzzer smoke (ci/fuzz-smoke.sh)|$((SECONDS - t))")
phases+=("total of ci/test.sh|$SECONDS")
exit "$status"
