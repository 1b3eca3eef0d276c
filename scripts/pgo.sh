#!/usr/bin/env bash
# A profile-guided build of the CLI, the fastest one (optional; `cargo
# build --release` stays the everyday build). The audit's wall time is held
# back less by its instructions than by its code footprint: each game runs the tag reader, the site rules,
# the end-of-game proofs, which push the move loop out of the instruction
# cache (docs/PERFORMANCE.md). A build laid out by a profile keeps the hot
# paths together: trained on the bundled data/ alone, callgrind counts 65 %
# fewer L1 instruction-cache misses and 9 % fewer instructions on the
# shared Lichess file (docs/PERFORMANCE.md, for the wall time it buys).
#
#   scripts/pgo.sh [TRAINING_FILE...]     (default: the bundled data/ and
#                                          copies in sites' formats, below)
#   -> target/pgo-release-lto/build/release-lto/pgn-arbiter
#
# built with the `release-lto` profile (fat LTO, one codegen unit: about
# five minutes for both builds); PROFILE=release lays out the everyday
# release build instead (-> target/pgo-release/build/release/). On glibc
# Linux the binary is linked statically and not position-independent
# (STATIC=0: dynamically; PIE=1: a static-pie; see below), and for
# x86-64-v3 where this CPU has it (CPU=x86-64: for any x86-64; see below).
#
# Needs the llvm-profdata of this rustc's LLVM: `rustup component add
# llvm-tools`. CARGO_ARGS (e.g. "--features parquet") goes to both builds.
# The training runs audit each file at 1 thread, once plainly and once
# with the statistics report, so that both paths are profiled.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
profdata=$(find "$(rustc --print sysroot)/lib/rustlib" -name llvm-profdata -type f 2>/dev/null | head -1)
if [ -z "$profdata" ]; then
  echo "pgo.sh: no llvm-profdata for $(rustc --version): rustup component add llvm-tools" >&2
  exit 2
fi
profile=${PROFILE:-release-lto}
# cargo puts the dev and test profiles' binaries in debug/
case "$profile" in dev | test) out=debug ;; *) out=$profile ;; esac
dir="$here/target/pgo-$profile"
rm -rf "$dir/profiles" "$dir/merged.profdata"
mkdir -p "$dir/profiles"
# The default training: the bundled samples, and copies of the Lichess
# sample in the export formats of Lichess (a clock and evaluation comment
# after every move), chess.com and FICS (scripts/annotate.awk): trained on
# the comment-free samples alone, the comment paths and those sites' rules
# were laid out as cold code (docs/PERFORMANCE.md).
if [ $# -gt 0 ]; then
  train=("$@")
else
  train=("$here"/data/*.pgn "$here"/data/*.pgn.zst)
  for style in lichess chesscom fics; do
    awk -v style="$style" -f "$here/scripts/annotate.awk" "$here/data/lichess-2000.pgn" >"$dir/$style.pgn"
    train+=("$dir/$style.pgn")
  done
fi
cd "$here"
# Linked statically on glibc Linux (STATIC=0: dynamically): the dynamic
# loader's relocations and symbol lookups took about 0.3 ms of every run,
# a few per cent of a file of 10 ms (docs/PERFORMANCE.md). --target keeps
# the flag off the build's own proc-macros, which must stay dynamic.
host=$(rustc -vV | sed -n 's/^host: //p')
flags="" target=() sub=""
if [ "${STATIC:-1}" = 1 ] && [[ "$host" == *-linux-gnu ]]; then
  flags="-Ctarget-feature=+crt-static" target=(--target "$host") sub="$host/"
  # Not position-independent (PIE=1: a static-pie, as before): the move
  # loop's tables (magic bitboards, Zobrist keys) are then indexed at
  # fixed addresses, one instruction less per lookup (-3.3 % instructions
  # on the FICS file), and nothing is relocated at start. The cost: the
  # binary's own code and data are not placed at random (heap, stack and
  # mappings still are), as in Go's static binaries.
  [ "${PIE:-0}" = 1 ] || flags="$flags -Crelocation-model=static"
fi
# For the CPU that builds it, at most x86-64-v3 (AVX2, BMI1/2, LZCNT,
# MOVBE, FMA: Intel since 2013, AMD since 2015), when the C library says
# this one has it: BLSR, TZCNT and POPCNT for the bitboards' loops, and no
# run-time probe for memchr's AVX2: 4.9 % fewer instructions on the FICS
# file (docs/PERFORMANCE.md). The binary then does not start on an older
# CPU. CPU=x86-64 builds for any x86-64, CPU=native for every feature of
# this one.
cpu=${CPU:-}
if [ -z "$cpu" ] && [[ "$host" == x86_64-* ]] && [ -x /lib64/ld-linux-x86-64.so.2 ] &&
  /lib64/ld-linux-x86-64.so.2 --help 2>/dev/null | grep -q 'x86-64-v3 (supported'; then
  cpu=x86-64-v3
fi
[ -z "$cpu" ] || flags="$flags -Ctarget-cpu=$cpu"
# shellcheck disable=SC2086 # CARGO_ARGS is a list of words
RUSTFLAGS="-Cprofile-generate=$dir/profiles $flags" cargo build --profile "$profile" ${CARGO_ARGS:-} "${target[@]}" --target-dir "$dir/instrumented"
for f in "${train[@]}"; do
  "$dir/instrumented/$sub$out/pgn-arbiter" audit --threads 1 --quiet --jsonl /dev/null "$f"
  "$dir/instrumented/$sub$out/pgn-arbiter" audit --threads 1 --quiet --jsonl /dev/null --report-json /dev/null "$f"
done
"$profdata" merge -o "$dir/merged.profdata" "$dir/profiles"
# shellcheck disable=SC2086
RUSTFLAGS="-Cprofile-use=$dir/merged.profdata -Cllvm-args=-pgo-warn-missing-function=false $flags" \
  cargo build --profile "$profile" ${CARGO_ARGS:-} "${target[@]}" --target-dir "$dir/build"
# the same path either way
if [ -n "$sub" ]; then
  mkdir -p "$dir/build/$out"
  cp "$dir/build/$sub$out/pgn-arbiter" "$dir/build/$out/pgn-arbiter"
fi
echo "$dir/build/$out/pgn-arbiter"
