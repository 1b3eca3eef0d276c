#!/usr/bin/env bash
# The live view under a tournament's load: BOARDS board files (game-N.pgn,
# each replaced by a rename after every move, as DGT LiveChess writes
# them), each updated once a second for SECONDS seconds, followed by
# `pgn-arbiter watch`. Each board plays knights out and back, so that from
# its 4th ply on every move gives an event (a position standing twice,
# then a claim, Art. 9.2): each event is matched with the moment the file
# that first showed its ply was written.
#
#   scripts/watch-bench.sh                   # 200 boards, 30 s, change notices
#   BOARDS=50 SECONDS_=10 scripts/watch-bench.sh --poll 250   # options go on to watch
#   GAMES=../shared/data/online-chesscom.pgn.zst FROM=40 scripts/watch-bench.sh
#
# GAMES=FILE (PGN, or .zst): a round of real games instead, the worst case's
# second figure: board N replays the file's Nth game with at least FROM +
# SECONDS plies from the standard start, from ply FROM (default 0) on, a
# ply a second, its clock comments kept (real rounds give few events).
#
# Prints the events' latency (write -> event seen, from the JSON Lines'
# `seen`), and the watch's CPU time (user + system, from /proc) over the
# run, as a share of one core.
set -euo pipefail
cd "$(dirname "$0")/.."

boards=${BOARDS:-200}
seconds=${SECONDS_:-30}
bin=${PGN_ARBITER:-target/release/pgn-arbiter}
[ -x "$bin" ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'kill "$watch_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/round"

"$bin" watch --quiet --jsonl "$work/events.jsonl" "$@" "$work/round" 2>"$work/stderr" &
watch_pid=$!
sleep 0.5

# The writer: board b is written at b/BOARDS of each second; its log has
# the time each (board, ply) was in place.
python3 - "$work/round" "$boards" "$seconds" "${GAMES:-}" "${FROM:-0}" >"$work/writes.log" <<'EOF'
import os, re, subprocess, sys, time
folder, boards, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
games, first = sys.argv[4], int(sys.argv[5])
cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
# each board's moves, each with its clock comment
if games:
    data = subprocess.run(["zstd", "-dcf", games], capture_output=True, check=True).stdout
    lines = []
    for text in re.split(rb"\n\s*\n(?=\[)", data):
        if re.search(rb"^\[(FEN|SetUp|Variant) ", text, re.M):
            continue  # games from the standard start only
        body = re.sub(r"^\[.*$", "", text.decode("utf-8", "replace"), flags=re.M)
        moves, depth, i = [], 0, 0
        for tok in re.finditer(r"\{[^}]*\}|;[^\n]*|\(|\)|\$\d+|\d+\.+|1-0|0-1|1/2-1/2|\*|[^\s(){};]+", body):
            t = tok.group(0)
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif depth or t[0] in ";$" or re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t):
                continue
            elif t[0] == "{":
                clk = re.search(r"\[%clk [^\]]*\]", t)
                if clk and moves:
                    moves[-1] = (moves[-1][0], "{" + clk.group(0) + "}")
            else:
                moves.append((t, None))
        if len(moves) >= first + seconds:
            lines.append(moves)
        if len(lines) == boards:
            break
    if len(lines) < boards:
        sys.exit(f"{games}: {len(lines)} games of {first + seconds} plies, {boards} wanted")
else:
    lines = [[(cycle[i % 4], "{[%clk 0:10:00]}") for i in range(seconds)]] * boards
def game(b, plies):
    moves = []
    for i, (san, clk) in enumerate(lines[b - 1][:plies]):
        if i % 2 == 0:
            moves.append(f"{i // 2 + 1}.")
        moves.append(san + (" " + clk if clk else ""))
    return (f'[Event "Bench"]\n[Round "1.{b}"]\n[White "W{b}"]\n[Black "B{b}"]\n'
            f'[Result "*"]\n\n{" ".join(moves)} *\n')
start = time.time() + 0.2
for second in range(seconds):
    for b in range(1, boards + 1):
        at = start + second + (b - 1) / boards
        delay = at - time.time()
        if delay > 0:
            time.sleep(delay)
        path = os.path.join(folder, f"game-{b}.pgn")
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(game(b, first + second + 1))
        # the moment the new version appears: just before the rename
        t = time.time()
        os.replace(tmp, path)
        print(b, first + second + 1, repr(t))
EOF
# the events of the last writes
sleep 2
read -r utime stime < <(awk '{print $14, $15}' "/proc/$watch_pid/stat")
tick=$(getconf CLK_TCK)
kill -INT "$watch_pid"
wait "$watch_pid" || true

python3 - "$work/writes.log" "$work/events.jsonl" "$boards" "$seconds" "$utime" "$stime" "$tick" <<'EOF'
import json, sys, datetime
writes, events, boards, seconds, utime, stime, tick = sys.argv[1:]
boards, seconds = int(boards), int(seconds)
written, first = {}, {}
for line in open(writes):
    b, ply, t = line.split()
    written[(int(b), int(ply))] = float(t)
    first.setdefault(int(b), float(t))
lat = []
n = 0
for line in open(events):
    e = json.loads(line)
    n += 1
    b = int(e["round"].split(".")[1])
    seen = datetime.datetime.strptime(e["seen"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
    # an event of the plies the first write showed: that write
    lat.append(seen - written.get((b, e["ply"]), first[b]))
lat.sort()
pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")
cpu = (int(utime) + int(stime)) / int(tick)
wall = seconds + 2.7
print(f"{boards} boards x {seconds} s, {len(written)} writes, {n} events, {len(lat)} matched to the write that showed their ply")
print(f"latency write -> event: median {pct(0.5):.0f} ms, p95 {pct(0.95):.0f} ms, max {pct(1):.0f} ms")
print(f"watch CPU: {cpu:.2f} s in {wall:.1f} s of run = {100 * cpu / wall:.1f} % of one core")
EOF
if [ -s "$work/stderr" ]; then
  echo "watch said:"; head -5 "$work/stderr"
fi
