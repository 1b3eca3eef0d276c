#!/usr/bin/env bash
# Throughput of pgn-arbiter beside its peers, measured in one run on the
# same inputs (these machines are shared and noisy: read the ratios).
#
#   scripts/bench.sh FILE.pgn[.zst]...
#
# For each input: `pgn-arbiter audit` at 1 thread and at all threads
# (every check, JSON Lines to /dev/null; at 1 thread also with the
# statistics report, --report-json and --html), pgn-extract -r (validation only,
# Debian's pgn-extract; plain files only), the bare replay baseline
# (benches/replay_baseline.rs, plain files only), python-chess with every
# claim check (../shared/tools/oracle.py on the first $ORACLE_GAMES games, default
# 2000; its ratio is by games/s) and, for .zst inputs, `zstd -dc > /dev/null`
# as the floor (and `pzstd -d -p CORES` for a pzstd file, which pgn-arbiter
# also decodes on several threads). Every run also checks that pgn-arbiter's findings at 1 and at
# all threads are byte-identical, and, with REFERENCE_DIR=DIR, that they equal
# DIR/<input name>.jsonl (a reference run: `pgn-arbiter audit FILE --jsonl`,
# or oracle.py's output compared with ../shared/tools/compare.py), and, with
# BEFORE=BINARY (an older build), that BINARY's findings are byte-identical
# (the check for a change that must not change what is found). At the end a
# per-file table in Markdown: 1 thread against pgn-extract -r and against
# the bare replay, and 2 threads against 1 with (user + sys) / wall (how
# busy the cores were). With THOROUGH=1, last, `--dead thorough` on the
# CHA test vectors as games lost on time (scripts/vectors.sh) at 1 thread
# and at all threads, once each (minutes). Each command runs REPEAT times (default
# 3); the best wall time counts. BIN=PATH benches another build of
# pgn-arbiter (target/release-lto/pgn-arbiter, scripts/pgo.sh's), and
# BASELINE_PROFILE=release-lto builds the bare replay with the same
# whole-program optimisation (default: cargo bench's profile). Needs: a
# release build (cargo build --release), /usr/bin/time, pgn-extract (apt-get install pgn-extract), zstd.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-"$here/target/release/pgn-arbiter"}
repeat=${REPEAT:-3}
oracle_games=${ORACLE_GAMES:-2000}
oracle="$here/../shared/tools/oracle.py"
cores=$(nproc)
pgnextract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
# the bare replay baseline (benches/replay_baseline.rs): pgn-reader + shakmaty only
# (BASELINE_PROFILE=release-lto builds it as the release-lto binary is built)
baseline_profile=${BASELINE_PROFILE:-bench}
baseline=$(cd "$here" && cargo bench --bench replay_baseline --no-run --profile "$baseline_profile" 2>&1 \
  | sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -1) \
  || { echo "bench.sh: cannot build the bare replay (cargo bench --profile $baseline_profile)" >&2; exit 2; }
