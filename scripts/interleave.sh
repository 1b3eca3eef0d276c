#!/usr/bin/env bash
# CPU time of several commands on one input, interleaved, for hosts too
# noisy for wall time (docs/PERFORMANCE.md: on these shared machines wall
# time moves by up to 40 % between runs minutes apart, for every program).
# Each round runs every command once, in turn, under `perf stat -e
# task-clock` (CPU time of the process and its threads); printed: each
# command's median over ROUNDS rounds (default 11), and the first
# command's median divided by it (above 1: faster than the first). A
# command that fails stops the script: a failing run is fast.
#
#   ROUNDS=11 scripts/interleave.sh FILE 'COMMAND {}' 'COMMAND {}' ...
#
# `{}` in a command stands for FILE (the command is split into words at
# blanks, so FILE must have none); output goes to /dev/null. Example:
#   scripts/interleave.sh lichess.pgn 'pgn-extract -r -s {}' \
#     'target/release/pgn-arbiter audit --threads 1 -q --jsonl /dev/null {}'
# Needs perf (Debian: linux-perf).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
rounds=${ROUNDS:-11}
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "interleave.sh: ROUNDS must be 1 or more" >&2; exit 2; }
file=$1
shift
command -v perf >/dev/null || { echo "interleave.sh: needs perf" >&2; exit 2; }
declare -a times
stat=$(mktemp)
trap 'rm -f "$stat"' EXIT
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < $#; i++)); do
    cmd=${*:i+1:1}
    cmd=${cmd//\{\}/"$file"}
    # shellcheck disable=SC2086 # the command is a list of words
    perf stat -x, -o "$stat" -e task-clock $cmd >/dev/null 2>&1 \
      || { echo "interleave.sh: failed: $cmd" >&2; exit 1; }
    ms=$(awk -F, '/task-clock/ {print $1}' "$stat")
    [ -n "$ms" ] || { echo "interleave.sh: no task-clock for: $cmd" >&2; exit 1; }
    times[i]="${times[i]:-} $ms"
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR] = $1} END {printf "%.2f", (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2}'; }
first=$(echo "${times[0]}" | median)
printf "%10s %8s  %s\n" "median ms" "ratio" "command ($rounds rounds, $(basename "$file"))"
for ((i = 0; i < $#; i++)); do
  m=$(echo "${times[i]}" | median)
  printf "%10s %7sx  %s\n" "$m" "$(awk -v a="$first" -v b="$m" 'BEGIN {printf "%.2f", a / (b > 0 ? b : 1e-3)}')" "${*:i+1:1}"
done
