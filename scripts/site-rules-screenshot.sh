#!/usr/bin/env bash
# docs/site-rules.png: the statistics report's "Site rules" section over the
# shared online corpus (chess.com, FICS, Lichess), as headless Chromium
# shows it. The page is the report of those files, cut to its header and
# that section (a screenshot cannot scroll to an anchor).
#
#   scripts/site-rules-screenshot.sh [OUT.png]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
shared=${PGN_ARBITER_SHARED:-../shared}
out=${1:-$here/docs/site-rules.png}
bin=$here/target/release/pgn-arbiter
chromium=${PGN_ARBITER_CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" audit --quiet --html "$work/report.html" \
  "$shared"/data/online-chesscom.pgn.zst "$shared"/data/online-fics.pgn.zst \
  "$shared"/data/online-lichess.pgn.zst
python3 - "$work/report.html" "$work/sites.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
head = page[: page.index("<h1>")]
start = page.index('<h2 id="sites">')
end = page.index("<h2 ", start + 1)
open(sys.argv[2], "w", encoding="utf-8").write(
    head + page[page.index("<h1>"): page.index('<p class="meta" id="made-by">')]
    + page[start:end] + "</main>\n</body>\n</html>\n")
PY
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1280,1100 --screenshot="$out" "file://$work/sites.html" 2>/dev/null
echo "$out"
