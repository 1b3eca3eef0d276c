#!/usr/bin/env bash
# Writes the oracle's findings for each PGN file of data/, the expected
# answers of tests/it/bundled.rs:
#
#   data/lichess-2000.pgn     -> data/expected/lichess-2000.oracle.jsonl
#   data/twic-2000.pgn.zst    -> data/expected/twic-2000.oracle.jsonl
#
# The oracle is the shared corpus's reference implementation of the SPEC
# (../shared/tools/oracle.py, python-chess 1.11.2, default options: laws
# edition from each game's Date). Re-run it, and commit its output, when a
# PGN file of data/ is changed or added, or when oracle.py changes (a new
# SPEC revision); never to make a failing test pass: a difference between
# pgn-arbiter and the oracle is a bug in one of them, to be understood.
#
# Needs: the shared corpus beside the repository (or PGN_ARBITER_SHARED),
# python3 with chess==1.11.2 (or PGN_ARBITER_PYTHON), zstd on the PATH.
# Takes about ten seconds; the oracle's summaries go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

shared=${PGN_ARBITER_SHARED:-../shared}
python=${PGN_ARBITER_PYTHON:-python3}
oracle=$shared/tools/oracle.py

[ -f "$oracle" ] || { echo "$oracle not found: put the shared corpus beside the repository or set PGN_ARBITER_SHARED" >&2; exit 2; }
"$python" -c "import chess, sys; sys.exit(chess.__version__ != '1.11.2')" 2>/dev/null \
  || { echo "$python with chess==1.11.2 is needed: pip install chess==1.11.2" >&2; exit 2; }
command -v zstd >/dev/null || { echo "zstd is needed (the oracle decompresses with it): apt-get install zstd" >&2; exit 2; }

mkdir -p data/expected
for input in data/*.pgn data/*.pgn.zst; do
  [ -f "$input" ] || continue
  name=$(basename "$input")
  out=data/expected/${name%%.pgn*}.oracle.jsonl
  # `file` is the base name, so the output does not depend on where it ran
  "$python" "$oracle" --name "$name" "$input" > "$out.tmp"
  mv "$out.tmp" "$out"
  echo "$out: $(wc -l < "$out") findings" >&2
done
