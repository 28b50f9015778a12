#!/usr/bin/env bash
# A spec whose build parameter's flag would collide with an option of the
# command that takes it (the agent's JOB_DEPTH renamed JOBS, whose --jobs
# `agent fuzz` has) is refused with the parameter's place in the spec and
# exit 2, not a crash. Usage: param_flag_collision.sh TPUGEN SPEC_DIR OUT
set -euo pipefail
tpugen=$1 spec=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
cp "$spec"/*.yaml "$out"/
sed -i 's/- {name: JOB_DEPTH, /- {name: JOBS, /' "$out/system_node.yaml"
grep -q '{name: JOBS, ' "$out/system_node.yaml" || { echo "the spec no longer has JOB_DEPTH to rename"; exit 1; }
set +e
msg=$("$tpugen" --spec "$out/tinytpu_isa.yaml" agent gen --out "$out/agent" 2>&1)
code=$?
set -e
echo "$msg"
[[ $code -eq 2 ]] || { echo "expected exit 2, got $code"; exit 1; }
grep -q "system_node.yaml:[0-9]*:[0-9]*: error \[spec.param\]: build parameter JOBS's flag --jobs is already an option" <<<"$msg" ||
  { echo "expected the collision named with its place"; exit 1; }
echo "refused as expected"
