#!/usr/bin/env bash
# The audit at the scale of a Lichess month, on a synthetic month of N games
# streamed from examples/synthetic_month.rs (no file of N games on disk):
#
#   scripts/month-bench.sh N          # e.g. 1000000, 10000000, 100000000
#
# Four runs, each timed by /usr/bin/time -v:
#   (a) generator | audit --quiet --jsonl /dev/null -
#   (b) the same with --report-json FILE --html FILE (the statistics report)
#   (c) the generator alone into /dev/null (its cost, to be small beside (a))
#   (d) report FILE --html FILE on (b)'s aggregate: its games read back from
#       beside it and counted again, as a merge of parts counts them
# In (a) and (b) the audit is timed (wall, user + sys, peak RSS), not the
# generator, whose CPU is (c)'s. Then a table in Markdown, and what the
# report kept, and the games the duplicate finder counted without looking for them.
#
# Environment: THREADS (default 2), SEED (default 1), GEN_ARGS (more options
# for the generator, e.g. "--copies 20 --respelled 5"), OUT (where the
# report, the HTML page and the raw timings go; default
# /tmp/month-bench-N), BIN (default target/release/pgn-arbiter; built if
# missing). Needs /usr/bin/time (Debian: apt-get install time) and python3.
set -euo pipefail
n=${1:?usage: scripts/month-bench.sh N}
here=$(cd "$(dirname "$0")/.." && pwd)
threads=${THREADS:-2}
seed=${SEED:-1}
out=${OUT:-/tmp/month-bench-$n}
bin=${BIN:-"$here/target/release/pgn-arbiter"}
gen="${CARGO_TARGET_DIR:-$here/target}/release/examples/synthetic_month"
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 2; }
cd "$here"
[ -x "$bin" ] || cargo build --release
# the generator is cheap to build; the binary is whatever is there
cargo build --release --quiet --example synthetic_month
mkdir -p "$out"
read -r -a gen_args <<<"${GEN_ARGS:-}"
generate() { "$gen" --games "$n" --seed "$seed" "${gen_args[@]}"; }

# run NAME COMMAND...: the audit fed by the generator, timed
run() {
    local name=$1
    shift
    echo "== $name: $*" >&2
    generate 2>"$out/$name.gen" | /usr/bin/time -v -o "$out/$name.time" "$@"
}
run a "$bin" audit --quiet -j "$threads" --jsonl /dev/null -
run b "$bin" audit --quiet -j "$threads" --jsonl /dev/null \
    --report-json "$out/report.json" --html "$out/report.html" -
echo "== c: generator > /dev/null" >&2
/usr/bin/time -v -o "$out/c.time" "$gen" --games "$n" --seed "$seed" "${gen_args[@]}" \
    >/dev/null 2>"$out/c.gen"
cat "$out/c.gen" >&2
echo "== d: report OUT/report.json --html (the aggregate read back and counted again, as a merge counts it)" >&2
/usr/bin/time -v -o "$out/d.time" "$bin" report "$out/report.json" --html "$out/merged.html"

python3 - "$n" "$out" <<'EOF'
import json, os, re, sys

n, out = int(sys.argv[1]), sys.argv[2]

def timing(name):
    text = open(os.path.join(out, name + ".time")).read()
    field = lambda label: re.search(re.escape(label) + r": (.*)", text).group(1)
    wall = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        wall = wall * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return wall, cpu, int(field("Maximum resident set size (kbytes)")) / 1024

mb = lambda path: os.path.getsize(path) / 1e6
rows = {k: timing(k) for k in "abcd"}
sizes = {
    "b": (mb(os.path.join(out, "report.json")), mb(os.path.join(out, "report.html"))),
    "d": (None, mb(os.path.join(out, "merged.html"))),
}
print(f"\n| run | games | wall s | CPU s | games / wall s | peak RSS MB | report JSON MB | HTML MB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
names = {"a": "(a) audit", "b": "(b) audit + report", "c": "(c) generator", "d": "(d) report of (b)'s aggregate"}
for k, (wall, cpu, rss) in rows.items():
    j, h = sizes.get(k, (None, None))
    cell = lambda v: "" if v is None else f"{v:,.1f}"
    print(f"| {names[k]} | {n:,} | {wall:,.1f} | {cpu:,.1f} | {n / wall:,.0f} | {rss:,.0f} | {cell(j)} | {cell(h)} |")
ratio = (n / rows["b"][0]) / (n / rows["a"][0])
print(f"\n(b)/(a) games per second: {ratio:.3f}; generator's CPU per audit CPU: {rows['c'][1] / rows['a'][1]:.3f}")

agg = json.load(open(os.path.join(out, "report.json")))
dup = agg.get("duplicates", {})
ids = len(json.dumps(dup.get("ids", [])))
total = mb(os.path.join(out, "report.json")) * 1e6
events = agg.get("by", {}).get("event", {})
beside = os.path.join(out, "report.json.ids")
beside = os.path.getsize(beside) if os.path.exists(beside) else 0
print(f"\nreport JSON {total / 1e6:,.1f} MB, of which duplicates.ids {ids / 1e6:,.1f} MB inline; games for merging beside it {beside / 1e6:,.1f} MB ({beside / max(n, 1):.1f} bytes a game)")
print(f"games: {agg.get('games')}")
print(f"duplicates: games {dup.get('games')}, left_out {dup.get('left_out')}, untracked {dup.get('untracked', 0)}")
print(f"players {len(agg.get('players', {})):,}")
print(f"by.event buckets {len(events):,}")
print(f"points events kept {len(agg.get('points', {})):,}, of which untracked (no standings) {sum(1 for p in agg.get('points', {}).values() if p.get('untracked')):,}; points_untracked_events {agg.get('points_untracked_events', 0):,}")
for key in sorted(agg):
    size = len(json.dumps(agg[key]))
    if size > 100_000:
        print(f"  {key}: {size / 1e6:,.1f} MB of JSON")
EOF
