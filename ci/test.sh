#!/usr/bin/env bash
# Build tpugen and run every test (CTest: Catch2 unit tests, CLI tests, the
# docs drift check). Long campaigns are behind flags and not run here.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default
cmake --build --preset default
ctest --preset default -j2
