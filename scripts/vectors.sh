#!/usr/bin/env bash
# The Chess Unwinnability Analyzer's test vectors as games lost on time:
# each FEN of ../shared/data/edge/fen/d3chess-test-vector.txt twice, as a
# zero-move game won on time by White and by Black (3,606 games). The
# expensive small input for the engine: `audit --dead thorough` asks the
# engine a hard question for nearly every game.
#
#   scripts/vectors.sh [VECTOR_FILE] > vectors.pgn
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-"${PGN_ARBITER_SHARED:-$here/../shared}/data/edge/fen/d3chess-test-vector.txt"}
[ -f "$src" ] || { echo "no vector file at $src (set PGN_ARBITER_SHARED)" >&2; exit 2; }
# a line is two characters (the expected class), a space and a FEN
grep -v '^#' "$src" | awk 'NF >= 2 {
  fen = substr($0, 4)
  for (i = 0; i < 2; i++) {
    printf "[Event \"vector\"]\n[Result \"%s\"]\n[Termination \"Time forfeit\"]\n", (i == 0 ? "1-0" : "0-1")
    printf "[FEN \"%s\"]\n[SetUp \"1\"]\n\n%s\n\n", fen, (i == 0 ? "1-0" : "0-1")
  }
}'
