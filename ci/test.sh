#!/usr/bin/env bash
# Build tpugen and run every test (CTest: Catch2 unit tests, CLI tests, the
# RTL against the model on the core and the AXI top, the gates, the fuzz
# campaigns, the synthesis flows, cocotb, the docs drift check), then the
# hardening runs: the tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer (ci/sanitize.sh) and a bounded libFuzzer smoke
# run of every harness (ci/fuzz-smoke.sh). Long campaigns are behind flags and
# not run here.
#
# The sanitizer build and its tests run beside the main CTest run: CTest's
# simulations leave a core idle much of the time, and the two share nothing
# (build-debug/ against build/). Its log is build/sanitize.log.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default
cmake --build --preset default

mkdir -p build
bash ci/sanitize.sh > build/sanitize.log 2>&1 &
sanitize=$!

status=0
ctest --preset default -j2 || status=1

if wait "$sanitize"; then
  tail -n 3 build/sanitize.log
else
  cat build/sanitize.log
  echo "ci/test.sh: ci/sanitize.sh FAILED (log above: build/sanitize.log)" >&2
  status=1
fi

bash ci/fuzz-smoke.sh || status=1
exit "$status"
