#!/usr/bin/env bash
# docs/site-rules.png: the statistics report's "Site rules" section over the
# shared online corpus (chess.com, FICS, Lichess), as headless Chromium
# shows it.
#
#   scripts/site-rules-screenshot.sh [OUT.png]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${PGN_ARBITER_SHARED:-$here/../shared}
exec "$here/scripts/section-screenshot.sh" sites "${1:-$here/docs/site-rules.png}" 1100 \
  "$shared"/data/online-chesscom.pgn.zst "$shared"/data/online-fics.pgn.zst \
  "$shared"/data/online-lichess.pgn.zst
