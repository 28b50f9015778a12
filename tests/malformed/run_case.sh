#!/usr/bin/env bash
# run_case.sh TPUGEN MALFORMED_DIR CASE WORKDIR
# Run one malformed input through the tpugen CLI and check its exit code and
# message with tests/cli/expect.sh. CASE is a path relative to MALFORMED_DIR;
# its line in MALFORMED_DIR/manifest.txt gives the exit code and the regexes.
# The kind (the directory) decides the command:
#   spec/*.yaml    tpugen --spec CASE params
#   spec/*.edit    the shipped spec with one edit applied (WORKDIR/<stem>.yaml),
#                  then as above; in the regexes {at} is the line where the
#                  edited text starts and {line} the first line it changes
#   asm/*.s        tpugen check CASE
#   image/*        tpugen check CASE (.bin, .hex)
#   npy/*.npy      tpugen run --maxdim 16 --gemm 4x4x4 --a CASE
#   params/*.params  NAME=VALUE lines are the environment, the other line is
#                  the tpugen arguments ({src} is the source tree)
set -u
tpugen="$1"; dir="$2"; case="$3"; work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
expect="$here/../cli/expect.sh"
file="$dir/$case"
mkdir -p "$work"

line="$(awk -v c="$case" '$1 == c { print; exit }' "$dir/manifest.txt")"
if [ -z "$line" ]; then echo "run_case.sh: $case is not in manifest.txt" >&2; exit 1; fi
read -r _ code rest <<<"$line"
# Several regexes are joined by " && "; each must match some line of the output.
regexes=()
while [[ "$rest" == *" && "* ]]; do regexes+=("${rest%% && *}"); rest="${rest#* && }"; done
regexes+=("$rest")

case "$case" in
  spec/*.edit)
    mutant="$work/$(basename "$case" .edit).yaml"
    first="$(/usr/bin/python3 - "$file" "$here/../../spec/tinytpu_isa.yaml" "$mutant" <<'PY'
import sys
edit, spec, out = sys.argv[1:4]
lines = open(edit, encoding="utf-8").read().split("\n")
try:
    a, b, c = lines.index("<<<"), lines.index("==="), lines.index(">>>")
except ValueError:
    sys.exit(f"{edit}: an edit is <<< old lines === new lines >>>")
old_text = "\n".join(lines[a + 1:b])
new_text = "\n".join(lines[b + 1:c])
text = open(spec, encoding="utf-8").read()
if text.count(old_text) != 1:
    sys.exit(f"{edit}: the text to replace occurs {text.count(old_text)} times in the shipped spec (needs 1)")
at = text.index(old_text)
open(out, "w", encoding="utf-8").write(text.replace(old_text, new_text))
ol, nl = old_text.split("\n"), new_text.split("\n")
k = next((i for i in range(min(len(ol), len(nl))) if ol[i] != nl[i]), min(len(ol), len(nl)))
print(text.count("\n", 0, at) + 1, text.count("\n", 0, at) + 1 + k)
PY
)" || exit 1
    read -r at changed <<<"$first"
    for i in "${!regexes[@]}"; do
      regexes[i]="${regexes[i]//\{at\}/$at}"
      regexes[i]="${regexes[i]//\{line\}/$changed}"
    done
    exec "$expect" "$code" "${regexes[@]}" -- "$tpugen" --spec "$mutant" params ;;
  spec/*)
    exec "$expect" "$code" "${regexes[@]}" -- "$tpugen" --spec "$file" params ;;
  asm/* | image/*)
    exec "$expect" "$code" "${regexes[@]}" -- "$tpugen" check "$file" ;;
  npy/*)
    exec "$expect" "$code" "${regexes[@]}" -- "$tpugen" run --maxdim 16 --gemm 4x4x4 --a "$file" ;;
  params/*)
    env=()
    args=""
    while IFS= read -r l; do
      case "$l" in
        '#'* | '') ;;
        [A-Z_]*=*) env+=("$l") ;;
        *) args="${l//\{src\}/$here/../..}" ;;
      esac
    done <"$file"
    # shellcheck disable=SC2086 # the argument line is split into words on purpose
    exec env "${env[@]}" "$expect" "$code" "${regexes[@]}" -- "$tpugen" $args ;;
  *)
    echo "run_case.sh: no command for $case" >&2; exit 1 ;;
esac
