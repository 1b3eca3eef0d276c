#!/bin/sh
# Seeds for the `audit_bytes` and `split` targets: the bundled sample and
# the shared edge files, cut at "[Event " lines into pieces of up to three
# games and at most 16 KiB (libFuzzer's default -max_len here).
#
#   fuzz/seeds.sh DIR        (from the project root; ../shared optional)
set -eu
out=${1:?usage: fuzz/seeds.sh DIR}
mkdir -p "$out"
shared=${PGN_ARBITER_SHARED:-../shared}
{
  ls data/*.pgn 2>/dev/null
  for z in data/*.pgn.zst; do [ -e "$z" ] && echo "zst:$z"; done
  ls "$shared"/data/edge/*.pgn 2>/dev/null || true
} | python3 -c '
import subprocess, sys, hashlib, os
out = sys.argv[1]
n = 0
for name in sys.stdin.read().split():
    if name.startswith("zst:"):
        text = subprocess.run(["zstd", "-dc", name[4:]], capture_output=True, check=True).stdout[:400_000]
    else:
        text = open(name, "rb").read()
    games, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith(b"[Event ") and cur:
            games.append(b"".join(cur)); cur = []
        cur.append(line)
    if cur:
        games.append(b"".join(cur))
    for i in range(0, len(games), 3):
        piece = b"".join(games[i:i + 3])[:16384]
        path = os.path.join(out, hashlib.sha1(piece).hexdigest())
        with open(path, "wb") as f:
            f.write(piece)
        n += 1
print(f"{n} seeds in {out}", file=sys.stderr)
' "$out"
