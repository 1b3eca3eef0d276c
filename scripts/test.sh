#!/usr/bin/env bash
# The test suite, ending with one line that counts the checks skipped for
# want of something outside the repository and says what would enable
# them (libtest has no hook at the end of a run: each skip is appended to
# a file that this script reads once cargo is done), and the run's time.
#
#   scripts/test.sh                 # cargo test --release --features parquet
#   scripts/test.sh --test it cli:: # any arguments go on to cargo test
set -uo pipefail
cd "$(dirname "$0")/.."

skips=$(mktemp)
trap 'rm -f "$skips"' EXIT
start=$(date +%s)
PGN_ARBITER_SKIPS="$skips" cargo test --release --features parquet "$@"
status=$?
secs=$(( $(date +%s) - start ))
took=$(printf '%d:%02d' $((secs / 60)) $((secs % 60)))

# one line per skip: the test, then each way to enable it, tab-separated
count=$(wc -l < "$skips" | tr -d ' ')
if [ "$count" -eq 0 ]; then
  echo "pgn-arbiter tests: no check skipped (cargo test exit $status, $took)"
else
  tests=$(cut -f1 "$skips" | sed 's/ (.*//' | sort -u | wc -l | tr -d ' ')
  how=$(cut -f2- "$skips" | tr '\t' '\n' | sort | uniq -c | sort -rn \
    | sed 's/^ *\([0-9]*\) /\1x /' | paste -sd ';' - | sed 's/;/; /g')
  echo "pgn-arbiter tests: $count checks skipped in $tests tests (SKIPPED lines above); to run them: $how (cargo test exit $status, $took)"
fi
exit $status
