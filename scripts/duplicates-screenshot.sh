#!/usr/bin/env bash
# docs/duplicates.png: the statistics report's "Duplicate games" section
# over the whole shared corpus (its files in name order), as headless
# Chromium shows it.
#
#   scripts/duplicates-screenshot.sh [OUT.png]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${PGN_ARBITER_SHARED:-$here/../shared}
exec "$here/scripts/section-screenshot.sh" duplicates "${1:-$here/docs/duplicates.png}" 1180 \
  "$shared"/data/*.pgn.zst
