#!/usr/bin/env python3
"""Reads an --export-pgn file back as a chess GUI user's tools would:

    check_export.py FINDINGS.jsonl EXPORT.pgn NAME=PLAIN.pgn... [--pgn-extract PATH]

FINDINGS.jsonl is the --jsonl of the same run (no --export-kinds). The
exported games are the games with findings, in order. For each:

* python-chess reads the original game (at its `offset` in PLAIN.pgn) and
  the exported one: the same mainline, the same tags but for
  PgnArbiterFindings (the kinds, in order), OriginalResult and Result;
* the comment "pgn-arbiter: ..." stands at the node of each finding's ply
  (the game's own comment for ply 0);
* where OriginalResult is present it holds the original Result and Result
  differs from it; elsewhere Result is unchanged;
* with --pgn-extract, pgn-extract reads both (original games and exported
  ones) to the same moves, in UCI, without comments, tags and results.

Prints a count; exits 1 on any problem (the first ten are printed).
"""

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile

import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_findings import game_text  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("findings")
    ap.add_argument("export")
    ap.add_argument("pgns", nargs="+")
    ap.add_argument("--pgn-extract")
    a = ap.parse_args()

    plain = {}
    for spec in a.pgns:
        name, path = spec.split("=", 1)
        with open(path, "rb") as f:
            plain[name] = f.read()

    games = []  # (file, game) -> findings, in order
    index = {}
    with open(a.findings, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            key = (r["file"], r["game"])
            if key not in index:
                index[key] = len(games)
                games.append((r, []))
            games[index[key]][1].append(r)

    with open(a.export, encoding="utf-8", errors="replace") as f:
        exported = f.read()
    stream = io.StringIO(exported)
    problems = []
    originals = []
    n = 0
    for first, findings in games:
        data = next((d for k, d in plain.items() if first["file"].endswith(k)), None)
        if data is None:
            problems.append(f"no PGN given for {first['file']}")
            break
        raw = game_text(data, first["offset"])
        originals.append(raw)
        og = chess.pgn.read_game(io.StringIO(raw.decode("utf-8", "replace")))
        eg = chess.pgn.read_game(stream)
        where = f"{first['file']} game {first['game'] + 1}"
        if eg is None:
            problems.append(f"{where}: missing from the export")
            break
        n += 1
        if [m.uci() for m in og.mainline_moves()] != [m.uci() for m in eg.mainline_moves()]:
            problems.append(f"{where}: the mainline differs")
        kinds = ",".join(dict.fromkeys(r["kind"] for r in findings))
        if eg.headers.get("PgnArbiterFindings") != kinds:
            problems.append(f"{where}: PgnArbiterFindings {eg.headers.get('PgnArbiterFindings')!r} != {kinds!r}")
        for k in set(og.headers) | set(eg.headers):
            if k in ("PgnArbiterFindings", "OriginalResult", "Result"):
                continue
            if og.headers.get(k) != eg.headers.get(k):
                problems.append(f"{where}: tag {k} changed")
        if "OriginalResult" in eg.headers:
            if eg.headers["OriginalResult"] != og.headers.get("Result", "?"):
                problems.append(f"{where}: OriginalResult is not the original Result")
            if eg.headers["Result"] == eg.headers["OriginalResult"]:
                problems.append(f"{where}: Result 'fixed' to the same value")
        elif eg.headers.get("Result") != og.headers.get("Result"):
            problems.append(f"{where}: Result changed without OriginalResult")
        nodes = [eg] + list(eg.mainline())
        for r in findings:
            node = nodes[r["ply"]] if r["ply"] < len(nodes) else None
            if node is None or "pgn-arbiter:" not in node.comment:
                problems.append(f"{where}: no comment at ply {r['ply']} for {r['kind']}")
    if chess.pgn.read_game(stream) is not None:
        problems.append("more games exported than games with findings")

    if a.pgn_extract and not problems:
        def moves(text):
            with tempfile.NamedTemporaryFile("wb", suffix=".pgn", delete=False) as t:
                t.write(text)
            try:
                out = subprocess.run(
                    [a.pgn_extract, "-s", "-C", "-N", "-V", "--notags", "--noresults",
                     "--nomovenumbers", "-Wuci", "-w100000", t.name],
                    capture_output=True, check=False)
            finally:
                os.unlink(t.name)
            return [g.split() for g in out.stdout.decode("utf-8", "replace").split("\n\n") if g.strip()]

        before = moves(b"\n\n".join(o.rstrip() for o in originals) + b"\n")
        after = moves(exported.encode("utf-8"))
        if before != after:
            diff = next((i for i, (x, y) in enumerate(zip(before, after)) if x != y), min(len(before), len(after)))
            problems.append(f"pgn-extract reads {len(before)} original and {len(after)} exported games; first difference at game {diff + 1}")
        else:
            print(f"pgn-extract: the same moves in all {len(after)} games")
    for p in problems[:10]:
        print(p)
    print(f"{n} exported games checked, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
