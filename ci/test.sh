#!/usr/bin/env bash
# Build tpugen and run every test (CTest: Catch2 unit tests, CLI tests, the
# docs drift check), then the hardening runs: the tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer (ci/sanitize.sh) and a
# bounded libFuzzer smoke run of every harness (ci/fuzz-smoke.sh). Long
# campaigns are behind flags and not run here.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default
cmake --build --preset default
ctest --preset default -j2

bash ci/sanitize.sh
bash ci/fuzz-smoke.sh
