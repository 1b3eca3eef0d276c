#!/usr/bin/env bash
# Checks that a change moved no output: runs two builds over the same inputs
# with every output format and compares the files byte for byte (the run's
# seconds, and the timing line of the human summary, set aside).
#
#   scripts/same-outputs.sh BEFORE_BINARY [AFTER_BINARY] [INPUT...]
#   (FEN_THOROUGH=1 also compares position --dead thorough, which takes minutes)
#
# AFTER_BINARY defaults to target/release/pgn-arbiter; INPUTs default to
# data/, every file of ../shared/data/ (PGN_ARBITER_SHARED) and its edge
# cases. Outputs: findings JSON Lines (--tags all), --summary-json,
# --report-json, --html, --sarif, --junit, --github (and its step summary),
# --export-pgn with --fix-results, the human summary; `report` and `diff`
# over them; `position --json` on the shared FEN files. DEAD=thorough
# changes the audit's mode (default quick). Every file is compared; exit 1
# where any differs.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
before=${1:?usage: same-outputs.sh BEFORE_BINARY [AFTER_BINARY] [INPUT...]}
after=${2:-$here/target/release/pgn-arbiter}
shift $(( $# >= 2 ? 2 : 1 ))
shared=${PGN_ARBITER_SHARED:-$here/../shared}
dead=${DEAD:-quick}
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  inputs=("$here/data")
  for f in "$shared"/data/*.pgn.zst; do [ -f "$f" ] && inputs+=("$f"); done
  [ -d "$shared/data/edge" ] && inputs+=("$shared/data/edge")
  [ -f "$shared/data/peer-cases/sequences.pgn" ] && inputs+=("$shared/data/peer-cases/sequences.pgn")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

normalise() { # the run's seconds and the human summary's timing line
  sed -E -e 's/"seconds": ?[0-9.e+-]+/"seconds":0/g' -e 's/ time="[0-9.e+-]+"/ time="0"/g' \
    -e '/games\/s, .* MB\/s on [0-9]+ threads?/d' \
    -e 's#(<td class="n">[0-9]+</td><td class="n">[0-9]+</td><td class="n">)[0-9.]+(</td></tr>)#\1S\2#' "$1"
}
run() { # binary dir input
  local b=$1 d=$2 input=$3
  mkdir -p "$d"
  (cd "$here" && GITHUB_STEP_SUMMARY="$d/step.md" "$b" audit "$input" --dead "$dead" --tags all \
    --jsonl "$d/findings.jsonl" --summary-json "$d/summary.json" --report-json "$d/report.json" \
    --html "$d/report.html" --sarif "$d/findings.sarif" --junit "$d/junit.xml" \
    --export-pgn "$d/export.pgn" --fix-results --github >"$d/github.txt" 2>"$d/stderr.txt") || echo "exit $?" >"$d/exit"
  (cd "$here" && "$b" audit "$input" --dead "$dead" >"$d/human.txt" 2>/dev/null) || true
  (cd "$here" && "$b" report "$d/report.json" "$d/report.json" --json "$d/merged.json" --html "$d/merged.html") || echo "report exit $?" >>"$d/exit"
  (cd "$here" && "$b" diff "$d/findings.jsonl" /dev/null --json >"$d/diff.json" 2>&1) || echo "diff exit $?" >>"$d/exit"
  (cd "$here" && "$b" diff /dev/null "$d/findings.jsonl" >"$d/diff.txt" 2>&1) || echo "diff exit $?" >>"$d/exit"
}
status=0
for input in "${inputs[@]}"; do
  name=$(basename "$input")
  run "$before" "$work/before/$name" "$input"
  run "$after" "$work/after/$name" "$input"
  differs=0
  for f in "$work/before/$name"/*; do
    g="$work/after/$name/$(basename "$f")"
    if ! cmp -s <(normalise "$f") <(normalise "$g"); then
      echo "DIFFERENT $name/$(basename "$f")"; diff <(normalise "$f") <(normalise "$g") | head -5; differs=1; status=1
    fi
  done
  [ $differs -eq 0 ] && echo "same      $name ($(wc -l <"$work/after/$name/findings.jsonl") findings)"
done
for src in "$shared"/data/edge/fen/*.txt; do
  [ -f "$src" ] || continue
  # CHA's test vectors put their label before the FEN: move it after, where
  # `position --file` keeps words as a label
  fen="$work/$(basename "$src")"
  awk '/^#/ || NF < 2 || $1 ~ /\// {print; next} {lab=$1; $1=""; sub(/^ /, ""); print $0 " " lab}' "$src" >"$fen"
  for mode in quick thorough; do
    [ "$mode" = thorough ] && [ "${FEN_THOROUGH:-0}" != 1 ] && continue
    a=$("$before" position --json --dead "$mode" --file "$fen" 2>&1 | sed -E "s/,\"micros\":[0-9]+//" | md5sum) || true
    b=$("$after" position --json --dead "$mode" --file "$fen" 2>&1 | sed -E "s/,\"micros\":[0-9]+//" | md5sum) || true
    if [ "$a" = "$b" ]; then echo "same      position --dead $mode $(basename "$fen")"; else echo "DIFFERENT position --dead $mode $(basename "$fen")"; status=1; fi
  done
done
exit $status
