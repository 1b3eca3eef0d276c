"""Writes the games of a PGN file as Parquet in the layout of the Lichess
dataset on Hugging Face (Lichess/standard-chess-games): one row per game,
tag columns with their types there (ratings as integers, UTCDate as a date,
UTCTime as a time) and the whole movetext in `movetext`; and, beside it,
DST.pgn with the same games as PGN (only standard games from the start
position: the dataset holds no others).

    python3 tests/hf_parquet.py SRC.pgn DST.parquet [--no-movetext] [--row-group-size N]
"""

import datetime
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq

TEXT = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "ECO",
        "Opening", "Termination", "TimeControl"]
NUMBERS = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]


def games_of(text):
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        head, _, moves = block.partition("\n\n")
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', head, flags=re.M))
        if not ({"FEN", "Variant", "SetUp"} & tags.keys()):
            yield block, tags, moves


def main(src, dst, movetext=True, row_group_size=1000):
    games = list(games_of(open(src, encoding="utf-8").read()))

    def number(v):
        try:
            return int(v)
        except (TypeError, ValueError):
            return None

    def day(v):
        try:
            return datetime.date(*map(int, v.split(".")))
        except (AttributeError, TypeError, ValueError):
            return None

    def clock(v):
        try:
            return datetime.time(*map(int, v.split(":")))
        except (AttributeError, TypeError, ValueError):
            return None

    columns = {name: pa.array([t.get(name) for _, t, _ in games], pa.string()) for name in TEXT}
    for name in NUMBERS:
        columns[name] = pa.array([number(t.get(name)) for _, t, _ in games], pa.int16())
    # The dataset has no Date: UTCDate is the day played (older exports
    # wrote it as Date only).
    columns["UTCDate"] = pa.array([day(t.get("UTCDate") or t.get("Date")) for _, t, _ in games], pa.date32())
    columns["UTCTime"] = pa.array([clock(t.get("UTCTime")) for _, t, _ in games], pa.time64("us"))
    if movetext:
        columns["movetext"] = pa.array([m for _, _, m in games], pa.large_string())
    pq.write_table(pa.table(columns), dst, row_group_size=row_group_size, compression="zstd")
    # The same games as PGN: the tags the dataset has (what the Parquet
    # input does with UTCDate written out as Date), the movetext as it was.
    kept = set(TEXT) | set(NUMBERS) | {"UTCDate", "UTCTime"}
    with open(dst + ".pgn", "w", encoding="utf-8") as out:
        for block, tags, moves in games:
            head = [line for line in block.partition("\n\n")[0].splitlines()
                    if re.match(r"\[(\w+) ", line) and re.match(r"\[(\w+) ", line).group(1) in kept]
            when = tags.get("UTCDate") or tags.get("Date")
            if when:
                head.append('[Date "%s"]' % when)
            out.write("\n".join(head) + "\n\n" + moves + "\n\n")
    print(len(games))


if __name__ == "__main__":
    rest = sys.argv[3:]
    size = int(rest[rest.index("--row-group-size") + 1]) if "--row-group-size" in rest else 1000
    main(sys.argv[1], sys.argv[2], "--no-movetext" not in rest, size)
