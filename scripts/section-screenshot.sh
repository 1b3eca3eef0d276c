#!/usr/bin/env bash
# One section of the statistics report over some inputs, as headless
# Chromium shows it: the page is the report of the inputs, cut to its
# header and that section (a screenshot cannot scroll to an anchor).
#
#   scripts/section-screenshot.sh SECTION-ID OUT.png HEIGHT INPUT...
#
# (docs/site-rules.png: scripts/site-rules-screenshot.sh; docs/duplicates.png:
# scripts/duplicates-screenshot.sh.)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
section=$1 out=$2 height=$3
shift 3
bin=$here/target/release/pgn-arbiter
chromium=${PGN_ARBITER_CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" audit --quiet --html "$work/report.html" "$@"
python3 - "$work/report.html" "$work/section.html" "$section" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
head = page[: page.index("<h1>")]
start = page.index(f'<h2 id="{sys.argv[3]}">')
end = page.index("<h2 ", start + 1)
open(sys.argv[2], "w", encoding="utf-8").write(
    head + page[page.index("<h1>"): page.index('<p class="meta" id="made-by">')]
    + page[start:end] + "</main>\n</body>\n</html>\n")
PY
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1280,"$height" --screenshot="$out" "file://$work/section.html" 2>/dev/null
echo "$out"
