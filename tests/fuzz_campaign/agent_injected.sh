#!/usr/bin/env bash
# agent_injected.sh TPUGEN OUT BUG [PARAMETER FLAGS...]: the memory agent's
# campaign must find the deliberate defect BUG, shrink it, and write a
# reproducer whose replay fails on the defective RTL and passes on the
# correct one.
set -u
tpugen="$1"; out="$2"; bug="$3"; shift 3
rm -rf "$out"
log="$("$tpugen" agent fuzz --count 600 --seed 1 --jobs 2 --max-repros 1 --inject-bug "$bug" --out "$out" "$@" 2>&1)"
code=$?
printf '%s\n' "$log"
fail() { echo "agent_injected.sh ($bug): $*" >&2; exit 1; }
[ "$code" -eq 1 ] || fail "the campaign exited $code, not 1 (a failure found)"
printf '%s\n' "$log" | grep -Eq "^case [0-9]+ .*: FAIL " || fail "no failing case reported"
printf '%s\n' "$log" | grep -Eq "shrunk in [0-9]+ runs to [0-9]+ flit" || fail "the case was not shrunk"
repro="$(printf '%s\n' "$log" | sed -n 's/^  reproducer: //p' | head -1)"
[ -f "$repro/case.json" ] && [ -f "$repro/mem.bin" ] && [ -f "$repro/replay.sh" ] || fail "no reproducer in '$repro'"
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
echo "agent_injected.sh ($bug): found, shrunk, replayed: PASS"
