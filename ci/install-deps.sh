#!/usr/bin/env bash
# Install everything tpugen needs on Debian 12, from Debian's packages (and
# cocotb for the cocotb testbench, from PyPI: ci/install-cocotb.sh).
# Run as root (or with sudo). Safe to run again.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache  # ccache: the Verilator builds of ci/test.sh share objects
  libyaml-cpp-dev libfmt-dev libcli11-dev nlohmann-json3-dev catch2 libssl-dev
  python3 python3-numpy python3-venv python3-dev  # python3-venv, -dev: the cocotb testbench (ci/install-cocotb.sh)
  python3-matplotlib  # tpugen noc bench --plot
  verilator iverilog yosys nextpnr-ice40 zlib1g-dev make perl
  clang-14 libclang-rt-14-dev  # the simulators' C++ (TPUGEN_SIM_CXX) and the libFuzzer harnesses (ci/fuzz-smoke.sh, with the fuzzer runtime)
  binutils-riscv64-linux-gnu  # GNU as: the IME host instructions' encodings are held to it (tests/ime)
)

if [ "$(id -u)" -ne 0 ]; then
  echo "ci/install-deps.sh: run as root (e.g. sudo ci/install-deps.sh)" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "ci/install-deps.sh: all ${#packages[@]} packages present"
# cocotb, pinned, from PyPI into a venv (the cocotb.* tests).
bash "$(dirname "$0")/install-cocotb.sh"
