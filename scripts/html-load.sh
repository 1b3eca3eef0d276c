#!/usr/bin/env bash
# How long headless Chromium takes to load a report page: the wall time of
# `chromium --headless --dump-dom` (which returns once the page has loaded
# and its DOM is written) on the page, less the same on an empty page
# (the browser's own start), the median of RUNS runs of each, interleaved.
#
#   scripts/html-load.sh report.html       # RUNS=5 by default
#
# Prints the page's size, both medians and their difference in seconds.
set -euo pipefail
page=${1:?usage: scripts/html-load.sh PAGE.html}
runs=${RUNS:-5}
chromium=${PGN_ARBITER_CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '<!doctype html><title>empty</title>\n' >"$work/empty.html"

# one load, in seconds, with a fresh profile each time
load() {
    local start end
    start=$(date +%s.%N)
    "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile-$RANDOM" \
        --dump-dom "file://$(realpath "$1")" >/dev/null 2>&1
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
}

: >"$work/page.t"
: >"$work/empty.t"
for _ in $(seq "$runs"); do
    load "$work/empty.html" >>"$work/empty.t"
    load "$page" >>"$work/page.t"
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
p=$(median "$work/page.t")
e=$(median "$work/empty.t")
printf '%s: %s bytes; load %.2f s, empty page %.2f s: the page costs %.2f s (median of %d)\n' \
    "$page" "$(stat -c %s "$page")" "$p" "$e" "$(awk -v a="$e" -v b="$p" 'BEGIN {print b - a}')" "$runs"
