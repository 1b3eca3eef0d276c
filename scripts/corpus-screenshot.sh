#!/usr/bin/env bash
# docs/report-corpus.png: the top of the statistics report over the whole
# shared corpus (its files in name order), as headless Chromium shows it:
# its games, duplicates, findings by kind and the year chart, over about
# 400,000 games.
#
#   scripts/corpus-screenshot.sh [OUT.png]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$here/docs/report-corpus.png}")
cd "$here"
# relative, so the page names the files as a developer's run would
shared=${PGN_ARBITER_SHARED:-../shared}
chromium=${PGN_ARBITER_CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
target/release/pgn-arbiter audit --quiet --html "$work/report.html" "$shared"/data/*.pgn.zst
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1280,3700 --screenshot="$out" "file://$work/report.html" 2>/dev/null
echo "$out"
