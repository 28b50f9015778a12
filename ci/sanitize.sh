#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer: build the `debug` preset
# (build-debug/, -fsanitize=address,undefined -fno-sanitize-recover=all) and
# run every test that needs no HDL tool: the Catch2 unit tests, the CLI tests,
# the bad programs and the malformed inputs. Tests labelled `rtl` (they build
# Verilator simulators or run Yosys or Icarus) are left out. Any sanitizer
# report (a leak included) fails the test that produced it.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
cmake --preset debug
# Only what the selected tests run: the unit tests and the CLI.
cmake --build --preset debug --target tpugen_unit_tests tpugen
ctest --preset debug
echo "ci/sanitize.sh: clean under ASan and UBSan in $((SECONDS - start)) s"
