#!/usr/bin/env python3
"""Checks findings (JSON Lines) the way a consumer would, independently of
pgn-arbiter:

    check_findings.py SCHEMA FINDINGS.jsonl [--pgn NAME=PLAIN.pgn ...] [--replay]

* every line validates against the JSON Schema (python `jsonschema`);
* with --pgn, for findings of that file (matched by `file` ending in NAME):
  the game starts at `offset` on line `line`; `game_id` is XXH3-128 of the
  game's text without carriage returns and trailing whitespace (python
  `xxhash`), where that text is cut as pgn-arbiter cuts it (up to the blank
  line before the next tag section, which is what real files hold);
* with --replay, python-chess reads the game at `offset`, plays the mainline
  to `ply`, and the position's FEN and move number equal `fen` and
  `move_number`; a `san` of a missed claim is a legal move there.

Prints a count and exits 1 on the first ten problems.
"""

import argparse
import io
import json
import sys

import jsonschema


def game_text(data, offset):
    """The game's text from offset: to the blank line before the next '['."""
    end = len(data)
    pos = offset
    while True:
        i = data.find(b"\n", pos)
        if i < 0:
            break
        nxt = data.find(b"\n", i + 1)
        line = data[i + 1 : nxt if nxt >= 0 else len(data)]
        if line.strip() == b"":
            # blank line: the game ends here if a tag section follows
            j = i + 1
            while True:
                k = data.find(b"\n", j)
                if k < 0:
                    break
                if data[j:k].strip() != b"":
                    break
                j = k + 1
            if data[j : j + 1] == b"[":
                end = i + 1
                break
        pos = i + 1
    return data[offset:end]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("schema")
    ap.add_argument("findings")
    ap.add_argument("--pgn", action="append", default=[])
    ap.add_argument("--replay", action="store_true")
    a = ap.parse_args()

    with open(a.schema, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    pgns = {}
    for spec in a.pgn:
        name, path = spec.split("=", 1)
        with open(path, "rb") as f:
            pgns[name] = f.read()
    xxh = None
    if pgns:
        import xxhash

        xxh = xxhash
    if a.replay:
        import chess.pgn

    problems = []
    counted = {}
    n = checked = 0
    with open(a.findings, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            n += 1
            r = json.loads(line)
            for e in validator.iter_errors(r):
                problems.append(f"line {no}: schema: {e.message}")
            name = next((k for k in pgns if r["file"].endswith(k)), None)
            if name is None:
                continue
            data = pgns[name]
            checked += 1
            off = r["offset"]
            # lines counted on from the last finding of the file (in order)
            last_off, last_lines = counted.get(name, (0, 0))
            if off < last_off:
                last_off, last_lines = 0, 0
            lines = last_lines + data.count(b"\n", last_off, off)
            counted[name] = (off, lines)
            if lines + 1 != r["line"]:
                problems.append(f"line {no}: game at byte {off} is not on line {r['line']}")
            raw = game_text(data, off)
            text = raw.replace(b"\r", b"").rstrip()
            gid = xxh.xxh3_128_hexdigest(text)
            if gid != r["game_id"]:
                problems.append(f"line {no}: game_id {r['game_id']} != {gid}")
            if a.replay:
                game = chess.pgn.read_game(io.StringIO(raw.decode("utf-8", "replace")))
                board = game.board()
                moves = list(game.mainline_moves())
                if r["ply"] > len(moves):
                    problems.append(f"line {no}: ply {r['ply']} beyond {len(moves)} moves")
                    continue
                for m in moves[: r["ply"]]:
                    board.push(m)
                if board.fen() != r["fen"]:
                    problems.append(f"line {no}: fen {r['fen']} != {board.fen()}")
                if board.fullmove_number != r["move_number"]:
                    problems.append(f"line {no}: move_number {r['move_number']} != {board.fullmove_number}")
                if "san" in r and r["kind"] != "invalid_game":
                    try:
                        board.parse_san(r["san"])
                    except ValueError as e:
                        problems.append(f"line {no}: san {r['san']} is not legal: {e}")
    for p in problems[:10]:
        print(p)
    print(f"{n} findings, {checked} checked against their PGN, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
