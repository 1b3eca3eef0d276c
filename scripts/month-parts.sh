#!/usr/bin/env bash
# Merged parts against one run, at scale: a synthetic month of N games with
# copies (examples/synthetic_month.rs, --copies and --respelled) written to
# one file, audited whole, then cut into PARTS parts (`plan --parts`),
# each part audited alone and the parts merged (`merge --reports`). The
# merged aggregate must equal the whole run's but for `run`, and so must
# the games for merging beside it; the copies whose first occurrence fell
# into another part are counted (they are what a merge must find).
#
#   scripts/month-parts.sh N PARTS        # e.g. 1000000 64
#
# Environment: SEED (default 1), GEN_ARGS (default "--copies 20
# --respelled 5"), THREADS (default 2, per audit), OUT (default
# /tmp/month-parts-N), BIN (default target/release/pgn-arbiter; built if
# missing). Needs python3. Exit 0 when equal, 1 when not.
set -euo pipefail
n=${1:?usage: scripts/month-parts.sh N PARTS}
parts=${2:?usage: scripts/month-parts.sh N PARTS}
here=$(cd "$(dirname "$0")/.." && pwd)
seed=${SEED:-1}
threads=${THREADS:-2}
out=${OUT:-/tmp/month-parts-$n}
bin=${BIN:-"$here/target/release/pgn-arbiter"}
gen="${CARGO_TARGET_DIR:-$here/target}/release/examples/synthetic_month"
read -r -a gen_args <<<"${GEN_ARGS:---copies 20 --respelled 5}"
cd "$here"
[ -x "$bin" ] || cargo build --release
cargo build --release --quiet --example synthetic_month
mkdir -p "$out"
cd "$out"
rm -f part*.json part*.agg.json part*.agg.json.ids whole.agg.json* merged.*

"$gen" --games "$n" --seed "$seed" "${gen_args[@]}" > month.pgn
echo "month.pgn: $n games, $(du -h month.pgn | cut -f1)"

start=$(date +%s.%N)
"$bin" audit --quiet --threads "$threads" --report-json whole.agg.json month.pgn
whole_s=$(echo "$(date +%s.%N) - $start" | bc)

"$bin" plan --parts "$parts" month.pgn > plan.txt
start=$(date +%s.%N)
i=0
summaries=() reports=()
while read -r spec; do
    "$bin" audit --quiet --threads "$threads" --part "$spec" \
        --summary-json "part$i.json" --report-json "part$i.agg.json"
    summaries+=("part$i.json") reports+=("part$i.agg.json")
    i=$((i + 1))
done < plan.txt
parts_s=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
"$bin" merge "${summaries[@]}" --reports "${reports[@]}" \
    --summary-json merged.json --report-json merged.agg.json
merge_s=$(echo "$(date +%s.%N) - $start" | bc)

python3 - "$i" "$whole_s" "$parts_s" "$merge_s" <<'EOF'
import json, sys, filecmp
planned, whole_s, parts_s, merge_s = int(sys.argv[1]), *map(float, sys.argv[2:])
def load(p):
    a = json.load(open(p))
    a.pop("run")
    return a
whole, merged = load("whole.agg.json"), load("merged.agg.json")
parts_left_out = sum(load(f"part{i}.agg.json")["duplicates"]["left_out"] for i in range(planned))
d = whole["duplicates"]
print(f"parts planned: {planned}; audit whole {whole_s:.1f} s, parts {parts_s:.1f} s, merge {merge_s:.1f} s")
print(f"repeats: {d['games']:,} ({d['results_differ']:,} with another result), left out {d['left_out']:,}; "
      f"left out within the parts {parts_left_out:,}, so {d['left_out'] - parts_left_out:,} found across parts by the merge")
same_json = whole == merged
same_ids = filecmp.cmp("whole.agg.json.ids", "merged.agg.json.ids", shallow=False)
print(f"merged aggregate equal to the whole run's (but run): {same_json}; games for merging byte-identical: {same_ids}")
if not same_json:
    for k in sorted(set(whole) | set(merged)):
        if whole.get(k) != merged.get(k):
            print(f"  differs: {k}")
sys.exit(0 if same_json and same_ids else 1)
EOF