case "$baseline" in /* | "") ;; *) baseline="$here/$baseline" ;; esac

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.one" "$tmp.all" "$tmp.before" "$tmp.vectors" "$tmp.v"*' EXIT
table=()
best() { # best wall seconds, max RSS (KB) and the best run's (user + sys) s over $repeat runs
  local b="" rss=0 t m cpu bcpu=""
  for _ in $(seq "$repeat"); do
    # wall time in ms resolution (time's %e has 10 ms: too coarse for small files)
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -o "$tmp" -f "%M %U %S" "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')
    read -r m u sy < <(tail -1 "$tmp")
    cpu=$(awk -v u="$u" -v s="$sy" 'BEGIN{printf "%.2f", u+s}')
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a<b)}'; then b=$t; bcpu=$cpu; fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  echo "$b $rss $bcpu"
}
busy() { # (user + sys) / wall
  awk -v c="$1" -v w="$2" 'BEGIN{printf "%.2f", c/(w>0?w:1e-3)}'
}

printf "%-42s %-26s %8s %9s %11s %8s %8s\n" input tool seconds MB/s games/s RSS_MB ratio
for f in "$@"; do
  name=$(basename "$f")
  size=$(stat -c %s "$f")
  case "$f" in *.zst) mb=$(zstd -dc "$f" | wc -c);; *) mb=$size;; esac
  games=$("$bin" audit "$f" --quiet --summary-json - | python3 -c "import json,sys; print(json.load(sys.stdin)['total']['games_read'])")
  base=""; before=""
  row() { # tool-label seconds rss reference-seconds
    local mbs gps ratio
    mbs=$(awk -v b="$mb" -v s="$2" 'BEGIN{printf "%.1f", b/1e6/(s>0?s:1e-3)}')
    gps=$(awk -v g="$games" -v s="$2" 'BEGIN{printf "%.0f", g/(s>0?s:1e-3)}')
    ratio=$(awk -v r="${4:-}" -v s="$2" 'BEGIN{ if (r=="") print "-"; else printf "%.2fx", r/(s>0?s:1e-3)}')
    printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "$1" "$2" "$mbs" "$gps" "$(( $3 / 1024 ))" "$ratio"
  }
  ref=""
  if [[ "$f" != *.zst ]] && [ -x "$pgnextract" ]; then
    read -r s r _ < <(best "$pgnextract" -r -s "$f")
    ref=$s
    row "pgn-extract -r" "$s" "$r" ""
    read -r s r _ < <(best "$pgnextract" --repetition -s -o /dev/null "$f")
    row "pgn-extract --repetition" "$s" "$r" "$ref"
  fi
  if [[ "$f" != *.zst ]] && [ -x "$baseline" ]; then
    read -r s r _ < <(best "$baseline" "$f")
    base=$s
    row "replay baseline (1 thread)" "$s" "$r" "$ref"
  fi
  if [[ "$f" == *.zst ]]; then
    read -r s r _ < <(best zstd -dc "$f")
    row "zstd -dc (floor)" "$s" "$r" ""
    # a pzstd file (it starts with a skippable frame) decodes on all cores
    if [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' ')" = "502a4d18" ] && command -v pzstd >/dev/null; then
      read -r s r _ < <(best pzstd -q -d -p "$cores" -c "$f")
      row "pzstd -d -p $cores (floor)" "$s" "$r" ""
    fi
  fi
  if [ -f "$oracle" ] && python3 -c "import chess" 2>/dev/null; then
    read -r s r _ < <(best python3 "$oracle" "$f" --limit "$oracle_games")
    # games/s over the sample; ratio: pgn-arbiter 1 thread games/s over this
    ogps=$(awk -v g="$oracle_games" -v s="$s" 'BEGIN{printf "%.0f", g/(s>0?s:1e-3)}')
    printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "python-chess ($oracle_games games)" "$s" "-" "$ogps" "$(( r / 1024 ))" "-"
  fi
  "$bin" audit "$f" --quiet --threads 1 --jsonl "$tmp.one" 2>/dev/null || true
  "$bin" audit "$f" --quiet --threads "$cores" --jsonl "$tmp.all" 2>/dev/null || true
  if cmp -s "$tmp.one" "$tmp.all"; then same=yes; else same=NO; fi
  read -r s r _ < <(best "$bin" audit "$f" --quiet --threads 1 --jsonl /dev/null)
  one=$s
  row "pgn-arbiter 1 thread" "$s" "$r" "$ref"
  # the statistics report in the same pass (issue: at most +10 %)
  read -r s r _ < <(best "$bin" audit "$f" --quiet --threads 1 --jsonl /dev/null --report-json /dev/null --html /dev/null)
  row "pgn-arbiter 1 thread + report" "$s" "$r" "$ref"
  printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "  (report's time vs none)" "" "" "" "" "$(awk -v a="$s" -v b="$one" 'BEGIN{printf "%.3fx", a/(b>0?b:1e-3)}')"
  if [ -n "${base:-}" ]; then
    printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "  (1 thread vs baseline)" "" "" "" "" "$(awk -v a="$base" -v b="$one" 'BEGIN{printf "%.2fx", a/(b>0?b:1e-3)}')"
  fi
  read -r s r c < <(best "$bin" audit "$f" --quiet --threads "$cores" --jsonl /dev/null)
  row "pgn-arbiter $cores threads" "$s" "$r" "$ref"
  printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "  ($cores threads vs 1)" "" "" "" "" "$(awk -v a="$one" -v b="$s" 'BEGIN{printf "%.2fx", a/(b>0?b:1e-3)}')"
  printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "  ((user+sys)/wall)" "" "" "" "" "$(busy "$c" "$s")"
  all=$s
  if [ -n "${ogps:-}" ]; then
    printf "%-42s %-26s %8s %9s %11s %8s %8s\n" "$name" "  (1 thread vs python-chess)" "" "" "" "" "$(awk -v g="$games" -v s="$one" -v o="$ogps" 'BEGIN{printf "%.0fx", g/(s>0?s:1e-3)/o}')"
  fi
  echo "$name: findings at 1 and $cores threads byte-identical: $same ($(wc -l < "$tmp.one") findings)"
  if [ -n "${BEFORE:-}" ]; then
    "$BEFORE" audit "$f" --quiet --threads 1 --jsonl "$tmp.before" 2>/dev/null || true
    if cmp -s "$tmp.one" "$tmp.before"; then before=yes; else before=NO; fi
    echo "$name: findings byte-identical to $BEFORE: $before"
  fi
  table+=("| $name | $(awk -v b="$mb" 'BEGIN{printf "%.1f", b/1e6}') | $games | ${ref:--} | $one | $(awk -v r="${ref:-}" -v s="$one" 'BEGIN{ if (r=="") print "-"; else printf "%.2fx", r/(s>0?s:1e-3)}') | $(awk -v a="${base:-}" -v b="$one" 'BEGIN{ if (a=="") print "-"; else printf "%.2fx", a/(b>0?b:1e-3)}') | $(awk -v a="$one" -v b="$all" 'BEGIN{printf "%.2fx", a/(b>0?b:1e-3)}') ($(busy "$c" "$all")) | $same${before:+ / $before} |")
  if [ -n "${REFERENCE_DIR:-}" ] && [ -f "$REFERENCE_DIR/$name.jsonl" ]; then
    if python3 "$here/../shared/tools/compare.py" --ignore-offset "$REFERENCE_DIR/$name.jsonl" "$tmp.one" >/dev/null; then
      echo "$name: findings equal the reference run: yes"
    else
      echo "$name: findings equal the reference run: NO (see compare.py)"
    fi
  fi
  ogps=""
done
echo "ratio: the reference (pgn-extract -r) time divided by this time; cores: $cores; repeat: $repeat (best time)"
echo
echo "| input | MB | games | pgn-extract -r s | pgn-arbiter 1 thread s | vs pgn-extract -r | vs bare replay | $cores threads vs 1 ((user+sys)/wall) | same findings (1/$cores threads${BEFORE:+ / before}) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${table[@]}"
if [ "${THOROUGH:-0}" = 1 ]; then
  # the small, expensive input: every game asks the engine a hard question
  "$here/scripts/vectors.sh" > "$tmp.vectors"
  echo
  echo "| --dead thorough on the CHA vectors ($(grep -c '^\[Event' "$tmp.vectors") games) | wall s | (user+sys) s | (user+sys)/wall |"
  echo "|---|---:|---:|---:|"
  for t in 1 "$cores"; do
    read -r s r c < <(repeat=1 best "$bin" audit "$tmp.vectors" --quiet --threads "$t" --dead thorough --jsonl "$tmp.v$t")
    echo "| $t thread(s) | $s | $c | $(busy "$c" "$s") |"
  done
  if cmp -s "$tmp.v1" "$tmp.v$cores"; then echo "vectors: findings at 1 and $cores threads byte-identical: yes"; else echo "vectors: findings at 1 and $cores threads byte-identical: NO"; fi
fi
