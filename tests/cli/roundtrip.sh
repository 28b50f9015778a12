#!/usr/bin/env bash
# roundtrip.sh TPUGEN WORKDIR: program -> assembly -> image -> disassembly
# -> image again, byte-identical; and the image runs on the model.
set -euo pipefail
tpugen="$1"; work="$2"
mkdir -p "$work"
"$tpugen" program gemm --gemm 24x16x20 --relu -o "$work/gemm.s"
"$tpugen" program gemm --gemm 24x16x20 --relu -o "$work/direct.hex"
"$tpugen" asm "$work/gemm.s" -o "$work/gemm.hex"
cmp "$work/gemm.hex" "$work/direct.hex"
"$tpugen" asm "$work/gemm.s" -o "$work/gemm.bin"
"$tpugen" disasm "$work/gemm.bin" > "$work/again.s"
"$tpugen" asm "$work/again.s" -o "$work/again.hex"
cmp "$work/gemm.hex" "$work/again.hex"
"$tpugen" check "$work/gemm.hex"
"$tpugen" run --program "$work/gemm.hex" | grep -q "C bytes changed"
echo "roundtrip.sh: assembly, images and disassembly agree"
