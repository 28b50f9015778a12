#!/usr/bin/env bash
# Install the cocotb testbench's Python packages, tb/cocotb/requirements.txt
# (cocotb pinned: 1.8.1, the series that supports Debian 12's Verilator 5.006),
# from PyPI into a venv: $TPUGEN_COCOTB_VENV, default .venv-cocotb in the
# repository (where the cocotb.* CTest tests look). The venv sees Debian's
# packages (--system-site-packages: python3-numpy). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${TPUGEN_COCOTB_VENV:-$PWD/.venv-cocotb}"
if [ ! -x "$venv/bin/python3" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
"$venv/bin/python3" -m pip install --disable-pip-version-check --quiet -r tb/cocotb/requirements.txt
echo "ci/install-cocotb.sh: cocotb $("$venv/bin/cocotb-config" --version) in $venv"
