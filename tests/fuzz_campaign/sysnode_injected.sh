#!/usr/bin/env bash
# sysnode_injected.sh TPUGEN OUT UNIT BUG COUNT [FLAGS...]: the campaign of the
# system node's UNIT (mover or agent: `tpugen UNIT fuzz`) over COUNT cases must
# find the deliberate defect BUG, shrink it, and write a reproducer whose
# replay fails on the defective RTL and passes on the correct one. FLAGS go to
# the campaign (build parameters).
set -u
tpugen="$1"; out="$2"; unit="$3"; bug="$4"; count="$5"; shift 5
rm -rf "$out"
log="$("$tpugen" "$unit" fuzz --count "$count" --seed 1 --jobs 2 --max-repros 1 --inject-bug "$bug" --out "$out" "$@" 2>&1)"
code=$?
printf '%s\n' "$log"
fail() { echo "sysnode_injected.sh ($unit, $bug): $*" >&2; exit 1; }
[ "$code" -eq 1 ] || fail "the campaign exited $code, not 1 (a failure found)"
printf '%s\n' "$log" | grep -Eq "^case [0-9]+ .*: FAIL " || fail "no failing case reported"
printf '%s\n' "$log" | grep -Eq "shrunk in [0-9]+ runs" || fail "the case was not shrunk"
repro="$(printf '%s\n' "$log" | sed -n 's/^  reproducer: //p' | head -1)"
[ -f "$repro/mem.bin" ] && [ -f "$repro/replay.sh" ] || fail "no reproducer in '$repro'"
replay="$(sed -n 2p "$repro/replay.sh")"
case "$replay" in *"--inject-bug $bug"*) ;; *) fail "the replay does not name the defect: $replay" ;; esac
# The replay, with the defect: a mismatch (exit 1); without it: agreement.
${replay/tpugen /$tpugen } >"$out/replay_defect.log" 2>&1
rc=$?
cat "$out/replay_defect.log"
[ "$rc" -eq 1 ] || fail "the replay with the defect exited $rc, not 1"
clean="${replay/ --inject-bug $bug/}"
${clean/tpugen /$tpugen } >"$out/replay_clean.log" 2>&1
rc=$?
cat "$out/replay_clean.log"
[ "$rc" -eq 0 ] || fail "the replay on the correct RTL exited $rc, not 0"
echo "sysnode_injected.sh ($unit, $bug): found, shrunk, replayed: PASS"
